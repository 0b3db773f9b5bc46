/**
 * Our production path for `bench/upscale-speed.ts`: ModelRuntime's sessions (onnxruntime-node, 1 intra-op thread as
 * in the job workers) driven by upscaleTiled with its default windows, stopped once a time budget has passed.
 */
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import type { ImageModelSession } from '../src/repositories/models/onnx-runtime.js';
import {
  DEFAULT_TILE_PADDING,
  DEFAULT_TILE_SIZE,
  planAxis,
  upscaleTiled,
  type TileInference,
} from '../src/services/upscaling/tiled-upscale.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { MODELS_DIR, type TileDone } from './upscale-speed-common.js';

/** Milliseconds since the epoch, comparable between worker threads. */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

/** A session as a job worker opens it: a fresh ModelRuntime over the model cache, default options. */
export async function openSession(name: string): Promise<{ runtime: ModelRuntime; session: ImageModelSession; scale: number }> {
  const registry = ModelRegistry.load();
  const scale = registry.model(name).scale;
  if (!scale) throw new Error(`${name} has no scale`);
  const runtime = new ModelRuntime(new ModelStore(MODELS_DIR, registry), registry);
  if (!(await runtime.isInstalled(name))) throw new Error(`model ${name} is not installed: run ./bin/roomcraft models install`);
  return { runtime, session: await runtime.imageSession(name), scale };
}

/**
 * Upscales `image` with the production tiling until the last tile that finishes after `deadline` (epoch ms), or
 * the end of the image; returns every finished tile, timed from `origin` (epoch ms).
 */
export async function timedTiledUpscale(
  image: RawImage,
  infer: TileInference,
  scale: number,
  origin: number,
  deadline: number,
): Promise<TileDone[]> {
  const rows = planAxis(image.height, DEFAULT_TILE_SIZE, DEFAULT_TILE_PADDING);
  const columns = planAxis(image.width, DEFAULT_TILE_SIZE, DEFAULT_TILE_PADDING);
  const tiles: TileDone[] = [];
  const controller = new AbortController();
  try {
    await upscaleTiled(image, infer, {
      scale,
      signal: controller.signal,
      onProgress: (done) => {
        const now = epochMs();
        // upscaleTiled goes row by row, left to right.
        const row = rows[Math.floor((done - 1) / columns.length)]!;
        const column = columns[(done - 1) % columns.length]!;
        tiles.push({
          outputPixels: (row.keepEnd - row.keepStart) * (column.keepEnd - column.keepStart) * scale * scale,
          inputPixels: (row.end - row.start) * (column.end - column.start),
          at: (now - origin) / 1000,
        });
        if (now >= deadline) controller.abort();
      },
    });
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  return tiles;
}

export function tileCount(image: RawImage): number {
  return planAxis(image.height, DEFAULT_TILE_SIZE, DEFAULT_TILE_PADDING).length * planAxis(image.width, DEFAULT_TILE_SIZE, DEFAULT_TILE_PADDING).length;
}
