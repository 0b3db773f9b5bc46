import { clipParameters } from './clip.js';
import { vanishingPointOf, type PinholeCamera } from './camera.js';
import { segmentLength, type LineSegment } from './segments.js';
import { segmentTolerance, vanishingErrors } from './vanishing-points.js';
import { column, type Vec3 } from './vec3.js';

/**
 * Per-pixel surface orientation on a coarse grid: the world axis normal to the surface (0: X, a left or right wall;
 * 1: Y, a front or back wall; 2: Z, floor, ceiling or any horizontal top), or −1 where the lines say nothing.
 */
export interface OrientationMap {
  width: number;
  height: number;
  /** Grid pixels per image pixel. */
  scale: number;
  orientation: Int8Array;
}

export interface OrientationMapOptions {
  /** Longer side of the grid. Default 160. */
  gridSize?: number;
  /** Segments shorter than this (grid pixels) do not sweep; they still block. Default 3. */
  minSweepLength?: number;
}

/**
 * The orientation map of Lee, Hebert and Kanade (2009): a segment of direction i moved toward (and away from) the
 * vanishing point of direction j, always pointing at its own vanishing point, sweeps a region that could be a plane
 * spanned by i and j; it stops where it would cross a segment of the third direction k, which such a plane cannot
 * contain. A pixel swept both by i-segments moving along j and by j-segments moving along i gets orientation k; a
 * pixel with two such claims or none stays unknown.
 */
export function orientationMap(
  segments: readonly LineSegment[],
  assignment: Int8Array,
  camera: PinholeCamera,
  options: OrientationMapOptions = {},
): OrientationMap {
  const gridSize = options.gridSize ?? 160;
  const scale = gridSize / Math.max(camera.width, camera.height);
  const width = Math.max(1, Math.round(camera.width * scale));
  const height = Math.max(1, Math.round(camera.height * scale));
  const minSweep = options.minSweepLength ?? 3;
  const vps = [0, 1, 2].map((k) => {
    const v = vanishingPointOf(camera, column(camera.rotation, k as 0 | 1 | 2));
    return [v[0] * scale, v[1] * scale, v[2]] as Vec3;
  });

  const families: LineSegment[][] = [[], [], []];
  segments.forEach((s, i) => {
    const k = assignment[i]!;
    if (k < 0) return;
    // A segment that points at two vanishing points (a line through both, e.g. near-vertical and toward a
    // vanishing point below the image) would sweep and block for the wrong family.
    const errors = vanishingErrors(s, camera);
    const tolerance = segmentTolerance(segmentLength(s));
    if (errors.filter((e) => e < tolerance * 1.5).length > 1) return;
    families[k]!.push({ x0: s.x0 * scale, y0: s.y0 * scale, x1: s.x1 * scale, y1: s.y1 * scale, score: s.score });
  });
  const blockers = families.map((family) => {
    const raster = new Uint8Array(width * height);
    for (const s of family) drawSegment(raster, width, height, s.x0, s.y0, s.x1, s.y1, 0);
    return raster;
  });

  // sweeps[i][j]: swept by i-segments moving along j.
  const sweeps: Uint8Array[][] = [0, 1, 2].map(() => [0, 1, 2].map(() => new Uint8Array(width * height)));
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      if (i === j) continue;
      const k = 3 - i - j;
      for (const s of families[i]!) {
        if (Math.hypot(s.x1 - s.x0, s.y1 - s.y0) < minSweep) continue;
        for (const sense of [1, -1]) sweep(s, vps[i]!, vps[j]!, sense, blockers[k]!, sweeps[i]![j]!, width, height);
      }
    }
  }
  const orientation = new Int8Array(width * height).fill(-1);
  for (let p = 0; p < orientation.length; p++) {
    let found = -1;
    let claims = 0;
    for (let k = 0; k < 3; k++) {
      const i = (k + 1) % 3;
      const j = (k + 2) % 3;
      if (sweeps[i]![j]![p] && sweeps[j]![i]![p]) {
        found = k;
        claims++;
      }
    }
    if (claims === 1) orientation[p] = found;
  }
  return { width, height, scale, orientation };
}

/**
 * Moves segment s (whose line passes through its own vanishing point `own`) along the rays toward `target`
 * (sense 1) or away from it (sense −1), one grid pixel at a time, marking what it covers, until it would cross a
 * blocking pixel, reaches the target point, or leaves the grid.
 */
function sweep(
  s: LineSegment,
  own: Readonly<Vec3>,
  target: Readonly<Vec3>,
  sense: number,
  blocking: Uint8Array,
  covered: Uint8Array,
  width: number,
  height: number,
): void {
  const p: Vec3 = [s.x0, s.y0, 1];
  const q: Vec3 = [s.x1, s.y1, 1];
  // The lines along which the endpoints travel.
  const pathQ = cross3(q, target);
  const directionOf = (point: Readonly<Vec3>): [number, number] | undefined => {
    let dx: number;
    let dy: number;
    if (Math.abs(target[2]) > 1e-9) {
      dx = target[0] / target[2] - point[0];
      dy = target[1] / target[2] - point[1];
    } else {
      dx = target[0];
      dy = target[1];
    }
    const n = Math.hypot(dx, dy);
    if (n < 1e-9) return undefined;
    return [(dx / n) * sense, (dy / n) * sense];
  };
  const startDirection = directionOf(p);
  if (!startDirection) return;
  const finiteTarget = Math.abs(target[2]) > 1e-9;
  const maxSteps = 2 * (width + height);
  let px = p[0];
  let py = p[1];
  let qx = q[0];
  let qy = q[1];
  let step = 1;
  for (let n = 0; n < maxSteps; n++) {
    // Advance P by `step` along its path, then find Q on its path, on the line through P and the own point.
    const nextPx = px + startDirection[0] * step;
    const nextPy = py + startDirection[1] * step;
    if (finiteTarget && sense > 0) {
      const tx = target[0] / target[2];
      const ty = target[1] / target[2];
      // Stop short of the vanishing point, where the segment degenerates.
      if (Math.hypot(tx - nextPx, ty - nextPy) < 2) return;
    }
    const line = cross3([nextPx, nextPy, 1], own);
    const meet = cross3(line, pathQ);
    if (Math.abs(meet[2]) < 1e-12) return;
    const nextQx = meet[0] / meet[2];
    const nextQy = meet[1] / meet[2];
    const moved = Math.max(Math.hypot(nextPx - px, nextPy - py), Math.hypot(nextQx - qx, nextQy - qy));
    if (moved > 1.5 && step > 0.05) {
      step /= 2;
      continue;
    }
    if (!Number.isFinite(nextQx) || !Number.isFinite(nextQy)) return;
    const inside = (x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height;
    if (!inside(nextPx, nextPy) && !inside(nextQx, nextQy)) {
      // Both ends outside: the segment may still cross the grid, but the sweep has left the photo for good when
      // it moves away from it; keep going only while part of it is visible.
      if (!segmentCrossesGrid(nextPx, nextPy, nextQx, nextQy, width, height)) return;
    }
    // Blocked when the interior of the moved segment meets a blocking pixel.
    if (drawSegment(blocking, width, height, nextPx, nextPy, nextQx, nextQy, 1.5, true)) return;
    drawSegment(covered, width, height, nextPx, nextPy, nextQx, nextQy, 0);
    px = nextPx;
    py = nextPy;
    qx = nextQx;
    qy = nextQy;
    if (moved < 0.5) step = Math.min(step * 2, 8);
  }
}

function cross3(a: Readonly<Vec3>, b: Readonly<Vec3>): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function segmentCrossesGrid(x0: number, y0: number, x1: number, y1: number, width: number, height: number): boolean {
  return clipParameters(x0, y0, x1, y1, width, height) !== undefined;
}

/**
 * Walks the segment pixel by pixel (skipping `inset` pixels at each end). With `test`, returns whether any visited
 * pixel is set; otherwise sets them and returns false.
 */
export function drawSegment(
  raster: Uint8Array,
  width: number,
  height: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  inset: number,
  test = false,
): boolean {
  const length = Math.hypot(x1 - x0, y1 - y0);
  if (length <= 2 * inset) return false;
  // Clip to the grid first: swept segments can be far longer than the grid.
  const range = clipParameters(x0, y0, x1, y1, width - 1e-6, height - 1e-6, inset / length, 1 - inset / length);
  if (!range) return false;
  const [t0, t1] = range;
  const dx = x1 - x0;
  const dy = y1 - y0;
  const steps = Math.ceil((t1 - t0) * length * 1.5) + 1;
  for (let s = 0; s <= steps; s++) {
    const t = t0 + ((t1 - t0) * s) / steps;
    const x = Math.floor(x0 + t * dx);
    const y = Math.floor(y0 + t * dy);
    if (x < 0 || y < 0 || x >= width || y >= height) continue;
    const index = y * width + x;
    if (test) {
      if (raster[index]) return true;
    } else {
      raster[index] = 1;
    }
  }
  return false;
}
