import { sql } from 'kysely';
import type { Db } from './database/database.js';
import type { DeliveryStatus, JobQueueName, JobStatus } from './database/schema.js';
import { JOB_DURATION_BOUNDS, NOT_RUN } from './job-tallies.js';

export interface QueueCounts {
  queue: JobQueueName;
  /** Pending and unclaimed: never claimed, or claimed by a worker whose lease lapsed. */
  waiting: number;
  /** Pending under a live lease: a worker holds the job. */
  running: number;
}

export interface DurationBuckets {
  operation: string;
  /** Per upper bound of JOB_DURATION_BOUNDS, how many durations were at or under it. */
  cumulativeCounts: number[];
  sumSeconds: number;
  count: number;
}

/**
 * The aggregate counts /metrics reports, read from the database so that every process reports the same figures
 * whichever of them ran the jobs. Read-only; each query is one GROUP BY.
 */
export class MetricsRepository {
  constructor(private readonly db: Db) {}

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

  /**
   * Every job, by status and operation: the pending from the jobs' status index, the settled from their tallies, in
   * one statement, so a job settling meanwhile is counted once (as pending or as settled), never twice or not at all.
   */
  async jobCounts(): Promise<{ status: JobStatus; operation: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('jobs')
      .select((eb) => [sql<JobStatus>`'pending'`.as('status'), 'operation', eb.fn.countAll<number | string>().as('count')])
      .where('status', '=', 'pending')
      .groupBy('operation')
      .unionAll(
        this.db
          .selectFrom('job_tallies')
          .select((eb) => [sql<JobStatus>`status`.as('status'), 'operation', eb.fn.sum<number | string>('jobs').as('count')])
          .groupBy(['status', 'operation']),
      )
      .execute();
    return rows.map((row) => ({ status: row.status, operation: row.operation, count: Number(row.count) }));
  }

  /**
   * How long settled jobs ran, per operation, in the buckets of JOB_DURATION_BOUNDS (cumulative, as a Prometheus
   * histogram has them): from the start of the attempt that settled to its completion. Jobs that never started and
   * cancelled jobs are left out. Job records are kept, so the counts only grow, as a histogram's must.
   */
  async durationBuckets(): Promise<DurationBuckets[]> {
    const rows = await this.db
      .selectFrom('job_tallies')
      .select(['operation', 'duration_bucket', 'jobs', 'seconds'])
      .where('duration_bucket', '<>', NOT_RUN)
      .execute();
    const byOperation = new Map<string, DurationBuckets>();
    for (const row of rows) {
      const entry = byOperation.get(row.operation) ?? { operation: row.operation, cumulativeCounts: JOB_DURATION_BOUNDS.map(() => 0), sumSeconds: 0, count: 0 };
      const jobs = Number(row.jobs);
      for (let i = row.duration_bucket; i < JOB_DURATION_BOUNDS.length; i++) entry.cumulativeCounts[i]! += jobs;
      entry.sumSeconds += Number(row.seconds);
      entry.count += jobs;
      byOperation.set(row.operation, entry);
    }
    return [...byOperation.values()];
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
