import { canonicalRotation, type PinholeCamera } from './camera.js';
import { segmentLength, type LineSegment } from './segments.js';
import { column, cross, dot, fromColumns, mulMat, normalize, rotationFromVector, smallestEigenvector, type Mat3, type Vec3 } from './vec3.js';

/** Index of a Manhattan direction in world order: X (right), Y (forward), Z (up). */
export type Axis = 0 | 1 | 2;
export const AXIS_NAMES = ['x', 'y', 'z'] as const;

export interface VanishingPoint {
  axis: (typeof AXIS_NAMES)[number];
  /** Unit direction in camera coordinates (x right, y down, z forward); its sign follows the world axis. */
  direction: Vec3;
  /** Image point in pixels, or undefined when the direction is parallel to the image plane (the point at infinity). */
  point: [number, number] | undefined;
  /** Whether the point lies within 5 focal lengths of the principal point, i.e. is usable as a finite point. */
  finite: boolean;
  /** Segments assigned to this direction, and their total length in pixels. */
  segments: number;
  support: number;
}

export interface ManhattanOptions {
  /** Field of view across the image's longer side assumed when the lines cannot fix the focal length. Default 65°
   * (the brief's 60–65°; a phone's main camera is about 69°, a real-estate wide angle 75–95°). */
  fovPrior?: number;
  /** Spread of that prior, as the standard deviation of ln(focal). Default 0.35. */
  fovPriorSpread?: number;
  /** Range of fields of view (longer side) searched. Default [30, 120] degrees. */
  fovRange?: [number, number];
  /** Shortest segment used, as a fraction of the longer image side. Default 0.02. */
  minLengthFraction?: number;
  /** Largest tilt from the image vertical of a segment that may vote for the vertical direction. Default 30°. */
  maxVerticalTilt?: number;
  /** A known focal length in pixels: skips the search (e.g. from EXIF). Unset by default. */
  focal?: number;
  /** How many of the strongest segments (length × score) the searches use. Default 400. */
  searchSegments?: number;
}

export interface ManhattanEstimate {
  camera: PinholeCamera;
  /** `vanishing-points` when the lines fix the focal length (two finite orthogonal points), `prior` when they do not. */
  focalSource: 'vanishing-points' | 'prior' | 'given';
  /** Standard deviation of the focal length, relative (0.05 = ±5 %), from the fit's curvature. */
  focalUncertainty: number;
  /** X (right), Y (forward), Z (up), as in camera.rotation. */
  vanishingPoints: [VanishingPoint, VanishingPoint, VanishingPoint];
  /** For each input segment: the axis it converges to (0 X, 1 Y, 2 Z) or −1. */
  assignment: Int8Array;
  /** Share of the segments' total length (weighted by score) explained by the three directions. */
  explained: number;
  /** Overall confidence in [0, 1]: explained share, support of each direction, and how well the focal is fixed. */
  confidence: number;
}

interface Prepared {
  index: number;
  /** Endpoints and midpoint in normalised coordinates (centred, divided by half the longer side). */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  mx: number;
  my: number;
  halfLength: number;
  /** Homogeneous line through the endpoints, (a, b) unit. */
  line: Vec3;
  weight: number;
  /** Angular tolerance in radians, and its sine. */
  tolerance: number;
  sinTolerance: number;
}

const DEG = Math.PI / 180;

/**
 * The three orthogonal room directions from line segments, with the focal length and the rotation they imply.
 *
 * 1. Vertical: exhaustive pairs of the longest near-vertical segments propose a vanishing point; the one most segments
 *    converge to (length-weighted, kernel on the angle between a segment and the ray from its midpoint) wins and is
 *    refined by least squares. A level camera's point at infinity is always a candidate.
 * 2. Horizontal pair and focal: for each focal length on a grid, the vertical direction fixes the horizon, every other
 *    segment meets it in one horizontal direction, and the two orthogonal directions (a yaw θ and θ + 90°) are found
 *    by a histogram of those directions modulo 90°, refined on the same image-space consensus. The focal length whose
 *    best pair explains most, mildly pulled toward the prior, is kept — in one-point perspective nothing depends on
 *    it and the prior decides.
 * 3. Joint refinement of rotation and ln(focal) by robust Gauss–Newton on the assigned segments, with the prior as
 *    one more residual; its curvature gives the focal's uncertainty.
 */
export function estimateManhattanFrame(
  segments: readonly LineSegment[],
  width: number,
  height: number,
  options: ManhattanOptions = {},
): ManhattanEstimate {
  const half = Math.max(width, height) / 2;
  const cx = width / 2;
  const cy = height / 2;
  const fovPrior = (options.fovPrior ?? 65) * DEG;
  const priorFocal = 1 / Math.tan(fovPrior / 2);
  const priorSpread = options.fovPriorSpread ?? 0.35;
  const [fovMin, fovMax] = options.fovRange ?? [30, 120];
  const minLength = (options.minLengthFraction ?? 0.02) * 2 * half;
  const maxTilt = (options.maxVerticalTilt ?? 30) * DEG;

  const prepared: Prepared[] = [];
  segments.forEach((s, index) => {
    const length = segmentLength(s);
    if (length < minLength) return;
    const x0 = (s.x0 - cx) / half;
    const y0 = (s.y0 - cy) / half;
    const x1 = (s.x1 - cx) / half;
    const y1 = (s.y1 - cy) / half;
    const line = lineThrough(x0, y0, x1, y1);
    const tolerance = segmentTolerance(length);
    prepared.push({ index, x0, y0, x1, y1, mx: (x0 + x1) / 2, my: (y0 + y1) / 2, halfLength: length / half / 2, line, weight: length * Math.max(0.05, s.score), tolerance, sinTolerance: Math.sin(tolerance) });
  });
  const totalWeight = prepared.reduce((sum, p) => sum + p.weight, 0) || 1;

  // 1. The vertical vanishing point.
  // The searches look at the strongest segments only (the refinement and the assignment see them all): hundreds of
  // short texture edges add time, not precision.
  const strongest = [...prepared].sort((a, b) => b.weight - a.weight).slice(0, options.searchSegments ?? 400);
  const verticalCandidates = strongest.filter((p) => Math.atan2(Math.abs(p.x1 - p.x0), Math.abs(p.y1 - p.y0)) <= maxTilt);
  let vertical = findVertical(verticalCandidates);

  // 2. Focal length and the horizontal pair.
  const horizontalCandidates = strongest.filter((p) => consensus(p, vertical) === 0);
  let focal: number;
  let theta: number;
  let focalSource: ManhattanEstimate['focalSource'];
  if (options.focal !== undefined) {
    focal = options.focal / half;
    theta = bestPairFor(horizontalCandidates, vertical, focal).theta;
    focalSource = 'given';
  } else {
    const steps = 48;
    const results: { focal: number; score: number; theta: number }[] = [];
    for (let k = 0; k <= steps; k++) {
      const fov = (fovMin + ((fovMax - fovMin) * k) / steps) * DEG;
      const f = 1 / Math.tan(fov / 2);
      const best = bestPairFor(horizontalCandidates, vertical, f);
      results.push({ focal: f, score: best.score / totalWeight, theta: best.theta });
    }
    const penalty = (f: number) => 0.01 * ((Math.log(f) - Math.log(priorFocal)) / priorSpread) ** 2;
    let bestK = 0;
    for (let k = 1; k < results.length; k++) {
      if (results[k]!.score - penalty(results[k]!.focal) > results[bestK]!.score - penalty(results[bestK]!.focal)) bestK = k;
    }
    // The prior itself competes: in one-point perspective every focal explains the same and the grid's pick is noise.
    const atPrior = bestPairFor(horizontalCandidates, vertical, priorFocal);
    if (atPrior.score / totalWeight >= results[bestK]!.score - penalty(results[bestK]!.focal) - 1e-4) {
      focal = priorFocal;
      theta = atPrior.theta;
    } else {
      focal = results[bestK]!.focal;
      theta = results[bestK]!.theta;
    }
    focalSource = 'vanishing-points';
  }

  // 3. Joint refinement.
  let rotation = frameFrom(vertical, focal, theta);
  const fixedFocal = options.focal !== undefined;
  let uncertainty = 0;
  for (let round = 0; round < 3; round++) {
    const refined = refine(prepared, rotation, focal, fixedFocal ? undefined : { mean: Math.log(priorFocal), spread: priorSpread });
    rotation = refined.rotation;
    focal = refined.focal;
    uncertainty = refined.logFocalStd;
  }
  if (!fixedFocal) {
    // A focal no better known than the prior makes was set by the prior.
    focalSource = uncertainty > 0.5 * priorSpread ? 'prior' : 'vanishing-points';
  }
  vertical = column(rotation, 2);

  // Canonical axes: X right, Y forward, Z up.
  const directions = [0, 1, 2].map((j) => column(rotation, j as Axis));
  const canonical = canonicalRotation(directions, 2);
  const camera: PinholeCamera = { width, height, focal: focal * half, cx, cy, rotation: canonical.rotation };

  const assignment = new Int8Array(segments.length).fill(-1);
  const supports = [0, 0, 0];
  const counts = [0, 0, 0];
  let explainedWeight = 0;
  const axes = [0, 1, 2].map((j) => column(canonical.rotation, j as Axis));
  for (const p of prepared) {
    const k = assign(p, axes.map((d) => vpNormalised(d, focal)));
    if (k < 0) continue;
    assignment[p.index] = k;
    supports[k]! += p.halfLength * 2 * half;
    counts[k]! += 1;
    explainedWeight += p.weight;
  }
  const vanishingPoints = axes.map((direction, k) => {
    const v = vpNormalised(direction, focal);
    const point: [number, number] | undefined = Math.abs(v[2]) < 1e-12 ? undefined : [cx + (half * v[0]) / v[2], cy + (half * v[1]) / v[2]];
    return {
      axis: AXIS_NAMES[k]!,
      direction,
      point,
      finite: Math.abs(direction[2]) > 0.2,
      segments: counts[k]!,
      support: supports[k]!,
    };
  }) as ManhattanEstimate['vanishingPoints'];

  const explained = explainedWeight / totalWeight;
  const longSide = 2 * half;
  const supportScore = (k: number) => Math.min(1, supports[k]! / (0.75 * longSide));
  const horizontalSupport = Math.max(supportScore(0), supportScore(1));
  const weakerHorizontal = Math.min(supportScore(0), supportScore(1));
  const focalScore = focalSource === 'prior' ? 0.8 : Math.max(0.5, 1 - 2 * uncertainty);
  const confidence = clamp01((explained - 0.15) / 0.45) * Math.sqrt(supportScore(2) * horizontalSupport) * (0.7 + 0.3 * weakerHorizontal) * focalScore;
  return { camera, focalSource, focalUncertainty: uncertainty, vanishingPoints, assignment, explained, confidence };
}

function clamp01(v: number): number {
  return Math.max(0, Math.min(1, v));
}

function lineThrough(x0: number, y0: number, x1: number, y1: number): Vec3 {
  const l = cross([x0, y0, 1], [x1, y1, 1]);
  const n = Math.hypot(l[0], l[1]) || 1;
  return [l[0] / n, l[1] / n, l[2] / n];
}

/**
 * Sine of the angle between a segment and the line from its midpoint to the homogeneous point v (normalised
 * coordinates); works for points at infinity.
 */
function angleError(p: Prepared, v: Readonly<Vec3>): number {
  // Line through the midpoint and v.
  const a = p.my * v[2] - v[1];
  const b = v[0] - p.mx * v[2];
  const n = Math.hypot(a, b);
  if (n < 1e-12) return 0;
  // Distance of the endpoint from that line, over half the length.
  const d = Math.abs(a * (p.x1 - p.mx) + b * (p.y1 - p.my)) / n;
  return Math.min(1, d / p.halfLength);
}

/** Kernel consensus weight of a segment for a vanishing point: 1 on it, 0 beyond its tolerance. */
function consensus(p: Prepared, v: Readonly<Vec3>): number {
  // Ratio of sines: the angles are small enough for it to equal the ratio of angles.
  const e = angleError(p, v) / p.sinTolerance;
  return e >= 1 ? 0 : 1 - e * e;
}

function assign(p: Prepared, vps: readonly Vec3[]): number {
  let best = -1;
  let bestError = Infinity;
  vps.forEach((v, k) => {
    const e = Math.asin(angleError(p, v));
    if (e < p.tolerance * 1.5 && e < bestError) {
      bestError = e;
      best = k;
    }
  });
  return best;
}

function findVertical(candidates: readonly Prepared[]): Vec3 {
  const level: Vec3 = [0, 1, 0];
  if (candidates.length < 2) return level;
  const longest = [...candidates].sort((a, b) => b.weight - a.weight).slice(0, 60);
  const score = (v: Vec3) => candidates.reduce((sum, p) => sum + p.weight * consensus(p, v), 0);
  let best = level;
  let bestScore = score(level);
  for (let i = 0; i < longest.length; i++) {
    for (let j = i + 1; j < longest.length; j++) {
      let v = normalize(cross(longest[i]!.line, longest[j]!.line));
      if (v[0] === 0 && v[1] === 0 && v[2] === 0) continue;
      // The vertical point is far above or below the image: near-vertical lines meet far from its middle row.
      if (Math.abs(v[2]) > 1e-9 && Math.abs(v[1] / v[2]) < 1.2) continue;
      if (v[1] < 0) v = [-v[0], -v[1], -v[2]];
      const s = score(v);
      if (s > bestScore) {
        bestScore = s;
        best = v;
      }
    }
  }
  return leastSquaresPoint(candidates, best);
}

/** Re-estimates a vanishing point from the segments that agree with it: min Σ w (l·v)², |v| = 1. */
function leastSquaresPoint(candidates: readonly Prepared[], v: Vec3): Vec3 {
  const m: Mat3 = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  let used = 0;
  for (const p of candidates) {
    const w = p.weight * consensus(p, v);
    if (w <= 0) continue;
    used++;
    const l = p.line;
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) m[3 * i + j]! += w * l[i]! * l[j]!;
  }
  if (used < 2) return v;
  const refined = smallestEigenvector(m);
  return dot(refined, v) < 0 ? [-refined[0], -refined[1], -refined[2]] : refined;
}

/** Homogeneous image point (normalised coordinates) of a camera direction. */
function vpNormalised(d: Readonly<Vec3>, f: number): Vec3 {
  return [f * d[0], f * d[1], d[2]];
}

/** The world's up direction in camera coordinates from the vertical vanishing point and a focal length. */
function upFrom(vertical: Readonly<Vec3>, f: number): Vec3 {
  let u = normalize([vertical[0] / f, vertical[1] / f, vertical[2]]);
  if (u[1] > 0) u = [-u[0], -u[1], -u[2]];
  return u;
}

function horizontalBasis(up: Readonly<Vec3>): { right: Vec3; forward: Vec3 } {
  const forward = normalize([-up[2] * up[0], -up[2] * up[1], 1 - up[2] * up[2]]);
  return { right: cross(forward, up), forward };
}

/** Rotation (columns X right, Y forward, Z up in camera coordinates) for a vertical point, focal and yaw θ. */
function frameFrom(vertical: Readonly<Vec3>, f: number, theta: number): Mat3 {
  const up = upFrom(vertical, f);
  const { right, forward } = horizontalBasis(up);
  const c = Math.cos(theta);
  const s = Math.sin(theta);
  const x: Vec3 = [c * right[0] + s * forward[0], c * right[1] + s * forward[1], c * right[2] + s * forward[2]];
  const y = cross(up, x);
  return fromColumns(x, y, up);
}

/** For one focal length, the yaw θ ∈ [0, π/2) of the orthogonal horizontal pair most segments converge to. */
function bestPairFor(candidates: readonly Prepared[], vertical: Readonly<Vec3>, f: number): { theta: number; score: number } {
  const up = upFrom(vertical, f);
  const { right, forward } = horizontalBasis(up);
  const bins = 180;
  const histogram = new Float64Array(bins);
  for (const p of candidates) {
    const l = p.line;
    const n: Vec3 = [f * l[0], f * l[1], l[2]];
    const d = cross(n, up);
    const size = Math.hypot(d[0], d[1], d[2]) / Math.hypot(n[0], n[1], n[2]);
    // A segment along the horizon meets it everywhere: it says nothing about the direction.
    if (size < Math.sin(2 * DEG)) continue;
    let phi = Math.atan2(dot(d, forward), dot(d, right));
    phi = ((phi % (Math.PI / 2)) + Math.PI / 2) % (Math.PI / 2);
    histogram[Math.min(bins - 1, Math.floor((phi / (Math.PI / 2)) * bins))]! += p.weight;
  }
  const smooth = new Float64Array(bins);
  for (let i = 0; i < bins; i++) {
    smooth[i] = histogram[(i + bins - 1) % bins]! * 0.5 + histogram[i]! + histogram[(i + 1) % bins]! * 0.5;
  }
  const peaks: number[] = [];
  for (let i = 0; i < bins; i++) {
    const v = smooth[i]!;
    if (v > 0 && v >= smooth[(i + bins - 1) % bins]! && v >= smooth[(i + 1) % bins]!) peaks.push(i);
  }
  peaks.sort((a, b) => smooth[b]! - smooth[a]!);
  const score = (theta: number) => {
    const c = Math.cos(theta);
    const s = Math.sin(theta);
    const d1: Vec3 = [c * right[0] + s * forward[0], c * right[1] + s * forward[1], c * right[2] + s * forward[2]];
    const d2: Vec3 = [-s * right[0] + c * forward[0], -s * right[1] + c * forward[1], -s * right[2] + c * forward[2]];
    const v1 = vpNormalised(d1, f);
    const v2 = vpNormalised(d2, f);
    let total = 0;
    for (const p of candidates) total += p.weight * Math.max(consensus(p, v1), consensus(p, v2));
    return total;
  };
  let best = { theta: Math.PI / 4, score: -1 };
  for (const peak of peaks.slice(0, 3)) {
    let centre = ((peak + 0.5) / bins) * (Math.PI / 2);
    let centreScore = score(centre);
    for (const step of [0.25 * DEG, 0.05 * DEG]) {
      for (let k = -4; k <= 4; k++) {
        if (k === 0) continue;
        const t = centre + k * step;
        const s = score(t);
        if (s > centreScore) {
          centreScore = s;
          centre = t;
        }
      }
    }
    if (centreScore > best.score) best = { theta: centre, score: centreScore };
  }
  if (best.score < 0) best = { theta: 0, score: score(0) };
  return best;
}

/**
 * Robust Gauss–Newton over a rotation increment and ln(focal): each segment's residual is the sine of its angle to
 * the ray toward its vanishing point, over its tolerance, with Cauchy weights; the prior on ln(focal) is one more
 * residual. Segments are reassigned to their nearest direction first.
 */
function refine(
  prepared: readonly Prepared[],
  rotation: Mat3,
  focal: number,
  prior: { mean: number; spread: number } | undefined,
): { rotation: Mat3; focal: number; logFocalStd: number } {
  const vps = (r: Mat3, f: number) => [0, 1, 2].map((j) => vpNormalised(column(r, j as Axis), f));
  const current = vps(rotation, focal);
  const members: { p: Prepared; k: number }[] = [];
  for (const p of prepared) {
    const k = assign(p, current);
    if (k >= 0) members.push({ p, k });
  }
  if (members.length < 3) return { rotation, focal, logFocalStd: prior?.spread ?? 0 };
  const parameters = prior ? 4 : 3;
  const residuals = (r: Mat3, f: number): number[] => {
    const v = vps(r, f);
    return members.map(({ p, k }) => angleError(p, v[k]!) / Math.sin(p.tolerance));
  };
  const withDelta = (delta: readonly number[]): { r: Mat3; f: number } => ({
    r: mulMat(rotationFromVector([delta[0]!, delta[1]!, delta[2]!]), rotation),
    f: prior ? focal * Math.exp(delta[3]!) : focal,
  });
  let logFocalStd = prior?.spread ?? 0;
  for (let iteration = 0; iteration < 8; iteration++) {
    const base = residuals(rotation, focal);
    const weights = base.map((r, i) => members[i]!.p.weight / (1 + r * r));
    const h = 1e-6;
    const jacobian: number[][] = [];
    for (let q = 0; q < parameters; q++) {
      const delta = [0, 0, 0, 0];
      delta[q] = h;
      const moved = withDelta(delta);
      const r = residuals(moved.r, moved.f);
      jacobian.push(r.map((value, i) => (value - base[i]!) / h));
    }
    // Normal equations JᵀWJ δ = −JᵀW r, weights normalised so that the prior keeps its meaning.
    const weightSum = weights.reduce((s, w) => s + w, 0);
    // Residuals are in units of each segment's tolerance; their actual spread (at least a quarter of it) sets how
    // much the data say against the prior.
    const spread = Math.max(0.0625, weights.reduce((s, w, i) => s + w * base[i]! * base[i]!, 0) / weightSum);
    const normaliser = members.length / weightSum / spread;
    const a = Array.from({ length: parameters }, () => new Array<number>(parameters).fill(0));
    const g = new Array<number>(parameters).fill(0);
    for (let i = 0; i < base.length; i++) {
      const w = weights[i]! * normaliser;
      for (let q = 0; q < parameters; q++) {
        g[q]! += w * jacobian[q]![i]! * base[i]!;
        for (let t = 0; t < parameters; t++) a[q]![t]! += w * jacobian[q]![i]! * jacobian[t]![i]!;
      }
    }
    if (prior) {
      // Residual (ln f − mean) / spread; its derivative by δ₃ is 1 / spread.
      const r = (Math.log(focal) - prior.mean) / prior.spread;
      g[3]! += r / prior.spread;
      a[3]![3]! += 1 / (prior.spread * prior.spread);
    }
    for (let q = 0; q < parameters; q++) a[q]![q]! *= 1.0001;
    const step = solve(a, g.map((v) => -v));
    if (!step) break;
    if (prior) {
      // Var(ln f) from the inverse normal matrix, with the residuals' actual spread as their variance.
      const inverse = invert(a);
      if (inverse) logFocalStd = Math.sqrt(Math.max(0, inverse[3]![3]!));
      // Keep the focal within a sane range even if the data pull it away.
      step[3] = Math.max(-0.3, Math.min(0.3, step[3]!));
    }
    const moved = withDelta([...step, 0]);
    rotation = orthonormal(moved.r);
    focal = Math.min(8, Math.max(0.25, moved.f));
    if (Math.hypot(...step) < 1e-7) break;
  }
  return { rotation, focal, logFocalStd };
}

function orthonormal(r: Mat3): Mat3 {
  const x = normalize(column(r, 0));
  const z0 = column(r, 2);
  const y = normalize(cross(z0, x));
  const z = cross(x, y);
  return fromColumns(x, y, z);
}

function solve(a: number[][], b: number[]): number[] | undefined {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    if (Math.abs(m[pivot]![c]!) < 1e-14) return undefined;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const factor = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= factor * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

function invert(a: number[][]): number[][] | undefined {
  const n = a.length;
  const columns: number[][] = [];
  for (let j = 0; j < n; j++) {
    const e = new Array<number>(n).fill(0);
    e[j] = 1;
    const x = solve(a, e);
    if (!x) return undefined;
    columns.push(x);
  }
  return a.map((_, i) => columns.map((c) => c[i]!));
}

/**
 * Angle (radians) between a segment and the ray from its midpoint to each of the camera's three vanishing points, in
 * world axis order.
 */
export function vanishingErrors(s: LineSegment, camera: PinholeCamera): [number, number, number] {
  const length = segmentLength(s);
  const mx = (s.x0 + s.x1) / 2;
  const my = (s.y0 + s.y1) / 2;
  return [0, 1, 2].map((k) => {
    const d = column(camera.rotation, k as Axis);
    const v: Vec3 = [camera.focal * d[0] + camera.cx * d[2], camera.focal * d[1] + camera.cy * d[2], d[2]];
    const a = my * v[2] - v[1];
    const b = v[0] - mx * v[2];
    const n = Math.hypot(a, b);
    if (n < 1e-12 || length === 0) return 0;
    const distance = Math.abs(a * (s.x1 - mx) + b * (s.y1 - my)) / n;
    return Math.asin(Math.min(1, distance / (length / 2)));
  }) as [number, number, number];
}

/** The angular tolerance (radians) of a segment of this length in pixels, as the estimator uses it. */
export function segmentTolerance(length: number): number {
  return Math.max(1.25 * DEG, Math.min(4 * DEG, 2 / length));
}
