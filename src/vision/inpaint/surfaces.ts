import type { PinholeCamera } from '../geometry/camera.js';
import { FACE_LABELS, type RoomBox } from '../geometry/room-box.js';
import { fromColumns, mulMat, type Mat3, type Vec3 } from '../geometry/vec3.js';

/**
 * A plane of the scene, as a homography from continuous photo pixels (pixel centres at +0.5) to 2-D coordinates on
 * the plane. A patch copied "along the surface" is a translation in plane coordinates, so texture and straight lines
 * keep their perspective where they land (Huang et al. 2014, planar structure guidance).
 */
export interface Surface {
  name: string;
  toPlane: Mat3;
  fromPlane: Mat3;
}

const IDENTITY: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/** The photo itself as the only plane: plain PatchMatch, offsets in photo pixels. */
export const IMAGE_PLANE: Surface = { name: 'image', toPlane: IDENTITY, fromPlane: IDENTITY };

/**
 * The faces of a box room as surfaces, in FACE_LABELS order (floor, ceiling, walls), for a camera and a box in the
 * world frame of vision/geometry/camera.ts. Plane coordinates are world units along the face's two axes.
 */
export function roomSurfaces(camera: PinholeCamera, box: RoomBox): Surface[] {
  const back = Number.isFinite(box.back) ? box.back : -1e4;
  // Each face: two in-plane axes and a point on it, world frame.
  const faces: [Vec3, Vec3, Vec3][] = [
    [[1, 0, 0], [0, 1, 0], [0, 0, box.floor]],
    [[1, 0, 0], [0, 1, 0], [0, 0, box.ceiling]],
    [[0, 1, 0], [0, 0, 1], [box.left, 0, 0]],
    [[1, 0, 0], [0, 0, 1], [0, box.front, 0]],
    [[0, 1, 0], [0, 0, 1], [box.right, 0, 0]],
    [[1, 0, 0], [0, 0, 1], [0, back, 0]],
  ];
  const intrinsics: Mat3 = [camera.focal, 0, camera.cx, 0, camera.focal, camera.cy, 0, 0, 1];
  const projection = mulMat(intrinsics, camera.rotation);
  return faces.map(([u, v, origin], index) => {
    const fromPlane = mulMat(projection, fromColumns(u, v, origin));
    return { name: FACE_LABELS[index]!, fromPlane, toPlane: invert(fromPlane) };
  });
}

/** The surface for an image `factor` times smaller than the photo (a pyramid level): pixels scale, planes do not. */
export function scaledSurface(surface: Surface, factor: number): Surface {
  const up: Mat3 = [factor, 0, 0, 0, factor, 0, 0, 0, 1];
  const down: Mat3 = [1 / factor, 0, 0, 0, 1 / factor, 0, 0, 0, 1];
  return { name: surface.name, toPlane: mulMat(surface.toPlane, up), fromPlane: mulMat(down, surface.fromPlane) };
}

export function invert(m: Readonly<Mat3>): Mat3 {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h;
  const B = -(d * i - f * g);
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (Math.abs(det) < 1e-300) throw new Error('singular homography');
  const s = 1 / det;
  return [
    A * s,
    -(b * i - c * h) * s,
    (b * f - c * e) * s,
    B * s,
    (a * i - c * g) * s,
    -(a * f - c * d) * s,
    C * s,
    -(a * h - b * g) * s,
    (a * e - b * d) * s,
  ];
}
