import { sql, type RawBuilder } from 'kysely';
import type { Db } from './database/database.js';
import type { DeliveryStatus, JobQueueName, JobStatus } from './database/schema.js';

export interface QueueCounts {
  queue: JobQueueName;
  /** Pending and unclaimed: never claimed, or claimed by a worker whose lease lapsed. */
  waiting: number;
  /** Pending under a live lease: a worker holds the job. */
  running: number;
}

export interface DurationBuckets {
  operation: string;
  /** Per upper bound of the query, how many durations were at or under it. */
  cumulativeCounts: number[];
  sumSeconds: number;
  count: number;
}

/**
 * The aggregate counts /metrics reports, read from the database so that every process reports the same figures
 * whichever of them ran the jobs. Read-only; each query is one GROUP BY.
 */
export class MetricsRepository {
  constructor(
    private readonly db: Db,
    private readonly engine: 'sqlite' | 'postgres',
  ) {}

  /** Pending jobs per queue, waiting and running apart; served by the jobs(status, created_at) index. */
  async queueCounts(now: string): Promise<QueueCounts[]> {
    const rows = await this.db
      .selectFrom('jobs')
      .select((eb) => [
        'queue',
        eb.fn.countAll<number | string>().as('pending'),
        eb.fn.sum<number | string | null>(eb.case().when('lease_expires_at', '>', now).then(1).else(0).end()).as('running'),
      ])
      .where('status', '=', 'pending')
      .groupBy('queue')
      .execute();
    return rows.map((row) => {
      const running = Number(row.running ?? 0);
      return { queue: row.queue, waiting: Number(row.pending) - running, running };
    });
  }

  /** Every job, by status and operation. */
  async jobCounts(): Promise<{ status: JobStatus; operation: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('jobs')
      .select((eb) => ['status', 'operation', eb.fn.countAll<number | string>().as('count')])
      .groupBy(['status', 'operation'])
      .execute();
    return rows.map((row) => ({ status: row.status, operation: row.operation, count: Number(row.count) }));
  }

  /**
   * How long settled jobs ran, per operation, bucketed by `bounds` (seconds): from the start of the attempt that
   * settled (started_at) to completed_at. Jobs that never started and cancelled jobs are left out. Job records are
   * kept, so the counts only grow, as a Prometheus histogram's must; the price is a scan of the settled jobs.
   */
  async durationBuckets(bounds: readonly number[]): Promise<DurationBuckets[]> {
    const seconds =
      this.engine === 'postgres'
        ? sql<number>`extract(epoch from (completed_at::timestamptz - started_at::timestamptz))`
        : sql<number>`(julianday(completed_at) - julianday(started_at)) * 86400.0`;
    const bucketColumns: RawBuilder<unknown>[] = bounds.map(
      (bound, i) => sql`sum(case when seconds <= ${sql.lit(bound)} then 1 else 0 end) as ${sql.ref(`le_${i}`)}`,
    );
    const result = await sql<Record<string, number | string | null>>`
      select operation, count(*) as count, sum(seconds) as sum_seconds, ${sql.join(bucketColumns)}
      from (
        select operation, ${seconds} as seconds from jobs
        where status <> 'pending' and started_at is not null and completed_at is not null
          and (error_code is null or error_code <> 'job_cancelled')
      ) as settled
      group by operation`.execute(this.db);
    return result.rows.map((row) => ({
      operation: String(row.operation),
      cumulativeCounts: bounds.map((_, i) => Number(row[`le_${i}`] ?? 0)),
      sumSeconds: Number(row.sum_seconds ?? 0),
      count: Number(row.count),
    }));
  }

  /** Webhook deliveries by status: pending (not yet delivered, retrying), delivered, failed (gave up). */
  async webhookDeliveryCounts(): Promise<{ status: DeliveryStatus; count: number }[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .select((eb) => ['status', eb.fn.countAll<number | string>().as('count')])
      .groupBy('status')
      .execute();
    return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
  }
}
