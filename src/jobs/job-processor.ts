import crypto from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import { AppError } from '../errors.js';
import type { Config } from '../config/config.js';
import { outcomeColumns, type JobOutcome, type JobRepository, type JobRow } from '../repositories/job-repository.js';
import { StorageObjectMissing, type Storage } from '../repositories/storage.js';
import type { NewDelivery } from '../repositories/webhook-repository.js';
import type { JobEvents } from '../services/job-events.js';
import type { WebhookRequest } from '../services/webhook-service.js';
import { changeMaskKey, outputUrl, toJobView } from '../services/job-view.js';
import { discardStoredInputs, storedInputKeys, type StoredRequest } from '../services/job-service.js';
import type { WorkerPool } from './worker-pool.js';
import { jobTask, type StoredInputBytes } from './task.js';
import { retryTransient } from './retry-transient.js';

/** What the processor needs of the webhook service: a delivery to write with the settle, and a nudge once written. */
export interface WebhookSink {
  newDelivery(request: WebhookRequest): NewDelivery;
  wake(): void;
}

/** Tells other processes (the API processes waiting on synchronous requests) that a job settled. */
export interface SettlePublisher {
  publish(jobId: string): Promise<void>;
}

/** Writes progress at most this often, so a chatty operation does not hammer the database. */
const PROGRESS_WRITE_MS = 500;

/**
 * The one handler of every job: it claims the job with a lease, has a worker thread produce the result, stores it,
 * settles the job together with its webhook delivery, and announces the outcome. It knows nothing about any
 * particular operation.
 */
export class JobProcessor {
  private readonly shutdown = new AbortController();
  /** This process's name on the claims it holds: unique per start, so a restarted process never owns old claims. */
  readonly owner = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;

  constructor(
    private readonly deps: {
      jobs: JobRepository;
      storage: Storage;
      pool: WorkerPool;
      events: JobEvents;
      webhooks: WebhookSink;
      publisher?: SettlePublisher;
      config: Config;
      logger: Logger;
    },
  ) {}

  /** Aborts running jobs; their claims are given up, so they run again at once, here after a restart or elsewhere. */
  stop(): void {
    this.shutdown.abort(new AppError('job_aborted', 503, 'the service is shutting down'));
  }

  async process(jobId: string): Promise<void> {
    const { jobs, config } = this.deps;
    const logger = this.deps.logger.child({ jobId });
    const now = Date.now();
    const job = await jobs.claim(jobId, this.owner, new Date(now).toISOString(), new Date(now + config.jobs.leaseMs).toISOString());
    if (!job) return;
    const lease = this.holdLease(jobId, logger);
    try {
      if (job.attempts >= config.jobs.maxAttempts) {
        const failure = new AppError('processing_failed', 500, `gave up after ${job.attempts} attempts`);
        await this.settle(job, failureOutcome(failure), logger);
        return;
      }
      await this.run(job, lease.lost, logger);
    } finally {
      lease.stop();
    }
  }

  private async run(job: JobRow, leaseLost: AbortSignal, logger: Logger): Promise<void> {
    const { jobs, config } = this.deps;
    const request = JSON.parse(job.request) as StoredRequest;
    const timeout = AbortSignal.timeout(config.jobs.timeoutMs);
    const signal = AbortSignal.any([timeout, this.shutdown.signal, leaseLost]);
    let lastProgressWrite = 0;
    let attempt: Promise<number | undefined> = Promise.resolve(job.attempts);
    const started = performance.now();
    let outcome: JobOutcome;
    try {
      const output = await this.deps.pool.run(jobTask(job.operation, request, await this.readInputs(request), { watermark: job.key_kind === 'test' }), {
        signal,
        onStarted: () => {
          attempt = jobs.chargeAttempt(job.id, this.owner, new Date().toISOString()).then(
            (n) => {
              logger.info({ operation: job.operation, attempt: n }, 'job started');
              return n;
            },
            // Uncounted rather than failed: a database hiccup here is no reason to lose the work under way.
            (error: unknown) => {
              logger.warn({ err: error }, 'could not count the attempt');
              return undefined;
            },
          );
        },
        onProgress: (fraction) => {
          const now = Date.now();
          if (now - lastProgressWrite < PROGRESS_WRITE_MS) return;
          lastProgressWrite = now;
          void jobs.updateProgress(job.id, fraction).catch(() => {});
        },
      });
      await attempt;
      const outputKey = `${crypto.randomBytes(16).toString('hex')}.${output.extension}`;
      await this.deps.storage.put(outputKey, output.bytes);
      let result = output.result;
      if (output.changeMask) {
        const maskKey = changeMaskKey(outputKey);
        await this.deps.storage.put(maskKey, output.changeMask);
        result = { ...result, changeMask: outputUrl(config.publicUrl, maskKey) };
      }
      const completedAt = new Date();
      outcome = {
        status: 'success',
        outputKey,
        contentType: output.contentType,
        result,
        completedAt: completedAt.toISOString(),
        outputExpiresAt: new Date(completedAt.getTime() + config.jobs.outputRetentionHours * 3_600_000).toISOString(),
      };
      logger.info({ operation: job.operation, ms: Math.round(performance.now() - started) }, 'job result ready');
    } catch (error) {
      if (this.shutdown.signal.aborted) {
        await this.deps.jobs.releaseLease(job.id, this.owner).catch(() => {});
        logger.warn('job interrupted by shutdown; it stays pending and runs again, here after a restart or on another worker');
        return;
      }
      if (leaseLost.aborted) {
        logger.warn('job abandoned: this worker lost its claim and another one runs the job');
        return;
      }
      const failure = timeout.aborted
        ? new AppError('job_timeout', 504, `the job did not finish within ${Math.round(config.jobs.timeoutMs / 1000)} s`)
        : error instanceof AppError
          ? error
          : new AppError('processing_failed', 500, 'processing failed');
      if (!(error instanceof AppError)) logger.error({ err: error }, 'job crashed');
      outcome = failureOutcome(failure);
    }
    const settled = await this.settle(job, outcome, logger);
    if (!settled && outcome.status === 'success') {
      // Another worker holds the job now; its output is the one that counts, so this one is removed.
      await this.deps.storage.delete(outcome.outputKey).catch(() => {});
      await this.deps.storage.delete(changeMaskKey(outcome.outputKey)).catch(() => {});
    }
  }

  /**
   * Writes the outcome and its webhook delivery in one transaction. A transient database error is retried: the
   * outcome is never rewritten (a succeeded job never turns into a failed one because a write failed). Returns false
   * when the claim was lost, in which case nothing was written.
   */
  private async settle(job: JobRow, outcome: JobOutcome, logger: Logger): Promise<boolean> {
    const delivery = job.webhook_url
      ? this.deps.webhooks.newDelivery({
          jobId: job.id,
          userId: job.user_id,
          url: job.webhook_url,
          payload: webhookPayload(job, outcome, this.deps.config.publicUrl),
        })
      : undefined;
    let settled: boolean;
    try {
      settled = await retryTransient(() => this.deps.jobs.settle(job.id, this.owner, outcome, delivery), {
        onRetry: (error, delayMs) => logger.warn({ err: error, delayMs }, 'could not record the outcome; retrying'),
      });
    } catch (error) {
      // The claim lapses and the job runs again: better twice than settled wrongly or announced without a record.
      logger.error({ err: error }, 'could not record the outcome; the job will run again when its claim lapses');
      return false;
    }
    if (!settled) {
      logger.warn('outcome discarded: this worker lost its claim and another one runs the job');
      return false;
    }
    // Logged once the outcome is recorded: a result ready but never recorded (the worker died) is no success.
    if (outcome.status === 'failed') logger.info({ operation: job.operation, code: outcome.code }, 'job failed');
    else logger.info({ operation: job.operation }, 'job succeeded');
    // Settled for good: nothing runs the job again, so the inputs kept for its runs go. Before the settle is announced:
    // a request waiting on the job answers only once nothing of the job still runs (a server closed after the answer
    // would otherwise see the removal reach a storage already gone).
    await discardStoredInputs(this.deps, storedInputKeys(JSON.parse(job.request) as StoredRequest)).catch((error: unknown) => {
      logger.warn({ err: error }, 'could not remove the stored inputs; the sweep will');
    });
    this.deps.events.settled(job.id);
    if (delivery) this.deps.webhooks.wake();
    await this.deps.publisher?.publish(job.id).catch((error: unknown) => {
      // Waiting requests elsewhere still see the outcome at their next re-read of the job.
      logger.warn({ err: error }, 'could not announce the settle to other processes');
    });
    return true;
  }

  /** The inputs that came as data: URLs, from storage. One that is gone fails the job: nothing brings it back. */
  private async readInputs(request: StoredRequest): Promise<StoredInputBytes> {
    const read = (key: string) =>
      this.deps.storage.read(key).catch((error: unknown) => {
        if (!(error instanceof StorageObjectMissing)) throw error;
        throw new AppError(
          'input_missing',
          410,
          'the image (or mask) sent with this job as a data: URL is no longer in storage; submit it again',
        );
      });
    const [image, mask] = await Promise.all([
      'imageKey' in request ? read(request.imageKey) : undefined,
      'maskKey' in request ? read(request.maskKey) : undefined,
    ]);
    return { ...(image ? { image } : {}), ...(mask ? { mask } : {}) };
  }

  /**
   * Renews the claim every third of the lease while the job runs. `lost` aborts when the claim is found to be
   * another's (this process stalled past its lease and another worker took the job), so the work stops.
   */
  private holdLease(jobId: string, logger: Logger): { lost: AbortSignal; stop(): void } {
    const { jobs, config } = this.deps;
    const lost = new AbortController();
    let renewing = false;
    const timer = setInterval(() => {
      if (renewing) return;
      renewing = true;
      const until = new Date(Date.now() + config.jobs.leaseMs).toISOString();
      jobs
        .renewLease(jobId, this.owner, until)
        .then((held) => {
          if (!held && !lost.signal.aborted) lost.abort(new AppError('job_aborted', 503, 'the claim on the job was lost'));
        })
        // A failed renewal is tried again at the next tick; the lease has two more ticks of margin.
        .catch((error: unknown) => logger.warn({ err: error }, 'could not renew the claim on the job'))
        .finally(() => {
          renewing = false;
        });
    }, Math.max(100, Math.floor(config.jobs.leaseMs / 3)));
    timer.unref();
    return { lost: lost.signal, stop: () => clearInterval(timer) };
  }
}

function failureOutcome(error: AppError): JobOutcome {
  return { status: 'failed', code: error.code, httpStatus: error.status, message: error.message, completedAt: new Date().toISOString() };
}

/** The webhook body: the job as GET /v1/job/{id} will show it once settled, with the event's type first. */
function webhookPayload(job: JobRow, outcome: JobOutcome, publicUrl: string): object {
  const settled: JobRow = { ...job, ...outcomeColumns(outcome) };
  return { type: outcome.status === 'success' ? 'job.succeeded' : 'job.failed', ...toJobView(settled, publicUrl) };
}
