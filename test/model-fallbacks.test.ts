import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { AppError } from '../src/errors.js';
import type { ImageModels } from '../src/services/image-models.js';
import { ROOM_LAYOUT_MODEL, ROOM_NETWORK_MODEL } from '../src/services/geometry/room-network.js';
import { ModelPolicy, requireModels } from '../src/services/operations/model-policy.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { dataUrl, makeImage } from './helpers/fixtures.js';

/** Stand-in models: the names in `installed` are there; sessions are never opened by these tests. */
function models(installed: string[]): ImageModels {
  return {
    isInstalled: async (name) => installed.includes(name),
    imageSession: async () => assert.fail('no session in this test'),
    detectorSession: async () => assert.fail('no session in this test'),
  };
}

function isServiceUnavailable(error: unknown): error is AppError {
  return error instanceof AppError && error.code === 'service_unavailable' && error.status === 503;
}

describe('the missing-model rule', () => {
  it('refuses by default with a 503 that names the model and both ways out', async () => {
    const policy = new ModelPolicy(models(['a']), { operation: 'upscale', allowFallbacks: false });
    assert.deepEqual(await policy.missingForFallback(['a'], 'lanczos3'), []);
    await assert.rejects(policy.missingForFallback(['a', 'b', 'c'], 'lanczos3'), (error: unknown) => {
      assert.ok(isServiceUnavailable(error));
      assert.match(error.message, /^upscale needs the models b, c, which are not installed on this server/);
      assert.match(error.message, /roomcraft models install/);
      assert.match(error.message, /ROOMCRAFT_DATA_DIR/);
      assert.match(error.message, /ROOMCRAFT_ALLOW_MODEL_FALLBACKS=true to accept lanczos3 instead/);
      return true;
    });
    assert.deepEqual(policy.fallbacks, []);
  });

  it('tells the operator to restore a network of ours from the release, not to install it', async () => {
    const policy = new ModelPolicy(models([]), { operation: 'smart-staging-v2', allowFallbacks: false });
    await assert.rejects(policy.missingForFallback([ROOM_NETWORK_MODEL], 'the lines alone'), (error: unknown) => {
      assert.ok(isServiceUnavailable(error));
      assert.match(error.message, /restore models\/room-understanding\.onnx from the release: it ships with the code/);
      assert.doesNotMatch(error.message, /roomcraft models install/);
      return true;
    });
  });

  it('records the fallback where the operator allows it, once per engine', async () => {
    const policy = new ModelPolicy(models([]), { operation: 'declutter', allowFallbacks: true });
    assert.deepEqual(await policy.missingForFallback(['m'], 'lsd'), ['m']);
    assert.equal(await policy.isInstalled('n'), false);
    assert.equal(await policy.isInstalled('n'), false);
    assert.deepEqual(policy.fallbacks, [
      { engine: 'lsd', models: ['m'], reason: 'model m is not installed' },
      { engine: 'declutter without n', models: ['n'], reason: 'model n is not installed' },
    ]);
  });

  it('names every missing model a floor refresh needs in one 503, fallbacks allowed or not', async () => {
    for (const allowFallbacks of [false, true]) {
      const policy = new ModelPolicy(models([]), { operation: 'refresh', allowFallbacks });
      await assert.rejects(requireModels(policy, [ROOM_NETWORK_MODEL, ROOM_LAYOUT_MODEL], 'a floor refresh'), (error: unknown) => {
        assert.ok(isServiceUnavailable(error));
        assert.match(error.message, /^a floor refresh needs the models room-understanding, room-layout, which are not installed/);
        assert.doesNotMatch(error.message, /ALLOW_MODEL_FALLBACKS/);
        return true;
      });
      assert.deepEqual(policy.fallbacks, []);
    }
    await requireModels(new ModelPolicy(models([ROOM_NETWORK_MODEL, ROOM_LAYOUT_MODEL]), { operation: 'refresh', allowFallbacks: false }), [ROOM_NETWORK_MODEL, ROOM_LAYOUT_MODEL]);
  });

  it('never falls back for a model that has no fallback', async () => {
    const policy = new ModelPolicy(models([]), { operation: 'enhancer', allowFallbacks: true });
    await assert.rejects(policy.requireModel('blazeface-full-range'), (error: unknown) => {
      assert.ok(isServiceUnavailable(error));
      assert.match(error.message, /^enhancer needs the model blazeface-full-range/);
      assert.doesNotMatch(error.message, /ALLOW_MODEL_FALLBACKS/);
      return true;
    });
  });

  it('is configured with ROOMCRAFT_ALLOW_MODEL_FALLBACKS, off by default, checked at boot', () => {
    assert.equal(loadConfig({}).models.allowFallbacks, false);
    assert.equal(loadConfig({ ROOMCRAFT_ALLOW_MODEL_FALLBACKS: 'true' }).models.allowFallbacks, true);
    assert.equal(loadConfig({ ROOMCRAFT_ALLOW_MODEL_FALLBACKS: '0' }).models.allowFallbacks, false);
    assert.throws(() => loadConfig({ ROOMCRAFT_ALLOW_MODEL_FALLBACKS: 'maybe' }), ConfigError);
  });
});

/** A photo-like picture and a mask of a square in it, small enough for every operation to be quick. */
async function photoAndMask() {
  const photo = await makeImage(64, 48);
  const mask = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#000' } })
    .composite([{ input: { create: { width: 12, height: 10, channels: 3, background: '#fff' } }, left: 20, top: 16 }])
    .png()
    .toBuffer();
  return { url: dataUrl(photo), mask: dataUrl(mask) };
}

describe('a service started without its models', () => {
  const emptyCache = fs.mkdtempSync(path.join(os.tmpdir(), 'roomcraft-no-models-'));
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ models: { cacheDir: emptyCache } });
  });
  after(async () => {
    await t.close();
    fs.rmSync(emptyCache, { recursive: true, force: true });
  });
  const post = (operation: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/v1/${operation}`, headers: t.auth, payload });

  it('answers 503 for every operation that needs a missing model, naming it and the fix', async () => {
    const { url, mask } = await photoAndMask();
    const cases: [string, object, RegExp][] = [
      ['upscale', { url }, /upscale needs the model esrgan-legacy-psnr-small/],
      ['upscale_advanced', { url, scale: 4 }, /upscale_advanced needs the models? esrgan/],
      ['enhancer', { url, retouch: 'learned' }, /enhancer needs the model maxim-retouching/],
      ['enhancer', { url, auto_privacy: true }, /enhancer needs the model blazeface-full-range/],
      ['declutter', { url, mask }, /declutter needs the model mlsd-512-large/],
      ['declutter', { url }, /declutter needs the model mlsd-512-large/],
    ];
    for (const [operation, payload, detail] of cases) {
      const response = await post(operation, payload);
      assert.equal(response.statusCode, 503, `${operation} ${JSON.stringify(Object.keys(payload))}: ${response.body}`);
      const problem = response.json();
      assert.equal(problem.code, 'service_unavailable');
      assert.match(problem.detail, detail);
      assert.match(problem.detail, /roomcraft models install/);
      assert.equal(response.headers['x-job-id'], problem.jobId);
    }
  });

  it('still serves what needs no model, without saying anything is degraded', async () => {
    const response = await post('enhancer', { url: dataUrl(await makeImage(32, 24)) });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['x-roomcraft-degraded'], undefined);
  });

  it('shows the missing models and what they mean on /status.json', async () => {
    const status = (await t.app.inject({ method: 'GET', url: '/status.json' })).json();
    assert.equal(status.modelFallbacks.allowed, false);
    assert.ok(status.modelFallbacks.missing.includes('esrgan-legacy-psnr-small'));
    assert.match(status.modelFallbacks.effect, /503/);
    const page = await t.app.inject({ method: 'GET', url: '/status' });
    assert.match(page.body, /Fallbacks <span class="ok">not allowed<\/span>/);
  });
});

describe('a service without its models that allows fallbacks', () => {
  const emptyCache = fs.mkdtempSync(path.join(os.tmpdir(), 'roomcraft-no-models-'));
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ models: { cacheDir: emptyCache, allowFallbacks: true } });
  });
  after(async () => {
    await t.close();
    fs.rmSync(emptyCache, { recursive: true, force: true });
  });
  const post = (operation: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/v1/${operation}`, headers: t.auth, payload });
  const getJob = (id: string) => t.app.inject({ method: 'GET', url: `/v1/job/${id}`, headers: t.auth });

  it('upscales with Lanczos-3 and says so in the answer and in the job', async () => {
    const response = await post('upscale', { url: dataUrl(await makeImage(12, 8)) });
    assert.equal(response.statusCode, 200);
    assert.equal(
      response.headers['x-roomcraft-degraded'],
      '"lanczos3";models="esrgan-legacy-psnr-small";reason="model esrgan-legacy-psnr-small is not installed"',
    );
    const job = await getJob(response.headers['x-job-id'] as string);
    assert.equal(job.headers['x-roomcraft-degraded'], response.headers['x-roomcraft-degraded']);
    const { result } = job.json();
    assert.equal(result.engine, 'lanczos3');
    assert.deepEqual(result.fallbacks, [
      { engine: 'lanczos3', models: ['esrgan-legacy-psnr-small'], reason: 'model esrgan-legacy-psnr-small is not installed' },
    ]);
  });

  it('retouches with the classical engine when the learned one is missing, and says so', async () => {
    const response = await post('enhancer', { url: dataUrl(await makeImage(32, 24)), retouch: 'learned' });
    assert.equal(response.statusCode, 200);
    assert.match(response.headers['x-roomcraft-degraded'] as string, /^"classical";models="maxim-retouching";/);
    const { result } = (await getJob(response.headers['x-job-id'] as string)).json();
    assert.equal(result.enhancement.engine, 'classical');
    assert.equal(result.enhancement.learnedSkipped, 'model_missing');
  });

  it('still refuses what has no fallback: privacy blurring and the automatic declutter', async () => {
    const { url } = await photoAndMask();
    const privacy = await post('enhancer', { url, auto_privacy: true });
    assert.equal(privacy.statusCode, 503);
    assert.match(privacy.json().detail, /blazeface-full-range/);
    const automatic = await post('declutter', { url });
    assert.equal(automatic.statusCode, 503);
    assert.match(automatic.json().detail, /automatic declutter needs the model centernet-coco/);
  });

  it('removes a masked area without the line and object detectors, and lists both fallbacks', async () => {
    const response = await post('declutter', await photoAndMask());
    assert.equal(response.statusCode, 200, response.body);
    const header = response.headers['x-roomcraft-degraded'] as string;
    assert.match(header, /"lsd";models="mlsd-512-large"/);
    assert.match(header, /"declutter without centernet-coco";models="centernet-coco"/);
    const { result } = (await getJob(response.headers['x-job-id'] as string)).json();
    assert.deepEqual(
      result.fallbacks.map((f: { engine: string }) => f.engine),
      ['lsd', 'declutter without centernet-coco'],
    );
    assert.equal(result.declutter.lines, 'lsd');
  });

  it('says on /status.json that fallbacks are allowed', async () => {
    const status = (await t.app.inject({ method: 'GET', url: '/status.json' })).json();
    assert.equal(status.modelFallbacks.allowed, true);
    assert.match(status.modelFallbacks.effect, /X-Roomcraft-Degraded/);
  });
});
