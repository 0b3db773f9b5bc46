/** Order statistics of samples; the arrays passed in are reordered (sorted) in place. */

/** The median (upper median for even counts); NaN for no samples. */
export function median(values: Float32Array): number {
  return quantile(values, 0.5);
}

/** The q-quantile (nearest rank) of the samples; NaN for no samples. */
export function quantile(values: Float32Array, q: number): number {
  if (values.length === 0) return NaN;
  values.sort();
  return values[Math.min(values.length - 1, Math.max(0, Math.floor(q * values.length)))]!;
}
