import sharp from 'sharp';
import type { RawImage } from '../../vision/raw-image.js';
import { splitAlpha, joinAlpha, greyToRgb, rgbToGrey } from '../../vision/channels.js';
import type { ImageModels } from '../operations/operation.js';
import { upscaleTiled } from './tiled-upscale.js';

/** The networks an endpoint chains for one scale; their product may exceed the scale, then Lanczos brings it down. */
export interface UpscalePlan {
  models: readonly { name: string; scale: number }[];
}

export interface UpscaleOutcome {
  image: RawImage;
  result: { engine: string; scale: number; models: string[]; fallback?: string };
}

/**
 * Upscales by `scale` with the plan's networks, tile by tile. Colour goes through the networks (grey as three equal
 * channels); alpha is resampled with Lanczos-3 on its own, since the networks were trained on opaque photos.
 * When a model is missing, the whole image falls back to Lanczos-3 and the result says so.
 */
export async function upscaleWithModels(
  image: RawImage,
  scale: number,
  plan: UpscalePlan,
  models: ImageModels,
  options: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<UpscaleOutcome> {
  const missing = [];
  for (const { name } of plan.models) if (!(await models.isInstalled(name))) missing.push(name);
  if (missing.length > 0) {
    return {
      image: await lanczosResize(image, image.width * scale, image.height * scale),
      result: {
        engine: 'lanczos3',
        scale,
        models: [],
        fallback: `model ${missing.join(', ')} is not installed (run roomcraft models install)`,
      },
    };
  }
  const { colour, alpha } = splitAlpha(image);
  let rgb = colour.channels === 1 ? greyToRgb(colour) : colour;
  const passes = plan.models.length;
  for (const [index, pass] of plan.models.entries()) {
    const session = await models.imageSession(pass.name);
    rgb = await upscaleTiled(rgb, (tile, h, w) => session.infer(tile, h, w), {
      scale: pass.scale,
      ...(options.signal ? { signal: options.signal } : {}),
      onProgress: (done, total) => options.onProgress?.((index + done / total) / passes),
    });
  }
  const width = image.width * scale;
  const height = image.height * scale;
  if (rgb.width !== width || rgb.height !== height) rgb = await lanczosResize(rgb, width, height);
  const upscaledColour = colour.channels === 1 ? rgbToGrey(rgb) : rgb;
  const upscaled = alpha ? joinAlpha(upscaledColour, await lanczosResize(alpha, width, height)) : upscaledColour;
  return {
    image: upscaled,
    result: { engine: plan.models.map((m) => m.name).join(' → '), scale, models: plan.models.map((m) => m.name) },
  };
}

/** Classical Lanczos-3 resampling: the fallback engine, and the last step of a chain that overshoots its scale. */
export async function lanczosResize(image: RawImage, width: number, height: number): Promise<RawImage> {
  if (image.channels === 2) {
    // sharp widens grey+alpha to RGBA; resample the two planes as greys and put them back together.
    const { colour, alpha } = splitAlpha(image);
    return joinAlpha(await lanczosResize(colour, width, height), await lanczosResize(alpha!, width, height));
  }
  let pipeline = sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } }).resize(
    width,
    height,
    { kernel: 'lanczos3', fit: 'fill' },
  );
  // sharp writes one raw plane as sRGB unless told to keep the single band.
  if (image.channels === 1) pipeline = pipeline.extractChannel(0);
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as RawImage['channels'] };
}
