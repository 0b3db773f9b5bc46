import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import net from 'node:net';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { pino } from 'pino';
import { Redis } from 'ioredis';
import { registerRateLimit, type RateLimitOptions } from '../src/http/plugins/rate-limit.js';
import { registerProblemDetails } from '../src/http/plugins/problem-details.js';
import { MemoryCounterStore, RedisCounterStore } from '../src/repositories/rate-limit-store.js';
import type { HttpApp } from '../src/http/http-app.js';
import { startTestApp } from './helpers/test-app.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
/** A moment 10 s into a minute of the clock; the tests' clocks start here and move only when a test moves them. */
const START = Date.UTC(2030, 0, 1, 12, 0, 10);
const quiet = { warn() {}, info() {} };

interface Limited {
  app: HttpApp;
  /** Lines the app logged, parsed. */
  logged: Array<{ level: number; msg: string }>;
}

/**
 * The rate-limit plugin on a bare Fastify app with two routes, as app.ts registers it: a caller is the user named by
 * its `x-user` header (what authentication would resolve from a key), or anonymous without one.
 */
async function limitedApp(perMinute: number, options: RateLimitOptions): Promise<Limited> {
  const logged: Limited['logged'] = [];
  const sink = new Writable({
    write(line: Buffer, _encoding, done) {
      logged.push(JSON.parse(line.toString()));
      done();
    },
  });
  const app = Fastify({ loggerInstance: pino({ level: 'warn' }, sink) }).withTypeProvider<TypeBoxTypeProvider>() as unknown as HttpApp;
  registerProblemDetails(app);
  app.decorateRequest('owner', undefined);
  app.addHook('onRequest', async (request) => {
    const user = request.headers['x-user'];
    if (typeof user === 'string') request.owner = { userId: user, keyId: `key_${user}`, kind: 'live' };
  });
  registerRateLimit(app, perMinute, options);
  app.get('/v1/skies', async () => ({ skies: [] }));
  for (const url of ['/v1/outputs/:file', '/status', '/status.json', '/health', '/metrics', '/v1/openapi.json', '/v1/docs/static/*']) {
    app.get(url, async () => 'unmetered');
  }
  await app.ready();
  return { app, logged };
}

function call(app: HttpApp, headers: Record<string, string> = {}, url = '/v1/skies') {
  return app.inject({ method: 'GET', url, headers });
}

describe('rate limit in one process', () => {
  it('counts per user in the minute of the clock, answers 429 problem+json with Retry-After, and renews at the next minute', async () => {
    let clock = START;
    const { app } = await limitedApp(3, { now: () => clock });
    for (let remaining = 2; remaining >= 0; remaining--) {
      const ok = await call(app, { 'x-user': 'usr_a' });
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.headers['ratelimit-policy'], '"default";q=3;w=60');
      // 50 s of the minute are left at START.
      assert.equal(ok.headers.ratelimit, `"default";r=${remaining};t=50`);
    }
    clock += 20_000;
    const limited = await call(app, { 'x-user': 'usr_a' });
    assert.equal(limited.statusCode, 429);
    assert.match(limited.headers['content-type'] as string, /^application\/problem\+json/);
    assert.equal(limited.json().code, 'rate_limited');
    assert.equal(limited.headers['retry-after'], '30');
    assert.equal(limited.headers.ratelimit, '"default";r=0;t=30');
    // Another user has a budget of their own.
    assert.equal((await call(app, { 'x-user': 'usr_b' })).statusCode, 200);
    // The next minute of the clock is a new window.
    clock += 30_000;
    const renewed = await call(app, { 'x-user': 'usr_a' });
    assert.equal(renewed.statusCode, 200);
    assert.equal(renewed.headers.ratelimit, '"default";r=2;t=60');
    await app.close();
  });

  it('counts anonymous callers per address in a budget of their own, apart from the users at that address', async () => {
    const { app } = await limitedApp(5, { anonymousPerMinute: 2, now: () => START });
    const from = (remoteAddress: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url: '/v1/skies', remoteAddress, headers });
    assert.equal((await from('192.0.2.1')).headers['ratelimit-policy'], '"anonymous";q=2;w=60');
    assert.equal((await from('192.0.2.1')).statusCode, 200);
    assert.equal((await from('192.0.2.1')).statusCode, 429);
    // Another address, and a user calling from the spent address, are not held back by it.
    assert.equal((await from('192.0.2.2')).statusCode, 200);
    const user = await from('192.0.2.1', { 'x-user': 'usr_a' });
    assert.equal(user.statusCode, 200);
    assert.equal(user.headers.ratelimit, '"default";r=4;t=50');
    await app.close();
  });

  it('leaves outputs, status, health, metrics and the docs outside every budget', async () => {
    const { app } = await limitedApp(1, { now: () => START });
    const urls = ['/v1/outputs/0123456789abcdef0123456789abcdef.jpg', '/status', '/status.json', '/health', '/metrics', '/v1/openapi.json', '/v1/docs/static/index.html'];
    for (const headers of [{}, { 'x-user': 'usr_a' }] as Array<Record<string, string>>) {
      for (let i = 0; i < 3; i++) {
        for (const url of urls) {
          const response = await call(app, headers, url);
          assert.equal(response.statusCode, 200, url);
          assert.equal(response.headers.ratelimit, undefined, url);
        }
      }
    }
    // They did not spend the budget either.
    assert.equal((await call(app, { 'x-user': 'usr_a' })).statusCode, 200);
    await app.close();
  });

  it('leaves the real app’s output images, status page, OpenAPI document and dashboard pages unmetered', async () => {
    // The plugin names these routes by their patterns: this checks the patterns against the routes app.ts registers.
    const t = await startTestApp({ rateLimit: { perMinute: 1 } });
    try {
      for (let i = 0; i < 3; i++) {
        for (const url of ['/v1/outputs/0123456789abcdef0123456789abcdef.jpg', '/status.json', '/status', '/v1/openapi.json', '/dashboard', '/dashboard/assets/app.js']) {
          const response = await t.app.inject({ method: 'GET', url });
          assert.notEqual(response.statusCode, 429, url);
          assert.equal(response.headers.ratelimit, undefined, url);
        }
      }
      // The dashboard's JSON API is metered like any call.
      assert.ok((await t.app.inject({ method: 'GET', url: '/dashboard/api/session' })).headers.ratelimit);
    } finally {
      await t.close();
    }
  });
});

describe('rate limit shared through Redis', () => {
  // A prefix of this run's own: other test files and other people's runs on the same Redis count apart.
  const prefix = `roomcraft-test-${crypto.randomUUID()}`;
  let admin: Redis;
  before(() => {
    admin = new Redis(REDIS_URL);
  });
  after(async () => {
    const keys = await admin.keys(`${prefix}:*`);
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
  });

  it('lets exactly 120 of 150 calls through two API processes (two stores on one Redis)', async () => {
    // Each app has its own store and connection, as two processes would; the clock stands still, so all 150 calls
    // fall in one window however long they take.
    const processes = [
      await limitedApp(120, { store: new RedisCounterStore({ url: REDIS_URL, prefix, logger: quiet }), now: () => START }),
      await limitedApp(120, { store: new RedisCounterStore({ url: REDIS_URL, prefix, logger: quiet }), now: () => START }),
    ];
    // Concurrent batches, alternating between the processes, so increments interleave as they would under load.
    const statuses: number[] = [];
    const remaining = new Set<string>();
    for (let batch = 0; batch < 15; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => call(processes[i % 2]!.app, { 'x-user': 'usr_shared' })),
      );
      for (const answer of answers) {
        statuses.push(answer.statusCode);
        remaining.add(answer.headers.ratelimit as string);
      }
    }
    assert.equal(statuses.filter((s) => s === 200).length, 120);
    assert.equal(statuses.filter((s) => s === 429).length, 30);
    // Every count from 1 to 120 was handed out exactly once: r=119 … r=0 (then r=0 for the refused).
    assert.equal(remaining.size, 120);
    for (const p of processes) await p.app.close();
  });

  it('lets requests through uncounted, with one warning, while Redis is unreachable', async () => {
    // A relay between the store and Redis that the test can cut, as a network failure would.
    const links = new Set<net.Socket>();
    const relay = net.createServer((client) => {
      const upstream = net.connect(6379, '127.0.0.1');
      for (const socket of [client, upstream]) {
        links.add(socket);
        socket.on('error', () => socket.destroy());
        socket.on('close', () => links.delete(socket));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const { port } = relay.address() as net.AddressInfo;
    const { app, logged } = await limitedApp(2, {
      store: new RedisCounterStore({ url: `redis://127.0.0.1:${port}`, prefix, logger: quiet }),
      now: () => START,
    });
    assert.equal((await call(app, { 'x-user': 'usr_cut' })).headers.ratelimit, '"default";r=1;t=50');
    await new Promise<void>((resolve) => {
      relay.close(() => resolve());
      for (const socket of links) socket.destroy();
    });
    for (let i = 0; i < 4; i++) {
      const response = await call(app, { 'x-user': 'usr_cut' });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers.ratelimit, undefined);
    }
    const warnings = logged.filter((line) => line.msg.startsWith('rate limit not enforced'));
    assert.equal(warnings.length, 1);
    await app.close();
  });

  it('keeps a counter no longer than its time to live', async () => {
    const store = new RedisCounterStore({ url: REDIS_URL, prefix, logger: quiet });
    assert.equal(await store.increment('ttl-check', 90_000), 1);
    assert.equal(await store.increment('ttl-check', 90_000), 2);
    const ttl = await admin.pttl(`${prefix}:rate-limit:ttl-check`);
    assert.ok(ttl > 0 && ttl <= 90_000, `pttl ${ttl}`);
    await store.close();
  });
});

describe('memory counter store', () => {
  it('forgets a counter once its time to live has passed', async () => {
    let clock = START;
    const store = new MemoryCounterStore(() => clock);
    assert.equal(await store.increment('k', 1_000), 1);
    assert.equal(await store.increment('k', 1_000), 2);
    clock += 1_000;
    assert.equal(await store.increment('k', 1_000), 1);
  });
});
