/**
 * Shared by `bench/upscale-speed.ts` and its child processes and worker threads: the benchmark image, the tile
 * accounting of a time-budgeted run, and the multiply-adds of a network.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { decodeImage } from '../src/repositories/image-codec.js';
import type { TfjsLayersGraph } from '../src/repositories/models/tfjs-layers.js';
import { greyToRgb, splitAlpha } from '../src/vision/channels.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { PHOTOS, PHOTO_LIMITS, ROOT } from './shared-photos.js';

export const MODELS_DIR = path.join(ROOT, 'data/models');
export const PHOTO = path.join(PHOTOS, 'furnished_dining_modern_05.jpg');
/** The benchmark input is this many pixels square: 1 MP. */
export const SIDE = 1000;
/** Side of the small crop both runtimes upscale first, as a warm-up and to check they compute the same thing. */
export const PROBE_SIDE = 64;

/** The centre 1000×1000 of a 2048×1332 listing photo, decoded as the service decodes uploads. */
export async function benchImage(side = SIDE): Promise<RawImage> {
  const decoded = await decodeImage(fs.readFileSync(PHOTO), PHOTO_LIMITS);
  const { colour } = splitAlpha(decoded.image);
  const rgb = colour.channels === 1 ? greyToRgb(colour) : colour;
  if (rgb.width < side || rgb.height < side) throw new Error(`${PHOTO} is smaller than ${side}×${side}`);
  return cropCentre(rgb, side);
}

export async function cropCentre(image: RawImage, side: number): Promise<RawImage> {
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .extract({ left: (image.width - side) >> 1, top: (image.height - side) >> 1, width: side, height: side })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, channels: 3 };
}

/** One network window that finished: pixels it contributed to the output, and pixels it was fed (context included). */
export interface TileDone {
  outputPixels: number;
  inputPixels: number;
  /** Seconds since the timed part of the run started. */
  at: number;
}

/** What a child process measured, as it reports it to the orchestrator. */
export interface RunResult {
  tiles: TileDone[];
  /** Seconds from the start of the timed part until the last counted tile finished. */
  seconds: number;
  /** Seconds to load (and, for ours, convert or find the cached conversion of) the model. */
  loadSeconds: number;
  /** Seconds of the warm-up on the probe crop. */
  warmupSeconds: number;
  /** Peak resident set of the whole process, in bytes (resourceUsage().maxRSS). */
  maxRssBytes: number;
  /** Free-form facts about the run (backend, threads). */
  notes: string[];
}

export function summarize(tiles: readonly TileDone[]): { outputPixels: number; inputPixels: number; seconds: number } {
  return {
    outputPixels: tiles.reduce((sum, t) => sum + t.outputPixels, 0),
    inputPixels: tiles.reduce((sum, t) => sum + t.inputPixels, 0),
    seconds: tiles.reduce((latest, t) => Math.max(latest, t.at), 0),
  };
}

export function maxRssBytes(): number {
  return process.resourceUsage().maxRSS * 1024;
}

/**
 * Multiply-adds per output pixel of a network in the framework-free graph: every convolution's kernel volume times
 * the number of positions it is applied at, which follows from the resolution of its input relative to the network's
 * input (depth-to-space and nearest upsampling raise it; strides lower it). 'same' padding assumed throughout.
 */
export function macsPerOutputPixel(graph: TfjsLayersGraph): number {
  const resolution = new Map<string, number>();
  let macsPerInputPixel = 0;
  for (const layer of graph.layers) {
    const source = layer.kind === 'input' ? undefined : 'input' in layer ? layer.input : layer.inputs[0];
    let scale = source === undefined ? 1 : (resolution.get(source) ?? 1);
    if (layer.kind === 'conv2d') {
      const [kh = 1, kw = 1, ci = 1, co = 1] = layer.kernel.shape;
      scale /= layer.strides[0];
      macsPerInputPixel += kh * kw * ci * co * scale * scale;
    } else if (layer.kind === 'depth-to-space') {
      scale *= layer.blockSize;
    } else if (layer.kind === 'upsample-nearest') {
      scale *= layer.size[0];
    }
    resolution.set(layer.name, scale);
  }
  return macsPerInputPixel / graph.scale ** 2;
}

/** The 1-minute load average: other work on the machine takes cores from the runs. */
export function loadAverage(): number {
  return os.loadavg()[0] ?? NaN;
}

/** The probe outputs of both runtimes meet here, so the UpscalerJS child can compare with ours. */
export function probePath(dir: string, model: string): string {
  return path.join(dir, `${model}.probe.bin`);
}
