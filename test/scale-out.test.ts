import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { startImageServer, type ImageServer } from './helpers/image-server.js';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.js';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.js';
import { makeImage } from './helpers/fixtures.js';
import { until, TEST_TIMEOUT_MS } from './helpers/until.js';
import { JobRepository, type JobRow } from '../src/repositories/job-repository.js';
import { retryTransient } from '../src/jobs/retry-transient.js';

const REDIS_URL = process.env.ROOMCRAFT_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function submit(t: TestApp, payload: object): Promise<string> {
  const response = await t.app.inject({ method: 'POST', url: '/v1/upscale', headers: t.auth, payload });
  assert.equal(response.statusCode, 200, response.body);
  return response.json().id as string;
}

function jobRow(database: TestDatabase, id: string): Promise<JobRow> {
  return database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('two worker processes on one database', { timeout: TEST_TIMEOUT_MS }, () => {
  let database: TestDatabase;
  let images: ImageServer;
  let hooks: WebhookReceiver;
  before(async () => {
    database = await openTestDatabase();
    images = await startImageServer();
    hooks = await startWebhookReceiver();
  });
  after(async () => {
    await hooks.close();
    await images.close();
    await database.close();
  });

  it('run each job once and announce it once', async () => {
    // Accepted by an API process while no worker runs, then both workers start and race for every job at once.
    const api = await startTestApp({ roles: ['api'] }, database);
    const ids: string[] = [];
    const bytes = await makeImage(16, 16);
    for (let i = 0; i < 8; i++) ids.push(await submit(api, { url: images.serve(`race-${i}.png`, bytes), webhook: hooks.url }));
    const workers = await Promise.all([
      startTestApp({ roles: ['worker'], jobs: { workerThreads: 2 } }, database),
      startTestApp({ roles: ['worker'], jobs: { workerThreads: 2 } }, database),
    ]);
    try {
      for (const id of ids) await hooks.deliveryFor(id);
      for (const id of ids) {
        const job = await jobRow(database, id);
        assert.equal(job.status, 'success');
        assert.equal(job.attempts, 1, `job ${id} started once`);
        assert.equal(job.lease_owner, null, 'a settled job holds no claim');
      }
      // A job run twice would have fetched its image twice and written two deliveries.
      assert.equal(images.requests.filter((path) => path.startsWith('/race-')).length, ids.length);
      const deliveries = await database.db.selectFrom('webhook_deliveries').select(['job_id']).where('job_id', 'in', ids).execute();
      assert.equal(deliveries.length, ids.length);
      // The receiver saw one webhook-id per job (retries of one delivery would repeat the same id).
      const webhookIds = new Map<string, Set<string>>();
      for (const delivery of hooks.received.filter((d) => ids.includes(d.payload.id))) {
        const seen = webhookIds.get(delivery.payload.id) ?? new Set<string>();
        seen.add(String(delivery.headers['webhook-id']));
        webhookIds.set(delivery.payload.id, seen);
      }
      for (const id of ids) assert.equal(webhookIds.get(id)?.size, 1);
    } finally {
      await Promise.all(workers.map((w) => w.close()));
      await api.close();
    }
  });

  it('charge no attempt to a job interrupted before its operation started, and give its claim up', async () => {
    const api = await startTestApp({ roles: ['api'] }, database);
    const held = images.hold('held.png', await makeImage(16, 16));
    const id = await submit(api, { url: held.url, webhook: hooks.url });
    const worker = await startTestApp({ roles: ['worker'], jobs: { shutdownGraceMs: 0 } }, database);
    await until(async () => (images.requests.includes('/held.png') ? true : undefined), { what: 'the worker to fetch the held image' });
    const claimed = await jobRow(database, id);
    assert.ok(claimed.lease_owner, 'the fetching worker holds the claim');
    await worker.close();
    const interrupted = await jobRow(database, id);
    assert.equal(interrupted.status, 'pending');
    assert.equal(interrupted.attempts, 0, 'fetching the input is not an attempt');
    assert.equal(interrupted.lease_owner, null, 'the claim was released at shutdown, not left to lapse');

    held.release();
    const next = await startTestApp({ roles: ['worker'] }, database);
    try {
      const settled = await until(async () => {
        const job = await jobRow(database, id);
        return job.status === 'pending' ? undefined : job;
      }, { what: `job ${id} to settle on the next worker` });
      assert.equal(settled.status, 'success');
      assert.equal(settled.attempts, 1);
    } finally {
      await next.close();
      await api.close();
    }
  });
});

describe('job claims', () => {
  let database: TestDatabase;
  let jobs: JobRepository;
  let userId: string;
  before(async () => {
    database = await openTestDatabase();
    jobs = new JobRepository(database.db);
    userId = crypto.randomUUID();
    await database.db
      .insertInto('users')
      .values({ id: userId, email: `${userId}@example.com`, webhook_secret: 'whsec_x', created_at: new Date().toISOString() })
      .execute();
  });
  after(() => database.close());

  async function pendingJob(): Promise<string> {
    const id = crypto.randomUUID();
    const now = new Date().toISOString();
    await jobs.create({
      id, user_id: userId, key_kind: 'test', operation: 'upscale', mode: 'upscale', status: 'pending',
      request: JSON.stringify({ url: 'http://127.0.0.1/x.png', params: {} }), webhook_url: 'http://127.0.0.1/hook',
      credits: 0, attempts: 0, progress: 0, result: null, output_key: null, output_content_type: null, error_code: null,
      error_status: null, error_message: null, created_at: now, started_at: null, completed_at: null,
      output_expires_at: null, lease_owner: null, lease_expires_at: null, queue: 'light',
    });
    return id;
  }

  const at = (ms: number) => new Date(Date.UTC(2030, 0, 1) + ms).toISOString();
  const success = { status: 'success' as const, outputKey: 'out.png', contentType: 'image/png', result: undefined, completedAt: at(0), outputExpiresAt: at(1e9) };
  const delivery = (jobId: string, id = `msg_${crypto.randomUUID()}`) => ({
    id, jobId, userId, url: 'http://127.0.0.1/hook', payload: '{}', nextAttemptAt: at(0), createdAt: at(0),
  });

  it('give a job to one claimant while its lease lasts, and to another once it lapses', async () => {
    const id = await pendingJob();
    assert.ok(await jobs.claim(id, 'a', at(0), at(30_000)));
    assert.equal(await jobs.claim(id, 'b', at(10_000), at(40_000)), undefined, 'a live claim is not taken');
    assert.ok(await jobs.claim(id, 'b', at(30_001), at(60_000)), 'a lapsed claim is');
    assert.equal(await jobs.renewLease(id, 'a', at(90_000)), false, 'the first owner learns it lost the job');
    assert.equal(await jobs.chargeAttempt(id, 'a', at(30_002)), undefined);
    assert.equal(await jobs.chargeAttempt(id, 'b', at(30_002)), 1);
  });

  it('write the outcome and its webhook delivery together, only for the claim holder', async () => {
    const id = await pendingJob();
    await jobs.claim(id, 'b', at(0), at(30_000));
    assert.equal(await jobs.settle(id, 'a', success, delivery(id)), false, 'a former owner settles nothing');
    const taken = `msg_${crypto.randomUUID()}`;
    await database.db.insertInto('webhook_deliveries').values({
      id: taken, job_id: id, user_id: userId, url: 'http://127.0.0.1/hook', payload: '{}', status: 'delivered', attempts: 1,
      next_attempt_at: at(0), last_response_status: 204, last_error: null, created_at: at(0), updated_at: at(0),
    }).execute();
    // The delivery cannot be written (its id exists): the outcome is rolled back with it, so the job is never settled
    // without its announcement.
    await assert.rejects(jobs.settle(id, 'b', success, delivery(id, taken)));
    assert.equal((await jobRow(database, id)).status, 'pending');
    assert.equal(await jobs.settle(id, 'b', success, delivery(id)), true);
    const settled = await jobRow(database, id);
    assert.equal(settled.status, 'success');
    const rows = await database.db.selectFrom('webhook_deliveries').select('status').where('job_id', '=', id).execute();
    assert.deepEqual(rows.map((r) => r.status).sort(), ['delivered', 'pending']);
  });

  it('list for the sweep only jobs nobody holds', async () => {
    const free = await pendingJob();
    const held = await pendingJob();
    const lapsed = await pendingJob();
    await jobs.claim(held, 'a', at(0), at(30_000));
    await jobs.claim(lapsed, 'a', at(0), at(5_000));
    const listed = (await jobs.listUnclaimed(at(10_000))).map((j) => j.id);
    assert.ok(listed.includes(free));
    assert.ok(listed.includes(lapsed));
    assert.ok(!listed.includes(held));
  });

  it('retry a failed write with the same outcome, then give up with its error', async () => {
    let calls = 0;
    const value = await retryTransient(async () => {
      calls += 1;
      if (calls < 3) throw new Error('connection reset');
      return 'written';
    }, { delaysMs: [0, 0, 0] });
    assert.equal(value, 'written');
    assert.equal(calls, 3);
    await assert.rejects(retryTransient(async () => Promise.reject(new Error('down')), { delaysMs: [0] }), /down/);
  });
});

describe('api and worker processes over Redis', { timeout: TEST_TIMEOUT_MS }, () => {
  let database: TestDatabase;
  let images: ImageServer;
  const prefix = `roomcraft-test-${crypto.randomBytes(4).toString('hex')}`;
  before(async () => {
    database = await openTestDatabase();
    images = await startImageServer();
  });
  after(async () => {
    await images.close();
    await database.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('answer a synchronous request run by a worker elsewhere; the worker serves only /health', async () => {
    const shared = { redisUrl: REDIS_URL, redisPrefix: prefix };
    const api = await startTestApp({ roles: ['api'], ...shared }, database);
    const worker = await startTestApp({ roles: ['worker'], ...shared }, database);
    try {
      const response = await api.app.inject({
        method: 'POST',
        url: '/v1/upscale',
        headers: api.auth,
        payload: { url: images.serve('sync.png', await makeImage(12, 10)) },
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().status, 'success');
      assert.ok(response.json().base64.length > 0);

      assert.equal((await worker.app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
      assert.equal((await worker.app.inject({ method: 'GET', url: '/v1/styles' })).statusCode, 404);
      assert.equal((await worker.app.inject({ method: 'POST', url: '/v1/upscale', payload: {} })).statusCode, 404);
      assert.equal((await api.app.inject({ method: 'GET', url: '/health' })).json().status, 'ok');
    } finally {
      await worker.close();
      await api.close();
    }
  });
});
