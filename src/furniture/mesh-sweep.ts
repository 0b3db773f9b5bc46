import { cross, loft, normalize, orientOutward, tube, type Mesh, type Vec3 } from './mesh.js';
import { circlePoints, counterClockwise, offsetOutline, type Pt } from './outline.js';

/**
 * Closed meshes swept through rings of points built from plane outlines and profiles (see outline.ts): lofts of an
 * outline at several heights, closed profiles revolved or swept around an outline, bent boards and tubes along
 * closed loops. Like mesh.ts, every function returns a watertight surface whose faces point outward.
 */

/** An outline lifted to the height z: a ring for loft(). */
export function ringAt(points: Pt[], z: number): Vec3[] {
  return points.map(([x, y]) => [x, y, z]);
}

/**
 * Sweeps a closed profile around a closed outline: `profile` points are (outward offset from the outline, z); the
 * result is a ring-shaped shell (picture frames, rims, rolled edges, bands).
 */
export function sweepOutline(outline: Pt[], profile: Pt[]): Mesh {
  const loop = counterClockwise(profile);
  const base = counterClockwise(outline);
  return loft(
    loop.map(([offset, z]) => ringAt(offsetOutline(base, offset), z)),
    true,
  );
}

/** Revolves a closed (r, z) profile about Z: a shell with a hole through it (lamp shades, rims, tori). */
export function revolveLoop(profile: Pt[], segments = 32): Mesh {
  const loop = counterClockwise(profile);
  return loft(
    loop.map(([r, z]) => ringAt(circlePoints(r, segments), z)),
    true,
  );
}

/** A small circle of (r, z) points, for tori and rolled rims. */
export function circleProfile(cr: number, cz: number, radius: number, n = 8): Pt[] {
  return circlePoints(radius, n, cr, cz);
}

/** A flat slab of an outline between z0 and z1 whose top and bottom edges are bevelled by `bevel`. */
export function slab(outline: Pt[], z0: number, z1: number, bevel = 0): Mesh {
  const base = counterClockwise(outline);
  const b = Math.min(bevel, (z1 - z0) / 2.5);
  if (b <= 0) return loft([ringAt(base, z0), ringAt(base, z1)]);
  const inner = offsetOutline(base, -b);
  return loft([ringAt(inner, z0), ringAt(base, z0 + b), ringAt(base, z1 - b), ringAt(inner, z1)]);
}

/**
 * A board of `thickness` bent along a centre line in the XY plane and standing from z0 to z1: curved chair slats,
 * top rails, bent-plywood backs, a bar stool's back band.
 */
export function sweptBoard(line: readonly Pt[], thickness: number, z0: number, z1: number): Mesh {
  const n = line.length;
  const h = thickness / 2;
  const rings = line.map(([px, py], i): Vec3[] => {
    const prev = line[Math.max(0, i - 1)]!;
    const next = line[Math.min(n - 1, i + 1)]!;
    const l = Math.hypot(next[0] - prev[0], next[1] - prev[1]) || 1;
    const nx = -(next[1] - prev[1]) / l;
    const ny = (next[0] - prev[0]) / l;
    return [
      [px + nx * h, py + ny * h, z0],
      [px - nx * h, py - ny * h, z0],
      [px - nx * h, py - ny * h, z1],
      [px + nx * h, py + ny * h, z1],
    ];
  });
  // Which way the sections wind depends on the direction the line is drawn in: the enclosed volume settles it.
  return orientOutward(loft(rings));
}

/**
 * A round tube along a closed loop of points (rims, rolled edges), without seam or caps: rings perpendicular to the
 * loop, oriented by `reference` (a direction the loop never runs along), the last joined back to the first.
 */
export function closedTube(path: Vec3[], radius: number, reference: Vec3, segments = 8): Mesh {
  const n = path.length;
  const rings: Vec3[][] = path.map((p, i) => {
    const a = path[(i - 1 + n) % n]!;
    const b = path[(i + 1) % n]!;
    const t = normalize([b[0] - a[0], b[1] - a[1], b[2] - a[2]]);
    const u = normalize(cross(t, reference));
    const v = cross(t, u);
    const ring: Vec3[] = [];
    for (let s = 0; s < segments; s++) {
      const ang = (2 * Math.PI * s) / segments;
      const c = Math.cos(ang) * radius;
      const d = Math.sin(ang) * radius;
      ring.push([p[0] + u[0] * c + v[0] * d, p[1] + u[1] * c + v[1] * d, p[2] + u[2] * c + v[2] * d]);
    }
    return ring;
  });
  // The rings wind one way or the other depending on the loop's direction about `reference`.
  return orientOutward(loft(rings, true));
}

/**
 * A closed polygon's path for tube(): corners rounded by quadratic fillets of `radius`, starting and ending in the
 * middle of the first side, so the two capped ends of the tube meet inside it.
 */
export function filletLoop(corners: readonly Vec3[], radius: number, steps = 4): Vec3[] {
  const n = corners.length;
  const lerp = (a: Vec3, b: Vec3, t: number): Vec3 => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
  const dist = (a: Vec3, b: Vec3): number => Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
  const start = lerp(corners[0]!, corners[1 % n]!, 0.5);
  const path: Vec3[] = [start];
  for (let k = 1; k <= n; k++) {
    const p = corners[k % n]!;
    const a = corners[(k - 1) % n]!;
    const b = corners[(k + 1) % n]!;
    const d = Math.min(radius, dist(a, p) * 0.45, dist(p, b) * 0.45);
    const a0 = lerp(p, a, d / dist(a, p));
    const b0 = lerp(p, b, d / dist(p, b));
    for (let s = 0; s <= steps; s++) {
      const t = s / steps;
      path.push([
        (1 - t) ** 2 * a0[0] + 2 * (1 - t) * t * p[0] + t * t * b0[0],
        (1 - t) ** 2 * a0[1] + 2 * (1 - t) * t * p[1] + t * t * b0[1],
        (1 - t) ** 2 * a0[2] + 2 * (1 - t) * t * p[2] + t * t * b0[2],
      ]);
    }
  }
  path.push([start[0], start[1], start[2]]);
  return path;
}

/** A closed loop of round tube (a frame of bent tube) through `corners`, each rounded by a fillet of `fillet`. */
export function filletedTubeLoop(corners: readonly Vec3[], radius: number, fillet: number): Mesh {
  return tube(filletLoop(corners, fillet, 4), radius, 12);
}
