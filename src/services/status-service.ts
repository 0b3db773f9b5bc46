import type { JobRepository } from '../repositories/job-repository.js';
import type { Storage } from '../repositories/storage.js';
import type { ModelStatus } from '../repositories/models/model-store.js';
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
  /** The staging renderer (Blender): without it POST /v1/furnish answers 503 renderer_unavailable. */
  renderer: ComponentStatus;
  workers: { threads: number; busy: number; queued: number };
  jobs: { pending: number; success: number; failed: number };
  operations: { name: string; path: string; mode: string; available: boolean }[];
  models: { name: string; present: boolean; verified: boolean; loaded: boolean; licence: string }[];
  /** What a missing model means for the answers (see services/operations/model-policy.ts). */
  modelFallbacks: {
    /** ROOMCRAFT_ALLOW_MODEL_FALLBACKS. */
    allowed: boolean;
    /** Registry models that are not on disk. */
    missing: string[];
    /** In words. */
    effect: string;
  };
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
      storage: Storage;
      engine: string;
      roles: string[];
      version: string;
      workerStats: () => WorkerStats;
      /** The registry's models as the store sees them on disk (ModelStore.list). */
      models: () => Promise<ModelStatus[]>;
      /** Names of the models some worker thread has loaded. Default: none. */
      loadedModels?: () => ReadonlySet<string>;
      /** Whether operations may answer with a fallback when a model is missing. Default: no. */
      allowFallbacks?: boolean;
      /** Whether the staging renderer can run here (BlenderRenderer.available). */
      renderer: () => Promise<{ ok: true; version: string } | { ok: false; reason: string }>;
    },
  ) {}

  async snapshot(): Promise<StatusSnapshot> {
    const [jobs, storage, models, renderer] = await Promise.all([
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
      this.deps.models(),
      this.deps.renderer().then((r) =>
        r.ok ? { ok: true, detail: r.version } : { ok: false, detail: `${r.reason}; staging answers 503 renderer_unavailable` },
      ),
    ]);
    const loaded = this.deps.loadedModels?.() ?? new Set<string>();
    const { database } = jobs;
    return {
      status: database.ok && storage.ok ? 'ok' : 'degraded',
      version: this.deps.version,
      uptimeSeconds: Math.round((Date.now() - this.startedAt) / 1000),
      roles: this.deps.roles,
      database: { ...database, engine: this.deps.engine },
      storage,
      renderer,
      workers: this.deps.workerStats(),
      jobs: jobs.counts,
      operations: OPERATIONS.map((op) => ({ name: op.name, path: `/v1/${op.name}`, mode: op.mode, available: Boolean(op.run) })),
      models: models.map(({ name, present, verified, licence }) => ({ name, present, verified, loaded: loaded.has(name), licence })),
      modelFallbacks: modelFallbacks(this.deps.allowFallbacks ?? false, models.filter((m) => !m.present).map((m) => m.name)),
    };
  }
}

function modelFallbacks(allowed: boolean, missing: string[]): StatusSnapshot['modelFallbacks'] {
  const effect =
    missing.length === 0
      ? 'every model is installed'
      : allowed
        ? 'a job that needs a missing model runs with its fallback (Lanczos-3 instead of a network, ...), and its result ' +
          'and the X-Roomcraft-Degraded header say so; a model without a fallback still answers 503'
        : 'a job that needs a missing model answers 503 service_unavailable naming it; install the models with ' +
          '"roomcraft models install", or allow fallbacks with ROOMCRAFT_ALLOW_MODEL_FALLBACKS=true';
  return { allowed, missing, effect };
}
