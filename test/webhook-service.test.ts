import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { pino } from 'pino';
import type { Config } from '../src/config/config.js';
import { AppError } from '../src/errors.js';
import { WebhookRepository, type WebhookDelivery } from '../src/repositories/webhook-repository.js';
import { generateWebhookSecret, verifyWebhook } from '../src/security/webhook-signature.js';
import { WebhookService, type WebhookServiceDeps, type WebhookTransport } from '../src/services/webhook-service.js';
import { openTestDatabase, reopenTestDatabase, type TestDatabase } from './helpers/test-database.js';
import { HANG_MS, until, withDeadline } from './helpers/until.js';

const USER = 'user_1';
const SECRET = generateWebhookSecret();
const PAYLOAD = { id: 'job_1', status: 'success', output: 'https://roomcraft.example/o/1.jpg' };

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  verified: boolean;
}

interface Receiver {
  url: string;
  requests: Received[];
  close(): Promise<void>;
}

/** A loopback HTTP receiver answering its nth request (0-based) with `respond(n)`; it checks every signature. */
async function startReceiver(respond: (n: number) => number | Promise<number>): Promise<Receiver> {
  const requests: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const n = requests.push({ headers: req.headers, body, verified: verifyWebhook(SECRET, req.headers, body) }) - 1;
      res.statusCode = await respond(n);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Stands in for the guarded fetcher: loopback only, errors carry a `code`. */
const loopbackTransport: WebhookTransport = {
  async post(url, body, headers, { timeoutMs }) {
    if (new URL(url).hostname !== '127.0.0.1') {
      throw Object.assign(new Error(`${new URL(url).hostname} is not an allowed address`), { code: 'fetch_refused' });
    }
    const response = await fetch(url, { method: 'POST', body, headers, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer();
    return { status: response.status };
  },
};

function captureLogs(): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  return { logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }), lines };
}

/** Sends that should succeed get all the time a loaded machine needs; the timeout test sets a short one of its own. */
const webhookConfig: Config['webhooks'] = { retryDelaysMs: [20, 20, 20], jitterRatio: 0.2, timeoutMs: HANG_MS, pollIntervalMs: 10 };

/** A promise and the function that resolves it, for events a test waits on. */
function signal<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('WebhookService', () => {
  let database: TestDatabase;
  let repository: WebhookRepository;
  const services: WebhookService[] = [];
  const receivers: Receiver[] = [];

  beforeEach(async () => {
    database = await openTestDatabase();
    repository = new WebhookRepository(database.db);
  });

  afterEach(async () => {
    await Promise.all(services.splice(0).map((s) => s.stop()));
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    await database.close();
  });

  function service(deps: Partial<WebhookServiceDeps> = {}): WebhookService {
    const created = new WebhookService({
      repository,
      transport: loopbackTransport,
      secrets: async (userId) => {
        assert.equal(userId, USER);
        return SECRET;
      },
      config: webhookConfig,
      logger: pino({ level: 'silent' }),
      ...deps,
    });
    services.push(created);
    return created;
  }

  async function receiver(respond: (n: number) => number | Promise<number>): Promise<Receiver> {
    const started = await startReceiver(respond);
    receivers.push(started);
    return started;
  }

  async function delivery(id: string): Promise<WebhookDelivery> {
    const [found] = (await repository.findByJob('job_1')).filter((d) => d.id === id);
    assert.ok(found, `delivery ${id}`);
    return found;
  }

  async function settled(id: string): Promise<WebhookDelivery> {
    return until(
      async () => {
        const found = await delivery(id);
        return found.status === 'pending' ? undefined : found;
      },
      { what: `delivery ${id} to settle` },
    );
  }

  test('retries a failing receiver until it accepts, signing every attempt with the same webhook-id', async () => {
    const hook = await receiver((n) => (n < 2 ? 500 : 200));
    const { logger, lines } = captureLogs();
    const webhooks = service({ logger });
    webhooks.start();

    const id = await webhooks.enqueue({ jobId: 'job_1', userId: USER, url: hook.url, payload: PAYLOAD });
    const done = await settled(id);

    assert.match(id, /^msg_/);
    assert.equal(done.status, 'delivered');
    assert.equal(done.attempts, 3);
    assert.equal(done.last_response_status, 200);
    const attempts = await repository.listAttempts(id);
    assert.deepEqual(attempts.map((a) => [a.attempt, a.response_status, a.error]), [[1, 500, null], [2, 500, null], [3, 200, null]]);
    for (const a of attempts) assert.ok(a.duration_ms >= 0);

    assert.equal(hook.requests.length, 3);
    for (const request of hook.requests) {
      assert.equal(request.verified, true);
      assert.equal(request.headers['webhook-id'], id);
      assert.equal(request.headers['content-type'], 'application/json');
      assert.deepEqual(JSON.parse(request.body), PAYLOAD);
    }

    const attemptLogs = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((l) => l.deliveryId === id);
    assert.deepEqual(attemptLogs.map((l) => [l.attempt, l.jobId, l.responseStatus]), [[1, 'job_1', 500], [2, 'job_1', 500], [3, 'job_1', 200]]);
    for (const l of attemptLogs) assert.equal(typeof l.durationMs, 'number');
    const logText = lines.join('\n');
    assert.ok(!logText.includes(SECRET.slice('whsec_'.length)), 'the secret is never logged');
    for (const request of hook.requests) assert.ok(!logText.includes(String(request.headers['webhook-signature']).slice(3)), 'nor a signature');
  });

  test('sends the first attempt at once on enqueue, without waiting for the poll', async () => {
    const hook = await receiver(() => 204);
    // The start-up pass claims nothing; once its claim has returned, only the enqueue can trigger the send, since
    // the next poll is an hour away.
    const startupClaim = signal<WebhookDelivery[]>();
    const claimDue = repository.claimDue.bind(repository);
    repository.claimDue = async (...args) => {
      const claimed = await claimDue(...args);
      startupClaim.resolve(claimed);
      return claimed;
    };
    const webhooks = service({ config: { ...webhookConfig, pollIntervalMs: 3_600_000 } });
    webhooks.start();
    assert.deepEqual(await withDeadline(startupClaim.promise, 'the start-up dispatch pass'), []);

    const id = await webhooks.enqueue({ jobId: 'job_1', userId: USER, url: hook.url, payload: PAYLOAD });
    const done = await settled(id);
    assert.equal(done.status, 'delivered');
    assert.equal(done.last_response_status, 204);
  });

  test('gives up once the retry schedule is exhausted', async () => {
    const hook = await receiver(() => 503);
    const webhooks = service({ config: { ...webhookConfig, retryDelaysMs: [10, 10] } });
    webhooks.start();

    const id = await webhooks.enqueue({ jobId: 'job_1', userId: USER, url: hook.url, payload: PAYLOAD });
    const done = await settled(id);

    assert.equal(done.status, 'failed');
    assert.equal(done.attempts, 3, 'the first attempt and one per retry delay');
    assert.equal(done.last_response_status, 503);
    assert.equal((await repository.listAttempts(id)).length, 3);
    // Once the passes under way are done, one more full pass finds nothing to send.
    await webhooks.stop();
    await webhooks.deliverDue();
    assert.equal(hook.requests.length, 3, 'nothing is sent after giving up');
  });

  test('stops at once on 410 Gone', async () => {
    const hook = await receiver(() => 410);
    const webhooks = service();

    const id = await webhooks.enqueue({ jobId: 'job_1', userId: USER, url: hook.url, payload: PAYLOAD });
    await webhooks.deliverDue();

    const done = await delivery(id);
    assert.equal(done.status, 'failed');
    assert.equal(done.attempts, 1);
    assert.equal(done.last_response_status, 410);
    assert.equal(hook.requests.length, 1);
  });

  test('spreads retries by ±jitterRatio around the scheduled delay', async () => {
    let clock = new Date('2030-01-01T00:00:00.000Z');
    let draw = 0;
    const failing: WebhookTransport = { post: async () => ({ status: 500 }) };
    const webhooks = service({
      transport: failing,
      config: { ...webhookConfig, retryDelaysMs: [1_000, 60_000], jitterRatio: 0.25 },
      now: () => clock,
      random: () => draw,
    });

    const delayAfter = async (id: string) => Date.parse((await delivery(id)).next_attempt_at) - clock.getTime();
    for (const [r, expected] of [[0, 750], [0.25, 875], [0.5, 1_000], [0.999999, 1_250]] as const) {
      draw = r;
      const id = await webhooks.enqueue({ jobId: 'job_1', userId: USER, url: 'http://127.0.0.1:1/', payload: PAYLOAD });
      await webhooks.deliverDue();
      assert.equal(await delayAfter(id), expected, `random ${r}`);
    }

    // The second retry follows the second delay, with its own jitter.
    clock = new Date(clock.getTime() + 2_000);
    draw = 0;
    await webhooks.deliverDue();
    for (const d of await repository.findByJob('job_1')) {
      assert.equal(d.attempts, 2);
      assert.equal(await delayAfter(d.id), 45_000);
    }

    for (let i = 0; i < 20; i += 1) {
      draw = Math.random();
      const id = await webhooks.enqueue({ jobId: 'job_1', userId: USER, url: 'http://127.0.0.1:1/', payload: PAYLOAD });
      await webhooks.deliverDue();
      const delay = await delayAfter(id);
      assert.ok(delay >= 750 && delay <= 1_250, `delay ${delay} for random ${draw}`);
    }
  });

  test('a new process delivers what a previous one left pending', async () => {
    const hook = await receiver(() => 200);
    const past = new Date(Date.now() - 60_000).toISOString();
    const future = new Date(Date.now() + 3_600_000).toISOString();
    // Rows as a process that stopped after two failed attempts leaves them: one due, one scheduled later.
    for (const [id, nextAttemptAt] of [['msg_left_due', past], ['msg_left_later', future]] as const) {
      await database.db
        .insertInto('webhook_deliveries')
        .values({
          id,
          job_id: 'job_1',
          user_id: USER,
          url: hook.url,
          payload: JSON.stringify(PAYLOAD),
          status: 'pending',
          attempts: 2,
          next_attempt_at: nextAttemptAt,
          last_response_status: 500,
          last_error: null,
          created_at: past,
          updated_at: past,
        })
        .execute();
    }

    const webhooks = service();
    webhooks.start();
    const done = await settled('msg_left_due');

    assert.equal(done.status, 'delivered');
    assert.equal(done.attempts, 3);
    assert.deepEqual((await repository.listAttempts('msg_left_due')).map((a) => a.attempt), [3]);
    assert.equal(hook.requests.length, 1);
    assert.equal(hook.requests[0]?.headers['webhook-id'], 'msg_left_due');
    assert.equal(hook.requests[0]?.verified, true);
    const later = await delivery('msg_left_later');
    assert.equal(later.status, 'pending');
    assert.equal(later.next_attempt_at, future);
  });

  test('retries refused addresses and network errors, recording the error', async () => {
    const closed = await startReceiver(() => 200);
    await closed.close();
    const webhooks = service({ config: { ...webhookConfig, retryDelaysMs: [10] } });
    webhooks.start();

    const refusedId = await webhooks.enqueue({ jobId: 'job_1', userId: USER, url: 'http://10.1.2.3/hook', payload: PAYLOAD });
    const unreachableId = await webhooks.enqueue({ jobId: 'job_1', userId: USER, url: closed.url, payload: PAYLOAD });

    for (const [id, error] of [[refusedId, /^fetch_refused: 10\.1\.2\.3 is not an allowed address$/], [unreachableId, /ECONNREFUSED/]] as const) {
      const done = await settled(id);
      assert.equal(done.status, 'failed');
      assert.equal(done.attempts, 2);
      assert.equal(done.last_response_status, null);
      assert.match(done.last_error ?? '', error);
      const attempts = await repository.listAttempts(id);
      assert.equal(attempts.length, 2);
      for (const a of attempts) {
        assert.equal(a.response_status, null);
        assert.match(a.error ?? '', error);
      }
    }
  });

  test('retries after a timeout and after a transport error, then delivers', async () => {
    // The first attempt goes to a receiver that never answers, so only the configured timeout can end it; the third
    // goes to one that answers at once, and is given all the time it needs, so it succeeds on any machine.
    const silent = await receiver(() => new Promise<number>(() => {}));
    const hook = await receiver(() => 200);
    const timeouts: number[] = [];
    let calls = 0;
    const flaky: WebhookTransport = {
      post: async (url, body, headers, options) => {
        calls += 1;
        timeouts.push(options.timeoutMs);
        if (calls === 1) return loopbackTransport.post(silent.url, body, headers, options);
        if (calls === 2) throw Object.assign(new Error('socket hang up'), { code: 'fetch_failed' });
        return loopbackTransport.post(url, body, headers, { ...options, timeoutMs: HANG_MS });
      },
    };
    const webhooks = service({ transport: flaky, config: { ...webhookConfig, timeoutMs: 100 } });
    webhooks.start();

    const id = await webhooks.enqueue({ jobId: 'job_1', userId: USER, url: hook.url, payload: PAYLOAD });
    const done = await settled(id);

    assert.equal(done.status, 'delivered');
    assert.deepEqual(timeouts, [100, 100, 100], 'each attempt is given the configured timeout');
    const attempts = await repository.listAttempts(id);
    assert.equal(attempts.length, 3);
    assert.match(attempts[0]?.error ?? '', /^TimeoutError/);
    assert.equal(attempts[1]?.error, 'fetch_failed: socket hang up');
    assert.equal(attempts[2]?.response_status, 200);
    assert.equal(hook.requests.length, 1);
  });

  test('records a receiver too slow for the timeout as such, with what it should do', async () => {
    // The guarded fetcher reports a send that outlived its timeout as fetch_timeout; the record names the cause.
    const hook = await receiver(() => 200);
    let calls = 0;
    const slowThenFine: WebhookTransport = {
      post: async (url, body, headers, options) => {
        calls += 1;
        if (calls === 1) throw new AppError('fetch_timeout', 400, '127.0.0.1 did not answer in time');
        return loopbackTransport.post(url, body, headers, options);
      },
    };
    const webhooks = service({ transport: slowThenFine, config: { ...webhookConfig, timeoutMs: 1234 } });
    webhooks.start();
    const id = await webhooks.enqueue({ jobId: 'job_1', userId: USER, url: hook.url, payload: PAYLOAD });
    assert.equal((await settled(id)).status, 'delivered');
    const [first] = await repository.listAttempts(id);
    assert.match(first?.error ?? '', /^receiver_timeout: no answer within 1234 ms; .*deduplicating on webhook-id$/);
  });

  test('sends at most four at a time, and stop() waits for the sends under way', async () => {
    // The receiver holds every request until released: four reach it together, and no fifth is sent meanwhile.
    let active = 0;
    let most = 0;
    const fourInFlight = signal();
    const released = signal();
    const allArrived = signal();
    const hook = await receiver(async (n) => {
      active += 1;
      most = Math.max(most, active);
      if (active === 4) fourInFlight.resolve();
      if (n === 9) allArrived.resolve();
      await released.promise;
      active -= 1;
      return 200;
    });
    const webhooks = service();
    const ids = [];
    for (let i = 0; i < 10; i += 1) ids.push(await webhooks.enqueue({ jobId: 'job_1', userId: USER, url: hook.url, payload: PAYLOAD }));

    webhooks.start();
    try {
      await withDeadline(fourInFlight.promise, 'four sends under way at once');
      // With every slot taken, a dispatch pass (besides the polls still running) claims nothing: exactly four
      // deliveries hold a lease (a next attempt minutes ahead), the other six are still due.
      await webhooks.deliverDue();
      const leased = (await repository.findByJob('job_1')).filter((d) => Date.parse(d.next_attempt_at) > Date.now());
      assert.equal(leased.length, 4, 'no fifth delivery claimed while four are under way');
      assert.equal(hook.requests.length, 4);
    } finally {
      // Also when an assertion failed, so that stopping the service does not wait on held sends.
      released.resolve();
    }
    await withDeadline(allArrived.promise, 'all ten sends');
    await webhooks.stop();

    for (const id of ids) assert.equal((await delivery(id)).status, 'delivered');
    assert.equal(most, 4, `at most 4 concurrent sends, saw ${most}`);
  });

  test('two processes sharing the database never claim the same delivery', async () => {
    const other = await reopenTestDatabase(database);
    try {
      const theirs = new WebhookRepository(other.db);
      const due = new Date(Date.now() - 1_000).toISOString();
      const ids = Array.from({ length: 30 }, (_, i) => `msg_${String(i).padStart(2, '0')}`);
      for (const id of ids) {
        await repository.createDelivery({ id, jobId: 'job_1', userId: USER, url: 'http://127.0.0.1:1/', payload: '{}', nextAttemptAt: due, createdAt: due });
      }

      const now = new Date().toISOString();
      const lease = new Date(Date.now() + 60_000).toISOString();
      const claimed: string[] = [];
      for (let round = 0; round < 10; round += 1) {
        const batches = await Promise.all([repository.claimDue(now, 4, lease), theirs.claimDue(now, 4, lease), repository.claimDue(now, 4, lease)]);
        claimed.push(...batches.flat().map((d) => d.id));
      }

      assert.equal(new Set(claimed).size, claimed.length, 'no delivery claimed twice');
      assert.deepEqual([...claimed].sort(), ids);
      for (const d of await repository.findByJob('job_1')) assert.equal(d.next_attempt_at, lease);
    } finally {
      await other.close();
    }
  });
});
