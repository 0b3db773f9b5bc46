import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { dataUrl } from './helpers/fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.js';

const WIDTH = 240;
const HEIGHT = 180;
/** The object: a red box standing on the floor. */
const OBJECT = { x0: 100, y0: 100, x1: 150, y1: 150 };

/** A room-like picture: a pale wall over a floor of boards, with a red box on the floor. */
async function roomWithObject(): Promise<Buffer> {
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const i = (y * WIDTH + x) * 3;
      let colour: [number, number, number];
      if (x >= OBJECT.x0 && x < OBJECT.x1 && y >= OBJECT.y0 && y < OBJECT.y1) colour = [210, 30, 30];
      else if (y < 80) colour = [225 - (y >> 3), 222 - (y >> 3), 214];
      else colour = x % 10 === 0 ? [90, 60, 35] : (x / 10) % 2 < 1 ? [170, 125, 80] : [182, 134, 88];
      pixels.set(colour, i);
    }
  }
  return sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).png().toBuffer();
}

/** White over the object and a 2-pixel margin, black elsewhere. */
async function objectMask(): Promise<Buffer> {
  const pixels = Buffer.alloc(WIDTH * HEIGHT);
  for (let y = OBJECT.y0 - 2; y < OBJECT.y1 + 2; y++) for (let x = OBJECT.x0 - 2; x < OBJECT.x1 + 2; x++) pixels[y * WIDTH + x] = 255;
  return sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 1 } }).png().toBuffer();
}


describe('declutter', () => {
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

  it('removes what the mask covers, continues the floor and leaves every other pixel as it was', async () => {
    const input = await roomWithObject();
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/declutter',
      headers: t.auth,
      payload: { url: dataUrl(input), mask: dataUrl(await objectMask()) },
    });
    assert.equal(response.statusCode, 200, response.body);
    const output = Buffer.from(response.json().base64, 'base64');
    const after = await sharp(output).raw().toBuffer({ resolveWithObject: true });
    const before = await sharp(input).raw().toBuffer();
    assert.deepEqual([after.info.format, after.info.width, after.info.height], ['raw', WIDTH, HEIGHT]);
    const seam = 2;
    let changedOutside = 0;
    let red = 0;
    for (let y = 0; y < HEIGHT; y++) {
      for (let x = 0; x < WIDTH; x++) {
        const i = (y * WIDTH + x) * 3;
        const inMask = x >= OBJECT.x0 - 2 && x < OBJECT.x1 + 2 && y >= OBJECT.y0 - 2 && y < OBJECT.y1 + 2;
        const nearMask = x >= OBJECT.x0 - 2 - seam && x < OBJECT.x1 + 2 + seam && y >= OBJECT.y0 - 2 - seam && y < OBJECT.y1 + 2 + seam;
        const same = after.data[i] === before[i] && after.data[i + 1] === before[i + 1] && after.data[i + 2] === before[i + 2];
        if (!nearMask && !same) changedOutside++;
        if (inMask && after.data[i]! > 190 && after.data[i + 1]! < 80) red++;
      }
    }
    assert.equal(changedOutside, 0, 'pixels outside the mask and its seam are bit-identical');
    assert.equal(red, 0, 'nothing of the object is left');
    // The boards run on: dark seams every 10 px inside the filled area, as around it.
    const row = 125;
    let seams = 0;
    for (let x = OBJECT.x0; x < OBJECT.x1; x++) {
      const i = (row * WIDTH + x) * 3;
      if (after.data[i]! < 120) seams++;
    }
    assert.ok(seams >= 3 && seams <= 8, `board seams across the filled row: ${seams}`);
  });

  it('refuses a mask of another size with 400 mask_size_mismatch', async () => {
    const small = await sharp({ create: { width: 20, height: 20, channels: 3, background: 'white' } }).png().toBuffer();
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/declutter',
      headers: t.auth,
      payload: { url: dataUrl(await roomWithObject()), mask: dataUrl(small) },
    });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().code, 'mask_size_mismatch');
  });

  it('runs the automatic mode, and when it finds nothing says so and returns the picture unchanged', async () => {
    // A red box is no object any detector knows, and a 100-pixel floor band is too small to learn a floor from.
    const input = await roomWithObject();
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/declutter',
      headers: t.auth,
      payload: { url: dataUrl(input), webhook: hooks.url },
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().mode, 'sunshine');
    // The webhook announces the job once it has settled; then get-job shows the outcome.
    await hooks.deliveryFor(response.json().id);
    const job = (await t.app.inject({ method: 'GET', url: `/v1/job/${response.json().id}`, headers: t.auth })).json();
    assert.equal(job.status, 'success', JSON.stringify(job.error));
    assert.equal(job.result.declutter.mode, 'automatic');
    assert.deepEqual(job.result.declutter.removed, []);
    assert.deepEqual(job.result.declutter.kept, []);
    assert.equal(job.result.declutter.unchanged, true);
    assert.equal(job.result.declutter.unchangedReason, 'nothing_found');
    assert.equal(job.result.declutter.filledShare, 0);
    const output = await t.app.inject({ method: 'GET', url: new URL(job.output).pathname });
    assert.deepEqual(await sharp(output.rawPayload).raw().toBuffer(), await sharp(input).raw().toBuffer());
  });
});
