import { cameraToWorld, type PinholeCamera } from '../vision/geometry/camera.js';
import type { FaceLabel } from '../vision/geometry/room-box.js';
import type { Vec3 } from '../vision/geometry/vec3.js';

export type WallLabel = 'wall-left' | 'wall-front' | 'wall-right';

/**
 * The room as staging sees it, in the geometry analysis's world frame: metres, X right, Y forward (away from the
 * camera), Z up, the camera at the origin, the floor at z = floor (minus the camera height). The room is the
 * analysis's box: a left wall at x = left, a right wall at x = right, a front wall at y = front; the camera's side
 * of the room is open (never staged, never seen).
 */
export interface RoomModel {
  camera: PinholeCamera;
  box: { left: number; right: number; front: number; floor: number; ceiling: number };
  /** Which walls the photo shows (an unseen side wall's position is only a placeholder past the view). */
  visibleWalls: ReadonlySet<WallLabel>;
  openings: RoomOpening[];
  /**
   * Full-height parts of the building standing inside the box (an L-shaped room is the box minus one in a corner):
   * nothing stands in them and nothing behind them is seen. The geometry analysis fits boxes only, so a photo's
   * room has none; a rendered room's exact model may.
   */
  blocks: RoomBlock[];
  /** Doors the photo's upright lines show and no opening accounts for (door-frames.ts); none until they are looked for. */
  doorFrames: DoorFrame[];
}

/**
 * A stretch of wall where the photo shows a door's upright edges, or a window's jamb, standing on the floor, kept
 * clear like a door (door-frames.ts says how they are found).
 */
export interface DoorFrame {
  wall: WallLabel;
  /** Along the wall (x on the front wall, y on the side walls), metres, u0 < u1. */
  u0: number;
  u1: number;
  /** Its outline in the photo (pixels), from the floor to the edges' top: kept unhidden like a door's (preserveWindows). */
  polygon: [number, number][];
}

/** An axis-aligned rectangle of the floor plan (world metres, x0 < x1, y0 < y1) filled floor to ceiling. */
export interface RoomBlock {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** A block's outline on the floor, counter-clockwise seen from above. */
export function blockOutline(block: RoomBlock): [number, number][] {
  return [[block.x0, block.y0], [block.x1, block.y0], [block.x1, block.y1], [block.x0, block.y1]];
}

/**
 * A block's faces a piece may stand against, as the box walls they run parallel to: a face is one where the block
 * meets open floor (not the box's own walls) and does not look away from the camera's side of the room.
 * `at` is the face's plane (y for a front face, x for a side face), `u0`–`u1` its extent along it.
 */
export function blockFaces(room: Pick<RoomModel, 'box'>, block: RoomBlock): { wall: WallLabel; at: number; u0: number; u1: number }[] {
  const { left, right } = room.box;
  const faces: { wall: WallLabel; at: number; u0: number; u1: number }[] = [];
  // The face toward the camera (normal −y) reads as a front wall; it exists when the block does not reach the camera.
  if (block.y0 > 0) faces.push({ wall: 'wall-front', at: block.y0, u0: block.x0, u1: block.x1 });
  // A face toward +x reads as a left wall, toward −x as a right wall (one the camera cannot see is refused later:
  // what stands against it is hidden).
  if (block.x1 < right - 1e-6) faces.push({ wall: 'wall-left', at: block.x1, u0: block.y0, u1: block.y1 });
  if (block.x0 > left + 1e-6) faces.push({ wall: 'wall-right', at: block.x0, u0: block.y0, u1: block.y1 });
  return faces;
}

export interface RoomOpening {
  kind: 'window' | 'door' | 'french-door';
  wall: WallLabel;
  /** Along the wall (x on the front wall, y on the side walls), metres, u0 < u1. */
  u0: number;
  u1: number;
  /** Heights above the floor, metres. */
  bottom: number;
  top: number;
  /** The opening's outline in the photo (pixels). */
  polygon: [number, number][];
}

/** What the model needs of the geometry analysis (services/geometry/analyze-room.ts's RoomAnalysis has it all). */
export interface AnalysedRoom {
  image: { width: number; height: number };
  camera: { focal: number; cx: number; cy: number; rotation: number[] };
  layout: { faces: { label: FaceLabel }[]; box: { left: number; right: number; front: number; floor: number; ceiling: number } };
  openings: { kind: 'window' | 'door' | 'french-door'; wall: FaceLabel; polygon: [number, number][] }[];
}

const WALLS: readonly WallLabel[] = ['wall-left', 'wall-front', 'wall-right'];

export function roomModel(analysis: AnalysedRoom): RoomModel {
  const camera: PinholeCamera = {
    width: analysis.image.width,
    height: analysis.image.height,
    focal: analysis.camera.focal,
    cx: analysis.camera.cx,
    cy: analysis.camera.cy,
    rotation: analysis.camera.rotation as PinholeCamera['rotation'],
  };
  const box = { ...analysis.layout.box };
  const visibleWalls = new Set(WALLS.filter((wall) => analysis.layout.faces.some((f) => f.label === wall)));
  const openings: RoomOpening[] = [];
  for (const opening of analysis.openings) {
    if (!isWall(opening.wall)) continue;
    const corners = opening.polygon.map(([x, y]) => pointOnWall(camera, box, opening.wall as WallLabel, x, y));
    if (corners.some((c) => c === undefined)) continue;
    const along = corners.map((c) => alongWall(opening.wall as WallLabel, c!));
    const heights = corners.map((c) => c![2] - box.floor);
    openings.push({
      kind: opening.kind,
      wall: opening.wall,
      u0: Math.min(...along),
      u1: Math.max(...along),
      bottom: opening.kind === 'window' ? Math.max(0, Math.min(...heights)) : 0,
      top: Math.max(...heights),
      polygon: opening.polygon,
    });
  }
  return { camera, box, visibleWalls, openings, blocks: [], doorFrames: [] };
}

function isWall(label: FaceLabel): label is WallLabel {
  return (WALLS as readonly string[]).includes(label);
}

/** The world direction of the ray through a photo pixel. */
export function pixelRay(camera: PinholeCamera, x: number, y: number): Vec3 {
  return cameraToWorld(camera, [(x - camera.cx) / camera.focal, (y - camera.cy) / camera.focal, 1]);
}

/** Where the ray through a pixel meets a wall's plane (world metres), or undefined when it runs away from it. */
export function pointOnWall(camera: PinholeCamera, box: RoomModel['box'], wall: WallLabel, x: number, y: number): Vec3 | undefined {
  const d = pixelRay(camera, x, y);
  const [axis, value] = wall === 'wall-front' ? [1, box.front] : wall === 'wall-left' ? [0, box.left] : [0, box.right];
  const t = value / d[axis]!;
  if (!(t > 0) || !Number.isFinite(t)) return undefined;
  return [d[0] * t, d[1] * t, d[2] * t];
}

/** Where the ray through a pixel meets the floor (world metres), or undefined at or above the horizon. */
export function pointOnFloor(camera: PinholeCamera, floor: number, x: number, y: number): Vec3 | undefined {
  const d = pixelRay(camera, x, y);
  if (d[2] >= -1e-9) return undefined;
  const t = floor / d[2];
  return [d[0] * t, d[1] * t, floor];
}

/** The world point on a wall at `u` along it and `z` above the floor. */
export function wallPoint(box: RoomModel['box'], wall: WallLabel, u: number, z: number): Vec3 {
  const height = box.floor + z;
  return wall === 'wall-front' ? [u, box.front, height] : wall === 'wall-left' ? [box.left, u, height] : [box.right, u, height];
}

/** The coordinate along a wall: x on the front wall, y on the side walls. */
export function alongWall(wall: WallLabel, p: Readonly<Vec3>): number {
  return wall === 'wall-front' ? p[0] : p[1];
}

/** The unit normal of a wall pointing into the room. */
export function wallNormal(wall: WallLabel): Vec3 {
  return wall === 'wall-front' ? [0, -1, 0] : wall === 'wall-left' ? [1, 0, 0] : [-1, 0, 0];
}

/** A world point's pixel in the photo, or undefined behind the camera. */
export function projectWorld(camera: PinholeCamera, p: Readonly<Vec3>): [number, number] | undefined {
  const r = camera.rotation;
  const x = r[0] * p[0] + r[1] * p[1] + r[2] * p[2];
  const y = r[3] * p[0] + r[4] * p[1] + r[5] * p[2];
  const z = r[6] * p[0] + r[7] * p[1] + r[8] * p[2];
  if (z <= 1e-6) return undefined;
  return [camera.cx + (camera.focal * x) / z, camera.cy + (camera.focal * y) / z];
}
