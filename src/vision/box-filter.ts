/**
 * Mean over a (2·radius+1)² window, in O(1) per pixel whatever the radius (running sums, one pass per axis).
 * Windows are cut at the borders and divided by the pixels they actually hold, so edges are not darkened.
 */
export function boxMean(source: Float32Array, width: number, height: number, radius: number): Float32Array {
  const horizontal = new Float32Array(source.length);
  for (let y = 0; y < height; y++) runningMean(source, horizontal, y * width, 1, width, radius);
  const result = new Float32Array(source.length);
  for (let x = 0; x < width; x++) runningMean(horizontal, result, x, width, height, radius);
  return result;
}

function runningMean(source: Float32Array, target: Float32Array, start: number, stride: number, length: number, radius: number): void {
  // Float64 accumulator: a Float32 running sum drifts visibly over a few thousand additions and subtractions.
  let sum = 0;
  const firstEnd = Math.min(radius, length - 1);
  for (let i = 0; i <= firstEnd; i++) sum += source[start + i * stride]!;
  for (let i = 0; i < length; i++) {
    const low = Math.max(0, i - radius);
    const high = Math.min(length - 1, i + radius);
    target[start + i * stride] = sum / (high - low + 1);
    const entering = i + radius + 1;
    const leaving = i - radius;
    if (entering < length) sum += source[start + entering * stride]!;
    if (leaving >= 0) sum -= source[start + leaving * stride]!;
  }
}
