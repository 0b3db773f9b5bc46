import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { denoiseLayer, type FeatureGuides } from '../src/vision/feature-denoise.js';
import { seededRandom } from './helpers/seeded-random.js';

const W = 48;
const H = 32;

/** A layer whose light is `light(x, y)` on a surface of `albedo(x, y)` with normal `normal(x, y)`, plus noise. */
function layer(
  light: (x: number, y: number) => number,
  albedo: (x: number, y: number) => number,
  normal: (x: number, y: number) => [number, number, number],
  sigma: number,
  seed = 1,
  alpha: (x: number, y: number) => number = () => 1,
): { pieces: Float32Array; clean: Float32Array; guides: FeatureGuides } {
  const random = seededRandom(seed);
  const pieces = new Float32Array(W * H * 4);
  const clean = new Float32Array(W * H * 4);
  const guides = { albedo: new Float32Array(W * H * 3), normal: new Float32Array(W * H * 3), depth: new Float32Array(W * H).fill(3) };
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const a = alpha(x, y);
      const value = light(x, y) * albedo(x, y);
      for (let c = 0; c < 3; c++) {
        const gauss = Math.sqrt(-2 * Math.log(Math.max(1e-12, random()))) * Math.cos(2 * Math.PI * random());
        clean[i * 4 + c] = value * a;
        pieces[i * 4 + c] = a > 0 ? Math.max(0, value * (1 + sigma * gauss)) * a : 0;
        guides.albedo[i * 3 + c] = albedo(x, y);
        guides.normal[i * 3 + c] = normal(x, y)[c]!;
      }
      pieces[i * 4 + 3] = a;
      clean[i * 4 + 3] = a;
    }
  }
  return { pieces, clean, guides };
}

function rmsError(a: Float32Array, b: Float32Array, where: (x: number, y: number) => boolean = () => true): number {
  let sum = 0;
  let count = 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      if (!where(x, y)) continue;
      for (let c = 0; c < 3; c++) {
        sum += (a[(y * W + x) * 4 + c]! - b[(y * W + x) * 4 + c]!) ** 2;
        count++;
      }
    }
  }
  return Math.sqrt(sum / count);
}

const up = (): [number, number, number] => [0, 0, 1];

describe('denoiseLayer', () => {
  it('removes most of the noise of an evenly lit surface', () => {
    const { pieces, clean, guides } = layer(() => 0.5, () => 0.6, up, 0.1);
    const out = denoiseLayer(W, H, pieces, guides);
    const before = rmsError(pieces, clean);
    const after = rmsError(out, clean);
    assert.ok(after < before / 3, `noise ${before.toFixed(4)} → ${after.toFixed(4)}`);
  });

  it('keeps the texture of the albedo: the light is smoothed, not the colour', () => {
    const checker = (x: number, y: number) => ((x >> 1) + (y >> 1)) % 2 === 0 ? 0.8 : 0.2;
    const { pieces, clean, guides } = layer(() => 0.5, checker, up, 0.1);
    const out = denoiseLayer(W, H, pieces, guides);
    assert.ok(rmsError(out, clean) < rmsError(pieces, clean) / 3);
    // A dark square stays dark and a light one light.
    assert.ok(out[(10 * W + 10) * 4]! > 0.35 && out[(10 * W + 12) * 4]! < 0.15);
  });

  it('does not blur across a crease: the two faces keep their own light', () => {
    const face = (x: number): [number, number, number] => (x < W / 2 ? [0, 0, 1] : [0.8, 0, 0.6]);
    const { pieces, clean, guides } = layer((x) => (x < W / 2 ? 0.8 : 0.2), () => 0.5, face, 0.05);
    const out = denoiseLayer(W, H, pieces, guides);
    // Right beside the crease on either side, within a few per cent of the face's own value.
    for (const x of [W / 2 - 1, W / 2]) {
      let mean = 0;
      for (let y = 4; y < H - 4; y++) mean += out[(y * W + x) * 4]!;
      mean /= H - 8;
      const truth = clean[(16 * W + x) * 4]!;
      assert.ok(Math.abs(mean - truth) < 0.03 * truth, `column ${x}: ${mean.toFixed(4)} against ${truth.toFixed(4)}`);
    }
  });

  it('follows a gradient of light to the edge of a surface without bias', () => {
    const { pieces, clean, guides } = layer((x) => 0.2 + 0.6 * (x / W), () => 0.5, up, 0.05);
    const out = denoiseLayer(W, H, pieces, guides);
    let mean = 0;
    for (let y = 0; y < H; y++) mean += out[(y * W + 0) * 4]! - clean[(y * W + 0) * 4]!;
    mean /= H;
    // A plain average over a one-sided window would be 0.5 · 0.6 · 6/48 · 0.5 ≈ 0.019 too bright at the edge.
    assert.ok(Math.abs(mean) < 0.006, `bias at the left edge ${mean.toFixed(4)}`);
  });

  it('keeps coverage, leaves uncovered pixels at zero and gives the same bytes twice', () => {
    const round = (x: number, y: number) => ((x - 24) ** 2 + (y - 16) ** 2 < 100 ? 1 : (x - 24) ** 2 + (y - 16) ** 2 < 121 ? 0.5 : 0);
    const { pieces, guides } = layer(() => 0.5, () => 0.6, up, 0.1, 3, round);
    const out = denoiseLayer(W, H, pieces, guides);
    for (let i = 0; i < W * H; i++) {
      assert.equal(out[i * 4 + 3], pieces[i * 4 + 3]);
      if (pieces[i * 4 + 3] === 0) for (let c = 0; c < 3; c++) assert.equal(out[i * 4 + c], 0);
    }
    assert.deepEqual(denoiseLayer(W, H, pieces, guides), out);
  });

  it('refuses guides of another size', () => {
    const { pieces, guides } = layer(() => 0.5, () => 0.6, up, 0.1);
    assert.throws(() => denoiseLayer(W, H, pieces, { ...guides, depth: new Float32Array(3) }), /guides/);
  });
});
