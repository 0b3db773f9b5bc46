import type { JobRepository } from '../repositories/job-repository.js';
import type { LocalStorage } from '../repositories/storage.js';
import { OPERATIONS } from './operations/registry.js';

export interface ComponentStatus {
  ok: boolean;
  detail: string;
}

export interface StatusSnapshot {
  status: 'ok' | 'degraded';
  version: string;
  uptimeSeconds: number;
  roles: string[];
  database: ComponentStatus & { engine: string };
  storage: ComponentStatus;
  workers: { threads: number; busy: number; queued: number };
  jobs: { pending: number; success: number; failed: number };
  operations: { name: string; path: string; mode: string; available: boolean }[];
  models: { name: string; present: boolean; verified: boolean; loaded: boolean; licence: string }[];
}

export interface WorkerStats {
  threads: number;
  busy: number;
  queued: number;
}

export class StatusService {
  private readonly startedAt = Date.now();

  constructor(
    private readonly deps: {
      jobs: JobRepository;
      storage: LocalStorage;
      engine: string;
      roles: string[];
      version: string;
      workerStats: () => WorkerStats;
    },
  ) {}

  async snapshot(): Promise<StatusSnapshot> {
    const [jobs, storage] = await Promise.all([
      this.deps.jobs.countByStatus().then(
        (counts) => ({ counts, database: { ok: true, detail: 'reachable' } }),
        (error: unknown) => ({
          counts: { pending: 0, success: 0, failed: 0 },
          database: { ok: false, detail: error instanceof Error ? error.message : 'unreachable' },
        }),
      ),
      this.deps.storage.check().then(
        () => ({ ok: true, detail: 'writable' }),
        () => ({ ok: false, detail: 'not writable' }),
      ),
    ]);
    const { database } = jobs;
    return {
      status: database.ok && storage.ok ? 'ok' : 'degraded',
      version: this.deps.version,
      uptimeSeconds: Math.round((Date.now() - this.startedAt) / 1000),
      roles: this.deps.roles,
      database: { ...database, engine: this.deps.engine },
      storage,
      workers: this.deps.workerStats(),
      jobs: jobs.counts,
      operations: OPERATIONS.map((op) => ({ name: op.name, path: `/v1/${op.name}`, mode: op.mode, available: Boolean(op.run) })),
      models: [],
    };
  }
}
