import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers/test-app.js';

describe('authentication, errors, rate limits, OpenAPI and status', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ rateLimit: { perMinute: 30 } });
  });
  after(() => t.close());

  it('answers 401 problem+json without a key and with a wrong key', async () => {
    for (const headers of [{}, { authorization: 'Bearer rc_live_nope' }, { authorization: 'Basic abc' }]) {
      const response = await t.app.inject({ method: 'GET', url: '/v1/styles', headers });
      assert.equal(response.statusCode, 401);
      assert.match(response.headers['content-type'] as string, /^application\/problem\+json/);
      const body = response.json();
      assert.equal(body.code, 'unauthorized');
      assert.equal(body.status, 401);
      assert.equal(body.type, 'urn:roomcraft:problem:unauthorized');
      assert.equal(body.requestId, response.headers['x-request-id']);
      assert.ok(body.title && body.detail);
    }
  });

  it('answers unknown routes with a 404 problem', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/nothing-here', headers: t.auth });
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().code, 'route_not_found');
    assert.match(response.headers['content-type'] as string, /^application\/problem\+json/);
  });

  it('turns malformed JSON and wrong content types into problems without stack traces', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/upscale',
      headers: { ...t.auth, 'content-type': 'application/json' },
      payload: '{"url": ',
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().code, 'validation_failed');
    assert.doesNotMatch(bad.body, /at .*\.ts:\d+/);
    const text = await t.app.inject({
      method: 'POST',
      url: '/v1/upscale',
      headers: { ...t.auth, 'content-type': 'application/xml' },
      payload: '<url/>',
    });
    assert.equal(text.statusCode, 415);
    assert.match(text.headers['content-type'] as string, /^application\/problem\+json/);
  });

  it('keeps a caller-supplied request id and echoes it', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/styles', headers: { ...t.auth, 'x-request-id': 'abc-123' } });
    assert.equal(response.headers['x-request-id'], 'abc-123');
  });

  it('announces the rate limit on every response and answers 429 with Retry-After past it', async (context) => {
    // The budget is per minute of the clock: the clock stands still here, so the 31 requests fall in one window
    // however long a loaded machine takes over them.
    context.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const other = await t.createUser('limited@example.com');
    const headers = { authorization: `Bearer ${other.key}` };
    let last;
    for (let i = 1; i <= 30; i++) {
      last = await t.app.inject({ method: 'GET', url: '/v1/skies', headers });
      assert.equal(last.statusCode, 200);
      assert.equal(last.headers['ratelimit-policy'], '"default";q=30;w=60');
      assert.match(last.headers.ratelimit as string, new RegExp(`^"default";r=${30 - i};t=\\d+$`));
    }
    const limited = await t.app.inject({ method: 'GET', url: '/v1/skies', headers });
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.json().code, 'rate_limited');
    assert.ok(Number(limited.headers['retry-after']) >= 1);
    // Another user has a budget of their own.
    const mine = await t.app.inject({ method: 'GET', url: '/v1/skies', headers: t.auth });
    assert.equal(mine.statusCode, 200);
  });

  it('serves an OpenAPI 3.1 document with every endpoint and a reference page from local assets', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    assert.equal(response.statusCode, 200);
    const document = response.json();
    assert.equal(document.openapi, '3.1.0');
    const paths = Object.keys(document.paths);
    for (const path of [
      '/v1/creative-redesign',
      '/v1/furnish',
      '/v1/smart-staging-v2',
      '/v1/smart-staging',
      '/v1/declutter',
      '/v1/upscale',
      '/v1/upscale_advanced',
      '/v1/enhancer',
      '/v1/job/{id}',
      '/v1/styles',
      '/v1/rooms',
      '/v1/furnitures',
      '/v1/skies',
    ]) {
      assert.ok(paths.includes(path), `${path} is documented`);
    }
    assert.ok(document.paths['/v1/upscale'].post.requestBody);
    assert.ok(document.components.securitySchemes.bearerAuth);

    const page = await t.app.inject({ method: 'GET', url: '/v1/docs/' });
    assert.equal(page.statusCode, 200);
    assert.match(page.headers['content-type'] as string, /text\/html/);
    assert.doesNotMatch(page.body, /https?:\/\/(cdn|unpkg|cdnjs|jsdelivr)/);
  });

  it('reports status as JSON and as a page', async () => {
    const json = await t.app.inject({ method: 'GET', url: '/status.json' });
    assert.equal(json.statusCode, 200);
    const status = json.json();
    assert.equal(status.status, 'ok');
    assert.equal(status.database.ok, true);
    assert.equal(status.storage.ok, true);
    assert.equal(status.workers.threads, 1);
    const upscale = status.operations.find((op: { name: string }) => op.name === 'upscale');
    assert.equal(upscale.available, true);
    const redesign = status.operations.find((op: { name: string }) => op.name === 'creative-redesign');
    assert.equal(redesign.available, true);
    const page = await t.app.inject({ method: 'GET', url: '/status' });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Roomcraft is <span class="ok">operational/);
  });
});

describe('authentication comes before validation', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('answers 401, not 400, to an anonymous request with an invalid body', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/v1/upscale', payload: { scale: 9 } });
    assert.equal(response.statusCode, 401);
    assert.equal(response.json().code, 'unauthorized');
  });
});
