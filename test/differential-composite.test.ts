import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compositeRenderedLayer, estimateNoiseLevel } from '../src/vision/differential-composite.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { seededRandom } from './helpers/seeded-random.js';

/** A flat photo with luminance noise of `sigma` levels (the same sample in the three channels). */
function noisyPhoto(width: number, height: number, sigma: number, seed: number): RawImage {
  const random = seededRandom(seed);
  const data = new Uint8Array(width * height * 3);
  for (let p = 0; p < width * height; p++) {
    const gauss = Math.sqrt(-2 * Math.log(Math.max(1e-12, random()))) * Math.cos(2 * Math.PI * random());
    for (let c = 0; c < 3; c++) data[p * 3 + c] = Math.max(0, Math.min(255, Math.round(140 + c * 10 + sigma * gauss)));
  }
  return { data, width, height, channels: 3 };
}

describe('compositeRenderedLayer', () => {
  const photo = noisyPhoto(64, 48, 3, 1);
  // A 20 × 16 layer at (10, 12): a piece covering its middle, a shadow beside it, render noise within tolerance elsewhere.
  const layer = { x0: 10, y0: 12, width: 20, height: 16, pieces: new Float32Array(20 * 16 * 4), shadow: new Float32Array(20 * 16 * 3) };
  const noise = seededRandom(2);
  for (let y = 0; y < 16; y++) {
    for (let x = 0; x < 20; x++) {
      const i = y * 20 + x;
      const inPiece = x >= 6 && x < 14 && y >= 2 && y < 12;
      const inShadow = !inPiece && x >= 14 && x < 18 && y >= 6 && y < 14;
      if (inPiece) layer.pieces.set([0.2, 0.1, 0.05, 1], i * 4);
      const s = inShadow ? 0.6 : 1 + (noise() - 0.5) * 0.008;
      layer.shadow.set([s, s, s], i * 3);
    }
  }
  const result = compositeRenderedLayer(photo, layer, { grain: 2, seed: 9 });

  it('leaves every pixel outside the change mask bit-identical', () => {
    for (let p = 0; p < 64 * 48; p++) {
      if (result.changeMask[p]) continue;
      for (let c = 0; c < 3; c++) assert.equal(result.image.data[p * 3 + c], photo.data[p * 3 + c], `pixel ${p} changed outside the mask`);
    }
  });

  it('marks exactly the piece and its shadow as changed, not the render noise', () => {
    assert.equal(result.changedPixels, 8 * 10 + 4 * 8);
  });

  it('darkens the shadow by its ratio and puts the piece over the photo', () => {
    const p = (12 + 10) * 64 + (10 + 15);
    assert.ok(result.image.data[p * 3]! < photo.data[p * 3]! - 20, 'the shadow darkens');
    const q = (12 + 5) * 64 + (10 + 8);
    assert.ok(Math.abs(result.image.data[q * 3]! - 124) <= 8, `piece red ${result.image.data[q * 3]}`);
  });

  it('is reproducible with its seed', () => {
    assert.deepEqual(compositeRenderedLayer(photo, layer, { grain: 2, seed: 9 }).image.data, result.image.data);
  });
});

describe('estimateNoiseLevel', () => {
  it('measures the grain of a flat noisy photo within 20 %', () => {
    for (const sigma of [2, 5]) {
      const measured = estimateNoiseLevel(noisyPhoto(200, 150, sigma, 3));
      assert.ok(Math.abs(measured - sigma) / sigma < 0.2, `σ ${sigma}: measured ${measured.toFixed(2)}`);
    }
  });
});

describe('compositeRenderedLayer with unshadowed pixels', () => {
  it('leaves a window untouched by a shadow that falls across it, and still draws a piece over it', () => {
    const photo = noisyPhoto(32, 24, 2, 5);
    const layer = { x0: 0, y0: 0, width: 32, height: 24, pieces: new Float32Array(32 * 24 * 4), shadow: new Float32Array(32 * 24 * 3).fill(0.5) };
    layer.pieces.set([0.3, 0.3, 0.3, 1], (12 * 32 + 16) * 4);
    const window = new Uint8Array(32 * 24);
    for (let y = 0; y < 24; y++) for (let x = 8; x < 24; x++) window[y * 32 + x] = 1;
    const result = compositeRenderedLayer(photo, layer, { grain: 0, seed: 1, unshadowed: window });
    for (let p = 0; p < 32 * 24; p++) {
      const piece = p === 12 * 32 + 16;
      const same = [0, 1, 2].every((c) => result.image.data[p * 3 + c] === photo.data[p * 3 + c]);
      assert.equal(same, window[p] === 1 && !piece, `pixel ${p}`);
      assert.equal(result.changeMask[p] === 255, !window[p] || piece, `mask at ${p}`);
    }
  });
});
