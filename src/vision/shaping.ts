/** 0 below `edge0`, 1 above `edge1`, a cubic with flat ends between: weights that switch on without a crease. */
export function smoothstep(edge0: number, edge1: number, x: number): number {
  const t = Math.min(1, Math.max(0, (x - edge0) / (edge1 - edge0)));
  return t * t * (3 - 2 * t);
}

/** max(0, x) with its corner rounded over about `width`: curves built from it have no kink that could band. */
export function softplus(x: number, width: number): number {
  return x > 20 * width ? x : width * Math.log1p(Math.exp(x / width));
}

/** The values at ranks `fractions` (each 0–1) of `values`, which is not modified. */
export function percentiles(values: Float32Array, fractions: readonly number[]): number[] {
  if (values.length === 0) return fractions.map(() => Number.NaN);
  const sorted = Float32Array.from(values).sort();
  return fractions.map((fraction) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(fraction * (sorted.length - 1))))]!);
}
