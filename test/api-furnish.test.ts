import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { BlenderRenderer } from '../src/repositories/blender/blender-renderer.js';
import { layoutLabelMap } from '../src/vision/geometry/room-box.js';
import { dataUrl } from './helpers/fixtures.js';
import { seededRandom } from './helpers/seeded-random.js';
import { syntheticRoom } from './helpers/synthetic-room.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { HANG_MS, until } from './helpers/until.js';

/** Only a hang reaches this: analysis and a small render take seconds to a minute on a loaded machine. */
const TIMEOUT_MS = 10 * 60_000;
const blender = await new BlenderRenderer().available();

/**
 * A photo of the synthetic room (test/helpers/synthetic-room.ts): each face of the box in its own shade, so the
 * geometry analysis finds the room's edges, with a little noise.
 */
async function roomPhoto(width: number, height: number): Promise<{ png: Buffer; pixels: Buffer }> {
  const room = syntheticRoom(width, height);
  const labels = layoutLabelMap(room.camera, { ...room.box, back: -Infinity }, width, height);
  // floor, ceiling, left, front, right, back
  const shades = [
    [128, 96, 70],
    [236, 236, 232],
    [196, 192, 186],
    [218, 214, 208],
    [182, 178, 172],
    [200, 200, 200],
  ];
  const random = seededRandom(8);
  const pixels = Buffer.alloc(width * height * 3);
  for (let p = 0; p < width * height; p++) {
    for (let c = 0; c < 3; c++) pixels[p * 3 + c] = Math.max(0, Math.min(255, Math.round(shades[labels[p]!]![c]! + (random() - 0.5) * 4)));
  }
  return { png: await sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer(), pixels };
}

describe('POST /v1/furnish with furnitureId', { timeout: TIMEOUT_MS }, () => {
  let t: TestApp;
  before(async () => {
    // Few samples: the test checks what changes and what does not, not how smooth the render is.
    t = await startTestApp({ staging: { samples: 16 } });
  });
  after(() => t.close());

  const post = (payload: object) => t.app.inject({ method: 'POST', url: '/v1/furnish', headers: t.auth, payload });

  it('refuses a mask with no room for the piece with a 400 naming the problem and the fix', async () => {
    const { png } = await roomPhoto(320, 240);
    const black = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#000' } }).png().toBuffer();
    const response = await post({ url: dataUrl(png), mask: dataUrl(black), styleId: 'modern', furnitureId: 'sofa_3_seater', seed: 1 });
    assert.equal(response.statusCode, 400, response.body);
    const problem = response.json();
    assert.equal(problem.code, 'no_room_for_furniture');
    assert.match(problem.detail, /marked area/);
    assert.match(problem.detail, /mark a larger area/);
  });

  it('checks the seed extension', async () => {
    const response = await post({ url: 'https://example.com/a.jpg', styleId: 'modern', furnitureId: 'sofa_3_seater', seed: -1 });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().errors[0].field, '/seed');
  });

  it(
    'renders the piece into the photo: same size, pixels outside the change mask untouched, the same seed the same pixels',
    { skip: blender.ok ? false : 'Blender is not installed' },
    async () => {
      const { png, pixels } = await roomPhoto(320, 240);
      const body = { url: dataUrl(png), styleId: 'scandinavian', furnitureId: 'side_table', seed: 42 };
      const first = await post(body);
      assert.equal(first.statusCode, 200, first.body);
      const job = (await t.app.inject({ method: 'GET', url: `/v1/job/${first.headers['x-job-id']}`, headers: t.auth })).json();
      const staging = job.result.staging;
      assert.equal(staging.seed, 42);
      assert.equal(staging.pieces[0].furnitureId, 'side_table');
      assert.equal(staging.pieces[0].styleId, 'scandinavian');
      const output = await sharp(Buffer.from(first.json().base64, 'base64')).raw().toBuffer({ resolveWithObject: true });
      assert.deepEqual([output.info.width, output.info.height], [320, 240]);
      const maskPath = new URL(job.result.changeMask).pathname;
      const maskResponse = await t.app.inject({ method: 'GET', url: maskPath });
      assert.equal(maskResponse.statusCode, 200);
      assert.equal(maskResponse.headers['content-type'], 'image/png');
      const mask = await sharp(maskResponse.rawPayload).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
      assert.deepEqual([mask.info.width, mask.info.height, mask.info.channels], [320, 240, 1]);
      let changed = 0;
      for (let p = 0; p < 320 * 240; p++) {
        const same = [0, 1, 2].every((c) => output.data[p * output.info.channels + c] === pixels[p * 3 + c]);
        if (!mask.data[p]) assert.ok(same, `pixel ${p % 320},${Math.floor(p / 320)} changed outside the change mask`);
        else changed++;
      }
      assert.ok(changed > 0, 'something was placed');
      assert.equal(staging.changedPixels, changed);
      const again = await post(body);
      assert.equal(again.statusCode, 200);
      assert.equal(again.json().base64, first.json().base64, 'the same request and seed give the same pixels');
    },
  );
});

describe('POST /v1/furnish with roomId and the smart stagings', { timeout: 4 * TIMEOUT_MS }, () => {
  let t: TestApp;
  before(async () => {
    // Few samples: the test checks what changes and what does not, not how smooth the render is.
    t = await startTestApp({ staging: { samples: 8 } });
  });
  after(() => t.close());

  const post = (path: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: path, headers: { ...t.auth, ...headers }, payload });

  it('refuses a whole room that does not fit in the marked area with a 400 naming the problem and the fix', async () => {
    const { png } = await roomPhoto(320, 240);
    const black = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#000' } }).png().toBuffer();
    const response = await post('/v1/furnish', { url: dataUrl(png), mask: dataUrl(black), styleId: 'modern', roomId: 'living_room', seed: 1 });
    assert.equal(response.statusCode, 400, response.body);
    const problem = response.json();
    assert.equal(problem.code, 'no_room_for_furniture');
    assert.match(problem.detail, /mark a larger area/);
  });

  it('refuses a whole room on a photo whose layout is unsure with a 422 naming it and suggesting single pieces', async () => {
    // A blank wall: no edge tells where a floor would be.
    const blank = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#d8d4cc' } }).png().toBuffer();
    for (const path of ['/v1/smart-staging-v2', '/v1/furnish']) {
      const response = await post(path, { url: dataUrl(blank), styleId: 'modern', roomId: 'living_room', seed: 1 });
      assert.equal(response.statusCode, 422, `${path}: ${response.body}`);
      const problem = response.json();
      assert.equal(problem.code, 'layout_uncertain');
      assert.match(problem.detail, /^the room's layout was found with confidence 0, below 0\.3: /);
      assert.match(problem.detail, /furnitureId/);
    }
  });

  it(
    'stages a whole room: several pieces, pixels outside the change mask untouched, the plan in the job',
    { skip: blender.ok ? false : 'Blender is not installed' },
    async () => {
      const { png, pixels } = await roomPhoto(320, 240);
      // Asynchronously, awaiting the job: several pieces in one render take minutes on a loaded machine.
      const ack = await post('/v1/smart-staging-v2', { url: dataUrl(png), styleId: 'scandinavian', roomId: 'dining_room', seed: 3 }, { prefer: 'respond-async' });
      assert.equal(ack.statusCode, 200, ack.body);
      const id = ack.json().id;
      const job = await until(
        async () => {
          const body = (await t.app.inject({ method: 'GET', url: `/v1/job/${id}`, headers: t.auth })).json();
          return body.status === 'pending' ? undefined : body;
        },
        { what: `staging job ${id} to settle`, timeoutMs: 3 * HANG_MS },
      );
      assert.equal(job.status, 'success', JSON.stringify(job.error));
      const staging = job.result.staging;
      assert.equal(staging.seed, 3);
      assert.equal(staging.roomId, 'dining_room');
      assert.ok(staging.pieces.length >= 2, `${staging.pieces.length} pieces`);
      assert.ok(staging.pieces.some((p: { furnitureId: string }) => /table/.test(p.furnitureId)), 'the dining group has its table');
      assert.equal(staging.plan.footprints.length, staging.pieces.length);
      // A bare box room: none of its upright lines (its corners, the window's frame) is a column standing in it.
      assert.deepEqual(staging.plan.columns, []);
      assert.match(staging.plan.imageUrl, /^data:image\/svg\+xml;base64,/);
      const image = await t.app.inject({ method: 'GET', url: new URL(job.output).pathname });
      const output = await sharp(image.rawPayload).raw().toBuffer({ resolveWithObject: true });
      assert.deepEqual([output.info.width, output.info.height], [320, 240]);
      const maskResponse = await t.app.inject({ method: 'GET', url: new URL(job.result.changeMask).pathname });
      const mask = await sharp(maskResponse.rawPayload).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
      let changed = 0;
      for (let p = 0; p < 320 * 240; p++) {
        const same = [0, 1, 2].every((c) => output.data[p * output.info.channels + c] === pixels[p * 3 + c]);
        if (!mask.data[p]) assert.ok(same, `pixel ${p % 320},${Math.floor(p / 320)} changed outside the change mask`);
        else changed++;
      }
      assert.ok(changed > 0);
      assert.equal(staging.changedPixels, changed);
    },
  );
});
