/**
 * A rendered room's exact RoomModel (staging's view of a room) from its spec alone: the analysis frame (camera at
 * the origin, Y toward the wall the camera faces, Z up), the room's box and blocks (an L-shaped room's corner), the
 * camera and the openings on the three walls the camera can face. Plans made on it are judged against the true
 * room, not an estimate.
 */
import type { RoomBlock, RoomModel, RoomOpening, WallLabel } from '../src/staging/room-model.js';
import { projectWorld } from '../src/staging/room-model.js';
import type { PinholeCamera } from '../src/vision/geometry/camera.js';
import type { Mat3, Vec3 } from '../src/vision/geometry/vec3.js';
import { cameraOf, wallLabel, wallNormal, wallPoint, WALL_IDS, type RoomSpec, type WallId } from '../tools/room-renderer/spec.js';

const LABELS: Record<string, WallLabel> = { left: 'wall-left', front: 'wall-front', right: 'wall-right' };

export function renderedRoomModel(spec: RoomSpec): RoomModel {
  const camera = cameraOf(spec);
  const C = spec.camera.position;
  const labelOf = (wall: WallId) => wallLabel(wall, spec.camera.yawDeg);
  const frontWall = WALL_IDS.find((w) => labelOf(w) === 'front')!;
  const Y = wallNormal(frontWall);
  const X: Vec3 = [Y[1], -Y[0], 0];
  const toFrame = (p: Vec3): Vec3 => {
    const d: Vec3 = [p[0] - C[0], p[1] - C[1], p[2] - C[2]];
    return [d[0] * X[0] + d[1] * X[1], d[0] * Y[0] + d[1] * Y[1], d[2]];
  };
  const distance = (wall: WallId, axis: 0 | 1) => toFrame(wallPoint(spec.room, wall, 0, 0))[axis];
  const leftWall = WALL_IDS.find((w) => labelOf(w) === 'left')!;
  const rightWall = WALL_IDS.find((w) => labelOf(w) === 'right')!;
  const box = {
    left: distance(leftWall, 0),
    right: distance(rightWall, 0),
    front: distance(frontWall, 1),
    floor: -C[2],
    ceiling: spec.room.height - C[2],
  };
  // R_frame = R_world · [X Y Z]: a frame vector to world, then world to camera.
  const R = camera.R;
  const Z: Vec3 = [0, 0, 1];
  const rotation = R.flatMap((row) => [X, Y, Z].map((axis) => row[0] * axis[0] + row[1] * axis[1] + row[2] * axis[2])) as Mat3;
  const pinhole: PinholeCamera = {
    width: spec.image.width,
    height: spec.image.height,
    focal: camera.intrinsics.fx,
    cx: camera.intrinsics.cx,
    cy: camera.intrinsics.cy,
    rotation,
  };
  const openings: RoomOpening[] = [];
  for (const o of spec.openings) {
    const label = LABELS[labelOf(o.wall)];
    if (!label) continue;
    const corners = [wallPoint(spec.room, o.wall, o.u0, o.z0), wallPoint(spec.room, o.wall, o.u1, o.z0), wallPoint(spec.room, o.wall, o.u1, o.z1), wallPoint(spec.room, o.wall, o.u0, o.z1)].map(toFrame);
    const along = corners.map((c) => (label === 'wall-front' ? c[0] : c[1]));
    const polygon = corners.map((c) => projectWorld(pinhole, c)).filter((p): p is [number, number] => p !== undefined);
    openings.push({ kind: o.kind, wall: label, u0: Math.min(...along), u1: Math.max(...along), bottom: o.z0, top: o.z1, polygon: polygon.length === 4 ? polygon : [] });
  }
  const blocks: RoomBlock[] = (spec.room.blocks ?? []).map(({ min, max }) => {
    const corners = [toFrame([min[0], min[1], 0]), toFrame([max[0], max[1], 0])];
    const xs = corners.map((c) => c[0]);
    const ys = corners.map((c) => c[1]);
    return { x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) };
  });
  // The exact model: its doors are all in openings.
  return { camera: pinhole, box, visibleWalls: new Set<WallLabel>(['wall-left', 'wall-front', 'wall-right']), openings, blocks, doorFrames: [] };
}
