import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  edgeContinuity,
  holeBoundingBox,
  holePsnr,
  holeSsim,
  textureRatio,
  type ImageLike,
} from '../bench/declutter-metrics.js';
import { polygonMask } from '../src/vision/polygon-mask.js';

const SIZE = 96;

/** Deterministic noise in [-1, 1]. */
function noise(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s / 2 ** 32) * 2 - 1;
  };
}

/** An RGB image from a luma function (the three channels equal, clamped to 0..255). */
function rgb(f: (x: number, y: number) => number, width = SIZE, height = SIZE): ImageLike {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = Math.max(0, Math.min(255, Math.round(f(x, y))));
      data.set([v, v, v], (y * width + x) * 3);
    }
  }
  return { data, width, height, channels: 3 };
}

/** `filled` where the hole is, `base` elsewhere. */
function compose(base: ImageLike, filled: ImageLike, hole: Uint8Array): ImageLike {
  const data = Uint8Array.from(base.data);
  for (let p = 0; p < hole.length; p++) {
    if (!hole[p]) continue;
    for (let k = 0; k < base.channels; k++) data[p * base.channels + k] = filled.data[p * base.channels + k]!;
  }
  return { ...base, data };
}

/** The hole filled with the mean colour of the original's hole pixels (what a heavy blur converges to). */
function flatFill(base: ImageLike, hole: Uint8Array): ImageLike {
  let sum = 0;
  let n = 0;
  for (let p = 0; p < hole.length; p++) if (hole[p]) (sum += base.data[p * 3]!), n++;
  const v = Math.round(sum / n);
  return compose(base, rgb(() => v), hole);
}

const SQUARE_HOLE = polygonMask(
  SIZE,
  SIZE,
  [
    [
      [32, 32],
      [64, 32],
      [64, 64],
      [32, 64],
    ],
  ],
);

/** A vertical step edge at x = 48 (dark left, bright right) on a light noise texture. */
function stepEdge(shift = 0, seed = 1): ImageLike {
  const r = noise(seed);
  return rgb((x) => (x + 0.5 < 48 + shift ? 70 : 170) + 8 * r());
}

test('polygonMask fills the pixels whose centres are inside, in either winding', () => {
  const rect = polygonMask(
    16,
    16,
    [
      [
        [2, 3],
        [10, 3],
        [10, 8],
        [2, 8],
      ],
    ],
  );
  assert.equal(rect.reduce((a, b) => a + b, 0), 8 * 5);
  assert.equal(rect[3 * 16 + 2], 1);
  assert.equal(rect[3 * 16 + 10], 0);
  assert.equal(rect[8 * 16 + 2], 0);
  assert.deepEqual(holeBoundingBox(rect, 16, 16), { x0: 2, y0: 3, x1: 10, y1: 8 });
  const reversed = polygonMask(
    16,
    16,
    [
      [
        [2, 8],
        [10, 8],
        [10, 3],
        [2, 3],
      ],
    ],
  );
  assert.deepEqual(reversed, rect);
  // An L-shaped (concave) chair-like outline: 10×4 top bar plus a 4×6 leg → 40 + 24 pixels.
  const ell = polygonMask(
    12,
    12,
    [
      [
        [0, 0],
        [10, 0],
        [10, 4],
        [4, 4],
        [4, 10],
        [0, 10],
      ],
    ],
  );
  assert.equal(ell.reduce((a, b) => a + b, 0), 64);
  assert.equal(ell[6 * 12 + 6], 0);
  // Clipped at the image border.
  const clipped = polygonMask(
    8,
    8,
    [
      [
        [-5, -5],
        [4, -5],
        [4, 4],
        [-5, 4],
      ],
    ],
  );
  assert.equal(clipped.reduce((a, b) => a + b, 0), 16);
});

test('holePsnr: exact is infinite, a near fill beats a flat one, pixels outside the hole do not count', () => {
  const original = stepEdge();
  assert.equal(holePsnr(original, original, SQUARE_HOLE), Number.POSITIVE_INFINITY);
  const near = compose(original, stepEdge(0, 99), SQUARE_HOLE); // same structure, different noise
  const flat = flatFill(original, SQUARE_HOLE);
  const good = holePsnr(original, near, SQUARE_HOLE);
  const bad = holePsnr(original, flat, SQUARE_HOLE);
  assert.ok(good > 25, `near fill ${good} dB`);
  assert.ok(bad < 15, `flat fill ${bad} dB`);
  // Changing pixels outside the hole changes nothing.
  const outside = Uint8Array.from(near.data);
  outside.fill(0, 0, SIZE * 3 * 10);
  assert.equal(holePsnr(original, { ...near, data: outside }, SQUARE_HOLE), good);
});

test('holeSsim: stripes continued score near 1, blurred stripes score low', () => {
  const stripes = rgb((x, y) => (Math.floor((x + y) / 4) % 2 === 0 ? 60 : 190));
  assert.ok(Math.abs(holeSsim(stripes, stripes, SQUARE_HOLE) - 1) < 1e-6);
  // Continued with a one-level brightness change: structure intact.
  const continued = compose(stripes, rgb((x, y) => (Math.floor((x + y) / 4) % 2 === 0 ? 62 : 188)), SQUARE_HOLE);
  // Blurred: an 8-pixel box average along x (one full period) wipes the stripes out.
  const blurred = compose(
    stripes,
    rgb((x, y) => {
      let s = 0;
      for (let k = -4; k < 4; k++) s += Math.floor((x + k + y) / 4) % 2 === 0 ? 60 : 190;
      return s / 8;
    }),
    SQUARE_HOLE,
  );
  const good = holeSsim(stripes, continued, SQUARE_HOLE);
  const bad = holeSsim(stripes, blurred, SQUARE_HOLE);
  assert.ok(good > 0.95, `continued ${good}`);
  assert.ok(bad < 0.3, `blurred ${bad}`);
});

test('textureRatio: a textured fill is near 1, a flat fill near 0, a noisier fill above 1', () => {
  const r = noise(5);
  const textured = rgb(() => 128 + 30 * r());
  const other = noise(77);
  const retextured = compose(textured, rgb(() => 128 + 30 * other()), SQUARE_HOLE);
  const flat = flatFill(textured, SQUARE_HOLE);
  const louder = noise(8);
  const noisier = compose(textured, rgb(() => 128 + 75 * louder()), SQUARE_HOLE);
  assert.equal(textureRatio(textured, textured, SQUARE_HOLE), 1);
  const good = textureRatio(textured, retextured, SQUARE_HOLE);
  const bad = textureRatio(textured, flat, SQUARE_HOLE);
  const loud = textureRatio(textured, noisier, SQUARE_HOLE);
  assert.ok(good > 0.85 && good < 1.15, `same texture ${good}`);
  assert.ok(bad < 0.25, `flat ${bad}`);
  assert.ok(loud > 1.8, `noisier ${loud}`);
});

test('edgeContinuity: a step edge carried through scores 1, flat / displaced / crossed fills score low', () => {
  const original = stepEdge();
  const exact = edgeContinuity(original, original, SQUARE_HOLE);
  assert.ok(exact.segments >= 1, 'the edge through the hole is found');
  assert.equal(exact.score, 1);
  for (const d of exact.details) assert.ok(Math.abs(d.segment.x0 - 48) < 1.5 && Math.abs(d.segment.x1 - 48) < 1.5);

  // Same edge, other noise, one pixel off: still continuous within the 2 px tolerance.
  const nearby = edgeContinuity(original, compose(original, stepEdge(1, 42), SQUARE_HOLE), SQUARE_HOLE);
  assert.ok(nearby.score > 0.9, `1 px off ${nearby.score}`);

  const flat = edgeContinuity(original, flatFill(original, SQUARE_HOLE), SQUARE_HOLE);
  assert.equal(flat.segments, exact.segments);
  assert.ok(flat.score < 0.2, `flat ${flat.score}`);

  const displaced = edgeContinuity(original, compose(original, stepEdge(8, 42), SQUARE_HOLE), SQUARE_HOLE);
  assert.ok(displaced.score < 0.2, `8 px off ${displaced.score}`);

  // The edge with the wrong polarity (bright left, dark right) is not the same edge.
  const r = noise(3);
  const inverted = compose(original, rgb((x) => (x + 0.5 < 48 ? 170 : 70) + 8 * r()), SQUARE_HOLE);
  assert.ok(edgeContinuity(original, inverted, SQUARE_HOLE).score < 0.2);

  // Horizontal edges instead of the vertical one.
  const crossed = compose(original, rgb((_, y) => (Math.floor(y / 6) % 2 === 0 ? 70 : 170)), SQUARE_HOLE);
  assert.ok(edgeContinuity(original, crossed, SQUARE_HOLE).score < 0.2);
});

test('edgeContinuity: a diagonal line through a round hole, continued vs. blurred', () => {
  // A 3 px dark line along y = 0.6 x + 20 on a bright, slightly noisy wall.
  const r = noise(11);
  const line = (x: number, y: number) => Math.abs(y + 0.5 - (0.6 * (x + 0.5) + 20)) / Math.hypot(1, 0.6) < 1.5;
  const original = rgb((x, y) => (line(x, y) ? 50 : 200) + 5 * r());
  const circle: [number, number][] = [];
  for (let k = 0; k < 24; k++) circle.push([48 + 14 * Math.cos((k * Math.PI) / 12), 49 + 14 * Math.sin((k * Math.PI) / 12)]);
  const hole = polygonMask(SIZE, SIZE, [circle]);
  const exact = edgeContinuity(original, original, hole);
  assert.ok(exact.segments >= 1);
  assert.equal(exact.score, 1);
  // Blur: a 9×9 box average of the original in the hole.
  const blurred = rgb((x, y) => {
    let s = 0;
    for (let dy = -4; dy <= 4; dy++)
      for (let dx = -4; dx <= 4; dx++) {
        const xx = Math.min(SIZE - 1, Math.max(0, x + dx));
        const yy = Math.min(SIZE - 1, Math.max(0, y + dy));
        s += original.data[(yy * SIZE + xx) * 3]!;
      }
    return s / 81;
  });
  const result = edgeContinuity(original, compose(original, blurred, hole), hole);
  assert.equal(result.segments, exact.segments);
  assert.ok(result.score < 0.3, `blurred ${result.score}`);
});

test('metrics refuse mismatched inputs', () => {
  const a = stepEdge();
  assert.throws(() => holePsnr(a, rgb(() => 0, 10, 10), SQUARE_HOLE));
  assert.throws(() => holeSsim(a, a, new Uint8Array(5)));
  assert.ok(Number.isNaN(holePsnr(a, a, new Uint8Array(SIZE * SIZE))));
  assert.ok(Number.isNaN(edgeContinuity(a, a, new Uint8Array(SIZE * SIZE)).score));
});
