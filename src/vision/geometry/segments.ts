/**
 * A straight line segment in image pixels. Coordinates are continuous: pixel (i, j) covers [i, i + 1) × [j, j + 1),
 * so its centre is (i + 0.5, j + 0.5) and the image centre is (width / 2, height / 2).
 */
export interface LineSegment {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** The detector's confidence in [0, 1] (M-LSD's centre score; 1 for a classical detection that passed its test). */
  score: number;
}

export function segmentLength(s: LineSegment): number {
  return Math.hypot(s.x1 - s.x0, s.y1 - s.y0);
}

/** Direction angle in [0, π): segments have no direction. */
export function segmentAngle(s: LineSegment): number {
  let a = Math.atan2(s.y1 - s.y0, s.x1 - s.x0);
  if (a < 0) a += Math.PI;
  if (a >= Math.PI) a -= Math.PI;
  return a;
}

/**
 * Merges collinear, overlapping or nearly touching segments (same line within `distance` pixels and `angleDeg`
 * degrees, gap at most `gap` pixels) into one: detectors cut long edges at occluders and noise, and the vanishing
 * point and layout code prefers one long segment to several short ones. Longest segments absorb the others.
 */
export function mergeCollinear(segments: readonly LineSegment[], options: { angleDeg?: number; distance?: number; gap?: number } = {}): LineSegment[] {
  const maxAngle = ((options.angleDeg ?? 2) * Math.PI) / 180;
  const maxDistance = options.distance ?? 1.5;
  const maxGap = options.gap ?? 6;
  const order = [...segments].sort((a, b) => segmentLength(b) - segmentLength(a));
  const merged: LineSegment[] = [];
  for (const s of order) {
    let absorbed = false;
    for (let k = 0; k < merged.length; k++) {
      const m = merged[k]!;
      const joined = tryJoin(m, s, maxAngle, maxDistance, maxGap);
      if (joined) {
        merged[k] = joined;
        absorbed = true;
        break;
      }
    }
    if (!absorbed) merged.push({ ...s });
  }
  return merged;
}

function tryJoin(m: LineSegment, s: LineSegment, maxAngle: number, maxDistance: number, maxGap: number): LineSegment | undefined {
  let d = Math.abs(segmentAngle(m) - segmentAngle(s));
  d = Math.min(d, Math.PI - d);
  if (d > maxAngle) return undefined;
  const length = segmentLength(m);
  if (length === 0) return undefined;
  const ux = (m.x1 - m.x0) / length;
  const uy = (m.y1 - m.y0) / length;
  const offset = (x: number, y: number) => Math.abs((x - m.x0) * uy - (y - m.y0) * ux);
  if (offset(s.x0, s.y0) > maxDistance || offset(s.x1, s.y1) > maxDistance) return undefined;
  const t0 = (s.x0 - m.x0) * ux + (s.y0 - m.y0) * uy;
  const t1 = (s.x1 - m.x0) * ux + (s.y1 - m.y0) * uy;
  const lo = Math.min(t0, t1);
  const hi = Math.max(t0, t1);
  if (lo > length + maxGap || hi < -maxGap) return undefined;
  const start = Math.min(0, lo);
  const end = Math.max(length, hi);
  const sLength = segmentLength(s);
  const score = (m.score * length + s.score * sLength) / (length + sLength);
  return { x0: m.x0 + ux * start, y0: m.y0 + uy * start, x1: m.x0 + ux * end, y1: m.y0 + uy * end, score };
}
