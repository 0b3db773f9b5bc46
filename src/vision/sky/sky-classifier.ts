import type { ColourPlanes } from '../colour-planes.js';
import { judgeSkyline } from './skyline.js';
import { rasterizeSegments } from './straight-edges.js';
import type { SkySegmentation } from './sky-segmentation.js';

export type SkyVerdict = 'grey' | 'blue' | 'none';

/** What the classifier measured, so that a verdict can be explained and thresholds tuned on real photos. */
export interface SkyMeasurements {
  /** Fraction of the image the detected sky covers. */
  skyFraction: number;
  /** Mean per-pixel confidence inside the detected sky. */
  meanConfidence: number;
  /** Mean sRGB colour (0…1) of the upper half of the sky, where a blue sky is most saturated. */
  zenithColour: [number, number, number];
  /** B − max(R, G) of `zenithColour`: how blue the sky is, whatever its brightness. */
  blueness: number;
  /** Mean luma of the sky. */
  skyLuma: number;
  /** Luma below which 95 % of the sky pixels lie: the sky's brightest part. */
  skyBrightLuma: number;
  /** Median colour step where the sky ends in each column (see judgeSkyline): how crisp its skyline is. */
  skylineStep: number;
  /** Luma below which 95 % of the non-sky pixels lie. */
  foregroundBrightLuma: number;
  /** Share of the sky's border (image edges excluded) that runs along a detected straight line. */
  straightBorder: number;
  /** How far down (fraction of the height) the sky reaches along the left or right image edge, whichever is lower. */
  sideReach: number;
  /** Share of the bottom row that is sky (mean of the soft mask: twigs over the sky count for what they cover). */
  bottomShare: number;
}

export interface SkyClassification extends SkyMeasurements {
  verdict: SkyVerdict;
  /** Why, in a few words: the rule that decided. */
  because: string;
}

/**
 * Thresholds, each chosen on the shared test photos with a margin (see docs/benchmarks.md for the measured values):
 * - `minSkyFraction` 0.03: less is a sliver at a corner that no buyer notices and that the cues cannot vouch for.
 * - `minConfidence` 0.3: below, the "sky" is mostly pixels that only half match it (sky seen through bare trees
 *   counts at about half, hence not higher).
 * - `blueBlueness` 0.035: blue exceeding red and green by this much in the upper half of the sky is a blue sky, even a
 *   hazy or dusky one (clear skies measure 0.2–0.35, a hazy city sky 0.05, a dusk sky 0.1; overcast skies −0.01–0.01).
 * - `minBlueness` −0.025: overcast daylight is neutral to cool; a clearly warm "sky" is a ceiling under lamps or a
 *   painted surface (the lit ceilings of the shared set measure −0.07 to −0.05).
 * - `minGreyLuma` 0.55: an overcast sky worth replacing is bright; a dim grey region at the top is a ceiling or a
 *   wall in shadow.
 * - `greyBrightnessMargin` 0.0: an overcast sky is the brightest large thing outdoors (95 % of the rest is darker);
 *   indoors, windows and lamps outshine a ceiling.
 * - `crispSkylineStep` 0.17: the exception. A surface lit by the sky alone sends back at most what the sky sends it,
 *   so nothing outshines the sky's brightest part (its top 5 %); its mean may be outshone by snow on roofs or a
 *   sunlit white wall, as an overcast sky darkens toward the horizon and the frame's corners, and a white haze is
 *   dimmer than the sun on a wall. Such a sky passes when its brightest part outshines 95 % of the rest and it ends
 *   at a crisp skyline: a clear step (median over the columns, see judgeSkyline) from sky to roofs, as rooflines
 *   give. A ceiling meets walls of its own paint with a soft step of shading. Set between the interiors this
 *   exception would otherwise let through (0.026–0.121 on the shared rooms) and the outshone skies it is for
 *   (0.226–0.574 on the shared exteriors): these photos were looked at to set it. A clear sky is outshone, brightest
 *   part included, by the sunlit walls under it: a pale blue sky the white balance turned grey measures 0.850 against
 *   0.871 and stays refused. The brightness margins are thin either way (the outshone overcast skies' brightest part
 *   beats the rest by 0.020–0.025 of full scale), so this exception is the least certain of these rules.
 * - `maxBottomShare` 0.85: a sky stands on something; a "sky" along nearly all of the bottom edge is a blank wall, an
 *   overexposed frame or a white border (those measure 1.0; a photo looking up into bare branches about 0.7).
 * - `maxStraightBorder` 0.55 with `minSideReach` 0.35: a region bounded mostly by straight lines that touches the
 *   sides of the frame only near the top is a ceiling, seen between walls. A sky bounded by straight roof lines still
 *   reaches down the sides of the frame to the horizon (or to trees), unless tall buildings close it in on both
 *   sides: such a street canyon is then left alone, which is the safe error.
 */
export interface SkyClassifierOptions {
  minSkyFraction?: number;
  minConfidence?: number;
  blueBlueness?: number;
  minBlueness?: number;
  minGreyLuma?: number;
  greyBrightnessMargin?: number;
  maxBottomShare?: number;
  maxStraightBorder?: number;
  minSideReach?: number;
  crispSkylineStep?: number;
}

const DEFAULTS: Required<SkyClassifierOptions> = {
  minSkyFraction: 0.03,
  minConfidence: 0.3,
  blueBlueness: 0.035,
  minBlueness: -0.025,
  minGreyLuma: 0.55,
  greyBrightnessMargin: 0,
  maxBottomShare: 0.85,
  maxStraightBorder: 0.55,
  minSideReach: 0.35,
  crispSkylineStep: 0.17,
};

export function classifySky(planes: ColourPlanes, segmentation: SkySegmentation, options: SkyClassifierOptions = {}): SkyClassification {
  const settings = { ...DEFAULTS, ...options };
  const measured = measureSky(planes, segmentation);
  const decide = (verdict: SkyVerdict, because: string): SkyClassification => ({ ...measured, verdict, because });
  if (measured.skyFraction < settings.minSkyFraction) return decide('none', 'too little sky-like area at the top');
  if (measured.meanConfidence < settings.minConfidence) return decide('none', 'the sky-like area matches sky cues poorly');
  if (measured.bottomShare > settings.maxBottomShare) {
    return decide('none', 'the sky-like area runs along the bottom edge: a wall, a blank or a border');
  }
  if (measured.blueness >= settings.blueBlueness) return decide('blue', 'the sky is already blue');
  if (measured.blueness < settings.minBlueness) return decide('none', 'too warm for daylight: a lit ceiling or a painted surface');
  if (measured.skyLuma < settings.minGreyLuma) return decide('none', 'too dark for an overcast sky');
  let outshoneOnAverage = false;
  if (measured.skyLuma < measured.foregroundBrightLuma + settings.greyBrightnessMargin) {
    const outshone = measured.skyBrightLuma < measured.foregroundBrightLuma + settings.greyBrightnessMargin;
    if (outshone) return decide('none', 'other parts of the image are brighter than this "sky" (lit interior?)');
    if (measured.skylineStep < settings.crispSkylineStep) {
      return decide('none', 'other parts of the image are as bright as this "sky" and it ends at no crisp skyline (a lit interior, or sky seen on through bare crowns)');
    }
    outshoneOnAverage = true;
  }
  if (measured.straightBorder > settings.maxStraightBorder && measured.sideReach < settings.minSideReach) {
    return decide('none', 'boxed in by straight lines like a ceiling');
  }
  if (outshoneOnAverage) return decide('grey', 'a neutral sky over a crisp skyline, brightest at its brightest part (snow or a sunlit wall outshines its mean)');
  return decide('grey', 'a bright, neutral sky');
}

export function measureSky(planes: ColourPlanes, segmentation: SkySegmentation): SkyMeasurements {
  const { width, height, mask, confidence } = segmentation;
  const skyRows: number[] = [];
  let lumaSum = 0;
  let confidenceSum = 0;
  const foregroundLumas: number[] = [];
  for (let i = 0; i < mask.length; i++) {
    const luma = 0.299 * planes.r[i]! + 0.587 * planes.g[i]! + 0.114 * planes.b[i]!;
    if (mask[i]) {
      skyRows.push(Math.floor(i / width));
      lumaSum += luma;
      confidenceSum += confidence[i]!;
    } else {
      foregroundLumas.push(luma);
    }
  }
  const count = skyRows.length;
  const zenithColour: [number, number, number] = [0, 0, 0];
  if (count > 0) {
    const medianRow = skyRows[Math.floor(count / 2)]!; // rows are pushed in scan order, hence sorted
    let upper = 0;
    for (let i = 0; i < mask.length && Math.floor(i / width) <= medianRow; i++) {
      if (!mask[i]) continue;
      zenithColour[0] += planes.r[i]!;
      zenithColour[1] += planes.g[i]!;
      zenithColour[2] += planes.b[i]!;
      upper++;
    }
    for (let c = 0; c < 3; c++) zenithColour[c]! /= upper;
  }
  foregroundLumas.sort((a, b) => a - b);
  const skyLumas: number[] = [];
  for (let i = 0; i < mask.length; i++) if (mask[i]) skyLumas.push(0.299 * planes.r[i]! + 0.587 * planes.g[i]! + 0.114 * planes.b[i]!);
  skyLumas.sort((a, b) => a - b);
  return {
    skyFraction: count / mask.length,
    meanConfidence: count > 0 ? confidenceSum / count : 0,
    zenithColour,
    blueness: zenithColour[2] - Math.max(zenithColour[0], zenithColour[1]),
    skyLuma: count > 0 ? lumaSum / count : 0,
    skyBrightLuma: count > 0 ? skyLumas[Math.floor(0.95 * (count - 1))]! : 0,
    skylineStep: count > 0 ? judgeSkyline(planes, mask).medianStep : 0,
    foregroundBrightLuma: foregroundLumas.length > 0 ? foregroundLumas[Math.floor(0.95 * (foregroundLumas.length - 1))]! : 0,
    straightBorder: straightBorderShare(segmentation, width, height),
    sideReach: sideReachOf(mask, width, height),
    bottomShare: segmentation.softMask.subarray((height - 1) * width).reduce((sum, value) => sum + value, 0) / width,
  };
}

function sideReachOf(mask: Uint8Array, width: number, height: number): number {
  let lowest = -1;
  for (let y = 0; y < height; y++) if (mask[y * width] || mask[y * width + width - 1]) lowest = y;
  return (lowest + 1) / height;
}

function straightBorderShare(segmentation: SkySegmentation, width: number, height: number): number {
  const lines = rasterizeSegments(segmentation.barriers, width, height);
  const { mask } = segmentation;
  let border = 0;
  let straight = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      if (mask[i] || !(mask[i - 1] || mask[i + 1] || mask[i - width] || mask[i + width])) continue;
      border++;
      let onLine = false;
      for (let dy = -1; dy <= 1 && !onLine; dy++) for (let dx = -1; dx <= 1 && !onLine; dx++) onLine = lines[i + dy * width + dx] === 1;
      if (onLine) straight++;
    }
  }
  return border > 0 ? straight / border : 0;
}
