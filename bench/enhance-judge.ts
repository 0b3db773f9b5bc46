import type { PhotoMetrics } from '../src/vision/enhance/photo-metrics.js';

/**
 * How much worse a metric may get before an image fails, and why:
 * - mean L* may fall by at most 1 unless it started above 75 (overexposed: darker is the fix), and may not end above 75
 *   having risen by more than 1 (a grey-white wash is as bad as a dark room);
 * - clipped highlights and crushed shadows may grow by at most 0.1 % of the pixels or 10 % of what there was,
 *   whichever is more: a few specular points reaching white are harmless, a window blowing out is not;
 * - the colour cast may grow by at most 1 C*ab (below a just-noticeable difference, about 2.3);
 * - colourfulness, relative to mean L*, may change by at most −15 % (washed out) or +20 % (oversaturated). Hasler and
 *   Süsstrunk's M is measured on code values, so it grows with brightness alone: a photo brightened from L* 30 to 45
 *   has half as much M again with every chroma unchanged, which is not saturation. A drop that comes with a smaller
 *   cast is the cast leaving (M counts an overall tint as colour), not a washed-out photo.
 */
export const TOLERANCE = {
  lightnessDrop: 1,
  overexposedAbove: 75,
  fractionAbsolute: 0.001,
  fractionRelative: 0.1,
  cast: 1,
  colourfulnessDrop: 0.15,
  colourfulnessRise: 0.2,
};

/**
 * Images that must improve: dark ones (mean L* below 45) must gain at least 3 L*; ones with a visible cast (above
 * 4 C*ab, nearly twice the just-noticeable difference) must lose at least 10 % of it.
 */
export const IMPROVEMENT = { darkBelow: 45, lightnessGain: 3, castAbove: 4, castDrop: 0.1 };

/** The metrics that got worse beyond tolerance, and the improvements that did not happen. */
export function judge(before: PhotoMetrics, after: PhotoMetrics): string[] {
  const problems: string[] = [];
  const grewTooMuch = (from: number, to: number) =>
    to - from > Math.max(TOLERANCE.fractionAbsolute, TOLERANCE.fractionRelative * from);
  const lightnessChange = after.meanLightness - before.meanLightness;
  if (lightnessChange < -TOLERANCE.lightnessDrop && before.meanLightness <= TOLERANCE.overexposedAbove) problems.push('darker');
  if (lightnessChange > TOLERANCE.lightnessDrop && after.meanLightness > TOLERANCE.overexposedAbove) problems.push('washed out');
  if (grewTooMuch(before.clippedHighlights, after.clippedHighlights)) problems.push('more clipped highlights');
  if (grewTooMuch(before.crushedShadows, after.crushedShadows)) problems.push('more crushed shadows');
  if (after.colourCast > before.colourCast + TOLERANCE.cast) problems.push('stronger cast');
  // An all-black result (mean L* 0) has no colourfulness per lightness to compare.
  if (before.colourfulness > 0 && after.meanLightness > 0) {
    const change = after.colourfulness / after.meanLightness / (before.colourfulness / before.meanLightness) - 1;
    const castLeft = after.colourCast < before.colourCast - TOLERANCE.cast;
    if (change < -TOLERANCE.colourfulnessDrop && !castLeft) problems.push('less colourful');
    if (change > TOLERANCE.colourfulnessRise) problems.push('oversaturated');
  }
  if (before.meanLightness < IMPROVEMENT.darkBelow && after.meanLightness < before.meanLightness + IMPROVEMENT.lightnessGain) {
    problems.push('dark image not brightened');
  }
  if (before.colourCast > IMPROVEMENT.castAbove && after.colourCast > before.colourCast * (1 - IMPROVEMENT.castDrop)) {
    problems.push('cast not reduced');
  }
  return problems;
}
