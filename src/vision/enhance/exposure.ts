import { LUMINANCE_FLOOR } from './preview.js';
import { percentiles, smoothstep, softplus } from '../shaping.js';

export interface ToneOptions {
  /** Linear luminance the median of the base layer is brought up to. Default 0.25 (L* ≈ 57): listings are shot bright. */
  targetMidtone: number;
  /** Most the exposure is raised, in stops. Default 1.5. */
  maxBrighten: number;
  /**
   * Median luminance above which a photo counts as overexposed and is brought down toward it. Default 0.6: a bright,
   * airy room keeps its key; only a washed-out one is darkened.
   */
  overexposedAbove: number;
  /** Most the exposure is lowered, in stops. Default 0.3. */
  maxDarken: number;
  /** Exposure errors smaller than this, in stops, are left alone, so that a good exposure is not touched. Default 0.2. */
  exposureDeadband: number;
  /**
   * How much the base layer's shadows are lifted: the slope removed from the tone curve in log luminance below the
   * shadow pivot (0 leaves them, 1 would flatten them). Default 0.4.
   */
  shadowLift: number;
  /** Most the shadows are lifted on top of the exposure, in stops; beyond that only noise would rise. Default 1.5. */
  maxShadowLift: number;
  /**
   * Least slope removed from the tone curve above the highlight pivot, so that windows and lamps come down and show
   * their texture (more is removed when the brightest regions would otherwise pass `whitePoint`). Default 0.3.
   */
  highlightRecovery: number;
  /** Linear luminance the 99.5th percentile of the base layer is brought to at most. Default 0.92. */
  whitePoint: number;
  /**
   * Stops between the 1st and the 99.5th percentile of the base layer below which a photo counts as flat (hazy,
   * washed out) and its tones below the target midtone are spread down toward black, for depth. Default 4.5.
   */
  minimumRange: number;
  /** Most slope added below the target midtone of a flat photo (log luminance). Default 0.3. */
  maxContrast: number;
}

export const DEFAULT_TONE: ToneOptions = {
  targetMidtone: 0.25,
  maxBrighten: 1.5,
  overexposedAbove: 0.6,
  maxDarken: 0.3,
  exposureDeadband: 0.2,
  shadowLift: 0.4,
  maxShadowLift: 1.5,
  highlightRecovery: 0.3,
  whitePoint: 0.92,
  minimumRange: 4.5,
  maxContrast: 0.3,
};

/** What the tone curve was fitted to and what it does, for the report. */
export interface TonePlan {
  /** 1st percentile, median and 99.5th percentile of the base layer, linear luminance. */
  darkLuminance: number;
  medianLuminance: number;
  brightLuminance: number;
  /** Exposure change, stops. */
  exposureStops: number;
  /** Slope added below the target of a flat photo, and removed in the shadows and in the highlights (log luminance). */
  contrast: number;
  shadowLift: number;
  highlightCompression: number;
  /** Gain as a function of base log luminance, sampled for lookup. */
  curve: GainCurve;
}

const LN2 = Math.LN2;
/** Shadows start 1.5 stops below the target midtone. */
const SHADOW_PIVOT_STOPS = 1.5;
/** Highlights start at a fixed luminance, above white walls (about 0.5–0.8), below windows and lamps. */
const HIGHLIGHT_PIVOT = Math.log(0.8);
/** Width, in log luminance, over which the curve bends at its pivots. */
const BEND = 0.15;
/** The most slope highlights may lose: beyond it windows would turn flat grey. */
const MAX_HIGHLIGHT_COMPRESSION = 0.8;
/**
 * Share of the base layer above the highlight pivot from which a photo counts as high-key (white walls and ceiling,
 * not windows in a wall), its highlight compression fading out between the two.
 */
const HIGH_KEY_SHARE = [0.15, 0.35] as const;

/**
 * Exposure and contrast of the base layer (the edge-aware local average of log luminance) from robust percentiles:
 * the median is moved toward the target midtone; a flat photo's tones below the target are spread down; shadows
 * below a pivot are lifted with a slope that saturates; highlights above a pivot are compressed so that the bright
 * percentile lands at or below the white point. Because the curve acts on the base layer, local detail (the
 * difference from the base) passes unchanged.
 */
export function planTone(baseLayer: Float32Array, options: ToneOptions): TonePlan {
  const [dark, median, bright] = percentiles(baseLayer, [0.01, 0.5, 0.995]) as [number, number, number];
  const target = Math.log(options.targetMidtone);
  const underexposure = (target - median) / LN2 - options.exposureDeadband;
  const overexposure = (median - Math.log(options.overexposedAbove)) / LN2;
  const exposureStops =
    underexposure > 0 ? Math.min(options.maxBrighten, underexposure) : overexposure > 0 ? -Math.min(options.maxDarken, overexposure) : 0;
  const exposure = exposureStops * LN2;

  // Below the target only: the walls of a washed-out room are to stay bright, its floor and furniture gain depth.
  const missingRange = options.minimumRange * LN2 - (bright - dark);
  const contrast = missingRange > 0 && target > dark ? Math.min(options.maxContrast, missingRange / (target - dark)) : 0;

  const shadowPivot = target - SHADOW_PIVOT_STOPS * LN2;
  const maxLift = options.maxShadowLift * LN2;
  const lift = (value: number) => maxLift * Math.tanh((options.shadowLift * softplus(shadowPivot - value, BEND)) / maxLift);

  // Enough compression that the bright percentile lands on the white point, and at least the recovery asked for;
  // none in a high-key photo, where the bright regions are the room itself and bringing them down only greys it.
  const brightAfter = bright + exposure + lift(bright + exposure);
  const overshoot = brightAfter - Math.log(options.whitePoint);
  const room = softplus(bright + exposure - HIGHLIGHT_PIVOT, BEND);
  const needed = overshoot > 0 && room > 0 ? overshoot / room : 0;
  const highKey = smoothstep(HIGH_KEY_SHARE[0], HIGH_KEY_SHARE[1], shareAbove(baseLayer, HIGHLIGHT_PIVOT));
  const highlightCompression = (1 - highKey) * Math.min(MAX_HIGHLIGHT_COMPRESSION, Math.max(options.highlightRecovery, needed));

  const curve = new GainCurve((base) => {
    const exposed = base + exposure;
    return (
      exposure -
      contrast * softplus(target - exposed, BEND) +
      lift(exposed) -
      highlightCompression * softplus(exposed - HIGHLIGHT_PIVOT, BEND)
    );
  });
  return {
    darkLuminance: Math.exp(dark),
    medianLuminance: Math.exp(median),
    brightLuminance: Math.exp(bright),
    exposureStops,
    contrast,
    shadowLift: options.shadowLift,
    highlightCompression,
    curve,
  };
}

function shareAbove(values: Float32Array, threshold: number): number {
  let above = 0;
  for (const value of values) if (value > threshold) above++;
  return values.length === 0 ? 0 : above / values.length;
}

/**
 * Gain as a function of base log luminance, from its logarithm, sampled on a grid fine enough (0.003 in log luminance)
 * that the per-pixel pass only interpolates: no exponential per pixel.
 */
export class GainCurve {
  static readonly LOW = Math.log(LUMINANCE_FLOOR);
  static readonly HIGH = Math.log(1 + LUMINANCE_FLOOR);
  private static readonly STEPS = 2048;
  private readonly samples: Float32Array;
  private readonly stepsPerUnit: number;

  constructor(logGainOfBase: (base: number) => number) {
    const { LOW, HIGH, STEPS } = GainCurve;
    this.stepsPerUnit = STEPS / (HIGH - LOW);
    this.samples = Float32Array.from({ length: STEPS + 2 }, (_, step) => Math.exp(logGainOfBase(LOW + step / this.stepsPerUnit)));
  }

  gainAt(base: number): number {
    const position = Math.min(GainCurve.STEPS, Math.max(0, (base - GainCurve.LOW) * this.stepsPerUnit));
    const index = position | 0;
    const t = position - index;
    return this.samples[index]! + t * (this.samples[index + 1]! - this.samples[index]!);
  }
}
