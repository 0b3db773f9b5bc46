import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tfjsLayersModelToOnnx } from '../src/repositories/models/tfjs-layers-to-onnx.js';
import { createImageModelSession, type ImageModelSession } from '../src/repositories/models/onnx-runtime.js';
import { parseTfjsLayersModel } from '../src/repositories/models/tfjs-layers.js';
import { planAxis, upscaleTiled, type TileInference } from '../src/services/upscaling/tiled-upscale.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { seededRandom } from './helpers/seeded-random.js';
import { TinyModelBuilder } from './helpers/tiny-tfjs-model.js';

/** A photo-like RGB image: smooth gradients plus seeded noise, so that every tile has detail. */
function testImage(width: number, height: number, seed = 7): RawImage {
  const random = seededRandom(seed);
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      data[i] = Math.round((200 * x) / width + 40 * random());
      data[i + 1] = Math.round((200 * y) / height + 40 * random());
      data[i + 2] = Math.round(128 + 100 * Math.sin(x / 5 + y / 7) * random());
    }
  }
  return { data, width, height, channels: 3 };
}

/** Nearest-neighbour ×scale in plain JS: a stand-in network whose output depends on each pixel alone. */
function nearestInference(scale: number): TileInference {
  return async (tile, height, width) => {
    const out = new Float32Array(tile.length * scale * scale);
    const outWidth = width * scale;
    const outPlane = outWidth * height * scale;
    for (let c = 0; c < 3; c++) {
      for (let y = 0; y < height * scale; y++) {
        for (let x = 0; x < outWidth; x++) {
          out[c * outPlane + y * outWidth + x] = tile[c * height * width + Math.floor(y / scale) * width + Math.floor(x / scale)]!;
        }
      }
    }
    return out;
  };
}

function maxByteDifference(a: RawImage, b: RawImage): number {
  assert.deepEqual([a.width, a.height, a.channels], [b.width, b.height, b.channels]);
  let worst = 0;
  a.data.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - b.data[i]!))));
  return worst;
}

describe('planAxis', () => {
  it('covers the axis with kept cores, each inside a window with its padding or up to the image border', () => {
    for (const [length, tileSize, padding] of [[1000, 192, 16], [37, 16, 4], [23, 16, 4], [17, 16, 4], [400, 128, 24]] as const) {
      const tiles = planAxis(length, tileSize, padding);
      assert.equal(tiles[0]!.keepStart, 0);
      assert.equal(tiles.at(-1)!.keepEnd, length);
      tiles.forEach((tile, i) => {
        if (i > 0) assert.equal(tile.keepStart, tiles[i - 1]!.keepEnd);
        assert.ok(tile.end - tile.start <= tileSize);
        assert.equal(tile.start, Math.max(0, tile.keepStart - padding));
        assert.equal(tile.end, Math.min(length, tile.keepEnd + padding));
      });
    }
  });

  it('uses one window for an axis no longer than a tile', () => {
    // 60 pixels would not fit one 48-pixel core, but need no padding when read whole.
    assert.deepEqual(planAxis(60, 64, 8), [{ start: 0, end: 60, keepStart: 0, keepEnd: 60 }]);
  });
});

describe('upscaleTiled', () => {
  it('puts every tile core in its place (odd sizes, several tiles per axis)', async () => {
    const image = testImage(37, 23);
    const tiled = await upscaleTiled(image, nearestInference(3), { scale: 3, tileSize: 16, padding: 4 });
    const whole = await upscaleTiled(image, nearestInference(3), { scale: 3, tileSize: 64 });
    assert.equal(maxByteDifference(tiled, whole), 0);
    assert.deepEqual([tiled.width, tiled.height], [111, 69]);
    assert.equal(tiled.data[(68 * 111 + 110) * 3], image.data[(22 * 37 + 36) * 3]);
  });

  it('refuses what is not RGB, and a network answer of the wrong size', async () => {
    const grey: RawImage = { data: new Uint8Array(4), width: 2, height: 2, channels: 1 };
    await assert.rejects(upscaleTiled(grey, nearestInference(2), { scale: 2 }), /takes RGB, not 1 channels/);
    await assert.rejects(upscaleTiled(testImage(5, 5), nearestInference(2), { scale: 3 }), /returned 300 values for a 15×15 RGB tile/);
  });

  it('stops between tiles when aborted', async () => {
    const controller = new AbortController();
    const options = { scale: 2, tileSize: 16, padding: 4, signal: controller.signal, onProgress: () => controller.abort() };
    await assert.rejects(upscaleTiled(testImage(40, 40), nearestInference(2), options), { name: 'AbortError' });
  });

  describe('with a small convolutional network in onnxruntime', () => {
    let session: ImageModelSession;
    // Receptive field: three 3×3 convolutions, 3 pixels each way; 4 pixels of padding leave nothing to chance.
    before(async () => {
      const b = new TinyModelBuilder(11);
      const x = b.input('LR', 3);
      const features = b.conv('conv2', b.conv('conv1', x, { filters: 8, kernel: [3, 3], activation: 'relu' }), { filters: 8, kernel: [3, 3], activation: 'relu' });
      const detail = b.pixelShuffle('shuffle', b.conv('to_pixels', features, { filters: 12, kernel: [3, 3] }), 2);
      const small = b.multiplyBeta('beta2', b.multiplyBeta('beta1', detail));
      const out = b.sum('SR', [b.upsample('base', x, 2), small]);
      const { modelJson, shards } = b.build(out);
      session = await createImageModelSession(tfjsLayersModelToOnnx(parseTfjsLayersModel(modelJson, shards), { clampOutput: true }));
    });
    after(() => session.close());

    it('gives the whole-image result to within 1/255 on a 37×23 image, reporting progress', async () => {
      const image = testImage(37, 23);
      const progress: Array<[number, number]> = [];
      const tiled = await upscaleTiled(image, session.infer, {
        scale: 2,
        tileSize: 16,
        padding: 4,
        onProgress: (done, total) => progress.push([done, total]),
      });
      const whole = await upscaleTiled(image, session.infer, { scale: 2, tileSize: 64 });
      assert.ok(maxByteDifference(tiled, whole) <= 1);
      // 23 rows and 37 columns in cores of at most 8 pixels: 3 × 5 tiles.
      assert.deepEqual(progress, Array.from({ length: 15 }, (_, i) => [i + 1, 15]));
    });

    it('shows seams without padding, which is what the padding is for', async () => {
      const image = testImage(37, 23);
      const tiled = await upscaleTiled(image, session.infer, { scale: 2, tileSize: 8, padding: 0 });
      const whole = await upscaleTiled(image, session.infer, { scale: 2, tileSize: 64 });
      assert.ok(maxByteDifference(tiled, whole) > 1);
    });
  });
});
