import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JobRepository } from '../src/repositories/job-repository.js';
import { JOB_DURATION_BOUNDS, recountJobTallies } from '../src/repositories/job-tallies.js';
import { MetricsRepository } from '../src/repositories/metrics-repository.js';
import { jobRow } from './helpers/job-rows.js';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.js';

/**
 * The settled jobs' tallies (job-tallies.ts) are kept in the transactions that settle the jobs; what /metrics, /health
 * and the status page read from them must be what a scan of every job gives.
 */
describe('job tallies', () => {
  let database: TestDatabase;
  let jobs: JobRepository;
  let metrics: MetricsRepository;
  let userId: string;
  const at = (ms: number) => new Date(Date.UTC(2030, 0, 1) + ms).toISOString();

  before(async () => {
    database = await openTestDatabase();
    jobs = new JobRepository(database.db);
    metrics = new MetricsRepository(database.db);
    userId = crypto.randomUUID();
    await database.db.insertInto('users').values({ id: userId, email: `${userId}@example.com`, webhook_secret: 'whsec_x', created_at: at(0) }).execute();

    // Jobs that ran for these many seconds and settled through the worker's path: claim, start, settle.
    const runs: [operation: string, seconds: number, outcome: 'success' | 'failed'][] = [
      ['upscale', 0.3, 'success'], ['upscale', 0.5, 'success'], ['upscale', 4, 'failed'], ['upscale', 7200, 'success'],
      ['furnish', 95, 'success'], ['furnish', 95.25, 'failed'],
    ];
    for (const [i, [operation, seconds, outcome]] of runs.entries()) {
      const job = jobRow({ user_id: userId, operation, created_at: at(i) });
      assert.ok(await jobs.create(job));
      assert.ok(await jobs.claim(job.id, 'worker', at(i), at(i + 60_000)));
      assert.equal(await jobs.chargeAttempt(job.id, 'worker', at(1000)), 1);
      const completedAt = at(1000 + seconds * 1000);
      const settled = outcome === 'success'
        ? { status: 'success' as const, outputKey: `out-${i}.png`, contentType: 'image/png', result: undefined, completedAt, outputExpiresAt: at(1e9) }
        : { status: 'failed' as const, code: 'processing_failed', httpStatus: 500, message: 'x', completedAt };
      // A worker that lost the claim settles nothing, and counts nothing.
      assert.equal(await jobs.settle(job.id, 'former-owner', settled), false);
      assert.equal(await jobs.settle(job.id, 'worker', settled), true);
    }
    // Cancelled before any worker took it: settled, without a run time.
    const cancelled = jobRow({ user_id: userId, operation: 'furnish' });
    assert.ok(await jobs.create(cancelled));
    assert.ok(await jobs.cancel(cancelled.id, userId, at(5000), { code: 'job_cancelled', httpStatus: 409, message: 'cancelled' }, () => undefined));
    // Still pending: counted from the jobs table.
    for (const operation of ['upscale', 'enhancer']) assert.ok(await jobs.create(jobRow({ user_id: userId, operation })));
  });
  after(() => database.close());

  /** What a scan of every job gives: counts by status and operation, and each settled job's run time. */
  async function scan() {
    const rows = await database.db.selectFrom('jobs').select(['operation', 'status', 'started_at', 'completed_at', 'error_code']).execute();
    const counts = new Map<string, number>();
    const durations = new Map<string, number[]>();
    for (const row of rows) {
      counts.set(`${row.status} ${row.operation}`, (counts.get(`${row.status} ${row.operation}`) ?? 0) + 1);
      if (row.status !== 'pending' && row.started_at && row.completed_at && row.error_code !== 'job_cancelled') {
        durations.set(row.operation, [...(durations.get(row.operation) ?? []), (Date.parse(row.completed_at) - Date.parse(row.started_at)) / 1000]);
      }
    }
    return { counts, durations };
  }

  it('count jobs by status and operation as a scan of every job does', async () => {
    const { counts } = await scan();
    const reported = await metrics.jobCounts();
    assert.deepEqual(new Map(reported.map((r) => [`${r.status} ${r.operation}`, r.count])), counts);
    assert.equal(counts.get('failed furnish'), 2, 'the failed run and the cancelled job');
    const byStatus = await jobs.countByStatus();
    assert.deepEqual(byStatus, { pending: 2, success: 4, failed: 3 });
  });

  it('bucket the run times as a scan of every job does, leaving out the cancelled job', async () => {
    const { durations } = await scan();
    const reported = await metrics.durationBuckets();
    assert.deepEqual(reported.map((r) => r.operation).sort(), [...durations.keys()].sort());
    for (const entry of reported) {
      const list = durations.get(entry.operation)!;
      assert.deepEqual(entry.cumulativeCounts, JOB_DURATION_BOUNDS.map((bound) => list.filter((d) => d <= bound).length), entry.operation);
      assert.equal(entry.count, list.length, 'the run over the last bound counts in +Inf alone');
      assert.ok(Math.abs(entry.sumSeconds - list.reduce((a, b) => a + b, 0)) < 1e-6, `${entry.operation} sum ${entry.sumSeconds}`);
    }
  });

  it('are what a recount from the jobs table makes (the migration counts a database that had jobs before them)', async () => {
    const kept = await database.db.selectFrom('job_tallies').selectAll().orderBy(['operation', 'status', 'duration_bucket']).execute();
    await recountJobTallies(database.db);
    const recounted = await database.db.selectFrom('job_tallies').selectAll().orderBy(['operation', 'status', 'duration_bucket']).execute();
    // Sums added in another order may differ in the last bits.
    const plain = (rows: typeof kept) => rows.map((r) => ({ ...r, jobs: Number(r.jobs), seconds: Math.round(Number(r.seconds) * 1e6) }));
    assert.deepEqual(plain(recounted), plain(kept));
    assert.ok(kept.length >= 5);
  });
});
