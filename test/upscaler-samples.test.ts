import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import sharp from 'sharp';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { upscaleTiled } from '../src/services/upscaling/tiled-upscale.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { UPSCALE_ADVANCED_PLANS, UPSCALE_PLANS } from '../src/services/upscaling/upscale-plans.js';

const cacheDir = process.env.ROOMCRAFT_MODEL_DIR ?? path.resolve(import.meta.dirname, '../data/models');
const registry = ModelRegistry.load();
const store = new ModelStore(cacheDir, registry);
const runtime = new ModelRuntime(store, registry);

async function rgb(file: string): Promise<RawImage> {
  const { data, info } = await sharp(file).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

/** The networks the endpoints use, each checked against the result its package ships before it is trusted. */
const usedModels = [...new Set([...Object.values(UPSCALE_PLANS), ...Object.values(UPSCALE_ADVANCED_PLANS)].flatMap((p) => p.models.map((m) => m.name)))];

describe('the upscaling networks reproduce their packages’ reference outputs', () => {
  for (const name of usedModels) {
    it(`${name} matches its shipped sample within 1/255`, async (t) => {
      if (!(await runtime.isInstalled(name))) {
        t.skip(`${name} is not installed; run roomcraft models install`);
        return;
      }
      const model = registry.model(name);
      const sample = model.samples[0]!;
      const input = await rgb(await store.pathOf(name, sample.input));
      const expected = await rgb(await store.pathOf(name, sample.output));
      const session = await runtime.imageSession(name);
      // One window holding the whole 128² fixture: the reference was made on the whole image.
      const output = await upscaleTiled(input, (tile, h, w) => session.infer(tile, h, w), { scale: model.scale!, tileSize: 512, padding: 0 });
      assert.deepEqual([output.width, output.height], [expected.width, expected.height]);
      let worst = 0;
      for (let i = 0; i < output.data.length; i++) worst = Math.max(worst, Math.abs(output.data[i]! - expected.data[i]!));
      assert.ok(worst <= 1, `${name}: largest difference ${worst}/255`);
    });
  }
});
