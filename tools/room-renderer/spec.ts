/**
 * Room specs: the JSON that `room_scene.py` builds a Blender scene from, the room's fixed geometry (walls, surfaces,
 * openings as rectangles on the walls' inner planes), and the seeded generator that draws realistic rooms.
 *
 * Spec `i` of seed `s` depends only on (s, i): `--count 12` renders the first 12 rooms of `--count 100`.
 */
import {
  type Camera,
  type Vec2,
  type Vec3,
  intrinsicsFromHorizontalFov,
  mulMatVec,
  pixelRay,
  polygonArea,
  projectPolygon,
  rotationWorldToCamera,
  transpose,
  worldToCamera,
} from './geometry.js';

export const SPEC_VERSION = 1;

export type WallId = 'north' | 'east' | 'south' | 'west';
export const WALL_IDS: readonly WallId[] = ['north', 'east', 'south', 'west'];
export type SurfaceId = 'floor' | 'ceiling' | WallId;
export const SURFACE_IDS: readonly SurfaceId[] = ['floor', 'ceiling', 'north', 'east', 'south', 'west'];

/** sRGB colour, components 0…1 (the Blender script converts to linear). */
export type Rgb = [number, number, number];

export type MaterialSpec =
  | { type: 'paint'; color: Rgb; noise: number; roughness: number }
  | { type: 'planks'; colors: [Rgb, Rgb]; gap: Rgb; plankLength: number; plankWidth: number; along: 'x' | 'y'; roughness: number }
  | { type: 'tiles'; colors: [Rgb, Rgb]; grout: Rgb; size: number; groutWidth: number; roughness: number }
  | { type: 'wood'; color: Rgb; roughness: number };

export interface OpeningSpec {
  id: string;
  kind: 'window' | 'door';
  wall: WallId;
  /** Extent along the wall in world coordinates: x for north/south walls, y for east/west walls (metres). */
  u0: number;
  u1: number;
  /** Extent in height above the floor (metres); doors have z0 = 0. */
  z0: number;
  z1: number;
}

export interface BoxSpec {
  /** Axis-aligned box, world coordinates (metres). */
  min: Vec3;
  max: Vec3;
  material: MaterialSpec;
}

export type FurnitureKind = 'sofa' | 'armchair' | 'bed' | 'cabinet' | 'table' | 'coffee-table' | 'crate';

export interface FurnitureSpec {
  id: string;
  kind: FurnitureKind;
  boxes: BoxSpec[];
}

export interface RoomSpec {
  version: number;
  /** `room-0007`: the render's folder name. */
  id: string;
  seed: number;
  index: number;
  image: { width: number; height: number };
  render: {
    samples: number;
    maxBounces: number;
    diffuseBounces: number;
    glossyBounces: number;
    /** Cycles noise seed. */
    seed: number;
    /** Film exposure in stops (Filmic view transform). */
    exposure: number;
  };
  room: {
    width: number;
    depth: number;
    height: number;
    wallThickness: number;
    /** Full-height solid parts of the building standing in corners of the box, floor to ceiling (an L-shaped room is the box minus one): world x/y metres, axis-aligned, each touching two walls. Absent or empty: a box room. */
    blocks?: { min: [number, number]; max: [number, number] }[];
  };
  materials: {
    floor: MaterialSpec;
    ceiling: MaterialSpec;
    walls: Record<WallId, MaterialSpec>;
    frame: MaterialSpec;
    door: MaterialSpec;
  };
  openings: OpeningSpec[];
  furniture: FurnitureSpec[];
  camera: {
    /** World position of the centre of projection (metres); position[2] is the height above the floor. */
    position: Vec3;
    yawDeg: number;
    pitchDeg: number;
    rollDeg: number;
    hfovDeg: number;
    /** How the yaw was drawn: aligned with a wall (one-point) or looking towards a corner (two-point). */
    perspective: 'one-point' | 'two-point';
  };
  light: {
    /** Direction towards the sun: bearing from +Y towards +X and elevation above the horizon (degrees). */
    sun: { azimuthDeg: number; elevationDeg: number; strength: number; angleDeg: number };
    sky: { strength: number; turbidity: number };
    /**
     * A point lamp 0.5 m under the ceiling above the floor's centroid (the ceiling's centre in a box room; clear of a
     * block that covers at most half the width and depth, as the generator's do), watts; size = radius, metres; not
     * visible to the camera.
     */
    fill: { power: number; size: number };
  };
  /** World points Blender projects with its own camera model, so the driver can compare with its projection. */
  checkPoints: { id: string; world: Vec3 }[];
}

// ---------------------------------------------------------------------------------------------------------------
// Room geometry shared by the generator, the truth and the label ray caster.

/** Bearing (from +Y towards +X, degrees) of each wall's outward normal, i.e. of the wall seen from inside. */
export const WALL_BEARING: Record<WallId, number> = { north: 0, east: 90, south: 180, west: 270 };

/** Unit outward normal of a wall (from the room's interior towards the wall). */
export function wallNormal(wall: WallId): Vec3 {
  switch (wall) {
    case 'north':
      return [0, 1, 0];
    case 'east':
      return [1, 0, 0];
    case 'south':
      return [0, -1, 0];
    case 'west':
      return [-1, 0, 0];
  }
}

/** Length of a wall's inner face: the room's width for north/south walls, its depth for east/west walls. */
export function wallLength(room: RoomSpec['room'], wall: WallId): number {
  return wall === 'north' || wall === 'south' ? room.width : room.depth;
}

/** The world point on a wall's inner plane at coordinate u along it (world x or y) and height z. */
export function wallPoint(room: RoomSpec['room'], wall: WallId, u: number, z: number): Vec3 {
  switch (wall) {
    case 'north':
      return [u, room.depth, z];
    case 'south':
      return [u, 0, z];
    case 'east':
      return [room.width, u, z];
    case 'west':
      return [0, u, z];
  }
}

/** Does u increase from left to right for a viewer inside the room facing the wall? */
function uIncreasesToTheRight(wall: WallId): boolean {
  return wall === 'north' || wall === 'west';
}

/**
 * A rectangle on a wall's inner plane as four world points: bottom-left, bottom-right, top-right, top-left as seen
 * from inside the room.
 */
export function wallRectangle(room: RoomSpec['room'], wall: WallId, u0: number, u1: number, z0: number, z1: number): Vec3[] {
  const [l, r] = uIncreasesToTheRight(wall) ? [u0, u1] : [u1, u0];
  return [wallPoint(room, wall, l, z0), wallPoint(room, wall, r, z0), wallPoint(room, wall, r, z1), wallPoint(room, wall, l, z1)];
}

/**
 * The six faces of the room's interior box as world polygons. Walls run bottom-left, bottom-right, top-right, top-left
 * seen from inside; the floor and the ceiling start at the south-west corner.
 */
export function surfacePolygon(room: RoomSpec['room'], surface: SurfaceId): Vec3[] {
  const { width: W, depth: D, height: H } = room;
  switch (surface) {
    case 'floor':
      return [[0, 0, 0], [W, 0, 0], [W, D, 0], [0, D, 0]];
    case 'ceiling':
      return [[0, 0, H], [0, D, H], [W, D, H], [W, 0, H]];
    default:
      return wallRectangle(room, surface, 0, wallLength(room, surface), 0, H);
  }
}

/** The room's 8 corners, named by floor/ceiling and compass quadrant (sw = x 0, y 0; ne = x width, y depth). */
export function roomCorners(room: RoomSpec['room']): { id: string; world: Vec3 }[] {
  const { width: W, depth: D, height: H } = room;
  const out: { id: string; world: Vec3 }[] = [];
  for (const [level, z] of [['floor', 0], ['ceiling', H]] as const) {
    out.push({ id: `${level}-sw`, world: [0, 0, z] });
    out.push({ id: `${level}-se`, world: [W, 0, z] });
    out.push({ id: `${level}-ne`, world: [W, D, z] });
    out.push({ id: `${level}-nw`, world: [0, D, z] });
  }
  return out;
}

/** The room's 12 edges: where two of its surfaces meet. */
export function roomEdges(room: RoomSpec['room']): { id: string; surfaces: [SurfaceId, SurfaceId]; a: Vec3; b: Vec3 }[] {
  const { width: W, depth: D, height: H } = room;
  const edges: { id: string; surfaces: [SurfaceId, SurfaceId]; a: Vec3; b: Vec3 }[] = [];
  for (const [level, z] of [['floor', 0], ['ceiling', H]] as const) {
    edges.push({ id: `${level}-north`, surfaces: [level, 'north'], a: [0, D, z], b: [W, D, z] });
    edges.push({ id: `${level}-east`, surfaces: [level, 'east'], a: [W, 0, z], b: [W, D, z] });
    edges.push({ id: `${level}-south`, surfaces: [level, 'south'], a: [0, 0, z], b: [W, 0, z] });
    edges.push({ id: `${level}-west`, surfaces: [level, 'west'], a: [0, 0, z], b: [0, D, z] });
  }
  edges.push({ id: 'north-east', surfaces: ['north', 'east'], a: [W, D, 0], b: [W, D, H] });
  edges.push({ id: 'east-south', surfaces: ['east', 'south'], a: [W, 0, 0], b: [W, 0, H] });
  edges.push({ id: 'south-west', surfaces: ['south', 'west'], a: [0, 0, 0], b: [0, 0, H] });
  edges.push({ id: 'west-north', surfaces: ['west', 'north'], a: [0, D, 0], b: [0, D, H] });
  return edges;
}

export function openingRectangle(room: RoomSpec['room'], o: OpeningSpec): Vec3[] {
  return wallRectangle(room, o.wall, o.u0, o.u1, o.z0, o.z1);
}

export type WallLabel = 'left' | 'front' | 'right' | 'back';

/**
 * A wall's label relative to the camera: the bearing of its outward normal minus the camera's yaw, wrapped to
 * [−180°, 180°), is front in [−45°, 45°), right in [45°, 135°), left in [−135°, −45°) and back otherwise.
 */
export function wallLabel(wall: WallId, yawDeg: number): WallLabel {
  let rel = (WALL_BEARING[wall] - yawDeg) % 360;
  if (rel < -180) rel += 360;
  if (rel >= 180) rel -= 360;
  if (rel >= -45 && rel < 45) return 'front';
  if (rel >= 45 && rel < 135) return 'right';
  if (rel >= -135 && rel < -45) return 'left';
  return 'back';
}

/** Label classes: the pixel values of labels.png and layout.png. */
export const CLASS_IDS = {
  none: 0,
  floor: 1,
  ceiling: 2,
  'wall-left': 3,
  'wall-front': 4,
  'wall-right': 5,
  'wall-back': 6,
  window: 7,
  door: 8,
  furniture: 9,
} as const;
export type ClassName = keyof typeof CLASS_IDS;

export function surfaceClass(surface: SurfaceId, yawDeg: number): number {
  if (surface === 'floor') return CLASS_IDS.floor;
  if (surface === 'ceiling') return CLASS_IDS.ceiling;
  return CLASS_IDS[`wall-${wallLabel(surface, yawDeg)}`];
}

// ---------------------------------------------------------------------------------------------------------------
// Blocks: full-height solid parts of the building standing in corners of the box (an L-shaped room is the box minus
// one). The truth, the label ray caster, the generator and room_scene.py share these rules.

export type BlockSpec = NonNullable<RoomSpec['room']['blocks']>[number];

/** The shapes the generator draws: the box, or the box minus one block (an L). */
export type RoomShape = 'box' | 'l';
export const ROOM_SHAPES: readonly RoomShape[] = ['box', 'l'];

/**
 * A block's face towards the room, named after the wall it is parallel to and faces the same way as (seen from inside,
 * it stands where that wall would stand): `block-0-east` is block 0's face at x = min x, looked at towards +x.
 */
export type BlockFaceId = `block-${number}-${WallId}`;
/** A face of the room's shell: the box's floor, ceiling and walls, and the blocks' faces towards the room. */
export type ShellSurfaceId = SurfaceId | BlockFaceId;

export interface BlockFace {
  id: BlockFaceId;
  block: number;
  /** The wall whose class and paint the face takes. */
  wall: WallId;
  /** World coordinate of the face's plane: x for east/west faces, y for north/south faces. */
  plane: number;
  /** Extent along the face in world coordinates, as `u` along a wall of its orientation. */
  u0: number;
  u1: number;
}

/** The faces of the room's blocks that look into the room (faces on the box's walls, floor and ceiling are hidden). */
export function blockFaces(room: RoomSpec['room']): BlockFace[] {
  const faces: BlockFace[] = [];
  for (const [block, b] of (room.blocks ?? []).entries()) {
    const face = (wall: WallId, plane: number, u0: number, u1: number): void => {
      faces.push({ id: `block-${block}-${wall}`, block, wall, plane, u0, u1 });
    };
    if (b.min[0] > 0) face('east', b.min[0], b.min[1], b.max[1]);
    if (b.max[0] < room.width) face('west', b.max[0], b.min[1], b.max[1]);
    if (b.min[1] > 0) face('north', b.min[1], b.min[0], b.max[0]);
    if (b.max[1] < room.depth) face('south', b.max[1], b.min[0], b.max[0]);
  }
  return faces;
}

/** A block face as four world points: bottom-left, bottom-right, top-right, top-left seen from inside the room. */
export function blockFaceRectangle(room: RoomSpec['room'], face: BlockFace): Vec3[] {
  const at = (u: number, z: number): Vec3 => (face.wall === 'north' || face.wall === 'south' ? [u, face.plane, z] : [face.plane, u, z]);
  const [l, r] = uIncreasesToTheRight(face.wall) ? [face.u0, face.u1] : [face.u1, face.u0];
  return [at(l, 0), at(r, 0), at(r, room.height), at(l, room.height)];
}

/** Whether a point (the camera) is on the room's side of a block face, the side it can be seen from. */
export function faceSeenFrom(face: BlockFace, p: Vec3): boolean {
  switch (face.wall) {
    case 'east':
      return p[0] < face.plane;
    case 'west':
      return p[0] > face.plane;
    case 'north':
      return p[1] < face.plane;
    case 'south':
      return p[1] > face.plane;
  }
}

/** One side of the room's outline seen from above: the part of a wall, or the block face, it lies on. */
export interface OutlineSide {
  id: ShellSurfaceId;
  /** The wall whose class the side takes (for a box wall, the wall itself). */
  wall: WallId;
  a: Vec2;
  b: Vec2;
}

/** The box's corners counter-clockwise seen from above, from the south-west, with the walls that arrive and leave. */
const BOX_CORNERS = [
  { id: 'sw', x: 0, y: 0, incoming: 'west' },
  { id: 'se', x: 1, y: 0, incoming: 'south' },
  { id: 'ne', x: 1, y: 1, incoming: 'east' },
  { id: 'nw', x: 0, y: 1, incoming: 'north' },
] as const;

/** Compass name of the box corner between two walls, as roomCorners names it. */
export function boxCornerName(a: WallId, b: WallId): string | null {
  const pair = new Set([a, b]);
  if (pair.has('south') && pair.has('west')) return 'sw';
  if (pair.has('south') && pair.has('east')) return 'se';
  if (pair.has('north') && pair.has('east')) return 'ne';
  if (pair.has('north') && pair.has('west')) return 'nw';
  return null;
}

/**
 * The room's outline seen from above, counter-clockwise from the south-west corner: the box's corners, each one a block
 * stands in replaced by the three corners the block makes (where it meets the wall arriving there, its own corner in
 * the room, where it meets the wall leaving). Throws unless every block lies in the box, stands in exactly one of its
 * corners and overlaps no other block.
 */
export function roomOutline(room: RoomSpec['room']): OutlineSide[] {
  const { width: W, depth: D } = room;
  const blocks = room.blocks ?? [];
  for (const [i, b] of blocks.entries()) {
    const inside = b.min[0] >= 0 && b.min[1] >= 0 && b.max[0] <= W && b.max[1] <= D && b.min[0] < b.max[0] && b.min[1] < b.max[1];
    const corners = BOX_CORNERS.filter((c) => b.min[0] <= c.x * W && c.x * W <= b.max[0] && b.min[1] <= c.y * D && c.y * D <= b.max[1]);
    if (!inside || corners.length !== 1) throw new Error(`block ${i} does not stand in one corner of the room`);
    for (const [j, o] of blocks.entries()) {
      if (j > i && b.min[0] < o.max[0] && o.min[0] < b.max[0] && b.min[1] < o.max[1] && o.min[1] < b.max[1]) throw new Error(`blocks ${i} and ${j} overlap`);
    }
  }
  const vertices: Vec2[] = [];
  for (const c of BOX_CORNERS) {
    const [cx, cy] = [c.x * W, c.y * D];
    const b = blocks.find((k) => k.min[0] <= cx && cx <= k.max[0] && k.min[1] <= cy && cy <= k.max[1]);
    if (!b) {
      vertices.push([cx, cy]);
      continue;
    }
    const ix = c.x === 0 ? b.max[0] : b.min[0];
    const iy = c.y === 0 ? b.max[1] : b.min[1];
    const alongX = c.incoming === 'south' || c.incoming === 'north';
    vertices.push(alongX ? [ix, cy] : [cx, iy], [ix, iy], alongX ? [cx, iy] : [ix, cy]);
  }
  const faces = blockFaces(room);
  return vertices.map((a, i) => {
    const b = vertices[(i + 1) % vertices.length]!;
    const axis = a[0] === b[0] ? 0 : 1;
    const plane = a[axis]!;
    const [lo, hi] = [Math.min(a[1 - axis]!, b[1 - axis]!), Math.max(a[1 - axis]!, b[1 - axis]!)];
    const box: WallId | null = axis === 0 ? (plane === 0 ? 'west' : plane === W ? 'east' : null) : plane === 0 ? 'south' : plane === D ? 'north' : null;
    if (box) return { id: box, wall: box, a, b };
    const face = faces.find((f) => (axis === 0) === (f.wall === 'east' || f.wall === 'west') && f.plane === plane && f.u0 <= lo && hi <= f.u1)!;
    return { id: face.id, wall: face.wall, a, b };
  });
}

/** The floor's corners (world x/y) counter-clockwise seen from above, from the south-west: 4 for a box, 6 for an L. */
export function floorPolygon(room: RoomSpec['room']): Vec2[] {
  return roomOutline(room).map((side) => side.a);
}

/** What a ray meets first on the room's shell. */
export interface ShellHit {
  /** Ray parameter of the hit: the point is C + t·d. */
  t: number;
  /** The box face hit, or for a block face the wall whose class it takes. */
  surface: SurfaceId;
  /** The block hit, or −1 for the box. */
  block: number;
}

/**
 * The first thing on the room's shell (the box's faces, the blocks' faces) that the ray C + t·d, t > 0, meets from a
 * point C inside the room. A block face is named after the wall it faces like: a ray travelling towards +x enters a
 * block through its face at min x, which takes the east wall's class.
 */
export function castShell(room: RoomSpec['room'], C: Vec3, d: Vec3): ShellHit {
  const { width: W, depth: D, height: H } = room;
  const hit: ShellHit = { t: Number.POSITIVE_INFINITY, surface: 'floor', block: -1 };
  const test = (tt: number, s: SurfaceId): void => {
    if (tt > 0 && tt < hit.t) {
      hit.t = tt;
      hit.surface = s;
    }
  };
  if (d[0] > 0) test((W - C[0]) / d[0], 'east');
  else if (d[0] < 0) test(-C[0] / d[0], 'west');
  if (d[1] > 0) test((D - C[1]) / d[1], 'north');
  else if (d[1] < 0) test(-C[1] / d[1], 'south');
  if (d[2] > 0) test((H - C[2]) / d[2], 'ceiling');
  else if (d[2] < 0) test(-C[2] / d[2], 'floor');
  // Blocks reach from the floor to the ceiling, so only their x and y slabs can stop a ray before it leaves the box.
  for (const [i, b] of (room.blocks ?? []).entries()) {
    let t0 = 0;
    let t1 = hit.t;
    let axis = -1;
    for (const a of [0, 1] as const) {
      if (d[a] === 0) {
        if (C[a] <= b.min[a] || C[a] >= b.max[a]) t1 = -1;
        continue;
      }
      let ta = (b.min[a] - C[a]) / d[a];
      let tb = (b.max[a] - C[a]) / d[a];
      if (ta > tb) [ta, tb] = [tb, ta];
      if (ta > t0) {
        t0 = ta;
        axis = a;
      }
      t1 = Math.min(t1, tb);
    }
    if (axis >= 0 && t0 < t1) {
      hit.t = t0;
      hit.surface = axis === 0 ? (d[0] > 0 ? 'east' : 'west') : d[1] > 0 ? 'north' : 'south';
      hit.block = i;
    }
  }
  return hit;
}

export function cameraOf(spec: Pick<RoomSpec, 'image' | 'camera'>): Camera {
  const { width, height } = spec.image;
  const c = spec.camera;
  return {
    intrinsics: intrinsicsFromHorizontalFov(width, height, c.hfovDeg),
    R: rotationWorldToCamera(c.yawDeg, c.pitchDeg, c.rollDeg),
    C: c.position,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Seeded random numbers.

/** Mulberry32: a small, fast 32-bit PRNG; returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** MurmurHash3's finaliser over (seed, index): the PRNG seed of one room. */
export function roomSeed(seed: number, index: number): number {
  let h = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class Random {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float(): number {
    return this.next();
  }
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }
  /** Integer in [lo, hi], both included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [item, w] of items) {
      r -= w;
      if (r < 0) return item;
    }
    return items[items.length - 1]![0];
  }
}

const round = (x: number, step: number): number => Math.round(x / step) * step;
/** Rounds to millimetres (and to 1e-9 to drop binary noise such as 1.2340000000000002). */
const mm = (x: number): number => Number(round(x, 0.001).toFixed(3));
const cdeg = (x: number): number => Number(round(x, 0.01).toFixed(2));

// ---------------------------------------------------------------------------------------------------------------
// Generator.

export interface GeneratorOptions {
  width: number;
  height: number;
  samples: number;
  /**
   * The shapes drawn, each room taking one of them with equal chance (default ['box']). Everything shape-related comes
   * from a second random stream, drawn only when 'l' is allowed, so box rooms are the same whatever the option.
   */
  shapes?: readonly RoomShape[];
}

export const DEFAULT_GENERATOR_OPTIONS: GeneratorOptions = { width: 640, height: 480, samples: 16, shapes: ['box'] };

/** Ranges the generator draws from (README.md documents them). */
export const RANGES = {
  roomWidth: [3, 7],
  roomDepth: [3, 7],
  roomHeight: [2.4, 3.2],
  cameraHeight: [1.1, 1.7],
  hfovDeg: [55, 90],
  pitchDeg: [-15, 5],
  windows: [1, 3],
  doors: [0, 2],
  furniture: [0, 6],
  /** A wall counts as visible when it covers at least this fraction of the image. */
  minWallFraction: 0.02,
  minFloorFraction: 0.03,
  /** Camera distance from every wall (metres), a block's faces included. */
  wallClearance: 0.4,
  /** An L's block: each side this fraction of the room's width / depth… */
  blockSide: [0.25, 0.5],
  /** …leaving floor legs at least this wide (metres)… */
  minLeg: 1.5,
  /** …and covering this much of the image (its faces in view; at least enough to see the L by). */
  blockFraction: [0.05, 0.35],
} as const;

const WALL_PAINTS: Rgb[] = [
  [0.93, 0.92, 0.88],
  [0.95, 0.93, 0.86],
  [0.82, 0.82, 0.8],
  [0.86, 0.8, 0.7],
  [0.72, 0.78, 0.68],
  [0.72, 0.8, 0.86],
  [0.78, 0.74, 0.68],
];
const ACCENT_PAINTS: Rgb[] = [
  [0.78, 0.52, 0.4],
  [0.25, 0.32, 0.45],
  [0.3, 0.42, 0.34],
  [0.55, 0.55, 0.58],
];
const PLANK_COLOURS: [Rgb, Rgb][] = [
  [[0.62, 0.45, 0.3], [0.54, 0.37, 0.23]],
  [[0.36, 0.23, 0.15], [0.29, 0.18, 0.11]],
  [[0.8, 0.69, 0.53], [0.72, 0.6, 0.45]],
  [[0.6, 0.57, 0.52], [0.51, 0.49, 0.45]],
];
const TILE_COLOURS: { colors: [Rgb, Rgb]; grout: Rgb }[] = [
  { colors: [[0.9, 0.9, 0.88], [0.86, 0.86, 0.84]], grout: [0.55, 0.55, 0.55] },
  { colors: [[0.58, 0.58, 0.58], [0.52, 0.52, 0.53]], grout: [0.85, 0.85, 0.83] },
  { colors: [[0.8, 0.74, 0.64], [0.74, 0.67, 0.57]], grout: [0.62, 0.6, 0.56] },
  { colors: [[0.3, 0.3, 0.32], [0.26, 0.26, 0.28]], grout: [0.7, 0.7, 0.7] },
];
const FABRICS: Rgb[] = [
  [0.45, 0.45, 0.47],
  [0.25, 0.33, 0.5],
  [0.78, 0.62, 0.25],
  [0.35, 0.48, 0.38],
  [0.8, 0.75, 0.66],
  [0.6, 0.3, 0.25],
];
const WOODS: Rgb[] = [
  [0.55, 0.38, 0.24],
  [0.32, 0.2, 0.13],
  [0.75, 0.63, 0.47],
  [0.9, 0.9, 0.88],
];

const paint = (color: Rgb, noise = 0.05, roughness = 0.85): MaterialSpec => ({ type: 'paint', color, noise, roughness });

function floorMaterial(rng: Random): MaterialSpec {
  const kind = rng.weighted([['planks', 55], ['tiles', 30], ['carpet', 15]] as const);
  if (kind === 'planks') {
    return {
      type: 'planks',
      colors: rng.pick(PLANK_COLOURS),
      gap: [0.12, 0.08, 0.05],
      plankLength: mm(rng.uniform(0.9, 2.0)),
      plankWidth: mm(rng.uniform(0.12, 0.22)),
      along: rng.pick(['x', 'y'] as const),
      roughness: 0.55,
    };
  }
  if (kind === 'tiles') {
    const t = rng.pick(TILE_COLOURS);
    return { type: 'tiles', colors: t.colors, grout: t.grout, size: mm(rng.uniform(0.3, 0.6)), groutWidth: mm(rng.uniform(0.004, 0.008)), roughness: 0.4 };
  }
  return paint(rng.pick([[0.55, 0.53, 0.5], [0.7, 0.64, 0.55], [0.4, 0.42, 0.46]] as Rgb[]), 0.18, 1);
}

/** Image area fraction of each surface for a camera. */
export function surfaceFractions(spec: Pick<RoomSpec, 'image' | 'camera' | 'room'>): Record<SurfaceId, number> {
  const camera = cameraOf(spec);
  const total = spec.image.width * spec.image.height;
  const out = {} as Record<SurfaceId, number>;
  for (const s of SURFACE_IDS) out[s] = Math.abs(polygonArea(projectPolygon(camera, surfacePolygon(spec.room, s)))) / total;
  return out;
}

function bearingOf(dx: number, dy: number): number {
  return (Math.atan2(dx, dy) * 180) / Math.PI;
}

function drawCamera(rng: Random, room: RoomSpec['room'], image: RoomSpec['image']): RoomSpec['camera'] {
  const hfovDeg = cdeg(rng.uniform(RANGES.hfovDeg[0], RANGES.hfovDeg[1]));
  const heightM = mm(rng.uniform(RANGES.cameraHeight[0], RANGES.cameraHeight[1]));
  const pitchDeg = rng.chance(0.3) ? 0 : cdeg(rng.uniform(RANGES.pitchDeg[0], RANGES.pitchDeg[1]));
  const perspective = rng.chance(0.4) ? 'one-point' : 'two-point';
  const clear = RANGES.wallClearance;
  for (let attempt = 0; attempt < 500; attempt++) {
    let x: number;
    let y: number;
    let yawDeg: number;
    if (perspective === 'one-point') {
      const front = rng.pick(WALL_IDS);
      yawDeg = WALL_BEARING[front];
      const along = front === 'north' || front === 'south' ? room.depth : room.width;
      const across = front === 'north' || front === 'south' ? room.width : room.depth;
      const back = rng.uniform(clear, Math.max(clear, 0.45 * along));
      const lateral = rng.uniform(0.3, 0.7) * across;
      // Local (lateral from the wall on the camera's left, distance from the wall behind) to world.
      switch (front) {
        case 'north':
          [x, y] = [lateral, back];
          break;
        case 'south':
          [x, y] = [room.width - lateral, room.depth - back];
          break;
        case 'east':
          [x, y] = [back, room.depth - lateral];
          break;
        case 'west':
          [x, y] = [room.width - back, lateral];
          break;
      }
    } else {
      const tx = rng.chance(0.5) ? 0 : room.width;
      const ty = rng.chance(0.5) ? 0 : room.depth;
      const ox = rng.uniform(clear, Math.max(clear, 0.45 * room.width));
      const oy = rng.uniform(clear, Math.max(clear, 0.45 * room.depth));
      x = tx === 0 ? room.width - ox : ox;
      y = ty === 0 ? room.depth - oy : oy;
      yawDeg = bearingOf(tx - x, ty - y) + rng.uniform(-15, 15);
      const offAxis = Math.abs(((yawDeg % 90) + 90) % 90 - 45);
      if (offAxis > 35) continue; // within 10° of a wall: not a two-point view
    }
    x = Math.min(room.width - clear, Math.max(clear, x));
    y = Math.min(room.depth - clear, Math.max(clear, y));
    const camera: RoomSpec['camera'] = {
      position: [mm(x), mm(y), heightM],
      yawDeg: cdeg(((yawDeg % 360) + 360) % 360),
      pitchDeg,
      rollDeg: 0,
      hfovDeg,
      perspective,
    };
    const f = surfaceFractions({ image, camera, room });
    const walls = WALL_IDS.filter((w) => f[w] >= RANGES.minWallFraction).length;
    if (walls >= 2 && walls <= 3 && f.floor >= RANGES.minFloorFraction) return camera;
  }
  throw new Error('no camera placement shows 2–3 walls');
}

/** What a coarse grid of rays (80 × 60 over the image) meets: the generator's view of a room with blocks. */
interface ViewSample {
  hit: ShellHit;
  /** Where the ray meets a box wall: u along it and the height. */
  u: number;
  z: number;
}

function sampleView(room: RoomSpec['room'], image: RoomSpec['image'], camera: RoomSpec['camera']): ViewSample[] {
  const viewer = cameraOf({ image, camera });
  const Rt = transpose(viewer.R);
  const C = camera.position;
  const samples: ViewSample[] = [];
  for (let j = 0; j < 60; j++) {
    for (let i = 0; i < 80; i++) {
      const d = mulMatVec(Rt, pixelRay(viewer.intrinsics, ((i + 0.5) * image.width) / 80, ((j + 0.5) * image.height) / 60));
      const hit = castShell(room, C, d);
      const along = hit.surface === 'north' || hit.surface === 'south' ? 0 : 1;
      samples.push({ hit, u: C[along]! + hit.t * d[along]!, z: C[2] + hit.t * d[2] });
    }
  }
  return samples;
}

/** Image fraction of each box surface as the grid sees it: the parts behind blocks, and the blocks, left out. */
function sampledFractions(samples: ViewSample[]): Record<SurfaceId, number> {
  const out = {} as Record<SurfaceId, number>;
  for (const s of SURFACE_IDS) out[s] = samples.filter((v) => v.hit.block < 0 && v.hit.surface === s).length / samples.length;
  return out;
}

/** Shape draws come from this stream of the room (roomSeed of the room's own seed and this number). */
const SHAPE_STREAM = 0x4c;

/**
 * An L's block for a camera already placed, or null when 40 draws fail: in a box corner in front of the camera with
 * the block's own corner in the room in view (never on the camera's side of the room), each side RANGES.blockSide of
 * the room's width / depth and legs of floor at least RANGES.minLeg wide beside it, the camera RANGES.wallClearance
 * from its faces, covering RANGES.blockFraction of the image, with the floor and two walls still in view
 * as a box room's camera sees them.
 */
function drawBlock(rng: Random, room: RoomSpec['room'], image: RoomSpec['image'], camera: RoomSpec['camera']): BlockSpec | null {
  const { width: W, depth: D } = room;
  const viewer = cameraOf({ image, camera });
  const C = camera.position;
  const corners = BOX_CORNERS.filter((c) => worldToCamera(viewer, [c.x * W, c.y * D, C[2]])[2] > 0);
  if (corners.length === 0) return null;
  const side = (length: number): number | null => {
    const lo = RANGES.blockSide[0] * length;
    const hi = Math.min(RANGES.blockSide[1] * length, length - RANGES.minLeg);
    const s = mm(rng.uniform(lo, hi));
    return s >= lo && s <= hi ? s : null;
  };
  for (let attempt = 0; attempt < 40; attempt++) {
    const c = rng.pick(corners);
    const sx = side(W);
    const sy = side(D);
    if (sx === null || sy === null) continue;
    const block: BlockSpec = {
      min: [c.x === 0 ? 0 : mm(W - sx), c.y === 0 ? 0 : mm(D - sy)],
      max: [c.x === 0 ? sx : W, c.y === 0 ? sy : D],
    };
    const clear = RANGES.wallClearance;
    if (C[0] > block.min[0] - clear && C[0] < block.max[0] + clear && C[1] > block.min[1] - clear && C[1] < block.max[1] + clear) continue;
    const inner = worldToCamera(viewer, [c.x === 0 ? block.max[0] : block.min[0], c.y === 0 ? block.max[1] : block.min[1], C[2]]);
    const u = viewer.intrinsics.fx * (inner[0] / inner[2]) + viewer.intrinsics.cx;
    if (inner[2] <= 0 || u < 0 || u > image.width) continue;
    const withBlock = { ...room, blocks: [block] };
    const covered = blockFaces(withBlock)
      .filter((f) => faceSeenFrom(f, C))
      .reduce((sum, f) => sum + Math.abs(polygonArea(projectPolygon(viewer, blockFaceRectangle(withBlock, f)))), 0);
    const share = covered / (image.width * image.height);
    if (share < RANGES.blockFraction[0] || share > RANGES.blockFraction[1]) continue;
    const f = sampledFractions(sampleView(withBlock, image, camera));
    const walls = WALL_IDS.filter((w) => f[w] >= RANGES.minWallFraction).length;
    if (walls >= 2 && f.floor >= RANGES.minFloorFraction) return block;
  }
  return null;
}

function overlaps(a: number, b: number, c: number, d: number, gap = 0): boolean {
  return a < d + gap && c < b + gap;
}

/**
 * The part [a, b] of a wall (u along it) that no block covers: blocks stand in corners, so each one a wall touches
 * covers one of its ends. For a box room, [0, length] (a = 0 exactly, so the draws below are a box room's).
 */
function freeSpan(room: RoomSpec['room'], wall: WallId): [number, number] {
  let a = 0;
  let b = wallLength(room, wall);
  const axis = wall === 'north' || wall === 'south' ? 0 : 1;
  for (const k of room.blocks ?? []) {
    const touches =
      wall === 'north' ? k.max[1] === room.depth : wall === 'south' ? k.min[1] === 0 : wall === 'east' ? k.max[0] === room.width : k.min[0] === 0;
    if (!touches) continue;
    if (k.min[axis] === 0) a = Math.max(a, k.max[axis]);
    else b = Math.min(b, k.min[axis]);
  }
  return [a, b];
}

/**
 * Windows and doors. The first window goes where at least 1 % of the image shows it (daylight and sky in every
 * render), the others on walls in view with probability 0.75.
 */
function drawOpenings(
  rng: Random,
  room: RoomSpec['room'],
  visibleWalls: WallId[],
  imageFraction: (o: OpeningSpec) => number,
): OpeningSpec[] {
  const openings: OpeningSpec[] = [];
  const windows = rng.int(RANGES.windows[0], RANGES.windows[1]);
  const doors = rng.int(RANGES.doors[0], RANGES.doors[1]);
  const kinds: ('window' | 'door')[] = [...Array<'window'>(windows).fill('window'), ...Array<'door'>(doors).fill('door')];
  for (const [n, kind] of kinds.entries()) {
    const mustShow = n === 0 && visibleWalls.length > 0;
    for (let attempt = 0; attempt < (mustShow ? 200 : 60); attempt++) {
      const onVisible = visibleWalls.length > 0 && (mustShow ? attempt < 150 : rng.chance(0.75));
      const wall = onVisible ? rng.pick(visibleWalls) : rng.pick(WALL_IDS);
      const [a, b] = freeSpan(room, wall);
      const length = b - a;
      let w: number;
      let z0: number;
      let z1: number;
      if (kind === 'window') {
        w = rng.uniform(0.7, Math.min(2.2, length - 0.6));
        z0 = rng.uniform(0.5, 1.0);
        z1 = Math.min(room.height - rng.uniform(0.15, 0.4), z0 + rng.uniform(0.9, 1.8));
        if (z1 - z0 < 0.6) continue;
      } else {
        w = rng.uniform(0.8, 1.0);
        z0 = 0;
        z1 = rng.uniform(2.0, Math.min(2.2, room.height - 0.15));
      }
      const u0 = rng.uniform(a + 0.3, b - 0.3 - w);
      if (u0 < a + 0.3) continue;
      const o: OpeningSpec = { id: '', kind, wall, u0: mm(u0), u1: mm(u0 + w), z0: mm(z0), z1: mm(z1) };
      if (openings.some((p) => p.wall === wall && overlaps(p.u0, p.u1, o.u0, o.u1, 0.3))) continue;
      if (mustShow && attempt < 150 && imageFraction(o) < 0.01) continue;
      openings.push(o);
      break;
    }
  }
  // Windows first, then doors, numbered in order.
  let wi = 0;
  let di = 0;
  for (const o of openings) o.id = o.kind === 'window' ? `window-${wi++}` : `door-${di++}`;
  return openings;
}

interface LocalBox {
  /** Along the item's length, across it (from its back), height. */
  a: [number, number];
  b: [number, number];
  z: [number, number];
  material: MaterialSpec;
}

function furnitureModel(rng: Random, kind: FurnitureKind): { boxes: LocalBox[]; wallPlaced: boolean } {
  const fabric = paint(rng.pick(FABRICS), 0.12, 1);
  const wood: MaterialSpec = { type: 'wood', color: rng.pick(WOODS), roughness: 0.6 };
  const box = (a: [number, number], b: [number, number], z: [number, number], material: MaterialSpec): LocalBox => ({ a, b, z, material });
  switch (kind) {
    case 'sofa':
    case 'armchair': {
      const L = kind === 'sofa' ? rng.uniform(1.6, 2.4) : rng.uniform(0.8, 0.95);
      const D = rng.uniform(0.8, 0.95);
      const arm = rng.uniform(0.15, 0.2);
      const seat = rng.uniform(0.4, 0.45);
      const backH = rng.uniform(0.75, 0.85);
      return {
        wallPlaced: true,
        boxes: [
          box([-L / 2, L / 2], [0, D], [0, seat], fabric),
          box([-L / 2, L / 2], [0, 0.2], [seat, backH], fabric),
          box([-L / 2, -L / 2 + arm], [0.2, D], [seat, seat + 0.2], fabric),
          box([L / 2 - arm, L / 2], [0.2, D], [seat, seat + 0.2], fabric),
        ],
      };
    }
    case 'bed': {
      const W = rng.uniform(1.4, 1.8);
      const L = rng.uniform(2.0, 2.1);
      const linen = paint([0.9, 0.9, 0.88], 0.06, 1);
      return {
        wallPlaced: true,
        boxes: [
          box([-W / 2 - 0.03, W / 2 + 0.03], [0, 0.08], [0, rng.uniform(0.95, 1.15)], wood),
          box([-W / 2, W / 2], [0.08, 0.08 + L], [0, 0.3], wood),
          box([-W / 2 + 0.02, W / 2 - 0.02], [0.1, 0.06 + L], [0.3, 0.52], linen),
          box([-W / 2 + 0.1, -0.05], [0.15, 0.5], [0.52, 0.64], linen),
          box([0.05, W / 2 - 0.1], [0.15, 0.5], [0.52, 0.64], linen),
          box([-W / 2 + 0.01, W / 2 - 0.01], [0.75, 0.07 + L], [0.52, 0.56], fabric),
        ],
      };
    }
    case 'cabinet': {
      const L = rng.uniform(0.8, 1.8);
      const D = rng.uniform(0.4, 0.55);
      const H = rng.uniform(0.7, 1.2);
      return {
        wallPlaced: true,
        boxes: [
          box([-L / 2 + 0.04, L / 2 - 0.04], [0.0, D - 0.04], [0, 0.08], paint([0.12, 0.12, 0.12], 0.02, 0.7)),
          box([-L / 2, L / 2], [0, D], [0.08, H], wood),
        ],
      };
    }
    case 'table':
    case 'coffee-table': {
      const L = kind === 'table' ? rng.uniform(1.2, 1.8) : rng.uniform(0.9, 1.2);
      const W = kind === 'table' ? rng.uniform(0.8, 1.0) : rng.uniform(0.5, 0.6);
      const H = kind === 'table' ? rng.uniform(0.73, 0.77) : rng.uniform(0.38, 0.45);
      const t = 0.04;
      const leg = 0.06;
      const boxes = [box([-L / 2, L / 2], [-W / 2, W / 2], [H - t, H], wood)];
      for (const sa of [-1, 1]) {
        for (const sb of [-1, 1]) {
          const a0 = sa < 0 ? -L / 2 + 0.05 : L / 2 - 0.05 - leg;
          const b0 = sb < 0 ? -W / 2 + 0.05 : W / 2 - 0.05 - leg;
          boxes.push(box([a0, a0 + leg], [b0, b0 + leg], [0, H - t], wood));
        }
      }
      return { wallPlaced: false, boxes };
    }
    case 'crate': {
      const s = rng.uniform(0.3, 0.6);
      const boxes = [box([-s / 2, s / 2], [-s / 2, s / 2], [0, s * rng.uniform(0.7, 1.1)], wood)];
      if (rng.chance(0.4)) {
        const s2 = s * rng.uniform(0.5, 0.8);
        const h0 = boxes[0]!.z[1];
        boxes.push(box([-s2 / 2, s2 / 2], [-s2 / 2, s2 / 2], [h0, h0 + s2 * 0.8], paint(rng.pick(FABRICS), 0.06, 0.9)));
      }
      return { wallPlaced: false, boxes };
    }
  }
}

interface Footprint {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

function footprintOf(boxes: BoxSpec[]): Footprint {
  return {
    x0: Math.min(...boxes.map((b) => b.min[0])),
    x1: Math.max(...boxes.map((b) => b.max[0])),
    y0: Math.min(...boxes.map((b) => b.min[1])),
    y1: Math.max(...boxes.map((b) => b.max[1])),
  };
}

function rectDistance(f: Footprint, x: number, y: number): number {
  const dx = Math.max(f.x0 - x, 0, x - f.x1);
  const dy = Math.max(f.y0 - y, 0, y - f.y1);
  return Math.hypot(dx, dy);
}

/** The floor rectangle in front of an opening, `reach` metres deep into the room, widened by `margin` along the wall. */
function zoneInFront(room: RoomSpec['room'], o: OpeningSpec, reach: number, margin: number): Footprint {
  const u0 = o.u0 - margin;
  const u1 = o.u1 + margin;
  switch (o.wall) {
    case 'north':
      return { x0: u0, x1: u1, y0: room.depth - reach, y1: room.depth };
    case 'south':
      return { x0: u0, x1: u1, y0: 0, y1: reach };
    case 'east':
      return { x0: room.width - reach, x1: room.width, y0: u0, y1: u1 };
    case 'west':
      return { x0: 0, x1: reach, y0: u0, y1: u1 };
  }
}

const rectsOverlap = (a: Footprint, b: Footprint, gap = 0): boolean =>
  overlaps(a.x0, a.x1, b.x0, b.x1, gap) && overlaps(a.y0, a.y1, b.y0, b.y1, gap);

function drawFurniture(rng: Random, spec: Omit<RoomSpec, 'furniture' | 'checkPoints'>): FurnitureSpec[] {
  const { room } = spec;
  const blocks = room.blocks ?? [];
  const camera = cameraOf(spec);
  const count = rng.int(RANGES.furniture[0], RANGES.furniture[1]);
  const items: FurnitureSpec[] = [];
  const footprints: Footprint[] = [];
  const kinds: readonly (readonly [FurnitureKind, number])[] = [
    ['sofa', 3],
    ['armchair', 2],
    ['bed', 1.5],
    ['cabinet', 2],
    ['table', 2],
    ['coffee-table', 1.5],
    ['crate', 2],
  ];
  for (let n = 0; n < count; n++) {
    const kind = rng.weighted(kinds);
    const model = furnitureModel(rng, kind);
    const inView = rng.chance(0.8);
    for (let attempt = 0; attempt < 60; attempt++) {
      let map: (a: number, b: number) => [number, number];
      if (model.wallPlaced) {
        const wall = rng.pick(WALL_IDS);
        const length = wallLength(room, wall);
        const halfLength = Math.max(...model.boxes.map((b) => Math.max(-b.a[0], b.a[1])));
        if (length < 2 * halfLength + 0.1) continue;
        const c = rng.uniform(halfLength + 0.05, length - halfLength - 0.05);
        const gap = 0.03;
        map = {
          north: (a: number, b: number): [number, number] => [c + a, room.depth - gap - b],
          south: (a: number, b: number): [number, number] => [c - a, gap + b],
          east: (a: number, b: number): [number, number] => [room.width - gap - b, c - a],
          west: (a: number, b: number): [number, number] => [gap + b, c + a],
        }[wall];
      } else {
        const cx = rng.uniform(0.6, room.width - 0.6);
        const cy = rng.uniform(0.6, room.depth - 0.6);
        map = rng.chance(0.5) ? (a, b) => [cx + a, cy + b] : (a, b) => [cx + b, cy + a];
      }
      const boxes: BoxSpec[] = model.boxes.map((lb) => {
        const [xa, ya] = map(lb.a[0], lb.b[0]);
        const [xb, yb] = map(lb.a[1], lb.b[1]);
        return {
          min: [mm(Math.min(xa, xb)), mm(Math.min(ya, yb)), mm(lb.z[0])],
          max: [mm(Math.max(xa, xb)), mm(Math.max(ya, yb)), mm(lb.z[1])],
          material: lb.material,
        };
      });
      const f = footprintOf(boxes);
      const top = Math.max(...boxes.map((b) => b.max[2]));
      if (f.x0 < 0.02 || f.y0 < 0.02 || f.x1 > room.width - 0.02 || f.y1 > room.depth - 0.02) continue;
      if (blocks.some((k) => rectsOverlap(f, { x0: k.min[0], x1: k.max[0], y0: k.min[1], y1: k.max[1] }, 0.02))) continue;
      if (footprints.some((g) => rectsOverlap(f, g, 0.15))) continue;
      if (rectDistance(f, spec.camera.position[0], spec.camera.position[1]) < 1.0) continue;
      if (spec.openings.some((o) => o.kind === 'door' && rectsOverlap(f, zoneInFront(room, o, 1.0, 0.1)))) continue;
      if (spec.openings.some((o) => o.kind === 'window' && top > o.z0 - 0.02 && rectsOverlap(f, zoneInFront(room, o, 0.6, 0)))) continue;
      if (inView) {
        const centre = worldToCamera(camera, [(f.x0 + f.x1) / 2, (f.y0 + f.y1) / 2, top / 2]);
        const k = camera.intrinsics;
        const u = k.fx * (centre[0] / centre[2]) + k.cx;
        if (centre[2] < 0.5 || u < 0 || u > k.width) continue;
        // In view means not behind a block either.
        const C = spec.camera.position;
        if (blocks.length > 0) {
          const hit = castShell(room, C, [(f.x0 + f.x1) / 2 - C[0], (f.y0 + f.y1) / 2 - C[1], top / 2 - C[2]]);
          if (hit.block >= 0 && hit.t < 1) continue;
        }
      }
      footprints.push(f);
      items.push({ id: `${kind}-${n}`, kind, boxes });
      break;
    }
  }
  return items;
}

function checkPointsOf(spec: Omit<RoomSpec, 'checkPoints'>): RoomSpec['checkPoints'] {
  const points: RoomSpec['checkPoints'] = roomCorners(spec.room).map((c) => ({ id: `corner:${c.id}`, world: c.world }));
  for (const [i, b] of (spec.room.blocks ?? []).entries()) {
    for (let c = 0; c < 8; c++) {
      points.push({ id: `block-${i}:${c}`, world: [c & 1 ? b.max[0] : b.min[0], c & 2 ? b.max[1] : b.min[1], c & 4 ? spec.room.height : 0] });
    }
  }
  for (const o of spec.openings) {
    openingRectangle(spec.room, o).forEach((p, i) => points.push({ id: `${o.id}:${i}`, world: p }));
  }
  for (const item of spec.furniture) {
    const b = item.boxes[0]!;
    points.push({ id: `${item.id}:max`, world: b.max });
  }
  return points;
}

/** Draws room `index` of the set with seed `seed`. */
export function generateRoomSpec(seed: number, index: number, options: GeneratorOptions = DEFAULT_GENERATOR_OPTIONS): RoomSpec {
  const rng = new Random(roomSeed(seed, index));
  const shapes = options.shapes ?? ['box'];
  if (shapes.length === 0) throw new Error('no room shape to draw');
  // The shape stream exists only when an L may be drawn, and the main stream never gives it a number: every box room
  // is the room the generator drew before shapes existed.
  const shapeRng = shapes.includes('l') ? new Random(roomSeed(roomSeed(seed, index), SHAPE_STREAM)) : null;
  const shape = shapeRng ? shapeRng.pick(shapes) : 'box';
  const box = {
    width: mm(rng.uniform(RANGES.roomWidth[0], RANGES.roomWidth[1])),
    depth: mm(rng.uniform(RANGES.roomDepth[0], RANGES.roomDepth[1])),
    height: mm(rng.uniform(RANGES.roomHeight[0], RANGES.roomHeight[1])),
    wallThickness: 0.15,
  };
  const image = { width: options.width, height: options.height };
  let camera = drawCamera(rng, box, image);
  let room: RoomSpec['room'] = box;
  if (shapeRng && shape === 'l') {
    // A camera that no block suits (it sees no corner well) is drawn again from the main stream.
    let block = drawBlock(shapeRng, box, image, camera);
    for (let tries = 1; block === null && tries < 20; tries++) {
      camera = drawCamera(rng, box, image);
      block = drawBlock(shapeRng, box, image, camera);
    }
    if (block === null) throw new Error('no camera placement suits an L-shaped room');
    room = { ...box, blocks: [block] };
  }
  const samples = room.blocks ? sampleView(room, image, camera) : null;
  const fractions = samples ? sampledFractions(samples) : surfaceFractions({ image, camera, room });
  const visibleWalls = WALL_IDS.filter((w) => fractions[w] >= RANGES.minWallFraction);
  const viewer = cameraOf({ image, camera });
  const openings = drawOpenings(
    rng,
    room,
    visibleWalls,
    samples
      ? (o) => samples.filter((v) => v.hit.block < 0 && v.hit.surface === o.wall && v.u > o.u0 && v.u < o.u1 && v.z > o.z0 && v.z < o.z1).length / samples.length
      : (o) => Math.abs(polygonArea(projectPolygon(viewer, openingRectangle(room, o)))) / (image.width * image.height),
  );

  const wallPaint = rng.pick(WALL_PAINTS);
  const walls = {} as Record<WallId, MaterialSpec>;
  for (const w of WALL_IDS) walls[w] = paint(wallPaint);
  if (rng.chance(0.25)) walls[rng.pick(WALL_IDS)] = paint(rng.pick(ACCENT_PAINTS));
  const materials: RoomSpec['materials'] = {
    floor: floorMaterial(rng),
    ceiling: paint([0.94, 0.94, 0.93], 0.03),
    walls,
    frame: paint([0.92, 0.92, 0.9], 0.02, 0.5),
    door: rng.chance(0.6) ? paint([0.9, 0.9, 0.88], 0.02, 0.5) : { type: 'wood', color: rng.pick(WOODS.slice(0, 3)), roughness: 0.5 },
  };

  // The sun shines through the first window, the one in view.
  const sunWindow = openings.find((o) => o.kind === 'window');
  const light: RoomSpec['light'] = {
    sun: {
      azimuthDeg: cdeg((((sunWindow ? WALL_BEARING[sunWindow.wall] : 0) + rng.uniform(-45, 45)) % 360 + 360) % 360),
      elevationDeg: cdeg(rng.uniform(15, 40)),
      strength: cdeg(rng.uniform(3, 5)),
      angleDeg: 1,
    },
    sky: { strength: cdeg(rng.uniform(4, 7)), turbidity: cdeg(rng.uniform(2, 4)) },
    fill: { power: Math.round(rng.uniform(80, 160)), size: 0.25 },
  };

  const base = {
    version: SPEC_VERSION,
    id: `room-${String(index).padStart(4, '0')}`,
    seed,
    index,
    image,
    render: { samples: options.samples, maxBounces: 2, diffuseBounces: 1, glossyBounces: 1, seed: roomSeed(seed, index) % 100000, exposure: 0 },
    room,
    materials,
    openings,
    camera,
    light,
  };
  const furniture = drawFurniture(rng, base);
  const withFurniture = { ...base, furniture };
  return { ...withFurniture, checkPoints: checkPointsOf(withFurniture) };
}
