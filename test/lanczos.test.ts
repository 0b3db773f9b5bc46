import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resizeLanczos3 } from '../src/vision/lanczos.js';
import type { RawImage } from '../src/vision/raw-image.js';

function image(width: number, height: number, channels: RawImage['channels'], value: (x: number, y: number, c: number) => number): RawImage {
  const data = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) for (let c = 0; c < channels; c++) data[(y * width + x) * channels + c] = value(x, y, c);
  return { data, width, height, channels };
}

describe('Lanczos-3 resampling', () => {
  it('keeps a flat image flat and an image resized to its own size unchanged', () => {
    const flat = resizeLanczos3(image(7, 5, 3, () => 137), 21, 15);
    assert.ok(flat.data.every((v) => v === 137));
    const noise = image(9, 6, 4, (x, y, c) => (x * 37 + y * 91 + c * 13) % 256);
    assert.deepEqual(resizeLanczos3(noise, 9, 6).data, noise.data);
  });

  it('reproduces a linear ramp away from the borders when enlarging', () => {
    const ramp = image(40, 1, 1, (x) => 40 + x * 4);
    const up = resizeLanczos3(ramp, 80, 1);
    for (let x = 10; x < 70; x++) {
      const source = (x + 0.5) / 2 - 0.5;
      assert.ok(Math.abs(up.data[x]! - (40 + source * 4)) <= 1, `x=${x}: ${up.data[x]}`);
    }
  });

  it('rings a little at a step, as Lanczos does, unlike a box filter', () => {
    const step = image(20, 1, 1, (x) => (x < 10 ? 50 : 200));
    const up = resizeLanczos3(step, 80, 1);
    const min = Math.min(...up.data);
    const max = Math.max(...up.data);
    assert.ok(min < 50 && min > 30, `undershoot ${min}`);
    assert.ok(max > 200 && max < 220, `overshoot ${max}`);
  });

  it('filters when shrinking: a one-pixel checkerboard halves to its mean', () => {
    const board = image(32, 32, 1, (x, y) => ((x + y) % 2 ? 255 : 0));
    const half = resizeLanczos3(board, 16, 16);
    for (let i = 0; i < half.data.length; i++) assert.ok(Math.abs(half.data[i]! - 128) <= 8);
  });

  it('resamples every channel, alpha included', () => {
    const rgba = image(4, 4, 4, (_x, _y, c) => [10, 20, 30, 40][c]!);
    const up = resizeLanczos3(rgba, 8, 8);
    assert.deepEqual([...up.data.subarray(0, 4)], [10, 20, 30, 40]);
  });
});
