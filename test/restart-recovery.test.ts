import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from './helpers/test-app.js';
import { startImageServer, type ImageServer } from './helpers/image-server.js';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.js';
import { makeImage } from './helpers/fixtures.js';

describe('restart recovery', () => {
  let database: TestDatabase;
  let images: ImageServer;
  before(async () => {
    database = await openTestDatabase();
    images = await startImageServer();
  });
  after(async () => {
    await images.close();
    await database.close();
  });

  it('runs, after a restart, a job that was pending when the previous process stopped', async () => {
    // First process: accepts the job but has no worker role, as if it died before running it.
    const first = await startTestApp({ roles: ['api'] }, database);
    const url = images.serve('pending.png', await makeImage(20, 20));
    const ack = (
      await first.app.inject({
        method: 'POST',
        url: '/v1/upscale',
        headers: first.auth,
        payload: { url, webhook: 'http://127.0.0.1:9/hook' },
      })
    ).json();
    await first.close();
    const stored = await database.db.selectFrom('jobs').selectAll().where('id', '=', ack.id).executeTakeFirstOrThrow();
    assert.equal(stored.status, 'pending');

    // Second process, same database: picks the job up at start and completes it.
    const second = await startTestApp({}, database);
    try {
      const deadline = Date.now() + 10_000;
      let status = 'pending';
      while (status === 'pending' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 25));
        status = (await database.db.selectFrom('jobs').select('status').where('id', '=', ack.id).executeTakeFirstOrThrow()).status;
      }
      assert.equal(status, 'success');
      const job = await database.db.selectFrom('jobs').selectAll().where('id', '=', ack.id).executeTakeFirstOrThrow();
      assert.equal(job.attempts, 1);
      assert.ok(job.output_key);
    } finally {
      await second.close();
    }
  });
});
