import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { JobRepository } from '../repositories/job-repository.js';
import type { IdempotencyRepository } from '../repositories/idempotency-repository.js';
import type { Storage } from '../repositories/storage.js';
import { discardStoredInputs, type JobQueue } from '../services/job-service.js';
import { changeMaskKey } from '../services/job-view.js';

const EXPIRY_BATCH = 500;
/**
 * Stored inputs recorded longer ago than this whose job has settled, or was never written, are removed. A submit
 * writes its job within moments of recording its inputs; an hour leaves any slow store a wide margin.
 */
const ABANDONED_INPUT_AGE_MS = 60 * 60_000;

/**
 * Keeps the queue honest against the database: pending jobs that no queue holds are put back (after a crash, or
 * when another process accepted them), and outputs and idempotency keys past their retention are removed, as are
 * inputs that outlived their job.
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

  /**
   * Pending jobs nobody holds a claim on are queued at start: those a previous run left (its claims released at
   * shutdown, or lapsed after a crash) and those an API process accepted while no worker ran.
   */
  async recoverAtStart(now = new Date()): Promise<void> {
    const jobs = await this.deps.jobs.listUnclaimed(now.toISOString());
    if (jobs.length > 0) this.deps.logger.info({ count: jobs.length }, 'queueing jobs left pending');
    for (const job of jobs) this.deps.queue.enqueue(job.id, job.queue);
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
    // A lapsed claim means its worker is gone; a job never claimed for a whole sweep interval lost its queue entry
    // (the process that accepted it died before queueing it, or the queue lost it). Either way: queue it again.
    const acceptedBefore = new Date(now.getTime() - config.jobs.sweepIntervalMs).toISOString();
    for (const job of await jobs.listUnclaimed(now.toISOString(), acceptedBefore)) queue.enqueue(job.id, job.queue);

    const expired = await jobs.listExpiredOutputs(now.toISOString(), EXPIRY_BATCH);
    for (const job of expired) {
      if (job.output_key) {
        await storage.delete(job.output_key);
        await storage.delete(changeMaskKey(job.output_key));
      }
      await jobs.clearOutput(job.id);
    }
    if (expired.length > 0) this.deps.logger.info({ count: expired.length }, 'removed expired outputs');

    // Inputs are removed when their job settles; these are what a process that stopped at the wrong moment left.
    const recordedBefore = new Date(now.getTime() - ABANDONED_INPUT_AGE_MS).toISOString();
    const abandoned = await jobs.listAbandonedStoredInputs(recordedBefore, EXPIRY_BATCH);
    await discardStoredInputs({ storage, jobs }, abandoned);
    if (abandoned.length > 0) this.deps.logger.info({ count: abandoned.length }, 'removed stored inputs of settled jobs');
    await this.deps.idempotency.deleteExpired(now.toISOString());
  }
}
