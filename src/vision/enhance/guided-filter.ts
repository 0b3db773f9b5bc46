/**
 * Mean over the (2·radius + 1)² window around each pixel of a plane, the window cut at the borders (and the mean
 * taken over what is left, so that borders are not darkened). Two running-sum passes: O(pixels) whatever the radius.
 */
export function boxMean(plane: Float32Array, width: number, height: number, radius: number): Float32Array {
  const rows = new Float32Array(plane.length);
  for (let y = 0; y < height; y++) slideWindow(plane, rows, y * width, 1, width, radius);
  const out = new Float32Array(plane.length);
  for (let x = 0; x < width; x++) slideWindow(rows, out, x, width, height, radius);
  return out;
}

function slideWindow(source: Float32Array, target: Float32Array, start: number, stride: number, length: number, radius: number): void {
  let sum = 0;
  const firstEnd = Math.min(length - 1, radius);
  for (let i = 0; i <= firstEnd; i++) sum += source[start + i * stride]!;
  for (let i = 0; i < length; i++) {
    const low = Math.max(0, i - radius);
    const high = Math.min(length - 1, i + radius);
    target[start + i * stride] = sum / (high - low + 1);
    if (i + radius + 1 < length) sum += source[start + (i + radius + 1) * stride]!;
    if (i - radius >= 0) sum -= source[start + (i - radius) * stride]!;
  }
}

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
