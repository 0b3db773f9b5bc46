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
  // A 40 × 30 layer at (10, 10): a piece, a shadow beside it, render noise within tolerance everywhere else.
  const layer = { x0: 10, y0: 10, width: 40, height: 30, pieces: new Float32Array(40 * 30 * 4), shadow: new Float32Array(40 * 30 * 3) };
  const inPiece = (x: number, y: number) => x >= 12 && x < 20 && y >= 6 && y < 16;
  const inShadow = (x: number, y: number) => !inPiece(x, y) && x >= 20 && x < 26 && y >= 10 && y < 20;
  const noise = seededRandom(2);
  for (let y = 0; y < 30; y++) {
    for (let x = 0; x < 40; x++) {
      const i = y * 40 + x;
      if (inPiece(x, y)) layer.pieces.set([0.2, 0.1, 0.05, 1], i * 4);
      // Noise of ±1 %, above the tolerance: only averaging tells it from a shadow.
      const s = inShadow(x, y) ? 0.6 : 1 + (noise() - 0.5) * 0.02;
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

  it('changes the piece and its shadow, and leaves render noise alone', () => {
    const near = (x: number, y: number, d: number) => {
      for (let dy = -d; dy <= d; dy++) for (let dx = -d; dx <= d; dx++) if (inPiece(x + dx, y + dy) || inShadow(x + dx, y + dy)) return true;
      return false;
    };
    for (let y = 0; y < 30; y++) {
      for (let x = 0; x < 40; x++) {
        const changed = result.changeMask[(y + 10) * 64 + (x + 10)] === 255;
        if (inPiece(x, y)) assert.ok(changed, `piece pixel ${x},${y}`);
        if (x > 21 && x < 24 && y > 12 && y < 18) assert.ok(changed, `shadow pixel ${x},${y}`);
        // The averaging window (two passes of radius 2) spreads a shadow by up to 4 pixels.
        if (!near(x, y, 5)) assert.ok(!changed, `noise at ${x},${y} counted as a change`);
      }
    }
  });

  it('darkens the shadow by its ratio and puts the piece over the photo', () => {
    const p = (10 + 15) * 64 + (10 + 23);
    assert.ok(result.image.data[p * 3]! < photo.data[p * 3]! - 20, 'the shadow darkens');
    const q = (10 + 10) * 64 + (10 + 15);
    assert.ok(Math.abs(result.image.data[q * 3]! - 124) <= 8, `piece red ${result.image.data[q * 3]}`);
  });

  it('is reproducible with its seed', () => {
    assert.deepEqual(compositeRenderedLayer(photo, layer, { grain: 2, seed: 9 }).image.data, result.image.data);
  });

  it('fades a shadow that reaches the edge of the rendered region instead of cutting it', () => {
    const edge = { x0: 10, y0: 10, width: 30, height: 20, pieces: new Float32Array(30 * 20 * 4), shadow: new Float32Array(30 * 20 * 3).fill(0.5) };
    const faded = compositeRenderedLayer(photo, edge, { grain: 0, seed: 1 });
    const darkening = (x: number) => photo.data[((10 + 10) * 64 + x) * 3]! - faded.image.data[((10 + 10) * 64 + x) * 3]!;
    assert.ok(darkening(10) < darkening(13), 'weaker at the edge');
    assert.ok(darkening(13) <= darkening(25), 'full inside');
    assert.equal(faded.image.data[((10 + 10) * 64 + 10) * 3], photo.data[((10 + 10) * 64 + 10) * 3], 'nothing at the very edge');
  });

  it('fades a broad darkening over a long distance, leaving no step where the region ends, and keeps a local shadow whole', () => {
    // A flat photo; a 160 × 100 layer whose whole region is 10 % darker (lost bounce light), with a deep shadow in its middle.
    const flat: RawImage = { data: new Uint8Array(200 * 150 * 3).fill(180), width: 200, height: 150, channels: 3 };
    const layerWidth = 160;
    const layerHeight = 100;
    const shadow = new Float32Array(layerWidth * layerHeight * 3).fill(0.9);
    for (let y = 40; y < 60; y++) for (let x = 70; x < 90; x++) shadow.fill(0.5, (y * layerWidth + x) * 3, (y * layerWidth + x) * 3 + 3);
    const broad = { x0: 20, y0: 30, width: layerWidth, height: layerHeight, pieces: new Float32Array(layerWidth * layerHeight * 4), shadow };
    const out = compositeRenderedLayer(flat, broad, { grain: 0, seed: 1 }).image.data;
    const darkening = (x: number, y: number) => 180 - out[(y * 200 + x) * 3]!;
    let steepest = 0;
    // The local shadow (photo x 90–110, y 70–90) has sharp edges of its own.
    const nearLocal = (x: number, y: number) => x >= 80 && x < 120 && y >= 60 && y < 100;
    for (let y = 1; y < 150; y++) {
      for (let x = 1; x < 200; x++) {
        if (nearLocal(x, y)) continue;
        steepest = Math.max(steepest, Math.abs(darkening(x, y) - darkening(x - 1, y)), Math.abs(darkening(x, y) - darkening(x, y - 1)));
      }
    }
    assert.ok(steepest <= 1, `a step of ${steepest} levels between neighbours away from the local shadow`);
    // Linear 0.5 × the photo's 180 (linear 0.456) is 0.228: about 131 in sRGB.
    assert.ok(Math.abs(darkening(100, 80) - (180 - 131)) <= 2, `the local shadow keeps its depth: ${darkening(100, 80)} levels`);
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
