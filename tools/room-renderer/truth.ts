/**
 * truth.json: the ground truth of one render, computed from its spec alone (never from Blender's output).
 * README.md documents every field.
 */
import {
  type Camera,
  type Mat3,
  type Plane,
  type Vec2,
  type Vec3,
  type VanishingPoint,
  clipLineToImage,
  planeInCamera,
  polygonArea,
  projectPolygon,
  projectSegment,
  projectWorldPoint,
  vanishingLine,
  vanishingPoint,
  worldToCamera,
} from './geometry.js';
import {
  CLASS_IDS,
  type BlockFaceId,
  type BlockSpec,
  type FurnitureKind,
  type OpeningSpec,
  type RoomSpec,
  type ShellSurfaceId,
  type SurfaceId,
  type WallId,
  type WallLabel,
  SURFACE_IDS,
  WALL_IDS,
  blockFaceRectangle,
  blockFaces,
  boxCornerName,
  cameraOf,
  faceSeenFrom,
  floorPolygon,
  openingRectangle,
  roomCorners,
  roomEdges,
  roomOutline,
  surfaceClass,
  surfacePolygon,
  wallLabel,
  wallNormal,
  wallPoint,
  wallRectangle,
} from './spec.js';

export const TRUTH_VERSION = 1;

export const FILES = {
  spec: 'spec.json',
  truth: 'truth.json',
  beauty: 'beauty.png',
  empty: 'empty.png',
  labels: 'labels.png',
  layout: 'layout.png',
  blender: 'blender.json',
  check: 'check.json',
  overlay: 'overlay.png',
  labelsPreview: 'labels-preview.png',
} as const;

export interface SurfaceTruth {
  id: SurfaceId;
  /** For walls: left/front/right/back relative to the camera; null for floor and ceiling. */
  wallLabel: WallLabel | null;
  classId: number;
  /**
   * The full face of the room's box in world coordinates (walls: bottom-left, bottom-right, top-right, top-left from
   * inside). In a room with blocks the blocks stand in front of parts of it: their faces are drawn over it.
   */
  cornersWorld: Vec3[];
  /** Its image, clipped to the image rectangle; [] when out of view. Ignores furniture (layout, not visibility). */
  polygon: Vec2[];
  /** Area of `polygon` in pixels². */
  area: number;
  visible: boolean;
  /** The surface's plane in camera coordinates: points X on it satisfy normal·X = distance. */
  planeCamera: Plane;
}

export interface OpeningTruth {
  id: string;
  kind: 'window' | 'door';
  wall: WallId;
  wallLabel: WallLabel;
  classId: number;
  /** Along-wall extent (world x for north/south walls, y for east/west) and height range, metres. */
  u0: number;
  u1: number;
  z0: number;
  z1: number;
  /** The opening's rectangle on the wall's inner plane (bottom-left, bottom-right, top-right, top-left from inside). */
  cornersWorld: Vec3[];
  /**
   * Its image, clipped to the image; [] when out of view. Furniture in front of it is ignored; in a room with blocks it
   * is the image of the part no block hides.
   */
  polygon: Vec2[];
  area: number;
  visible: boolean;
}

/** A block's face towards the room (rooms with blocks only). */
export interface BlockFaceTruth {
  /** `block-0-east`: block 0's face that looks like the east wall (its outward normal, seen from the room, is +X). */
  id: BlockFaceId;
  /** The wall it is parallel to and faces the same way as: it takes that wall's label and class. */
  wall: WallId;
  wallLabel: WallLabel;
  classId: number;
  /** Bottom-left, bottom-right, top-right, top-left seen from inside the room. */
  cornersWorld: Vec3[];
  /** Its image, clipped to the image; [] when out of view or when the camera is behind its plane (the block hides it). */
  polygon: Vec2[];
  area: number;
  visible: boolean;
  planeCamera: Plane;
}

export interface BlockTruth {
  id: string;
  /** World x/y extent; the block reaches from the floor to the ceiling. */
  min: [number, number];
  max: [number, number];
  faces: BlockFaceTruth[];
}

export type EdgeKind = 'floor-wall' | 'ceiling-wall' | 'wall-wall';

export interface Truth {
  version: number;
  id: string;
  seed: number;
  index: number;
  files: { beauty: string; empty: string; labels: string; layout: string; spec: string };
  image: { width: number; height: number };
  intrinsics: { fx: number; fy: number; cx: number; cy: number; K: Mat3; hfovDeg: number; vfovDeg: number };
  camera: {
    positionWorld: Vec3;
    heightAboveFloor: number;
    yawDeg: number;
    pitchDeg: number;
    rollDeg: number;
    /** World→camera: X_cam = R · (X_world − positionWorld); rows are the camera's right, down and forward axes. */
    rotationWorldToCamera: Mat3;
    perspective: 'one-point' | 'two-point';
  };
  room: { width: number; depth: number; height: number };
  /** Rooms with blocks only: the floor's corners, world x/y, counter-clockwise seen from above (6 for an L). */
  floorPolygon?: Vec2[];
  vanishingPoints: { x: VanishingPoint; y: VanishingPoint; z: VanishingPoint };
  horizon: { line: Vec3; segment: [Vec2, Vec2] | null };
  floorPlane: Plane;
  ceilingPlane: Plane;
  classes: Record<string, number>;
  wallClasses: Record<WallId, number>;
  surfaces: SurfaceTruth[];
  /** Rooms with blocks only: the blocks and their faces towards the room, which the layout draws over `surfaces`. */
  blocks?: BlockTruth[];
  /** In a room with blocks, the corners of its outline, and `occluded` says whether a block hides the corner. */
  corners: { id: string; world: Vec3; camera: Vec3; pixel: Vec2 | null; inImage: boolean; occluded?: boolean }[];
  /** `segment`: the visible part, in view and (in a room with blocks) not hidden by a block. */
  edges: { id: string; surfaces: [ShellSurfaceId, ShellSurfaceId]; kind: EdgeKind; segment: [Vec2, Vec2] | null }[];
  openings: OpeningTruth[];
  furniture: { id: string; kind: FurnitureKind; boxes: { min: Vec3; max: Vec3 }[] }[];
}

/**
 * Whether a block hides the plan point p from the plan point c: the segment between them runs through a block's inside
 * for some length (blocks reach from the floor to the ceiling, so what hides a point at one height hides it at all).
 */
function hiddenPoint(blocks: BlockSpec[], c: Vec2, p: Vec2): boolean {
  for (const b of blocks) {
    let t0 = 0;
    let t1 = 1;
    for (const a of [0, 1] as const) {
      const d = p[a] - c[a];
      if (d === 0) {
        if (c[a] <= b.min[a] || c[a] >= b.max[a]) t1 = -1;
        continue;
      }
      const ta = (b.min[a] - c[a]) / d;
      const tb = (b.max[a] - c[a]) / d;
      t0 = Math.max(t0, Math.min(ta, tb));
      t1 = Math.min(t1, Math.max(ta, tb));
    }
    if (t1 - t0 > 1e-9) return true;
  }
  return false;
}

/** Sutherland–Hodgman clipping of a 2-D polygon against half-planes k0 + k1·x + k2·y ≥ 0. */
function clipPolygon2(polygon: Vec2[], halfPlanes: Vec3[]): Vec2[] {
  let out = polygon;
  for (const [k0, k1, k2] of halfPlanes) {
    const input = out;
    out = [];
    for (let i = 0; i < input.length; i++) {
      const a = input[i]!;
      const b = input[(i + 1) % input.length]!;
      const fa = k0 + k1 * a[0] + k2 * a[1];
      const fb = k0 + k1 * b[0] + k2 * b[1];
      if (fa >= 0) out.push(a);
      if ((fa >= 0 && fb < 0) || (fa < 0 && fb >= 0)) {
        const t = fa / (fa - fb);
        out.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
      }
    }
  }
  return out;
}

/**
 * The part [s0, s1] of the plan segment a + s·(b − a), s in [0, 1], that a block hides from c, or null. The points
 * c + τ·(a − c) + σ·(b − a) with 0 ≤ σ ≤ τ ≤ 1 fill the triangle c, a, b; the block's inside is a convex polygon of
 * (τ, σ), and the sightline through such a point reaches the segment at s = σ/τ, whose extremes lie at its vertices.
 * A polygon of no area is a sightline that only touches the block (an edge along the face it lies on).
 */
function hiddenSpan(block: BlockSpec, c: Vec2, a: Vec2, b: Vec2): [number, number] | null {
  const halfPlanes: Vec3[] = [];
  for (const k of [0, 1] as const) {
    const [q0, qt, qs] = [c[k], a[k] - c[k], b[k] - a[k]];
    halfPlanes.push([q0 - block.min[k], qt, qs], [block.max[k] - q0, -qt, -qs]);
  }
  const region = clipPolygon2(
    [
      [0, 0],
      [1, 0],
      [1, 1],
    ],
    halfPlanes,
  );
  if (region.length < 3 || Math.abs(polygonArea(region)) <= 1e-12) return null;
  const s = region.filter(([tau]) => tau > 1e-12).map(([tau, sigma]) => Math.min(1, Math.max(0, sigma / tau)));
  return [Math.min(...s), Math.max(...s)];
}

/** The visible part [s0, s1] of a plan segment, or null; throws when blocks leave it in pieces (one segment per edge). */
function visibleSpan(blocks: BlockSpec[], c: Vec2, a: Vec2, b: Vec2, id: string): [number, number] | null {
  const hidden = blocks.map((k) => hiddenSpan(k, c, a, b)).filter((h): h is [number, number] => h !== null);
  hidden.sort((p, q) => p[0] - q[0]);
  const pieces: [number, number][] = [];
  let from = 0;
  for (const [h0, h1] of hidden) {
    if (h0 - from > 1e-9) pieces.push([from, h0]);
    from = Math.max(from, h1);
  }
  if (1 - from > 1e-9) pieces.push([from, 1]);
  if (pieces.length > 1) throw new Error(`edge ${id} is seen in ${pieces.length} pieces; the truth holds one segment per edge`);
  return pieces[0] ?? null;
}

function openingTruth(spec: RoomSpec, camera: Camera, o: OpeningSpec): OpeningTruth {
  const cornersWorld = openingRectangle(spec.room, o);
  const blocks = spec.room.blocks ?? [];
  let polygon: Vec2[];
  if (blocks.length === 0) {
    polygon = projectPolygon(camera, cornersWorld);
  } else {
    // Full-height blocks hide a wall by u alone, so what they leave of the opening is a rectangle [u0', u1'] × [z0, z1].
    const C = spec.camera.position;
    const [a, b] = [wallPoint(spec.room, o.wall, o.u0, 0), wallPoint(spec.room, o.wall, o.u1, 0)];
    const span = visibleSpan(blocks, [C[0], C[1]], [a[0], a[1]], [b[0], b[1]], o.id);
    const at = (s: number): number => o.u0 + s * (o.u1 - o.u0);
    polygon = span ? projectPolygon(camera, wallRectangle(spec.room, o.wall, at(span[0]), at(span[1]), o.z0, o.z1)) : [];
  }
  const area = Math.abs(polygonArea(polygon));
  return {
    id: o.id,
    kind: o.kind,
    wall: o.wall,
    wallLabel: wallLabel(o.wall, spec.camera.yawDeg),
    classId: o.kind === 'window' ? CLASS_IDS.window : CLASS_IDS.door,
    u0: o.u0,
    u1: o.u1,
    z0: o.z0,
    z1: o.z1,
    cornersWorld,
    polygon,
    area,
    visible: area > 0,
  };
}

function edgeKind(a: ShellSurfaceId): EdgeKind {
  return a === 'floor' ? 'floor-wall' : a === 'ceiling' ? 'ceiling-wall' : 'wall-wall';
}

/**
 * Corners and edges of a room with blocks, from its outline: a corner at each outline corner on the floor and on the
 * ceiling, named by the compass for a corner of the box (`floor-sw`) and otherwise by its vertical edge
 * (`floor-east-block-0-north`); floor and ceiling edges along each side (`floor-block-0-north`), and the vertical
 * edges, named `<side leaving>-<side arriving>` counter-clockwise as the box's are (`south-west`).
 */
function outlineCornersAndEdges(spec: RoomSpec, camera: Camera): Pick<Truth, 'corners' | 'edges'> {
  const k = camera.intrinsics;
  const H = spec.room.height;
  const blocks = spec.room.blocks ?? [];
  const C = spec.camera.position;
  const c: Vec2 = [C[0], C[1]];
  const outline = roomOutline(spec.room);
  const n = outline.length;
  const vertical = outline.map((leaving, i) => {
    const arriving = outline[(i + n - 1) % n]!;
    const id = `${leaving.id}-${arriving.id}`;
    const compass = leaving.id === leaving.wall && arriving.id === arriving.wall ? boxCornerName(leaving.wall, arriving.wall) : null;
    return { id, name: compass ?? id, surfaces: [leaving.id, arriving.id] as [ShellSurfaceId, ShellSurfaceId], at: leaving.a };
  });
  const corners: Truth['corners'] = [];
  for (const [level, z] of [['floor', 0], ['ceiling', H]] as const) {
    for (const v of vertical) {
      const world: Vec3 = [v.at[0], v.at[1], z];
      const cam = worldToCamera(camera, world);
      const pixel = cam[2] > 0 ? projectWorldPoint(camera, world).pixel : null;
      const inImage = pixel !== null && pixel[0] >= 0 && pixel[0] <= k.width && pixel[1] >= 0 && pixel[1] <= k.height;
      corners.push({ id: `${level}-${v.name}`, world, camera: cam, pixel, inImage, occluded: hiddenPoint(blocks, c, v.at) });
    }
  }
  const edges: Truth['edges'] = [];
  for (const [level, z] of [['floor', 0], ['ceiling', H]] as const) {
    for (const side of outline) {
      const id = `${level}-${side.id}`;
      const span = visibleSpan(blocks, c, side.a, side.b, id);
      const at = (s: number): Vec3 => [side.a[0] + s * (side.b[0] - side.a[0]), side.a[1] + s * (side.b[1] - side.a[1]), z];
      edges.push({ id, surfaces: [level, side.id], kind: edgeKind(level), segment: span ? projectSegment(camera, at(span[0]), at(span[1])) : null });
    }
  }
  for (const v of vertical) {
    const segment = hiddenPoint(blocks, c, v.at) ? null : projectSegment(camera, [v.at[0], v.at[1], 0], [v.at[0], v.at[1], H]);
    edges.push({ id: v.id, surfaces: v.surfaces, kind: 'wall-wall', segment });
  }
  return { corners, edges };
}

function blockTruth(spec: RoomSpec, camera: Camera): BlockTruth[] {
  const faces = blockFaces(spec.room);
  return (spec.room.blocks ?? []).map((b, i) => ({
    id: `block-${i}`,
    min: b.min,
    max: b.max,
    faces: faces
      .filter((f) => f.block === i)
      .map((f) => {
        const cornersWorld = blockFaceRectangle(spec.room, f);
        const polygon = faceSeenFrom(f, spec.camera.position) ? projectPolygon(camera, cornersWorld) : [];
        const area = Math.abs(polygonArea(polygon));
        return {
          id: f.id,
          wall: f.wall,
          wallLabel: wallLabel(f.wall, spec.camera.yawDeg),
          classId: surfaceClass(f.wall, spec.camera.yawDeg),
          cornersWorld,
          polygon,
          area,
          visible: area > 0,
          planeCamera: planeInCamera(camera, cornersWorld[0]!, wallNormal(f.wall)),
        };
      }),
  }));
}

export function computeTruth(spec: RoomSpec): Truth {
  const camera = cameraOf(spec);
  const k = camera.intrinsics;
  const { width: W, depth: D, height: H } = spec.room;

  const surfaces: SurfaceTruth[] = SURFACE_IDS.map((id) => {
    const cornersWorld = surfacePolygon(spec.room, id);
    const polygon = projectPolygon(camera, cornersWorld);
    const area = Math.abs(polygonArea(polygon));
    const normal: Vec3 = id === 'floor' ? [0, 0, -1] : id === 'ceiling' ? [0, 0, 1] : wallNormal(id);
    return {
      id,
      wallLabel: id === 'floor' || id === 'ceiling' ? null : wallLabel(id, spec.camera.yawDeg),
      classId: surfaceClass(id, spec.camera.yawDeg),
      cornersWorld,
      polygon,
      area,
      visible: area > 0,
      planeCamera: planeInCamera(camera, cornersWorld[0]!, normal),
    };
  });

  const wallClasses = {} as Record<WallId, number>;
  for (const w of WALL_IDS) wallClasses[w] = surfaceClass(w, spec.camera.yawDeg);

  const hasBlocks = (spec.room.blocks ?? []).length > 0;
  // A box room keeps its 8 corners and 12 edges; a room with blocks has those of its outline.
  const { corners, edges } = hasBlocks
    ? outlineCornersAndEdges(spec, camera)
    : {
        corners: roomCorners(spec.room).map(({ id, world }) => {
          const cam = worldToCamera(camera, world);
          const pixel = cam[2] > 0 ? projectWorldPoint(camera, world).pixel : null;
          const inImage = pixel !== null && pixel[0] >= 0 && pixel[0] <= k.width && pixel[1] >= 0 && pixel[1] <= k.height;
          return { id, world, camera: cam, pixel, inImage };
        }),
        edges: roomEdges(spec.room).map((e) => ({ id: e.id, surfaces: e.surfaces, kind: edgeKind(e.surfaces[0]), segment: projectSegment(camera, e.a, e.b) })),
      };

  const horizonLine = vanishingLine(camera, [0, 0, 1]);
  const truth: Truth = {
    version: TRUTH_VERSION,
    id: spec.id,
    seed: spec.seed,
    index: spec.index,
    files: { beauty: FILES.beauty, empty: FILES.empty, labels: FILES.labels, layout: FILES.layout, spec: FILES.spec },
    image: { ...spec.image },
    intrinsics: { fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy, K: k.K, hfovDeg: k.hfovDeg, vfovDeg: k.vfovDeg },
    camera: {
      positionWorld: spec.camera.position,
      heightAboveFloor: spec.camera.position[2],
      yawDeg: spec.camera.yawDeg,
      pitchDeg: spec.camera.pitchDeg,
      rollDeg: spec.camera.rollDeg,
      rotationWorldToCamera: camera.R,
      perspective: spec.camera.perspective,
    },
    room: { width: W, depth: D, height: H },
    ...(hasBlocks ? { floorPolygon: floorPolygon(spec.room) } : {}),
    vanishingPoints: {
      x: vanishingPoint(camera, [1, 0, 0]),
      y: vanishingPoint(camera, [0, 1, 0]),
      z: vanishingPoint(camera, [0, 0, 1]),
    },
    horizon: { line: horizonLine, segment: clipLineToImage(horizonLine, k.width, k.height) },
    floorPlane: planeInCamera(camera, [0, 0, 0], [0, 0, -1]),
    ceilingPlane: planeInCamera(camera, [0, 0, H], [0, 0, 1]),
    classes: { ...CLASS_IDS },
    wallClasses,
    surfaces,
    ...(hasBlocks ? { blocks: blockTruth(spec, camera) } : {}),
    corners,
    edges,
    openings: spec.openings.map((o) => openingTruth(spec, camera, o)),
    furniture: spec.furniture.map((f) => ({ id: f.id, kind: f.kind, boxes: f.boxes.map((b) => ({ min: b.min, max: b.max })) })),
  };
  return truth;
}
