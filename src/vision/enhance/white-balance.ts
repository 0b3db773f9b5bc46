import { LUMINANCE_WEIGHTS } from '../colour.js';
import { isVisible, type Preview } from './preview.js';
import { smoothstep } from '../shaping.js';

export interface WhiteBalanceOptions {
  /** Share of a warm (amber) cast that is removed: warm light is often the look a room was lit for. Default 0.5. */
  warmCorrection: number;
  /** Share of a cool (blue) cast that is removed: shade and overcast daylight make rooms look cold. Default 0.8. */
  coolCorrection: number;
  /**
   * Share of a green or magenta cast that is removed: no light a room is lit for looks like that, but foliage and
   * lawns read as a green cast too. Default 0.6.
   */
  tintCorrection: number;
  /**
   * Largest correction, in natural-log units of a channel ratio (0.3 ≈ a 35 % change of red or blue against green):
   * beyond it a wrong estimate would do more harm than a residual cast. Default 0.3.
   */
  maxCorrection: number;
  /** Casts smaller than this (log units; 0.05 ≈ 5 %) are left alone: barely visible, and a second pass changes nothing. Default 0.05. */
  deadband: number;
}

export const DEFAULT_WHITE_BALANCE: WhiteBalanceOptions = {
  warmCorrection: 0.5,
  coolCorrection: 0.8,
  tintCorrection: 0.6,
  maxCorrection: 0.3,
  deadband: 0.05,
};

/** A cast in log-chromaticity, split along and across the daylight locus. */
export interface Cast {
  /** Along the locus, log units: positive warm (amber), negative cool (blue). */
  temperature: number;
  /** Across it, log units: positive magenta, negative green. */
  tint: number;
}

export interface WhiteBalanceEstimate extends Cast {
  /** The densest cluster of near-neutral pixels, and the share of usable preview pixels in it. */
  greyPixel: Cast & { support: number };
  /** The mean colour of edges (Minkowski norm, p = 2). */
  greyEdge: Cast;
  /** The mean colour of the pixels close to neutral. */
  nearGreyWorld: Cast;
  /** Colour of the light the estimates settle on (this estimate's temperature and tint), linear RGB, green = 1. */
  illuminant: [number, number, number];
  /** 0–1: how far the estimate is trusted, from the grey-pixel support. */
  confidence: number;
  /** Linear gains applied to red, green and blue (1, 1, 1 when nothing is corrected). */
  gains: [number, number, number];
}

/**
 * Pixels further than this from neutral (log chroma) are coloured surfaces, not neutral ones under a tinted light:
 * white bedding under uncorrected tungsten light is about 0.85 away, warm wood or a red sofa 1.3 and more.
 */
const NEUTRAL_SEARCH_RADIUS = 1;
/** Mean-shift radii, shrinking so that the estimate settles on the densest near-neutral cluster. */
const CLUSTER_RADII = [1, 0.6, 0.4, 0.3];
/** Radius (log chroma) around neutral within which pixels are averaged for the near-grey world. */
const NEAR_GREY_RADIUS = 0.3;
/** Darker preview pixels are dominated by noise and flare, whose colour says nothing about the light. */
const MIN_LUMINANCE = 0.01;
/** Support below which the estimate is not trusted at all, and above which it is trusted fully. */
const SUPPORT_UNTRUSTED = 0.03;
const SUPPORT_TRUSTED = 0.15;
/**
 * Tints (log units) over which the tint correction fades out: a green or magenta "cast" that large is the scene's
 * own colour (foliage, a lawn), since no light a room is lit by is that far off the daylight locus.
 */
const PLAUSIBLE_TINT = [0.15, 0.35] as const;
/**
 * Unit vectors in (log r/g, log b/g) of linear sRGB along the blackbody locus, which is nearly straight there (the
 * direction from D75 to CIE A at 2856 K), and across it.
 */
const WARM_AXIS = [0.536, -0.844] as const;
const MAGENTA_AXIS = [0.844, 0.536] as const;

/**
 * White balance from three estimates that fail differently, combined axis by axis by their median:
 * - grey pixels, the densest cluster of near-neutral, well-exposed pixels in log-chromaticity (found by mean shift
 *   from neutral): follows a strong cast, but a large beige or yellow wall can fool it;
 * - grey edges, the mean colour of gradients: a large wall cannot fool it, a scene of one colour can;
 * - the near-grey world, the mean of the pixels close to neutral: hard to fool, but blind to a strong cast.
 * Only part of the cast is then removed (less of a warm one, little of an implausible tint, never more than
 * `maxCorrection`), so that a room meant to be warm stays warm and a wrong estimate cannot paint the photo.
 */
export function estimateWhiteBalance(preview: Preview, options: WhiteBalanceOptions): WhiteBalanceEstimate {
  const candidates = neutralCandidates(preview);
  const { centre, support } = densestNeutralCluster(candidates);
  const greyPixel = { ...castOf(centre), support };
  const greyEdge = castOf(meanEdgeColour(preview));
  const nearGreyWorld = castOf(meanNearNeutral(candidates));
  const temperature = median(greyPixel.temperature, greyEdge.temperature, nearGreyWorld.temperature);
  const tint = median(greyPixel.tint, greyEdge.tint, nearGreyWorld.tint);
  const confidence = smoothstep(SUPPORT_UNTRUSTED, SUPPORT_TRUSTED, support);
  const logRed = temperature * WARM_AXIS[0] + tint * MAGENTA_AXIS[0];
  const logBlue = temperature * WARM_AXIS[1] + tint * MAGENTA_AXIS[1];
  const illuminant: [number, number, number] = [Math.exp(logRed), 1, Math.exp(logBlue)];
  const estimate = { temperature, tint, greyPixel, greyEdge, nearGreyWorld, illuminant, confidence };

  if (Math.hypot(temperature, tint) < options.deadband || confidence === 0) return { ...estimate, gains: [1, 1, 1] };
  const temperatureShare = temperature > 0 ? options.warmCorrection : options.coolCorrection;
  const tintShare = options.tintCorrection * (1 - smoothstep(PLAUSIBLE_TINT[0], PLAUSIBLE_TINT[1], Math.abs(tint)));
  let temperatureFix = temperature * temperatureShare * confidence;
  let tintFix = tint * tintShare * confidence;
  const fixSize = Math.hypot(temperatureFix, tintFix);
  if (fixSize > options.maxCorrection) {
    temperatureFix *= options.maxCorrection / fixSize;
    tintFix *= options.maxCorrection / fixSize;
  }
  const logRedFix = temperatureFix * WARM_AXIS[0] + tintFix * MAGENTA_AXIS[0];
  const logBlueFix = temperatureFix * WARM_AXIS[1] + tintFix * MAGENTA_AXIS[1];
  const gains: [number, number, number] = [Math.exp(-logRedFix), 1, Math.exp(-logBlueFix)];
  // Normalised so that the estimated neutral keeps its luminance: white balance must not change exposure.
  const before = luminance(illuminant);
  const after = luminance([illuminant[0] * gains[0], illuminant[1], illuminant[2] * gains[2]]);
  const scale = before / after;
  return { ...estimate, gains: [gains[0] * scale, scale, gains[2] * scale] };
}

function median(a: number, b: number, c: number): number {
  return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
}

function castOf([logRedOverGreen, logBlueOverGreen]: readonly [number, number]): Cast {
  return {
    temperature: logRedOverGreen * WARM_AXIS[0] + logBlueOverGreen * WARM_AXIS[1],
    tint: logRedOverGreen * MAGENTA_AXIS[0] + logBlueOverGreen * MAGENTA_AXIS[1],
  };
}

function isUsable(preview: Preview, i: number): boolean {
  if (preview.nearClipped[i]! > 0 || !isVisible(preview, i)) return false;
  const luminance =
    LUMINANCE_WEIGHTS[0] * preview.red[i]! + LUMINANCE_WEIGHTS[1] * preview.green[i]! + LUMINANCE_WEIGHTS[2] * preview.blue[i]!;
  return luminance >= MIN_LUMINANCE;
}

/** Grey-edge (van de Weijer et al.): log(r/g), log(b/g) of the per-channel L2 norm of gradients between usable pixels. */
function meanEdgeColour(preview: Preview): [number, number] {
  const { width, height, red, green, blue } = preview;
  let sumRed = 0;
  let sumGreen = 0;
  let sumBlue = 0;
  for (let y = 0; y < height - 1; y++) {
    for (let x = 0; x < width - 1; x++) {
      const i = y * width + x;
      if (!isUsable(preview, i) || !isUsable(preview, i + 1) || !isUsable(preview, i + width)) continue;
      sumRed += (red[i + 1]! - red[i]!) ** 2 + (red[i + width]! - red[i]!) ** 2;
      sumGreen += (green[i + 1]! - green[i]!) ** 2 + (green[i + width]! - green[i]!) ** 2;
      sumBlue += (blue[i + 1]! - blue[i]!) ** 2 + (blue[i + width]! - blue[i]!) ** 2;
    }
  }
  if (sumRed <= 0 || sumGreen <= 0 || sumBlue <= 0) return [0, 0];
  return [0.5 * Math.log(sumRed / sumGreen), 0.5 * Math.log(sumBlue / sumGreen)];
}

interface ChromaPoints {
  u: Float32Array;
  v: Float32Array;
  count: number;
  /** Well-exposed preview pixels, neutral or not: the denominator of the support. */
  usable: number;
}

function neutralCandidates(preview: Preview): ChromaPoints {
  const size = preview.width * preview.height;
  const u = new Float32Array(size);
  const v = new Float32Array(size);
  let count = 0;
  let usable = 0;
  for (let i = 0; i < size; i++) {
    if (!isUsable(preview, i)) continue;
    usable++;
    const r = preview.red[i]!;
    const g = preview.green[i]!;
    const b = preview.blue[i]!;
    if (r <= 0 || g <= 0 || b <= 0) continue;
    const pu = Math.log(r / g);
    const pv = Math.log(b / g);
    if (pu * pu + pv * pv > NEUTRAL_SEARCH_RADIUS * NEUTRAL_SEARCH_RADIUS) continue;
    u[count] = pu;
    v[count] = pv;
    count++;
  }
  return { u, v, count, usable };
}

function densestNeutralCluster(points: ChromaPoints): { centre: [number, number]; support: number } {
  let cu = 0;
  let cv = 0;
  let inside = 0;
  for (const radius of CLUSTER_RADII) {
    for (let iteration = 0; iteration < 3; iteration++) {
      let su = 0;
      let sv = 0;
      inside = 0;
      for (let i = 0; i < points.count; i++) {
        const du = points.u[i]! - cu;
        const dv = points.v[i]! - cv;
        if (du * du + dv * dv > radius * radius) continue;
        su += points.u[i]!;
        sv += points.v[i]!;
        inside++;
      }
      if (inside === 0) return { centre: [0, 0], support: 0 };
      cu = su / inside;
      cv = sv / inside;
    }
  }
  return { centre: [cu, cv], support: points.usable === 0 ? 0 : inside / points.usable };
}

function meanNearNeutral(points: ChromaPoints): [number, number] {
  let sumU = 0;
  let sumV = 0;
  let count = 0;
  for (let i = 0; i < points.count; i++) {
    const u = points.u[i]!;
    const v = points.v[i]!;
    if (u * u + v * v > NEAR_GREY_RADIUS * NEAR_GREY_RADIUS) continue;
    sumU += u;
    sumV += v;
    count++;
  }
  return count === 0 ? [0, 0] : [sumU / count, sumV / count];
}

function luminance(rgb: readonly [number, number, number]): number {
  return LUMINANCE_WEIGHTS[0] * rgb[0] + LUMINANCE_WEIGHTS[1] * rgb[1] + LUMINANCE_WEIGHTS[2] * rgb[2];
}
