import type { RawImage } from '../../vision/raw-image.js';
import { resizeLanczos3 } from '../../vision/lanczos.js';
import { splitAlpha, joinAlpha, greyToRgb, rgbToGrey } from '../../vision/channels.js';
import type { ImageModels } from '../image-models.js';
import { upscaleTiled } from './tiled-upscale.js';
import { backProject } from './back-projection.js';
import { missingForFallback } from '../operations/model-policy.js';

/** The networks an endpoint chains for one scale; their product may exceed the scale, then Lanczos brings it down. */
export interface UpscalePlan {
  models: readonly { name: string; scale: number }[];
  /** Iterations of back-projection against the input after the networks; 0 or absent for none. */
  backProjection?: number;
}

export interface UpscaleOutcome {
  image: RawImage;
  result: { engine: string; scale: number; models: string[]; fallback?: string };
}

/**
 * Upscales by `scale` with the plan's networks, tile by tile. Colour goes through the networks (grey as three equal
 * channels); alpha is resampled with Lanczos-3 on its own, since the networks were trained on opaque photos.
 * When a model is missing, the service answers 503 unless the operator allows fallbacks (../operations/model-policy.ts);
 * then, as outside the service, the whole image falls back to Lanczos-3 and the result says so.
 */
export async function upscaleWithModels(
  image: RawImage,
  scale: number,
  plan: UpscalePlan,
  models: ImageModels,
  options: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<UpscaleOutcome> {
  // In the service a missing model is a 503 unless the operator allows fallbacks, which are then recorded.
  const missing = await missingForFallback(models, plan.models.map((m) => m.name), 'lanczos3');
  if (missing.length > 0) {
    return {
      image: resizeLanczos3(image, image.width * scale, image.height * scale),
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
  if (rgb.width !== width || rgb.height !== height) rgb = resizeLanczos3(rgb, width, height);
  if (plan.backProjection) rgb = await backProject(colour.channels === 1 ? greyToRgb(colour) : colour, rgb, plan.backProjection);
  const upscaledColour = colour.channels === 1 ? rgbToGrey(rgb) : rgb;
  const upscaled = alpha ? joinAlpha(upscaledColour, resizeLanczos3(alpha, width, height)) : upscaledColour;
  return {
    image: upscaled,
    result: {
      engine: plan.models.map((m) => m.name).join(' → ') + (plan.backProjection ? ' + back-projection' : ''),
      scale,
      models: plan.models.map((m) => m.name),
    },
  };
}
