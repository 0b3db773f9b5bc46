import { column, cross, dot, normalize, type Mat3, type Vec3 } from './vec3.js';

/**
 * A pinhole camera without distortion, square pixels and no skew.
 *
 * Conventions (those of OpenCV): camera coordinates have x to the right, y down, z forward (the viewing direction);
 * image coordinates are continuous pixels with (0, 0) the top-left corner of the top-left pixel. The world is the
 * room's Manhattan frame: X to the right (the horizontal room direction nearer the image's x axis), Y forward (the
 * horizontal room direction nearer the viewing direction, pointing away from the camera), Z up (against gravity). The
 * world's origin is the camera, so the floor is the plane Z = −cameraHeight.
 */
export interface PinholeCamera {
  /** Size of the image the intrinsics refer to. */
  width: number;
  height: number;
  /** Focal length in pixels. */
  focal: number;
  /** Principal point, in pixels (the image centre unless known otherwise). */
  cx: number;
  cy: number;
  /**
   * World-to-camera rotation, row-major: x_cam = R · x_world. Its columns are the world's X (right), Y (forward) and
   * Z (up) axes in camera coordinates; they are the three Manhattan vanishing directions.
   */
  rotation: Mat3;
}

export interface CameraAngles {
  /** Elevation of the viewing direction above the horizontal, in degrees: positive when the camera looks up. */
  pitch: number;
  /**
   * Rotation about the viewing direction, in degrees: positive when the camera's right side rises (counter-clockwise
   * as seen from behind it), which makes the scene turn clockwise in the image (verticals lean right at their top).
   * Zero when the horizon is level. Same sign as the room renderer's `rollDeg`.
   */
  roll: number;
  /**
   * Heading of the viewing direction from the room's forward axis (Y) toward its right axis (X), in degrees, in
   * [−45, 45]: the room's axes are known only up to quarter turns, so yaw is too.
   */
  yaw: number;
}

export function upVector(camera: Pick<PinholeCamera, 'rotation'>): Vec3 {
  return column(camera.rotation, 2);
}

export function cameraAngles(camera: Pick<PinholeCamera, 'rotation'>): CameraAngles {
  const [ux, uy, uz] = column(camera.rotation, 2);
  const r = camera.rotation;
  const degrees = 180 / Math.PI;
  // The image of "up" is (ux, uy) with y down; level is (0, −1). Raising the camera's right side turns it toward +x.
  const roll = Math.atan2(ux, -uy) * degrees;
  return {
    pitch: Math.asin(Math.max(-1, Math.min(1, uz))) * degrees,
    roll,
    yaw: Math.atan2(r[6], r[7]) * degrees,
  };
}

/** The vanishing point of a direction given in camera coordinates, homogeneous: [x, y, w], w = 0 at infinity. */
export function vanishingPointOf(camera: PinholeCamera, direction: Readonly<Vec3>): Vec3 {
  const { focal: f, cx, cy } = camera;
  return [f * direction[0] + cx * direction[2], f * direction[1] + cy * direction[2], direction[2]];
}

/** Image point of a camera-coordinate point in front of the camera; undefined behind it. */
export function projectPoint(camera: PinholeCamera, p: Readonly<Vec3>): [number, number] | undefined {
  if (p[2] <= 1e-9) return undefined;
  return [camera.cx + (camera.focal * p[0]) / p[2], camera.cy + (camera.focal * p[1]) / p[2]];
}

/** A line a·x + b·y + c = 0 in image pixels, with (a, b) of unit length. */
export interface ImageLine {
  a: number;
  b: number;
  c: number;
}

/** The horizon: the vanishing line of horizontal planes, K⁻ᵀ·up. */
export function horizonLine(camera: PinholeCamera): ImageLine {
  const [ux, uy, uz] = upVector(camera);
  const { focal: f, cx, cy } = camera;
  const a = ux;
  const b = uy;
  const c = f * uz - cx * ux - cy * uy;
  const n = Math.hypot(a, b) || 1;
  return { a: a / n, b: b / n, c: c / n };
}

/** Where an image line crosses the image rectangle: two points, or undefined if it misses it. */
export function clipLineToImage(line: ImageLine, width: number, height: number): [[number, number], [number, number]] | undefined {
  const points: [number, number][] = [];
  const push = (x: number, y: number) => {
    if (x < -1e-6 || x > width + 1e-6 || y < -1e-6 || y > height + 1e-6) return;
    if (points.some(([px, py]) => Math.abs(px - x) < 1e-6 && Math.abs(py - y) < 1e-6)) return;
    points.push([x, y]);
  };
  const { a, b, c } = line;
  if (Math.abs(b) > 1e-12) {
    push(0, -c / b);
    push(width, -(c + a * width) / b);
  }
  if (Math.abs(a) > 1e-12) {
    push(-c / a, 0);
    push(-(c + b * height) / a, height);
  }
  if (points.length < 2) return undefined;
  return [points[0]!, points[1]!];
}

/**
 * The floor as a plane in camera coordinates: n·X = d, n the unit vector from the camera straight down (toward the
 * floor), d the camera's height in metres (the room renderer's truth.json uses the same form).
 */
export interface FloorPlane {
  normal: Vec3;
  distance: number;
}

export function floorPlane(camera: PinholeCamera, cameraHeight: number): FloorPlane {
  const [ux, uy, uz] = upVector(camera);
  return { normal: [-ux, -uy, -uz], distance: cameraHeight };
}

/** The floor point (camera coordinates, metres) seen at an image point; undefined at or above the horizon. */
export function imageToFloor(camera: PinholeCamera, plane: FloorPlane, x: number, y: number): Vec3 | undefined {
  const ray: Vec3 = [(x - camera.cx) / camera.focal, (y - camera.cy) / camera.focal, 1];
  const along = dot(plane.normal, ray);
  if (along <= 1e-9) return undefined;
  const t = plane.distance / along;
  return [ray[0] * t, ray[1] * t, ray[2] * t];
}

/** The image point of a 3D point in camera coordinates (e.g. from imageToFloor); undefined behind the camera. */
export function floorToImage(camera: PinholeCamera, point: Readonly<Vec3>): [number, number] | undefined {
  return projectPoint(camera, point);
}

/** Camera coordinates → world (Manhattan frame, Z up, camera at the origin). */
export function cameraToWorld(camera: Pick<PinholeCamera, 'rotation'>, p: Readonly<Vec3>): Vec3 {
  const r = camera.rotation;
  return [r[0] * p[0] + r[3] * p[1] + r[6] * p[2], r[1] * p[0] + r[4] * p[1] + r[7] * p[2], r[2] * p[0] + r[5] * p[1] + r[8] * p[2]];
}

/** World (Manhattan frame) → camera coordinates. */
export function worldToCamera(camera: Pick<PinholeCamera, 'rotation'>, p: Readonly<Vec3>): Vec3 {
  const r = camera.rotation;
  return [r[0] * p[0] + r[1] * p[1] + r[2] * p[2], r[3] * p[0] + r[4] * p[1] + r[5] * p[2], r[6] * p[0] + r[7] * p[1] + r[8] * p[2]];
}

/**
 * Puts three orthogonal directions (camera coordinates, any order and sign) into the world frame's convention:
 * Z is the one nearest the image's up direction, pointing up; Y the horizontal one nearest the viewing direction,
 * pointing forward; X = Y × Z, to the right. Returns the world-to-camera rotation.
 */
export function canonicalRotation(directions: readonly Vec3[], verticalIndex?: number): { rotation: Mat3; order: [number, number, number] } {
  const imageUp: Vec3 = [0, -1, 0];
  let zIndex = verticalIndex ?? 0;
  if (verticalIndex === undefined) {
    for (let i = 1; i < 3; i++) if (Math.abs(dot(directions[i]!, imageUp)) > Math.abs(dot(directions[zIndex]!, imageUp))) zIndex = i;
  }
  let z = normalize(directions[zIndex]!);
  if (dot(z, imageUp) < 0) z = [-z[0], -z[1], -z[2]];
  const others = [0, 1, 2].filter((i) => i !== zIndex);
  const forward: Vec3 = [0, 0, 1];
  let [yIndex, xIndex] = others as [number, number];
  if (Math.abs(dot(directions[xIndex]!, forward)) > Math.abs(dot(directions[yIndex]!, forward))) [yIndex, xIndex] = [xIndex, yIndex];
  let y = normalize(directions[yIndex]!);
  if (dot(y, forward) < 0) y = [-y[0], -y[1], -y[2]];
  // Re-orthogonalise y against z, then x completes a right-handed frame (X right, Y forward, Z up).
  const yz = dot(y, z);
  y = normalize([y[0] - yz * z[0], y[1] - yz * z[1], y[2] - yz * z[2]]);
  const x = cross(y, z);
  return { rotation: [x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2]], order: [xIndex, yIndex, zIndex] };
}
