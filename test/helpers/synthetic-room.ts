import type { PinholeCamera } from '../../src/vision/geometry/camera.js';
import type { Mat3, Vec3 } from '../../src/vision/geometry/vec3.js';
import { projectWorld, wallPoint, type RoomModel, type RoomOpening, type WallLabel } from '../../src/staging/room-model.js';

/**
 * A box room seen by a level-ish camera at the origin (the analysis's world frame): 4 m wide, 5 m deep, the camera
 * 1.5 m above the floor looking forward and slightly down, a window on the front wall and a door on the left wall.
 */
export function syntheticRoom(width = 640, height = 480, hfovDeg = 70, pitchDeg = -8): RoomModel {
  const pitch = (pitchDeg * Math.PI) / 180;
  // Rows: the camera's right, down and forward axes in world coordinates (X right, Y forward, Z up).
  const forward: Vec3 = [0, Math.cos(pitch), Math.sin(pitch)];
  const right: Vec3 = [1, 0, 0];
  const down: Vec3 = [forward[1] * right[2] - forward[2] * right[1], forward[2] * right[0] - forward[0] * right[2], forward[0] * right[1] - forward[1] * right[0]];
  const rotation: Mat3 = [...right, ...down, ...forward] as Mat3;
  const camera: PinholeCamera = { width, height, focal: width / 2 / Math.tan((hfovDeg * Math.PI) / 360), cx: width / 2, cy: height / 2, rotation };
  const box = { left: -2, right: 2, front: 5, floor: -1.5, ceiling: 1.1 };
  const opening = (kind: RoomOpening['kind'], wall: WallLabel, u0: number, u1: number, bottom: number, top: number): RoomOpening => {
    const corners = [wallPoint(box, wall, u0, bottom), wallPoint(box, wall, u1, bottom), wallPoint(box, wall, u1, top), wallPoint(box, wall, u0, top)];
    return { kind, wall, u0, u1, bottom, top, polygon: corners.map((c) => projectWorld(camera, c)!) };
  };
  return {
    camera,
    box,
    visibleWalls: new Set<WallLabel>(['wall-left', 'wall-front', 'wall-right']),
    blocks: [],
    doorFrames: [],
    openings: [opening('window', 'wall-front', -0.6, 0.8, 0.9, 2.2), opening('door', 'wall-left', 3.0, 3.9, 0, 2.05)],
  };
}
