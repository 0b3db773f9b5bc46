import type { Sky } from '../../catalog/catalog.js';
import { LINEAR_OF_BYTE, linearToSrgbByte, srgbToLinear } from '../colour.js';
import { smoothstep } from '../shaping.js';
import { hasAlpha, type RawImage } from '../raw-image.js';
import { bilinearSampler, type ColourPlanes, type PlanesSampler } from '../colour-planes.js';
import { detectSky, type SkyDetection, type SkyDetectionOptions } from './detect-sky.js';
import { renderLinearSky, type LinearSky } from './render-sky.js';
import type { SkyVerdict } from './sky-classifier.js';
import { computeSkyMatte, type SkyMatteOptions } from './sky-matte.js';

/**
 * Why the sky was or was not replaced:
 * - `replaced`: a grey (overcast) sky was found and replaced.
 * - `no_sky`: nothing at the top passes as sky, or what does is too small, too warm, outshone by the rest of the
 *   image or boxed in by straight lines (a ceiling): see `because`.
 * - `already_blue`: the sky is blue already; replacing it would only trade one blue for another.
 * - `greyscale`: a black-and-white photo; a blue sky would colourise one part of it.
 */
export type SkyReplacementReason = 'replaced' | 'no_sky' | 'already_blue' | 'greyscale';

export interface SkyReport {
  replaced: boolean;
  reason: SkyReplacementReason;
  /** Share of the image that is sky: the matte's mean when replaced, the working mask's share otherwise. */
  skyFraction: number;
  /** Mean per-pixel confidence of the detected sky (0…1). */
  meanConfidence: number;
  /** The classifier's verdict; null for greyscale input, which is not analysed. */
  verdict: SkyVerdict | null;
  /** The classifier's reason in a few words. */
  because: string;
  /** Catalog id of the sky put in (also when nothing was replaced, for the record). */
  skyId: string;
  /** Row of the output where the new sky's horizon lies; null when nothing was replaced. */
  horizonRow: number | null;
}

export interface ReplaceSkyOptions extends SkyDetectionOptions {
  matte?: SkyMatteOptions;
  /** Seed of the new sky's clouds. Default 1. */
  seed?: number;
  /** Extra red (and less blue) given to the foreground in linear light, for the sunnier light of a blue sky. Default 0.04. */
  warmth?: number;
  /** Extra brightness given to the foreground in linear light. Default 0.05. */
  brightness?: number;
  /** How much of the old sky's colour in hazy distant objects near the horizon is swapped for the new sky's. Default 0.6. */
  haze?: number;
  /** Most pixels rendered one by one for the new sky (it is enlarged bilinearly to the photo). Default 600,000. */
  skyDetailPixels?: number;
}

export interface SkyReplacement {
  image: RawImage;
  report: SkyReport;
}

/**
 * Matte value from which a pixel's departure from the old sky model starts being dropped (fully at 1): near 1 it is
 * the old sky's grain and cloud texture, lower it is the foreground share of a mixed pixel (a twig), which must stay.
 */
const OLD_TEXTURE_KEPT_BELOW = 0.7;
/** Keeps ratios to a (never quite black) sky colour finite. */
const TINY = 1e-4;
/** Height of the band around the horizon, as a fraction of the image height, in which haze is re-tinted. */
const HAZE_BAND_FRACTION = 0.05;
/** Chroma (max − min, 8-bit levels) under which every pixel of a colour image counts as grey: a greyscale photo saved as RGB. */
const GREYSCALE_CHROMA = 3 / 255;

/**
 * Replaces a grey sky with `sky` (see render-sky). The photo is left exactly as it is, and the report says why,
 * when there is no sky, the sky is already blue or the photo is greyscale. Otherwise every pixel becomes
 *   photo + α·(new − old sky) − w(α)·(photo − old sky),   w rising from 0 at α = 0.7 to 1 at α = 1,
 * in linear light, where α is the matte and "old sky" the smooth model of the sky that was there: a half-covered twig
 * swaps only the sky half of its colour (no grey halo, no lightening), while open sky becomes the new sky exactly.
 * The foreground (weight 1 − α) is then made slightly warmer and brighter, and hazy objects near the horizon take on
 * the new sky's haze. Alpha is copied unchanged; the result has the input's channels. The new sky's horizon is put at
 * the detected one (see detectSky).
 */
export function replaceSky(image: RawImage, sky: Sky, options: ReplaceSkyOptions = {}): SkyReplacement {
  const unchanged = (reason: SkyReplacementReason, detection: SkyDetection | null, because: string): SkyReplacement => ({
    image,
    report: {
      replaced: false,
      reason,
      skyFraction: detection?.classification.skyFraction ?? 0,
      meanConfidence: detection?.classification.meanConfidence ?? 0,
      verdict: detection?.classification.verdict ?? null,
      because,
      skyId: sky.id,
      horizonRow: null,
    },
  });
  if (image.channels < 3) return unchanged('greyscale', null, 'the image is greyscale');
  const detection = detectSky(image, options);
  if (isNeutralEverywhere(detection.planes)) return unchanged('greyscale', null, 'the image has no colour');
  const { classification } = detection;
  if (classification.verdict === 'blue') return unchanged('already_blue', detection, classification.because);
  if (classification.verdict === 'none') return unchanged('no_sky', detection, classification.because);

  const matte = computeSkyMatte(image, detection.planes, detection.segmentation, options.matte);
  const output = composite(image, matte, detection, sky, options);
  let matteSum = 0;
  for (let i = 0; i < matte.length; i++) matteSum += matte[i]!;
  return {
    image: output,
    report: {
      replaced: true,
      reason: 'replaced',
      skyFraction: matteSum / matte.length,
      meanConfidence: classification.meanConfidence,
      verdict: classification.verdict,
      because: classification.because,
      skyId: sky.id,
      horizonRow: detection.horizonRow,
    },
  };
}

function composite(image: RawImage, matte: Float32Array, detection: SkyDetection, sky: Sky, options: ReplaceSkyOptions): RawImage {
  const { width, height, channels, data } = image;
  const warmth = options.warmth ?? 0.04;
  const brightness = options.brightness ?? 0.05;
  const hazeStrength = options.haze ?? 0.6;
  const gain = [1 + brightness + warmth, 1 + brightness + warmth * 0.3, 1 + brightness - warmth];

  const detailPixels = options.skyDetailPixels ?? 600_000;
  const scale = Math.min(1, Math.sqrt(detailPixels / (width * height)));
  const skyWidth = Math.max(1, Math.round(width * scale));
  const skyHeight = Math.max(1, Math.round(height * scale));
  const horizonRow = detection.horizonRow;
  const newSky = renderLinearSky(sky, skyWidth, skyHeight, { horizonRow: horizonRow * (skyHeight / height), seed: options.seed ?? 1 });
  const oldSky = linearPlanes(detection.segmentation.skyModel);

  const newSkySampler = skySampler(newSky, width, height);
  const oldSkySampler = skySampler(oldSky, width, height);
  // The haze colours, old and new, are those of each sky just above the horizon, column by column.
  const hazeRow = Math.max(0, Math.min(height - 1, Math.floor(horizonRow) - 1));
  const oldHaze = new Float32Array(width * 3);
  const newHaze = new Float32Array(width * 3);
  for (let x = 0; x < width; x++) {
    oldSkySampler(x, hazeRow, oldHaze, x * 3);
    newSkySampler(x, hazeRow, newHaze, x * 3);
  }
  const hazeBand = HAZE_BAND_FRACTION * height;

  const out = new Uint8Array(data.length);
  const keepAlpha = hasAlpha(image);
  const photo = [0, 0, 0];
  const fresh = new Float32Array(3);
  const old = new Float32Array(3);
  for (let y = 0; y < height; y++) {
    const hazeWeight = hazeStrength * Math.exp(-Math.abs(y + 0.5 - horizonRow) / hazeBand);
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const offset = i * channels;
      const alpha = matte[i]!;
      for (let c = 0; c < 3; c++) photo[c] = LINEAR_OF_BYTE[data[offset + c]!]!;
      let result0 = photo[0]!, result1 = photo[1]!, result2 = photo[2]!;
      if (alpha > 0) {
        newSkySampler(x, y, fresh, 0);
        oldSkySampler(x, y, old, 0);
        const dropOldTexture = smoothstep(OLD_TEXTURE_KEPT_BELOW, 1, alpha);
        // A mixed pixel cannot hold more of the old sky than its darkest channel allows, or its foreground share
        // would be negative: where the matte says more (JPEG ringing, a dark edge) the swap would print a dark blue
        // fringe. Near α = 1 the pixel is taken for sky whatever its shade, as the old texture is dropped there.
        const possible = Math.min(photo[0]! / (old[0]! + TINY), photo[1]! / (old[1]! + TINY), photo[2]! / (old[2]! + TINY));
        const swapped = Math.min(alpha, possible) + dropOldTexture * Math.max(0, alpha - possible);
        result0 += swapped * (fresh[0]! - old[0]!) - dropOldTexture * (photo[0]! - old[0]!);
        result1 += swapped * (fresh[1]! - old[1]!) - dropOldTexture * (photo[1]! - old[1]!);
        result2 += swapped * (fresh[2]! - old[2]!) - dropOldTexture * (photo[2]! - old[2]!);
      }
      if (alpha < 1) {
        const foreground = 1 - alpha;
        if (hazeWeight > 0.01) {
          // How washed out toward the old haze colour this pixel is: the dark-channel estimate of 1 − transmission.
          const h = x * 3;
          const veil = Math.min(photo[0]! / (oldHaze[h]! + TINY), photo[1]! / (oldHaze[h + 1]! + TINY), photo[2]! / (oldHaze[h + 2]! + TINY), 1);
          const amount = foreground * hazeWeight * veil * veil;
          result0 += amount * (newHaze[h]! - oldHaze[h]!);
          result1 += amount * (newHaze[h + 1]! - oldHaze[h + 1]!);
          result2 += amount * (newHaze[h + 2]! - oldHaze[h + 2]!);
        }
        result0 *= 1 + foreground * (gain[0]! - 1);
        result1 *= 1 + foreground * (gain[1]! - 1);
        result2 *= 1 + foreground * (gain[2]! - 1);
      }
      out[offset] = linearToSrgbByte(result0);
      out[offset + 1] = linearToSrgbByte(result1);
      out[offset + 2] = linearToSrgbByte(result2);
      if (keepAlpha) out[offset + 3] = data[offset + 3]!;
    }
  }
  return { data: out, width, height, channels };
}

function isNeutralEverywhere(planes: ColourPlanes): boolean {
  for (let i = 0; i < planes.r.length; i++) {
    const max = Math.max(planes.r[i]!, planes.g[i]!, planes.b[i]!);
    const min = Math.min(planes.r[i]!, planes.g[i]!, planes.b[i]!);
    if (max - min > GREYSCALE_CHROMA) return false;
  }
  return true;
}

function linearPlanes(planes: ColourPlanes): LinearSky {
  const toLinear = (plane: Float32Array) => plane.map(srgbToLinear);
  return { width: planes.width, height: planes.height, r: toLinear(planes.r), g: toLinear(planes.g), b: toLinear(planes.b) };
}

/** Bilinear lookup of a small linear-light image at the pixels of a `width × height` one. */
function skySampler(source: LinearSky, width: number, height: number): PlanesSampler {
  return bilinearSampler([source.r, source.g, source.b], source.width, source.height, width, height);
}
