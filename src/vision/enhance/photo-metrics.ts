import type { RawImage } from '../raw-image.js';
import { labOfLinearRgb, LINEAR_OF_BYTE, lightnessOfLuminance, type Lab } from '../colour.js';

/** Measures of how a photo looks, to compare an image before and after enhancement. */
export interface PhotoMetrics {
  /** Mean CIE L* (0 black – 100 white). */
  meanLightness: number;
  /** Share of pixels with some colour channel at 254 or 255: blown highlights. */
  clippedHighlights: number;
  /** Share of pixels whose Rec. 709 luma is 2 codes or less: crushed shadows. */
  crushedShadows: number;
  /**
   * Chroma C*ab of the mean (a*, b*) over the near-neutral pixels, each pixel's a* and b* first scaled to L* = 50
   * (× 66 / (L* + 16)): how far, and in one direction, the greys of the scene are from grey. The mean is taken before
   * the chroma so that beige, grey-green and grey-blue surfaces, which a room has in every direction, cancel out, and
   * a cast, which shifts them all one way, does not. The scaling makes it a measure of chromaticity: at a fixed
   * chromaticity a* and b* grow with L* + 16, so without it brightening the shadows alone would read as a cast.
   * 0 for greyscale.
   */
  colourCast: number;
  /** Hasler & Süsstrunk's colourfulness M on the 8-bit sRGB values (about 0 grey, 30 average, 60+ very colourful). */
  colourfulness: number;
}

/**
 * Near-neutral: chroma C*ab below 15 (greys, off-whites and greige; a beige sofa is 15–25, a saturated colour 40 and
 * more) and L* between 15 and 95, so that noisy blacks and clipped whites do not count.
 */
const NEAR_NEUTRAL_CHROMA = 15;
const NEAR_NEUTRAL_LIGHTNESS = [15, 95] as const;

/** Which pixels are near-neutral (1) and visible (alpha at least 128, or no alpha). */
export function nearNeutralPixels(image: RawImage): Uint8Array {
  const { data, channels } = image;
  const mask = new Uint8Array(image.width * image.height);
  if (channels < 3) return mask;
  const lab: Lab = { lightness: 0, a: 0, b: 0 };
  for (let pixel = 0, offset = 0; pixel < mask.length; pixel++, offset += channels) {
    if (channels === 4 && data[offset + 3]! < 128) continue;
    labOfLinearRgb(LINEAR_OF_BYTE[data[offset]!]!, LINEAR_OF_BYTE[data[offset + 1]!]!, LINEAR_OF_BYTE[data[offset + 2]!]!, lab);
    const neutral =
      Math.hypot(lab.a, lab.b) < NEAR_NEUTRAL_CHROMA &&
      lab.lightness >= NEAR_NEUTRAL_LIGHTNESS[0] &&
      lab.lightness <= NEAR_NEUTRAL_LIGHTNESS[1];
    if (neutral) mask[pixel] = 1;
  }
  return mask;
}

/**
 * Metrics of an edited photo against its original, the cast measured on the pixels that were near-neutral in the
 * original. Each image choosing its own would change the set with the edit: a wall whose cast is halved enters it
 * and looks like a new cast.
 */
export function comparePhotos(before: RawImage, after: RawImage): { before: PhotoMetrics; after: PhotoMetrics } {
  const neutral = nearNeutralPixels(before);
  return { before: measurePhoto(before, neutral), after: measurePhoto(after, neutral) };
}

/**
 * Metrics over the visible pixels (alpha at least 128, or all pixels when there is no alpha); the cast over the
 * pixels `neutral` marks, by default this image's own near-neutral pixels.
 */
export function measurePhoto(image: RawImage, neutral: Uint8Array = nearNeutralPixels(image)): PhotoMetrics {
  const { data, channels } = image;
  const colour = channels >= 3;
  const alphaChannel = channels === 2 || channels === 4 ? channels - 1 : -1;
  const lab: Lab = { lightness: 0, a: 0, b: 0 };
  let count = 0;
  let lightness = 0;
  let clipped = 0;
  let crushed = 0;
  let neutralCount = 0;
  let neutralA = 0;
  let neutralB = 0;
  let sumRg = 0;
  let sumYb = 0;
  let sumRg2 = 0;
  let sumYb2 = 0;
  for (let pixel = 0, offset = 0; offset < data.length; pixel++, offset += channels) {
    if (alphaChannel >= 0 && data[offset + alphaChannel]! < 128) continue;
    count++;
    if (!colour) {
      const grey = data[offset]!;
      lightness += lightnessOfLuminance(LINEAR_OF_BYTE[grey]!);
      if (grey >= 254) clipped++;
      if (grey <= 2) crushed++;
      continue;
    }
    const r = data[offset]!;
    const g = data[offset + 1]!;
    const b = data[offset + 2]!;
    labOfLinearRgb(LINEAR_OF_BYTE[r]!, LINEAR_OF_BYTE[g]!, LINEAR_OF_BYTE[b]!, lab);
    lightness += lab.lightness;
    if (r >= 254 || g >= 254 || b >= 254) clipped++;
    if (0.2126 * r + 0.7152 * g + 0.0722 * b <= 2) crushed++;
    if (neutral[pixel] === 1) {
      const toMidGrey = 66 / (lab.lightness + 16);
      neutralCount++;
      neutralA += lab.a * toMidGrey;
      neutralB += lab.b * toMidGrey;
    }
    const rg = r - g;
    const yb = 0.5 * (r + g) - b;
    sumRg += rg;
    sumYb += yb;
    sumRg2 += rg * rg;
    sumYb2 += yb * yb;
  }
  if (count === 0) return { meanLightness: 0, clippedHighlights: 0, crushedShadows: 0, colourCast: 0, colourfulness: 0 };
  const meanRg = sumRg / count;
  const meanYb = sumYb / count;
  const spread = Math.sqrt(Math.max(0, sumRg2 / count - meanRg * meanRg) + Math.max(0, sumYb2 / count - meanYb * meanYb));
  return {
    meanLightness: lightness / count,
    clippedHighlights: clipped / count,
    crushedShadows: crushed / count,
    colourCast: neutralCount === 0 ? 0 : Math.hypot(neutralA, neutralB) / neutralCount,
    colourfulness: colour ? spread + 0.3 * Math.hypot(meanRg, meanYb) : 0,
  };
}
