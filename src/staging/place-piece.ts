import type { Footprint } from '../furniture/generator.js';
import type { Random } from '../random.js';
import type { Vec3 } from '../vision/geometry/vec3.js';
import { pointOnFloor, projectWorld, type RoomModel, type WallLabel } from './room-model.js';

/** Gap between a piece's back and the wall it stands against (Infinigen's against_wall 0.07 m, ProcTHOR's 0.05 m). */
export const WALL_GAP_M = 0.06;
/** Depth of the strip kept free in front of every door, and the extra width on each side of it. */
export const DOOR_CLEARANCE_M = 0.9;
export const DOOR_SIDE_MARGIN_M = 0.15;
/** The nearest a piece stands to the camera: closer, a piece fills the frame and its perspective exaggerates. */
const NEAREST_TO_CAMERA_M = 1.0;
const GRID_STEP_M = 0.1;
/** How close in the photo a piece may come to a window or door it must leave untouched. */
export const OPENING_MARGIN_PX = 2;

export interface Placement {
  /** Centre of the footprint on the floor, world metres. */
  x: number;
  y: number;
  /** Rotation about Z, radians: 0 turns the piece's front toward −Y (toward the camera). */
  yaw: number;
  /** The wall its back stands against, if any. */
  against?: WallLabel;
  /** Piece frame → world, row-major 4×4. */
  matrix: number[];
  /** The 8 corners of its box in the world. */
  corners: Vec3[];
  /** The box's image, clipped to the photo: pixels [x0, x1) × [y0, y1). */
  imageBox: { x0: number; y0: number; x1: number; y1: number };
  score: number;
}

export interface PlacementRequest {
  footprint: Footprint;
  /** Photo-sized; non-zero where the user allows the piece (the floor it may stand on). */
  mask?: Uint8Array;
  /** Nothing of the piece may cover a window or door pixel. */
  preserveWindows: boolean;
  /**
   * Image outlines of what already stands in the room (detected furniture): the piece's image may not overlap them.
   * Without depth, overlapping in the image is taken as standing in the way (or behind, which the render would
   * wrongly draw in front).
   */
  obstacles?: [number, number][][];
  random: Random;
  /** Put the footprint's centre on the floor seen at this photo pixel, turned by `yaw` (known-answer scenes). */
  at?: { x: number; y: number; yaw: number };
}

export type PlacementOutcome = { placed: true; placement: Placement; candidates: number } | { placed: false; reason: string };

interface Candidate {
  x: number;
  y: number;
  yaw: number;
  against?: WallLabel;
}

/**
 * The best free spot for one piece, after Holodeck's single-object search: every pose on a 10 cm grid (against each
 * visible wall for wall pieces, anywhere on the seen floor for free-standing ones) is checked against the hard rules
 * (inside the room, on floor the camera sees, clear of door strips, inside the mask, off windows and doors when
 * asked), scored (seen whole and near the middle of the photo, at a comfortable depth, centred on its wall), and one
 * of the best few is drawn with the seed, so another seed gives another good spot.
 */
export function placePiece(room: RoomModel, request: PlacementRequest): PlacementOutcome {
  const { footprint } = request;
  if (request.at) {
    const floorPoint = pointOnFloor(room.camera, room.box.floor, request.at.x, request.at.y);
    if (!floorPoint) return { placed: false, reason: 'the given point is not on the floor (at or above the horizon)' };
    const placement = pose(room, footprint, { x: floorPoint[0], y: floorPoint[1], yaw: request.at.yaw }, 0);
    if (violation(room, { ...request, preserveWindows: false }, placement) === 'room') {
      return { placed: false, reason: `a ${describe(footprint)} at that point would stand through a wall of the room as analysed` };
    }
    return { placed: true, placement, candidates: 1 };
  }
  const candidates = candidatePoses(room, footprint);
  const scored: Placement[] = [];
  let refusedByMask = 0;
  let refusedByOpenings = 0;
  let refusedByObstacles = 0;
  for (const candidate of candidates) {
    const placement = pose(room, footprint, candidate, 0);
    const problem = violation(room, request, placement);
    if (problem === 'mask') refusedByMask++;
    if (problem === 'openings') refusedByOpenings++;
    if (problem === 'obstacle') refusedByObstacles++;
    if (problem) continue;
    placement.score = score(room, footprint, placement);
    scored.push(placement);
  }
  if (scored.length === 0) {
    const why = request.mask && refusedByMask > 0
      ? `the marked area has no floor where a ${describe(footprint)} fits`
      : refusedByOpenings > 0
        ? `every spot where a ${describe(footprint)} fits covers a window or door (preserveWindows)`
        : refusedByObstacles > 0
          ? `every spot where a ${describe(footprint)} fits is taken by furniture already in the photo`
          : `the floor seen in the photo has no free spot where a ${describe(footprint)} fits`;
    return { placed: false, reason: why };
  }
  scored.sort((a, b) => b.score - a.score);
  // One of the best few, the better ones likelier: variety between seeds without a poor spot.
  const best = scored.slice(0, Math.min(5, scored.length));
  const chosen = request.random.weighted(best.map((p, i) => [p, 1 / (i + 1)] as const));
  return { placed: true, placement: chosen, candidates: scored.length };
}

function describe(footprint: Footprint): string {
  return `${footprint.width.toFixed(2)} × ${footprint.depth.toFixed(2)} m piece`;
}

function candidatePoses(room: RoomModel, footprint: Footprint): Candidate[] {
  const { left, right, front } = room.box;
  const out: Candidate[] = [];
  const d = footprint.depth;
  const w = footprint.width;
  const alongWall = footprint.placement !== 'floor';
  for (const wall of room.visibleWalls) {
    if (wall === 'wall-front') {
      for (let x = left + WALL_GAP_M + w / 2; x <= right - WALL_GAP_M - w / 2 + 1e-9; x += GRID_STEP_M) {
        out.push({ x, y: front - WALL_GAP_M - d / 2, yaw: 0, against: wall });
      }
    } else {
      const xc = wall === 'wall-left' ? left + WALL_GAP_M + d / 2 : right - WALL_GAP_M - d / 2;
      const yaw = wall === 'wall-left' ? Math.PI / 2 : -Math.PI / 2;
      for (let y = NEAREST_TO_CAMERA_M + w / 2; y <= front - WALL_GAP_M - w / 2 + 1e-9; y += GRID_STEP_M) {
        out.push({ x: xc, y, yaw, against: wall });
      }
    }
  }
  if (!alongWall) {
    for (let x = left + 0.3; x <= right - 0.3; x += GRID_STEP_M) {
      for (let y = NEAREST_TO_CAMERA_M; y <= front - 0.3; y += GRID_STEP_M) {
        out.push({ x, y, yaw: 0 });
        if (Math.abs(w - d) > 0.2) {
          out.push({ x, y, yaw: Math.PI / 2 });
          out.push({ x, y, yaw: -Math.PI / 2 });
        }
      }
    }
  }
  return out;
}

/** The placement of a footprint at a pose: its matrix, box corners and image box. */
export function pose(room: RoomModel, footprint: Footprint, candidate: Candidate, score: number): Placement {
  const c = Math.cos(candidate.yaw);
  const s = Math.sin(candidate.yaw);
  const z0 = room.box.floor;
  const matrix = [c, -s, 0, candidate.x, s, c, 0, candidate.y, 0, 0, 1, z0, 0, 0, 0, 1];
  const corners: Vec3[] = [];
  for (const lz of [footprint.elevation, footprint.elevation + footprint.height]) {
    for (const [lx, ly] of [
      [-footprint.width / 2, -footprint.depth / 2],
      [footprint.width / 2, -footprint.depth / 2],
      [footprint.width / 2, footprint.depth / 2],
      [-footprint.width / 2, footprint.depth / 2],
    ] as const) {
      corners.push([candidate.x + c * lx - s * ly, candidate.y + s * lx + c * ly, z0 + lz]);
    }
  }
  const projected = corners.map((p) => projectWorld(room.camera, p));
  const seen = projected.filter((p): p is [number, number] => p !== undefined);
  const xs = seen.map((p) => p[0]);
  const ys = seen.map((p) => p[1]);
  const { width, height } = room.camera;
  const imageBox = {
    x0: Math.max(0, Math.floor(Math.min(...xs))),
    y0: Math.max(0, Math.floor(Math.min(...ys))),
    x1: Math.min(width, Math.ceil(Math.max(...xs))),
    y1: Math.min(height, Math.ceil(Math.max(...ys))),
  };
  return { x: candidate.x, y: candidate.y, yaw: candidate.yaw, ...(candidate.against ? { against: candidate.against } : {}), matrix, corners, imageBox, score };
}

/** The first hard rule a placement breaks, or undefined. */
function violation(room: RoomModel, request: PlacementRequest, placement: Placement): 'room' | 'view' | 'door' | 'mask' | 'openings' | 'obstacle' | undefined {
  const { left, right, front } = room.box;
  const base = placement.corners.slice(0, 4);
  const eps = 1e-6;
  if (base.some((p) => p[0] < left + WALL_GAP_M - 0.011 - eps || p[0] > right - WALL_GAP_M + 0.011 + eps || p[1] > front - WALL_GAP_M + 0.011 + eps)) return 'room';
  if (base.some((p) => p[1] < NEAREST_TO_CAMERA_M - eps)) return 'view';
  const { width, height } = room.camera;
  // The footprint stands on floor the camera sees; the top may leave the frame, as in a real photo.
  const footprintPixels = base.map((p) => projectWorld(room.camera, p));
  if (footprintPixels.some((p) => !p || p[0] < 1 || p[0] > width - 1 || p[1] < 1 || p[1] > height - 1)) return 'view';
  if (request.footprint.placement === 'on-wall') {
    const tops = placement.corners.slice(4).map((p) => projectWorld(room.camera, p));
    if (tops.some((p) => !p || p[1] < 0)) return 'view';
  }
  for (const opening of room.openings) {
    if (opening.kind === 'window') continue;
    if (overlapsStrip(placement, opening.wall, opening.u0 - DOOR_SIDE_MARGIN_M, opening.u1 + DOOR_SIDE_MARGIN_M, room)) return 'door';
  }
  if (request.mask) {
    for (let i = 0; i <= 4; i++) {
      for (let j = 0; j <= 4; j++) {
        const p = bilinearCorner(base, i / 4, j / 4);
        const pixel = projectWorld(room.camera, p);
        if (!pixel) return 'mask';
        const px = Math.min(width - 1, Math.max(0, Math.floor(pixel[0])));
        const py = Math.min(height - 1, Math.max(0, Math.floor(pixel[1])));
        if (request.mask[py * width + px] === 0) return 'mask';
      }
    }
  }
  if (request.preserveWindows || request.obstacles?.length) {
    const hull = convexHull(placement.corners.map((p) => projectWorld(room.camera, p)).filter((p): p is [number, number] => p !== undefined));
    // Two pixels of margin: a mesh may stand up to 1 cm past its footprint's box, and its edge is antialiased.
    if (request.preserveWindows && room.openings.some((opening) => convexOverlap(hull, opening.polygon, OPENING_MARGIN_PX))) return 'openings';
    if (request.obstacles?.some((outline) => convexOverlap(hull, outline))) return 'obstacle';
  }
  return undefined;
}

function bilinearCorner(base: Vec3[], u: number, v: number): Vec3 {
  const [a, b, c, d] = base as [Vec3, Vec3, Vec3, Vec3];
  const lerp = (p: Vec3, q: Vec3, t: number): Vec3 => [p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t, p[2] + (q[2] - p[2]) * t];
  return lerp(lerp(a, b, u), lerp(d, c, u), v);
}

/** Whether the footprint reaches into the strip in front of a wall between u0 and u1, DOOR_CLEARANCE_M deep. */
function overlapsStrip(placement: Placement, wall: WallLabel, u0: number, u1: number, room: RoomModel): boolean {
  const base = placement.corners.slice(0, 4);
  const us = base.map((p) => (wall === 'wall-front' ? p[0] : p[1]));
  const depths = base.map((p) => (wall === 'wall-front' ? room.box.front - p[1] : wall === 'wall-left' ? p[0] - room.box.left : room.box.right - p[0]));
  return Math.max(...us) > u0 && Math.min(...us) < u1 && Math.min(...depths) < DOOR_CLEARANCE_M;
}

/**
 * Higher is better: the piece seen whole (its image box not cut by the frame's sides), its image near the photo's
 * horizontal middle, standing at a comfortable depth in the room, and a wall piece centred on its wall.
 */
function score(room: RoomModel, footprint: Footprint, placement: Placement): number {
  const { width, height } = room.camera;
  const box = placement.imageBox;
  const projected = placement.corners.map((p) => projectWorld(room.camera, p)).filter((p): p is [number, number] => p !== undefined);
  const xs = projected.map((p) => p[0]);
  const cut = Math.max(0, -Math.min(...xs)) + Math.max(0, Math.max(...xs) - width);
  const centre = (box.x0 + box.x1) / 2;
  let s = 0;
  s -= 2 * (cut / width);
  s -= Math.abs(centre - width / 2) / width;
  // A comfortable depth: about the middle of the seen floor, not at the camera's feet nor lost at the back.
  const depthRange = room.box.front - NEAREST_TO_CAMERA_M;
  if (depthRange > 0) s -= 0.5 * Math.abs((placement.y - NEAREST_TO_CAMERA_M) / depthRange - 0.55);
  const bottomCut = Math.max(0, box.y1 - height + 2) / height;
  s -= bottomCut;
  if (placement.against === 'wall-front') s += 0.15;
  if (placement.against) {
    const along = placement.against === 'wall-front' ? placement.x - (room.box.left + room.box.right) / 2 : placement.y - (NEAREST_TO_CAMERA_M + room.box.front) / 2;
    const length = placement.against === 'wall-front' ? room.box.right - room.box.left : room.box.front - NEAREST_TO_CAMERA_M;
    s -= 0.3 * Math.abs(along) / Math.max(length, 1e-6);
  }
  if (footprint.placement === 'floor' && placement.against) s -= 0.1;
  return s;
}

/** Convex hull of points (monotone chain), counter-clockwise in image coordinates. */
export function convexHull(points: [number, number][]): [number, number][] {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (sorted.length < 3) return sorted;
  const crossZ = (o: [number, number], a: [number, number], b: [number, number]) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: [number, number][] = [];
  for (const p of sorted) {
    while (lower.length >= 2 && crossZ(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: [number, number][] = [];
  for (const p of sorted.reverse()) {
    while (upper.length >= 2 && crossZ(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/**
 * Whether two convex polygons come closer than `margin` pixels (separating axis test; with margin 0, touching edges
 * do not count).
 */
export function convexOverlap(a: [number, number][], b: [number, number][], margin = 0): boolean {
  if (a.length < 3 || b.length < 3) return false;
  for (const polygon of [a, b]) {
    for (let i = 0; i < polygon.length; i++) {
      const p = polygon[i]!;
      const q = polygon[(i + 1) % polygon.length]!;
      const length = Math.hypot(q[0] - p[0], q[1] - p[1]);
      if (length < 1e-12) continue;
      const axis: [number, number] = [(q[1] - p[1]) / length, (p[0] - q[0]) / length];
      const project = (poly: [number, number][]) => poly.map((v) => v[0] * axis[0] + v[1] * axis[1]);
      const pa = project(a);
      const pb = project(b);
      if (Math.max(...pa) + margin <= Math.min(...pb) + 1e-9 || Math.max(...pb) + margin <= Math.min(...pa) + 1e-9) return false;
    }
  }
  return true;
}
