import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { Config, DeepPartial } from '../src/config/config.js';
import { createStorage } from '../src/repositories/create-storage.js';
import { IdempotencyRepository } from '../src/repositories/idempotency-repository.js';
import { JobRepository, type JobRow } from '../src/repositories/job-repository.js';
import type { Storage } from '../src/repositories/storage.js';
import { JobSweeper } from '../src/jobs/job-sweeper.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { startImageServer, type ImageServer } from './helpers/image-server.js';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.js';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.js';
import { s3StorageOverrides, startS3Server, type S3TestServer } from './helpers/s3-server.js';
import { jobRow as newJobRow } from './helpers/job-rows.js';
import { dataUrl, makeImage } from './helpers/fixtures.js';
import { TEST_TIMEOUT_MS, until } from './helpers/until.js';

function jobRow(database: TestDatabase, id: string): Promise<JobRow> {
  return database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function recordedInputs(database: TestDatabase): Promise<{ key: string; job_id: string }[]> {
  return database.db.selectFrom('stored_inputs').select(['key', 'job_id']).orderBy('key').execute();
}

async function post(t: TestApp, path: string, payload: object, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: path, headers: { ...t.auth, ...headers }, payload });
}

/** Waits until the job's inputs are gone from storage and from the records. */
async function inputsRemoved(storage: Storage, database: TestDatabase, jobId: string, keys: string[]): Promise<void> {
  await until(
    async () => {
      const left = await Promise.all(keys.map((key) => storage.exists(key)));
      const records = (await recordedInputs(database)).filter((r) => r.job_id === jobId);
      return left.some(Boolean) || records.length > 0 ? undefined : true;
    },
    { what: `the inputs of job ${jobId} to be removed` },
  );
}

describe('inputs sent as data: URLs', { timeout: TEST_TIMEOUT_MS }, () => {
  let database: TestDatabase;
  let images: ImageServer;
  let hooks: WebhookReceiver;
  // Every app of this file shares one store, as the processes of one deployment do: the outputs directory of the
  // database's data directory, or under ROOMCRAFT_TEST_S3=1 one s3rver bucket.
  let s3: S3TestServer | undefined;
  let storageOverrides: DeepPartial<Config>;
  let storage: Storage;
  let api: TestApp;
  before(async () => {
    database = await openTestDatabase();
    images = await startImageServer();
    hooks = await startWebhookReceiver();
    s3 = process.env.ROOMCRAFT_TEST_S3 === '1' ? await startS3Server() : undefined;
    storageOverrides = s3 ? s3StorageOverrides(s3) : {};
    // An API process alone: it accepts jobs and no worker runs them until a test starts one.
    api = await startTestApp({ roles: ['api'], ...storageOverrides }, database);
    storage = await createStorage(api.config);
  });
  after(async () => {
    await api.close();
    await s3?.close();
    await hooks.close();
    await images.close();
    await database.close();
  });

  async function cancel(id: string): Promise<void> {
    const response = await api.app.inject({ method: 'DELETE', url: `/v1/job/${id}`, headers: api.auth });
    assert.equal(response.statusCode, 200, response.body);
  }

  it('are kept in storage, not in the job row, until the job settles; the result and its announcement are unchanged', async () => {
    const image = await makeImage(12, 10);
    const stored = await post(api, '/v1/upscale', { url: dataUrl(image), webhook: hooks.url });
    assert.equal(stored.statusCode, 200, stored.body);
    const id = stored.json().id as string;
    // The same image by URL: the reference for what the job produces and how it is announced.
    const fetched = await post(api, '/v1/upscale', { url: images.serve('same.png', image), webhook: hooks.url });
    const referenceId = fetched.json().id as string;

    const key = `input-${id}-image`;
    const row = await jobRow(database, id);
    assert.ok(!row.request.includes('data:'), 'the row holds no data: URL');
    assert.deepEqual(JSON.parse(row.request), { imageKey: key, params: { scale: 2 } });
    assert.deepEqual(await storage.read(key), image, 'the decoded bytes are in storage while the job is pending');
    assert.deepEqual(await recordedInputs(database), [{ key, job_id: id }]);
    // An input is never an output: the output route does not take its name.
    const served = await api.app.inject({ method: 'GET', url: `/v1/outputs/${key}` });
    assert.equal(served.statusCode, 400);

    const worker = await startTestApp({ roles: ['worker'], ...storageOverrides }, database);
    try {
      const delivery = await hooks.deliveryFor(id);
      const reference = await hooks.deliveryFor(referenceId);
      assert.equal(delivery.payload.status, 'success');
      assert.deepEqual(Object.keys(delivery.payload), Object.keys(reference.payload), 'the webhook payload has the same fields');
      const job = await jobRow(database, id);
      const referenceJob = await jobRow(database, referenceId);
      assert.deepEqual(await storage.read(job.output_key!), await storage.read(referenceJob.output_key!), 'the same output as by URL');
      await inputsRemoved(storage, database, id, [key]);
      const view = await api.app.inject({ method: 'GET', url: `/v1/job/${id}`, headers: api.auth });
      const referenceView = await api.app.inject({ method: 'GET', url: `/v1/job/${referenceId}`, headers: api.auth });
      assert.deepEqual(Object.keys(view.json()), Object.keys(referenceView.json()), 'GET /v1/job shows the same fields');
    } finally {
      await worker.close();
    }
  });

  it('answer a synchronous request as before and are removed after it', async () => {
    const embedded = await startTestApp(storageOverrides, database);
    try {
      const image = await makeImage(9, 7, 'jpeg');
      const answer = await post(embedded, '/v1/upscale', { url: dataUrl(image, 'image/jpeg'), scale: 3 });
      assert.equal(answer.statusCode, 200, answer.body);
      const reference = await post(embedded, '/v1/upscale', { url: images.serve('sync.jpg', image), scale: 3 });
      assert.equal(answer.json().base64, reference.json().base64);
      const id = answer.headers['x-job-id'] as string;
      assert.ok(!(await jobRow(database, id)).request.includes('data:'));
      await inputsRemoved(storage, database, id, [`input-${id}-image`]);
    } finally {
      await embedded.close();
    }
  });

  it('are stored once for requests that share an Idempotency-Key, however they race', async () => {
    const body = { url: dataUrl(await makeImage(8, 8)), webhook: hooks.url };
    const first = await post(api, '/v1/upscale', body, { 'idempotency-key': 'stored-once' });
    const id = first.json().id as string;
    const replay = await post(api, '/v1/upscale', body, { 'idempotency-key': 'stored-once' });
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.json().id, id);
    // Requests racing for a new key: the losers of the insert remove what they stored before they answer.
    const racing = await Promise.all(Array.from({ length: 5 }, () => post(api, '/v1/upscale', body, { 'idempotency-key': 'stored-race' })));
    const winner = racing[0]!.json().id as string;
    for (const response of racing) assert.equal(response.json().id, winner);
    // The earlier tests' inputs are all gone, so these are every record there is.
    const records = await recordedInputs(database);
    assert.deepEqual(
      records,
      [
        { key: `input-${id}-image`, job_id: id },
        { key: `input-${winner}-image`, job_id: winner },
      ].sort((a, b) => a.key.localeCompare(b.key)),
    );
    for (const { key } of records) assert.ok(await storage.exists(key));
    await cancel(id);
    await cancel(winner);
  });

  it('are removed, image and mask, when the job is cancelled', async () => {
    const image = await makeImage(16, 12);
    const response = await post(api, '/v1/declutter', { url: dataUrl(image), mask: dataUrl(await makeImage(16, 12)), webhook: hooks.url });
    assert.equal(response.statusCode, 200, response.body);
    const id = response.json().id as string;
    const keys = [`input-${id}-image`, `input-${id}-mask`];
    const request = JSON.parse((await jobRow(database, id)).request);
    assert.equal(request.imageKey, keys[0]);
    assert.equal(request.maskKey, keys[1]);
    for (const key of keys) assert.ok(await storage.exists(key));
    await cancel(id);
    // The route removes them before it answers.
    for (const key of keys) assert.equal(await storage.exists(key), false);
    assert.deepEqual((await recordedInputs(database)).filter((r) => r.job_id === id), []);
  });

  it('fail the job with input_missing (410) when the stored input is gone', async () => {
    const response = await post(api, '/v1/upscale', { url: dataUrl(await makeImage(8, 8)), webhook: hooks.url });
    const id = response.json().id as string;
    await storage.delete(`input-${id}-image`);
    const worker = await startTestApp({ roles: ['worker'], ...storageOverrides }, database);
    try {
      const { payload } = await hooks.deliveryFor(id);
      assert.equal(payload.status, 'failed');
      assert.equal((payload.error as { code: string }).code, 'input_missing');
      const job = await jobRow(database, id);
      assert.equal(job.error_status, 410);
      assert.equal(job.attempts, 0, 'no operation ran');
      await inputsRemoved(storage, database, id, [`input-${id}-image`]);
    } finally {
      await worker.close();
    }
  });

  it('refuse a data: URL that does not decode at submit, naming the field, and store nothing', async () => {
    const before = await recordedInputs(database);
    const response = await post(api, '/v1/upscale', { url: 'data:image/png;base64,not*base64' });
    assert.equal(response.statusCode, 400);
    const problem = response.json();
    assert.equal(problem.code, 'fetch_failed');
    assert.deepEqual(
      problem.errors.map((e: { field: string }) => e.field),
      ['/url'],
    );
    assert.deepEqual(await recordedInputs(database), before);
  });

  it('left behind by a stopped process are removed by the sweep once their job settled, or if it never came to be', async () => {
    const jobs = new JobRepository(database.db);
    const now = new Date();
    const settled = newJobRow({ user_id: api.user.userId, status: 'failed', completed_at: now.toISOString() });
    const pending = newJobRow({ user_id: api.user.userId });
    for (const job of [settled, pending]) await database.db.insertInto('jobs').values(job).execute();
    const inputs = { [settled.id]: `input-${settled.id}-image`, [pending.id]: `input-${pending.id}-image`, 'never-written': 'input-never-written-image' };
    for (const [jobId, key] of Object.entries(inputs)) {
      await jobs.recordStoredInputs(jobId, [key], now.toISOString());
      await storage.put(key, Buffer.from('bytes'));
    }
    const sweeper = new JobSweeper({
      jobs,
      idempotency: new IdempotencyRepository(database.db),
      storage,
      queue: { enqueue: () => {} },
      config: api.config,
      logger: pino({ level: 'silent' }),
    });
    // Within the hour a submit may still be writing its job, nothing is touched.
    await sweeper.sweep(new Date(now.getTime() + 30 * 60_000));
    for (const key of Object.values(inputs)) assert.ok(await storage.exists(key), key);
    await sweeper.sweep(new Date(now.getTime() + 2 * 60 * 60_000));
    assert.equal(await storage.exists(inputs[settled.id]!), false);
    assert.equal(await storage.exists(inputs['never-written']!), false);
    assert.ok(await storage.exists(inputs[pending.id]!), 'a pending job keeps its input');
    assert.deepEqual(
      (await recordedInputs(database)).filter((r) => Object.keys(inputs).includes(r.job_id)),
      [{ key: inputs[pending.id], job_id: pending.id }],
    );
  });
});
