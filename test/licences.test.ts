import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, type Config } from '../src/config/config.js';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.js';
import { periodAt, periodStart } from '../src/services/licence-periods.js';
import { CreditRepository } from '../src/repositories/credit-repository.js';
import { UserRepository } from '../src/repositories/user-repository.js';
import { createKey } from '../src/cli/keys.js';
import { definePlan, listPlans } from '../src/cli/plans.js';
import { grantLicence } from '../src/cli/licences.js';
import { grantCredits } from '../src/cli/credits.js';

describe('a licence’s monthly periods', () => {
  it('renew on the licence’s day of the month, on the last day of shorter months, without drifting', () => {
    const start = '2024-01-31T10:00:00.000Z';
    assert.deepEqual([1, 2, 3].map((k) => periodStart(start, k)), ['2024-02-29T10:00:00.000Z', '2024-03-31T10:00:00.000Z', '2024-04-30T10:00:00.000Z']);
    assert.deepEqual(periodAt(start, '2024-03-31T09:59:59.999Z'), { index: 1, start: '2024-02-29T10:00:00.000Z', end: '2024-03-31T10:00:00.000Z' });
    assert.equal(periodAt('2024-01-20T00:00:00.000Z', '2024-03-05T00:00:00.000Z').start, '2024-02-20T00:00:00.000Z');
  });
});

describe('roomcraft plans, licences, credits and live keys', () => {
  let database: TestDatabase;
  let config: Config;
  let out: string[];
  let err: string[];

  before(async () => {
    database = await openTestDatabase();
    config = loadConfig({}, { dataDir: database.dataDir, databaseUrl: database.databaseUrl, databaseSchema: database.databaseSchema, logLevel: 'silent' });
  });
  after(() => database.close());

  /** Runs a command function with stdout and stderr captured. */
  async function run(context: TestContext, command: () => Promise<number>): Promise<number> {
    out = [];
    err = [];
    context.mock.method(process.stdout, 'write', (text: string) => out.push(text));
    context.mock.method(process.stderr, 'write', (text: string) => err.push(text));
    try {
      return await command();
    } finally {
      context.mock.restoreAll();
    }
  }

  it('refuses a live key without a licence, naming the command that grants one; grants it; then makes the key', async (context) => {
    const email = 'buyer@example.com';
    assert.equal(await run(context, () => createKey(config, email, 'test')), 0, 'a test key needs no licence');
    assert.equal(await run(context, () => createKey(config, email, 'live')), 1);
    assert.match(err.join(''), /holds no licence.*roomcraft licences grant --email E --plan P/);
    assert.equal(await run(context, () => definePlan(config, 'pro', '1000', 'smart-staging,enhancer')), 0);
    assert.equal(await run(context, () => definePlan(config, 'pro', '1000', 'jacuzzi')), 2, 'an unknown add-on is refused');
    assert.equal(await run(context, () => listPlans(config)), 0);
    assert.match(out.join(''), /^pro\t1000 credits\/month\tadd-ons: smart-staging,enhancer\n$/);
    assert.equal(await run(context, () => grantLicence(config, email, 'gold')), 1, 'an unknown plan is refused');
    assert.equal(await run(context, () => grantLicence(config, email, 'pro')), 0);
    assert.match(out.join(''), /balance: 1000 credits/);
    assert.equal(await run(context, () => grantCredits(config, email, '50', 'apology for an outage')), 0);
    assert.match(out.join(''), /balance: 1050 credits/);
    assert.equal(await run(context, () => createKey(config, email, 'live')), 0);
    assert.match(out.join('').trim().split('\n').at(-1)!, /^rc_live_/);
  });

  it('writes each monthly grant once, lazily, catching up periods nobody charged in', async () => {
    const credits = new CreditRepository(database.db);
    const user = await new UserRepository(database.db).findByEmail('buyer@example.com');
    assert.ok(user);
    // The licence began two periods and a bit ago; its first period's grant is written, the next two are due.
    const start = periodStart(new Date(Date.now() - 3_600_000).toISOString(), -2);
    await database.db.updateTable('licences').set({ starts_at: start }).where('user_id', '=', user.id).execute();
    await database.db.updateTable('credit_balances').set({ next_grant_at: periodStart(start, 1) }).where('user_id', '=', user.id).execute();
    const now = new Date().toISOString();
    const [first, second] = await Promise.all([credits.writeDueGrants(user.id, now), credits.writeDueGrants(user.id, now)]);
    assert.equal(Math.max(first, second), 3050);
    assert.equal(await credits.writeDueGrants(user.id, now), 3050, 'written once');
    const grants = await database.db.selectFrom('credit_ledger').select('item').where('user_id', '=', user.id).where('entry', '=', 'grant').execute();
    assert.deepEqual(grants.map((g) => g.item).sort(), ['monthly', 'monthly', 'monthly', 'one-off']);
    assert.equal((await credits.balanceOf(user.id)).nextGrantAt, periodStart(start, 3));
  });
});
