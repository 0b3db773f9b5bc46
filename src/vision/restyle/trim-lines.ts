import type { PinholeCamera } from '../geometry/camera.js';
import { WALL_FRONT, WALL_LEFT, WALL_RIGHT, type RoomBox } from '../geometry/room-box.js';

/**
 * Skirting boards and cornices: bands along the foot and the top of a wall that are often painted like it (white on
 * white) and so cannot be told from it by colour, only by the line of shadow at their edge. On each wall a skirting's
 * top edge lies at one height above the floor, so it shows as a peak in the edge strength measured per height bin
 * across the wall; the same holds for a cornice's lower edge under the ceiling.
 */
export interface TrimLines {
  /**
   * Per wall face index: the height (metres above the layout's floor) of a skirting's top edge and of a cornice's
   * lower edge, or 0 where none was found (the junction itself is still left out).
   */
  skirting: Map<number, number>;
  cornice: Map<number, number>;
  /** 1 on the cells of the trim bands (and the junctions), which a repaint leaves alone. */
  mask: Uint8Array;
}

/** Search range of a skirting's top edge above the floor line, and of a cornice's lower edge below the ceiling line, metres. */
const SKIRTING_RANGE = [0.03, 0.3] as const;
const CORNICE_RANGE = [0.03, 0.3] as const;
/** Height bins of the edge profile, metres. */
const BIN = 0.01;
/** An edge is a trim's when its bin's mean edge strength is this many times the wall's typical bin. */
const EDGE_RATIO = 3;
/** Strip kept at the junction itself when no trim is found, and beyond a trim's edge (the edge's own shadow), metres. */
const JUNCTION = 0.025;
const EDGE_MARGIN = 0.015;
/** A peak is the strongest bin within this many bins either side. */
const PEAK_REACH = 2;
/** Share of the strongest peak a farther peak must reach to be the trim's edge. */
const PEAK_SHARE = 0.5;
/** Fewest cells a height bin must hold to count. */
const MIN_BIN_CELLS = 12;

const WALLS = [WALL_LEFT, WALL_FRONT, WALL_RIGHT];

/**
 * `camera` at the size of `shade` (log luminance per cell) and `labels` (face indices); `box` the layout's room in
 * the same units as the heights wanted (metres). `excluded` cells (windows, doors, furniture) do not count.
 */
export function findTrimLines(shade: Float32Array, labels: Uint8Array, excluded: Uint8Array, camera: PinholeCamera, box: RoomBox): TrimLines {
  const { width, height } = camera;
  const n = width * height;
  const heights = new Float32Array(n).fill(Number.NaN);
  const r = camera.rotation;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const face = labels[i]!;
      if (!WALLS.includes(face)) continue;
      const cx = (x + 0.5 - camera.cx) / camera.focal;
      const cy = (y + 0.5 - camera.cy) / camera.focal;
      const dx = r[0] * cx + r[3] * cy + r[6];
      const dy = r[1] * cx + r[4] * cy + r[7];
      const dz = r[2] * cx + r[5] * cy + r[8];
      const t = face === WALL_FRONT ? box.front / dy : face === WALL_LEFT ? box.left / dx : box.right / dx;
      if (t > 0 && Number.isFinite(t)) heights[i] = dz * t - box.floor;
    }
  }
  const roomHeight = box.ceiling - box.floor;
  const skirting = new Map<number, number>();
  const cornice = new Map<number, number>();
  const mask = new Uint8Array(n);
  for (const face of WALLS) {
    const profile = edgeProfile(shade, heights, labels, excluded, face, width, height, roomHeight);
    if (!profile) continue;
    const top = trimEdge(profile, SKIRTING_RANGE[0], SKIRTING_RANGE[1], 1);
    const drop = trimEdge(profile, roomHeight - CORNICE_RANGE[0], roomHeight - CORNICE_RANGE[1], -1);
    skirting.set(face, top === undefined ? 0 : round(top));
    cornice.set(face, drop === undefined ? 0 : round(roomHeight - drop));
    const below = top !== undefined ? top + EDGE_MARGIN : JUNCTION;
    const above = drop !== undefined ? drop - EDGE_MARGIN : roomHeight - JUNCTION;
    for (let i = 0; i < n; i++) {
      if (labels[i] !== face) continue;
      const z = heights[i]!;
      if (z < below || z > above) mask[i] = 1;
    }
  }
  return { skirting, cornice, mask };
}

interface EdgeProfile {
  mean: Float64Array;
  count: Float64Array;
  typical: number;
}

/**
 * The trim's edge between heights `from` and `to` (walked from the junction outward, `direction` 1 up from the floor,
 * -1 down from the ceiling): of the bins that are local peaks and EDGE_RATIO times the wall's typical strength, the one
 * farthest from the junction among those at least PEAK_SHARE of the strongest. The junction's own edge (the layout's
 * line a little off) and a socket or a picture's foot above a skirting are weaker, or nearer, than its top edge.
 */
function trimEdge(profile: EdgeProfile, from: number, to: number, direction: 1 | -1): number | undefined {
  const first = Math.round(from / BIN);
  const last = Math.round(to / BIN);
  const value = (b: number) => (b >= 0 && b < profile.mean.length && profile.count[b]! >= MIN_BIN_CELLS ? profile.mean[b]! : 0);
  const peaks: number[] = [];
  for (let b = first; direction * (last - b) >= 0; b += direction) {
    const v = value(b);
    if (v < EDGE_RATIO * profile.typical) continue;
    let peak = true;
    for (let k = 1; k <= PEAK_REACH && peak; k++) if (value(b - k) > v || value(b + k) > v) peak = false;
    if (peak) peaks.push(b);
  }
  if (peaks.length === 0) return undefined;
  const strongest = Math.max(...peaks.map(value));
  const chosen = peaks.filter((b) => value(b) >= PEAK_SHARE * strongest).at(-1)!;
  return chosen * BIN;
}

/**
 * Mean edge strength per height bin of one wall: the change of log luminance along the image direction in which
 * the height changes (across a line of constant height), and the median over the wall's middle bins as its typical
 * value. Undefined for a wall too small to tell.
 */
function edgeProfile(shade: Float32Array, heights: Float32Array, labels: Uint8Array, excluded: Uint8Array, face: number, width: number, height: number, roomHeight: number): EdgeProfile | undefined {
  const bins = Math.ceil(roomHeight / BIN) + 1;
  const sum = new Float64Array(bins);
  const count = new Float64Array(bins);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      if (labels[i] !== face || excluded[i]) continue;
      const z = heights[i]!;
      const zx = heights[i + 1]! - heights[i - 1]!;
      const zy = heights[i + width]! - heights[i - width]!;
      const norm = Math.hypot(zx, zy);
      if (!Number.isFinite(z) || !(norm > 0)) continue;
      const gx = shade[i + 1]! - shade[i - 1]!;
      const gy = shade[i + width]! - shade[i - width]!;
      const bin = Math.round(z / BIN);
      if (bin < 0 || bin >= bins) continue;
      sum[bin]! += Math.abs(gx * zx + gy * zy) / norm / 2;
      count[bin]! += 1;
    }
  }
  const mean = new Float64Array(bins);
  const middle: number[] = [];
  for (let b = 0; b < bins; b++) {
    if (count[b]! === 0) continue;
    mean[b] = sum[b]! / count[b]!;
    const z = b * BIN;
    if (count[b]! >= MIN_BIN_CELLS && z > 0.5 && z < roomHeight - 0.5) middle.push(mean[b]!);
  }
  if (middle.length < 10) return undefined;
  middle.sort((a, b) => a - b);
  return { mean, count, typical: Math.max(1e-3, middle[Math.floor(middle.length / 2)]!) };
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
