import { greyToRgb, splitAlpha } from '../channels.js';
import { boxMean } from '../box-filter.js';
import type { ColourPlanes } from '../colour-planes.js';
import { applyModelToImage, fitGuidedFilter } from '../guided-filter.js';
import type { RawImage } from '../raw-image.js';
import type { SkySegmentation } from './sky-segmentation.js';

export interface SkyMatteOptions {
  /** Guided-filter window radius in working pixels. Default 3: wide enough to see both a twig and the sky around it. */
  radius?: number;
  /** Guided-filter regulariser (variance, samples 0…1). Default 4e-4: edges with a contrast of a few levels still count. */
  epsilon?: number;
}

/** Matte values this close to 0 or 1 are snapped, so that solid foreground and open sky come out exactly unchanged. */
const SNAP = 0.03;

/**
 * The full-resolution sky matte (0 foreground … 1 sky). The working-resolution soft mask is refined by a colour
 * guided filter whose coefficients, fitted on the working copy, are applied to the full-resolution photo: a roof
 * edge lands where the photo's edge is, and a twig finer than a working pixel gets its own, lower, value. The result
 * is confined to the neighbourhood of the detected sky, where the linear colour model was fitted on sky at all.
 */
export function computeSkyMatte(
  image: RawImage,
  planes: ColourPlanes,
  segmentation: SkySegmentation,
  options: SkyMatteOptions = {},
): Float32Array {
  const radius = options.radius ?? 3;
  const epsilon = options.epsilon ?? 4e-4;
  const model = fitGuidedFilter(planes, segmentation.softMask, { radius, epsilon });
  // The guided filter reads three colour channels; a greyscale image is spread to three.
  const colour = image.channels >= 3 ? image : greyToRgb(splitAlpha(image).colour);
  const matte = applyModelToImage(model, colour);
  // Only the detected sky and the one working pixel around it, where its true edge lies, may take any sky: the
  // guided filter alone would give a white wall next to a white sky the sky's value, as it goes by colour.
  const reach = boxMean(Float32Array.from(segmentation.mask), planes.width, planes.height, 1);
  const { width, height } = image;
  for (let y = 0; y < height; y++) {
    const row = Math.min(planes.height - 1, Math.floor((y * planes.height) / height)) * planes.width;
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const nearSky = reach[row + Math.min(planes.width - 1, Math.floor((x * planes.width) / width))]! > 0;
      const value = nearSky ? matte[i]! : 0;
      matte[i] = value < SNAP ? 0 : value > 1 - SNAP ? 1 : value;
    }
  }
  return matte;
}
