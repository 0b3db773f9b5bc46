import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { UserRepository } from '../src/repositories/user-repository.js';
import { KeyService } from '../src/services/key-service.js';
import { hashApiKey } from '../src/security/api-key.js';
import { revokeKey } from '../src/cli/keys.js';
import { loadConfig } from '../src/config/config.js';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.js';

describe('API key prefixes and revocation', () => {
  let database: TestDatabase;
  let users: UserRepository;
  let keys: KeyService;
  before(async () => {
    database = await openTestDatabase();
    users = new UserRepository(database.db);
    keys = new KeyService(users);
  });
  after(() => database.close());

  /**
   * A key as they were made before the longer prefixes: its random part starts with `start` (so tests can make the
   * collisions that 24 bits of prefix allowed), and its stored prefix is its first 12 characters.
   */
  async function legacyKey(userId: string, start: string): Promise<string> {
    const key = `rc_live_${start}${crypto.randomBytes(24).toString('base64url')}`.slice(0, 8 + 32);
    await users.createKey({
      id: `key_${crypto.randomUUID()}`,
      user_id: userId,
      kind: 'live',
      key_hash: hashApiKey(key),
      prefix: key.slice(0, 12),
      created_at: new Date().toISOString(),
      revoked_at: null,
    });
    return key;
  }

  it('shows a prefix of 66 random bits that names the key', async () => {
    const created = await keys.createKey('prefix@example.com', 'live');
    assert.ok(created.key.startsWith(created.prefix));
    assert.match(created.prefix, /^rc_live_[A-Za-z0-9_-]{11}$/);
    const [stored] = await users.listKeys(created.userId);
    assert.equal(stored?.prefix, created.prefix);
    const test = await keys.createKey('prefix@example.com', 'test');
    assert.match(test.prefix, /^rc_test_[A-Za-z0-9_-]{11}$/);
  });

  it('revokes exactly the key its prefix names, and that key stops authenticating', async () => {
    const first = await keys.createKey('two-keys@example.com', 'live');
    const second = await keys.createKey('two-keys@example.com', 'live');
    // Both keys are cached as valid before the revocation.
    assert.ok(await keys.authenticate(first.key));
    assert.ok(await keys.authenticate(second.key));
    assert.deepEqual(await keys.revoke(first.prefix), { outcome: 'revoked', prefix: first.prefix, userId: first.userId });
    assert.equal(await keys.authenticate(first.key), undefined);
    assert.equal((await keys.authenticate(second.key))?.userId, second.userId);
    assert.deepEqual(await keys.revoke(first.prefix), { outcome: 'not_found' });
  });

  it('refuses a prefix that several active keys share, saying how many, and revokes none of them', async () => {
    const owner = await keys.createKey('legacy@example.com', 'live');
    const one = await legacyKey(owner.userId, 'AbCd');
    const two = await legacyKey(owner.userId, 'AbCd');
    assert.deepEqual(await keys.revoke('rc_live_AbCd'), { outcome: 'ambiguous', matches: 2 });
    assert.ok(await keys.authenticate(one));
    assert.ok(await keys.authenticate(two));
    // The whole key names one of them; then the shared prefix names only the other.
    assert.equal((await keys.revoke(one)).outcome, 'revoked');
    assert.equal(await keys.authenticate(one), undefined);
    assert.ok(await keys.authenticate(two));
    assert.deepEqual(await keys.revoke('rc_live_AbCd'), { outcome: 'revoked', prefix: 'rc_live_AbCd', userId: owner.userId });
    assert.equal(await keys.authenticate(two), undefined);
  });

  it('keeps keys made before the longer prefixes working and revocable by their 12-character prefix', async () => {
    const owner = await keys.createKey('old-key@example.com', 'live');
    const old = await legacyKey(owner.userId, 'Zy9q');
    assert.equal((await keys.authenticate(old))?.userId, owner.userId);
    assert.equal((await keys.revoke('rc_live_Zy9q')).outcome, 'revoked');
    assert.equal(await keys.authenticate(old), undefined);
  });

  it('matches prefixes character for character: `_` is no wildcard and case counts', async () => {
    const owner = await keys.createKey('exact@example.com', 'live');
    const underscore = await legacyKey(owner.userId, 'Qq_w');
    const letter = await legacyKey(owner.userId, 'QqXw');
    assert.deepEqual(await keys.revoke('rc_live_QQxw'), { outcome: 'not_found' });
    assert.equal((await keys.revoke('rc_live_Qq_w')).outcome, 'revoked');
    assert.equal(await keys.authenticate(underscore), undefined);
    assert.ok(await keys.authenticate(letter));
  });

  it('refuses a prefix shorter than the 12 characters every listed prefix has', async () => {
    const created = await keys.createKey('short@example.com', 'test');
    assert.deepEqual(await keys.revoke('rc_test_'), { outcome: 'too_short', minimum: 12 });
    assert.ok(await keys.authenticate(created.key));
  });

  it('says on the command line how many keys share the prefix and asks for a longer one', async (context) => {
    const owner = await keys.createKey('cli@example.com', 'live');
    await legacyKey(owner.userId, 'CliX');
    await legacyKey(owner.userId, 'CliX');
    await legacyKey(owner.userId, 'CliX');
    const written: string[] = [];
    context.mock.method(process.stderr, 'write', (text: string) => written.push(text));
    const config = loadConfig({}, { dataDir: database.dataDir, databaseUrl: database.databaseUrl, databaseSchema: database.databaseSchema, logLevel: 'silent' });
    assert.equal(await revokeKey(config, 'rc_live_CliX'), 1);
    context.mock.restoreAll();
    assert.match(written.join(''), /^3 active keys have a prefix starting with rc_live_CliX; nothing was revoked\. Give a longer prefix/);
    assert.equal((await users.findActiveKeysByPrefixStart('rc_live_CliX')).length, 3);
  });
});
