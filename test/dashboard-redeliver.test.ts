import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { browserSession, type BrowserSession } from './helpers/browser-session.js';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.js';
import { dataUrl, makeImage } from './helpers/fixtures.js';
import { TEST_TIMEOUT_MS, until } from './helpers/until.js';

/** The job page's webhook deliveries and its redeliver button, at the dashboard API (session-authenticated). */
describe('dashboard API: a job’s webhook deliveries and redelivery', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let owner: BrowserSession;
  let stranger: BrowserSession;
  let jobId: string;

  before(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestApp();
    owner = await browserSession(t.app, t.config.publicUrl, { email: 'owner-of-hooks@example.com', password: 'a long enough password' });
    stranger = await browserSession(t.app, t.config.publicUrl, { email: 'stranger@example.com', password: 'another long password' });
    // A job with a webhook, made from the playground's path: /v1 with the session.
    const submitted = await t.app.inject({
      method: 'POST',
      url: '/v1/upscale',
      headers: owner.headers,
      payload: { url: dataUrl(await makeImage(24, 16)), webhook: receiver.url },
    });
    assert.equal(submitted.statusCode, 200, submitted.body);
    jobId = (submitted.json() as { id: string }).id;
    await receiver.deliveryFor(jobId);
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  const deliveries = async (session: BrowserSession) => {
    const response = await t.app.inject({ url: `/dashboard/api/jobs/${jobId}/deliveries`, headers: { cookie: session.cookie } });
    return { status: response.statusCode, body: response.json() as { deliveries: { id: string; event: string; status: string; attempts: number }[] } };
  };

  it('lists the job’s delivery once it was sent: its event, state and attempts', async () => {
    // The dispatcher records the outcome just after the receiver answered; wait for that record.
    const listed = await until(async () => {
      const { body } = await deliveries(owner);
      return body.deliveries[0]?.status === 'delivered' ? body.deliveries : undefined;
    }, { what: 'the delivery recorded as delivered' });
    assert.equal(listed.length, 1);
    assert.equal(listed[0]!.event, 'job.succeeded');
    assert.equal(listed[0]!.attempts, 1);
    assert.equal(listed[0]!.id, receiver.received[0]!.headers['webhook-id']);
  });

  it('redelivers the last event: a new delivery of the same body under a webhook-id of its own, listed first', { timeout: TEST_TIMEOUT_MS }, async () => {
    const response = await t.app.inject({ method: 'POST', url: `/dashboard/api/jobs/${jobId}/redeliver`, headers: owner.headers });
    assert.equal(response.statusCode, 201, response.body);
    const { id } = response.json() as { id: string };
    const sent = await until(async () => {
      const both = receiver.received.filter((d) => d.payload.id === jobId);
      return both.length === 2 ? both : undefined;
    }, { what: 'the redelivery at the receiver' });
    assert.equal(sent[1]!.headers['webhook-id'], id);
    assert.notEqual(sent[1]!.headers['webhook-id'], sent[0]!.headers['webhook-id']);
    assert.equal(sent[1]!.body, sent[0]!.body);
    const { body } = await deliveries(owner);
    assert.deepEqual(body.deliveries.map((d) => d.id), [id, sent[0]!.headers['webhook-id']]);
  });

  it('refuses another user (404, nothing sent), a redelivery without the CSRF token (403) and a browser without a session (401)', async () => {
    const before = receiver.received.length;
    assert.equal((await deliveries(stranger)).status, 404);
    const foreign = await t.app.inject({ method: 'POST', url: `/dashboard/api/jobs/${jobId}/redeliver`, headers: stranger.headers });
    assert.equal(foreign.statusCode, 404);
    const forged = await t.app.inject({
      method: 'POST',
      url: `/dashboard/api/jobs/${jobId}/redeliver`,
      headers: { cookie: owner.cookie, origin: t.config.publicUrl },
    });
    assert.equal(forged.statusCode, 403);
    assert.equal((forged.json() as { code: string }).code, 'csrf_failed');
    const anonymous = await t.app.inject({ url: `/dashboard/api/jobs/${jobId}/deliveries` });
    assert.equal(anonymous.statusCode, 401);
    // Nothing was queued by the refused requests: the dispatcher polls every 25 ms here, and the owner's listing
    // (one query after those refusals) still shows exactly the two deliveries of the previous test.
    assert.equal((await deliveries(owner)).body.deliveries.length, 2);
    assert.equal(receiver.received.length, before);
  });
});
