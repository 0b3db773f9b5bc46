import { clipParameters } from './clip.js';
import { clipPolygon } from '../polygon-clip.js';
import { cameraToWorld, worldToCamera, type PinholeCamera } from './camera.js';
import type { Vec3 } from './vec3.js';

/** The faces of a box room, by what the benchmark's renderer calls them. */
export const FACE_LABELS = ['floor', 'ceiling', 'wall-left', 'wall-front', 'wall-right', 'wall-back'] as const;
export type FaceLabel = (typeof FACE_LABELS)[number];
/** Index into FACE_LABELS. */
export type FaceIndex = 0 | 1 | 2 | 3 | 4 | 5;
export const FLOOR = 0;
export const CEILING = 1;
export const WALL_LEFT = 2;
export const WALL_FRONT = 3;
export const WALL_RIGHT = 4;
export const WALL_BACK = 5;

/**
 * An axis-aligned box room in the world frame of camera.ts (X right, Y forward, Z up, camera at the origin), in any
 * unit: the layout search works in camera heights (floor = −1), the analysis reports metres.
 */
export interface RoomBox {
  /** X of the left wall (negative) and of the right wall (positive). */
  left: number;
  right: number;
  /** Y of the front wall (positive) and of the back wall (negative; −Infinity when it is not modelled). */
  front: number;
  back: number;
  /** Z of the floor (negative: minus the camera height) and of the ceiling (positive). */
  floor: number;
  ceiling: number;
}

/** Which face a world-frame ray from the camera meets first. */
export function faceOfRay(box: RoomBox, d: Readonly<Vec3>): FaceIndex {
  let best = Infinity;
  let face: FaceIndex = WALL_BACK;
  const test = (t: number, f: FaceIndex) => {
    if (t > 0 && t < best) {
      best = t;
      face = f;
    }
  };
  if (d[2] < 0) test(box.floor / d[2], FLOOR);
  if (d[2] > 0) test(box.ceiling / d[2], CEILING);
  if (d[0] < 0) test(box.left / d[0], WALL_LEFT);
  if (d[0] > 0) test(box.right / d[0], WALL_RIGHT);
  if (d[1] > 0) test(box.front / d[1], WALL_FRONT);
  if (d[1] < 0 && Number.isFinite(box.back)) test(box.back / d[1], WALL_BACK);
  return face;
}

/** The face seen at an image point. */
export function faceAt(camera: PinholeCamera, box: RoomBox, x: number, y: number): FaceIndex {
  return faceOfRay(box, cameraToWorld(camera, [(x - camera.cx) / camera.focal, (y - camera.cy) / camera.focal, 1]));
}

/** Per-pixel face index (FACE_LABELS order) of an image of the given size, sampled at pixel centres. */
export function layoutLabelMap(camera: PinholeCamera, box: RoomBox, width = camera.width, height = camera.height): Uint8Array {
  const labels = new Uint8Array(width * height);
  const sx = camera.width / width;
  const sy = camera.height / height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) labels[y * width + x] = faceAt(camera, box, (x + 0.5) * sx, (y + 0.5) * sy);
  }
  return labels;
}

type Polygon = [number, number][];

/** The world-frame corners of each face, counter-clockwise seen from inside; the back is far when not modelled. */
function faceCorners(box: RoomBox): Vec3[][] {
  const { left: l, right: r, front: f, floor: z0, ceiling: z1 } = box;
  const b = Number.isFinite(box.back) ? box.back : -1e4;
  return [
    [[l, b, z0], [r, b, z0], [r, f, z0], [l, f, z0]],
    [[l, b, z1], [l, f, z1], [r, f, z1], [r, b, z1]],
    [[l, b, z0], [l, f, z0], [l, f, z1], [l, b, z1]],
    [[l, f, z0], [r, f, z0], [r, f, z1], [l, f, z1]],
    [[r, f, z0], [r, b, z0], [r, b, z1], [r, f, z1]],
    [[r, b, z0], [l, b, z0], [l, b, z1], [r, b, z1]],
  ];
}

/**
 * Each visible face as an image polygon (clipped at the camera's near plane and to the image), in FACE_LABELS
 * order; faces out of view are absent.
 */
export function facePolygons(camera: PinholeCamera, box: RoomBox): { face: FaceIndex; polygon: Polygon }[] {
  const faces: { face: FaceIndex; polygon: Polygon }[] = [];
  faceCorners(box).forEach((corners, index) => {
    if (index === WALL_BACK && !Number.isFinite(box.back)) return;
    const polygon = projectPolygon(camera, corners.map((c) => worldToCamera(camera, c)));
    if (polygon.length >= 3 && Math.abs(area(polygon)) > 0.5) faces.push({ face: index as FaceIndex, polygon });
  });
  return faces;
}

/** The box's edges between two faces that are both visible, as clipped image segments. */
export function boxEdges(camera: PinholeCamera, box: RoomBox): { faces: [FaceIndex, FaceIndex]; from: [number, number]; to: [number, number] }[] {
  const { left: l, right: r, front: f, floor: z0, ceiling: z1 } = box;
  const b = Number.isFinite(box.back) ? box.back : -1e4;
  const edges: [FaceIndex, FaceIndex, Vec3, Vec3][] = [
    [FLOOR, WALL_FRONT, [l, f, z0], [r, f, z0]],
    [CEILING, WALL_FRONT, [l, f, z1], [r, f, z1]],
    [FLOOR, WALL_LEFT, [l, b, z0], [l, f, z0]],
    [FLOOR, WALL_RIGHT, [r, b, z0], [r, f, z0]],
    [CEILING, WALL_LEFT, [l, b, z1], [l, f, z1]],
    [CEILING, WALL_RIGHT, [r, b, z1], [r, f, z1]],
    [WALL_LEFT, WALL_FRONT, [l, f, z0], [l, f, z1]],
    [WALL_FRONT, WALL_RIGHT, [r, f, z0], [r, f, z1]],
  ];
  if (Number.isFinite(box.back)) {
    edges.push(
      [FLOOR, WALL_BACK, [l, b, z0], [r, b, z0]],
      [CEILING, WALL_BACK, [l, b, z1], [r, b, z1]],
      [WALL_LEFT, WALL_BACK, [l, b, z0], [l, b, z1]],
      [WALL_BACK, WALL_RIGHT, [r, b, z0], [r, b, z1]],
    );
  }
  const out: { faces: [FaceIndex, FaceIndex]; from: [number, number]; to: [number, number] }[] = [];
  for (const [a, c, p, q] of edges) {
    const segment = projectSegment(camera, worldToCamera(camera, p), worldToCamera(camera, q));
    if (segment) out.push({ faces: [a, c], from: segment[0], to: segment[1] });
  }
  return out;
}

const NEAR = 1e-3;

/** A camera-coordinate segment clipped at the near plane, projected, and clipped to the image. */
export function projectSegment(camera: PinholeCamera, a: Readonly<Vec3>, b: Readonly<Vec3>): [[number, number], [number, number]] | undefined {
  let p = a;
  let q = b;
  if (p[2] < NEAR && q[2] < NEAR) return undefined;
  if (p[2] < NEAR || q[2] < NEAR) {
    const t = (NEAR - p[2]) / (q[2] - p[2]);
    const m: Vec3 = [p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]), NEAR];
    if (p[2] < NEAR) p = m;
    else q = m;
  }
  const x0 = camera.cx + (camera.focal * p[0]) / p[2];
  const y0 = camera.cy + (camera.focal * p[1]) / p[2];
  const x1 = camera.cx + (camera.focal * q[0]) / q[2];
  const y1 = camera.cy + (camera.focal * q[1]) / q[2];
  return clipSegment(x0, y0, x1, y1, camera.width, camera.height);
}

/** Liang–Barsky clipping of a segment to [0, width] × [0, height]. */
export function clipSegment(x0: number, y0: number, x1: number, y1: number, width: number, height: number): [[number, number], [number, number]] | undefined {
  const range = clipParameters(x0, y0, x1, y1, width, height);
  if (!range || range[1] - range[0] <= 0) return undefined;
  const [t0, t1] = range;
  const dx = x1 - x0;
  const dy = y1 - y0;
  return [
    [x0 + t0 * dx, y0 + t0 * dy],
    [x0 + t1 * dx, y0 + t1 * dy],
  ];
}

function projectPolygon(camera: PinholeCamera, points: Vec3[]): Polygon {
  // Near-plane clip (Sutherland–Hodgman in 3D).
  const clipped: Vec3[] = [];
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    const q = points[(i + 1) % points.length]!;
    const pIn = p[2] >= NEAR;
    const qIn = q[2] >= NEAR;
    if (pIn) clipped.push(p);
    if (pIn !== qIn) {
      const t = (NEAR - p[2]) / (q[2] - p[2]);
      clipped.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]), NEAR]);
    }
  }
  if (clipped.length < 3) return [];
  const polygon: Polygon = clipped.map((p) => [camera.cx + (camera.focal * p[0]) / p[2], camera.cy + (camera.focal * p[1]) / p[2]]);
  return clipPolygon(polygon, [(p) => p[0], (p) => camera.width - p[0], (p) => p[1], (p) => camera.height - p[1]]);
}

export function area(polygon: readonly (readonly [number, number])[]): number {
  let sum = 0;
  for (let i = 0; i < polygon.length; i++) {
    const p = polygon[i]!;
    const q = polygon[(i + 1) % polygon.length]!;
    sum += p[0] * q[1] - q[0] * p[1];
  }
  return sum / 2;
}

/** Scales every length of the box (e.g. from camera heights to metres). */
export function scaleBox(box: RoomBox, factor: number): RoomBox {
  return {
    left: box.left * factor,
    right: box.right * factor,
    front: box.front * factor,
    back: box.back * factor,
    floor: box.floor * factor,
    ceiling: box.ceiling * factor,
  };
}
