import type { UprightLine } from './door-frames.js';
import { pixelRay, pointOnFloor, type RoomBlock, type RoomModel } from './room-model.js';

/**
 * Columns, pillars and the ends of partitions standing inside the room, from the photo's upright lines: an edge whose
 * foot lands on the floor well inside the walls and that rises to a room's height is something built standing in the
 * room. Staging treats each as a block (room-model.ts): nothing stands in it, nothing hidden behind it.
 *
 * Why: the clutter finder that keeps pieces off unnamed standing things looks for them on the layout's floor face,
 * and a box a little off leaves a pillar's foot outside that face (decision 0026: empty_living_03's pillar missed on
 * the box moved onto the network's map, and a sofa drawn through it). The pillar's edges do not depend on the box:
 * where they stand follows from the camera and the floor alone, and only the walls' test does.
 */

/** Least height an edge's upper end reaches above the floor: a column runs to the ceiling, a table's leg far lower. */
const MIN_TOP_M = 1.8;
/** How far inside every wall its foot must land: an edge nearer a wall stands against it (a door's frame, a corner). */
const WALL_GAP_M = 0.3;
/**
 * The same, with the foot raised by this share of the photo's height: a line running a little past the floor line of
 * a far wall (a threshold, a skirting's shadow) lands metres in front of it, where a pixel is a long way.
 */
const FOOT_TOLERANCE = 0.02;
/** Edges whose feet are at most this far apart are one column (its two front corners, or three edges of one seen from a corner). */
const MAX_COLUMN_WIDTH_M = 0.8;
/** A column's least size across and its depth where the photo shows one edge or one face of it. */
const MIN_COLUMN_SIDE_M = 0.3;

interface ColumnEdge {
  x: number;
  y: number;
}

export function standingColumns(room: Pick<RoomModel, 'camera' | 'box' | 'visibleWalls'>, lines: readonly UprightLine[]): RoomBlock[] {
  const edges = lines.flatMap((line) => {
    const edge = line.axis === 'z' ? columnEdge(room, line) : undefined;
    return edge ? [edge] : [];
  });
  edges.sort((a, b) => a.x - b.x);
  const blocks: RoomBlock[] = [];
  let group: ColumnEdge[] = [];
  const close = () => {
    if (group.length === 0) return;
    const x0 = Math.min(...group.map((e) => e.x));
    const x1 = Math.max(...group.map((e) => e.x));
    const y0 = Math.min(...group.map((e) => e.y));
    const y1 = Math.max(...group.map((e) => e.y));
    const middle = (x0 + x1) / 2;
    const half = Math.max(x1 - x0, MIN_COLUMN_SIDE_M) / 2;
    blocks.push({ x0: middle - half, x1: middle + half, y0, y1: Math.max(y1, y0 + Math.max(2 * half, MIN_COLUMN_SIDE_M)) });
    group = [];
  };
  for (const edge of edges) {
    if (group.length > 0 && group.some((e) => Math.hypot(e.x - edge.x, e.y - edge.y) > MAX_COLUMN_WIDTH_M)) close();
    group.push(edge);
  }
  close();
  return blocks;
}

/** Where the segment's foot stands on the floor, when it is a column's edge; undefined otherwise. */
function columnEdge(room: Pick<RoomModel, 'camera' | 'box' | 'visibleWalls'>, line: UprightLine): ColumnEdge | undefined {
  const { camera, box } = room;
  const [bottomX, bottomY, topX, topY] = line.y0 > line.y1 ? [line.x0, line.y0, line.x1, line.y1] : [line.x1, line.y1, line.x0, line.y0];
  const inside = (y: number) => {
    const foot = pointOnFloor(camera, box.floor, bottomX, y);
    if (!foot) return undefined;
    const [x, ahead] = foot;
    const clear =
      ahead < box.front - WALL_GAP_M &&
      (!room.visibleWalls.has('wall-left') || x > box.left + WALL_GAP_M) &&
      (!room.visibleWalls.has('wall-right') || x < box.right - WALL_GAP_M);
    return clear ? foot : undefined;
  };
  const foot = inside(bottomY);
  if (!foot || !inside(bottomY - FOOT_TOLERANCE * camera.height)) return undefined;
  // The top's height where it stands: the ray through the upper end, as far ahead as the foot.
  const ray = pixelRay(camera, topX, topY);
  if (!(ray[1] > 1e-9)) return undefined;
  const top = (ray[2] * foot[1]) / ray[1] - box.floor;
  return top >= MIN_TOP_M ? { x: foot[0], y: foot[1] } : undefined;
}

/** The room with the columns its photo's lines show, as blocks beside any it has. */
export function withStandingColumns<Room extends RoomModel>(room: Room, lines: readonly UprightLine[]): Room {
  return { ...room, blocks: [...room.blocks, ...standingColumns(room, lines)] };
}
