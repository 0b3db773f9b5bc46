import crypto from 'node:crypto';
import { AppError } from '../errors.js';
import type { Config } from '../config/config.js';
import type { Catalog } from '../catalog/catalog.js';
import type { JobRepository, JobRow, JobSummaryRow } from '../repositories/job-repository.js';
import type { IdempotencyRepository } from '../repositories/idempotency-repository.js';
import type { Storage } from '../repositories/storage.js';
import type { GuardedFetcher } from '../repositories/fetcher/guarded-fetcher.js';
import type { KeyOwner } from '../repositories/user-repository.js';
import type { JobQueueName, JobStatus } from '../repositories/database/schema.js';
import type { AnyOperation } from './operations/operation.js';
import type { ModelFallback } from './operations/model-policy.js';
import type { JobEvents } from './job-events.js';
import { hashRequest } from './request-hash.js';
import { decodeJobListCursor, encodeJobListCursor } from './job-list-cursor.js';
import { toJobView } from './job-view.js';
import type { WebhookService } from './webhook-service.js';
import { admissionError, type CreditService } from './credit-service.js';

/** The common fields of every processing request; the rest are the operation's parameters. */
export interface ProcessingBody {
  url: string;
  mask?: string;
  webhook?: string;
  [param: string]: unknown;
}

/**
 * The request as its job keeps it. An http(s) URL is kept and fetched by the worker; an input sent as a data: URL is
 * not: its bytes are in storage under `imageKey` / `maskKey` until the job settles (see storeInputs), so the row stays
 * small. (Jobs accepted before inputs were stored hold their data: URLs in `url` / `mask`; the worker decodes them.)
 */
export type StoredRequest = ({ url: string } | { imageKey: string }) &
  ({ mask?: string } | { maskKey: string }) & { params: Record<string, unknown> };

/** The storage key of a job's image or mask sent as a data: URL; never an output's name, so never served. */
export function storedInputKey(jobId: string, input: 'image' | 'mask'): string {
  return `input-${jobId}-${input}`;
}

/** The storage keys of a request's stored inputs (none when both came as http(s) URLs). */
export function storedInputKeys(request: StoredRequest): string[] {
  return [...('imageKey' in request ? [request.imageKey] : []), ...('maskKey' in request ? [request.maskKey] : [])];
}

/**
 * Removes stored inputs from storage, then their records; missing objects are no error. A failure part-way leaves
 * the records, and the sweep (jobs/job-sweeper.ts) removes what they name once the job has settled.
 */
export async function discardStoredInputs(
  deps: { storage: Storage; jobs: JobRepository },
  keys: readonly string[],
): Promise<void> {
  if (keys.length === 0) return;
  await Promise.all(keys.map((key) => deps.storage.delete(key)));
  await deps.jobs.forgetStoredInputs(keys);
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
  /** What a live key's new job was charged, and the balance after it; absent for test keys and replays. */
  charged?: { credits: number; balance: number };
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
      /** The app's fetcher: decodes data: URLs exactly as the worker's does (same limits, same errors) without connecting. */
      fetcher: Pick<GuardedFetcher, 'fetchBytes'>;
      /** Prices and admits jobs: live keys pay in credits, test keys are capped per day. */
      credits: Pick<CreditService, 'admission'>;
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
    const id = crypto.randomUUID();
    // Test keys process for real but are not billed.
    const credits = owner.kind === 'live' ? operation.credits(params, mask !== undefined) : 0;
    // Refused before anything is stored; the job's transaction judges again, and that judgement counts.
    const admission = await this.deps.credits.admission(owner, { jobId: id, operation: operation.name, credits }, now);
    // Stored before the job row exists, so a worker never sees a job whose inputs are not there yet.
    const { image, mask: storedMask, keys } = await this.storeInputs(id, url, mask, now);
    const request: StoredRequest = { ...image, ...storedMask, params };
    const job: JobRow = {
      id,
      user_id: owner.userId,
      key_kind: owner.kind,
      operation: operation.name,
      mode: operation.mode,
      status: 'pending',
      request: JSON.stringify(request),
      webhook_url: webhook ?? null,
      credits,
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
    const created = await this.deps.jobs.create(job, idempotency, admission).catch(async (error: unknown) => {
      await discardStoredInputs(this.deps, keys).catch(() => {});
      throw admissionError(error, now);
    });
    if (!created) {
      // A concurrent request with the same key made the job: this one's inputs have no job (should removing them
      // fail, the sweep does it).
      await discardStoredInputs(this.deps, keys).catch(() => {});
      const replay = idempotencyKey ? await this.replay(owner, idempotencyKey, requestHash, now) : undefined;
      if (replay) return replay;
      throw new AppError('internal_error', 500, 'idempotency key vanished while it was being claimed');
    }
    this.deps.queue.enqueue(job.id, job.queue);
    return created.balance === undefined ? { job, replayed: false } : { job, replayed: false, charged: { credits, balance: created.balance } };
  }

  /**
   * Puts the image and the mask that came as data: URLs in storage, decoded, recording their keys first (so the
   * sweep finds them should this process stop before the job is written); http(s) URLs are kept as they are. A data:
   * URL that does not decode, or decodes to more than the fetch limit, is refused now: the worker would refuse it.
   */
  private async storeInputs(
    jobId: string,
    url: string,
    mask: string | undefined,
    now: Date,
  ): Promise<{ image: { url: string } | { imageKey: string }; mask: { mask?: string } | { maskKey: string }; keys: string[] }> {
    const puts: { key: string; bytes: Buffer }[] = [];
    const keep = async (field: 'url' | 'mask', value: string, input: 'image' | 'mask') => {
      if (!/^data:/i.test(value)) return undefined;
      const key = storedInputKey(jobId, input);
      puts.push({ key, bytes: await this.decodeDataUrl(field, value) });
      return key;
    };
    const imageKey = await keep('url', url, 'image');
    const maskKey = mask === undefined ? undefined : await keep('mask', mask, 'mask');
    const keys = puts.map((put) => put.key);
    if (keys.length > 0) {
      await this.deps.jobs.recordStoredInputs(jobId, keys, now.toISOString());
      try {
        await Promise.all(puts.map((put) => this.deps.storage.put(put.key, put.bytes)));
      } catch (error) {
        await discardStoredInputs(this.deps, keys).catch(() => {});
        throw error;
      }
    }
    return {
      image: imageKey ? { imageKey } : { url },
      mask: maskKey ? { maskKey } : mask !== undefined ? { mask } : {},
      keys,
    };
  }

  /** The bytes of a data: URL, decoded as the worker's fetcher decodes them; its errors name the field. */
  private async decodeDataUrl(field: 'url' | 'mask', dataUrl: string): Promise<Buffer> {
    try {
      return (await this.deps.fetcher.fetchBytes(dataUrl)).bytes;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const message = `${field}: ${error.message}`;
      throw new AppError(error.code, error.status, message, { fieldErrors: [{ field: `/${field}`, message }] });
    }
  }

  /** Removes a settled job's stored inputs (see discardStoredInputs). */
  async discardInputs(job: Pick<JobRow, 'request'>): Promise<void> {
    await discardStoredInputs(this.deps, storedInputKeys(JSON.parse(job.request) as StoredRequest));
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
