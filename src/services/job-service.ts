import crypto from 'node:crypto';
import { AppError } from '../errors.js';
import type { Config } from '../config/config.js';
import type { Catalog } from '../catalog/catalog.js';
import type { JobRepository, JobRow, JobSummaryRow } from '../repositories/job-repository.js';
import type { IdempotencyRepository } from '../repositories/idempotency-repository.js';
import type { Storage } from '../repositories/storage.js';
import type { KeyOwner } from '../repositories/user-repository.js';
import type { JobQueueName, JobStatus } from '../repositories/database/schema.js';
import type { AnyOperation } from './operations/operation.js';
import type { ModelFallback } from './operations/model-policy.js';
import type { JobEvents } from './job-events.js';
import { hashRequest } from './request-hash.js';
import { decodeJobListCursor, encodeJobListCursor } from './job-list-cursor.js';
import { toJobView } from './job-view.js';
import type { WebhookService } from './webhook-service.js';

/** The common fields of every processing request; the rest are the operation's parameters. */
export interface ProcessingBody {
  url: string;
  mask?: string;
  webhook?: string;
  [param: string]: unknown;
}

export interface StoredRequest {
  url: string;
  mask?: string;
  params: Record<string, unknown>;
}

/**
 * Hands job ids to whoever runs them: the embedded in-process queue, or BullMQ queues on Redis read by worker
 * processes. Never the source of truth: an id lost on the way is found again by the sweep (see jobs/job-sweeper.ts).
 */
export interface JobQueue {
  enqueue(jobId: string, queue: JobQueueName): void;
}

export interface Submitted {
  job: JobRow;
  /** True when an Idempotency-Key matched an earlier request and no job was created. */
  replayed: boolean;
}

/** What GET /v1/jobs asks for: a page size, the previous page's cursor, filters. */
export interface JobListQuery {
  limit: number;
  cursor?: string;
  status?: JobStatus;
  operation?: string;
}

/** How often a waiting synchronous request re-reads the job, for jobs settled by another process. */
const SYNC_POLL_MS = 1_000;

export class JobService {
  constructor(
    private readonly deps: {
      jobs: JobRepository;
      idempotency: IdempotencyRepository;
      storage: Storage;
      events: JobEvents;
      queue: JobQueue;
      catalog: Catalog;
      config: Config;
    },
  ) {}

  async submit(owner: KeyOwner, operation: AnyOperation, body: ProcessingBody, idempotencyKey?: string): Promise<Submitted> {
    const { url, mask, webhook, ...params } = body;
    const now = new Date();
    const requestHash = hashRequest(operation.name, body);
    if (idempotencyKey) {
      const replay = await this.replay(owner, idempotencyKey, requestHash, now);
      if (replay) return replay;
    }
    const request: StoredRequest = { url, ...(mask ? { mask } : {}), params };
    const job: JobRow = {
      id: crypto.randomUUID(),
      user_id: owner.userId,
      key_kind: owner.kind,
      operation: operation.name,
      mode: operation.mode,
      status: 'pending',
      request: JSON.stringify(request),
      webhook_url: webhook ?? null,
      // Test keys process for real but are not billed.
      credits: owner.kind === 'live' ? operation.credits(params, mask !== undefined) : 0,
      attempts: 0,
      progress: 0,
      result: null,
      output_key: null,
      output_content_type: null,
      error_code: null,
      error_status: null,
      error_message: null,
      created_at: now.toISOString(),
      started_at: null,
      completed_at: null,
      output_expires_at: null,
      lease_owner: null,
      lease_expires_at: null,
      queue: operation.queue(params),
    };
    const idempotency = idempotencyKey
      ? {
          user_id: owner.userId,
          key: idempotencyKey,
          request_hash: requestHash,
          job_id: job.id,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + this.deps.config.idempotencyTtlHours * 3_600_000).toISOString(),
        }
      : undefined;
    const created = await this.deps.jobs.create(job, idempotency);
    if (!created && idempotencyKey) {
      const replay = await this.replay(owner, idempotencyKey, requestHash, now);
      if (replay) return replay;
      throw new AppError('internal_error', 500, 'idempotency key vanished while it was being claimed');
    }
    this.deps.queue.enqueue(job.id, job.queue);
    return { job, replayed: false };
  }

  /** A job of the caller; another user's job is indistinguishable from a missing one. */
  async getForOwner(owner: KeyOwner, id: string): Promise<JobRow> {
    const job = await this.deps.jobs.findById(id);
    if (!job || job.user_id !== owner.userId) throw new AppError('not_found', 404, `no job with id "${id}"`);
    return job;
  }

  /** Waits until the job leaves `pending`; past the limit, a 504 that carries the job id so get-job still works. */
  async waitUntilSettled(jobId: string, timeoutMs = this.deps.config.jobs.syncWaitMs): Promise<JobRow> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await this.deps.jobs.findById(jobId);
      if (!job) throw new AppError('not_found', 404, `no job with id "${jobId}"`);
      if (job.status !== 'pending') return job;
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new AppError(
          'sync_timeout',
          504,
          `the result was not ready within ${Math.round(timeoutMs / 1000)} s; fetch it later with GET /v1/job/${jobId}`,
          { jobId },
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(remaining, SYNC_POLL_MS));
        const unsubscribe = this.deps.events.onceSettled(jobId, done);
        function done() {
          clearTimeout(timer);
          unsubscribe();
          resolve();
        }
      });
    }
  }

  /** The synchronous answer of a settled job: the image as base64, or the job's error as a problem. */
  async syncResult(job: JobRow): Promise<{ base64: string; status: 'success' }> {
    if (job.status === 'failed') {
      throw new AppError(
        (job.error_code ?? 'processing_failed') as AppError['code'],
        job.error_status ?? 500,
        job.error_message ?? 'processing failed',
        { jobId: job.id },
      );
    }
    if (!job.output_key) throw new AppError('not_found', 404, 'the result of this job has expired', { jobId: job.id });
    const bytes = await this.deps.storage.read(job.output_key);
    return { base64: bytes.toString('base64'), status: 'success' };
  }

  /** The pending acknowledgement: `status`, `id`, the operation's declared fields, `mode`, in the spec's order. */
  acknowledgement(job: JobRow, operation: AnyOperation): Record<string, unknown> {
    const request = JSON.parse(job.request) as StoredRequest;
    return {
      status: 'pending',
      id: job.id,
      ...operation.acknowledgement(request.params, this.deps.catalog),
      mode: job.mode,
    };
  }

  private async replay(owner: KeyOwner, key: string, requestHash: string, now: Date): Promise<Submitted | undefined> {
    const record = await this.deps.idempotency.find(owner.userId, key, now.toISOString());
    if (!record) return undefined;
    if (record.request_hash !== requestHash) {
      throw new AppError(
        'idempotency_key_reused',
        422,
        'this Idempotency-Key was used with a different request in the last 24 hours',
      );
    }
    const job = await this.deps.jobs.findById(record.job_id);
    if (!job) return undefined;
    return { job, replayed: true };
  }

  /** A page of the caller's jobs, newest first, and the cursor of the next page when there is one. */
  async listForOwner(owner: KeyOwner, query: JobListQuery): Promise<{ jobs: JobSummaryRow[]; next?: string }> {
    const after = query.cursor === undefined ? undefined : decodeJobListCursor(query.cursor);
    // One more than asked says whether a next page exists without a count.
    const rows = await this.deps.jobs.listForUser(owner.userId, {
      limit: query.limit + 1,
      ...(after ? { after } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(query.operation ? { operation: query.operation } : {}),
    });
    const jobs = rows.slice(0, query.limit);
    const last = jobs.at(-1);
    return rows.length > query.limit && last ? { jobs, next: encodeJobListCursor(last) } : { jobs };
  }

  /**
   * Cancels a job of the caller that no worker has taken (or whose worker's claim lapsed): it settles as failed with
   * `job_cancelled`, and a job with a webhook is announced with `job.failed` like any failure, in the same transaction,
   * so a receiver never waits for an event that will not come. A job under a live claim or already settled is a 409.
   */
  async cancel(owner: KeyOwner, id: string, webhooks: Pick<WebhookService, 'newDelivery' | 'wake'>): Promise<JobRow> {
    for (;;) {
      const job = await this.getForOwner(owner, id);
      const now = new Date();
      if (job.status !== 'pending') {
        throw new AppError('job_not_cancellable', 409, `the job already settled (${job.status}); only a pending job can be cancelled`, {
          jobId: job.id,
        });
      }
      if (job.lease_expires_at !== null && Date.parse(job.lease_expires_at) > now.getTime()) {
        throw new AppError('job_not_cancellable', 409, 'the job is already running; only a job no worker has started can be cancelled', {
          jobId: job.id,
        });
      }
      const failure = { code: 'job_cancelled', httpStatus: 409, message: 'the job was cancelled by its owner (DELETE /v1/job/{id})' };
      const cancelled = await this.deps.jobs.cancel(job.id, owner.userId, now.toISOString(), failure, (row) =>
        row.webhook_url
          ? webhooks.newDelivery({
              jobId: row.id,
              userId: row.user_id,
              url: row.webhook_url,
              payload: { type: 'job.failed', ...toJobView(row, this.deps.config.publicUrl) },
            })
          : undefined,
      );
      if (cancelled) {
        this.deps.events.settled(cancelled.id);
        if (cancelled.webhook_url) webhooks.wake();
        return cancelled;
      }
      // A worker claimed the job, or it settled, between the read and the cancel: the next read says which.
    }
  }
}

/** The fallbacks a settled job's result records (models that were missing, and what ran instead); none for most. */
export function fallbacksOf(job: JobRow): ModelFallback[] {
  if (!job.result) return [];
  const { fallbacks } = JSON.parse(job.result) as { fallbacks?: ModelFallback[] };
  return Array.isArray(fallbacks) ? fallbacks : [];
}
