import { blockOutline, type RoomModel } from './room-model.js';

/** The floor as a grid of 10 cm cells, and which of them furniture takes. */
const CELL_M = 0.1;

export interface FloorRectangle {
  /** Corners of a footprint on the floor (x, y), any order around it. */
  corners: [number, number][];
}

export interface WalkwayCheck {
  /** Every door's clearance strip and the camera's side of the room reachable by a person of this width. */
  connected: boolean;
  /**
   * Doors (indices into room.openings) a person cannot reach from the camera's side because of the footprints (a
   * door out of reach in the empty room too, e.g. behind the seen floor's edge, is not the furniture's doing).
   */
  unreachableDoors: number[];
}

export function checkWalkway(room: RoomModel, footprints: readonly FloorRectangle[], width: number, nearest: number): WalkwayCheck {
  const empty = new Set(unreachable(room, [], width, nearest));
  const unreachableDoors = unreachable(room, footprints, width, nearest).filter((door) => !empty.has(door));
  return { connected: unreachableDoors.length === 0, unreachableDoors };
}

/**
 * Whether a person `width` metres wide can walk from the camera's side of the room (the row of floor nearest the
 * camera, `nearest` metres ahead) to every door, around the footprints: the free floor is the room's floor minus
 * each footprint grown by half the width, and the check is a flood fill over it.
 */
function unreachable(room: RoomModel, footprints: readonly FloorRectangle[], width: number, nearest: number): number[] {
  const { left, right, front } = room.box;
  const columns = Math.max(1, Math.floor((right - left) / CELL_M));
  const rows = Math.max(1, Math.floor((front - nearest) / CELL_M));
  const free = new Uint8Array(columns * rows).fill(1);
  const radius = width / 2;
  const centre = (i: number, j: number): [number, number] => [left + (i + 0.5) * CELL_M, nearest + (j + 0.5) * CELL_M];
  // A cell is taken when its centre is within `radius` of a footprint, or within `radius` of a wall.
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < columns; i++) {
      const [x, y] = centre(i, j);
      if (x - left < radius || right - x < radius || front - y < radius) free[j * columns + i] = 0;
    }
  }
  // The building's blocks (an L-shaped room's corner) take the floor as furniture does.
  for (const footprint of [...footprints, ...room.blocks.map((block) => ({ corners: blockOutline(block) }))]) {
    const xs = footprint.corners.map((c) => c[0]);
    const ys = footprint.corners.map((c) => c[1]);
    const i0 = Math.max(0, Math.floor((Math.min(...xs) - radius - left) / CELL_M));
    const i1 = Math.min(columns - 1, Math.ceil((Math.max(...xs) + radius - left) / CELL_M));
    const j0 = Math.max(0, Math.floor((Math.min(...ys) - radius - nearest) / CELL_M));
    const j1 = Math.min(rows - 1, Math.ceil((Math.max(...ys) + radius - nearest) / CELL_M));
    for (let j = j0; j <= j1; j++) {
      for (let i = i0; i <= i1; i++) {
        if (distanceToPolygon(centre(i, j), footprint.corners) < radius) free[j * columns + i] = 0;
      }
    }
  }
  // Flood from the camera's side: the first row.
  const reached = new Uint8Array(columns * rows);
  const queue: number[] = [];
  for (let i = 0; i < columns; i++) {
    if (free[i]) {
      reached[i] = 1;
      queue.push(i);
    }
  }
  while (queue.length > 0) {
    const k = queue.pop()!;
    const i = k % columns;
    const j = (k - i) / columns;
    for (const [di, dj] of [[1, 0], [-1, 0], [0, 1], [0, -1]] as const) {
      const ni = i + di;
      const nj = j + dj;
      if (ni < 0 || nj < 0 || ni >= columns || nj >= rows) continue;
      const n = nj * columns + ni;
      if (free[n] && !reached[n]) {
        reached[n] = 1;
        queue.push(n);
      }
    }
  }
  // A door is reachable when a reached cell lies in the strip before it (within the clearance depth of its wall).
  const unreachableDoors: number[] = [];
  room.openings.forEach((opening, index) => {
    if (opening.kind === 'window') return;
    let ok = false;
    for (let j = 0; j < rows && !ok; j++) {
      for (let i = 0; i < columns && !ok; i++) {
        if (!reached[j * columns + i]) continue;
        const [x, y] = centre(i, j);
        const along = opening.wall === 'wall-front' ? x : y;
        const depth = opening.wall === 'wall-front' ? front - y : opening.wall === 'wall-left' ? x - left : right - x;
        if (along >= opening.u0 && along <= opening.u1 && depth <= radius + 2 * CELL_M) ok = true;
      }
    }
    // A door whose strip lies behind the camera's nearest row (a side-wall door at the camera's feet) is reached from
    // the camera's side directly.
    if (!ok && opening.wall !== 'wall-front' && opening.u1 <= nearest + radius) ok = true;
    if (!ok) unreachableDoors.push(index);
  });
  return unreachableDoors;
}

/** Distance from a point to a convex polygon (0 inside). */
function distanceToPolygon(p: [number, number], polygon: [number, number][]): number {
  let inside = true;
  let best = Infinity;
  let sign = 0;
  for (let k = 0; k < polygon.length; k++) {
    const a = polygon[k]!;
    const b = polygon[(k + 1) % polygon.length]!;
    const cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
    if (cross !== 0) {
      if (sign === 0) sign = Math.sign(cross);
      else if (Math.sign(cross) !== sign) inside = false;
    }
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy || 1)));
    best = Math.min(best, Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy));
  }
  return inside ? 0 : best;
}
