import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { JobRepository } from '../repositories/job-repository.js';
import type { IdempotencyRepository } from '../repositories/idempotency-repository.js';
import type { Storage } from '../repositories/storage.js';
import type { JobQueue } from '../services/job-service.js';
import { changeMaskKey } from '../services/job-view.js';

const EXPIRY_BATCH = 500;

/**
 * Keeps the queue honest against the database: pending jobs that no queue holds are put back (after a crash, or
 * when another process accepted them), and outputs and idempotency keys past their retention are removed.
 */
export class JobSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly deps: {
      jobs: JobRepository;
      idempotency: IdempotencyRepository;
      storage: Storage;
      queue: JobQueue;
      config: Config;
      logger: Logger;
    },
  ) {}

  /** Every job pending at start-up was accepted by a process that is gone: run it again. */
  async recoverAtStart(): Promise<void> {
    const ids = await this.deps.jobs.listPendingIds();
    if (ids.length > 0) this.deps.logger.info({ count: ids.length }, 'resuming jobs left pending by the previous run');
    for (const id of ids) this.deps.queue.enqueue(id);
  }

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.sweep()
        .catch((error: unknown) => this.deps.logger.error({ err: error }, 'sweep failed'))
        .finally(() => {
          this.running = undefined;
        });
    }, this.deps.config.jobs.sweepIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async sweep(now = new Date()): Promise<void> {
    const { jobs, queue, storage, config } = this.deps;
    // A job started longer ago than the job timeout is no longer running anywhere.
    const stuckBefore = new Date(now.getTime() - config.jobs.timeoutMs - config.jobs.shutdownGraceMs).toISOString();
    for (const id of await jobs.listPendingIds(stuckBefore)) queue.enqueue(id);

    const expired = await jobs.listExpiredOutputs(now.toISOString(), EXPIRY_BATCH);
    for (const job of expired) {
      if (job.output_key) {
        await storage.delete(job.output_key);
        await storage.delete(changeMaskKey(job.output_key));
      }
      await jobs.clearOutput(job.id);
    }
    if (expired.length > 0) this.deps.logger.info({ count: expired.length }, 'removed expired outputs');
    await this.deps.idempotency.deleteExpired(now.toISOString());
  }
}
