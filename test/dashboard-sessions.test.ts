import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { loadConfig } from '../src/config/config.js';
import { setPassword } from '../src/cli/users.js';
import { SessionRepository } from '../src/repositories/session-repository.js';
import { UserRepository } from '../src/repositories/user-repository.js';
import { KeyService } from '../src/services/key-service.js';
import { AccountService } from '../src/services/account-service.js';
import { SESSION_IDLE_MS, SESSION_LIFETIME_MS, SessionService } from '../src/services/session-service.js';
import { csrfTokenOf } from '../src/security/csrf.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.js';
import { browserSession } from './helpers/browser-session.js';

const ORIGIN = 'http://roomcraft.test';

describe('dashboard sessions', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ roles: ['api'] });
  });
  after(() => t.close());

  const sessionOf = (cookie: string) => t.app.inject({ method: 'GET', url: '/dashboard/api/session', headers: { cookie } });

  it('sets an HttpOnly, SameSite=Lax cookie for the whole site, without Secure on a plain-http service', async () => {
    const browser = await browserSession(t.app, ORIGIN, { email: 'cookie@example.com', password: 'cookie password' });
    const attributes = browser.setCookie.split(';').map((part) => part.trim());
    assert.match(attributes[0]!, /^roomcraft_session=[A-Za-z0-9_-]{43}$/);
    assert.ok(attributes.includes('HttpOnly'));
    assert.ok(attributes.includes('SameSite=Lax'));
    assert.ok(attributes.includes('Path=/'));
    assert.ok(attributes.includes(`Max-Age=${SESSION_LIFETIME_MS / 1000}`));
    assert.ok(!attributes.includes('Secure'), 'a browser drops a Secure cookie set over http://');
  });

  it('keeps only the hash of the token: the cookie\'s value is nowhere in the database', async () => {
    const browser = await browserSession(t.app, ORIGIN, { email: 'hashed@example.com', password: 'hashed password' });
    const token = browser.cookie.split('=')[1]!;
    const rows = await t.database.db.selectFrom('sessions').selectAll().execute();
    assert.ok(rows.length > 0);
    assert.ok(!JSON.stringify(rows).includes(token));
    assert.ok(rows.some((row) => row.id === crypto.createHash('sha256').update(token).digest('hex')));
    assert.equal(browser.csrfToken, csrfTokenOf(token));
  });

  it('ends the session at log-out: the row is gone, the cookie cleared, and the cookie no longer works', async () => {
    const browser = await browserSession(t.app, ORIGIN, { email: 'leaving@example.com', password: 'leaving password' });
    const out = await t.app.inject({ method: 'POST', url: '/dashboard/api/log-out', headers: browser.headers });
    assert.equal(out.statusCode, 204, out.body);
    assert.match(String(out.headers['set-cookie']), /^roomcraft_session=; Max-Age=0;/);
    const after = await sessionOf(browser.cookie);
    assert.equal(after.statusCode, 401);
    assert.equal(after.json().code, 'session_required');
  });

  it('changes the password only with the current one, and ends the user\'s other sessions but not this one', async () => {
    const credentials = { email: 'changer@example.com', password: 'first password' };
    const here = await browserSession(t.app, ORIGIN, credentials);
    const elsewhere = await browserSession(t.app, ORIGIN, credentials, 'log-in');
    const someoneElse = await browserSession(t.app, ORIGIN, { email: 'bystander@example.com', password: 'bystander password' });

    const wrong = await t.app.inject({
      method: 'POST',
      url: '/dashboard/api/password',
      headers: here.headers,
      payload: { currentPassword: 'not it at all', newPassword: 'second password' },
    });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.json().code, 'invalid_credentials');
    assert.equal((await sessionOf(elsewhere.cookie)).statusCode, 200, 'a refused change ends nothing');

    const changed = await t.app.inject({
      method: 'POST',
      url: '/dashboard/api/password',
      headers: here.headers,
      payload: { currentPassword: 'first password', newPassword: 'second password' },
    });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.deepEqual(changed.json(), { endedSessions: 1 });
    assert.equal((await sessionOf(here.cookie)).statusCode, 200);
    assert.equal((await sessionOf(elsewhere.cookie)).statusCode, 401);
    assert.equal((await sessionOf(someoneElse.cookie)).statusCode, 200);

    const old = await t.app.inject({ method: 'POST', url: '/dashboard/api/log-in', headers: { origin: ORIGIN }, payload: credentials });
    assert.equal(old.statusCode, 401);
    await browserSession(t.app, ORIGIN, { ...credentials, password: 'second password' }, 'log-in');
  });

  it('lets a user made from the command line log in once the operator set a password (users set-password, from stdin)', async () => {
    const config = loadConfig({}, { dataDir: t.database.dataDir, databaseUrl: t.database.databaseUrl, databaseSchema: t.database.databaseSchema });
    assert.equal(await setPassword(config, 'owner@example.com', Readable.from(['operator password\n'])), 0);
    const browser = await browserSession(t.app, ORIGIN, { email: 'owner@example.com', password: 'operator password' }, 'log-in');
    const session = (await sessionOf(browser.cookie)).json();
    assert.equal(session.user.id, t.user.userId);
    assert.equal(session.user.isAdmin, true, 'the first user made from the command line is the administrator');
    assert.equal(await setPassword(config, 'nobody@example.com', Readable.from(['whatever password\n'])), 1);
    assert.equal(await setPassword(config, 'owner@example.com', Readable.from(['short\n'])), 2);
  });
});

describe('a session over https', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ roles: ['api'], publicUrl: 'https://roomcraft.test' });
  });
  after(() => t.close());

  it('is a __Host- cookie with Secure, and a request must come from the https origin', async () => {
    const browser = await browserSession(t.app, 'https://roomcraft.test', { email: 'secure@example.com', password: 'secure password' });
    const attributes = browser.setCookie.split(';').map((part) => part.trim());
    assert.match(attributes[0]!, /^__Host-roomcraft_session=/);
    assert.ok(attributes.includes('Secure'));
    assert.ok(attributes.includes('Path=/'));
    assert.ok(!attributes.some((attribute) => attribute.startsWith('Domain')), '__Host- cookies have no Domain');
    const fromHttp = await t.app.inject({
      method: 'POST',
      url: '/dashboard/api/keys',
      headers: { ...browser.headers, origin: 'http://roomcraft.test' },
      payload: {},
    });
    assert.equal(fromHttp.statusCode, 403);
  });
});

describe('session lifetime', () => {
  let database: TestDatabase;
  let userId: string;
  before(async () => {
    database = await openTestDatabase();
    userId = (await new KeyService(new UserRepository(database.db)).createKey('clock@example.com', 'test')).userId;
  });
  after(() => database.close());

  function clocked() {
    const at = { ms: Date.UTC(2026, 0, 5, 9, 0, 0) };
    return { at, sessions: new SessionService(new SessionRepository(database.db), () => at.ms) };
  }

  it('ends a session left idle for 8 hours, and keeps one in use alive', async () => {
    const { at, sessions } = clocked();
    const idle = await sessions.start(userId);
    const used = await sessions.start(userId);
    at.ms += SESSION_IDLE_MS / 2;
    assert.ok(await sessions.resolve(used.token));
    at.ms += SESSION_IDLE_MS / 2;
    assert.equal(await sessions.resolve(idle.token), undefined);
    assert.ok(await sessions.resolve(used.token), 'used half an idle timeout ago');
  });

  it('ends a session 7 days after the log-in however much it is used', async () => {
    const { at, sessions } = clocked();
    const session = await sessions.start(userId);
    while (at.ms + SESSION_IDLE_MS / 2 < Date.parse(session.expiresAt)) {
      at.ms += SESSION_IDLE_MS / 2;
      assert.ok(await sessions.resolve(session.token));
    }
    at.ms = Date.parse(session.expiresAt);
    assert.equal(await sessions.resolve(session.token), undefined);
    assert.equal(await database.db.selectFrom('sessions').select('id').where('id', '=', crypto.createHash('sha256').update(session.token).digest('hex')).executeTakeFirst(), undefined);
  });
});

describe('the administrator', () => {
  let database: TestDatabase;
  before(async () => {
    database = await openTestDatabase();
  });
  after(() => database.close());

  it('is the first user made from the command line, not an earlier sign-up, and stays the only one', async () => {
    const users = new UserRepository(database.db);
    const signedUp = await new AccountService(users).signUp('early@example.com', 'early password');
    const keys = new KeyService(users);
    const first = await keys.createKey('first@example.com', 'test');
    const second = await keys.createKey('second@example.com', 'test');
    const admins = await database.db.selectFrom('users').select(['id', 'is_admin']).where('is_admin', '=', 1).execute();
    assert.deepEqual(admins.map((row) => row.id), [first.userId]);
    assert.equal((await users.findAccountById(signedUp.id))?.is_admin, 0);
    assert.equal((await users.findAccountById(second.userId))?.is_admin, 0);
  });
});
