import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { dataUrl, makeImage } from './helpers/fixtures.js';
import { UserRepository } from '../src/repositories/user-repository.js';
import { KeyService } from '../src/services/key-service.js';
import { CreditRepository } from '../src/repositories/credit-repository.js';
import { LicenceRepository } from '../src/repositories/licence-repository.js';
import { LicenceService } from '../src/services/licence-service.js';

/**
 * Credits charged at submit in the job's transaction, refused (402, 403) before anything is stored, refunded when a
 * job fails or is cancelled. No worker runs here: jobs stay pending, so what is charged is the submit's doing alone.
 */
describe('credits: charges, refusals and refunds of live keys', () => {
  let t: TestApp;
  let credits: CreditRepository;
  let licences: LicenceService;
  let image: string;

  before(async () => {
    t = await startTestApp({ roles: ['api'] });
    credits = new CreditRepository(t.database.db);
    const users = new UserRepository(t.database.db);
    licences = new LicenceService({ licences: new LicenceRepository(t.database.db), users, credits });
    image = dataUrl(await makeImage(12, 8));
  });
  after(() => t.close());

  /** A user with a live key and `balance` one-off credits (no licence unless `plan` is given). */
  async function liveUser(email: string, balance: number, plan?: string): Promise<{ userId: string; authorization: string }> {
    const created = await new KeyService(new UserRepository(t.database.db)).createKey(email, 'live');
    if (plan) {
      await licences.grant(email, plan);
      // The plan's monthly credits are counted in `balance`: the one-off grant tops them up to it.
      const { balance: granted } = await credits.balanceOf(created.userId);
      if (balance > granted) await credits.grant(created.userId, balance - granted, 'test top-up', new Date().toISOString());
    } else if (balance > 0) {
      await credits.grant(created.userId, balance, 'test grant', new Date().toISOString());
    }
    return { userId: created.userId, authorization: `Bearer ${created.key}` };
  }

  const submit = (authorization: string, path: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: path, headers: { authorization, prefer: 'respond-async', ...headers }, payload });
  const ledgerOf = (userId: string) => t.database.db.selectFrom('credit_ledger').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
  const ledgerSum = async (userId: string) => (await ledgerOf(userId)).reduce((sum, line) => sum + Number(line.amount), 0);
  const storedInputCount = async () => (await t.database.db.selectFrom('stored_inputs').select('key').execute()).length;
  const jobsOf = (userId: string) => t.database.db.selectFrom('jobs').select('id').where('user_id', '=', userId).execute();

  it('charges the spec’s price on a ledger line, and says what it cost and the balance after in the answer', async () => {
    const user = await liveUser('charged@example.com', 10);
    const answer = await submit(user.authorization, '/v1/upscale_advanced', { url: image, scale: 2 });
    assert.equal(answer.statusCode, 200, answer.body);
    assert.equal(answer.headers['x-credits-charged'], '2');
    assert.equal(answer.headers['x-credits-balance'], '8');
    const charge = (await ledgerOf(user.userId)).find((line) => line.entry === 'charge');
    assert.deepEqual(
      { item: charge?.item, amount: Number(charge?.amount), job: charge?.job_id, operation: charge?.operation, after: Number(charge?.balance_after) },
      { item: 'operation', amount: -2, job: answer.headers['x-job-id'], operation: 'upscale_advanced', after: 8 },
    );
  });

  it('refuses a request the balance cannot cover with 402 insufficient_credits, its cost and the balance, storing nothing', async () => {
    const user = await liveUser('broke@example.com', 1);
    const storedBefore = await storedInputCount();
    const answer = await submit(user.authorization, '/v1/declutter', { url: image });
    assert.equal(answer.statusCode, 402, answer.body);
    const problem = answer.json();
    assert.equal(problem.code, 'insufficient_credits');
    assert.equal(problem.cost, 2, 'an automatic declutter costs 2');
    assert.equal(problem.balance, 1);
    assert.match(problem.detail, /roomcraft credits grant/);
    assert.deepEqual(await jobsOf(user.userId), []);
    assert.equal(await storedInputCount(), storedBefore, 'the data: URL was never stored');
    // The same photo with a mask costs 1, which the balance covers.
    const masked = await submit(user.authorization, '/v1/declutter', { url: image, mask: dataUrl(await makeImage(12, 8)) });
    assert.equal(masked.statusCode, 200, masked.body);
    assert.equal(masked.headers['x-credits-balance'], '0');
  });

  it('charges an add-on on its own line when the plan allows it, and refuses it (403 addon_not_in_plan) when it does not', async () => {
    await licences.definePlan({ name: 'basic', monthlyCredits: 5, addons: [] });
    await licences.definePlan({ name: 'retouch', monthlyCredits: 5, addons: ['enhancer'] });
    const basic = await liveUser('basic@example.com', 5, 'basic');
    const refused = await submit(basic.authorization, '/v1/enhancer', { url: image });
    assert.equal(refused.statusCode, 403, refused.body);
    assert.equal(refused.json().code, 'addon_not_in_plan');
    assert.match(refused.json().detail, /plan "basic".*addons/);
    assert.deepEqual(await jobsOf(basic.userId), []);
    const retouch = await liveUser('retouch@example.com', 5, 'retouch');
    const answer = await submit(retouch.authorization, '/v1/enhancer', { url: image });
    assert.equal(answer.statusCode, 200, answer.body);
    const charges = (await ledgerOf(retouch.userId)).filter((line) => line.entry === 'charge');
    assert.deepEqual(charges.map((line) => [line.item, Number(line.amount)]), [['addon:enhancer', -1]]);
    const stagingRefused = await submit(retouch.authorization, '/v1/smart-staging-v2', { url: image, styleId: 'modern', roomId: 'living_room' });
    assert.equal(stagingRefused.json().code, 'addon_not_in_plan', stagingRefused.body);
  });

  it('charges nothing for a replay of an Idempotency-Key', async () => {
    const user = await liveUser('replay@example.com', 5);
    const first = await submit(user.authorization, '/v1/upscale', { url: image }, { 'idempotency-key': 'once' });
    const again = await submit(user.authorization, '/v1/upscale', { url: image }, { 'idempotency-key': 'once' });
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.headers['x-job-id'], first.headers['x-job-id']);
    assert.equal(again.headers['x-credits-charged'], undefined);
    assert.equal((await credits.balanceOf(user.userId)).balance, 4);
  });

  it('refunds a cancelled job in the cancel’s transaction', async () => {
    const user = await liveUser('cancel@example.com', 3);
    const answer = await submit(user.authorization, '/v1/upscale_advanced', { url: image, scale: 2 });
    const cancelled = await t.app.inject({ method: 'DELETE', url: `/v1/job/${answer.headers['x-job-id'] as string}`, headers: { authorization: user.authorization } });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    const lines = await ledgerOf(user.userId);
    const refund = lines.find((line) => line.entry === 'refund');
    assert.equal(Number(refund?.amount), 2);
    assert.equal(refund?.job_id, answer.headers['x-job-id']);
    assert.equal((await credits.balanceOf(user.userId)).balance, 3);
    assert.equal(await ledgerSum(user.userId), 3, 'the ledger sums to the balance');
  });

  it('lets exactly balance ÷ cost of many racing requests through, and the ledger sums to the balance', async () => {
    const user = await liveUser('race@example.com', 10);
    const answers = await Promise.all(Array.from({ length: 24 }, () => submit(user.authorization, '/v1/upscale_advanced', { url: image, scale: 2 })));
    const statuses = answers.map((answer) => answer.statusCode);
    assert.equal(statuses.filter((s) => s === 200).length, 5, statuses.join(' '));
    assert.equal(statuses.filter((s) => s === 402).length, 19, statuses.join(' '));
    assert.equal((await credits.balanceOf(user.userId)).balance, 0);
    assert.equal(await ledgerSum(user.userId), 0);
    assert.equal((await jobsOf(user.userId)).length, 5, 'a refused request left no job');
    assert.deepEqual(
      [...new Set(answers.filter((a) => a.statusCode === 200).map((a) => a.headers['x-credits-balance']))].sort(),
      ['0', '2', '4', '6', '8'],
      'each charge saw the balance the one before it left',
    );
  });

  it('shows the balance, plan, period and this period’s usage in GET /v1/account, and daily totals in GET /v1/usage', async () => {
    await licences.definePlan({ name: 'pro', monthlyCredits: 100, addons: ['enhancer', 'smart-staging'] });
    const user = await liveUser('account@example.com', 100, 'pro');
    await submit(user.authorization, '/v1/upscale', { url: image });
    const failing = await submit(user.authorization, '/v1/upscale_advanced', { url: image, scale: 2 });
    await t.app.inject({ method: 'DELETE', url: `/v1/job/${failing.headers['x-job-id'] as string}`, headers: { authorization: user.authorization } });
    const account = await t.app.inject({ method: 'GET', url: '/v1/account', headers: { authorization: user.authorization } });
    assert.equal(account.statusCode, 200, account.body);
    const body = account.json();
    assert.equal(body.balance, 99);
    assert.equal(body.plan.name, 'pro');
    assert.deepEqual(body.plan.addons, ['enhancer', 'smart-staging']);
    assert.ok(body.period.start <= new Date().toISOString() && new Date().toISOString() < body.period.end);
    assert.deepEqual(body.usage, [
      { operation: 'upscale', item: 'operation', charges: 1, refunds: 0, credits: 1 },
      { operation: 'upscale_advanced', item: 'operation', charges: 1, refunds: 1, credits: 0 },
    ]);
    const today = new Date().toISOString().slice(0, 10);
    const usage = await t.app.inject({ method: 'GET', url: `/v1/usage?from=${today}&to=${today}`, headers: { authorization: user.authorization } });
    assert.equal(usage.statusCode, 200, usage.body);
    const rows = usage.json().days as { entry: string; item: string; operation: string | null; lines: number; credits: number }[];
    assert.deepEqual(
      rows.map((row) => [row.entry, row.item, row.operation, row.lines, row.credits]),
      [
        ['charge', 'operation', 'upscale', 1, -1],
        ['charge', 'operation', 'upscale_advanced', 1, -2],
        ['grant', 'monthly', null, 1, 100],
        ['refund', 'operation', 'upscale_advanced', 1, 2],
      ],
    );
    const backwards = await t.app.inject({ method: 'GET', url: '/v1/usage?from=2025-02-01&to=2025-01-01', headers: { authorization: user.authorization } });
    assert.equal(backwards.statusCode, 400);
  });
});

describe('credits: a failed job is refunded in its settle', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('gives the charge back when the job fails', async () => {
    const credits = new CreditRepository(t.database.db);
    const before = (await credits.balanceOf(t.user.userId)).balance;
    // Bytes that are no image: accepted at submit, refused by the worker's decoder.
    const answer = await t.app.inject({ method: 'POST', url: '/v1/upscale_advanced', headers: t.auth, payload: { url: 'data:image/png;base64,aGVsbG8=', scale: 2 } });
    assert.equal(answer.statusCode, 400, answer.body);
    assert.equal(answer.json().code, 'unsupported_image_format');
    assert.equal(answer.headers['x-credits-charged'], '2', 'the synchronous answer still says what was charged');
    const lines = await t.database.db.selectFrom('credit_ledger').selectAll().where('job_id', '=', answer.headers['x-job-id'] as string).orderBy('created_at').execute();
    assert.deepEqual(lines.map((line) => [line.entry, Number(line.amount)]), [['charge', -2], ['refund', 2]]);
    assert.equal((await credits.balanceOf(t.user.userId)).balance, before);
  });
});
