import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from './helpers/test-app.js';
import { startImageServer, type ImageServer } from './helpers/image-server.js';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.js';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.js';
import { makeImage } from './helpers/fixtures.js';

describe('restart recovery', () => {
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

  it('runs, after a restart, a job that was pending when the previous process stopped', async () => {
    // First process: accepts the job but has no worker role, as if it died before running it.
    const first = await startTestApp({ roles: ['api'] }, database);
    const url = images.serve('pending.png', await makeImage(20, 20));
    const ack = (
      await first.app.inject({
        method: 'POST',
        url: '/v1/upscale',
        headers: first.auth,
        payload: { url, webhook: hooks.url },
      })
    ).json();
    await first.close();
    const stored = await database.db.selectFrom('jobs').selectAll().where('id', '=', ack.id).executeTakeFirstOrThrow();
    assert.equal(stored.status, 'pending');
    assert.deepEqual(images.requests, [], 'the first process never ran the job');

    // Second process, same database: picks the job up at start, completes it and announces it.
    const second = await startTestApp({}, database);
    try {
      const { payload } = await hooks.deliveryFor(ack.id);
      assert.equal(payload.status, 'success');
      const job = await database.db.selectFrom('jobs').selectAll().where('id', '=', ack.id).executeTakeFirstOrThrow();
      assert.equal(job.status, 'success');
      assert.equal(job.attempts, 1);
      assert.ok(job.output_key);
      assert.deepEqual(images.requests, ['/pending.png']);
    } finally {
      await second.close();
    }
  });
});
