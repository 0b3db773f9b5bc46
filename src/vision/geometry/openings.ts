import { sampleBilinear } from '../colour-planes.js';
import { greyPlane } from './resample.js';
import { cameraToWorld, worldToCamera, type PinholeCamera } from './camera.js';
import { faceOfRay, FACE_LABELS, WALL_FRONT, WALL_LEFT, WALL_RIGHT, type FaceIndex, type FaceLabel, type RoomBox } from './room-box.js';
import { segmentLength, type LineSegment } from './segments.js';
import { segmentTolerance, vanishingErrors } from './vanishing-points.js';
import type { Vec3 } from './vec3.js';
import type { RawImage } from '../raw-image.js';

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
  const walls: Wall[] = [
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
  const wallHeight = box.ceiling - box.floor;
  const found: Opening[] = [];
  for (const wall of walls) {
    found.push(...openingsOnWall(wall, image.width, image.height, luma, camera, box, segments, assignment, wallHeight, assumed));
  }
  found.sort((a, b) => b.score - a.score);
  return found.filter((o) => o.score >= minScore).slice(0, options.maxOpenings ?? 12);
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

function openingsOnWall(
  wall: Wall,
  width: number,
  height: number,
  luma: Float32Array,
  camera: PinholeCamera,
  box: RoomBox,
  segments: readonly LineSegment[],
  assignment: Int8Array,
  wallHeight: number,
  assumed: number,
): Opening[] {
  const rayAt = (x: number, y: number) => cameraToWorld(camera, [(x - camera.cx) / camera.focal, (y - camera.cy) / camera.focal, 1]);
  // The wall's visible extent in its own coordinates, from a coarse scan of the image.
  let uMin = Infinity;
  let uMax = -Infinity;
  let seen = 0;
  const scan = 48;
  for (let j = 0; j <= scan; j++) {
    for (let i = 0; i <= scan; i++) {
      const d = rayAt((i / scan) * width, (j / scan) * height);
      if (faceOfRay(box, d) !== wall.face) continue;
      const c = wall.coordinates(d);
      if (!c) continue;
      seen++;
      uMin = Math.min(uMin, c[0]);
      uMax = Math.max(uMax, c[0]);
    }
  }
  if (seen < 12 || !(uMax > uMin)) return [];
  // Cells of about 2 % of the camera height, at most 320 × 160 of them.
  const cell = Math.max(0.02, (uMax - uMin) / 320, wallHeight / 160);
  const columns = Math.max(1, Math.ceil((uMax - uMin) / cell));
  const rows = Math.max(1, Math.ceil(wallHeight / cell));
  const toImage = (u: number, v: number): [number, number] | undefined => {
    const p = worldToCamera(camera, wall.point(u, v));
    if (p[2] <= 1e-6) return undefined;
    return [camera.cx + (camera.focal * p[0]) / p[2], camera.cy + (camera.focal * p[1]) / p[2]];
  };
  // Rectified luma and validity.
  const valid = new Uint8Array(columns * rows);
  const rectified = new Float32Array(columns * rows);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const u = uMin + (c + 0.5) * cell;
      const v = (r + 0.5) * cell;
      const q = toImage(u, v);
      if (!q || q[0] < 0 || q[1] < 0 || q[0] >= width || q[1] >= height) continue;
      if (faceOfRay(box, rayAt(q[0], q[1])) !== wall.face) continue;
      valid[r * columns + c] = 1;
      rectified[r * columns + c] = sampleBilinear(luma, width, height, q[0], q[1]);
    }
  }
  // Segments on this wall, mapped into it: verticals (Z) and the wall's horizontals.
  const vertical = new Uint8Array(columns * rows);
  const horizontal = new Uint8Array(columns * rows);
  const uCandidates: { u: number; v0: number; v1: number; weight: number }[] = [];
  const vCandidates: { v: number; u0: number; u1: number; weight: number }[] = [];
  segments.forEach((s, i) => {
    const k = assignment[i]!;
    if (k !== 2 && k !== wall.horizontal) return;
    const length = segmentLength(s);
    const errors = vanishingErrors(s, camera);
    if (errors.filter((e) => e < 1.5 * segmentTolerance(length)).length > 1) return;
    const midRay = rayAt((s.x0 + s.x1) / 2, (s.y0 + s.y1) / 2);
    if (faceOfRay(box, midRay) !== wall.face) return;
    const a = wall.coordinates(rayAt(s.x0, s.y0));
    const b = wall.coordinates(rayAt(s.x1, s.y1));
    if (!a || !b) return;
    const ca = [(a[0] - uMin) / cell, a[1] / cell];
    const cb = [(b[0] - uMin) / cell, b[1] / cell];
    if (k === 2) {
      const u = (a[0] + b[0]) / 2;
      drawGrid(vertical, columns, rows, (ca[0]! + cb[0]!) / 2, ca[1]!, (ca[0]! + cb[0]!) / 2, cb[1]!);
      uCandidates.push({ u, v0: Math.min(a[1], b[1]), v1: Math.max(a[1], b[1]), weight: length });
    } else {
      const v = (a[1] + b[1]) / 2;
      drawGrid(horizontal, columns, rows, ca[0]!, (ca[1]! + cb[1]!) / 2, cb[0]!, (ca[1]! + cb[1]!) / 2);
      vCandidates.push({ v, u0: Math.min(a[0], b[0]), u1: Math.max(a[0], b[0]), weight: length });
    }
  });

  const us = cluster(uCandidates.map((c) => c.u), 1.5 * cell).filter((u) => u > uMin && u < uMax);
  const vs = cluster(vCandidates.map((c) => c.v), 1.5 * cell).filter((v) => v > 0.03 && v < wallHeight - 0.02);
  if (us.length < 2) return [];
  const lines = (values: number[], count: number) => values.slice(0, count);
  // Where the photo's border cuts the wall, at mid-height: the side of an opening that runs off the image.
  const middle = Math.min(rows - 1, Math.round(rows * 0.55));
  let firstValid = -1;
  let lastValid = -1;
  for (let c = 0; c < columns; c++) {
    if (!valid[middle * columns + c]) continue;
    if (firstValid < 0) firstValid = c;
    lastValid = c;
  }
  if (firstValid > 0 || (firstValid === 0 && uMin > -Infinity)) us.push(uMin + (firstValid + 0.5) * cell);
  if (lastValid >= 0) us.push(uMin + (lastValid + 0.5) * cell);
  const uList = lines(cluster(us, 1.5 * cell).sort((a, b) => a - b), 42);
  const vList = [0, ...lines(vs.sort((a, b) => a - b), 40)];

  const coverage = (grid: Uint8Array, c0: number, r0: number, c1: number, r1: number, alongColumns: boolean): number => {
    // Share of cells along a side (with one cell of slack across it) set in the grid; invalid cells are skipped.
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
          any ||= grid[r * columns + cc] === 1;
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
          any ||= grid[rr * columns + c] === 1;
        }
        if (!visible) continue;
        total++;
        if (any) hits++;
      }
    }
    // A side mostly outside the photo (an opening cut by the image border) is not judged: NaN.
    const cells = alongColumns ? Math.round(r1) - Math.round(r0) + 1 : Math.round(c1) - Math.round(c0) + 1;
    if (total < 0.3 * Math.max(1, cells)) return Number.NaN;
    return hits / total;
  };
  const meanIn = (c0: number, r0: number, c1: number, r1: number): { mean: number; count: number } => {
    let sum = 0;
    let count = 0;
    for (let r = Math.max(0, Math.floor(r0)); r < Math.min(rows, Math.ceil(r1)); r++) {
      for (let c = Math.max(0, Math.floor(c0)); c < Math.min(columns, Math.ceil(c1)); c++) {
        if (!valid[r * columns + c]) continue;
        sum += rectified[r * columns + c]!;
        count++;
      }
    }
    return { mean: count ? sum / count : 0, count };
  };

  // Rows between r0 and r1 where horizontal lines cover 40 % of the columns c0…c1 (a shelf cut by an upright still
  // counts); with `bounded`, only lines
  // that stop there (a shelf ends at the bookcase's sides; a skirting, a sofa or the ceiling line runs on).
  const crossings = (grid: Uint8Array, c0: number, c1: number, r0: number, r1: number, bounded = false): number => {
    const share = (r: number, from: number, to: number) => {
      let hits = 0;
      let total = 0;
      for (let c = Math.max(0, Math.ceil(from)); c <= Math.min(columns - 1, Math.floor(to)); c++) {
        total++;
        if (grid[r * columns + c]) hits++;
      }
      return total > 0 ? hits / total : 0;
    };
    const margin = 0.25 * (c1 - c0);
    let lines = 0;
    let previous = false;
    for (let r = Math.max(0, Math.ceil(r0) + 2); r <= Math.min(rows - 1, Math.floor(r1) - 2); r++) {
      let line = share(r, c0 + 1, c1 - 1) >= 0.4;
      if (line && bounded) line = share(r, c0 - margin, c0 - 2) < 0.5 && share(r, c1 + 2, c1 + margin) < 0.5;
      if (line && !previous) lines++;
      previous = line;
    }
    return lines;
  };
  const metres = (relative: number) => relative * assumed;
  const candidates: Candidate[] = [];
  for (let i = 0; i < uList.length; i++) {
    for (let j = i + 1; j < uList.length; j++) {
      const u0 = uList[i]!;
      const u1 = uList[j]!;
      const w = metres(u1 - u0);
      if (w < 0.3 || w > 4) continue;
      for (let p = 0; p < vList.length; p++) {
        for (let q = p + 1; q < vList.length; q++) {
          const v0 = vList[p]!;
          const v1 = vList[q]!;
          const h = metres(v1 - v0);
          if (h < 0.3 || h > 2.7) continue;
          const standing = v0 === 0;
          let kind: OpeningKind;
          if (standing) {
            if (h < 1.8 || h > 2.6 || w < 0.6) continue;
            kind = w > 1.15 ? 'french-door' : 'door';
          } else {
            // Window heads sit at about door height; a rectangle whose top is lower is a picture or furniture.
            if (metres(v0) < 0.15 || metres(v1) < 1.55 || w > 3.5) continue;
            kind = 'window';
          }
          const c0 = (u0 - uMin) / cell;
          const c1 = (u1 - uMin) / cell;
          const r0 = v0 / cell;
          const r1 = v1 / cell;
          const sides = [
            coverage(vertical, c0, r0, c0, r1, true),
            coverage(vertical, c1, r0, c1, r1, true),
            coverage(horizontal, c0, r1, c1, r1, false),
          ];
          if (!standing) sides.push(coverage(horizontal, c0, r0, c1, r0, false));
          const judged = sides.filter((v) => !Number.isNaN(v));
          // All sides but one may be cut off by the image border, never two.
          if (judged.length < sides.length - 1 || judged.length < 2) continue;
          sides.splice(0, sides.length, ...judged);
          const weakest = Math.min(...sides);
          if (weakest < 0.35) continue;
          const support = sides.reduce((a, b) => a + b, 0) / sides.length;
          const inside = meanIn(c0 + 1, r0 + 1, c1 - 1, r1 - 1);
          if (inside.count < 4) continue;
          const band = Math.max(2, 0.15 * Math.min(c1 - c0, r1 - r0));
          const outer = meanIn(c0 - band, r0 - (standing ? 0 : band), c1 + band, r1 + band);
          const around = outer.count > inside.count ? (outer.mean * outer.count - inside.mean * inside.count) / (outer.count - inside.count) : inside.mean;
          const contrast = (inside.mean - around) / 255;
          // A window shows the outside: usually brighter than the wall by day, at least different from it with a
          // well-supported frame (a same-coloured framed rectangle is a panel, a cabinet front). A door may be
          // either, but not the same as its wall.
          if (kind !== 'door' && !(contrast >= 0.03 || (Math.abs(contrast) >= 0.04 && support >= 0.75))) continue;
          if (kind === 'door' && Math.abs(contrast) < 0.02) continue;
          // Shelves and blinds: many lines across the inside; a bookcase's compartment: more shelves right above
          // and below it (a window has at most a sill and a curtain rail there).
          if (crossings(horizontal, c0, c1, r0, r1) > (kind === 'window' ? 4 : 3)) continue;
          const span = r1 - r0;
          const above = crossings(horizontal, c0, c1, r1 + 1, r1 + span, true);
          const below = crossings(horizontal, c0, c1, r0 - span, r0 - 1, true);
          if (above >= 1 && below >= 1 && above + below >= 3) continue;
          const brightness = kind === 'door' ? Math.min(1, Math.abs(contrast) / 0.1) : Math.min(1, Math.max(0, contrast) / 0.12);
          const score = support * (0.75 + 0.25 * brightness) * (0.8 + 0.2 * weakest);
          candidates.push({ u0, u1, v0, v1, support, contrast, score, kind });
        }
      }
    }
  }
  // Greedy selection: the best first; a candidate overlapping a kept one by more than a fifth of its area is dropped
  // (a window's panes inside its frame, a door's panels).
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
  // A window split at a mullion or between sashes comes out as two rectangles sharing a side: join them.
  const slack = 2.5 * cell;
  for (let merged = true; merged; ) {
    merged = false;
    for (let i = 0; i < kept.length && !merged; i++) {
      for (let j = i + 1; j < kept.length && !merged; j++) {
        const a = kept[i]!;
        const b = kept[j]!;
        if (a.kind !== 'window' || b.kind !== 'window') continue;
        // Overlap over the shorter extent: a sash under a transom still belongs to its window.
        const overlap = (lo0: number, hi0: number, lo1: number, hi1: number) =>
          Math.max(0, Math.min(hi0, hi1) - Math.max(lo0, lo1)) / Math.max(1e-9, Math.min(hi0 - lo0, hi1 - lo1));
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
        // Compartments of a bookcase also sit side by side and on top of each other: not with shelves across.
        const jc0 = (joined.u0 - uMin) / cell;
        const jc1 = (joined.u1 - uMin) / cell;
        if (crossings(horizontal, jc0, jc1, joined.v0 / cell, joined.v1 / cell) > 4) continue;
        kept.splice(j, 1);
        kept[i] = joined;
        merged = true;
      }
    }
  }
  const out: Opening[] = [];
  for (const c of kept) {
    const corners = [toImage(c.u0, c.v0), toImage(c.u1, c.v0), toImage(c.u1, c.v1), toImage(c.u0, c.v1)];
    if (corners.some((p) => p === undefined)) continue;
    out.push({
      kind: c.kind,
      wall: FACE_LABELS[wall.face],
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
