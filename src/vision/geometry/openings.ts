import { sampleBilinear } from '../colour-planes.js';
import { greyPlane } from './resample.js';
import { cameraToWorld, worldToCamera, type PinholeCamera } from './camera.js';
import { faceOfRay, FACE_LABELS, WALL_FRONT, WALL_LEFT, WALL_RIGHT, type FaceIndex, type FaceLabel, type RoomBox } from './room-box.js';
import { segmentLength, type LineSegment } from './segments.js';
import { segmentTolerance, vanishingErrors } from './vanishing-points.js';
import type { Vec3 } from './vec3.js';
import type { RawImage } from '../raw-image.js';
import { VISIBLE_CLASSES, type RoomSegmentation } from './room-segmentation.js';

export type OpeningKind = 'window' | 'door' | 'french-door';

export interface Opening {
  kind: OpeningKind;
  wall: FaceLabel;
  /**
   * Image corners (working pixels as detected; the analysis scales them to the photo), in wall coordinates (u, v):
   * (u0, bottom), (u1, bottom), (u1, top), (u0, top); u runs along +X on the front wall and along +Y (away from
   * the camera) on the side walls.
   */
  polygon: [number, number][];
  /** Size and sill height in camera heights (multiply by the camera height for metres). */
  widthRelative: number;
  heightRelative: number;
  sillRelative: number;
  /** Share of the frame's sides (the bottom excepted for doors) lying on detected segments. */
  frameSupport: number;
  /** Mean luma inside minus around, over 255. */
  contrast: number;
  score: number;
}

export interface OpeningOptions {
  /** Camera height (metres) used to judge sizes before any door fixes the scale. Default 1.5. */
  assumedCameraHeight?: number;
  /** Lowest score kept. Default 0.5. */
  minScore?: number;
  /** Most openings returned. Default 12. */
  maxOpenings?: number;
}

interface Wall {
  face: FaceIndex;
  /** World point of wall coordinates (u along the wall, v height above the floor). */
  point: (u: number, v: number) => Vec3;
  /** Wall coordinates of the point where a world ray meets the wall plane, or undefined. */
  coordinates: (d: Readonly<Vec3>) => [number, number] | undefined;
  /** Family of the wall's horizontal lines: 0 (X) on the front wall, 1 (Y) on the side walls. */
  horizontal: 0 | 1;
}

/**
 * Windows, doors and French doors on the layout's walls: each visible wall is rectified (sampled on a grid in its own
 * plane), the segments lying on it mapped into that grid, and axis-aligned rectangles framed by them — two vertical
 * sides and a top, and a bottom unless the rectangle stands on the floor — kept when their size fits an opening and
 * their frame is well supported; brighter-than-the-wall interiors (daylight) add to the score. Rectangles that stand
 * on the floor are doors (wider than 1.15 m: French doors); the others are windows.
 */
export function detectOpenings(
  image: RawImage,
  camera: PinholeCamera,
  box: RoomBox,
  segments: readonly LineSegment[],
  assignment: Int8Array,
  options: OpeningOptions = {},
): Opening[] {
  const assumed = options.assumedCameraHeight ?? 1.5;
  const minScore = options.minScore ?? 0.5;
  const luma = greyPlane(image).data;
  const found: Opening[] = [];
  for (const wall of sideWalls(box)) {
    const view: WallView = { wall, camera, box, width: image.width, height: image.height, luma };
    found.push(...openingsOnWall(view, segments, assignment, assumed));
  }
  found.sort((a, b) => b.score - a.score);
  return found.filter((o) => o.score >= minScore).slice(0, options.maxOpenings ?? 12);
}

/** The walls an opening may be found on: the front wall and the two side walls of the layout's box. */
function sideWalls(box: RoomBox): Wall[] {
  return [
    {
      face: WALL_FRONT,
      point: (u, v) => [u, box.front, v + box.floor],
      coordinates: (d) => (d[1] > 1e-9 ? [(d[0] * box.front) / d[1], (d[2] * box.front) / d[1] - box.floor] : undefined),
      horizontal: 0,
    },
    {
      face: WALL_LEFT,
      point: (u, v) => [box.left, u, v + box.floor],
      coordinates: (d) => (d[0] < -1e-9 ? [(d[1] * box.left) / d[0], (d[2] * box.left) / d[0] - box.floor] : undefined),
      horizontal: 1,
    },
    {
      face: WALL_RIGHT,
      point: (u, v) => [box.right, u, v + box.floor],
      coordinates: (d) => (d[0] > 1e-9 ? [(d[1] * box.right) / d[0], (d[2] * box.right) / d[0] - box.floor] : undefined),
      horizontal: 1,
    },
  ];
}

export interface NetworkOpeningOptions {
  /** Least share of the image a region of window or door pixels must cover. Default 0.005 (the benches' smallest). */
  minShare?: number;
  /** Least share of its rectangle, on the wall, that the region fills: an opening is a rectangle. Default 0.6. */
  minFill?: number;
  /** A rectangle whose bottom is this close to the floor (camera heights) is a door. Default 0.08. */
  doorSill?: number;
}

/**
 * Windows and doors where the room network sees them: each connected region of its window and door pixels on one
 * wall of the layout, mapped into the wall's plane, becomes the axis-aligned rectangle spanning it there (its 2nd to
 * 98th percentiles along the wall and in height), kept when the region fills most of that rectangle — panes, frames
 * and a door's leaf fill their rectangle, a glare on the wall or a glossy floor's reflection does not. A rectangle
 * that reaches the floor is a door. `segmentation` covers the image the camera describes. The frame support and
 * contrast of these openings are 0 (no line was looked at), so none of them sets the camera's height.
 */
export function networkOpenings(camera: PinholeCamera, box: RoomBox, segmentation: RoomSegmentation, options: NetworkOpeningOptions = {}): Opening[] {
  const { width, height, visible } = segmentation;
  const minPixels = (options.minShare ?? 0.005) * width * height;
  const minFill = options.minFill ?? 0.6;
  const doorSill = options.doorSill ?? 0.08;
  const window = VISIBLE_CLASSES.indexOf('window');
  const door = VISIBLE_CLASSES.indexOf('door');
  const sx = camera.width / width;
  const sy = camera.height / height;
  const walls = sideWalls(box);
  // Per network pixel: the wall its ray meets (index into walls, or -1) and the wall coordinates there.
  const wallOf = new Int8Array(width * height).fill(-1);
  const us = new Float64Array(width * height);
  const vs = new Float64Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const d = rayAt(camera, (x + 0.5) * sx, (y + 0.5) * sy);
      const face = faceOfRay(box, d);
      const k = walls.findIndex((w) => w.face === face);
      const c = k >= 0 ? walls[k]!.coordinates(d) : undefined;
      if (!c) continue;
      const i = y * width + x;
      wallOf[i] = k;
      us[i] = c[0];
      vs[i] = c[1];
    }
  }
  const isOpening = (i: number) => wallOf[i]! >= 0 && (visible[i] === window || visible[i] === door);
  const seen = new Uint8Array(width * height);
  const found: Opening[] = [];
  for (let start = 0; start < width * height; start++) {
    if (seen[start] || !isOpening(start)) continue;
    // The region: 4-connected pixels of window or door on the same wall.
    const k = wallOf[start]!;
    const region: number[] = [start];
    seen[start] = 1;
    for (let n = 0; n < region.length; n++) {
      const i = region[n]!;
      const x = i % width;
      for (const j of [i - 1, i + 1, i - width, i + width]) {
        if (j < 0 || j >= width * height || (j === i - 1 && x === 0) || (j === i + 1 && x === width - 1)) continue;
        if (!seen[j] && wallOf[j] === k && isOpening(j)) {
          seen[j] = 1;
          region.push(j);
        }
      }
    }
    if (region.length < minPixels) continue;
    const u = region.map((i) => us[i]!).sort((a, b) => a - b);
    const v = region.map((i) => vs[i]!).sort((a, b) => a - b);
    const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    const [u0, u1, v0Raw, v1] = [at(u, 0.02), at(u, 0.98), at(v, 0.02), at(v, 0.98)];
    if (!(u1 > u0 && v1 > v0Raw)) continue;
    // The wall's pixels inside the rectangle, and how many of them the region holds.
    let inside = 0;
    let held = 0;
    const member = new Uint8Array(width * height);
    for (const i of region) member[i] = 1;
    for (let i = 0; i < width * height; i++) {
      if (wallOf[i] !== k || us[i]! < u0 || us[i]! > u1 || vs[i]! < v0Raw || vs[i]! > v1) continue;
      inside++;
      if (member[i]) held++;
    }
    const fill = inside ? held / inside : 0;
    if (fill < minFill) continue;
    const reachesFloor = v0Raw <= doorSill;
    const v0 = reachesFloor ? 0 : v0Raw;
    const view: WallView = { wall: walls[k]!, camera, box, width: camera.width, height: camera.height, luma: new Float32Array(0) };
    const corners = [wallToImage(view, u0, v0), wallToImage(view, u1, v0), wallToImage(view, u1, v1), wallToImage(view, u0, v1)];
    if (corners.some((p) => p === undefined)) continue;
    found.push({
      kind: reachesFloor ? 'door' : 'window',
      wall: FACE_LABELS[walls[k]!.face],
      polygon: corners as [number, number][],
      widthRelative: u1 - u0,
      heightRelative: v1 - v0,
      sillRelative: v0,
      frameSupport: 0,
      contrast: 0,
      score: fill,
    });
  }
  return found;
}

interface Candidate {
  u0: number;
  u1: number;
  v0: number;
  v1: number;
  support: number;
  contrast: number;
  score: number;
  kind: OpeningKind;
}

/** A wall as seen in the photo: the camera, the layout, and the image the wall is sampled from. */
interface WallView {
  wall: Wall;
  camera: PinholeCamera;
  box: RoomBox;
  width: number;
  height: number;
  luma: Float32Array;
}

/**
 * The wall sampled on a square grid in its own plane: cell (c, r) is centred at u = uMin + (c + ½)·cell and
 * v = (r + ½)·cell, v the height above the floor.
 */
interface WallGrid {
  uMin: number;
  uMax: number;
  height: number;
  cell: number;
  columns: number;
  rows: number;
  /** 1 where the cell's centre is on the photo and the wall is what the photo shows there. */
  valid: Uint8Array;
  /** Luma at each valid cell's centre. */
  luma: Float32Array;
}

/** The wall's segments drawn into its grid, and the positions of its vertical and horizontal ones. */
interface WallLines {
  /** Cells crossed by vertical (Z) segments and by the wall's horizontal ones. */
  vertical: Uint8Array;
  horizontal: Uint8Array;
  /** u of each vertical segment (the mean of its ends) and v of each horizontal one. */
  us: number[];
  vs: number[];
}

function openingsOnWall(view: WallView, segments: readonly LineSegment[], assignment: Int8Array, assumed: number): Opening[] {
  const extent = visibleExtent(view);
  if (!extent) return [];
  const grid = rectifyWall(view, extent);
  const lines = wallLines(view, grid, segments, assignment);
  const sides = sideCandidates(grid, lines);
  if (!sides) return [];
  const metres = (relative: number) => relative * assumed;
  const candidates = framedRectangles(grid, lines, sides, metres);
  const kept = joinSplitWindows(keepBest(candidates), grid, lines, metres);
  const out: Opening[] = [];
  for (const c of kept) {
    const corners = [wallToImage(view, c.u0, c.v0), wallToImage(view, c.u1, c.v0), wallToImage(view, c.u1, c.v1), wallToImage(view, c.u0, c.v1)];
    if (corners.some((p) => p === undefined)) continue;
    out.push({
      kind: c.kind,
      wall: FACE_LABELS[view.wall.face],
      polygon: corners as [number, number][],
      widthRelative: c.u1 - c.u0,
      heightRelative: c.v1 - c.v0,
      sillRelative: c.v0,
      frameSupport: c.support,
      contrast: c.contrast,
      score: c.score,
    });
  }
  return out;
}

/** The world ray through an image point. */
function rayAt(camera: PinholeCamera, x: number, y: number): Vec3 {
  return cameraToWorld(camera, [(x - camera.cx) / camera.focal, (y - camera.cy) / camera.focal, 1]);
}

/** The image point of wall coordinates (u, v), or undefined behind the camera. */
function wallToImage(view: WallView, u: number, v: number): [number, number] | undefined {
  const { camera } = view;
  const p = worldToCamera(camera, view.wall.point(u, v));
  if (p[2] <= 1e-6) return undefined;
  return [camera.cx + (camera.focal * p[0]) / p[2], camera.cy + (camera.focal * p[1]) / p[2]];
}

/** The wall's visible extent along u, from a coarse scan of the image; undefined when too little of it shows. */
function visibleExtent(view: WallView): { uMin: number; uMax: number } | undefined {
  const { wall, camera, box, width, height } = view;
  let uMin = Infinity;
  let uMax = -Infinity;
  let seen = 0;
  const scan = 48;
  for (let j = 0; j <= scan; j++) {
    for (let i = 0; i <= scan; i++) {
      const d = rayAt(camera, (i / scan) * width, (j / scan) * height);
      if (faceOfRay(box, d) !== wall.face) continue;
      const c = wall.coordinates(d);
      if (!c) continue;
      seen++;
      uMin = Math.min(uMin, c[0]);
      uMax = Math.max(uMax, c[0]);
    }
  }
  return seen < 12 || !(uMax > uMin) ? undefined : { uMin, uMax };
}

/** Samples the wall's visible extent from floor to ceiling, in cells of about 2 % of the camera height (at most 320 × 160). */
function rectifyWall(view: WallView, { uMin, uMax }: { uMin: number; uMax: number }): WallGrid {
  const { wall, camera, box, width, height } = view;
  const wallHeight = box.ceiling - box.floor;
  const cell = Math.max(0.02, (uMax - uMin) / 320, wallHeight / 160);
  const columns = Math.max(1, Math.ceil((uMax - uMin) / cell));
  const rows = Math.max(1, Math.ceil(wallHeight / cell));
  const valid = new Uint8Array(columns * rows);
  const luma = new Float32Array(columns * rows);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const q = wallToImage(view, uMin + (c + 0.5) * cell, (r + 0.5) * cell);
      if (!q || q[0] < 0 || q[1] < 0 || q[0] >= width || q[1] >= height) continue;
      if (faceOfRay(box, rayAt(camera, q[0], q[1])) !== wall.face) continue;
      valid[r * columns + c] = 1;
      luma[r * columns + c] = sampleBilinear(view.luma, width, height, q[0], q[1]);
    }
  }
  return { uMin, uMax, height: wallHeight, cell, columns, rows, valid, luma };
}

/**
 * The segments on this wall, mapped into its grid: the verticals (Z) and the wall's horizontals, each unambiguous
 * (near one vanishing point only) and with its middle on the wall.
 */
function wallLines(view: WallView, grid: WallGrid, segments: readonly LineSegment[], assignment: Int8Array): WallLines {
  const { wall, camera, box } = view;
  const { uMin, cell, columns, rows } = grid;
  const vertical = new Uint8Array(columns * rows);
  const horizontal = new Uint8Array(columns * rows);
  const us: number[] = [];
  const vs: number[] = [];
  segments.forEach((s, i) => {
    const k = assignment[i]!;
    if (k !== 2 && k !== wall.horizontal) return;
    const errors = vanishingErrors(s, camera);
    if (errors.filter((e) => e < 1.5 * segmentTolerance(segmentLength(s))).length > 1) return;
    if (faceOfRay(box, rayAt(camera, (s.x0 + s.x1) / 2, (s.y0 + s.y1) / 2)) !== wall.face) return;
    const a = wall.coordinates(rayAt(camera, s.x0, s.y0));
    const b = wall.coordinates(rayAt(camera, s.x1, s.y1));
    if (!a || !b) return;
    const ca = [(a[0] - uMin) / cell, a[1] / cell];
    const cb = [(b[0] - uMin) / cell, b[1] / cell];
    if (k === 2) {
      drawGrid(vertical, columns, rows, (ca[0]! + cb[0]!) / 2, ca[1]!, (ca[0]! + cb[0]!) / 2, cb[1]!);
      us.push((a[0] + b[0]) / 2);
    } else {
      drawGrid(horizontal, columns, rows, ca[0]!, (ca[1]! + cb[1]!) / 2, cb[0]!, (ca[1]! + cb[1]!) / 2);
      vs.push((a[1] + b[1]) / 2);
    }
  });
  return { vertical, horizontal, us, vs };
}

/**
 * Where an opening's sides may be: the clustered verticals plus where the photo's border cuts the wall at mid-height
 * (the side of an opening that runs off the image), sorted, at most 42; and its bottom and top: the floor and the
 * clustered horizontals, at most 40 of them. Undefined when fewer than two verticals are on the wall.
 */
function sideCandidates(grid: WallGrid, lines: WallLines): { us: number[]; vs: number[] } | undefined {
  const { uMin, uMax, cell, columns, rows, valid } = grid;
  const us = cluster(lines.us, 1.5 * cell).filter((u) => u > uMin && u < uMax);
  const vs = cluster(lines.vs, 1.5 * cell).filter((v) => v > 0.03 && v < grid.height - 0.02);
  if (us.length < 2) return undefined;
  const middle = Math.min(rows - 1, Math.round(rows * 0.55));
  let firstValid = -1;
  let lastValid = -1;
  for (let c = 0; c < columns; c++) {
    if (!valid[middle * columns + c]) continue;
    if (firstValid < 0) firstValid = c;
    lastValid = c;
  }
  if (firstValid >= 0) us.push(uMin + (firstValid + 0.5) * cell, uMin + (lastValid + 0.5) * cell);
  return {
    us: cluster(us, 1.5 * cell).sort((a, b) => a - b).slice(0, 42),
    vs: [0, ...vs.sort((a, b) => a - b).slice(0, 40)],
  };
}

/**
 * Every rectangle between two side candidates and a bottom and a top whose size fits a door, a French door or a
 * window, whose frame lies on the wall's lines, whose inside differs from the wall around it, and that is not a shelf
 * or a bookcase's compartment; scored by frame support and brightness.
 */
function framedRectangles(grid: WallGrid, lines: WallLines, sides: { us: number[]; vs: number[] }, metres: (relative: number) => number): Candidate[] {
  const { uMin, cell } = grid;
  const { us, vs } = sides;
  const candidates: Candidate[] = [];
  for (let i = 0; i < us.length; i++) {
    for (let j = i + 1; j < us.length; j++) {
      const u0 = us[i]!;
      const u1 = us[j]!;
      const w = metres(u1 - u0);
      if (w < 0.3 || w > 4) continue;
      for (let p = 0; p < vs.length; p++) {
        for (let q = p + 1; q < vs.length; q++) {
          const v0 = vs[p]!;
          const v1 = vs[q]!;
          const kind = openingKind({ width: w, height: metres(v1 - v0), bottom: metres(v0), top: metres(v1) });
          if (!kind) continue;
          const judged = judgeFrame(grid, lines, (u0 - uMin) / cell, (u1 - uMin) / cell, v0 / cell, v1 / cell, kind);
          if (judged) candidates.push({ u0, u1, v0, v1, ...judged, kind });
        }
      }
    }
  }
  return candidates;
}

/**
 * What a rectangle can be, from its size in metres and the heights of its bottom and top above the floor: standing
 * on the floor, a door or a French door; otherwise a window. Undefined when it fits none.
 */
function openingKind({ width, height, bottom, top }: { width: number; height: number; bottom: number; top: number }): OpeningKind | undefined {
  if (height < 0.3 || height > 2.7) return undefined;
  if (bottom === 0) {
    if (height < 1.8 || height > 2.6 || width < 0.6) return undefined;
    return width > 1.15 ? 'french-door' : 'door';
  }
  // Window heads sit at about door height; a rectangle whose top is lower is a picture or furniture.
  if (bottom < 0.15 || top < 1.55 || width > 3.5) return undefined;
  return 'window';
}

/**
 * Judges the rectangle of grid columns c0…c1 and rows r0…r1 as an opening of `kind`: its frame's support, its
 * contrast with the wall around it and its score, or undefined when it is not one.
 */
function judgeFrame(
  grid: WallGrid,
  lines: WallLines,
  c0: number,
  c1: number,
  r0: number,
  r1: number,
  kind: OpeningKind,
): { support: number; contrast: number; score: number } | undefined {
  const { vertical, horizontal } = lines;
  const standing = kind !== 'window';
  const sides = [
    coverage(grid, vertical, c0, r0, c0, r1, true),
    coverage(grid, vertical, c1, r0, c1, r1, true),
    coverage(grid, horizontal, c0, r1, c1, r1, false),
  ];
  if (!standing) sides.push(coverage(grid, horizontal, c0, r0, c1, r0, false));
  const judged = sides.filter((v) => !Number.isNaN(v));
  // All sides but one may be cut off by the image border, never two.
  if (judged.length < sides.length - 1 || judged.length < 2) return undefined;
  const weakest = Math.min(...judged);
  if (weakest < 0.35) return undefined;
  const support = judged.reduce((a, b) => a + b, 0) / judged.length;
  const inside = meanIn(grid, c0 + 1, r0 + 1, c1 - 1, r1 - 1);
  if (inside.count < 4) return undefined;
  const band = Math.max(2, 0.15 * Math.min(c1 - c0, r1 - r0));
  const outer = meanIn(grid, c0 - band, r0 - (standing ? 0 : band), c1 + band, r1 + band);
  const around = outer.count > inside.count ? (outer.mean * outer.count - inside.mean * inside.count) / (outer.count - inside.count) : inside.mean;
  const contrast = (inside.mean - around) / 255;
  // A window shows the outside: usually brighter than the wall by day, at least different from it with a
  // well-supported frame (a same-coloured framed rectangle is a panel, a cabinet front). A door may be
  // either, but not the same as its wall.
  if (kind !== 'door' && !(contrast >= 0.03 || (Math.abs(contrast) >= 0.04 && support >= 0.75))) return undefined;
  if (kind === 'door' && Math.abs(contrast) < 0.02) return undefined;
  // Shelves and blinds: many lines across the inside; a bookcase's compartment: more shelves right above
  // and below it (a window has at most a sill and a curtain rail there).
  if (crossings(grid, horizontal, c0, c1, r0, r1) > (kind === 'window' ? 4 : 3)) return undefined;
  const span = r1 - r0;
  const above = crossings(grid, horizontal, c0, c1, r1 + 1, r1 + span, true);
  const below = crossings(grid, horizontal, c0, c1, r0 - span, r0 - 1, true);
  if (above >= 1 && below >= 1 && above + below >= 3) return undefined;
  const brightness = kind === 'door' ? Math.min(1, Math.abs(contrast) / 0.1) : Math.min(1, Math.max(0, contrast) / 0.12);
  const score = support * (0.75 + 0.25 * brightness) * (0.8 + 0.2 * weakest);
  return { support, contrast, score };
}

/**
 * Share of the cells along one side of a rectangle (with one cell of slack across it) that are set in `lines`;
 * cells off the wall are skipped, and a side mostly outside the photo (an opening cut by the image border) is not
 * judged: NaN. `alongColumns`: the side runs down column c0 from row r0 to r1; otherwise along row r0 from c0 to c1.
 */
function coverage(grid: WallGrid, lines: Uint8Array, c0: number, r0: number, c1: number, r1: number, alongColumns: boolean): number {
  const { columns, rows, valid } = grid;
  let hits = 0;
  let total = 0;
  if (alongColumns) {
    const c = Math.round(c0);
    for (let r = Math.max(0, Math.round(r0)); r <= Math.min(rows - 1, Math.round(r1)); r++) {
      let any = false;
      let visible = false;
      for (let dc = -1; dc <= 1; dc++) {
        const cc = c + dc;
        if (cc < 0 || cc >= columns) continue;
        visible ||= valid[r * columns + cc] === 1;
        any ||= lines[r * columns + cc] === 1;
      }
      if (!visible) continue;
      total++;
      if (any) hits++;
    }
  } else {
    const r = Math.round(r0);
    for (let c = Math.max(0, Math.round(c0)); c <= Math.min(columns - 1, Math.round(c1)); c++) {
      let any = false;
      let visible = false;
      for (let dr = -1; dr <= 1; dr++) {
        const rr = r + dr;
        if (rr < 0 || rr >= rows) continue;
        visible ||= valid[rr * columns + c] === 1;
        any ||= lines[rr * columns + c] === 1;
      }
      if (!visible) continue;
      total++;
      if (any) hits++;
    }
  }
  const cells = alongColumns ? Math.round(r1) - Math.round(r0) + 1 : Math.round(c1) - Math.round(c0) + 1;
  if (total < 0.3 * Math.max(1, cells)) return Number.NaN;
  return hits / total;
}

/** Mean luma of the valid cells in columns c0…c1 and rows r0…r1 (bounds rounded outward), and their count. */
function meanIn(grid: WallGrid, c0: number, r0: number, c1: number, r1: number): { mean: number; count: number } {
  const { columns, rows, valid, luma } = grid;
  let sum = 0;
  let count = 0;
  for (let r = Math.max(0, Math.floor(r0)); r < Math.min(rows, Math.ceil(r1)); r++) {
    for (let c = Math.max(0, Math.floor(c0)); c < Math.min(columns, Math.ceil(c1)); c++) {
      if (!valid[r * columns + c]) continue;
      sum += luma[r * columns + c]!;
      count++;
    }
  }
  return { mean: count ? sum / count : 0, count };
}

/**
 * How many horizontal lines cross columns c0…c1 between rows r0 and r1: rows where `lines` cover 40 % of those
 * columns (a shelf cut by an upright still counts), a run of such rows counted once. With `bounded`, only lines that
 * stop there (a shelf ends at the bookcase's sides; a skirting, a sofa or the ceiling line runs on).
 */
function crossings(grid: WallGrid, lines: Uint8Array, c0: number, c1: number, r0: number, r1: number, bounded = false): number {
  const { columns, rows } = grid;
  const share = (r: number, from: number, to: number) => {
    let hits = 0;
    let total = 0;
    for (let c = Math.max(0, Math.ceil(from)); c <= Math.min(columns - 1, Math.floor(to)); c++) {
      total++;
      if (lines[r * columns + c]) hits++;
    }
    return total > 0 ? hits / total : 0;
  };
  const margin = 0.25 * (c1 - c0);
  let count = 0;
  let previous = false;
  for (let r = Math.max(0, Math.ceil(r0) + 2); r <= Math.min(rows - 1, Math.floor(r1) - 2); r++) {
    let line = share(r, c0 + 1, c1 - 1) >= 0.4;
    if (line && bounded) line = share(r, c0 - margin, c0 - 2) < 0.5 && share(r, c1 + 2, c1 + margin) < 0.5;
    if (line && !previous) count++;
    previous = line;
  }
  return count;
}

/**
 * Greedy selection, at most 6: the best first; a candidate overlapping a kept one by more than a fifth of the
 * smaller's area is dropped (a window's panes inside its frame, a door's panels).
 */
function keepBest(candidates: Candidate[]): Candidate[] {
  candidates.sort((a, b) => b.score - a.score || (b.u1 - b.u0) * (b.v1 - b.v0) - (a.u1 - a.u0) * (a.v1 - a.v0));
  const kept: Candidate[] = [];
  for (const c of candidates) {
    const areaC = (c.u1 - c.u0) * (c.v1 - c.v0);
    const overlaps = kept.some((k) => {
      const iu = Math.max(0, Math.min(c.u1, k.u1) - Math.max(c.u0, k.u0));
      const iv = Math.max(0, Math.min(c.v1, k.v1) - Math.max(c.v0, k.v0));
      return iu * iv > 0.2 * Math.min(areaC, (k.u1 - k.u0) * (k.v1 - k.v0));
    });
    if (overlaps) continue;
    kept.push(c);
    if (kept.length >= 6) break;
  }
  return kept;
}

/**
 * A window split at a mullion or between sashes comes out as two rectangles sharing a side: joins them, unless the
 * whole would be too large for a window or has shelves across (a bookcase's compartments).
 */
function joinSplitWindows(kept: Candidate[], grid: WallGrid, lines: WallLines, metres: (relative: number) => number): Candidate[] {
  const { uMin, cell } = grid;
  const slack = 2.5 * cell;
  // Overlap over the shorter extent: a sash under a transom still belongs to its window.
  const overlap = (lo0: number, hi0: number, lo1: number, hi1: number) =>
    Math.max(0, Math.min(hi0, hi1) - Math.max(lo0, lo1)) / Math.max(1e-9, Math.min(hi0 - lo0, hi1 - lo1));
  for (let merged = true; merged; ) {
    merged = false;
    for (let i = 0; i < kept.length && !merged; i++) {
      for (let j = i + 1; j < kept.length && !merged; j++) {
        const a = kept[i]!;
        const b = kept[j]!;
        if (a.kind !== 'window' || b.kind !== 'window') continue;
        const sideBySide = (Math.abs(a.u1 - b.u0) < slack || Math.abs(b.u1 - a.u0) < slack) && overlap(a.v0, a.v1, b.v0, b.v1) > 0.8;
        const stacked = (Math.abs(a.v1 - b.v0) < slack || Math.abs(b.v1 - a.v0) < slack) && overlap(a.u0, a.u1, b.u0, b.u1) > 0.8;
        if (!sideBySide && !stacked) continue;
        const joined: Candidate = {
          u0: Math.min(a.u0, b.u0),
          u1: Math.max(a.u1, b.u1),
          v0: Math.min(a.v0, b.v0),
          v1: Math.max(a.v1, b.v1),
          support: (a.support + b.support) / 2,
          contrast: (a.contrast + b.contrast) / 2,
          score: Math.max(a.score, b.score),
          kind: 'window',
        };
        if (metres(joined.u1 - joined.u0) > 4 || metres(joined.v1 - joined.v0) > 2.4) continue;
        if (crossings(grid, lines.horizontal, (joined.u0 - uMin) / cell, (joined.u1 - uMin) / cell, joined.v0 / cell, joined.v1 / cell) > 4) continue;
        kept.splice(j, 1);
        kept[i] = joined;
        merged = true;
      }
    }
  }
  return kept;
}

function drawGrid(grid: Uint8Array, columns: number, rows: number, c0: number, r0: number, c1: number, r1: number): void {
  const steps = Math.ceil(Math.max(Math.abs(c1 - c0), Math.abs(r1 - r0))) + 1;
  for (let s = 0; s <= steps; s++) {
    const t = s / steps;
    const c = Math.round(c0 + t * (c1 - c0));
    const r = Math.round(r0 + t * (r1 - r0));
    if (c < 0 || r < 0 || c >= columns || r >= rows) continue;
    grid[r * columns + c] = 1;
  }
}

/** Sorted values merged where closer than `gap` (the mean of each run). */
function cluster(values: number[], gap: number): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const out: number[] = [];
  let run: number[] = [];
  for (const v of sorted) {
    if (run.length && v - run[run.length - 1]! > gap) {
      out.push(run.reduce((a, b) => a + b, 0) / run.length);
      run = [];
    }
    run.push(v);
  }
  if (run.length) out.push(run.reduce((a, b) => a + b, 0) / run.length);
  return out;
}
