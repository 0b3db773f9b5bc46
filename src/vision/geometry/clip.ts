/**
 * Liang–Barsky: the parameter range [t0, t1] ⊆ [from, to] of the segment (x0, y0) + t·(x1 − x0, y1 − y0) that lies
 * inside [0, width] × [0, height], or undefined when none of it does.
 */
export function clipParameters(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  width: number,
  height: number,
  from = 0,
  to = 1,
): [number, number] | undefined {
  let t0 = from;
  let t1 = to;
  const dx = x1 - x0;
  const dy = y1 - y0;
  const clip = (p: number, q: number): boolean => {
    if (p === 0) return q >= 0;
    const r = q / p;
    if (p < 0) {
      if (r > t1) return false;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return false;
      if (r < t1) t1 = r;
    }
    return true;
  };
  return clip(-dx, x0) && clip(dx, width - x0) && clip(-dy, y0) && clip(dy, height - y0) ? [t0, t1] : undefined;
}
