import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { startImageServer, type ImageServer } from './helpers/image-server.js';
import { dataUrl, makeImage } from './helpers/fixtures.js';
import { overcastHouse } from './helpers/overcast-house.js';
import { until } from './helpers/until.js';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.js';


/** The job as get-job shows it, once its webhook has announced that it settled. */
async function settledJob(t: TestApp, hooks: WebhookReceiver, id: string) {
  await hooks.deliveryFor(id);
  const response = await t.app.inject({ method: 'GET', url: `/v1/job/${id}`, headers: t.auth });
  assert.equal(response.statusCode, 200);
  return response.json();
}

describe('processing endpoints', () => {
  let t: TestApp;
  let images: ImageServer;
  let hooks: WebhookReceiver;
  before(async () => {
    t = await startTestApp({ image: { maxOutputPixels: 1_000_000 } });
    images = await startImageServer();
    hooks = await startWebhookReceiver();
  });
  after(async () => {
    await t.close();
    await images.close();
    await hooks.close();
  });

  const post = (path: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: path, headers: { ...t.auth, ...headers }, payload });

  it('upscales synchronously by 2 by default, answering {base64, status}', async () => {
    const url = images.serve('room.png', await makeImage(40, 30, 'png'));
    const response = await post('/v1/upscale', { url });
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.deepEqual(Object.keys(body).sort(), ['base64', 'status']);
    assert.equal(body.status, 'success');
    const meta = await sharp(Buffer.from(body.base64, 'base64')).metadata();
    assert.equal(meta.format, 'png');
    assert.equal(meta.width, 80);
    assert.equal(meta.height, 60);
  });

  it('keeps the format family: JPEG stays JPEG at 4:4:4, lossless WebP stays WebP', async () => {
    const jpeg = await post('/v1/upscale', { url: dataUrl(await makeImage(32, 24, 'jpeg'), 'image/jpeg'), scale: 3 });
    assert.equal(jpeg.statusCode, 200);
    const jpegMeta = await sharp(Buffer.from(jpeg.json().base64, 'base64')).metadata();
    assert.equal(jpegMeta.format, 'jpeg');
    assert.equal(jpegMeta.chromaSubsampling, '4:4:4');
    assert.equal(jpegMeta.width, 96);
    const webp = await post('/v1/upscale_advanced', {
      url: dataUrl(await makeImage(16, 16, 'webp', { lossless: true }), 'image/webp'),
      scale: 4,
    });
    assert.equal(webp.statusCode, 200);
    const webpMeta = await sharp(Buffer.from(webp.json().base64, 'base64')).metadata();
    assert.equal(webpMeta.format, 'webp');
    assert.equal(webpMeta.width, 64);
  });

  it('keeps alpha', async () => {
    const response = await post('/v1/upscale', { url: dataUrl(await makeImage(20, 20, 'png', { alpha: true })) });
    const output = sharp(Buffer.from(response.json().base64, 'base64'));
    const { data, info } = await output.raw().toBuffer({ resolveWithObject: true });
    assert.equal(info.channels, 4);
    assert.equal(data[3], 255);
    assert.ok(Math.abs(data[(info.width - 1) * 4 + 3]! - 96) <= 2);
  });

  it('validates scale per endpoint', async () => {
    const url = images.serve('scale.png', await makeImage(8, 8));
    for (const [path, scale] of [
      ['/v1/upscale', 4],
      ['/v1/upscale', 6],
      ['/v1/upscale_advanced', 3],
      ['/v1/upscale_advanced', 8],
      ['/v1/upscale', '2'],
    ] as const) {
      const response = await post(path, { url, scale });
      assert.equal(response.statusCode, 400, `${path} scale ${scale}`);
      const body = response.json();
      assert.equal(body.code, 'validation_failed');
      assert.ok(body.errors.some((e: { field: string }) => e.field.startsWith('/scale')));
    }
  });

  it('refuses an output above the pixel limit with the largest input that fits', async () => {
    const url = images.serve('big.png', await makeImage(600, 400));
    const response = await post('/v1/upscale', { url, scale: 3 });
    assert.equal(response.statusCode, 400);
    const body = response.json();
    assert.equal(body.code, 'output_too_large');
    assert.match(body.detail, /largest input accepted at ×3 is 0\.11 MP/);
  });

  it('requires url, and refuses other schemes', async () => {
    const missing = await post('/v1/upscale', {});
    assert.equal(missing.statusCode, 400);
    assert.deepEqual(missing.json().errors, [{ field: '/url', message: 'url is required' }]);
    const ftp = await post('/v1/upscale', { url: 'ftp://example.com/a.png' });
    assert.equal(ftp.statusCode, 400);
    const enhancer = await post('/v1/enhancer', { sky_fix: true });
    assert.equal(enhancer.statusCode, 400);
    assert.equal(enhancer.json().errors[0].field, '/url');
  });

  it('answers 400 for private addresses, broken files, truncated files and decompression bombs', async () => {
    const privateUrl = await post('/v1/upscale', { url: 'http://10.0.0.1/room.jpg' });
    assert.equal(privateUrl.statusCode, 400);
    assert.equal(privateUrl.json().code, 'fetch_refused');
    const metadata = await post('/v1/upscale', { url: 'http://169.254.169.254/latest/meta-data/' });
    assert.equal(metadata.json().code, 'fetch_refused');

    const garbage = await post('/v1/upscale', { url: images.serve('garbage.jpg', Buffer.from('not an image at all')) });
    assert.equal(garbage.statusCode, 400);
    assert.equal(garbage.json().code, 'unsupported_image_format');

    const jpeg = await makeImage(200, 150, 'jpeg');
    const truncated = await post('/v1/upscale', { url: images.serve('cut.jpg', jpeg.subarray(0, jpeg.length >> 1)) });
    assert.equal(truncated.statusCode, 400);
    assert.equal(truncated.json().code, 'invalid_image');

    const bomb = await sharp({ create: { width: 9000, height: 9000, channels: 3, background: '#808080' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const small = await startTestApp({ image: { maxInputPixels: 10_000_000 } });
    try {
      const response = await small.app.inject({
        method: 'POST',
        url: '/v1/upscale',
        headers: small.auth,
        payload: { url: images.serve('bomb.png', bomb) },
      });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().code, 'image_too_large');
    } finally {
      await small.close();
    }
  });

  it('acknowledges at once with a webhook, then get-job shows the result and its output URL serves the image', async () => {
    const url = images.serve('async.jpg', await makeImage(30, 20, 'jpeg'), 'image/jpeg');
    const response = await post('/v1/upscale', { url, webhook: hooks.url });
    assert.equal(response.statusCode, 200);
    const ack = response.json();
    assert.deepEqual(Object.keys(ack).sort(), ['id', 'mode', 'status']);
    assert.equal(ack.status, 'pending');
    assert.equal(ack.mode, 'upscale');

    const job = await settledJob(t, hooks, ack.id);
    assert.equal(job.status, 'success');
    assert.equal(job.mode, 'upscale');
    assert.match(job.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.match(job.completedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(job.result.models, ['esrgan-legacy-psnr-small']);
    assert.equal(job.result.fallback, undefined);
    assert.ok(job.output.startsWith('http://roomcraft.test/v1/outputs/'));

    const output = await t.app.inject({ method: 'GET', url: new URL(job.output).pathname });
    assert.equal(output.statusCode, 200);
    assert.equal(output.headers['content-type'], 'image/jpeg');
    const meta = await sharp(output.rawPayload).metadata();
    assert.equal(meta.width, 60);
  });

  it('records a failed job with its error, and get-job shows it', async () => {
    const response = await post('/v1/upscale', {
      url: images.serve('broken.png', Buffer.from('broken')),
      webhook: hooks.url,
    });
    const { id } = response.json();
    const job = await settledJob(t, hooks, id);
    assert.equal(job.status, 'failed');
    assert.equal(job.error.code, 'unsupported_image_format');
    assert.ok(job.completedAt);
    assert.equal(job.output, undefined);
  });

  it('hides other users’ jobs and unknown ids behind a 404', async () => {
    const url = images.serve('mine.png', await makeImage(8, 8));
    const { id } = (await post('/v1/upscale', { url, webhook: hooks.url })).json();
    const stranger = await t.createUser('stranger@example.com');
    const theirs = await t.app.inject({ method: 'GET', url: `/v1/job/${id}`, headers: { authorization: `Bearer ${stranger.key}` } });
    assert.equal(theirs.statusCode, 404);
    assert.equal(theirs.json().code, 'not_found');
    const unknown = await t.app.inject({ method: 'GET', url: '/v1/job/no-such-job', headers: t.auth });
    assert.equal(unknown.statusCode, 404);
  });

  it('replays the first answer for a repeated Idempotency-Key and refuses a different body under it', async () => {
    const url = images.serve('idem.png', await makeImage(10, 10));
    const headers = { 'idempotency-key': 'order-42' };
    const first = await post('/v1/upscale', { url, webhook: hooks.url }, headers);
    const second = await post('/v1/upscale', { webhook: hooks.url, url }, headers);
    assert.equal(first.statusCode, 200);
    assert.deepEqual(second.json(), first.json());
    assert.equal(second.headers['idempotent-replayed'], 'true');
    const jobs = await t.database.db.selectFrom('jobs').select('id').where('request', 'like', '%idem.png%').execute();
    assert.equal(jobs.length, 1);

    const different = await post('/v1/upscale', { url, scale: 3, webhook: hooks.url }, headers);
    assert.equal(different.statusCode, 422);
    assert.equal(different.json().code, 'idempotency_key_reused');

    const syncHeaders = { 'idempotency-key': 'sync-1' };
    const syncFirst = await post('/v1/upscale', { url }, syncHeaders);
    const syncSecond = await post('/v1/upscale', { url }, syncHeaders);
    assert.equal(syncFirst.statusCode, 200);
    assert.equal(syncSecond.json().base64, syncFirst.json().base64);
  });

  it('answers 504 with the job id when a synchronous result is late, and the job still completes', async () => {
    // The image server holds the photo until the 504 has been given: the job cannot be done in time on any machine,
    // so the photo can be small.
    const held = images.hold('slow.png', await makeImage(30, 20));
    const slow = await startTestApp({ jobs: { syncWaitMs: 1 } });
    try {
      const response = await slow.app.inject({ method: 'POST', url: '/v1/upscale', headers: slow.auth, payload: { url: held.url } });
      assert.equal(response.statusCode, 504);
      const problem = response.json();
      assert.equal(problem.code, 'sync_timeout');
      assert.ok(problem.jobId);
      held.release();
      const job = await until(
        async () => {
          const body = (await slow.app.inject({ method: 'GET', url: `/v1/job/${problem.jobId}`, headers: slow.auth })).json();
          return body.status === 'pending' ? undefined : body;
        },
        { what: `job ${problem.jobId} to leave pending` },
      );
      assert.equal(job.status, 'success', JSON.stringify(job.error));
      assert.deepEqual(images.requests.filter((r) => r === '/slow.png'), ['/slow.png']);
    } finally {
      held.release();
      await slow.close();
    }
  });
});

describe('the spec’s validation rules', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  const post = (path: string, payload: object) => t.app.inject({ method: 'POST', url: path, headers: t.auth, payload });
  const url = 'http://127.0.0.1:9/room.jpg';

  it('names the field at fault, endpoint by endpoint', async () => {
    const cases: [string, object, string][] = [
      ['/v1/creative-redesign', { url, roomId: 'living_room' }, '/styleId'],
      ['/v1/creative-redesign', { url, styleId: 'no_such_style', roomId: 'living_room' }, '/styleId'],
      ['/v1/creative-redesign', { url, styleId: 'modern', roomId: 'no_such_room' }, '/roomId'],
      ['/v1/furnish', { url, styleId: 'modern' }, '/roomId'],
      ['/v1/furnish', { url, styleId: 'modern', roomId: 'bedroom', furnitureId: 'sofa' }, '/roomId'],
      ['/v1/furnish', { url, styleId: 'modern', furnitureId: 'no_such_thing' }, '/furnitureId'],
      ['/v1/smart-staging-v2', { url, styleId: 'modern', roomId: 'gaming_room' }, '/roomId'],
      ['/v1/smart-staging', { url, styleId: 'modern', roomId: 'kitchen' }, '/roomId'],
      ['/v1/smart-staging', { url, roomId: 'bedroom' }, '/styleId'],
      ['/v1/smart-staging-v2', { url, styleId: 'modern', roomId: 'kitchen', seed: 1.5 }, '/seed'],
      ['/v1/enhancer', { sky_fix: true }, '/url'],
      ['/v1/enhancer', { url, sky_fix: 'yes' }, '/sky_fix'],
      ['/v1/enhancer', { url, retouch: 'fancy' }, '/retouch'],
      ['/v1/declutter', { url, webhook: 'ftp://example.com' }, '/webhook'],
    ];
    for (const [path, body, field] of cases) {
      const response = await post(path, body);
      assert.equal(response.statusCode, 400, `${path} ${JSON.stringify(body)}`);
      const problem = response.json();
      assert.equal(problem.code, 'validation_failed');
      assert.ok(
        problem.errors.some((e: { field: string }) => e.field.startsWith(field)),
        `${path} ${JSON.stringify(body)} names ${field}: ${JSON.stringify(problem.errors)}`,
      );
    }
  });
});

describe('upscaling engines', () => {
  let hooks: WebhookReceiver;
  before(async () => {
    hooks = await startWebhookReceiver();
  });
  after(() => hooks.close());

  it('keeps greyscale greyscale through the network', async () => {
    const t = await startTestApp();
    try {
      const grey = await sharp(await makeImage(24, 16)).toColourspace('b-w').png().toBuffer();
      const response = await t.app.inject({ method: 'POST', url: '/v1/upscale', headers: t.auth, payload: { url: dataUrl(grey) } });
      assert.equal(response.statusCode, 200, response.body);
      const meta = await sharp(Buffer.from(response.json().base64, 'base64')).metadata();
      assert.equal(meta.channels, 1);
      assert.deepEqual([meta.width, meta.height], [48, 32]);
    } finally {
      await t.close();
    }
  });

  it('falls back to Lanczos-3 when a model is not installed and fallbacks are allowed, and says so in the job', async () => {
    const emptyCache = fs.mkdtempSync(path.join(os.tmpdir(), 'roomcraft-no-models-'));
    const t = await startTestApp({ models: { cacheDir: emptyCache, allowFallbacks: true } });
    try {
      const { id } = (
        await t.app.inject({
          method: 'POST',
          url: '/v1/upscale_advanced',
          headers: t.auth,
          payload: { url: dataUrl(await makeImage(12, 12)), scale: 4, webhook: hooks.url },
        })
      ).json();
      const job = await settledJob(t, hooks, id);
      assert.equal(job.status, 'success');
      assert.equal(job.result.engine, 'lanczos3');
      assert.match(job.result.fallback, /esrgan-legacy-psnr-small is not installed/);
    } finally {
      await t.close();
      fs.rmSync(emptyCache, { recursive: true, force: true });
    }
  });
});

describe('enhancer', () => {
  let t: TestApp;
  let hooks: WebhookReceiver;
  before(async () => {
    t = await startTestApp();
    hooks = await startWebhookReceiver();
  });
  after(async () => {
    await t.close();
    await hooks.close();
  });

  it('enhances synchronously at full resolution in the input format', async () => {
    const input = await makeImage(64, 48, 'jpeg');
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/enhancer',
      headers: t.auth,
      payload: { url: dataUrl(input, 'image/jpeg') },
    });
    assert.equal(response.statusCode, 200);
    const meta = await sharp(Buffer.from(response.json().base64, 'base64')).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 64, 48]);
  });

  it('replaces a grey sky with a blue one and reports it in the job', async () => {
    const { id } = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/enhancer',
        headers: t.auth,
        payload: { url: dataUrl((await overcastHouse()).png), sky_fix: true, webhook: hooks.url },
      })
    ).json();
    const job = await settledJob(t, hooks, id);
    assert.equal(job.status, 'success', JSON.stringify(job.error));
    assert.equal(job.result.sky.replaced, true, JSON.stringify(job.result.sky));
    const output = await t.app.inject({ method: 'GET', url: new URL(job.output).pathname });
    const { data, info } = await sharp(output.rawPayload).raw().toBuffer({ resolveWithObject: true });
    const top = (10 * info.width + 120) * info.channels;
    // The scene is flat (no shadows), so the new sky is a pale blue by design (docs/api.md): bluer than the grey it
    // replaced (blue 3 levels over red), not the catalog's full saturation.
    assert.ok(data[top + 2]! > data[top]! + 8, `the sky at the top is blue: ${data.subarray(top, top + 3).join(',')}`);
    const wall = (170 * info.width + 120) * info.channels;
    assert.ok(data[wall]! > data[wall + 2]!, 'the house stays warm');
  });

  it('runs auto_privacy and reports what it blurred', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/enhancer',
      headers: t.auth,
      payload: { url: dataUrl(await makeImage(160, 120)), auto_privacy: true, webhook: hooks.url },
    });
    const job = await settledJob(t, hooks, response.json().id);
    assert.equal(job.status, 'success', JSON.stringify(job.error));
    assert.deepEqual({ faces: job.result.privacy.faces, plates: job.result.privacy.plates }, { faces: 0, plates: 0 });
  });

  it('takes a greyscale photo asked for learned retouching through the classical engine, and says so', async () => {
    const levels = Buffer.alloc(80 * 60);
    for (let i = 0; i < levels.length; i++) levels[i] = (i * 7) % 256;
    const grey = await sharp(levels, { raw: { width: 80, height: 60, channels: 1 } }).toColourspace('b-w').png().toBuffer();
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/enhancer',
      headers: t.auth,
      payload: { url: dataUrl(grey), retouch: 'learned', webhook: hooks.url },
    });
    const job = await settledJob(t, hooks, response.json().id);
    assert.equal(job.status, 'success', JSON.stringify(job.error));
    assert.deepEqual([job.result.enhancement.engine, job.result.enhancement.learnedSkipped], ['classical', 'greyscale']);
  });

  it('leaves an indoor photo without sky alone and says so', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/enhancer',
      headers: t.auth,
      payload: { url: dataUrl(await makeImage(80, 60)), sky_fix: true, webhook: hooks.url },
    });
    const job = await settledJob(t, hooks, response.json().id);
    assert.equal(job.status, 'success');
    assert.equal(job.result.sky.replaced, false);
    assert.notEqual(job.result.sky.reason, 'replaced');
    assert.ok(typeof job.result.sky.because === 'string' && job.result.sky.because.length > 0, 'the job says why');
  });
});
