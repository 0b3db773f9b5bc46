import { cameraToWorld, worldToCamera, type PinholeCamera } from './camera.js';
import { drawSegment, type OrientationMap } from './orientation-map.js';
import { projectSegment, type RoomBox } from './room-box.js';
import { segmentLength, type LineSegment } from './segments.js';
import { segmentTolerance, vanishingErrors } from './vanishing-points.js';
import type { Vec3 } from './vec3.js';

export interface LayoutOptions {
  /** Weight of line support (covered boundary length over the image's width + height) against the orientation agreement (share of the oriented pixels). Default 0.35. */
  lineWeight?: number;
  /** Score cost of a wall corner inside the view: a corner must earn its place. Default 0.015. */
  cornerCost?: number;
  /** Expected ceiling height above the camera, in camera heights (e.g. 1.25 m above a 1.45 m camera: 0.86). Default 0.85. */
  ceilingPrior?: number;
  /** Spread of that prior, as the standard deviation of its logarithm. Default 0.45. */
  ceilingPriorSpread?: number;
  /** Weight of the ceiling prior. Default 0.05. */
  priorWeight?: number;
  /** Grid steps per parameter of the coarse search. Default 28. */
  steps?: number;
}

export interface LayoutFit {
  /** In camera heights: floor at −1. */
  box: RoomBox;
  score: number;
  /** Share of the oriented pixels whose orientation the layout's faces match. */
  orientationAgreement: number;
  /** Share of the grid with a known orientation. */
  orientedShare: number;
  /** Share of the layout's visible boundary length that lies on detected segments of the right direction. */
  lineSupport: number;
  /** Score lead over the best layout that differs visibly (a boundary 4° or more away). */
  margin: number;
  confidence: number;
}

const FAR = 1e4;
const DEG = Math.PI / 180;

interface GridRays {
  dA: Float32Array;
  dB: Float32Array;
  dU: Float32Array;
  orientation: Int8Array;
  /** Pixels with dA < 0 and with dA ≥ 0, known orientation only. */
  left: Int32Array;
  right: Int32Array;
  known: number;
}

/**
 * The box layout (floor, ceiling, left, front and right walls) that best explains the orientation map and the
 * line segments, in the manner of Hedau, Hoiem and Forsyth (2009) and Lee, Hebert and Kanade (2009): hypotheses are
 * boxes aligned with the vanishing directions, i.e. the rays from the vanishing points through the room's corners,
 * parametrised by the depression of the front wall's floor line, the elevation of its ceiling line and the azimuths
 * of the two vertical corners. Each is scored by how many oriented pixels its faces agree with plus how much of its
 * boundary lies on detected segments of the matching direction, with a weak prior on the ceiling height.
 *
 * The search is exhaustive on a grid and exact in its decomposition: pixels left of the vertical plane through the
 * forward axis see only the left wall, the front wall, floor and ceiling, so the left corner and the right corner are
 * optimised independently for each front-wall distance and ceiling height; then a local refinement.
 */
export function fitLayout(
  camera: PinholeCamera,
  segments: readonly LineSegment[],
  assignment: Int8Array,
  orientation: OrientationMap,
  options: LayoutOptions = {},
): LayoutFit {
  const lineWeight = options.lineWeight ?? 0.35;
  const cornerCost = options.cornerCost ?? 0.015;
  const ceilingPrior = Math.log(options.ceilingPrior ?? 0.85);
  const ceilingSpread = options.ceilingPriorSpread ?? 0.45;
  const priorWeight = options.priorWeight ?? 0.05;
  const steps = options.steps ?? 28;
  const rasters = familyRasters(segments, assignment, camera);
  const lineNorm = camera.width + camera.height;

  const coarse = gridRays(camera, orientation, 2);
  const fine = gridRays(camera, orientation, 1);

  // Angular extent of the view, from rays through the image border.
  let elevationMin = Infinity;
  let elevationMax = -Infinity;
  let azimuthMin = Infinity;
  let azimuthMax = -Infinity;
  const border = 24;
  for (let k = 0; k <= border; k++) {
    for (const [x, y] of [
      [(k / border) * camera.width, 0],
      [(k / border) * camera.width, camera.height],
      [0, (k / border) * camera.height],
      [camera.width, (k / border) * camera.height],
    ] as const) {
      const d = worldRay(camera, x, y);
      const horizontal = Math.hypot(d[0], d[1]);
      const elevation = Math.atan2(d[2], horizontal);
      elevationMin = Math.min(elevationMin, elevation);
      elevationMax = Math.max(elevationMax, elevation);
      const azimuth = Math.atan2(d[0], d[1]);
      azimuthMin = Math.min(azimuthMin, azimuth);
      azimuthMax = Math.max(azimuthMax, azimuth);
    }
  }
  const beyond = 8 * DEG;
  // Candidate angles: a uniform grid over the view plus the values the segments propose (a segment of the right
  // direction lying exactly on the boundary in question), so that a boundary can sit exactly on its evidence.
  const proposed = proposals(camera, segments, assignment);
  const floorRange: [number, number] = [Math.max(0.5 * DEG, -elevationMax + 0.5 * DEG), Math.min(80 * DEG, Math.max(2 * DEG, -elevationMin + beyond))];
  const ceilingRange: [number, number] = [Math.max(0.5 * DEG, elevationMin + 0.5 * DEG), Math.min(80 * DEG, Math.max(2 * DEG, elevationMax + beyond))];
  const floorAngles = candidates(spaced(floorRange[0], floorRange[1], steps), proposed.floor, floorRange);
  const ceilingAngles = candidates(spaced(ceilingRange[0], ceilingRange[1], Math.round(steps * 0.75)), proposed.ceiling, ceilingRange);
  const tanCeiling = Float64Array.from(ceilingAngles, (a) => Math.tan(a));
  // Azimuths of the corners: left negative, right positive, each with one value meaning "out of view": `beyond` past
  // the view's edge, and never on the other side of the forward axis. A view turned wholly to one side (its edge
  // short of the forward axis) shows no corner of the other side's wall, but that wall is still on its own side of
  // the camera: a corner past the axis would put it between the camera and the room, covering the whole image.
  const leftOutOfView = Math.min(-beyond, Math.max(-85 * DEG, azimuthMin - beyond));
  const rightOutOfView = Math.max(beyond, Math.min(85 * DEG, azimuthMax + beyond));
  const leftRange: [number, number] = [leftOutOfView, Math.min(-0.5 * DEG, azimuthMax)];
  const rightRange: [number, number] = [Math.max(0.5 * DEG, azimuthMin), rightOutOfView];
  const leftAngles = azimuthMin < -0.5 * DEG ? candidates(spaced(leftRange[0], leftRange[1], steps), proposed.corners, leftRange) : [leftRange[0]];
  const rightAngles = azimuthMax > 0.5 * DEG ? candidates(spaced(rightRange[0], rightRange[1], steps), proposed.corners, rightRange) : [rightRange[1]];

  const prior = (ceilingRatio: number) => {
    const z = (Math.log(ceilingRatio) - ceilingPrior) / ceilingSpread;
    return -priorWeight * z * z;
  };

  // side[f][c][m]: score of one side for front-wall floor angle f, corner angle c, ceiling angle m. Line support
  // splits exactly into a part that depends on (f, c) and one that depends on (m, c): the box is scale-free.
  const sideTables = (sideAngles: number[], sign: -1 | 1) => {
    const pixels = sign < 0 ? coarse.left : coarse.right;
    const ceilingParts = ceilingAngles.map((ceilingAngle) =>
      sideAngles.map((cornerAngle) => ceilingLineSupport(camera, rasters, Math.tan(cornerAngle), Math.tan(ceilingAngle)) / lineNorm),
    );
    const table: Float64Array[][] = [];
    for (const floorAngle of floorAngles) {
      const front = 1 / Math.tan(floorAngle);
      const row: Float64Array[] = [];
      sideAngles.forEach((cornerAngle, c) => {
        const side = front * Math.tan(cornerAngle);
        const scores = orientationScores(coarse, pixels, front, side, tanCeiling);
        const floorPart = floorLineSupport(camera, rasters, Math.tan(cornerAngle), Math.tan(floorAngle)) / lineNorm;
        const cost = cornerAngle > azimuthMin && cornerAngle < azimuthMax ? cornerCost : 0;
        for (let m = 0; m < scores.length; m++) {
          scores[m] = scores[m]! / Math.max(1, coarse.known) + lineWeight * (floorPart + ceilingParts[m]![c]!) - cost;
        }
        row.push(scores);
      });
      table.push(row);
    }
    return table;
  };
  const leftTable = sideTables(leftAngles, -1);
  const rightTable = sideTables(rightAngles, 1);

  let best = { f: 0, m: 0, l: 0, r: 0, score: -Infinity };
  for (let f = 0; f < floorAngles.length; f++) {
    for (let m = 0; m < ceilingAngles.length; m++) {
      let bestLeft = 0;
      for (let l = 1; l < leftAngles.length; l++) if (leftTable[f]![l]![m]! > leftTable[f]![bestLeft]![m]!) bestLeft = l;
      let bestRight = 0;
      for (let r = 1; r < rightAngles.length; r++) if (rightTable[f]![r]![m]! > rightTable[f]![bestRight]![m]!) bestRight = r;
      const score = leftTable[f]![bestLeft]![m]! + rightTable[f]![bestRight]![m]! + prior(tanCeiling[m]! / Math.tan(floorAngles[f]!));
      if (score > best.score) best = { f, m, l: bestLeft, r: bestRight, score };
    }
  }

  // The best hypothesis that differs visibly from the winner (a boundary moved by more than 4° in view): the margin
  // between the two says how decisive the evidence is.
  const far = 4 * DEG;
  const clampTo = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
  const farFrom = (values: number[], chosen: number, lo: number, hi: number) => values.map((v) => Math.abs(clampTo(v, lo, hi) - clampTo(values[chosen]!, lo, hi)) > far);
  const floorFar = farFrom(floorAngles, best.f, -elevationMax, -elevationMin);
  const ceilingFar = farFrom(ceilingAngles, best.m, elevationMin, elevationMax);
  const leftFar = farFrom(leftAngles, best.l, azimuthMin, azimuthMax);
  const rightFar = farFrom(rightAngles, best.r, azimuthMin, azimuthMax);
  let alternative = -Infinity;
  for (let f = 0; f < floorAngles.length; f++) {
    for (let m = 0; m < ceilingAngles.length; m++) {
      let leftAny = -Infinity;
      let leftOther = -Infinity;
      for (let l = 0; l < leftAngles.length; l++) {
        const v = leftTable[f]![l]![m]!;
        leftAny = Math.max(leftAny, v);
        if (leftFar[l]) leftOther = Math.max(leftOther, v);
      }
      let rightAny = -Infinity;
      let rightOther = -Infinity;
      for (let r = 0; r < rightAngles.length; r++) {
        const v = rightTable[f]![r]![m]!;
        rightAny = Math.max(rightAny, v);
        if (rightFar[r]) rightOther = Math.max(rightOther, v);
      }
      const p = prior(tanCeiling[m]! / Math.tan(floorAngles[f]!));
      if (floorFar[f] || ceilingFar[m]) alternative = Math.max(alternative, leftAny + rightAny + p);
      else alternative = Math.max(alternative, leftOther + rightAny + p, leftAny + rightOther + p);
    }
  }
  const margin = Number.isFinite(alternative) ? Math.max(0, best.score - alternative) : 0.1;

  // Local refinement on the full grid, in the same angles, by coordinate descent with shrinking steps.
  let params = [floorAngles[best.f]!, ceilingAngles[best.m]!, leftAngles[best.l]!, rightAngles[best.r]!];
  const boxOf = (p: readonly number[]): RoomBox => {
    const front = 1 / Math.tan(p[0]!);
    return { left: front * Math.tan(p[2]!), right: front * Math.tan(p[3]!), front, back: -Infinity, floor: -1, ceiling: front * Math.tan(p[1]!) };
  };
  const evaluate = (p: readonly number[]) => {
    const box = boxOf(p);
    const o = fullOrientationScore(fine, box);
    const lines = lineSupport(camera, rasters, box);
    return {
      score: o.agree / Math.max(1, fine.known) + (lineWeight * lines.covered) / lineNorm + prior(box.ceiling) - cornerCost * ((p[2]! > azimuthMin ? 1 : 0) + (p[3]! < azimuthMax ? 1 : 0)),
      agreement: o.agree / Math.max(1, fine.known),
      lines,
    };
  };
  const limits: [number, number][] = [
    [0.3 * DEG, 85 * DEG],
    [0.3 * DEG, 85 * DEG],
    [-88 * DEG, -0.1 * DEG],
    [0.1 * DEG, 88 * DEG],
  ];
  let current = evaluate(params);
  const gridStep = (range: [number, number], count: number) => Math.max(0.05 * DEG, (range[1] - range[0]) / Math.max(1, count - 1));
  const stepSizes = [gridStep(floorRange, steps) / 2, gridStep(ceilingRange, steps) / 2, gridStep(leftRange, steps) / 2, gridStep(rightRange, steps) / 2];
  for (let round = 0; round < 4; round++) {
    for (let q = 0; q < 4; q++) {
      for (const direction of [-1, 1]) {
        for (let attempt = 0; attempt < 4; attempt++) {
          const trial = [...params];
          trial[q] = Math.max(limits[q]![0], Math.min(limits[q]![1], trial[q]! + direction * stepSizes[q]!));
          const result = evaluate(trial);
          if (result.score > current.score + 1e-9) {
            params = trial;
            current = result;
          } else {
            break;
          }
        }
      }
    }
    for (let q = 0; q < 4; q++) stepSizes[q]! /= 2;
  }

  const box = boxOf(params);
  const orientedShare = fine.known / Math.max(1, fine.dA.length);
  const lineShare = current.lines.visible > 0 ? current.lines.covered / current.lines.visible : 0;
  const evidence = 0.55 * current.agreement * Math.min(1, orientedShare / 0.25) + 0.45 * Math.min(1, lineShare / 0.5);
  const decisiveness = Math.min(1, margin / 0.025);
  const confidence = clamp01(evidence * (0.4 + 0.6 * decisiveness));
  return { box, score: current.score, orientationAgreement: current.agreement, orientedShare, lineSupport: lineShare, margin, confidence };
}

function clamp01(v: number): number {
  return Math.max(0, Math.min(1, v));
}

function spaced(from: number, to: number, count: number): number[] {
  if (!(to > from) || count < 2) return [from];
  // Uniform in tan: even spacing in the image near the view's centre.
  const a = Math.tan(from);
  const b = Math.tan(to);
  return Array.from({ length: count }, (_, k) => Math.atan(a + ((b - a) * k) / (count - 1)));
}

function worldRay(camera: PinholeCamera, x: number, y: number): Vec3 {
  return cameraToWorld(camera, [(x - camera.cx) / camera.focal, (y - camera.cy) / camera.focal, 1]);
}

function gridRays(camera: PinholeCamera, map: OrientationMap, stride: number): GridRays {
  const columns = Math.ceil(map.width / stride);
  const rows = Math.ceil(map.height / stride);
  const n = columns * rows;
  const dA = new Float32Array(n);
  const dB = new Float32Array(n);
  const dU = new Float32Array(n);
  const orientation = new Int8Array(n);
  const left: number[] = [];
  const right: number[] = [];
  let known = 0;
  for (let gy = 0; gy < rows; gy++) {
    for (let gx = 0; gx < columns; gx++) {
      const i = gy * columns + gx;
      const mx = Math.min(map.width - 1, gx * stride);
      const my = Math.min(map.height - 1, gy * stride);
      const d = worldRay(camera, (mx + 0.5) / map.scale, (my + 0.5) / map.scale);
      dA[i] = d[0];
      dB[i] = d[1];
      dU[i] = d[2];
      const o = map.orientation[my * map.width + mx]!;
      orientation[i] = o;
      if (o < 0) continue;
      known++;
      (d[0] < 0 ? left : right).push(i);
    }
  }
  return { dA, dB, dU, orientation, left: Int32Array.from(left), right: Int32Array.from(right), known };
}

/**
 * Orientation agreement of one side's pixels for a front wall at `front`, a side wall at `side` (signed), and every
 * ceiling height of the grid at once: a pixel above the horizon is ceiling while the ceiling is lower than κ, the
 * height at which its ray meets the nearer wall.
 */
function orientationScores(rays: GridRays, pixels: Int32Array, front: number, side: number, tanCeiling: Float64Array): Float64Array {
  const count = tanCeiling.length;
  const diff = new Float64Array(count + 1);
  let base = 0;
  for (let k = 0; k < pixels.length; k++) {
    const i = pixels[k]!;
    const o = rays.orientation[i]!;
    const a = rays.dA[i]!;
    const b = rays.dB[i]!;
    const u = rays.dU[i]!;
    const tFront = b > 0 ? front / b : Infinity;
    const tSide = a !== 0 ? side / a : Infinity;
    const wallOrientation = tFront < tSide ? 1 : 0;
    const tWall = Math.min(tFront, tSide);
    const agreeWall = o === wallOrientation ? 1 : 0;
    const agreeFlat = o === 2 ? 1 : 0;
    if (u < 0) {
      base += -1 / u < tWall ? agreeFlat : agreeWall;
    } else if (u > 0) {
      base += agreeWall;
      // Ceiling index m is ceiling here when front·tan(ε_m) < tWall·u.
      const limit = (tWall * u) / front;
      let lo = 0;
      let hi = count;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (tanCeiling[mid]! < limit) lo = mid + 1;
        else hi = mid;
      }
      diff[lo]! += agreeFlat - agreeWall;
    } else {
      base += agreeWall;
    }
  }
  const scores = new Float64Array(count);
  let suffix = 0;
  for (let m = count - 1; m >= 0; m--) {
    suffix += diff[m + 1]!;
    scores[m] = base + suffix;
  }
  return scores;
}

function fullOrientationScore(rays: GridRays, box: RoomBox): { agree: number } {
  let agree = 0;
  for (const pixels of [rays.left, rays.right]) {
    for (let k = 0; k < pixels.length; k++) {
      const i = pixels[k]!;
      const a = rays.dA[i]!;
      const b = rays.dB[i]!;
      const u = rays.dU[i]!;
      const tFront = b > 0 ? box.front / b : Infinity;
      const tSide = a < 0 ? box.left / a : a > 0 ? box.right / a : Infinity;
      const tFlat = u < 0 ? box.floor / u : u > 0 ? box.ceiling / u : Infinity;
      const o = tFlat < Math.min(tFront, tSide) ? 2 : tFront < tSide ? 1 : 0;
      if (o === rays.orientation[i]) agree++;
    }
  }
  return { agree };
}

interface Rasters {
  width: number;
  height: number;
  families: Uint8Array[];
}

/** Each direction's segments drawn 3 pixels wide at the working resolution; ambiguous segments left out. */
function familyRasters(segments: readonly LineSegment[], assignment: Int8Array, camera: PinholeCamera): Rasters {
  const width = Math.ceil(camera.width);
  const height = Math.ceil(camera.height);
  const families = [0, 1, 2].map(() => new Uint8Array(width * height));
  segments.forEach((s, i) => {
    const k = assignment[i]!;
    if (k < 0) return;
    const errors = vanishingErrors(s, camera);
    if (errors.filter((e) => e < 1.5 * segmentTolerance(segmentLength(s))).length > 1) return;
    const raster = families[k]!;
    for (const [ox, oy] of [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]] as const) {
      drawSegment(raster, width, height, s.x0 + ox, s.y0 + oy, s.x1 + ox, s.y1 + oy, 0);
    }
  });
  return { width, height, families };
}

/** Length (pixels) of the image segment a–b (world points) lying on family k's raster, and its visible length. */
function edgeSupport(camera: PinholeCamera, rasters: Rasters, k: number, a: Vec3, b: Vec3): { covered: number; visible: number } {
  const segment = projectSegment(camera, worldToCamera(camera, a), worldToCamera(camera, b));
  if (!segment) return { covered: 0, visible: 0 };
  const [[x0, y0], [x1, y1]] = segment;
  const length = Math.hypot(x1 - x0, y1 - y0);
  const samples = Math.max(1, Math.round(length / 2));
  const raster = rasters.families[k]!;
  let hits = 0;
  for (let s = 0; s < samples; s++) {
    const t = (s + 0.5) / samples;
    const x = Math.floor(x0 + t * (x1 - x0));
    const y = Math.floor(y0 + t * (y1 - y0));
    if (x < 0 || y < 0 || x >= rasters.width || y >= rasters.height) continue;
    if (raster[y * rasters.width + x]) hits++;
  }
  return { covered: (hits / samples) * length, visible: length };
}

/**
 * Line support of the boundaries below the horizon on one side, for a corner at azimuth tan = `tanCorner` and the
 * front wall's floor line at depression tan = `tanFloor`; in a box scaled so that the front wall is at Y = 1.
 */
function floorLineSupport(camera: PinholeCamera, rasters: Rasters, tanCorner: number, tanFloor: number): number {
  const z = -tanFloor;
  return (
    edgeSupport(camera, rasters, 0, [0, 1, z], [tanCorner, 1, z]).covered +
    edgeSupport(camera, rasters, 1, [tanCorner, 1, z], [tanCorner, -FAR, z]).covered +
    edgeSupport(camera, rasters, 2, [tanCorner, 1, z], [tanCorner, 1, 0]).covered
  );
}

/** The same above the horizon, for the front wall's ceiling line at elevation tan = `tanCeiling`. */
function ceilingLineSupport(camera: PinholeCamera, rasters: Rasters, tanCorner: number, tanCeiling: number): number {
  const z = tanCeiling;
  return (
    edgeSupport(camera, rasters, 0, [0, 1, z], [tanCorner, 1, z]).covered +
    edgeSupport(camera, rasters, 1, [tanCorner, 1, z], [tanCorner, -FAR, z]).covered +
    edgeSupport(camera, rasters, 2, [tanCorner, 1, 0], [tanCorner, 1, z]).covered
  );
}

function lineSupport(camera: PinholeCamera, rasters: Rasters, box: RoomBox): { covered: number; visible: number } {
  let covered = 0;
  let visible = 0;
  const { front, ceiling } = box;
  for (const side of [box.left, box.right]) {
    for (const [k, a, b] of [
      [0, [0, front, -1], [side, front, -1]],
      [0, [0, front, ceiling], [side, front, ceiling]],
      [1, [side, front, -1], [side, -FAR, -1]],
      [1, [side, front, ceiling], [side, -FAR, ceiling]],
      [2, [side, front, -1], [side, front, ceiling]],
    ] as [number, Vec3, Vec3][]) {
      const r = edgeSupport(camera, rasters, k, a, b);
      covered += r.covered;
      visible += r.visible;
    }
  }
  return { covered, visible };
}

/** Angles the segments propose: floor and ceiling lines of the front wall (X segments), corners (Z segments). */
function proposals(camera: PinholeCamera, segments: readonly LineSegment[], assignment: Int8Array): { floor: number[]; ceiling: number[]; corners: number[] } {
  const floor: { angle: number; weight: number }[] = [];
  const ceiling: { angle: number; weight: number }[] = [];
  const corners: { angle: number; weight: number }[] = [];
  segments.forEach((s, i) => {
    const k = assignment[i]!;
    if (k < 0) return;
    const d = worldRay(camera, (s.x0 + s.x1) / 2, (s.y0 + s.y1) / 2);
    const weight = segmentLength(s) * s.score;
    if (k === 0 && d[1] > 0) {
      const ratio = d[2] / d[1];
      if (ratio < 0) floor.push({ angle: Math.atan(-ratio), weight });
      else ceiling.push({ angle: Math.atan(ratio), weight });
    } else if (k === 2 && d[1] > 0) {
      corners.push({ angle: Math.atan2(d[0], d[1]), weight });
    }
  });
  const top = (list: { angle: number; weight: number }[], count: number) => list.sort((a, b) => b.weight - a.weight).slice(0, count).map((p) => p.angle);
  return { floor: top(floor, 24), ceiling: top(ceiling, 24), corners: top(corners, 40) };
}

/** Grid values plus proposals within the range, sorted, near-duplicates (0.1°) merged. */
function candidates(grid: number[], proposed: number[], range: [number, number]): number[] {
  const all = [...grid, ...proposed.filter((a) => a >= range[0] && a <= range[1])].sort((a, b) => a - b);
  const out: number[] = [];
  for (const a of all) if (out.length === 0 || a - out[out.length - 1]! > 0.1 * DEG) out.push(a);
  return out;
}
