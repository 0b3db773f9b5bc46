import { FACE_LABELS, faceAt } from '../vision/geometry/room-box.js';
import { alongWall, pointOnWall, projectWorld, wallPoint, type DoorFrame, type RoomModel, type WallLabel } from './room-model.js';

/** A line segment of the photo (pixels) and the vanishing direction it was assigned to. */
export interface UprightLine {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  axis: 'x' | 'y' | 'z' | null;
}

/** How far above the floor an edge's lower end may stop: skirting and the floor's shading often cut the line short. */
const MAX_BOTTOM_M = 0.3;
/** The least height its upper end reaches: a door is 2 m and more, a socket's or a radiator's edge far less. */
const MIN_TOP_M = 1.6;
/** How far below the ceiling its upper end must stop: a room's corner, a pipe or a column runs up to it. */
const CEILING_GAP_M = 0.2;
/** Edges this near a wall's end are the room's corner, seen where the layout put it. */
const CORNER_GAP_M = 0.25;
/**
 * Neighbouring edges of one door or one row of closet doors: at most this far apart along the wall, their tops at
 * most TOP_STEP_M apart. A door's leaf is under 1 m, a double door's about 1.6 m; a row of doors chains its edges.
 */
const MAX_GROUP_GAP_M = 1.8;
const TOP_STEP_M = 0.35;
/** A lone edge is the side of a door whose other side was not seen: the door may be on either side of it. */
const LONE_EDGE_REACH_M = 0.45;
/** Edges of a group spanning less than a door are one side of a door (a casing's two edges), kept like a lone edge. */
const MIN_DOOR_WIDTH_M = 0.5;
/** How far below the floor an edge's lower end may land (the layout's floor line is not exact). */
const MIN_BOTTOM_M = -0.15;
/** A found door's jambs: edges this near its outline are its own. */
const JAMB_M = 0.15;
/** How far up into a window, past its lower edge, an edge standing on the floor must reach to be its jamb. */
const WINDOW_JAMB_REACH_M = 0.3;
/** Where a side wall's frames begin, metres ahead of the camera: nothing is staged nearer. */
const NEAREST_SIDE_WALL_M = 0.5;

interface DoorEdge {
  wall: WallLabel;
  u: number;
  top: number;
}

/**
 * The stretches of wall where the photo shows the upright edges of a door — a frame, a door leaf's side, the gap
 * between closet doors, a glass door's stiles — that no door of the analysis accounts for, and the windows it shows
 * standing on the floor (floorStandingWindows). Staging keeps the floor in front of them clear, as in front of a door
 * (placement-rules.ts).
 *
 * Why: on real photos both analyses miss most doors or call them windows (the room networks find 9 of 21 drawn doors,
 * docs/models/room-understanding.md), and furniture was staged before them: a sideboard before empty_living_03's
 * doorway, a sideboard before empty_living_07's sliding door, a dresser before empty_bedroom_02's closet. The lines the
 * vanishing points were found from still see those doors' upright edges, and an upright edge that stands on the floor
 * and stops at door height, short of the ceiling, is seldom anything else: a room's corner and a pipe run up to the
 * ceiling, a window's frame stops above its sill.
 */
export function doorFrames(room: Pick<RoomModel, 'camera' | 'box' | 'visibleWalls' | 'openings'>, lines: readonly UprightLine[]): DoorFrame[] {
  const windows = floorStandingWindows(room, lines);
  // A floor-standing window's jambs and the gaps of closet doors under it are its own: one frame, not two.
  const inWindow = (edge: DoorEdge) => windows.some((w) => w.wall === edge.wall && edge.u >= w.u0 - JAMB_M && edge.u <= w.u1 + JAMB_M);
  const edges = lines.flatMap((line) => {
    const edge = line.axis === 'z' ? doorEdge(room, line) : undefined;
    return edge && !inWindow(edge) ? [edge] : [];
  });
  const frames: DoorFrame[] = [];
  for (const wall of room.visibleWalls) {
    const onWall = edges.filter((e) => e.wall === wall).sort((a, b) => a.u - b.u);
    let group: DoorEdge[] = [];
    const close = () => {
      if (group.length === 0) return;
      const first = group[0]!.u;
      const last = group[group.length - 1]!.u;
      // Edges closer than a door's width are one side of it (a casing's two edges): a lone edge's reach.
      const middle = (first + last) / 2;
      const [from, to] = last - first < MIN_DOOR_WIDTH_M ? [middle - LONE_EDGE_REACH_M, middle + LONE_EDGE_REACH_M] : [first, last];
      const [wallStart, wallEnd] = wall === 'wall-front' ? [room.box.left, room.box.right] : [NEAREST_SIDE_WALL_M, room.box.front];
      const u0 = Math.max(from, wallStart);
      const u1 = Math.min(to, wallEnd);
      const top = Math.max(...group.map((e) => e.top));
      const corners = [wallPoint(room.box, wall, u0, 0), wallPoint(room.box, wall, u1, 0), wallPoint(room.box, wall, u1, top), wallPoint(room.box, wall, u0, top)];
      const polygon = corners.map((c) => projectWorld(room.camera, c));
      // An outline the camera cannot wholly project is left empty: the strip before the frame is still kept.
      if (u1 > u0) frames.push({ wall, u0, u1, polygon: polygon.every((p) => p !== undefined) ? (polygon as [number, number][]) : [] });
      group = [];
    };
    for (const edge of onWall) {
      const previous = group[group.length - 1];
      if (previous && (edge.u - previous.u > MAX_GROUP_GAP_M || Math.abs(edge.top - previous.top) > TOP_STEP_M)) close();
      group.push(edge);
    }
    close();
  }
  return [...frames, ...windows];
}

/**
 * Windows whose jamb the photo shows standing on the floor, from the floor to the window's top: a closet's or a glass
 * door's upper panels the analyses took for a window, or a window reaching down to the floor. The window's outline
 * stops at what the analyses saw, so without this a chest stood before empty_bedroom_02's closet doors, under the
 * "window" of their upper half. The edge may run up to the ceiling (a closet's casing often does), unlike a door
 * frame's: a window is there to say the wall is open.
 */
function floorStandingWindows(room: Pick<RoomModel, 'camera' | 'box' | 'visibleWalls' | 'openings'>, lines: readonly UprightLine[]): DoorFrame[] {
  const frames: DoorFrame[] = [];
  for (const window of room.openings) {
    if (window.kind !== 'window' || !room.visibleWalls.has(window.wall)) continue;
    const standing = lines.some((line) => {
      const edge = line.axis === 'z' ? edgeOnWall(room, line) : undefined;
      return (
        edge !== undefined &&
        edge.wall === window.wall &&
        !nearWallEnd(room, edge.wall, edge.u) &&
        edge.u >= window.u0 - JAMB_M &&
        edge.u <= window.u1 + JAMB_M &&
        edge.bottom >= MIN_BOTTOM_M &&
        edge.bottom <= MAX_BOTTOM_M &&
        edge.top >= window.bottom + WINDOW_JAMB_REACH_M
      );
    });
    if (!standing) continue;
    const corners = [wallPoint(room.box, window.wall, window.u0, 0), wallPoint(room.box, window.wall, window.u1, 0), wallPoint(room.box, window.wall, window.u1, window.top), wallPoint(room.box, window.wall, window.u0, window.top)];
    const polygon = corners.map((c) => projectWorld(room.camera, c));
    frames.push({ wall: window.wall, u0: window.u0, u1: window.u1, polygon: polygon.every((p) => p !== undefined) ? (polygon as [number, number][]) : [] });
  }
  return frames;
}

/** The segment on the wall it is seen on: where along the wall, and its ends' heights above the floor. */
function edgeOnWall(room: Pick<RoomModel, 'camera' | 'box' | 'visibleWalls'>, line: UprightLine): { wall: WallLabel; u: number; bottom: number; top: number } | undefined {
  const [bottomX, bottomY, topX, topY] = line.y0 > line.y1 ? [line.x0, line.y0, line.x1, line.y1] : [line.x1, line.y1, line.x0, line.y0];
  // The wall is the surface seen a quarter of the way up: at the lower end itself the floor may be hit first.
  const wall = wallSeenAt(room, bottomX + (topX - bottomX) / 4, bottomY + (topY - bottomY) / 4);
  if (!wall || !room.visibleWalls.has(wall)) return undefined;
  const bottom = pointOnWall(room.camera, room.box, wall, bottomX, bottomY);
  const top = pointOnWall(room.camera, room.box, wall, topX, topY);
  if (!bottom || !top) return undefined;
  return { wall, u: (alongWall(wall, bottom) + alongWall(wall, top)) / 2, bottom: bottom[2] - room.box.floor, top: top[2] - room.box.floor };
}

/** The segment as a door's upright edge on the wall it is seen on, or undefined when it is not one. */
function doorEdge(room: Pick<RoomModel, 'camera' | 'box' | 'visibleWalls' | 'openings'>, line: UprightLine): DoorEdge | undefined {
  const edge = edgeOnWall(room, line);
  if (!edge) return undefined;
  const { wall, u, bottom: lowest, top: highest } = edge;
  const { floor, ceiling } = room.box;
  // An edge whose foot lands below the floor stands in front of the wall (a wardrobe's, a fridge's side).
  if (lowest < MIN_BOTTOM_M || lowest > MAX_BOTTOM_M || highest < MIN_TOP_M || highest > ceiling - floor - CEILING_GAP_M) return undefined;
  if (nearWallEnd(room, wall, u)) return undefined;
  // A found door already keeps its strip clear; its jambs stand just outside its outline.
  if (room.openings.some((o) => o.kind !== 'window' && o.wall === wall && u >= o.u0 - JAMB_M && u <= o.u1 + JAMB_M)) return undefined;
  return { wall, u, top: highest };
}

/** Whether `u` along the wall lies within CORNER_GAP_M of its end: the room's corner, seen where the layout put it. */
function nearWallEnd(room: Pick<RoomModel, 'box'>, wall: WallLabel, u: number): boolean {
  const { left, right, front } = room.box;
  return wall === 'wall-front' ? u < left + CORNER_GAP_M || u > right - CORNER_GAP_M : u > front - CORNER_GAP_M;
}

/** The wall of the empty box seen at a pixel, or undefined where the floor or the ceiling is. */
function wallSeenAt(room: Pick<RoomModel, 'camera' | 'box'>, x: number, y: number): WallLabel | undefined {
  const label = FACE_LABELS[faceAt(room.camera, { ...room.box, back: -Infinity }, x, y)];
  return label === 'wall-left' || label === 'wall-front' || label === 'wall-right' ? label : undefined;
}

/** The room with the door frames its photo's lines show (a room model from roomModel has none). */
export function withDoorFrames<Room extends RoomModel>(room: Room, lines: readonly UprightLine[]): Room {
  return { ...room, doorFrames: doorFrames(room, lines) };
}
