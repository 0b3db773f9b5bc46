import { randomUUID } from 'node:crypto';
import type { Db } from './database/database.js';
import type { WebhookAttemptsTable, WebhookDeliveriesTable } from './database/schema.js';

export type WebhookDelivery = WebhookDeliveriesTable;
export type WebhookAttempt = WebhookAttemptsTable;

export interface NewDelivery {
  id: string;
  jobId: string;
  userId: string;
  url: string;
  /** The request body, serialized once so that every retry sends and signs the same bytes. */
  payload: string;
  nextAttemptAt: string;
  createdAt: string;
}

export interface AttemptRecord {
  deliveryId: string;
  attempt: number;
  attemptedAt: string;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
}

/** The row of a delivery not yet attempted; also written by the job repository when a job settles (the outbox). */
export function deliveryRow(delivery: NewDelivery): WebhookDelivery {
  return {
    id: delivery.id,
    job_id: delivery.jobId,
    user_id: delivery.userId,
    url: delivery.url,
    payload: delivery.payload,
    status: 'pending',
    attempts: 0,
    next_attempt_at: delivery.nextAttemptAt,
    last_response_status: null,
    last_error: null,
    created_at: delivery.createdAt,
    updated_at: delivery.createdAt,
  };
}

export class WebhookRepository {
  constructor(private readonly db: Db) {}

  async createDelivery(delivery: NewDelivery): Promise<void> {
    await this.db.insertInto('webhook_deliveries').values(deliveryRow(delivery)).execute();
  }

  /**
   * Takes up to `limit` pending deliveries due at `now`, pushing their next_attempt_at to `leaseUntil` so no other
   * process sends them meanwhile; should this process die mid-send, the delivery falls due again when the lease ends.
   * Each row is taken with a compare-and-set on its old next_attempt_at: a process that lost the race to another
   * (sharing a PostgreSQL database) updates nothing and leaves the row out. Plain SELECT then UPDATE keeps this
   * portable where SKIP LOCKED is not (SQLite).
   */
  async claimDue(now: string, limit: number, leaseUntil: string): Promise<WebhookDelivery[]> {
    const due = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .limit(limit)
      .execute();
    const claimed: WebhookDelivery[] = [];
    for (const row of due) {
      const result = await this.db
        .updateTable('webhook_deliveries')
        .set({ next_attempt_at: leaseUntil, updated_at: now })
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .where('next_attempt_at', '=', row.next_attempt_at)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) claimed.push({ ...row, next_attempt_at: leaseUntil, updated_at: now });
    }
    return claimed;
  }

  async recordAttempt(attempt: AttemptRecord): Promise<void> {
    await this.db
      .insertInto('webhook_attempts')
      .values({
        // Not derived from (delivery, attempt): an attempt cut short by a crash is repeated under the same number.
        id: randomUUID(),
        delivery_id: attempt.deliveryId,
        attempt: attempt.attempt,
        attempted_at: attempt.attemptedAt,
        duration_ms: attempt.durationMs,
        response_status: attempt.responseStatus,
        error: attempt.error,
      })
      .execute();
  }

  async markDelivered(id: string, attempts: number, responseStatus: number, updatedAt: string): Promise<void> {
    await this.updatePending(id, {
      status: 'delivered',
      attempts,
      last_response_status: responseStatus,
      last_error: null,
      updated_at: updatedAt,
    });
  }

  async scheduleRetry(
    id: string,
    attempts: number,
    nextAttemptAt: string,
    lastStatus: number | null,
    lastError: string | null,
    updatedAt: string,
  ): Promise<void> {
    await this.updatePending(id, {
      attempts,
      next_attempt_at: nextAttemptAt,
      last_response_status: lastStatus,
      last_error: lastError,
      updated_at: updatedAt,
    });
  }

  async markFailed(id: string, attempts: number, lastStatus: number | null, lastError: string | null, updatedAt: string): Promise<void> {
    await this.updatePending(id, {
      status: 'failed',
      attempts,
      last_response_status: lastStatus,
      last_error: lastError,
      updated_at: updatedAt,
    });
  }

  async listAttempts(deliveryId: string): Promise<WebhookAttempt[]> {
    return this.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('delivery_id', '=', deliveryId)
      .orderBy('attempt')
      .orderBy('attempted_at')
      .execute();
  }

  async findByJob(jobId: string): Promise<WebhookDelivery[]> {
    return this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('job_id', '=', jobId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  // Only a pending delivery changes: a final state is never overwritten, whoever reports late.
  private async updatePending(id: string, changes: Partial<Omit<WebhookDelivery, 'id'>>): Promise<void> {
    await this.db.updateTable('webhook_deliveries').set(changes).where('id', '=', id).where('status', '=', 'pending').execute();
  }
}
