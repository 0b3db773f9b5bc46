import crypto from 'node:crypto';
import type { Logger } from 'pino';
import { AppError } from '../errors.js';
import type { Config } from '../config/config.js';
import type { JobRepository, JobRow } from '../repositories/job-repository.js';
import type { Storage } from '../repositories/storage.js';
import type { JobEvents } from '../services/job-events.js';
import { changeMaskKey, outputUrl, toJobView } from '../services/job-view.js';
import type { StoredRequest } from '../services/job-service.js';
import type { WorkerPool } from './worker-pool.js';
import { jobTask } from './task.js';

export interface WebhookSink {
  enqueue(delivery: { jobId: string; userId: string; url: string; payload: object }): Promise<unknown>;
}

/** Writes progress at most this often, so a chatty operation does not hammer the database. */
const PROGRESS_WRITE_MS = 500;

/**
 * The one handler of every job: it claims the job, has a worker thread produce the result, stores it, and
 * announces the outcome (waiting requests, webhook). It knows nothing about any particular operation.
 */
export class JobProcessor {
  private readonly shutdown = new AbortController();

  constructor(
    private readonly deps: {
      jobs: JobRepository;
      storage: Storage;
      pool: WorkerPool;
      events: JobEvents;
      webhooks: WebhookSink;
      config: Config;
      logger: Logger;
    },
  ) {}

  /** Aborts running jobs; they stay pending and run again at the next start. */
  stop(): void {
    this.shutdown.abort(new AppError('job_aborted', 503, 'the service is shutting down'));
  }

  async process(jobId: string): Promise<void> {
    const { jobs, config } = this.deps;
    const logger = this.deps.logger.child({ jobId });
    const attempt = await jobs.markStarted(jobId, new Date().toISOString());
    if (attempt === undefined) return;
    const job = await jobs.findById(jobId);
    if (!job) return;
    if (attempt > config.jobs.maxAttempts) {
      await this.settleFailed(job, new AppError('processing_failed', 500, `gave up after ${attempt - 1} attempts`), logger);
      return;
    }
    const request = JSON.parse(job.request) as StoredRequest;
    const timeout = AbortSignal.timeout(config.jobs.timeoutMs);
    const signal = AbortSignal.any([timeout, this.shutdown.signal]);
    let lastProgressWrite = 0;
    const started = performance.now();
    logger.info({ operation: job.operation, attempt }, 'job started');
    try {
      const output = await this.deps.pool.run(jobTask(job.operation, request), {
        signal,
        onProgress: (fraction) => {
          const now = Date.now();
          if (now - lastProgressWrite < PROGRESS_WRITE_MS) return;
          lastProgressWrite = now;
          void jobs.updateProgress(jobId, fraction).catch(() => {});
        },
      });
      const name = crypto.randomBytes(16).toString('hex');
      const outputKey = `${name}.${output.extension}`;
      await this.deps.storage.put(outputKey, output.bytes);
      let result = output.result;
      if (output.changeMask) {
        const maskKey = changeMaskKey(outputKey);
        await this.deps.storage.put(maskKey, output.changeMask);
        result = { ...result, changeMask: outputUrl(config.publicUrl, maskKey) };
      }
      const completedAt = new Date();
      await jobs.complete(jobId, {
        outputKey,
        contentType: output.contentType,
        result,
        completedAt: completedAt.toISOString(),
        outputExpiresAt: new Date(completedAt.getTime() + config.jobs.outputRetentionHours * 3_600_000).toISOString(),
      });
      logger.info({ operation: job.operation, ms: Math.round(performance.now() - started) }, 'job succeeded');
      await this.announce(jobId);
    } catch (error) {
      if (this.shutdown.signal.aborted) {
        logger.warn('job interrupted by shutdown; it stays pending and runs again at the next start');
        return;
      }
      const failure = timeout.aborted
        ? new AppError('job_timeout', 504, `the job did not finish within ${Math.round(config.jobs.timeoutMs / 1000)} s`)
        : error instanceof AppError
          ? error
          : new AppError('processing_failed', 500, 'processing failed');
      if (!(error instanceof AppError)) logger.error({ err: error }, 'job crashed');
      await this.settleFailed(job, failure, logger);
    }
  }

  private async settleFailed(job: JobRow, error: AppError, logger: Logger): Promise<void> {
    await this.deps.jobs.fail(job.id, {
      code: error.code,
      status: error.status,
      message: error.message,
      completedAt: new Date().toISOString(),
    });
    logger.info({ operation: job.operation, code: error.code }, 'job failed');
    await this.announce(job.id);
  }

  private async announce(jobId: string): Promise<void> {
    this.deps.events.settled(jobId);
    const job = await this.deps.jobs.findById(jobId);
    if (!job?.webhook_url) return;
    const view = toJobView(job, this.deps.config.publicUrl);
    await this.deps.webhooks.enqueue({
      jobId,
      userId: job.user_id,
      url: job.webhook_url,
      payload: { type: job.status === 'success' ? 'job.succeeded' : 'job.failed', ...view },
    });
  }
}
