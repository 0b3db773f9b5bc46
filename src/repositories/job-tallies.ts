import type { Kysely, Transaction } from 'kysely';
import type { Database, JobsTable } from './database/schema.js';

/**
 * Upper bounds of the job-duration buckets, in seconds: from a small enhance to a whole-room render (the limit is 60
 * min). The tallies are stored per bucket, so changing these needs a migration that calls recountJobTallies.
 */
export const JOB_DURATION_BOUNDS = [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600] as const;

/** The bucket of a job that settled without running: it has no run time to count. */
export const NOT_RUN = -1;

/** Where a settled job is counted (operation, status, run-time bucket), and its run time in seconds. */
export interface Tally {
  operation: string;
  status: 'success' | 'failed';
  durationBucket: number;
  seconds: number;
}

type SettledColumns = Pick<JobsTable, 'operation' | 'status' | 'started_at' | 'completed_at' | 'error_code'>;

/**
 * The tally a job counts in once settled, undefined while it is pending (pending jobs are counted from the jobs table,
 * whose status index holds only them). Run time: from the start of the attempt that settled to the completion; a job
 * that never started and a cancelled one have none.
 */
export function tallyOf(job: SettledColumns): Tally | undefined {
  if (job.status === 'pending') return undefined;
  const ran = job.started_at !== null && job.completed_at !== null && job.error_code !== 'job_cancelled';
  if (!ran) return { operation: job.operation, status: job.status, durationBucket: NOT_RUN, seconds: 0 };
  const seconds = (Date.parse(job.completed_at!) - Date.parse(job.started_at!)) / 1000;
  const index = JOB_DURATION_BOUNDS.findIndex((bound) => seconds <= bound);
  return { operation: job.operation, status: job.status, durationBucket: index === -1 ? JOB_DURATION_BOUNDS.length : index, seconds };
}

/**
 * Counts a settled job, in the transaction that settles it. Called last in that transaction: on PostgreSQL the tally
 * row stays locked until the commit, and taking it after the credit balance's lock, as every settling transaction
 * does, keeps two of them from waiting on each other.
 */
export async function countSettled(trx: Transaction<Database>, job: SettledColumns): Promise<void> {
  const tally = tallyOf(job);
  if (tally) await addTallies(trx, [{ ...tally, jobs: 1 }]);
}

async function addTallies(db: Kysely<Database>, tallies: readonly (Tally & { jobs: number })[]): Promise<void> {
  if (tallies.length === 0) return;
  await db
    .insertInto('job_tallies')
    .values(tallies.map((t) => ({ operation: t.operation, status: t.status, duration_bucket: t.durationBucket, jobs: t.jobs, seconds: t.seconds })))
    .onConflict((oc) =>
      oc.columns(['operation', 'status', 'duration_bucket']).doUpdateSet((eb) => ({
        jobs: eb('job_tallies.jobs', '+', eb.ref('excluded.jobs')),
        seconds: eb('job_tallies.seconds', '+', eb.ref('excluded.seconds')),
      })),
    )
    .execute();
}

/** Rows read per page when recounting: the jobs table may hold millions, the page's rows are held in memory. */
const RECOUNT_PAGE = 5000;

/**
 * Counts every settled job again from the jobs table, replacing the tallies: at the migration that made them, and at
 * any later one that changes the bounds. Pages through the jobs by id, so memory stays bounded whatever their number.
 */
export async function recountJobTallies(db: Kysely<Database>): Promise<void> {
  const totals = new Map<string, Tally & { jobs: number }>();
  let after: string | undefined;
  for (;;) {
    let query = db.selectFrom('jobs').select(['id', 'operation', 'status', 'started_at', 'completed_at', 'error_code']).where('status', '<>', 'pending');
    if (after !== undefined) query = query.where('id', '>', after);
    const page = await query.orderBy('id').limit(RECOUNT_PAGE).execute();
    for (const job of page) {
      const tally = tallyOf(job);
      if (!tally) continue;
      const key = `${tally.operation}\u0000${tally.status}\u0000${tally.durationBucket}`;
      const total = totals.get(key) ?? { ...tally, jobs: 0, seconds: 0 };
      total.jobs++;
      total.seconds += tally.seconds;
      totals.set(key, total);
    }
    if (page.length < RECOUNT_PAGE) break;
    after = page[page.length - 1]!.id;
  }
  await db.deleteFrom('job_tallies').execute();
  const rows = [...totals.values()];
  // A few hundred rows at most (operations × statuses × buckets); in chunks to stay under SQLite's bound-variable limit.
  for (let i = 0; i < rows.length; i += 100) await addTallies(db, rows.slice(i, i + 100));
}
