import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { pino } from 'pino';
import { buildApp, type App } from '../src/app.js';
import { loadCatalog } from '../src/catalog/catalog.js';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { AppError } from '../src/errors.js';
import { acknowledgementSchema } from '../src/http/schemas/job.js';
import { createGuardedFetcher } from '../src/repositories/fetcher/guarded-fetcher.js';
import { defineOperation, erase } from '../src/services/operations/define.js';
import { OPERATIONS } from '../src/services/operations/registry.js';
import { REDESIGN_CREATIVITY } from '../src/services/operations/creative-redesign.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.js';
import { dataUrl, makeImage } from './helpers/fixtures.js';
import { until } from './helpers/until.js';

/** Generous: only a hang reaches it. */
const HANG = 300_000;

describe('processing answers name their job (X-Job-Id, Link) and honour Prefer: respond-async', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  const post = (path: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: path, headers: { ...t.auth, ...headers }, payload });
  const getJob = (id: string) => t.app.inject({ method: 'GET', url: `/v1/job/${id}`, headers: t.auth });

  it('names the job of a synchronous success, whose result get-job then shows', async () => {
    const response = await post('/v1/upscale', { url: dataUrl(await makeImage(12, 8)) });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(Object.keys(response.json()).sort(), ['base64', 'status']);
    const id = response.headers['x-job-id'] as string;
    assert.ok(id);
    assert.equal(response.headers.link, `</v1/job/${id}>; rel="related"`);
    assert.equal(response.headers['x-roomcraft-degraded'], undefined);
    const job = await getJob(id);
    assert.equal(job.statusCode, 200);
    assert.equal(job.json().status, 'success');
    assert.deepEqual(job.json().result.models, ['esrgan-legacy-psnr-small']);
  });

  it('answers Prefer: respond-async with the pending acknowledgement at once, even without a webhook', async () => {
    const response = await post('/v1/upscale', { url: dataUrl(await makeImage(10, 10)) }, { prefer: 'respond-async' });
    assert.equal(response.statusCode, 200);
    const ack = response.json();
    assert.deepEqual(Object.keys(ack), ['status', 'id', 'mode']);
    assert.equal(ack.status, 'pending');
    assert.equal(ack.mode, 'upscale');
    assert.equal(response.headers['preference-applied'], 'respond-async');
    assert.equal(response.headers['x-job-id'], ack.id);
    assert.equal(response.headers.link, `</v1/job/${ack.id}>; rel="related"`);
    const job = await until(async () => {
      const body = (await getJob(ack.id)).json();
      return body.status === 'pending' ? undefined : body;
    }, HANG);
    assert.equal(job.status, 'success');
  });

  it('finds respond-async among other preferences, in any case', async () => {
    const response = await post('/v1/enhancer', { url: dataUrl(await makeImage(10, 10)) }, { prefer: 'return=minimal, Respond-Async; x=1' });
    assert.equal(response.json().status, 'pending');
    assert.equal(response.headers['preference-applied'], 'respond-async');
    const plain = await post('/v1/upscale', { url: dataUrl(await makeImage(6, 6)) }, { prefer: 'return=minimal' });
    assert.equal(plain.json().status, 'success');
    assert.equal(plain.headers['preference-applied'], undefined);
  });

  it('names the job of a webhook acknowledgement', async () => {
    const response = await post('/v1/upscale', { url: dataUrl(await makeImage(8, 8)), webhook: 'http://127.0.0.1:9/hook' });
    assert.equal(response.headers['x-job-id'], response.json().id);
    assert.equal(response.headers['preference-applied'], undefined);
  });

  it('names the job of a synchronous job that failed, in the problem and in the header fields', async () => {
    const response = await post('/v1/upscale', { url: dataUrl(Buffer.from('not an image'), 'image/png') });
    assert.equal(response.statusCode, 400);
    const problem = response.json();
    assert.equal(problem.code, 'unsupported_image_format');
    assert.ok(problem.jobId);
    assert.equal(response.headers['x-job-id'], problem.jobId);
    assert.equal(response.headers.link, `</v1/job/${problem.jobId}>; rel="related"`);
    assert.equal((await getJob(problem.jobId)).json().status, 'failed');
  });

  it('names no job where none was made (validation)', async () => {
    const invalid = await post('/v1/upscale', { url: 'ftp://example.com/a.png' });
    assert.equal(invalid.statusCode, 400);
    assert.equal(invalid.headers['x-job-id'], undefined);
    assert.equal(invalid.headers.link, undefined);
  });

  it('documents the header fields and the Prefer request header in the OpenAPI document', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const post = document.paths['/v1/upscale'].post;
    for (const header of ['X-Job-Id', 'Link', 'Preference-Applied', 'X-Roomcraft-Degraded']) {
      assert.ok(post.responses['200'].headers[header]?.description, `200 documents ${header}`);
    }
    for (const status of ['400', '503', '504']) {
      assert.ok(post.responses[status].headers['X-Job-Id'], `${status} documents X-Job-Id`);
      assert.ok(post.responses[status].content['application/problem+json']);
    }
    assert.ok(post.responses['415']);
    assert.ok(post.parameters.some((p: { in: string; name: string }) => p.in === 'header' && p.name === 'prefer'));
    assert.ok(document.paths['/v1/job/{id}'].get.responses['200'].headers['X-Roomcraft-Degraded']);
  });
});

describe('a synchronous wait that runs out', () => {
  it('answers 504 sync_timeout naming the job in the problem, X-Job-Id and Link', async () => {
    // No worker role: the job stays pending whatever the machine's speed, so the wait always runs out.
    const t = await startTestApp({ roles: ['api'], jobs: { syncWaitMs: 1 } });
    try {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/upscale',
        headers: t.auth,
        payload: { url: 'https://example.com/room.jpg' },
      });
      assert.equal(response.statusCode, 504);
      const problem = response.json();
      assert.equal(problem.code, 'sync_timeout');
      assert.equal(response.headers['x-job-id'], problem.jobId);
      assert.equal(response.headers.link, `</v1/job/${problem.jobId}>; rel="related"`);
    } finally {
      await t.close();
    }
  });
});

describe('acknowledgements come from the operation modules', () => {
  let t: TestApp;
  before(async () => {
    // No worker role: the jobs acknowledged here never need to run.
    t = await startTestApp({ roles: ['api'] });
  });
  after(() => t.close());
  const catalog = loadCatalog();

  it('gives each endpoint its own acknowledgement schema in the OpenAPI document, with the spec’s fields', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const spec: Record<string, string[]> = {
      'creative-redesign': ['status', 'id', 'styleId', 'roomId', 'creativity', 'mode'],
      redesign: ['status', 'id', 'styleId', 'roomId', 'creativity', 'mode'],
      refresh: ['status', 'id', 'transformation', 'value', 'mode'],
      furnish: ['status', 'id', 'styleId', 'roomId', 'mode'],
      'smart-staging-v2': ['status', 'id', 'styleId', 'roomId', 'mode'],
      'smart-staging': ['status', 'id', 'styleId', 'roomId', 'mode'],
      declutter: ['status', 'id', 'skyId', 'mode'],
      upscale: ['status', 'id', 'mode'],
      upscale_advanced: ['status', 'id', 'mode'],
      enhancer: ['status', 'id', 'mode'],
      sunshine: ['status', 'id', 'skyId', 'mode'],
    };
    assert.deepEqual(OPERATIONS.map((o) => o.name).sort(), Object.keys(spec).sort());
    for (const operation of OPERATIONS) {
      const schema = document.paths[`/v1/${operation.name}`].post.responses['200'].content['application/json'].schema;
      const constant = (property: { const?: unknown; enum?: unknown[] } | undefined) => property?.const ?? property?.enum?.[0];
      const acknowledgement = schema.anyOf.find((s: { properties?: Record<string, { const?: unknown; enum?: unknown[] }> }) => constant(s.properties?.status) === 'pending');
      assert.ok(acknowledgement, operation.name);
      assert.deepEqual(Object.keys(acknowledgement.properties), spec[operation.name], operation.name);
      assert.equal(constant(acknowledgement.properties.mode), operation.mode);
    }
  });

  it('sends exactly the declared fields, in the spec’s order', async () => {
    const cases: [string, object, string[]][] = [
      ['/v1/upscale', {}, ['status', 'id', 'mode']],
      ['/v1/upscale_advanced', { scale: 4 }, ['status', 'id', 'mode']],
      ['/v1/enhancer', { sky_fix: true }, ['status', 'id', 'mode']],
      ['/v1/declutter', {}, ['status', 'id', 'skyId', 'mode']],
    ];
    for (const [path, params, keys] of cases) {
      const response = await t.app.inject({
        method: 'POST',
        url: path,
        headers: { ...t.auth, prefer: 'respond-async' },
        payload: { url: 'https://example.com/room.jpg', ...params },
      });
      assert.equal(response.statusCode, 200, path);
      assert.deepEqual(Object.keys(response.json()), keys, path);
    }
    const declutter = await t.app.inject({
      method: 'POST',
      url: '/v1/declutter',
      headers: t.auth,
      payload: { url: 'https://example.com/room.jpg', webhook: 'https://example.com/hook' },
    });
    assert.equal(declutter.json().skyId, catalog.defaultSky.id);
    assert.equal(declutter.json().mode, 'sunshine');
  });

  it('builds creative-redesign’s acknowledgement from its declaration: the creativity the service applies, on the 0–30 scale', () => {
    const byName = new Map(OPERATIONS.map((o) => [o.name, o]));
    const redesign = byName.get('creative-redesign')!;
    const fields = redesign.acknowledgement({ styleId: 'modern', roomId: 'bedroom' }, catalog);
    assert.deepEqual(fields, { styleId: 'modern', roomId: 'bedroom', creativity: REDESIGN_CREATIVITY });
    assert.ok(Value.Check(acknowledgementSchema(redesign), { status: 'pending', id: 'x', ...fields, mode: 'redesign' }));
    assert.deepEqual(byName.get('furnish')!.acknowledgement({ styleId: 'modern', furnitureId: 'f' }, catalog), { styleId: 'modern' });
  });

  it('refuses an acknowledgement field the module did not declare, instead of dropping it', () => {
    const sloppy = erase(
      defineOperation({
        name: 'sloppy',
        mode: 'sloppy',
        summary: 'Test operation.',
        params: Type.Object({}),
        acknowledgementFields: Type.Object({}),
        acceptsMask: false,
        credits: () => 1,
        // Not an object literal, so the compiler's excess-property check does not see the undeclared field.
        acknowledgement: () => {
          const fields = { extra: 1 };
          return fields;
        },
      }),
    );
    assert.throws(() => sloppy.acknowledgement({}, catalog), /undeclared extra/);
  });

  it('checks parameters against the module’s schema at the type-erased boundary', () => {
    const upscale = OPERATIONS.find((o) => o.name === 'upscale')!;
    assert.equal(upscale.credits({ scale: 3 }, false), 1);
    assert.throws(
      () => upscale.credits({ scale: '2' }, false),
      (error: unknown) => error instanceof AppError && error.code === 'validation_failed',
    );
  });
});

describe('validation messages', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ roles: ['api'] });
  });
  after(() => t.close());
  const post = (path: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: path, headers: { ...t.auth, ...headers }, payload: payload as object });
  const url = 'https://example.com/room.jpg';

  it('says once, in words, what a union of constants accepts and what it got', async () => {
    const response = await post('/v1/upscale', { url, scale: '2' });
    assert.equal(response.statusCode, 400);
    const problem = response.json();
    assert.deepEqual(problem.errors, [{ field: '/scale', message: 'scale must be the number 2 or 3 (got the string "2")' }]);
    assert.equal(problem.detail, 'the body is not valid: scale must be the number 2 or 3 (got the string "2")');
    const advanced = await post('/v1/upscale_advanced', { url, scale: 3 });
    assert.deepEqual(advanced.json().errors, [{ field: '/scale', message: 'scale must be the number 2, 4 or 6 (got the number 3)' }]);
  });

  it('gives one message per field when several are wrong', async () => {
    const response = await post('/v1/enhancer', { url: 'ftp://example.com/a.png', sky_fix: 'yes', retouch: 'fancy' });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json().errors, [
      { field: '/url', message: 'url must be an http(s) URL or a data: URL (got the string "ftp://example.com/a.png")' },
      { field: '/sky_fix', message: 'sky_fix must be true or false (got the string "yes")' },
      { field: '/retouch', message: 'retouch must be "classical" or "learned" (got the string "fancy")' },
    ]);
  });

  it('lists long enumerations, required fields and the body’s own type in words', async () => {
    const staging = await post('/v1/smart-staging-v2', { url, styleId: 'modern', roomId: 'gaming_room' });
    const [roomError, ...rest] = staging.json().errors;
    assert.equal(rest.length, 0);
    assert.equal(roomError.field, '/roomId');
    assert.match(roomError.message, /^roomId must be one of "living_room", "living_dining", .* or "kitchen" \(got the string "gaming_room"\)$/);
    const missing = await post('/v1/creative-redesign', { url });
    assert.deepEqual(
      missing.json().errors.map((e: { message: string }) => e.message),
      ['styleId is required', 'roomId is required'],
    );
    const list = await post('/v1/upscale', [url]);
    assert.deepEqual(list.json().errors, [{ field: '/', message: 'the body must be a JSON object (got a list)' }]);
  });

  it('never echoes a whole data: URL', async () => {
    const long = `data:image/png;base64,${'A'.repeat(5000)}`;
    const response = await post('/v1/upscale', { url: long, scale: 5 });
    assert.ok(response.body.length < 1500, `${response.body.length} bytes`);
    assert.equal(response.json().errors[0].message, 'scale must be the number 2 or 3 (got the number 5)');
  });

  it('answers a body that is not JSON with 415 unsupported_media_type', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/upscale',
        headers: { ...t.auth, 'content-type': contentType },
        payload: `url=${url}`,
      });
      assert.equal(response.statusCode, 415, contentType);
      assert.match(response.headers['content-type'] as string, /^application\/problem\+json/);
      const problem = response.json();
      assert.equal(problem.code, 'unsupported_media_type');
      assert.match(problem.detail, /application\/json/);
      assert.ok(problem.detail.includes(contentType));
    }
  });
});

describe('logging of answers that are not faults', () => {
  let database: TestDatabase;
  let app: App;
  const lines: { level: number; msg: string; code?: string; err?: unknown; stack?: unknown }[] = [];
  let auth: { authorization: string };
  before(async () => {
    database = await openTestDatabase();
    const config = loadConfig({}, { dataDir: database.dataDir, roles: ['api'], logLevel: 'info' });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    app = await buildApp(config, {
      database: { db: database.db, engine: database.engine, close: async () => {} },
      logger: pino({ level: 'info' }, sink),
    });
    await app.ready();
    const { KeyService } = await import('../src/services/key-service.js');
    const { UserRepository } = await import('../src/repositories/user-repository.js');
    const key = await new KeyService(new UserRepository(database.db)).createKey('logs@example.com', 'test');
    auth = { authorization: `Bearer ${key.key}` };
  });
  after(async () => {
    await app.close();
    await database.close();
  });

  it('logs a 404, a 400 and a 401 at info, with their code and without a stack', async () => {
    const gone = await app.inject({ method: 'GET', url: `/v1/outputs/${'0'.repeat(32)}.png` });
    assert.equal(gone.statusCode, 404);
    const invalid = await app.inject({ method: 'POST', url: '/v1/upscale', headers: auth, payload: { url: 'x' } });
    assert.equal(invalid.statusCode, 400);
    const anonymous = await app.inject({ method: 'GET', url: '/v1/styles' });
    assert.equal(anonymous.statusCode, 401);
    await new Promise((resolve) => setImmediate(resolve));
    for (const code of ['not_found', 'validation_failed', 'unauthorized']) {
      const line = lines.find((l) => l.code === code);
      assert.ok(line, `${code} is logged`);
      assert.equal(line.level, 30, `${code} at info`);
      assert.equal(line.err, undefined);
      assert.equal(line.stack, undefined);
    }
    assert.deepEqual(lines.filter((l) => l.level >= 50), [], 'nothing at error level');
    assert.doesNotMatch(JSON.stringify(lines), /at .*\.ts:\d+/);
  });
});

describe('CORS', () => {
  const origin = 'https://app.example.com';
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ roles: ['api'], cors: { origins: [origin, 'http://localhost:5173'] } });
  });
  after(() => t.close());

  it('answers a preflight from an allowed origin, before authentication', async () => {
    const response = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/upscale',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, prefer' },
    });
    assert.equal(response.statusCode, 204);
    assert.equal(response.headers['access-control-allow-origin'], origin);
    assert.match(response.headers['access-control-allow-methods'] as string, /\bPOST\b/);
    const allowed = (response.headers['access-control-allow-headers'] as string).split(',').map((h) => h.trim().toLowerCase());
    for (const header of ['authorization', 'content-type', 'idempotency-key', 'prefer']) assert.ok(allowed.includes(header), header);
    assert.match(response.headers.vary as string, /\bOrigin\b/);
    assert.ok(Number(response.headers['access-control-max-age']) > 0);
  });

  it('refuses a preflight from another origin, and says who decides', async () => {
    const response = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/upscale',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(response.statusCode, 403);
    assert.equal(response.headers['access-control-allow-origin'], undefined);
    assert.equal(response.json().code, 'origin_not_allowed');
    assert.match(response.json().detail, /ROOMCRAFT_CORS_ORIGINS/);
  });

  it('lets an allowed page read answers, problems included, and the header fields it needs', async () => {
    for (const headers of [{ ...t.auth, origin }, { origin }]) {
      const response = await t.app.inject({ method: 'GET', url: '/v1/styles', headers });
      assert.equal(response.headers['access-control-allow-origin'], origin);
      assert.match(response.headers.vary as string, /\bOrigin\b/);
      const exposed = (response.headers['access-control-expose-headers'] as string).split(',').map((h) => h.trim());
      for (const header of ['X-Job-Id', 'Link', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'Idempotent-Replayed']) {
        assert.ok(exposed.includes(header), header);
      }
    }
    const other = await t.app.inject({ method: 'GET', url: '/v1/styles', headers: { ...t.auth, origin: 'https://evil.example' } });
    assert.equal(other.statusCode, 200);
    assert.equal(other.headers['access-control-allow-origin'], undefined);
    assert.match(other.headers.vary as string, /\bOrigin\b/);
  });

  it('sends nothing of the kind by default', async () => {
    const plain = await startTestApp({ roles: ['api'] });
    try {
      const response = await plain.app.inject({ method: 'GET', url: '/v1/styles', headers: { ...plain.auth, origin } });
      assert.equal(response.headers['access-control-allow-origin'], undefined);
      const preflight = await plain.app.inject({
        method: 'OPTIONS',
        url: '/v1/upscale',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      assert.equal(preflight.headers['access-control-allow-origin'], undefined);
    } finally {
      await plain.close();
    }
  });

  it('takes exact origins from ROOMCRAFT_CORS_ORIGINS and refuses anything else at boot', () => {
    assert.deepEqual(loadConfig({ ROOMCRAFT_CORS_ORIGINS: 'https://a.example, http://localhost:3000' }).cors.origins, [
      'https://a.example',
      'http://localhost:3000',
    ]);
    assert.deepEqual(loadConfig({}).cors.origins, []);
    assert.throws(() => loadConfig({ ROOMCRAFT_CORS_ORIGINS: 'https://a.example/' }), (e: unknown) => e instanceof ConfigError && /did you mean https:\/\/a\.example\?/.test(e.message));
    assert.throws(() => loadConfig({ ROOMCRAFT_CORS_ORIGINS: '*' }), ConfigError);
    assert.throws(() => loadConfig({ ROOMCRAFT_CORS_ORIGINS: 'a.example' }), ConfigError);
  });
});

describe('the reference page', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ roles: ['api'] });
  });
  after(() => t.close());

  it('is titled and marked as Roomcraft, from local assets', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/v1/docs/' });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<title>Roomcraft API<\/title>/);
    assert.doesNotMatch(page.body, /https?:\/\/(cdn|unpkg|cdnjs|jsdelivr)/);
    const favicon = page.body.match(/href="([^"]*theme\/favicon\.svg)"/)?.[1];
    assert.ok(favicon, 'our favicon');
    const css = page.body.match(/href="([^"]*theme\/roomcraft\.css)"/)?.[1];
    assert.ok(css, 'our stylesheet');
    const stylesheet = await t.app.inject({ method: 'GET', url: new URL(css, 'http://x/v1/docs/').pathname });
    assert.match(stylesheet.body, /not yet available/);
    const initializer = await t.app.inject({ method: 'GET', url: '/v1/docs/static/swagger-initializer.js' });
    const logo = initializer.body.match(/data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/)?.[1];
    assert.ok(logo, 'a logo is set');
    const svg = Buffer.from(logo, 'base64').toString('utf8');
    assert.match(svg, /Roomcraft API/);
    assert.doesNotMatch(svg, /fastify/i);
  });

  it('lists the operations that are not built apart, marked in their summary', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    assert.ok(document.tags.some((tag: { name: string }) => tag.name === 'not yet available'));
    for (const operation of OPERATIONS) {
      const post = document.paths[`/v1/${operation.name}`].post;
      if (operation.run) {
        assert.deepEqual(post.tags, ['operations'], operation.name);
        assert.doesNotMatch(post.summary, /Not available/, operation.name);
      } else {
        assert.deepEqual(post.tags, ['not yet available'], operation.name);
        assert.match(post.summary, /^Not available yet \(501\) — /, operation.name);
      }
    }
  });
});

describe('a refused fetch says how to open the address', () => {
  const fetcher = createGuardedFetcher(loadConfig({}).fetch);
  after(() => fetcher.close());

  const refusal = async (url: string) => {
    try {
      await fetcher.fetchBytes(url);
    } catch (error) {
      assert.ok(error instanceof AppError && error.code === 'fetch_refused', String(error));
      return error.message;
    }
    assert.fail(`${url} was fetched`);
  };

  it('names ROOMCRAFT_FETCH_ALLOW and its syntax, with the refused address as the example', async () => {
    const loopback = await refusal('http://127.0.0.1:9/room.jpg');
    assert.match(loopback, /^The address of 127\.0\.0\.1 is not allowed/);
    assert.match(loopback, /ROOMCRAFT_FETCH_ALLOW, a comma-separated list of CIDRs, IP addresses or host names/);
    assert.match(loopback, /ROOMCRAFT_FETCH_ALLOW=127\.0\.0\.1\/32/);
    assert.match(await refusal('http://[::1]:9/room.jpg'), /ROOMCRAFT_FETCH_ALLOW=::1\/128/);
    const named = await refusal('http://localhost:9/room.jpg');
    assert.match(named, /localhost is not allowed: it resolves to a private, loopback or other non-public address/);
    assert.match(named, /ROOMCRAFT_FETCH_ALLOW=localhost\)/);
  });

  it('refuses a malformed ROOMCRAFT_FETCH_ALLOW at boot', () => {
    assert.throws(() => loadConfig({ ROOMCRAFT_FETCH_ALLOW: '10.0.0.0/33' }), (e: unknown) => e instanceof ConfigError && /ROOMCRAFT_FETCH_ALLOW/.test(e.message));
  });
});
