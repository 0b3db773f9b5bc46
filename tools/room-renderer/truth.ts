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
  type FurnitureKind,
  type OpeningSpec,
  type RoomSpec,
  type SurfaceId,
  type WallId,
  type WallLabel,
  SURFACE_IDS,
  WALL_IDS,
  cameraOf,
  openingRectangle,
  roomCorners,
  roomEdges,
  surfaceClass,
  surfacePolygon,
  wallLabel,
  wallNormal,
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
  /** The full face of the room's box in world coordinates (walls: bottom-left, bottom-right, top-right, top-left from inside). */
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
  /** Its image, clipped to the image; [] when out of view. Furniture in front of it is ignored. */
  polygon: Vec2[];
  area: number;
  visible: boolean;
}

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
  vanishingPoints: { x: VanishingPoint; y: VanishingPoint; z: VanishingPoint };
  horizon: { line: Vec3; segment: [Vec2, Vec2] | null };
  floorPlane: Plane;
  ceilingPlane: Plane;
  classes: Record<string, number>;
  wallClasses: Record<WallId, number>;
  surfaces: SurfaceTruth[];
  corners: { id: string; world: Vec3; camera: Vec3; pixel: Vec2 | null; inImage: boolean }[];
  edges: { id: string; surfaces: [SurfaceId, SurfaceId]; kind: 'floor-wall' | 'ceiling-wall' | 'wall-wall'; segment: [Vec2, Vec2] | null }[];
  openings: OpeningTruth[];
  furniture: { id: string; kind: FurnitureKind; boxes: { min: Vec3; max: Vec3 }[] }[];
}

function openingTruth(spec: RoomSpec, camera: Camera, o: OpeningSpec): OpeningTruth {
  const cornersWorld = openingRectangle(spec.room, o);
  const polygon = projectPolygon(camera, cornersWorld);
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

  const corners = roomCorners(spec.room).map(({ id, world }) => {
    const cam = worldToCamera(camera, world);
    const pixel = cam[2] > 0 ? projectWorldPoint(camera, world).pixel : null;
    const inImage = pixel !== null && pixel[0] >= 0 && pixel[0] <= k.width && pixel[1] >= 0 && pixel[1] <= k.height;
    return { id, world, camera: cam, pixel, inImage };
  });

  const edges = roomEdges(spec.room).map((e) => ({
    id: e.id,
    surfaces: e.surfaces,
    kind: (e.surfaces[0] === 'floor' ? 'floor-wall' : e.surfaces[0] === 'ceiling' ? 'ceiling-wall' : 'wall-wall') as
      | 'floor-wall'
      | 'ceiling-wall'
      | 'wall-wall',
    segment: projectSegment(camera, e.a, e.b),
  }));

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
    corners,
    edges,
    openings: spec.openings.map((o) => openingTruth(spec, camera, o)),
    furniture: spec.furniture.map((f) => ({ id: f.id, kind: f.kind, boxes: f.boxes.map((b) => ({ min: b.min, max: b.max })) })),
  };
  return truth;
}
