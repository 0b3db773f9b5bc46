import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { loadCatalog } from '../src/catalog/catalog.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { applySunshineLift, MAX_SUNSHINE_GAIN, sunshineLiftFor } from '../src/vision/sky/sunshine-lift.js';
import { dataUrl } from './helpers/fixtures.js';
import { overcastHouse } from './helpers/overcast-house.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.js';

const catalog = loadCatalog();

function flat(width: number, height: number, rgb: [number, number, number]): RawImage {
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) data.set(rgb, i * 3);
  return { data, width, height, channels: 3 };
}

describe('the sunshine lift', () => {
  it('lifts a dull scene more than a bright one, never past the documented gain, warmer under a low sun', () => {
    const dull = sunshineLiftFor(flat(32, 32, [70, 70, 70]), catalog.defaultSky);
    const bright = sunshineLiftFor(flat(32, 32, [235, 235, 235]), catalog.defaultSky);
    assert.ok(dull.gain > bright.gain, `${dull.gain} vs ${bright.gain}`);
    assert.ok(dull.gain <= MAX_SUNSHINE_GAIN && bright.gain >= 1);
    assert.equal(bright.gain, 1);
    assert.ok(sunshineLiftFor(flat(8, 8, [70, 70, 70]), catalog.sky('golden_hour')!).warmth > dull.warmth);
  });

  it('is one global curve: equal pixels stay equal, order is kept, no change at gain 1 without warmth', () => {
    const data = new Uint8Array(256 * 3);
    for (let v = 0; v < 256; v++) data.set([v, v, v], v * 3);
    const ramp: RawImage = { data, width: 256, height: 1, channels: 3 };
    const lifted = applySunshineLift(ramp, { gain: 1.25, warmth: 0.03 });
    for (let v = 1; v < 256; v++) {
      for (let c = 0; c < 3; c++) assert.ok(lifted.data[v * 3 + c]! >= lifted.data[(v - 1) * 3 + c]!, 'monotone');
    }
    assert.ok(lifted.data[128 * 3 + 1]! > 128, 'mid-grey is lifted');
    assert.ok(lifted.data[128 * 3]! > lifted.data[128 * 3 + 2]!, 'warmer: red above blue');
    assert.deepEqual([...applySunshineLift(ramp, { gain: 1, warmth: 0 }).data], [...data]);
  });
});

describe('POST /v1/sunshine (extension)', () => {
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

  const settled = async (id: string) => {
    await hooks.deliveryFor(id);
    return (await t.app.inject({ method: 'GET', url: `/v1/job/${id}`, headers: t.auth })).json();
  };

  it('refuses an unknown sky naming the field and where the ids are', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/v1/sunshine', headers: t.auth, payload: { url: 'https://example.com/a.jpg', skyId: 'purple_haze' } });
    assert.equal(response.statusCode, 400);
    const [error] = response.json().errors;
    assert.equal(error.field, '/skyId');
    assert.match(error.message, /GET \/v1\/skies/);
  });

  it('replaces the sky with the chosen one and lifts the house by one global curve, every brick of a colour alike', async () => {
    const { png, pixels, width, height, roof } = await overcastHouse();
    const ack = await t.app.inject({ method: 'POST', url: '/v1/sunshine', headers: t.auth, payload: { url: dataUrl(png), skyId: 'golden_hour', webhook: hooks.url } });
    assert.equal(ack.statusCode, 200, ack.body);
    assert.deepEqual([ack.json().mode, ack.json().skyId], ['sunshine', 'golden_hour']);
    const job = await settled(ack.json().id);
    assert.equal(job.status, 'success', JSON.stringify(job.error));
    assert.equal(job.result.sky.replaced, true, JSON.stringify(job.result.sky));
    assert.equal(job.result.sky.skyId, 'golden_hour');
    assert.ok(job.result.lift.gain >= 1);
    const output = await t.app.inject({ method: 'GET', url: new URL(job.output).pathname });
    const { data, info } = await sharp(output.rawPayload).raw().toBuffer({ resolveWithObject: true });
    // Below the roofline (two pixels of margin for the matte's edge) each input colour maps to one output colour.
    const seen = new Map<string, string>();
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (y < roof(x) + 2) continue;
        const i = (y * width + x) * 3;
        const o = (y * width + x) * info.channels;
        const key = `${pixels[i]},${pixels[i + 1]},${pixels[i + 2]}`;
        const value = `${data[o]},${data[o + 1]},${data[o + 2]}`;
        assert.equal(seen.get(key) ?? value, value, `the colour ${key} became two colours`);
        seen.set(key, value);
        assert.ok(data[o]! > data[o + 2]!, 'the bricks stay red-brown');
      }
    }
  });

  it('leaves a photo whose sky is already blue exactly as it came, and says why', async () => {
    const width = 160;
    const height = 120;
    const pixels = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) pixels.set(y < 60 ? [70, 130, 215 - Math.round(y / 3)] : [120, 100, 80], (y * width + x) * 3);
    }
    const png = await sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer();
    const ack = await t.app.inject({ method: 'POST', url: '/v1/sunshine', headers: t.auth, payload: { url: dataUrl(png), webhook: hooks.url } });
    const job = await settled(ack.json().id);
    assert.equal(job.status, 'success', JSON.stringify(job.error));
    assert.equal(job.result.sky.replaced, false);
    assert.equal(job.result.lift, null);
    const output = await t.app.inject({ method: 'GET', url: new URL(job.output).pathname });
    const { data } = await sharp(output.rawPayload).raw().toBuffer({ resolveWithObject: true });
    assert.deepEqual(Buffer.from(data), pixels);
  });
});
