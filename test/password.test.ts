import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CURRENT_PARAMETERS, hashPassword, needsRehash, verifyPassword } from '../src/security/password.js';
import { UserRepository } from '../src/repositories/user-repository.js';
import { KeyService } from '../src/services/key-service.js';
import { AccountService } from '../src/services/account-service.js';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.js';

describe('password hashes (scrypt)', () => {
  it('stores its parameters and a salt of its own with each hash, and verifies only the right password', async () => {
    const one = await hashPassword('correct horse battery');
    const two = await hashPassword('correct horse battery');
    assert.match(one, new RegExp(`^scrypt\\$${CURRENT_PARAMETERS.logN}\\$${CURRENT_PARAMETERS.r}\\$${CURRENT_PARAMETERS.p}\\$[A-Za-z0-9_-]{22}\\$[A-Za-z0-9_-]{43}$`));
    assert.notEqual(one.split('$')[4], two.split('$')[4], 'a fresh salt per password');
    assert.ok(await verifyPassword('correct horse battery', one));
    assert.ok(await verifyPassword('correct horse battery', two));
    assert.equal(await verifyPassword('correct horse batterY', one), false);
    assert.equal(await verifyPassword('', one), false);
  });

  it('verifies a password typed in another Unicode form (NFKC before hashing)', async () => {
    const stored = await hashPassword('caf\u00e9 au lait');
    assert.ok(await verifyPassword('cafe\u0301 au lait', stored));
  });

  it('refuses malformed hashes and parameters that would take the machine, rather than computing them', async () => {
    const stored = await hashPassword('a password');
    for (const bad of ['', 'plain', stored.replace('scrypt$15$', 'scrypt$30$'), stored.replace('$8$1$', '$8$64$'), stored.slice(0, -30)]) {
      assert.equal(await verifyPassword('a password', bad), false, bad);
    }
  });

  it('asks for a rehash of hashes made with other parameters', async () => {
    assert.equal(needsRehash(await hashPassword('x-password')), false);
    assert.equal(needsRehash(await hashPassword('x-password', { logN: 10, r: 8, p: 1 })), true);
  });
});

describe('a log-in with a hash of older parameters', () => {
  let database: TestDatabase;
  before(async () => {
    database = await openTestDatabase();
  });
  after(() => database.close());

  it('succeeds and stores the password again with today\'s parameters', async () => {
    const users = new UserRepository(database.db);
    const { userId } = await new KeyService(users).createKey('old-hash@example.com', 'test');
    await users.setPasswordHash(userId, await hashPassword('an old password', { logN: 10, r: 8, p: 1 }));
    await new AccountService(users).logIn('old-hash@example.com', 'an old password');
    const stored = (await users.findAccountById(userId))?.password_hash ?? '';
    assert.ok(stored.startsWith(`scrypt$${CURRENT_PARAMETERS.logN}$`), stored);
    assert.ok(await verifyPassword('an old password', stored));
  });
});
