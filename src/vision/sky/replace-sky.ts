import type { Sky } from '../../catalog/catalog.js';
import { LINEAR_OF_BYTE, linearToSrgbByte, srgbToLinear } from '../colour.js';
import { smoothstep } from '../shaping.js';
import type { RawImage } from '../raw-image.js';
import { bilinearSampler, type ColourPlanes, type PlanesSampler } from '../colour-planes.js';
import { detectSky, type SkyDetection, type SkyDetectionOptions } from './detect-sky.js';
import { renderLinearSky, type LinearSky } from './render-sky.js';
import type { SkyVerdict } from './sky-classifier.js';
import { computeSkyMatte, type SkyMatteOptions } from './sky-matte.js';
import { bridgeLines, hazyEdgeRows, judgeSkyline, type SkylineClarity } from './skyline.js';
import { refineSky, skyAcrossWires, skyThroughVeil } from './sky-segmentation.js';
import { classifySky } from './sky-classifier.js';

/**
 * Why the sky was or was not replaced:
 * - `replaced`: a grey (overcast) sky was found and replaced.
 * - `no_sky`: nothing at the top passes as sky, or what does is too small, too warm, outshone by the rest of the
 *   image or boxed in by straight lines (a ceiling): see `because`.
 * - `already_blue`: the sky is blue already; replacing it would only trade one blue for another.
 * - `greyscale`: a black-and-white photo; a blue sky would colourise one part of it.
 * - `sky_below_skyline`: in most columns the sky goes on below where the skyline was found (through a crown that is
 *   no veil of the open sky, see skyThroughVeil, or past lines that are no wires across it, see skyAcrossWires): only
 *   the part above could be replaced, leaving the old sky under the new one in steps.
 * - `hazy_skyline`: along a long stretch the sky fades into what is below it with no edge (fog, haze), not even a
 *   soft one with the sky's colour above it (see hazyEdgeRows): where the sky ends cannot be told, and a building
 *   hidden in the haze would be replaced.
 * The last two are sky_fix declining a part it cannot do well: the photo comes back unchanged and says why.
 */
export type SkyReplacementReason = 'replaced' | 'no_sky' | 'already_blue' | 'greyscale' | 'sky_below_skyline' | 'hazy_skyline';

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
  /** How clearly the sky ends below (see judgeSkyline); null when no grey sky was found. */
  skyline: SkylineClarity | null;
  /** Saturation of the new sky relative to the catalog's (see skySaturationFor); null when nothing was replaced. */
  skySaturation: number | null;
}

export interface ReplaceSkyOptions extends SkyDetectionOptions {
  matte?: SkyMatteOptions;
  /** Seed of the new sky's clouds. Default 1. */
  seed?: number;
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
/**
 * Chroma (max − min channel, sRGB 0…1) of the scene's mean colourfulness at which the new sky keeps the catalog's full
 * saturation. A duller, shadowless scene (overcast light drains colour) gets a paler sky in proportion, down to
 * `MIN_SKY_SATURATION`: a saturated blue over a dull street reads as pasted in.
 */
const VIVID_SCENE_CHROMA = 0.16;
const MIN_SKY_SATURATION = 0.45;
/**
 * Luma spread (98th − 2nd percentile of what is not sky) of a scene with real shadows and highlights; a flatter,
 * shadowless scene (overcast, fog) gets a paler sky in proportion, as with chroma.
 */
const CONTRASTY_SCENE_SPREAD = 0.75;
/** Sky whose median step (see judgeSkyline) is under this goes on below the skyline in most columns. */
const MIN_MEDIAN_SKYLINE_STEP = 0.1;
/** A run of weak skyline steps this long (fraction of the width) is haze hiding where the sky ends. */
const MAX_WEAK_SKYLINE_RUN = 0.1;
/** Chroma (max − min, 8-bit levels) under which every pixel of a colour image counts as grey: a greyscale photo saved as RGB. */
const GREYSCALE_CHROMA = 3 / 255;

/**
 * Replaces a grey sky with `sky` (see render-sky). The photo is left exactly as it is, and the report says why,
 * when there is no sky, the sky is already blue or the photo is greyscale. Otherwise every pixel becomes
 *   photo + α·(new − old sky) − w(α)·(photo − old sky),   w rising from 0 at α = 0.7 to 1 at α = 1,
 * in linear light, where α is the matte and "old sky" the smooth model of the sky that was there: a half-covered twig
 * swaps only the sky half of its colour (no grey halo, no lightening), while open sky becomes the new sky exactly.
 * Every pixel with α = 0 — everything that is not sky — is copied byte for byte: no warming, brightening or haze
 * re-tint of the scene, which would alter the property itself (a white wall near the horizon turned bluish). The new
 * sky is made as pale as the scene is dull (see VIVID_SCENE_CHROMA). Alpha is copied unchanged; the result has the
 * input's channels. The new sky's horizon is put at the detected one (see detectSky).
 */
export function replaceSky(image: RawImage, sky: Sky, options: ReplaceSkyOptions = {}): SkyReplacement {
  const unchanged = (
    reason: SkyReplacementReason,
    detection: SkyDetection | null,
    because: string,
    skyline: SkylineClarity | null = null,
  ): SkyReplacement => ({
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
      skyline,
      skySaturation: null,
    },
  });
  if (image.channels < 3) return unchanged('greyscale', null, 'the image is greyscale');
  let detection = detectSky(image, options);
  if (isNeutralEverywhere(detection.planes)) return unchanged('greyscale', null, 'the image has no colour');
  if (detection.classification.verdict === 'blue') return unchanged('already_blue', detection, detection.classification.because);
  let skyline = judgeSkyline(detection.planes, detection.segmentation.mask);
  const goesOnBelow = detection.classification.verdict === 'grey' && skyline.columns > 0 && skyline.medianStep < MIN_MEDIAN_SKYLINE_STEP;
  if (detection.classification.verdict === 'none' || goesOnBelow) {
    // The walk stopped at the first twig of a bare crown: the sky through the crown may make it a sky after all; or
    // at wires across the whole sky, beyond which the same sky goes on.
    const veiled = throughVeil(detection, options) ?? (goesOnBelow ? acrossWires(detection, options) : null);
    if (veiled === null) {
      if (!goesOnBelow) return unchanged('no_sky', detection, detection.classification.because);
      const because = 'the sky goes on below the skyline in most columns (bare crowns, wires): only part of it could be replaced';
      return unchanged('sky_below_skyline', detection, because, skyline);
    }
    detection = veiled.detection;
    skyline = veiled.skyline;
  }
  const { classification } = detection;
  if (skyline.longestWeakRun > MAX_WEAK_SKYLINE_RUN) {
    // Haze hides where the sky ends: the sky is what lies above the first consistent soft edge, where there is one,
    // and the sky beside is grown again from that (the sky grown beside a walk into a fogged tower is tower).
    const { walked, planes } = detection;
    const mask = walked.mask.slice();
    const reachable = walked.reachable.slice();
    const cutRows = hazyEdgeRows(planes, mask);
    for (let x = 0; x < planes.width; x++) {
      for (let y = Math.max(0, cutRows[x]!); cutRows[x]! >= 0 && y < planes.height; y++) mask[y * planes.width + x] = reachable[y * planes.width + x] = 0;
    }
    const segmentation = refineSky(planes, { ...walked, mask, reachable }, options.segmentation);
    skyline = judgeSkyline(planes, segmentation.mask, cutRows.map((row) => (row >= 0 ? 1 : 0)));
    if (skyline.longestWeakRun > MAX_WEAK_SKYLINE_RUN) {
      const because = 'the sky fades into what is below it with no edge over a long stretch (fog or haze): where it ends is unclear';
      return unchanged('hazy_skyline', detection, because, skyline);
    }
    detection = { ...detection, segmentation };
  }

  const matte = computeSkyMatte(image, detection.planes, detection.segmentation, options.matte);
  const skySaturation = skySaturationFor(detection);
  const output = composite(image, matte, detection, sky, skySaturation, options);
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
      skyline,
      skySaturation,
    },
  };
}

/**
 * The detection with the sky seen through bare crowns (see skyThroughVeil) when the whole is a grey sky (the
 * classifier's verdict on it) that ends at a clear skyline (judgeSkyline: the sky no longer goes on below it, and
 * no long stretch of it is hazy); otherwise null.
 */
function throughVeil(detection: SkyDetection, options: ReplaceSkyOptions): { detection: SkyDetection; skyline: SkylineClarity } | null {
  const { planes } = detection;
  const segmentation = skyThroughVeil(planes, detection.walked, options.segmentation);
  if (segmentation === null) return null;
  const classification = classifySky(planes, segmentation, options.classifier);
  if (classification.verdict !== 'grey') return null;
  const skyline = judgeSkyline(planes, segmentation.mask);
  if (skyline.medianStep < MIN_MEDIAN_SKYLINE_STEP || skyline.longestWeakRun > MAX_WEAK_SKYLINE_RUN) return null;
  return { detection: { ...detection, segmentation, classification }, skyline };
}

/**
 * The detection with the sky beyond the wires and signal arms across it (see skyAcrossWires), refined (the sky beside
 * them, one sky), when the whole is a grey sky that ends at a clear skyline, as throughVeil judges it; otherwise null.
 */
function acrossWires(detection: SkyDetection, options: ReplaceSkyOptions): { detection: SkyDetection; skyline: SkylineClarity } | null {
  const { planes } = detection;
  const across = skyAcrossWires(planes, detection.walked, options.segmentation);
  if (across === null) return null;
  const walked = across.segmentation;
  const classification = classifySky(planes, walked, options.classifier);
  if (classification.verdict !== 'grey') return null;
  const segmentation = refineSky(planes, walked, options.segmentation);
  // The sky ends where it ends below the wires, not at them.
  const skyline = judgeSkyline(planes, bridgeLines(segmentation.mask, across.lines, planes.width, planes.height));
  if (skyline.medianStep < MIN_MEDIAN_SKYLINE_STEP || skyline.longestWeakRun > MAX_WEAK_SKYLINE_RUN) return null;
  return { detection: { ...detection, walked, segmentation, classification }, skyline };
}

function composite(
  image: RawImage,
  matte: Float32Array,
  detection: SkyDetection,
  sky: Sky,
  saturation: number,
  options: ReplaceSkyOptions,
): RawImage {
  const { width, height, channels, data } = image;
  const detailPixels = options.skyDetailPixels ?? 600_000;
  const scale = Math.min(1, Math.sqrt(detailPixels / (width * height)));
  const skyWidth = Math.max(1, Math.round(width * scale));
  const skyHeight = Math.max(1, Math.round(height * scale));
  const horizonRow = detection.horizonRow;
  const newSky = renderLinearSky(sky, skyWidth, skyHeight, { horizonRow: horizonRow * (skyHeight / height), seed: options.seed ?? 1 });
  desaturate(newSky, saturation);
  const oldSky = linearPlanes(detection.segmentation.skyModel);
  const newSkySampler = skySampler(newSky, width, height);
  const oldSkySampler = skySampler(oldSky, width, height);

  const out = new Uint8Array(data);
  const fresh = new Float32Array(3);
  const old = new Float32Array(3);
  for (let i = 0; i < width * height; i++) {
    const alpha = matte[i]!;
    // Not sky: the bytes stay as they are (out is a copy of the input).
    if (alpha <= 0) continue;
    const x = i % width;
    const y = (i - x) / width;
    const offset = i * channels;
    const photo0 = LINEAR_OF_BYTE[data[offset]!]!;
    const photo1 = LINEAR_OF_BYTE[data[offset + 1]!]!;
    const photo2 = LINEAR_OF_BYTE[data[offset + 2]!]!;
    newSkySampler(x, y, fresh, 0);
    oldSkySampler(x, y, old, 0);
    const dropOldTexture = smoothstep(OLD_TEXTURE_KEPT_BELOW, 1, alpha);
    // A mixed pixel cannot hold more of the old sky than its darkest channel allows, or its foreground share
    // would be negative: where the matte says more (JPEG ringing, a dark edge) the swap would print a dark blue
    // fringe. Near α = 1 the pixel is taken for sky whatever its shade, as the old texture is dropped there.
    const possible = Math.min(photo0 / (old[0]! + TINY), photo1 / (old[1]! + TINY), photo2 / (old[2]! + TINY));
    const swapped = Math.min(alpha, possible) + dropOldTexture * Math.max(0, alpha - possible);
    out[offset] = linearToSrgbByte(photo0 + swapped * (fresh[0]! - old[0]!) - dropOldTexture * (photo0 - old[0]!));
    out[offset + 1] = linearToSrgbByte(photo1 + swapped * (fresh[1]! - old[1]!) - dropOldTexture * (photo1 - old[1]!));
    out[offset + 2] = linearToSrgbByte(photo2 + swapped * (fresh[2]! - old[2]!) - dropOldTexture * (photo2 - old[2]!));
  }
  return { data: out, width, height, channels };
}

/**
 * 1 for a colourful scene with real shadows, less for a dull or flat one: the smaller of the mean chroma of what is
 * not sky over VIVID_SCENE_CHROMA and its luma spread over CONTRASTY_SCENE_SPREAD, at least MIN_SKY_SATURATION.
 */
export function skySaturationFor(detection: Pick<SkyDetection, 'planes' | 'segmentation'>): number {
  const { planes, segmentation } = detection;
  let chroma = 0;
  const lumas: number[] = [];
  for (let i = 0; i < segmentation.mask.length; i++) {
    if (segmentation.mask[i]) continue;
    chroma += Math.max(planes.r[i]!, planes.g[i]!, planes.b[i]!) - Math.min(planes.r[i]!, planes.g[i]!, planes.b[i]!);
    lumas.push(0.299 * planes.r[i]! + 0.587 * planes.g[i]! + 0.114 * planes.b[i]!);
  }
  if (lumas.length === 0) return 1;
  lumas.sort((a, b) => a - b);
  const spread = lumas[Math.floor(0.98 * (lumas.length - 1))]! - lumas[Math.floor(0.02 * (lumas.length - 1))]!;
  const vividness = chroma / lumas.length / VIVID_SCENE_CHROMA;
  return Math.min(1, Math.max(MIN_SKY_SATURATION, Math.min(vividness, spread / CONTRASTY_SCENE_SPREAD)));
}

/** Moves each pixel toward its own luminance (linear light), keeping brightness: a paler sky of the same light. */
function desaturate(sky: LinearSky, saturation: number): void {
  if (saturation >= 1) return;
  for (let i = 0; i < sky.r.length; i++) {
    const y = 0.2126 * sky.r[i]! + 0.7152 * sky.g[i]! + 0.0722 * sky.b[i]!;
    sky.r[i] = y + (sky.r[i]! - y) * saturation;
    sky.g[i] = y + (sky.g[i]! - y) * saturation;
    sky.b[i] = y + (sky.b[i]! - y) * saturation;
  }
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
