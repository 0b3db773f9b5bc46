import type { RawImage } from '../raw-image.js';
import { quantile } from '../robust-statistics.js';
import { regionGrid } from './region-grid.js';
import type { RegionMask } from './region-mask.js';
import { squaredDistanceToMask } from './mask-shapes.js';

/**
 * Measurements behind the automatic declutter's self-check (services/declutter/removal-gate.ts): how a filled hole
 * compares with the visible surface around it, on a grid of at most `CHECK_SIZE` cells a side so that the figures
 * mean the same on a 0.3 MP and a 12 MP photo.
 */

/** Longer side of the grid the checks run on (the fill's own working size). */
export const CHECK_SIZE = 1024;

/** The photo area-averaged to the check grid, in CIELAB (3 values per cell). */
export interface CheckGrid {
  width: number;
  height: number;
  /** Photo pixels per cell along each axis. */
  scaleX: number;
  scaleY: number;
  lab: Float32Array;
}

export function checkGrid(image: RawImage, size = CHECK_SIZE): CheckGrid {
  const grid = regionGrid(image, 0, 0, image.width, image.height, size);
  return { width: grid.width, height: grid.height, scaleX: grid.scaleX, scaleY: grid.scaleY, lab: grid.lab };
}

/** A hole on the check grid: the share of each cell in the hole (0–1), over a window of the grid around it. */
export interface HoleWindow {
  /** The window's first cell and size, in grid cells. */
  x: number;
  y: number;
  width: number;
  height: number;
  share: Float32Array;
}

/** Cells of margin a window keeps around a hole of this many cells: every band, ring and tile the checks read. */
export function windowMargin(holeCells: number): number {
  const radius = Math.sqrt(holeCells / Math.PI);
  return Math.ceil(Math.max(MAX_RING, 2.5 * radius) + 16);
}

/** The region's pixels pooled onto the grid, over the window of its cells grown by `margin` (clipped to the grid). */
export function poolWindow(region: RegionMask, imageWidth: number, imageHeight: number, grid: Pick<CheckGrid, 'width' | 'height'>, margin: number): HoleWindow {
  const cellX = (x: number) => Math.min(grid.width - 1, Math.floor((x * grid.width) / imageWidth));
  const cellY = (y: number) => Math.min(grid.height - 1, Math.floor((y * grid.height) / imageHeight));
  const x0 = Math.max(0, cellX(region.x) - margin);
  const y0 = Math.max(0, cellY(region.y) - margin);
  const x1 = Math.min(grid.width, cellX(Math.max(region.x, region.x + region.width - 1)) + 1 + margin);
  const y1 = Math.min(grid.height, cellY(Math.max(region.y, region.y + region.height - 1)) + 1 + margin);
  const width = Math.max(0, x1 - x0);
  const height = Math.max(0, y1 - y0);
  const share = new Float32Array(width * height);
  for (let y = 0; y < region.height; y++) {
    const row = (cellY(region.y + y) - y0) * width - x0;
    for (let x = 0; x < region.width; x++) if (region.data[y * region.width + x]) share[row + cellX(region.x + x)]! += 1;
  }
  // Divided by each cell's area in photo pixels.
  const columns = new Float32Array(grid.width);
  const rows = new Float32Array(grid.height);
  for (let x = 0; x < imageWidth; x++) columns[cellX(x)]! += 1;
  for (let y = 0; y < imageHeight; y++) rows[cellY(y)]! += 1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (share[i]! > 0) share[i] = share[i]! / (rows[y0 + y]! * columns[x0 + x]!);
    }
  }
  return { x: x0, y: y0, width, height, share };
}

/** Sets to 1 every cell of `cells` (a full grid) that a set pixel of the region falls in. */
export function markRegion(cells: Uint8Array, region: RegionMask, imageWidth: number, imageHeight: number, grid: Pick<CheckGrid, 'width' | 'height'>): void {
  for (let y = 0; y < region.height; y++) {
    const row = Math.min(grid.height - 1, Math.floor(((region.y + y) * grid.height) / imageHeight)) * grid.width;
    for (let x = 0; x < region.width; x++) {
      if (region.data[y * region.width + x]) cells[row + Math.min(grid.width - 1, Math.floor(((region.x + x) * grid.width) / imageWidth))] = 1;
    }
  }
}

/** The cells of a full-grid array (`stride` values per cell) inside the window. */
export function cropCells<T extends Uint8Array | Float32Array>(data: T, gridWidth: number, window: Omit<HoleWindow, 'share'>, stride = 1): T {
  const out = new (data.constructor as new (length: number) => T)(window.width * window.height * stride);
  for (let y = 0; y < window.height; y++) {
    const from = ((window.y + y) * gridWidth + window.x) * stride;
    out.set(data.subarray(from, from + window.width * stride), y * window.width * stride);
  }
  return out;
}

/** 1 on every grid cell that any set pixel of the full-image mask falls in. */
export function poolAny(mask: Uint8Array, imageWidth: number, imageHeight: number, grid: Pick<CheckGrid, 'width' | 'height'>): Uint8Array {
  const out = new Uint8Array(grid.width * grid.height);
  for (let y = 0; y < imageHeight; y++) {
    const row = Math.min(grid.height - 1, Math.floor((y * grid.height) / imageHeight)) * grid.width;
    const offset = y * imageWidth;
    for (let x = 0; x < imageWidth; x++) if (mask[offset + x]) out[row + Math.min(grid.width - 1, Math.floor((x * grid.width) / imageWidth))] = 1;
  }
  return out;
}

/** A hole's size on the check grid. */
export interface HoleShape {
  /** Cells at least half covered. */
  cells: number;
  /** Share of the photo. */
  share: number;
  /** Largest distance, in cells, from a hole cell to the nearest cell outside the hole: how far the fill must invent. */
  depth: number;
  /** Depth as a share of the grid's shorter side. */
  relativeDepth: number;
}

export function holeShape(hole: HoleWindow, grid: Pick<CheckGrid, 'width' | 'height'>): HoleShape {
  const { width, height, share: holeFraction } = hole;
  const outside = new Uint8Array(width * height);
  let cells = 0;
  for (let i = 0; i < outside.length; i++) {
    if (holeFraction[i]! >= 0.5) cells++;
    else outside[i] = 1;
  }
  if (cells === 0) return { cells: 0, share: 0, depth: 0, relativeDepth: 0 };
  const distance = squaredDistanceToMask(outside, width, height);
  let deepest = 0;
  for (let i = 0; i < distance.length; i++) if (!outside[i] && distance[i]! > deepest) deepest = distance[i]!;
  // Cells past the photo's edge are unknown too: a hole against the edge is as deep as it reaches inward.
  const depth = Math.sqrt(deepest);
  return { cells, share: cells / (grid.width * grid.height), depth, relativeDepth: depth / Math.min(grid.width, grid.height) };
}

/** How the fill on one surface compares with the visible ring of the same surface around the hole. */
export interface SurfaceConsistency {
  /** The surface's label (FACE_LABELS index), or -1 without a layout. */
  label: number;
  fillCells: number;
  ringCells: number;
  /**
   * Distance between the mean colours of fill and ring, each Lab channel divided by the ring's spread in it (at least
   * MIN_SPREAD), combined as a Euclidean length: 1 ≈ one standard deviation of the surface's own variation.
   */
  colourDistance: number;
  /** Mean colour difference in ΔE (CIE76), for the report. */
  deltaE: number;
  /** Mean gradient magnitude of L* in the fill over the ring's: < 1 smoother (a smear), > 1 busier (a collage). */
  textureRatio: number;
  /** The ring's mean gradient magnitude of L* (per cell): how textured the surface is. */
  ringTexture: number;
}

/** Colour steps across the hole's border, against the same measure on a parallel contour outside it. */
export interface SeamMeasure {
  /** Border samples measured. */
  samples: number;
  /** Mean ΔE step across the border. */
  border: number;
  /** Mean ΔE step across the control contours CONTROL_OFFSETS cells outside the hole (original pixels only). */
  control: number;
  /**
   * Share of the border's samples whose step exceeds max(SEAM_STEP_FLOOR, SEAM_STEP_FACTOR × the control's
   * 0.9-quantile): the high quantile lets a surface's own edges (a board joint that happens to lie on the border) pass.
   */
  share: number;
  /** Border positions that could be sampled (every other hole cell next to the outside); `samples` of them had both bands. */
  positions: number;
}

/**
 * The fill compared tile by tile with the ring cells of the same surface nearest to the tile: a hole across a rug's
 * edge continues rug on one side and boards on the other, which a single comparison with the whole ring would mix.
 */
export interface LocalConsistency {
  /** Fill cells of the tile (on one surface). */
  cells: number;
  /** As SurfaceConsistency's, against the ring cells in a window around the tile. */
  colourDistance: number;
  textureRatio: number;
  ringTexture: number;
}

export interface FillMeasure {
  /** Per surface the hole lies on (those with enough fill and ring cells). */
  surfaces: SurfaceConsistency[];
  /** Per tile of the hole and surface within it; fill cells with no ring nearby are left out (see unmatchedShare). */
  tiles: LocalConsistency[];
  /** Share of the hole's cells on surfaces that have no ring to compare with (surrounded by other objects). */
  unmatchedShare: number;
  /**
   * Share of the cells just outside the hole (TOUCH_BAND cells) whose colour is an outlier of the ring of their surface
   * (robust z beyond TOUCH_Z): what the hole's border runs into that is not the surface, such as the rest of a hose
   * whose end the mask took, or a neighbour nobody detected.
   */
  touchingShare: number;
  ringCells: number;
  seam: SeamMeasure;
}

export interface FillMeasureOptions {
  /** Ring width, in cells; default: the hole's equivalent radius, clamped to [6, MAX_RING]. */
  ring?: number;
  /** Least cells of fill and of ring for a surface to be compared. Default 12. */
  minCells?: number;
}

/** Widest ring, in cells. */
const MAX_RING = 48;
/** Least spreads of L*, a*, b* used to normalise colour distances: a flat wall's own spread is sensor noise. */
const MIN_SPREAD = [2.5, 1.5, 1.5] as const;
/** Width, in cells, of the bands on either side of a contour whose mean colours are compared. */
const SEAM_BAND = 3;
/** Half-size, in cells, of the window along the contour in which both bands are averaged. */
const SEAM_WINDOW = 4;
/**
 * Offsets, in cells, of the control contours outside the hole: several, so that a surface's periodic edges (board
 * joints) fall on them as often as on the border.
 */
const CONTROL_OFFSETS = [5, 7, 9, 11] as const;
/** A step at the border counts as a seam above this ΔE… */
export const SEAM_STEP_FLOOR = 3;
/** …and above this many times the control contour's 0.9-quantile step. */
export const SEAM_STEP_FACTOR = 2;

/**
 * Compares the filled hole with what surrounds it. `originalGrid` and `filledGrid` are the photo before and after, on
 * the same grid; `window` the hole (poolWindow, with windowMargin); `blockedGrid` cells (objects, openings) are neither
 * ring nor control; `labelsGrid` the surface of each cell (undefined: one surface). Full-grid arrays.
 */
export function measureFill(
  originalGrid: CheckGrid,
  filledGrid: CheckGrid,
  window: HoleWindow,
  blockedGrid: Uint8Array,
  labelsGrid: Uint8Array | undefined,
  options: FillMeasureOptions = {},
): FillMeasure {
  // Everything on the hole's window, which holds every band and ring read below (windowMargin).
  const { width, height, share: hole } = window;
  const crop = (grid: CheckGrid): CheckGrid => ({ ...grid, width, height, lab: cropCells(grid.lab, grid.width, window, 3) });
  const original = crop(originalGrid);
  const filled = crop(filledGrid);
  const blocked = cropCells(blockedGrid, originalGrid.width, window);
  const labels = labelsGrid ? cropCells(labelsGrid, originalGrid.width, window) : undefined;
  const n = width * height;
  const minCells = options.minCells ?? 12;
  // Fill: cells wholly in the hole; known: cells untouched by it and not blocked.
  const inHole = new Uint8Array(n);
  const notHole = new Uint8Array(n);
  let holeCells = 0;
  for (let i = 0; i < n; i++) {
    if (hole[i]! >= 0.5) {
      inHole[i] = 1;
      holeCells++;
    } else notHole[i] = 1;
  }
  const outsideDistance = squaredDistanceToMask(inHole, width, height);
  const insideDistance = squaredDistanceToMask(notHole, width, height);
  const ring = options.ring ?? Math.min(MAX_RING, Math.max(6, Math.sqrt(holeCells / Math.PI)));
  const fill = (i: number) => hole[i]! >= 0.999;
  const known = (i: number) => hole[i] === 0 && !blocked[i] && outsideDistance[i]! > 0;
  const inRing = (i: number) => known(i) && outsideDistance[i]! <= ring * ring;

  // Per-surface statistics.
  const labelOf = (i: number) => (labels ? labels[i]! : 0);
  const stats = new Map<number, { fill: Moments; ring: Moments }>();
  const statsOf = (label: number) => {
    let s = stats.get(label);
    if (!s) stats.set(label, (s = { fill: new Moments(), ring: new Moments() }));
    return s;
  };
  let ringCells = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const isFill = fill(i);
      const isRing = !isFill && inRing(i);
      if (!isFill && !isRing) continue;
      const lab = isFill ? filled.lab : original.lab;
      const same = isFill ? fill : inRing;
      // Forward differences, only where the neighbours belong to the same set.
      let gradient = Number.NaN;
      if (x + 1 < width && y + 1 < height && same(i + 1) && same(i + width)) {
        gradient = Math.hypot(lab[3 * (i + 1)]! - lab[3 * i]!, lab[3 * (i + width)]! - lab[3 * i]!);
      }
      const s = statsOf(labelOf(i));
      (isFill ? s.fill : s.ring).add(lab[3 * i]!, lab[3 * i + 1]!, lab[3 * i + 2]!, gradient);
      if (isRing) ringCells++;
    }
  }
  const surfaces: SurfaceConsistency[] = [];
  let unmatched = 0;
  let fillTotal = 0;
  for (const [label, { fill: f, ring: r }] of stats) {
    if (f.count === 0) continue;
    fillTotal += f.count;
    if (f.count < minCells) continue;
    if (r.count < minCells) {
      unmatched += f.count;
      continue;
    }
    let squared = 0;
    let deltaE = 0;
    for (let c = 0; c < 3; c++) {
      const difference = f.mean(c) - r.mean(c);
      squared += (difference / Math.max(MIN_SPREAD[c]!, r.spread(c))) ** 2;
      deltaE += difference * difference;
    }
    surfaces.push({
      label: labels ? label : -1,
      fillCells: f.count,
      ringCells: r.count,
      colourDistance: Math.sqrt(squared),
      deltaE: Math.sqrt(deltaE),
      textureRatio: (f.gradientMean() + 0.5) / (r.gradientMean() + 0.5),
      ringTexture: r.gradientMean(),
    });
  }
  surfaces.sort((a, b) => b.fillCells - a.fillCells);
  const touchingShare = outliersAlongBorder(original, outsideDistance, known, inRing, labels);
  const tiles = localConsistency(original, filled, hole, fill, inRing, labels, Math.sqrt(holeCells / Math.PI));

  // Seam: steps across the hole's border (fill inside, the result outside) and across a contour further out.
  const border: number[] = [];
  const control: number[] = [];
  let positions = 0;
  const band = SEAM_BAND * SEAM_BAND;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      // Border samples: hole cells next to a cell outside it, every other one.
      if (inHole[i] && insideDistance[i]! <= 1 && (x + y) % 2 === 0) {
        positions++;
        const step = bandStep(filled.lab, width, height, x, y, (k) => inHole[k] === 1 && insideDistance[k]! <= band, (k) => known(k) && outsideDistance[k]! <= band);
        if (step !== undefined) border.push(step);
      }
      const d = outsideDistance[i]!;
      if (!known(i) || (x + y) % 2 !== 0) continue;
      for (const offset of CONTROL_OFFSETS) {
        if (!(d > (offset - 1) ** 2 && d <= offset ** 2)) continue;
        const low = (offset - SEAM_BAND) ** 2;
        const high = (offset + SEAM_BAND) ** 2;
        const step = bandStep(
          original.lab,
          width,
          height,
          x,
          y,
          (k) => known(k) && outsideDistance[k]! > low && outsideDistance[k]! <= offset ** 2,
          (k) => known(k) && outsideDistance[k]! > offset ** 2 && outsideDistance[k]! <= high,
        );
        if (step !== undefined) control.push(step);
      }
    }
  }
  const mean = (values: number[]) => (values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : 0);
  const limit = Math.max(SEAM_STEP_FLOOR, SEAM_STEP_FACTOR * (control.length > 0 ? quantile(Float32Array.from(control), 0.9) : 0));
  const seam: SeamMeasure = {
    samples: border.length,
    border: mean(border),
    control: mean(control),
    share: border.length > 0 ? border.filter((s) => s > limit).length / border.length : 0,
    positions,
  };
  return { surfaces, tiles, unmatchedShare: fillTotal > 0 ? unmatched / fillTotal : 1, touchingShare, ringCells, seam };
}

/** Width, in cells, of the band just outside the hole whose outliers count as touching (see touchingShare). */
const TOUCH_BAND = 2;
/** Robust z (per Lab channel over 1.4826 × MAD, at least MIN_SPREAD) beyond which a cell is not its surface. */
const TOUCH_Z = 3;

function outliersAlongBorder(
  original: CheckGrid,
  outsideDistance: Float32Array,
  known: (i: number) => boolean,
  inRing: (i: number) => boolean,
  labels: Uint8Array | undefined,
): number {
  const samples = new Map<number, [number[], number[], number[]]>();
  for (let i = 0; i < outsideDistance.length; i++) {
    if (!inRing(i)) continue;
    const label = labels ? labels[i]! : 0;
    let s = samples.get(label);
    if (!s) samples.set(label, (s = [[], [], []]));
    for (let c = 0; c < 3; c++) s[c]!.push(original.lab[3 * i + c]!);
  }
  const robust = new Map<number, { centre: number[]; spread: number[] }>();
  for (const [label, channels] of samples) {
    if (channels[0]!.length < 12) continue;
    const centre = channels.map((values) => quantile(Float32Array.from(values), 0.5));
    const spread = channels.map((values, c) => Math.max(MIN_SPREAD[c]!, 1.4826 * quantile(Float32Array.from(values, (v) => Math.abs(v - centre[c]!)), 0.5)));
    robust.set(label, { centre, spread });
  }
  let band = 0;
  let outliers = 0;
  for (let i = 0; i < outsideDistance.length; i++) {
    if (!known(i) || outsideDistance[i]! > TOUCH_BAND * TOUCH_BAND) continue;
    const model = robust.get(labels ? labels[i]! : 0);
    if (!model) continue;
    band++;
    let squared = 0;
    for (let c = 0; c < 3; c++) squared += ((original.lab[3 * i + c]! - model.centre[c]!) / model.spread[c]!) ** 2;
    if (squared > TOUCH_Z * TOUCH_Z) outliers++;
  }
  return band > 0 ? outliers / band : 0;
}

/** Tiles of about half the hole's equivalent radius (at least TILE_MIN cells a side). */
const TILE_MIN = 6;
/** A tile's fill is compared with the ring cells within this many tile sizes of it, widened step by step until enough. */
const TILE_REACH = [1, 2, 4] as const;

function localConsistency(
  original: CheckGrid,
  filled: CheckGrid,
  hole: Float32Array,
  fill: (i: number) => boolean,
  inRing: (i: number) => boolean,
  labels: Uint8Array | undefined,
  radius: number,
): LocalConsistency[] {
  const { width, height } = original;
  const size = Math.max(TILE_MIN, Math.round(radius / 2));
  let x0 = width, y0 = height, x1 = -1, y1 = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (hole[y * width + x]! < 0.999) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  if (x1 < 0) return [];
  const gradientAt = (lab: Float32Array, same: (i: number) => boolean, x: number, y: number): number => {
    const i = y * width + x;
    if (x + 1 >= width || y + 1 >= height || !same(i + 1) || !same(i + width)) return Number.NaN;
    return Math.hypot(lab[3 * (i + 1)]! - lab[3 * i]!, lab[3 * (i + width)]! - lab[3 * i]!);
  };
  const tiles: LocalConsistency[] = [];
  for (let ty = y0; ty <= y1; ty += size) {
    for (let tx = x0; tx <= x1; tx += size) {
      const byLabel = new Map<number, Moments>();
      for (let y = ty; y < Math.min(height, ty + size); y++) {
        for (let x = tx; x < Math.min(width, tx + size); x++) {
          const i = y * width + x;
          if (!fill(i)) continue;
          const label = labels ? labels[i]! : 0;
          let m = byLabel.get(label);
          if (!m) byLabel.set(label, (m = new Moments()));
          m.add(filled.lab[3 * i]!, filled.lab[3 * i + 1]!, filled.lab[3 * i + 2]!, gradientAt(filled.lab, fill, x, y));
        }
      }
      for (const [label, f] of byLabel) {
        if (f.count < Math.max(4, (size * size) / 8)) continue;
        for (const reach of TILE_REACH) {
          const r = new Moments();
          const margin = reach * size;
          for (let y = Math.max(0, ty - margin); y < Math.min(height, ty + size + margin); y++) {
            for (let x = Math.max(0, tx - margin); x < Math.min(width, tx + size + margin); x++) {
              const i = y * width + x;
              if (!inRing(i) || (labels && labels[i] !== label)) continue;
              r.add(original.lab[3 * i]!, original.lab[3 * i + 1]!, original.lab[3 * i + 2]!, gradientAt(original.lab, inRing, x, y));
            }
          }
          if (r.count < Math.max(8, f.count / 2)) continue;
          let squared = 0;
          for (let c = 0; c < 3; c++) squared += ((f.mean(c) - r.mean(c)) / Math.max(MIN_SPREAD[c]!, r.spread(c))) ** 2;
          tiles.push({
            cells: f.count,
            colourDistance: Math.sqrt(squared),
            textureRatio: (f.gradientMean() + 0.5) / (r.gradientMean() + 0.5),
            ringTexture: r.gradientMean(),
          });
          break;
        }
      }
    }
  }
  return tiles;
}

/** ΔE between the mean colours of the `inside` and `outside` cells in a window around (x, y); undefined if either is thin. */
function bandStep(
  lab: Float32Array,
  width: number,
  height: number,
  x: number,
  y: number,
  inside: (i: number) => boolean,
  outside: (i: number) => boolean,
): number | undefined {
  const a = [0, 0, 0, 0];
  const b = [0, 0, 0, 0];
  for (let yy = Math.max(0, y - SEAM_WINDOW); yy <= Math.min(height - 1, y + SEAM_WINDOW); yy++) {
    for (let xx = Math.max(0, x - SEAM_WINDOW); xx <= Math.min(width - 1, x + SEAM_WINDOW); xx++) {
      const k = yy * width + xx;
      const target = inside(k) ? a : outside(k) ? b : undefined;
      if (!target) continue;
      target[0]! += lab[3 * k]!;
      target[1]! += lab[3 * k + 1]!;
      target[2]! += lab[3 * k + 2]!;
      target[3]! += 1;
    }
  }
  if (a[3]! < 4 || b[3]! < 4) return undefined;
  return Math.hypot(a[0]! / a[3]! - b[0]! / b[3]!, a[1]! / a[3]! - b[1]! / b[3]!, a[2]! / a[3]! - b[2]! / b[3]!);
}

/** Running mean and spread of Lab, and the mean of the gradients given. */
class Moments {
  count = 0;
  private readonly sum = [0, 0, 0];
  private readonly squares = [0, 0, 0];
  private gradients = 0;
  private gradientCount = 0;

  add(l: number, a: number, b: number, gradient: number): void {
    this.count++;
    this.sum[0]! += l;
    this.sum[1]! += a;
    this.sum[2]! += b;
    this.squares[0]! += l * l;
    this.squares[1]! += a * a;
    this.squares[2]! += b * b;
    if (!Number.isNaN(gradient)) {
      this.gradients += gradient;
      this.gradientCount++;
    }
  }

  mean(channel: number): number {
    return this.sum[channel]! / this.count;
  }

  spread(channel: number): number {
    const mean = this.mean(channel);
    return Math.sqrt(Math.max(0, this.squares[channel]! / this.count - mean * mean));
  }

  gradientMean(): number {
    return this.gradientCount > 0 ? this.gradients / this.gradientCount : 0;
  }
}
