/**
 * Pinhole-camera geometry of the room renderer: intrinsics from Blender's horizontal sensor fit, the world→camera
 * rotation from yaw/pitch/roll, projection, vanishing points, the horizon, planes, and clipping of 3-D polygons and
 * segments to the view frustum.
 *
 * Conventions (README.md, "Coordinate conventions"):
 * - World: metres, Z up; the room's interior is [0, width] × [0, depth] × [0, height]; the floor is z = 0.
 * - Camera: x right, y down, z forward (OpenCV). `R` maps world directions to camera directions:
 *   X_cam = R · (X_world − C).
 * - Image: u to the right, v down, in pixels; the pixel in column i, row j covers [i, i+1) × [j, j+1), so its centre
 *   is (i + 0.5, j + 0.5) and the principal point of an unshifted camera is (width / 2, height / 2).
 * - Yaw is the compass bearing of the viewing direction, measured from world +Y towards world +X (positive yaw turns
 *   the camera to the right); pitch is positive looking up; roll is positive when the camera turns counter-clockwise
 *   about its viewing axis as seen from behind it (its right side goes up).
 */

export type Vec2 = [number, number];
export type Vec3 = [number, number, number];
/** Row-major 3×3 matrix. */
export type Mat3 = [Vec3, Vec3, Vec3];

const DEG = Math.PI / 180;

/** sin of an angle in degrees, exact at multiples of 90° (so aligned cameras give exact zeros). */
export function sinDeg(deg: number): number {
  const r = ((deg % 360) + 360) % 360;
  if (r === 0 || r === 180) return 0;
  if (r === 90) return 1;
  if (r === 270) return -1;
  return Math.sin(deg * DEG);
}

/** cos of an angle in degrees, exact at multiples of 90°. */
export function cosDeg(deg: number): number {
  const r = ((deg % 360) + 360) % 360;
  if (r === 90 || r === 270) return 0;
  if (r === 0) return 1;
  if (r === 180) return -1;
  return Math.cos(deg * DEG);
}

export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
export const norm = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);
export const normalize = (a: Vec3): Vec3 => scale(a, 1 / norm(a));

export function mulMatVec(m: Mat3, v: Vec3): Vec3 {
  return [dot(m[0], v), dot(m[1], v), dot(m[2], v)];
}

export function transpose(m: Mat3): Mat3 {
  return [
    [m[0][0], m[1][0], m[2][0]],
    [m[0][1], m[1][1], m[2][1]],
    [m[0][2], m[1][2], m[2][2]],
  ];
}

export interface Intrinsics {
  width: number;
  height: number;
  fx: number;
  fy: number;
  cx: number;
  cy: number;
  hfovDeg: number;
  vfovDeg: number;
  /** [[fx, 0, cx], [0, fy, cy], [0, 0, 1]]. */
  K: Mat3;
}

/**
 * Intrinsics of a Blender camera with `sensor_fit = 'HORIZONTAL'`, no lens shift and square pixels: the sensor width
 * spans the image width, so the horizontal field of view fixes fx = (width / 2) / tan(hfov / 2), and fy = fx.
 */
export function intrinsicsFromHorizontalFov(width: number, height: number, hfovDeg: number): Intrinsics {
  const fx = width / 2 / Math.tan((hfovDeg * DEG) / 2);
  const fy = fx;
  const cx = width / 2;
  const cy = height / 2;
  const vfovDeg = (2 * Math.atan(height / 2 / fy)) / DEG;
  return { width, height, fx, fy, cx, cy, hfovDeg, vfovDeg, K: [[fx, 0, cx], [0, fy, cy], [0, 0, 1]] };
}

/**
 * World→camera rotation. Rows are the camera's right (x), down (y) and forward (z) axes in world coordinates:
 * forward = (sin yaw · cos pitch, cos yaw · cos pitch, sin pitch), right = (cos yaw, −sin yaw, 0) before roll,
 * down = forward × right.
 */
export function rotationWorldToCamera(yawDeg: number, pitchDeg: number, rollDeg = 0): Mat3 {
  const sy = sinDeg(yawDeg);
  const cy = cosDeg(yawDeg);
  const sp = sinDeg(pitchDeg);
  const cp = cosDeg(pitchDeg);
  const forward: Vec3 = [sy * cp, cy * cp, sp];
  const right0: Vec3 = [cy, -sy, 0];
  const down0 = cross(forward, right0);
  const sr = sinDeg(rollDeg);
  const cr = cosDeg(rollDeg);
  const right: Vec3 = sub(scale(right0, cr), scale(down0, sr));
  const down: Vec3 = add(scale(right0, sr), scale(down0, cr));
  return [right, down, forward];
}

export interface Camera {
  intrinsics: Intrinsics;
  /** World→camera rotation. */
  R: Mat3;
  /** Centre of projection in world coordinates. */
  C: Vec3;
}

export function worldToCamera(camera: Camera, X: Vec3): Vec3 {
  return mulMatVec(camera.R, sub(X, camera.C));
}

/** Pixel coordinates of a point in camera coordinates (z must be positive for a point in front of the camera). */
export function projectCameraPoint(k: Intrinsics, Xc: Vec3): Vec2 {
  return [k.fx * (Xc[0] / Xc[2]) + k.cx, k.fy * (Xc[1] / Xc[2]) + k.cy];
}

/** Pixel coordinates and depth (camera z) of a world point. */
export function projectWorldPoint(camera: Camera, X: Vec3): { pixel: Vec2; depth: number } {
  const Xc = worldToCamera(camera, X);
  return { pixel: projectCameraPoint(camera.intrinsics, Xc), depth: Xc[2] };
}

/** Back-projection: the ray direction in camera coordinates (z = 1) through image point (u, v). */
export function pixelRay(k: Intrinsics, u: number, v: number): Vec3 {
  return [(u - k.cx) / k.fx, (v - k.cy) / k.fy, 1];
}

/** Tolerance on the camera-z of a unit direction below which its vanishing point is at infinity. */
export const INFINITY_EPSILON = 1e-9;

export interface VanishingPoint {
  /** Unit direction of the world axis (+X, +Y or +Z) in camera coordinates: R · e. */
  directionCamera: Vec3;
  /** K · R · e, scaled to unit length; a homogeneous image point (third coordinate 0 at infinity). */
  homogeneous: Vec3;
  /** Finite image point, or null when the direction is parallel to the image plane. */
  point: Vec2 | null;
  atInfinity: boolean;
  /** For a point at infinity: the unit image direction (du, dv) of the parallel image lines; otherwise null. */
  imageDirection: Vec2 | null;
  /** Whether the finite point lies inside the image rectangle. */
  inImage: boolean;
}

export function vanishingPoint(camera: Camera, directionWorld: Vec3): VanishingPoint {
  const k = camera.intrinsics;
  const d = normalize(mulMatVec(camera.R, directionWorld));
  const h = mulMatVec(k.K, d);
  const homogeneous = normalize(h);
  if (Math.abs(d[2]) < INFINITY_EPSILON) {
    const dir = [k.fx * d[0], k.fy * d[1]];
    const len = Math.hypot(dir[0]!, dir[1]!);
    return {
      directionCamera: d,
      homogeneous,
      point: null,
      atInfinity: true,
      imageDirection: [dir[0]! / len, dir[1]! / len],
      inImage: false,
    };
  }
  const point: Vec2 = [h[0] / h[2], h[1] / h[2]];
  const inImage = point[0] >= 0 && point[0] <= k.width && point[1] >= 0 && point[1] <= k.height;
  return { directionCamera: d, homogeneous, point, atInfinity: false, imageDirection: null, inImage };
}

/**
 * The image of a plane's line at infinity (for the floor: the horizon), l = K^-T · R · n, scaled so that
 * a² + b² = 1 and a·u + b·v + c = 0 on the line.
 */
export function vanishingLine(camera: Camera, normalWorld: Vec3): Vec3 {
  const { fx, fy, cx, cy } = camera.intrinsics;
  const n = mulMatVec(camera.R, normalWorld);
  const a = n[0] / fx;
  const b = n[1] / fy;
  const c = n[2] - (cx * n[0]) / fx - (cy * n[1]) / fy;
  const s = Math.hypot(a, b);
  return [a / s, b / s, c / s];
}

/** The part of the infinite line a·u + b·v + c = 0 inside the image rectangle, or null when it misses it. */
export function clipLineToImage(line: Vec3, width: number, height: number): [Vec2, Vec2] | null {
  const [a, b, c] = line;
  const candidates: Vec2[] = [];
  if (Math.abs(b) > 1e-15) {
    for (const u of [0, width]) {
      const v = -(a * u + c) / b;
      if (v >= 0 && v <= height) candidates.push([u, v]);
    }
  }
  if (Math.abs(a) > 1e-15) {
    for (const v of [0, height]) {
      const u = -(b * v + c) / a;
      if (u >= 0 && u <= width) candidates.push([u, v]);
    }
  }
  const unique: Vec2[] = [];
  for (const p of candidates) {
    if (!unique.some((q) => Math.hypot(q[0] - p[0], q[1] - p[1]) < 1e-9)) unique.push(p);
  }
  if (unique.length < 2) return null;
  unique.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  return [unique[0]!, unique[unique.length - 1]!];
}

/** A plane n·X = d in camera coordinates, n a unit normal pointing away from the camera, d > 0 its distance. */
export interface Plane {
  normal: Vec3;
  distance: number;
}

/** The plane through `pointWorld` with world normal `normalWorld`, in camera coordinates, oriented away from the camera. */
export function planeInCamera(camera: Camera, pointWorld: Vec3, normalWorld: Vec3): Plane {
  let normal = normalize(mulMatVec(camera.R, normalWorld));
  let distance = dot(normal, worldToCamera(camera, pointWorld));
  if (distance < 0) {
    normal = scale(normal, -1);
    distance = -distance;
  }
  return { normal, distance };
}

/**
 * The four side planes of the view frustum as half-spaces n·X ≥ 0 in camera coordinates: u ≥ 0, u ≤ width,
 * v ≥ 0, v ≤ height (multiplied by z). Together they imply z ≥ 0, with z = 0 only at the camera centre, so no near
 * plane is needed for geometry that does not pass through the camera.
 */
export function frustumPlanes(k: Intrinsics): Vec3[] {
  return [
    [k.fx, 0, k.cx],
    [-k.fx, 0, k.width - k.cx],
    [0, k.fy, k.cy],
    [0, -k.fy, k.height - k.cy],
  ];
}

/** Sutherland–Hodgman clipping of a planar 3-D polygon (camera coordinates) against half-spaces n·X ≥ 0. */
export function clipPolygon3(polygon: Vec3[], halfSpaces: Vec3[]): Vec3[] {
  let out = polygon;
  for (const n of halfSpaces) {
    if (out.length === 0) break;
    const input = out;
    out = [];
    for (let i = 0; i < input.length; i++) {
      const a = input[i]!;
      const b = input[(i + 1) % input.length]!;
      const da = dot(n, a);
      const db = dot(n, b);
      if (da >= 0) out.push(a);
      if ((da >= 0 && db < 0) || (da < 0 && db >= 0)) {
        const t = da / (da - db);
        out.push(add(a, scale(sub(b, a), t)));
      }
    }
  }
  return out;
}

const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

/** Removes consecutive duplicates (and a closing duplicate) from a 2-D polygon. */
function dedupe(points: Vec2[]): Vec2[] {
  const out: Vec2[] = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (!last || Math.hypot(last[0] - p[0], last[1] - p[1]) > 1e-9) out.push(p);
  }
  while (out.length > 1 && Math.hypot(out[0]![0] - out[out.length - 1]![0], out[0]![1] - out[out.length - 1]![1]) <= 1e-9) {
    out.pop();
  }
  return out;
}

/**
 * The image polygon of a planar world polygon, clipped to the image rectangle (empty when nothing of it is in view).
 * Clipping is done in 3-D against the frustum, so polygons that reach behind the camera are handled exactly.
 */
export function projectPolygon(camera: Camera, polygonWorld: Vec3[]): Vec2[] {
  const k = camera.intrinsics;
  const clipped = clipPolygon3(
    polygonWorld.map((p) => worldToCamera(camera, p)),
    frustumPlanes(k),
  );
  const projected = clipped
    .filter((p) => p[2] > 0)
    .map((p) => {
      const [u, v] = projectCameraPoint(k, p);
      return [clamp(u, 0, k.width), clamp(v, 0, k.height)] as Vec2;
    });
  const polygon = dedupe(projected);
  return polygon.length >= 3 && Math.abs(polygonArea(polygon)) > 1e-9 ? polygon : [];
}

/** The visible image segment of a world segment, or null. */
export function projectSegment(camera: Camera, a: Vec3, b: Vec3): [Vec2, Vec2] | null {
  const k = camera.intrinsics;
  const A = worldToCamera(camera, a);
  const B = worldToCamera(camera, b);
  let t0 = 0;
  let t1 = 1;
  for (const n of frustumPlanes(k)) {
    const da = dot(n, A);
    const db = dot(n, B);
    if (da < 0 && db < 0) return null;
    if (da < 0) t0 = Math.max(t0, da / (da - db));
    else if (db < 0) t1 = Math.min(t1, da / (da - db));
  }
  if (t1 - t0 <= 1e-12) return null;
  const P = add(A, scale(sub(B, A), t0));
  const Q = add(A, scale(sub(B, A), t1));
  if (P[2] <= 0 || Q[2] <= 0) return null;
  const p = projectCameraPoint(k, P);
  const q = projectCameraPoint(k, Q);
  const c = (x: Vec2): Vec2 => [clamp(x[0], 0, k.width), clamp(x[1], 0, k.height)];
  return [c(p), c(q)];
}

/** Signed area (shoelace; positive when the vertices run clockwise on screen, i.e. counter-clockwise with v up). */
export function polygonArea(polygon: Vec2[]): number {
  let s = 0;
  for (let i = 0; i < polygon.length; i++) {
    const a = polygon[i]!;
    const b = polygon[(i + 1) % polygon.length]!;
    s += a[0] * b[1] - b[0] * a[1];
  }
  return s / 2;
}

/** Even–odd point-in-polygon test. */
export function pointInPolygon(p: Vec2, polygon: Vec2[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i]!;
    const b = polygon[j]!;
    if (a[1] > p[1] !== b[1] > p[1] && p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]) inside = !inside;
  }
  return inside;
}
