import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { dataUrl, makeImage } from './helpers/fixtures.js';
import {
  OPERATIONS,
  RoomcraftClient,
  RoomcraftError,
  differencesFromOpenApi,
  imageDataUrl,
  imageExtension,
  imageMediaType,
  requestFields,
  type OperationName,
} from '../src/client/index.js';
import { injectFetch } from '../src/cli/inject-fetch.js';

/** Only a hang reaches this: the jobs here take seconds on a loaded machine. */
const HANG = { timeout: 10 * 60_000 };

type Json = Record<string, any>;

describe('client against the OpenAPI document', () => {
  let t: TestApp;
  let document: Json;
  before(async () => {
    t = await startTestApp();
    const response = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    assert.equal(response.statusCode, 200);
    document = response.json();
  });
  after(() => t.close());

  it('has a client method for every processing path, with the same request fields, both ways', () => {
    const posts = Object.entries(document.paths as Json).filter(([, item]) => item.post).map(([path]) => path);
    assert.ok(posts.length >= 8, 'the document lists the processing operations');
    for (const path of posts) {
      const name = path.replace('/v1/', '');
      assert.ok(name in OPERATIONS, `${path} has a client method`);
    }
    assert.deepEqual(differencesFromOpenApi(document), []);
  });

  it('reads the fields as the document writes them', () => {
    const upscale = requestFields(document, 'upscale');
    assert.deepEqual(upscale.map((f) => f.name).sort(), ['scale', 'url', 'webhook']);
    assert.deepEqual(upscale.find((f) => f.name === 'scale'), { name: 'scale', required: false, type: 'number', values: [2, 3] });
    assert.deepEqual(upscale.find((f) => f.name === 'url'), { name: 'url', required: true, type: 'string' });
    const furnish = requestFields(document, 'furnish');
    assert.equal(furnish.find((f) => f.name === 'styleId')?.required, true);
    assert.equal(furnish.find((f) => f.name === 'preserveWindows')?.type, 'boolean');
    assert.ok(furnish.some((f) => f.name === 'mask'));
    assert.ok(!requestFields(document, 'upscale').some((f) => f.name === 'mask'));
  });

  it('finds every kind of drift (the check cannot pass by accident)', () => {
    const drifted = (change: (doc: Json) => void) => {
      const copy = structuredClone(document);
      change(copy);
      return differencesFromOpenApi(copy);
    };
    const body = (doc: Json, name: string) => doc.paths[`/v1/${name}`].post.requestBody.content['application/json'].schema;
    assert.deepEqual(
      drifted((doc) => delete body(doc, 'upscale').properties.scale),
      ['upscale: the client sends scale, which the document does not define'],
    );
    assert.deepEqual(
      drifted((doc) => (body(doc, 'enhancer').properties.strength = { type: 'number' })),
      ['enhancer: the document defines strength, which the client does not know'],
    );
    assert.deepEqual(
      drifted((doc) => body(doc, 'furnish').required.push('preserveWindows')),
      ['furnish: preserveWindows is required in the document, optional in the client'],
    );
    assert.deepEqual(
      drifted((doc) => body(doc, 'upscale_advanced').properties.scale.anyOf.push({ type: 'number', enum: [8] })),
      ['upscale_advanced: scale takes 2 | 4 | 6 | 8 in the document, 2 | 4 | 6 in the client'],
    );
    assert.deepEqual(
      drifted((doc) => (body(doc, 'furnish').properties.preserveWindows = { type: 'string' })),
      ['furnish: preserveWindows is string in the document, boolean in the client'],
    );
    assert.deepEqual(
      drifted((doc) => (doc.paths['/v1/relight'] = { post: {} })),
      ['POST /v1/relight has no client method'],
    );
    assert.deepEqual(
      drifted((doc) => delete doc.paths['/v1/declutter']),
      ['the client posts to /v1/declutter, which the document lacks'],
    );
    assert.deepEqual(
      drifted((doc) => delete doc.paths['/v1/skies']),
      ['the client reads GET /v1/skies, which the document lacks'],
    );
  });

  it('posts each method to its path, with the body as given and Prefer: respond-async when asked', async () => {
    const seen: { method: string; path: string; body: unknown; prefer: string | null; authorization: string | null }[] = [];
    const client = new RoomcraftClient({
      baseUrl: 'http://roomcraft.example/',
      apiKey: 'rc_test_x',
      fetch: async (input, init) => {
        const request = new Request(input, init);
        seen.push({
          method: request.method,
          path: new URL(request.url).pathname,
          body: await request.json(),
          prefer: request.headers.get('prefer'),
          authorization: request.headers.get('authorization'),
        });
        return Response.json({ status: 'pending', id: 'job-1', mode: 'm' });
      },
    });
    for (const [name, spec] of Object.entries(OPERATIONS) as [OperationName, (typeof OPERATIONS)[OperationName]][]) {
      const method = (client as unknown as Record<string, (body: unknown, options: unknown) => Promise<unknown>>)[spec.method];
      assert.equal(typeof method, 'function', `RoomcraftClient.${spec.method}`);
      const answer = await method!({ url: 'data:,x' }, { respondAsync: true });
      assert.deepEqual(answer, { status: 'pending', id: 'job-1', mode: 'm' });
      assert.deepEqual(seen.at(-1), {
        method: 'POST',
        path: `/v1/${name}`,
        body: { url: 'data:,x' },
        prefer: 'respond-async',
        authorization: 'Bearer rc_test_x',
      });
    }
  });
});

describe('client against the service', () => {
  let t: TestApp;
  let client: RoomcraftClient;
  before(async () => {
    t = await startTestApp();
    client = new RoomcraftClient({ baseUrl: t.config.publicUrl, apiKey: t.user.key, fetch: injectFetch(t.app), pollInterval: 50 });
  });
  after(() => t.close());

  it('reads the lookups', async () => {
    const [styles, rooms, furnitures, skies] = await Promise.all([client.styles(), client.rooms(), client.furnitures(), client.skies()]);
    assert.ok(styles.length > 0 && typeof styles[0]!.id === 'string');
    assert.ok(rooms.length > 0 && typeof rooms[0]!['name-en'] === 'string');
    assert.ok(Object.values(furnitures).flat().length > 0);
    assert.ok(skies.length > 0);
  });

  it('upscales synchronously', HANG, async () => {
    const answer = await client.upscale({ url: dataUrl(await makeImage(20, 10)), scale: 2 });
    assert.equal(answer.status, 'success');
    const meta = await sharp(Buffer.from(answer.base64, 'base64')).metadata();
    assert.deepEqual([meta.width, meta.height], [40, 20]);
  });

  it('upscales asynchronously: acknowledgement, job with progress and result, output image', HANG, async () => {
    const ack = await client.upscaleAdvanced({ url: imageDataUrl(await makeImage(16, 12, 'jpeg')), scale: 4 }, { respondAsync: true });
    assert.equal(ack.status, 'pending');
    assert.equal(ack.mode, 'upscale');
    const progress: number[] = [];
    const job = await client.waitForJob(ack.id, { onProgress: (j) => progress.push(j.progress) });
    assert.equal(job.status, 'success', JSON.stringify(job));
    assert.equal(job.id, ack.id);
    assert.equal(progress.at(-1), 1);
    assert.equal(typeof job.result?.engine, 'string');
    const image = await client.download(job.output!);
    assert.equal(image.contentType, 'image/jpeg');
    const meta = await sharp(image.bytes).metadata();
    assert.deepEqual([meta.width, meta.height], [64, 48]);
  });

  it('raises RoomcraftError with the problem for every refusal', async () => {
    const refused = async (call: Promise<unknown>) => {
      const error = await call.then(
        () => assert.fail('expected a RoomcraftError'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof RoomcraftError, String(error));
      return error;
    };
    const invalid = await refused(client.upscale({ url: 'data:,x', scale: 5 as 2 }));
    assert.equal(invalid.status, 400);
    assert.equal(invalid.code, 'validation_failed');
    assert.equal(invalid.problem.type, 'urn:roomcraft:problem:validation_failed');
    assert.equal(typeof invalid.problem.title, 'string');
    assert.ok(invalid.problem.errors?.some((e) => e.field.startsWith('/scale')));
    assert.match(invalid.message, /^400 validation_failed: /);

    const missing = await refused(client.getJob('no-such-job'));
    assert.equal(missing.status, 404);
    assert.equal(missing.code, 'not_found');

    const anonymous = new RoomcraftClient({ baseUrl: t.config.publicUrl, apiKey: 'rc_test_wrong', fetch: injectFetch(t.app) });
    const unauthorized = await refused(anonymous.styles());
    assert.equal(unauthorized.status, 401);
    assert.equal(unauthorized.code, 'unauthorized');
    assert.equal(typeof unauthorized.problem.requestId, 'string');
  });

  it('reads the OpenAPI document without a key', async () => {
    const anonymous = new RoomcraftClient({ baseUrl: t.config.publicUrl, fetch: injectFetch(t.app) });
    const document = await anonymous.openApi();
    assert.equal(document.openapi, '3.1.0');
  });
});

describe('client transport', () => {
  const scripted = (answers: (() => Response)[]) => {
    const calls: string[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      calls.push(`${init?.method ?? 'GET'} ${new URL(String(input instanceof Request ? input.url : input)).pathname}`);
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      return next();
    };
    return { calls, fetch };
  };

  it('turns an answer that is not a problem (a proxy page) into a RoomcraftError all the same', async () => {
    const { fetch } = scripted([() => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' })]);
    const client = new RoomcraftClient({ baseUrl: 'http://x.example', fetch, retry: 0 });
    const error = await client.skies().catch((e: unknown) => e);
    assert.ok(error instanceof RoomcraftError);
    assert.equal(error.status, 502);
    assert.equal(error.code, 'unexpected_response');
    assert.equal(error.detail, '<html>Bad gateway</html>');
  });

  it('tries a GET again after 503 and 429, waiting Retry-After; never a POST without an idempotency key', async () => {
    const busy = () => new Response('{}', { status: 503, headers: { 'retry-after': '0' } });
    const limited = () => new Response('{}', { status: 429, headers: { 'retry-after': '0' } });
    const get = scripted([busy, limited, () => Response.json([{ id: 'blue', name: 'Blue' }])]);
    const client = new RoomcraftClient({ baseUrl: 'http://x.example/base', fetch: get.fetch });
    assert.deepEqual(await client.skies(), [{ id: 'blue', name: 'Blue' }]);
    assert.deepEqual(get.calls, ['GET /base/v1/skies', 'GET /base/v1/skies', 'GET /base/v1/skies']);

    const post = scripted([busy, () => Response.json({ base64: '', status: 'success' })]);
    const poster = new RoomcraftClient({ baseUrl: 'http://x.example', fetch: post.fetch });
    const error = await poster.upscale({ url: 'data:,x' }).catch((e: unknown) => e);
    assert.ok(error instanceof RoomcraftError && error.status === 503);
    assert.equal(post.calls.length, 1);
    assert.deepEqual(await poster.upscale({ url: 'data:,x' }, { idempotencyKey: 'k1' }), { base64: '', status: 'success' });
  });

  it('stops waiting for a job when the signal aborts', async () => {
    const pending = () => Response.json({ id: 'j', status: 'pending', mode: 'upscale', createdAt: '', progress: 0.5 });
    const { fetch } = scripted(Array.from({ length: 1000 }, () => pending));
    const client = new RoomcraftClient({ baseUrl: 'http://x.example', fetch, pollInterval: 1 });
    const controller = new AbortController();
    const waiting = client.waitForJob('j', { signal: controller.signal, onProgress: () => controller.abort(new Error('stop')) });
    await assert.rejects(waiting, /stop/);
  });

  it('names image formats by their bytes', async () => {
    assert.equal(imageMediaType(await makeImage(4, 4, 'jpeg')), 'image/jpeg');
    assert.equal(imageMediaType(await makeImage(4, 4, 'png')), 'image/png');
    assert.equal(imageMediaType(await makeImage(4, 4, 'webp')), 'image/webp');
    assert.equal(imageMediaType(Buffer.from('hello')), undefined);
    assert.match(imageDataUrl(await makeImage(4, 4, 'png')), /^data:image\/png;base64,iVBOR/);
    assert.equal(imageExtension('image/jpeg; charset=binary'), 'jpg');
  });
});
