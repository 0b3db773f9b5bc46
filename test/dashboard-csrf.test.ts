import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { browserSession, type BrowserSession } from './helpers/browser-session.js';
import { dataUrl, makeImage } from './helpers/fixtures.js';

const ORIGIN = 'http://roomcraft.test';

describe('CSRF: a cookie alone changes nothing', () => {
  let t: TestApp;
  let browser: BrowserSession;
  before(async () => {
    // No worker: submitted jobs stay pending, which is all the playground's access needs to show.
    t = await startTestApp({ roles: ['api'] });
    browser = await browserSession(t.app, ORIGIN, { email: 'csrf@example.com', password: 'csrf password' });
  });
  after(() => t.close());

  const changes = () => [
    { method: 'POST' as const, url: '/dashboard/api/keys', payload: {} },
    { method: 'POST' as const, url: '/dashboard/api/webhook-secret/rotate' },
    { method: 'POST' as const, url: '/dashboard/api/password', payload: { currentPassword: 'csrf password', newPassword: 'another password' } },
    { method: 'DELETE' as const, url: '/dashboard/api/keys/key_any' },
    { method: 'POST' as const, url: '/dashboard/api/log-out' },
  ];

  it('refuses every state-changing dashboard request without the CSRF token, with a wrong one, or from another origin', async () => {
    const { cookie, csrfToken } = browser;
    const forged: Array<[string, Record<string, string>]> = [
      ['no token', { cookie, origin: ORIGIN }],
      // Its first character changed: the token's last two were once 'AA' already, and the "wrong" one was right.
      ['a wrong token', { cookie, origin: ORIGIN, 'x-csrf-token': `${csrfToken.startsWith('A') ? 'B' : 'A'}${csrfToken.slice(1)}` }],
      ['another session\'s token', { cookie, origin: ORIGIN, 'x-csrf-token': (await browserSession(t.app, ORIGIN, { email: 'other@example.com', password: 'other password' })).csrfToken }],
      ['no Origin', { cookie, 'x-csrf-token': csrfToken }],
      ['another Origin', { cookie, origin: 'https://evil.example', 'x-csrf-token': csrfToken }],
    ];
    for (const request of changes()) {
      for (const [what, headers] of forged) {
        const response = await t.app.inject({ ...request, headers });
        assert.equal(response.statusCode, 403, `${request.method} ${request.url} with ${what}: ${response.body}`);
        assert.equal(response.json().code, 'csrf_failed');
      }
    }
    // None of them happened: no key, the same secret, the password and the session unchanged.
    const keys = await t.app.inject({ method: 'GET', url: '/dashboard/api/keys', headers: { cookie } });
    assert.deepEqual(keys.json().keys, []);
    await browserSession(t.app, ORIGIN, { email: 'csrf@example.com', password: 'csrf password' }, 'log-in');
    assert.equal((await t.app.inject({ method: 'GET', url: '/dashboard/api/session', headers: { cookie } })).statusCode, 200);
  });

  it('refuses sign-up and log-in from another origin or without one (login CSRF)', async () => {
    for (const headers of [{ origin: 'https://evil.example' }, {}]) {
      for (const url of ['/dashboard/api/log-in', '/dashboard/api/sign-up']) {
        const response = await t.app.inject({ method: 'POST', url, headers, payload: { email: 'csrf@example.com', password: 'csrf password' } });
        assert.equal(response.statusCode, 403, `${url} ${JSON.stringify(headers)}`);
        assert.equal(response.json().code, 'csrf_failed');
        assert.equal(response.headers['set-cookie'], undefined);
      }
    }
  });

  it('answers reads with the cookie alone: another origin cannot read them (no credentialed CORS)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/dashboard/api/keys', headers: { cookie: browser.cookie, origin: 'https://evil.example' } });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['access-control-allow-origin'], undefined);
    assert.equal(response.headers['access-control-allow-credentials'], undefined);
  });
});

describe('the playground: a session on /v1 acts as a test key', () => {
  let t: TestApp;
  let browser: BrowserSession;
  let photo: string;
  before(async () => {
    t = await startTestApp({ roles: ['api'] });
    browser = await browserSession(t.app, ORIGIN, { email: 'player@example.com', password: 'player password' });
    photo = dataUrl(await makeImage(16, 12));
  });
  after(() => t.close());

  const submit = (headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/v1/upscale', headers: { ...headers, prefer: 'respond-async' }, payload: { url: photo, scale: 2 } });

  it('submits a job with the CSRF token and reads it back, as the user, with a test key\'s semantics', async () => {
    const submitted = await submit(browser.headers);
    assert.equal(submitted.statusCode, 200, submitted.body);
    assert.equal(submitted.json().status, 'pending');
    const id = submitted.headers['x-job-id'] as string;
    const job = await t.app.inject({ method: 'GET', url: `/v1/job/${id}`, headers: { cookie: browser.cookie } });
    assert.equal(job.statusCode, 200, job.body);
    assert.equal(job.json().id, id);
    const row = await t.database.db.selectFrom('jobs').select(['user_id', 'key_kind', 'credits']).where('id', '=', id).executeTakeFirstOrThrow();
    const session = (await t.app.inject({ method: 'GET', url: '/dashboard/api/session', headers: { cookie: browser.cookie } })).json();
    assert.deepEqual(row, { user_id: session.user.id, key_kind: 'test', credits: 0 });
    const listed = await t.app.inject({ method: 'GET', url: '/v1/jobs', headers: { cookie: browser.cookie } });
    assert.deepEqual(listed.json().jobs.map((j: { id: string }) => j.id), [id]);
    // Another user's key does not see it.
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/job/${id}`, headers: t.auth })).statusCode, 404);
  });

  it('refuses a submission without the CSRF token or from another origin (403), and writes no job', async () => {
    const before = await t.database.db.selectFrom('jobs').select('id').execute();
    const { 'x-csrf-token': _, ...withoutToken } = browser.headers;
    const missing = await submit(withoutToken);
    assert.equal(missing.statusCode, 403, missing.body);
    assert.equal(missing.json().code, 'csrf_failed');
    const crossOrigin = await submit({ ...browser.headers, origin: 'https://evil.example' });
    assert.equal(crossOrigin.statusCode, 403);
    assert.equal(crossOrigin.json().code, 'csrf_failed');
    assert.equal((await t.database.db.selectFrom('jobs').select('id').execute()).length, before.length);
  });

  it('judges a request that sends an API key by the key alone, cookie or not', async () => {
    const withWrongKey = await t.app.inject({ method: 'GET', url: '/v1/jobs', headers: { cookie: browser.cookie, authorization: 'Bearer rc_test_wrong' } });
    assert.equal(withWrongKey.statusCode, 401);
    const ended = await t.app.inject({ method: 'POST', url: '/dashboard/api/log-out', headers: browser.headers });
    assert.equal(ended.statusCode, 204);
    const afterLogOut = await t.app.inject({ method: 'GET', url: '/v1/jobs', headers: { cookie: browser.cookie } });
    assert.equal(afterLogOut.statusCode, 401, 'an ended session is no caller');
  });
});
