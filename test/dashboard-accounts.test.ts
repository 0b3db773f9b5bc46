import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LicenceRepository } from '../src/repositories/licence-repository.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { browserSession } from './helpers/browser-session.js';

const ORIGIN = 'http://roomcraft.test';

describe('accounts in the browser: sign-up, log-in and the API area', () => {
  let t: TestApp;
  before(async () => {
    // No worker: the API is what is tested here, and jobs made with a key only need to be accepted.
    t = await startTestApp({ roles: ['api'] });
  });
  after(() => t.close());

  it('signs up, logs in, creates a test key shown once, lists it, revokes it, and the API then refuses the key', async () => {
    const credentials = { email: 'Ada@Example.com', password: 'correct horse battery' };
    const signedUp = await browserSession(t.app, ORIGIN, credentials);
    const session = await t.app.inject({ method: 'GET', url: '/dashboard/api/session', headers: { cookie: signedUp.cookie } });
    assert.equal(session.statusCode, 200, session.body);
    // Sign-up stores the email lower-cased; log-in finds it whatever the case typed.
    assert.equal(session.json().user.email, 'ada@example.com');
    assert.equal(session.json().user.isAdmin, false, 'a user who signs up is never the administrator');
    assert.equal(session.json().csrfToken, signedUp.csrfToken);

    const browser = await browserSession(t.app, ORIGIN, credentials, 'log-in');
    assert.notEqual(browser.cookie, signedUp.cookie, 'each log-in is a new session');

    const created = await t.app.inject({ method: 'POST', url: '/dashboard/api/keys', headers: browser.headers, payload: {} });
    assert.equal(created.statusCode, 201, created.body);
    const key = created.json();
    assert.match(key.key, /^rc_test_/);
    assert.ok(key.key.startsWith(key.prefix));
    assert.equal(key.kind, 'test');
    assert.equal(key.revokedAt, null);

    const listed = await t.app.inject({ method: 'GET', url: '/dashboard/api/keys', headers: { cookie: browser.cookie } });
    assert.equal(listed.statusCode, 200);
    assert.deepEqual(listed.json().keys, [{ id: key.id, kind: 'test', prefix: key.prefix, createdAt: key.createdAt, revokedAt: null }]);
    assert.ok(!listed.body.includes(key.key), 'after its creation only the prefix is shown');
    assert.equal(listed.headers['cache-control'], 'no-store');

    const bearer = { authorization: `Bearer ${key.key}` };
    assert.equal((await t.app.inject({ method: 'GET', url: '/v1/jobs', headers: bearer })).statusCode, 200);

    const revoked = await t.app.inject({ method: 'DELETE', url: `/dashboard/api/keys/${key.id}`, headers: browser.headers });
    assert.equal(revoked.statusCode, 200, revoked.body);
    assert.ok(revoked.json().revokedAt);
    const refused = await t.app.inject({ method: 'GET', url: '/v1/jobs', headers: bearer });
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.json().code, 'unauthorized');
    const relisted = (await t.app.inject({ method: 'GET', url: '/dashboard/api/keys', headers: { cookie: browser.cookie } })).json();
    assert.equal(relisted.keys[0].revokedAt, revoked.json().revokedAt);
  });

  it('never revokes or lists another user\'s key', async () => {
    const browser = await browserSession(t.app, ORIGIN, { email: 'mallory@example.com', password: 'a long enough password' });
    const [ownersKey] = await t.database.db.selectFrom('api_keys').select('id').where('user_id', '=', t.user.userId).execute();
    const response = await t.app.inject({ method: 'DELETE', url: `/dashboard/api/keys/${ownersKey!.id}`, headers: browser.headers });
    assert.equal(response.statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: '/v1/jobs', headers: t.auth })).statusCode, 200, 'the owner\'s key still works');
    const listed = await t.app.inject({ method: 'GET', url: '/dashboard/api/keys', headers: { cookie: browser.cookie } });
    assert.deepEqual(listed.json().keys, []);
  });

  it('gives the same answer for a wrong password, an unknown email and a user without a password', async () => {
    await browserSession(t.app, ORIGIN, { email: 'grace@example.com', password: 'the right password' });
    const attempt = (email: string) =>
      t.app.inject({ method: 'POST', url: '/dashboard/api/log-in', headers: { origin: ORIGIN }, payload: { email, password: 'not the password' } });
    // owner@example.com was made by `keys create`, without a password.
    const answers = await Promise.all(['grace@example.com', 'nobody@example.com', 'owner@example.com'].map(attempt));
    for (const answer of answers) {
      assert.equal(answer.statusCode, 401);
      assert.equal(answer.headers['set-cookie'], undefined);
    }
    const bodies = answers.map((answer) => {
      const { requestId: _, ...problem } = answer.json();
      return problem;
    });
    assert.deepEqual(bodies[1], bodies[0]);
    assert.deepEqual(bodies[2], bodies[0]);
    assert.equal(bodies[0].code, 'invalid_credentials');
  });

  it('refuses a second account for an email, whatever its case', async () => {
    await browserSession(t.app, ORIGIN, { email: 'twice@example.com', password: 'first password' });
    const again = await t.app.inject({
      method: 'POST',
      url: '/dashboard/api/sign-up',
      headers: { origin: ORIGIN },
      payload: { email: 'TWICE@example.com', password: 'second password' },
    });
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().code, 'email_taken');
    // Nor may a sign-up take over a user made from the command line, who has no password.
    const cliUser = await t.app.inject({
      method: 'POST',
      url: '/dashboard/api/sign-up',
      headers: { origin: ORIGIN },
      payload: { email: 'owner@example.com', password: 'an attacker password' },
    });
    assert.equal(cliUser.statusCode, 409);
  });

  it('refuses a password shorter than 8 characters at sign-up', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/dashboard/api/sign-up',
      headers: { origin: ORIGIN },
      payload: { email: 'short@example.com', password: 'short' },
    });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().code, 'validation_failed');
  });

  it('refuses log-ins to an email after its attempts run out, even with the right password (429, Retry-After)', async () => {
    const credentials = { email: 'target@example.com', password: 'the real password' };
    await browserSession(t.app, ORIGIN, credentials);
    // 10 attempts per 15-minute window of the clock (test/login-throttle.test.ts counts them exactly, on a frozen
    // clock); a window may begin during this loop, so a refusal must come within two windows' budgets.
    let refusedAt: number | undefined;
    for (let attempt = 1; attempt <= 21 && refusedAt === undefined; attempt++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/dashboard/api/log-in',
        headers: { origin: ORIGIN },
        payload: { ...credentials, password: `guess ${attempt} wrong` },
      });
      if (response.statusCode === 429) refusedAt = attempt;
      else assert.equal(response.statusCode, 401, `attempt ${attempt}`);
    }
    assert.ok(refusedAt !== undefined && refusedAt > 10, `refused at attempt ${refusedAt}`);
    const blocked = await t.app.inject({ method: 'POST', url: '/dashboard/api/log-in', headers: { origin: ORIGIN }, payload: credentials });
    assert.equal(blocked.statusCode, 429);
    assert.equal(blocked.json().code, 'rate_limited');
    assert.ok(Number(blocked.headers['retry-after']) > 0);
  });

  it('creates a production key only for a user with a licence in force', async () => {
    const browser = await browserSession(t.app, ORIGIN, { email: 'licensee@example.com', password: 'licensee password' });
    const live = () => t.app.inject({ method: 'POST', url: '/dashboard/api/keys', headers: browser.headers, payload: { kind: 'live' } });
    const refused = await live();
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().code, 'licence_required');

    const session = (await t.app.inject({ method: 'GET', url: '/dashboard/api/session', headers: { cookie: browser.cookie } })).json();
    const licences = new LicenceRepository(t.database.db);
    const now = new Date().toISOString();
    await licences.definePlan({ name: 'studio', monthlyCredits: 100, addons: [] }, now);
    await licences.grant({
      id: 'lic_test',
      user_id: session.user.id,
      plan_name: 'studio',
      starts_at: now,
      ends_at: null,
      granted_by: 'cli',
      external_ref: null,
      created_at: now,
    });
    const created = await live();
    assert.equal(created.statusCode, 201, created.body);
    assert.match(created.json().key, /^rc_live_/);
  });

  it('shows the webhook signing secret and rotates it: deliveries are signed with the new one', async () => {
    const browser = await browserSession(t.app, ORIGIN, { email: 'hooks@example.com', password: 'hooks password' });
    const shown = await t.app.inject({ method: 'GET', url: '/dashboard/api/webhook-secret', headers: { cookie: browser.cookie } });
    assert.equal(shown.statusCode, 200);
    assert.match(shown.json().secret, /^whsec_/);
    const rotated = await t.app.inject({ method: 'POST', url: '/dashboard/api/webhook-secret/rotate', headers: browser.headers });
    assert.equal(rotated.statusCode, 200, rotated.body);
    assert.notEqual(rotated.json().secret, shown.json().secret);
    const after = await t.app.inject({ method: 'GET', url: '/dashboard/api/webhook-secret', headers: { cookie: browser.cookie } });
    assert.equal(after.json().secret, rotated.json().secret);
    const [row] = await t.database.db.selectFrom('users').select('webhook_secret').where('email', '=', 'hooks@example.com').execute();
    assert.equal(row!.webhook_secret, rotated.json().secret, 'the webhook service reads the secret from here at each send');
  });
});
