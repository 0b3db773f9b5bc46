import type { Db } from './database/database.js';
import type { JobStatus, JobsTable } from './database/schema.js';
import type { IdempotencyRecord } from './idempotency-repository.js';

class KeyTaken extends Error {}

export type JobRow = JobsTable;

export interface JobCompletion {
  outputKey: string;
  contentType: string;
  result: Record<string, unknown> | undefined;
  completedAt: string;
  outputExpiresAt: string;
}

export interface JobFailure {
  code: string;
  status: number;
  message: string;
  completedAt: string;
}

export class JobRepository {
  constructor(private readonly db: Db) {}

  /**
   * Inserts the job, and its idempotency key in the same transaction. Returns false, writing nothing, when another
   * request took the key first.
   */
  async create(job: JobRow, idempotency?: IdempotencyRecord): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx.insertInto('jobs').values(job).execute();
      if (!idempotency) return true;
      const inserted = await trx
        .insertInto('idempotency_keys')
        .values(idempotency)
        .onConflict((oc) => oc.columns(['user_id', 'key']).doUpdateSet(idempotency).where('idempotency_keys.expires_at', '<=', idempotency.created_at))
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) throw new KeyTaken();
      return true;
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

  /** Counts the attempt; returns the new attempt number, or undefined when the job is no longer pending. */
  async markStarted(id: string, startedAt: string): Promise<number | undefined> {
    const row = await this.db
      .updateTable('jobs')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), started_at: startedAt, progress: 0 }))
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .returning('attempts')
      .executeTakeFirst();
    return row?.attempts;
  }

  async updateProgress(id: string, progress: number): Promise<void> {
    await this.db.updateTable('jobs').set({ progress }).where('id', '=', id).where('status', '=', 'pending').execute();
  }

  async complete(id: string, completion: JobCompletion): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({
        status: 'success',
        progress: 1,
        output_key: completion.outputKey,
        output_content_type: completion.contentType,
        result: completion.result ? JSON.stringify(completion.result) : null,
        completed_at: completion.completedAt,
        output_expires_at: completion.outputExpiresAt,
      })
      .where('id', '=', id)
      .execute();
  }

  async fail(id: string, failure: JobFailure): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({
        status: 'failed',
        error_code: failure.code,
        error_status: failure.status,
        error_message: failure.message,
        completed_at: failure.completedAt,
      })
      .where('id', '=', id)
      .execute();
  }

  /** Pending jobs never started, or started before `startedBefore` (their process died); all pending ones without it. */
  async listPendingIds(startedBefore?: string): Promise<string[]> {
    let query = this.db.selectFrom('jobs').select('id').where('status', '=', 'pending');
    if (startedBefore) {
      query = query.where((eb) => eb.or([eb('started_at', 'is', null), eb('started_at', '<', startedBefore)]));
    }
    const rows = await query.orderBy('created_at').execute();
    return rows.map((r) => r.id);
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

  async countByStatus(): Promise<Record<JobStatus, number>> {
    const rows = await this.db
      .selectFrom('jobs')
      .select((eb) => ['status', eb.fn.countAll<number | string>().as('count')])
      .groupBy('status')
      .execute();
    const counts: Record<JobStatus, number> = { pending: 0, success: 0, failed: 0 };
    for (const row of rows) counts[row.status] = Number(row.count);
    return counts;
  }
}
