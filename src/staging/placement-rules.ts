import type { Footprint } from '../furniture/generator.js';
import { FACE_LABELS, facePolygons } from '../vision/geometry/room-box.js';
import type { Vec3 } from '../vision/geometry/vec3.js';
import { clipPolygon, convexHalfPlanes } from '../vision/polygon-clip.js';
import type { Placement } from './place-piece.js';
import { blockOutline, projectWorld, type RoomBlock, type RoomModel, type WallLabel } from './room-model.js';

/**
 * The hard rules one piece's placement must keep, the same for the single-piece placer and the room planner: inside
 * the room, far enough from the camera, on floor the photo shows, off door strips, inside the user's mask, off
 * windows and doors (preserveWindows) and off furniture already standing. Scores (what is merely preferred) stay with
 * each caller.
 */

/** Gap between a piece's back and the wall it stands against (Infinigen's against_wall 0.07 m, ProcTHOR's 0.05 m). */
export const WALL_GAP_M = 0.06;
/** Gap between a hung piece's back and its wall (the hanger's depth). */
export const ON_WALL_GAP_M = 0.01;
/** The gap between a piece's back and the wall it is against: hung pieces hang at the wall, standing ones stand off it. */
export function wallGap(footprint: Footprint): number {
  return footprint.placement === 'on-wall' ? ON_WALL_GAP_M : WALL_GAP_M;
}
/** How far into the wall gap a footprint corner may reach: it still stands about 5 cm clear of the wall. */
const WALL_SLACK_M = 0.011;
/** Depth of the strip kept free in front of every door, and the extra width on each side of it. */
export const DOOR_CLEARANCE_M = 0.9;
const DOOR_SIDE_MARGIN_M = 0.15;
/**
 * Height above the floor from which the wall behind a standing piece must look plain: over skirting boards (7–20 cm),
 * whose top edge runs along every wall; doors and passages reach the floor, so they still show above it.
 */
const BACKING_FROM_M = 0.25;
/** How close in the photo a piece may come to a window or door it must leave untouched. */
const OPENING_MARGIN_PX = 2;

/** The hard rule a placement breaks; the reasons given to callers are built from these. */
export type BrokenRule = 'room' | 'near' | 'view' | 'door' | 'mask' | 'openings' | 'obstacle' | 'wall';

export interface RuleRequest {
  footprint: Footprint;
  /** Photo-sized; non-zero where the user allows furniture (the floor it may stand on). */
  mask?: Uint8Array;
  /** Nothing of the piece may cover a window or door pixel. */
  preserveWindows: boolean;
  /** Image outlines of what already stands in the room (detected furniture): the piece's image may not overlap them. */
  obstacles?: [number, number][][];
  /**
   * Whether the photo shows plain wall over image outlines taken together — not a door frame, a closet's doors, a
   * picture already there, a pass-through, cupboard fronts or a view the geometry did not find as an opening:
   * `hung`, the image box where a piece (art, a mirror) would hang; `behind`, the walls a piece standing against a
   * wall would hide (hiddenWalls). Furniture stands and hangs only where it does.
   */
  plainWall?: (outlines: [number, number][][], use: 'hung' | 'behind') => boolean;
}

export interface RuleSettings {
  /** The nearest a footprint corner may come to the camera (world y, metres). */
  nearestM: number;
  /**
   * What of the piece the photo must show: its whole footprint (one piece, framed on its own), or only the
   * footprint's centre (a room's pieces along the frame's sides may be cut by it, never float).
   */
  seen: 'whole-footprint' | 'footprint-centre';
  /** Whether flat pieces (rugs, mats) may lie in a door's strip: under a room's other pieces they block no one. */
  flatPiecesInDoorStrips: boolean;
}

/** The first hard rule a placement breaks, or undefined. */
export function brokenRule(room: RoomModel, request: RuleRequest, placement: Placement, settings: RuleSettings): BrokenRule | undefined {
  if (throughWall(room, placement, wallGap(request.footprint))) return 'room';
  if (tooNearCamera(placement, settings.nearestM)) return 'near';
  if (!seenInPhoto(room, request.footprint, placement, settings.seen) || behindBlock(room, placement)) return 'view';
  if (!(settings.flatPiecesInDoorStrips && isFlat(request.footprint)) && inAnyDoorStrip(room, placement)) return 'door';
  if (request.mask && !insideMask(room, request.mask, placement)) return 'mask';
  if (request.preserveWindows || request.obstacles?.length) {
    const hull = imageHull(room, placement);
    if (request.preserveWindows && coversOpening(room, hull)) return 'openings';
    if (request.obstacles && onStandingFurniture(request.obstacles, hull)) return 'obstacle';
  }
  if (request.plainWall) {
    if (request.footprint.placement === 'on-wall') {
      const { x0, y0, x1, y1 } = placement.imageBox;
      if (!request.plainWall([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], 'hung')) return 'wall';
    } else {
      const hidden = hiddenWalls(room, request.footprint, placement);
      if (hidden.length > 0 && !request.plainWall(hidden, 'behind')) return 'wall';
    }
  }
  return undefined;
}

/**
 * The walls a piece standing against a wall hides in the photo: its image over each visible wall of the box, from
 * BACKING_FROM_M up (over any skirting). A door, a closet's doors, a passage or a window reaches down into it, and a
 * piece before them would hide them (empty_office_01: floor lamps before the part of its window the analyses missed);
 * where the wall is not where the layout put it, the floor shows there instead (empty_living_04: a sofa "against" a
 * wall 1.5 m behind it). Empty for a flat piece and one standing free: a table in the middle of a
 * kitchen hides the cupboards behind it, as in any photo of a furnished kitchen, and stands in no one's way there.
 */
export function hiddenWalls(room: RoomModel, footprint: Footprint, placement: Placement): [number, number][][] {
  if (isFlat(footprint) || !placement.against) return [];
  const hull = imageHull(room, placement);
  if (hull.length < 3) return [];
  const edges = convexHalfPlanes(hull);
  // The box with its floor raised over the skirting: its walls' faces are the walls from there up.
  const raised = { ...room.box, floor: room.box.floor + BACKING_FROM_M, back: -Infinity };
  return facePolygons(room.camera, raised)
    .filter(({ face }) => (room.visibleWalls as ReadonlySet<string>).has(FACE_LABELS[face]))
    .map(({ polygon }) => clipPolygon(polygon, edges))
    .filter((hidden) => hidden.length >= 3);
}

/** Flat pieces (rugs, mats) lie under others and do not block a walkway. */
export function isFlat(footprint: Footprint): boolean {
  return footprint.height < 0.05;
}

function footprintCorners(placement: Placement): Vec3[] {
  return placement.corners.slice(0, 4);
}

/** Whether a footprint comes nearer a wall or block than `gap` (a standing piece's 6 cm, a hung piece's 1 cm). */
export function throughWall(room: RoomModel, placement: Placement, gap = WALL_GAP_M): boolean {
  const { left, right, front } = room.box;
  const near = gap - Math.min(WALL_SLACK_M, gap / 2);
  const corners = footprintCorners(placement);
  if (corners.some(([x, y]) => x < left + near || x > right - near || y > front - near)) return true;
  const base = corners.map(([x, y]) => [x, y] as [number, number]);
  return room.blocks.some((block) => convexOverlap(base, blockOutline(block), near));
}

/**
 * Whether a block of the building hides part of the piece from the camera: their images overlap and no line
 * between them on the floor has the camera on the piece's side. The render would draw such a piece over the block.
 */
function behindBlock(room: RoomModel, placement: Placement): boolean {
  if (room.blocks.length === 0) return false;
  const base = footprintCorners(placement).map(([x, y]) => [x, y] as [number, number]);
  const hull = imageHull(room, placement);
  return room.blocks.some((block) => convexOverlap(hull, blockImage(room, block)) && !cameraOnPieceSide(base, blockOutline(block)));
}

function blockImage(room: RoomModel, block: RoomBlock): [number, number][] {
  const corners = blockOutline(block).flatMap(([x, y]) => [[x, y, room.box.floor], [x, y, room.box.ceiling]] as [number, number, number][]);
  return convexHull(corners.map((p) => projectWorld(room.camera, p)).filter((p): p is [number, number] => p !== undefined));
}

/** Whether a line separating two convex outlines on the floor has the camera (the origin) on the first one's side. */
function cameraOnPieceSide(piece: [number, number][], block: [number, number][]): boolean {
  for (const polygon of [piece, block]) {
    for (let i = 0; i < polygon.length; i++) {
      const p = polygon[i]!;
      const q = polygon[(i + 1) % polygon.length]!;
      const axis: [number, number] = [q[1] - p[1], p[0] - q[0]];
      if (Math.hypot(axis[0], axis[1]) < 1e-12) continue;
      const along = (v: [number, number]) => v[0] * axis[0] + v[1] * axis[1];
      const a = piece.map(along);
      const b = block.map(along);
      // The camera projects to 0 on every axis.
      if (Math.max(...a) <= Math.min(...b) && Math.min(...b) > 0) return true;
      if (Math.max(...b) <= Math.min(...a) && Math.max(...b) < 0) return true;
    }
  }
  return false;
}

function tooNearCamera(placement: Placement, nearestM: number): boolean {
  return footprintCorners(placement).some(([, y]) => y < nearestM - 1e-6);
}

/** The footprint (or its centre) on floor the camera sees; a wall piece's top below the frame's top edge. */
function seenInPhoto(room: RoomModel, footprint: Footprint, placement: Placement, seen: RuleSettings['seen']): boolean {
  const { width, height } = room.camera;
  if (seen === 'whole-footprint') {
    // One pixel inside the frame; the top may leave it, as in a real photo.
    const pixels = footprintCorners(placement).map((p) => projectWorld(room.camera, p));
    if (pixels.some((p) => !p || p[0] < 1 || p[0] > width - 1 || p[1] < 1 || p[1] > height - 1)) return false;
  } else {
    const centre = projectWorld(room.camera, [placement.x, placement.y, room.box.floor]);
    if (!centre || centre[0] < 0 || centre[0] >= width || centre[1] < 0 || centre[1] >= height) return false;
  }
  if (footprint.placement === 'on-wall') {
    const tops = placement.corners.slice(4).map((p) => projectWorld(room.camera, p));
    if (tops.some((p) => !p || p[1] < 0)) return false;
  }
  return true;
}

/** In front of a door the analysis found, or of door frames only the photo's lines show (not walked to: walkway.ts). */
function inAnyDoorStrip(room: RoomModel, placement: Placement): boolean {
  const doors = [...room.openings.filter((opening) => opening.kind !== 'window'), ...room.doorFrames];
  return doors.some((door) => inDoorStrip(room, placement, door.wall, door.u0 - DOOR_SIDE_MARGIN_M, door.u1 + DOOR_SIDE_MARGIN_M));
}

/** Whether the footprint reaches into the strip in front of a wall between u0 and u1, DOOR_CLEARANCE_M deep. */
function inDoorStrip(room: RoomModel, placement: Placement, wall: WallLabel, u0: number, u1: number): boolean {
  const corners = footprintCorners(placement);
  const us = corners.map(([x, y]) => (wall === 'wall-front' ? x : y));
  const depths = corners.map(([x, y]) => (wall === 'wall-front' ? room.box.front - y : wall === 'wall-left' ? x - room.box.left : room.box.right - x));
  return Math.max(...us) > u0 && Math.min(...us) < u1 && Math.min(...depths) < DOOR_CLEARANCE_M;
}

/** A 5 × 5 grid over the footprint (at the piece's own height), every point on a marked pixel of the photo. */
function insideMask(room: RoomModel, mask: Uint8Array, placement: Placement): boolean {
  const { width, height } = room.camera;
  const corners = footprintCorners(placement);
  for (let i = 0; i <= 4; i++) {
    for (let j = 0; j <= 4; j++) {
      const pixel = projectWorld(room.camera, bilinear(corners, i / 4, j / 4));
      if (!pixel || pixel[0] < 0 || pixel[1] < 0 || pixel[0] >= width || pixel[1] >= height) return false;
      if (mask[Math.floor(pixel[1]) * width + Math.floor(pixel[0])] === 0) return false;
    }
  }
  return true;
}

function bilinear(quad: Vec3[], u: number, v: number): Vec3 {
  const [a, b, c, d] = quad as [Vec3, Vec3, Vec3, Vec3];
  const lerp = (p: Vec3, q: Vec3, t: number): Vec3 => [p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t, p[2] + (q[2] - p[2]) * t];
  return lerp(lerp(a, b, u), lerp(d, c, u), v);
}

function imageHull(room: RoomModel, placement: Placement): [number, number][] {
  return convexHull(placement.corners.map((p) => projectWorld(room.camera, p)).filter((p): p is [number, number] => p !== undefined));
}

/**
 * Over a window or door, or door frames only the photo's lines show. Two pixels of margin: a mesh may stand up to 1 cm
 * past its footprint's box, and its edge is antialiased.
 */
function coversOpening(room: RoomModel, hull: [number, number][]): boolean {
  return [...room.openings, ...room.doorFrames].some((opening) => convexOverlap(hull, opening.polygon, OPENING_MARGIN_PX));
}

/**
 * Without depth, overlapping standing furniture in the image is taken as standing in its way (or behind it, which
 * the render would wrongly draw in front).
 */
function onStandingFurniture(obstacles: [number, number][][], hull: [number, number][]): boolean {
  return obstacles.some((outline) => convexOverlap(hull, outline));
}

/** Refusals counted by rule over every pose tried. */
export type Refusals = Partial<Record<BrokenRule, number>>;

export function countRefusal(refusals: Refusals, rule: BrokenRule | undefined): void {
  if (rule) refusals[rule] = (refusals[rule] ?? 0) + 1;
}

/** Why no pose was left for `piece` ("a 2.00 × 0.90 m piece", "it"), from the rules that refused the poses tried. */
export function noSpotReason(piece: string, refusals: Refusals, masked: boolean): string {
  if (masked && refusals.mask) return `the marked area has no floor where ${piece} fits`;
  if (refusals.openings) return `every spot where ${piece} fits covers a window or door (preserveWindows)`;
  if (refusals.obstacle) return `every spot where ${piece} fits is taken by furniture already in the photo`;
  if (refusals.wall) return `the photo shows no plain wall where ${piece} would stand against it or hang`;
  return `the floor seen in the photo has no free spot where ${piece} fits`;
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
