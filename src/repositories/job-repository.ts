import { sql } from 'kysely';
import type { Db } from './database/database.js';
import type { JobStatus, JobsTable } from './database/schema.js';
import type { IdempotencyRecord } from './idempotency-repository.js';
import { deliveryRow, type NewDelivery } from './webhook-repository.js';
import { CreditRepository, type JobAdmission } from './credit-repository.js';
import { countSettled } from './job-tallies.js';

class KeyTaken extends Error {}

export type JobRow = JobsTable;

/** How a job ended: its output, or its error (with the HTTP status its synchronous answer carries). */
export type JobOutcome =
  | {
      status: 'success';
      outputKey: string;
      contentType: string;
      result: Record<string, unknown> | undefined;
      completedAt: string;
      outputExpiresAt: string;
    }
  | { status: 'failed'; code: string; httpStatus: number; message: string; completedAt: string };

/** The columns an outcome sets on its job: what settle() writes, and what a view of the settled job shows. */
export function outcomeColumns(outcome: JobOutcome): Partial<JobRow> & Pick<JobRow, 'status' | 'completed_at'> {
  return outcome.status === 'success'
    ? {
        status: 'success',
        progress: 1,
        output_key: outcome.outputKey,
        output_content_type: outcome.contentType,
        result: outcome.result ? JSON.stringify(outcome.result) : null,
        completed_at: outcome.completedAt,
        output_expires_at: outcome.outputExpiresAt,
      }
    : {
        status: 'failed',
        error_code: outcome.code,
        error_status: outcome.httpStatus,
        error_message: outcome.message,
        completed_at: outcome.completedAt,
      };
}

/** A job written by create(): with the balance after its charge when it was charged. */
export interface CreatedJob {
  balance?: number;
}

export class JobRepository {
  /** The ledger, written in the transactions of the job's insert (its charge) and of its failure (the refund). */
  private readonly credits: CreditRepository;

  constructor(private readonly db: Db) {
    this.credits = new CreditRepository(db);
  }

  /**
   * Inserts the job, its idempotency key and what admits it (a live key's charge, a test key's place under the daily
   * cap) in one transaction. Returns false, writing nothing, when another request took the key first; throws
   * InsufficientCredits or TestCapReached, writing nothing, when the admission is refused.
   */
  async create(job: JobRow, idempotency?: IdempotencyRecord, admission?: JobAdmission): Promise<CreatedJob | false> {
    return this.db.transaction().execute(async (trx) => {
      await trx.insertInto('jobs').values(job).execute();
      if (idempotency) {
        const inserted = await trx
          .insertInto('idempotency_keys')
          .values(idempotency)
          .onConflict((oc) => oc.columns(['user_id', 'key']).doUpdateSet(idempotency).where('idempotency_keys.expires_at', '<=', idempotency.created_at))
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) throw new KeyTaken();
      }
      // Last: on PostgreSQL the charge holds the balance row's lock until the commit, so the shorter that is the better.
      const balance = admission ? await this.credits.admit(trx, admission, job.created_at) : undefined;
      // A job written already settled (an import) is counted as settle() counts one; a pending one is not yet.
      await countSettled(trx, job);
      return balance === undefined ? {} : { balance };
    }).catch((error: unknown) => {
      if (error instanceof KeyTaken) return false;
      throw error;
    });
  }

  async findById(id: string): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async findByOutputKey(outputKey: string): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('output_key', '=', outputKey).executeTakeFirst();
  }

  /** The job whose output is named `name` (32 hex digits) whatever its extension. */
  async findByOutputName(name: string): Promise<JobRow | undefined> {
    if (!/^[0-9a-f]{32}$/.test(name)) return undefined;
    return this.db.selectFrom('jobs').selectAll().where('output_key', 'like', `${name}.%`).executeTakeFirst();
  }

  /**
   * Takes the job for `owner` until `leaseUntil`, when it is pending and nobody holds a live claim on it. One UPDATE
   * with the whole condition in its WHERE, so of two workers racing for one job (on one PostgreSQL database, where the
   * second re-checks the row after the first commits) exactly one gets it. Returns the claimed row, or undefined.
   */
  async claim(id: string, owner: string, now: string, leaseUntil: string): Promise<JobRow | undefined> {
    return this.db
      .updateTable('jobs')
      .set({ lease_owner: owner, lease_expires_at: leaseUntil })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Counts an attempt when the operation really starts, not when the job is claimed: a crash while a job waits for
   * a worker thread costs it nothing. Returns the new attempt number, or undefined when the claim was lost.
   */
  async chargeAttempt(id: string, owner: string, startedAt: string): Promise<number | undefined> {
    const row = await this.db
      .updateTable('jobs')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), started_at: startedAt, progress: 0 }))
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('lease_owner', '=', owner)
      .returning('attempts')
      .executeTakeFirst();
    return row?.attempts;
  }

  /** Extends a claim; false when it is no longer `owner`'s (it lapsed and another worker took the job, or it settled). */
  async renewLease(id: string, owner: string, leaseUntil: string): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ lease_expires_at: leaseUntil })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives a claim up (at shutdown), so the job can run elsewhere at once instead of when the lease lapses. */
  async releaseLease(id: string, owner: string): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ lease_owner: null, lease_expires_at: null })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('lease_owner', '=', owner)
      .execute();
  }

  async updateProgress(id: string, progress: number): Promise<void> {
    await this.db.updateTable('jobs').set({ progress }).where('id', '=', id).where('status', '=', 'pending').execute();
  }

  /**
   * Settles a job `owner` holds, and records its webhook delivery in the same transaction (an outbox): either both
   * are written or neither, so no settled job goes unannounced. A failed job's charge is refunded in it too. False,
   * writing nothing, when the claim is no longer `owner`'s: another worker runs the job, and only its outcome counts.
   */
  async settle(id: string, owner: string, outcome: JobOutcome, delivery?: NewDelivery): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const settled = await trx
        .updateTable('jobs')
        .set({ ...outcomeColumns(outcome), lease_owner: null, lease_expires_at: null })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('lease_owner', '=', owner)
        .returning(['operation', 'status', 'started_at', 'completed_at', 'error_code'])
        .executeTakeFirst();
      if (!settled) return false;
      if (outcome.status === 'failed') await this.credits.refundJob(trx, id, `job failed: ${outcome.code}`, outcome.completedAt);
      if (delivery) await trx.insertInto('webhook_deliveries').values(deliveryRow(delivery)).execute();
      await countSettled(trx, settled);
      return true;
    });
  }

  /**
   * Pending jobs nobody holds a live claim on: never claimed (accepted before `acceptedBefore`, so a job just
   * submitted is left to the queue that has it), or claimed by a worker whose lease lapsed at `now`.
   */
  async listUnclaimed(now: string, acceptedBefore = now): Promise<Pick<JobRow, 'id' | 'queue'>[]> {
    return this.db
      .selectFrom('jobs')
      .select(['id', 'queue'])
      .where('status', '=', 'pending')
      .where((eb) =>
        eb.or([
          eb.and([eb('lease_expires_at', 'is', null), eb('created_at', '<', acceptedBefore)]),
          eb('lease_expires_at', '<', now),
        ]),
      )
      .orderBy('created_at')
      .execute();
  }

  async listExpiredOutputs(now: string, limit: number): Promise<Pick<JobRow, 'id' | 'output_key'>[]> {
    return this.db
      .selectFrom('jobs')
      .select(['id', 'output_key'])
      .where('output_expires_at', '<=', now)
      .where('output_key', 'is not', null)
      .limit(limit)
      .execute();
  }

  async clearOutput(id: string): Promise<void> {
    await this.db.updateTable('jobs').set({ output_key: null }).where('id', '=', id).execute();
  }

  /** Records the storage keys of job `jobId`'s inputs, before they are put in storage and before the job is written. */
  async recordStoredInputs(jobId: string, keys: readonly string[], createdAt: string): Promise<void> {
    await this.db
      .insertInto('stored_inputs')
      .values(keys.map((key) => ({ key, job_id: jobId, created_at: createdAt })))
      .execute();
  }

  /** Drops the records of inputs that were removed from storage. */
  async forgetStoredInputs(keys: readonly string[]): Promise<void> {
    await this.db.deleteFrom('stored_inputs').where('key', 'in', keys).execute();
  }

  /**
   * Keys of inputs recorded before `recordedBefore` whose job has settled or was never written: left behind by a
   * process that stopped between the settle (or a failed submit) and their removal. Inputs of pending jobs stay.
   */
  async listAbandonedStoredInputs(recordedBefore: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('stored_inputs')
      .leftJoin('jobs', 'jobs.id', 'stored_inputs.job_id')
      .select('stored_inputs.key')
      .where('stored_inputs.created_at', '<', recordedBefore)
      .where((eb) => eb.or([eb('jobs.id', 'is', null), eb('jobs.status', '!=', 'pending')]))
      .limit(limit)
      .execute();
    return rows.map((row) => row.key);
  }

  /**
   * Jobs by status: the pending from the jobs' status index (which they alone reach), the settled from their tallies,
   * in one statement, so a job settling meanwhile is counted once.
   */
  async countByStatus(): Promise<Record<JobStatus, number>> {
    const rows = await this.db
      .selectFrom('jobs')
      .select((eb) => [sql<JobStatus>`'pending'`.as('status'), eb.fn.countAll<number | string>().as('count')])
      .where('status', '=', 'pending')
      .unionAll(this.db.selectFrom('job_tallies').select((eb) => [sql<JobStatus>`status`.as('status'), eb.fn.sum<number | string>('jobs').as('count')]).groupBy('status'))
      .execute();
    const counts: Record<JobStatus, number> = { pending: 0, success: 0, failed: 0 };
    for (const row of rows) counts[row.status] = Number(row.count);
    return counts;
  }

  /**
   * A user's jobs, newest first (ties broken by id, so the order is total), the page after `after` when given: a
   * keyset on (created_at, id) that the jobs(user_id, created_at) index serves, so a late page costs what the first
   * does and jobs created meanwhile neither shift nor repeat entries. Only the columns the job's view shows are read
   * (never the stored request, which can hold megabytes of data: URLs).
   */
  async listForUser(userId: string, page: JobListPage): Promise<JobSummaryRow[]> {
    let query = this.db.selectFrom('jobs').select(JOB_SUMMARY_COLUMNS).where('user_id', '=', userId);
    if (page.status) query = query.where('status', '=', page.status);
    if (page.operation) query = query.where('operation', '=', page.operation);
    const { after } = page;
    if (after) query = query.where(({ eb, refTuple, tuple }) => eb(refTuple('created_at', 'id'), '<', tuple(after.createdAt, after.id)));
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
  }

  /**
   * Cancels a job of `userId` that is pending and that no worker holds (never claimed, or its claim lapsed at `now`),
   * settling it as failed with `failure`, refunds its charge and writes the webhook delivery `announce` makes of the
   * cancelled row in the same transaction (the outbox, as settle does). One UPDATE with claim()'s condition in its WHERE: of a cancel and a
   * claim racing for one job, exactly one wins. Returns the cancelled row, or undefined when nothing was cancelled.
   */
  async cancel(
    id: string,
    userId: string,
    now: string,
    failure: { code: string; httpStatus: number; message: string },
    announce: (cancelled: JobRow) => NewDelivery | undefined,
  ): Promise<JobRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const cancelled = await trx
        .updateTable('jobs')
        .set({
          status: 'failed',
          error_code: failure.code,
          error_status: failure.httpStatus,
          error_message: failure.message,
          completed_at: now,
          lease_owner: null,
          lease_expires_at: null,
        })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
        .returningAll()
        .executeTakeFirst();
      if (!cancelled) return undefined;
      await this.credits.refundJob(trx, id, 'job cancelled by its owner', now);
      const delivery = announce(cancelled);
      if (delivery) await trx.insertInto('webhook_deliveries').values(deliveryRow(delivery)).execute();
      await countSettled(trx, cancelled);
      return cancelled;
    });
  }
}

/** The columns a job's view shows (services/job-view.ts): a listing reads these and nothing else. */
const JOB_SUMMARY_COLUMNS = [
  'id',
  'status',
  'output_key',
  'mode',
  'created_at',
  'started_at',
  'completed_at',
  'progress',
  'credits',
  'error_code',
  'error_message',
  'result',
  'lease_expires_at',
] as const satisfies readonly (keyof JobRow)[];

export type JobSummaryRow = Pick<JobRow, (typeof JOB_SUMMARY_COLUMNS)[number]>;

/** One page of a user's jobs: at most `limit`, after the job `after` (the last of the previous page), filtered. */
export interface JobListPage {
  limit: number;
  after?: { createdAt: string; id: string };
  status?: JobStatus;
  operation?: string;
}
