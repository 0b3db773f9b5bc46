import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RoomcraftClient, RoomcraftError, differencesFromOpenApi } from '../src/client/index.js';
import { injectFetch } from '../src/cli/inject-fetch.js';
import { JobRepository } from '../src/repositories/job-repository.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { jobRow } from './helpers/job-rows.js';

describe('the client’s listJobs and cancelJob', () => {
  let t: TestApp;
  let client: RoomcraftClient;
  let ids: string[];

  before(async () => {
    // No worker role: the jobs written here stay pending and unclaimed.
    t = await startTestApp({ roles: ['api'] });
    client = new RoomcraftClient({ baseUrl: t.config.publicUrl, apiKey: t.user.key, fetch: injectFetch(t.app) });
    const repository = new JobRepository(t.database.db);
    const rows = [0, 1, 2].map((i) =>
      jobRow({ user_id: t.user.userId, created_at: new Date(Date.parse('2025-01-01T00:00:00Z') + i * 1000).toISOString(), operation: i === 1 ? 'enhancer' : 'upscale' }),
    );
    for (const row of rows) assert.ok(await repository.create(row));
    ids = rows.map((row) => row.id).reverse();
  });
  after(() => t.close());

  it('pages through the jobs with the cursor the server hands out, and filters', async () => {
    const first = await client.listJobs({ limit: 2 });
    assert.deepEqual(
      first.jobs.map((j) => j.id),
      ids.slice(0, 2),
    );
    const second = await client.listJobs({ limit: 2, cursor: first.next! });
    assert.deepEqual(
      second.jobs.map((j) => j.id),
      ids.slice(2),
    );
    assert.equal(second.next, undefined);
    assert.deepEqual(
      (await client.listJobs({ operation: 'enhancer' })).jobs.map((j) => j.id),
      [ids[1]],
    );
  });

  it('cancels a pending job, and rejects a second cancel with job_not_cancellable', async () => {
    const cancelled = await client.cancelJob(ids[0]!);
    assert.equal(cancelled.status, 'failed');
    assert.equal(cancelled.error?.code, 'job_cancelled');
    const refusal = await client.cancelJob(ids[0]!).then(
      () => assert.fail('a settled job cannot be cancelled'),
      (error: unknown) => error,
    );
    assert.ok(refusal instanceof RoomcraftError);
    assert.equal(refusal.status, 409);
    assert.equal(refusal.code, 'job_not_cancellable');
  });

  it('agrees with the server’s OpenAPI document, the new routes included', async () => {
    assert.deepEqual(differencesFromOpenApi(await client.openApi()), []);
  });
});
