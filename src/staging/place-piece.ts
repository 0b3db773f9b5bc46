import type { Footprint } from '../furniture/generator.js';
import type { Random } from '../random.js';
import type { Vec3 } from '../vision/geometry/vec3.js';
import { brokenRule, countRefusal, noSpotReason, throughWall, wallGap, type Refusals, type RuleRequest, type RuleSettings } from './placement-rules.js';
import { pointOnFloor, projectWorld, type RoomModel, type WallLabel } from './room-model.js';

/** The nearest a piece stands to the camera: closer, a piece fills the frame and its perspective exaggerates. */
const NEAREST_TO_CAMERA_M = 1.0;
const GRID_STEP_M = 0.1;
/** One piece is framed on its own: its whole footprint seen, and every piece, a rug too, off the door strips. */
const SINGLE_PIECE_RULES: RuleSettings = { nearestM: NEAREST_TO_CAMERA_M, seen: 'whole-footprint', flatPiecesInDoorStrips: false };

// The bench and tests check placements with the same geometry.
export { convexHull, convexOverlap, DOOR_CLEARANCE_M, WALL_GAP_M } from './placement-rules.js';

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

export interface PlacementRequest extends RuleRequest {
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
    if (throughWall(room, placement)) {
      return { placed: false, reason: `a ${describe(footprint)} at that point would stand through a wall of the room as analysed` };
    }
    return { placed: true, placement, candidates: 1 };
  }
  const candidates = candidatePoses(room, footprint);
  const scored: Placement[] = [];
  const refusals: Refusals = {};
  for (const candidate of candidates) {
    const placement = pose(room, footprint, candidate, 0);
    const problem = brokenRule(room, request, placement, SINGLE_PIECE_RULES);
    countRefusal(refusals, problem);
    if (problem) continue;
    placement.score = score(room, footprint, placement);
    scored.push(placement);
  }
  if (scored.length === 0) return { placed: false, reason: noSpotReason(`a ${describe(footprint)}`, refusals, request.mask !== undefined) };
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
  const gap = wallGap(footprint);
  for (const wall of room.visibleWalls) {
    if (wall === 'wall-front') {
      for (let x = left + gap + w / 2; x <= right - gap - w / 2 + 1e-9; x += GRID_STEP_M) {
        out.push({ x, y: front - gap - d / 2, yaw: 0, against: wall });
      }
    } else {
      const xc = wall === 'wall-left' ? left + gap + d / 2 : right - gap - d / 2;
      const yaw = wall === 'wall-left' ? Math.PI / 2 : -Math.PI / 2;
      for (let y = NEAREST_TO_CAMERA_M + w / 2; y <= front - gap - w / 2 + 1e-9; y += GRID_STEP_M) {
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
