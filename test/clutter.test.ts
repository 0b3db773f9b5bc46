import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findClutter } from '../src/vision/declutter/clutter.js';
import { intersectionOverUnion, type Box } from '../src/vision/box.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { seededRandom } from './helpers/seeded-random.js';

type Rgb = [number, number, number];

const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
const W = 640;
const H = 480;
/** The wall above this row, the floor below (the layout's floor labels). */
const HORIZON = 140;

function floorLabels(): Uint8Array {
  const labels = new Uint8Array(W * H);
  labels.fill(1, HORIZON * W);
  return labels;
}

function paint(shade: (x: number, y: number, random: () => number) => Rgb, seed: number): Uint8Array {
  const random = seededRandom(seed);
  const data = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const [r, g, b] = y < HORIZON ? ([222, 225, 230] as Rgb) : shade(x, y, random);
      const o = (y * W + x) * 3;
      data[o] = clamp(r);
      data[o + 1] = clamp(g);
      data[o + 2] = clamp(b);
    }
  }
  return data;
}

/** Plain light floor lit more on one side: a lighting gradient of ±25 %. */
function plainFloor(seed = 2): Uint8Array {
  return paint((x, y, random) => {
    const k = 0.75 + 0.45 * (x / W) * (y / H);
    const noise = () => (random() - 0.5) * 6;
    return [200 * k + noise(), 190 * k + noise(), 172 * k + noise()];
  }, seed);
}

/** Boards with dark seams every 24 px, grain and per-board tone. */
function woodFloor(seed = 1): Uint8Array {
  const tones = seededRandom(seed + 100);
  const tone = Array.from({ length: 64 }, () => 0.9 + 0.2 * tones());
  return paint((x, y, random) => {
    const board = Math.floor(y / 24);
    const seam = y % 24 === 0 ? 0.7 : 1;
    const grain = 1 + 0.06 * Math.sin(x * 0.21 + board * 3 + 2 * Math.sin(y * 0.3)) + 0.03 * Math.sin(x * 0.05 + board);
    const k = tone[board % 64]! * grain * seam;
    const noise = () => (random() - 0.5) * 8;
    return [175 * k + noise(), 132 * k + noise(), 92 * k + noise()];
  }, seed);
}

/** Cream and terracotta checkerboard tiles of 36 px with grey grout, a little brighter towards the camera. */
function tileFloor(seed = 4): Uint8Array {
  return paint((x, y, random) => {
    const grout = x % 36 < 2 || y % 36 < 2;
    const c: Rgb = grout ? [120, 115, 110] : (Math.floor(x / 36) + Math.floor(y / 36)) % 2 ? [230, 222, 205] : [170, 80, 55];
    const k = 0.85 + (0.25 * y) / H;
    const noise = () => (random() - 0.5) * 8;
    return [c[0] * k + noise(), c[1] * k + noise(), c[2] * k + noise()];
  }, seed);
}

/** A parallelogram of sunlight through a window: brighter and warmer (per-channel gain in sRGB). */
function sunPatch(data: Uint8Array, gain: number): void {
  for (let y = 250; y < 400; y++) {
    for (let x = 0; x < W; x++) {
      const u = x - 0.5 * (y - 250);
      if (u <= 150 || u >= 300) continue;
      const o = (y * W + x) * 3;
      data[o] = clamp(data[o]! * gain);
      data[o + 1] = clamp(data[o + 1]! * gain * 0.98);
      data[o + 2] = clamp(data[o + 2]! * gain * 0.93);
    }
  }
}

/** A wobbly blob (a heap of clothes, a toy) painted into the image and into `truth`. */
function blob(data: Uint8Array, truth: Uint8Array, cx: number, cy: number, rx: number, ry: number, colour: (x: number, y: number) => Rgb): Box {
  for (let y = Math.floor(cy - ry); y <= cy + ry; y++) {
    for (let x = Math.floor(cx - rx); x <= cx + rx; x++) {
      const d = ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 + 0.15 * Math.sin(7 * Math.atan2(y - cy, x - cx));
      if (d > 1) continue;
      const o = (y * W + x) * 3;
      const c = colour(x, y);
      data[o] = c[0];
      data[o + 1] = c[1];
      data[o + 2] = c[2];
      truth[y * W + x] = 1;
    }
  }
  return { x: cx - rx, y: cy - ry, width: 2 * rx, height: 2 * ry };
}

function image(data: Uint8Array): RawImage {
  return { data, width: W, height: H, channels: 3 };
}

function clutterOf(data: Uint8Array, known = new Uint8Array(W * H)) {
  return findClutter(image(data), floorLabels(), known);
}

function assertFound(found: Box[], expected: Box[], mask: Uint8Array, truth: Uint8Array): void {
  assert.equal(found.length, expected.length, `found ${JSON.stringify(found)}`);
  for (const box of expected) {
    const best = Math.max(...found.map((f) => intersectionOverUnion(f, box)));
    assert.ok(best >= 0.5, `box ${JSON.stringify(box)} matched with IoU ${best.toFixed(2)}`);
  }
  let covered = 0, total = 0, outside = 0, marked = 0;
  for (let i = 0; i < truth.length; i++) {
    if (truth[i]) {
      total++;
      if (mask[i]) covered++;
    }
    if (mask[i]) {
      marked++;
      if (!truth[i]) outside++;
    }
  }
  assert.ok(covered / total >= 0.9, `clutter pixels covered ${(covered / total).toFixed(3)}`);
  assert.ok(outside / marked <= 0.3, `mask share off the clutter ${(outside / marked).toFixed(3)}`);
}

for (const [name, floor] of [
  ['a plain floor with a lighting gradient', () => plainFloor()],
  ['a wooden floor with board seams', () => woodFloor()],
  ['a patterned (checkerboard) tile floor', () => tileFloor()],
  [
    'a wooden floor with a warm sun patch',
    () => {
      const data = woodFloor(5);
      sunPatch(data, 1.6);
      return data;
    },
  ],
  [
    'a plain floor with a warm sun patch',
    () => {
      const data = plainFloor();
      sunPatch(data, 1.4);
      return data;
    },
  ],
] as const) {
  test(`no clutter on ${name}`, () => {
    const result = clutterOf(floor());
    assert.deepEqual(result.boxes, []);
    assert.equal(result.mask.reduce((s, v) => s + v, 0), 0);
  });
}

test('clothes, a cardboard box and a toy on a wooden floor are found', () => {
  const data = woodFloor(6);
  const truth = new Uint8Array(W * H);
  const random = seededRandom(3);
  const expected = [
    blob(data, truth, 150, 300, 45, 30, () => [200, 40, 50]),
    // Cardboard: nearly the wood's colour, but flat where the wood has grain.
    blob(data, truth, 420, 390, 40, 40, () => [clamp(190 + (random() - 0.5) * 6), clamp(150 + (random() - 0.5) * 6), 100]),
    blob(data, truth, 520, 240, 25, 20, (x) => (x % 10 < 5 ? [40, 70, 200] : [240, 210, 40])),
  ];
  const result = clutterOf(data);
  assertFound(result.boxes, expected, result.mask, truth);
});

test('dark and blue things on a checkerboard tile floor are found', () => {
  const data = tileFloor();
  const truth = new Uint8Array(W * H);
  const expected = [blob(data, truth, 200, 320, 40, 30, () => [60, 60, 70]), blob(data, truth, 450, 380, 35, 35, () => [90, 140, 200])];
  const result = clutterOf(data);
  assertFound(result.boxes, expected, result.mask, truth);
});

test('clutter already masked (known) is not reported again', () => {
  const data = woodFloor(6);
  const truth = new Uint8Array(W * H);
  const known = new Uint8Array(W * H);
  blob(data, known, 150, 300, 45, 30, () => [200, 40, 50]);
  const expected = [blob(data, truth, 450, 380, 35, 35, () => [90, 140, 200])];
  const result = clutterOf(data, known);
  assertFound(result.boxes, expected, result.mask, truth);
});

test('nothing is reported off the floor', () => {
  const data = plainFloor();
  const truth = new Uint8Array(W * H);
  blob(data, truth, 300, 70, 50, 40, () => [40, 70, 200]); // on the wall
  const result = clutterOf(data);
  assert.deepEqual(result.boxes, []);
});
