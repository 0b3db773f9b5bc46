import { boxMean } from './box-filter.js';

/** The guided filter's local linear model, averaged over windows: filtered = scale · guide + offset. */
export interface GuidedCoefficients {
  scale: Float32Array;
  offset: Float32Array;
}

/**
 * Coefficients of the self-guided filter (He, Sun & Tang): in each window the output is a linear function of the
 * guide, close to 1·guide where the window's variance is well above `epsilon` (an edge, kept) and close to its mean
 * where it is below (texture, smoothed). Returned rather than the filtered plane so that the model can be computed
 * at low resolution and evaluated against the full-resolution guide (the fast guided filter).
 */
export function selfGuidedCoefficients(
  guide: Float32Array,
  width: number,
  height: number,
  radius: number,
  epsilon: number,
): GuidedCoefficients {
  const mean = boxMean(guide, width, height, radius);
  const squares = guide.map((value) => value * value);
  const meanOfSquares = boxMean(squares, width, height, radius);
  const scale = new Float32Array(guide.length);
  const offset = new Float32Array(guide.length);
  for (let i = 0; i < guide.length; i++) {
    const variance = Math.max(0, meanOfSquares[i]! - mean[i]! * mean[i]!);
    const a = variance / (variance + epsilon);
    scale[i] = a;
    offset[i] = (1 - a) * mean[i]!;
  }
  return { scale: boxMean(scale, width, height, radius), offset: boxMean(offset, width, height, radius) };
}
