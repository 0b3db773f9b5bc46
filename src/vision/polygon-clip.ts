/** A point's signed distance-like value against a half-plane: ≥ 0 inside. */
export type HalfPlane = (point: readonly [number, number]) => number;

/**
 * The part of a polygon inside every half-plane (Sutherland–Hodgman): the image's rectangle for a face of the room, a
 * convex outline's edges for the part of a wall a piece hides. Empty when nothing is left.
 */
export function clipPolygon(polygon: readonly (readonly [number, number])[], halfPlanes: readonly HalfPlane[]): [number, number][] {
  let out = polygon.map((p) => [p[0], p[1]] as [number, number]);
  for (const inside of halfPlanes) {
    const next: [number, number][] = [];
    for (let i = 0; i < out.length; i++) {
      const p = out[i]!;
      const q = out[(i + 1) % out.length]!;
      const dp = inside(p);
      const dq = inside(q);
      if (dp >= 0) next.push(p);
      if ((dp >= 0) !== (dq >= 0)) {
        const t = dp / (dp - dq);
        next.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
      }
    }
    out = next;
    if (out.length < 3) return [];
  }
  return out;
}

/** The half-planes of a convex polygon's edges (either winding): clipping by them keeps what lies inside it. */
export function convexHalfPlanes(convex: readonly (readonly [number, number])[]): HalfPlane[] {
  let area = 0;
  for (let i = 0; i < convex.length; i++) {
    const p = convex[i]!;
    const q = convex[(i + 1) % convex.length]!;
    area += p[0] * q[1] - q[0] * p[1];
  }
  const sign = area >= 0 ? 1 : -1;
  return convex.map((a, i) => {
    const b = convex[(i + 1) % convex.length]!;
    return (p) => sign * ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]));
  });
}
