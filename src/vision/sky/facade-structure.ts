import type { ColourPlanes } from '../colour-planes.js';
import { lumaOf } from '../colour-planes.js';
import { connectedComponents } from '../connected-components.js';

/**
 * What tells a facade from a bare crown at the working resolution, whatever their colours: a crown's texture is thin,
 * branching, irregular lines in every direction, with sky in small irregular pockets between them; a facade's is
 * straight edges along rows and columns (window frames, sills, siding, trims), and what lies between them is panels
 * framed by straight sides. Colour cannot tell them apart: a wall may be the sky's own white.
 */
export interface FacadeStructure {
  /**
   * Share of the frame covered by rectilinear cells of the region: cells (see CELL_FRACTION) whose edges run along
   * rows and columns both (LATTICE_*: a window's frame, the corner of a trim) or along several parallel straight lines
   * (RULED_LINES: siding, shutters, a grille).
   */
  rectilinearCells: number;
  /**
   * The straightest panel of the region: the largest share of straight sides (see straightSideShare) over the
   * region's pieces and the smooth pieces inside it (texture under the given one), each of at least
   * PANEL_MIN_SHARE of the frame.
   */
  straightestPanel: number;
}

/**
 * Sobel magnitude of luma (a unit step gives 1) from which a pixel is an edge pixel: 99 % of the open sky of
 * grey_bare_tree_branches_07 and outdoor_grey_sky_branches_06 stays under 0.036; their crowns measure 0.08 and 0.05
 * at the median.
 */
const EDGE_MAGNITUDE = 0.05;
/**
 * An edge pixel runs along a row (or a column) when its gradient is within this many degrees of the vertical (or the
 * horizontal).
 */
const AXIS_TOLERANCE_DEG = 8;
/**
 * Side of a cell, as a fraction of the working copy's longer side: 24 pixels at 640, about a window with its frame.
 * Cells are laid out every half side, overlapping.
 */
const CELL_FRACTION = 24 / 640;
/** Edge pixels a cell needs to be judged at all, as a share of its pixels: 30 in a 24-pixel cell. */
const CELL_MIN_EDGES = 30 / 576;
/**
 * A lattice cell: at least LATTICE_AXIS_SHARE of its edge weight runs along rows and columns, with at least
 * LATTICE_EACH_SHARE along each. Edges in every direction give 2 × 17/180 ≈ 0.19 along the two axes; a straight
 * limb or a wire runs along one only.
 */
const LATTICE_AXIS_SHARE = 0.6;
const LATTICE_EACH_SHARE = 0.15;
/**
 * A ruled cell: at least this many of its rows (or columns) hold row (column) edge pixels along half the cell or more:
 * three parallel thin lines, each seen by the Sobel kernel in the row above and the row below it. A wire gives 2 such
 * rows, a limb or a parapet band (two steps, each seen in two rows) 4.
 */
const RULED_LINES = 6;
/** Smallest piece whose sides are measured, as a share of the frame: 0.3 % (about 30 × 30 working pixels). */
const PANEL_MIN_SHARE = 0.003;
/** Shortest straight run of sides, as a fraction of the longer side: 12 pixels at 640. */
const STRAIGHT_RUN_FRACTION = 12 / 640;

/** The facade structure (see FacadeStructure) of `region` (1 inside), a region of the working copy `planes`. */
export function facadeStructure(
  planes: ColourPlanes,
  region: Uint8Array,
  texture: Float32Array,
  smoothTexture: number,
): FacadeStructure {
  const { width, height } = planes;
  const smooth = new Uint8Array(region.length);
  for (let i = 0; i < region.length; i++) smooth[i] = region[i] && texture[i]! < smoothTexture ? 1 : 0;
  const longSide = Math.max(width, height);
  const run = Math.max(4, Math.round(STRAIGHT_RUN_FRACTION * longSide));
  const minPixels = PANEL_MIN_SHARE * width * height;
  let straightestPanel = 0;
  for (const mask of [region, smooth]) {
    for (const { pixels } of connectedComponents(mask, width, height)) {
      if (pixels.length >= minPixels) straightestPanel = Math.max(straightestPanel, straightSideShare(pixels, width, height, run));
    }
  }
  return { rectilinearCells: rectilinearCellShare(planes, region), straightestPanel };
}

/**
 * Share of the frame covered by the rectilinear cells of `region` (each cell counts for its stride², so overlapping
 * cells count once).
 */
function rectilinearCellShare(planes: ColourPlanes, region: Uint8Array): number {
  const { width, height } = planes;
  const { magnitude, orientation } = lumaGradient(planes);
  const cell = Math.max(8, Math.round(CELL_FRACTION * Math.max(width, height)));
  const stride = Math.max(1, Math.round(cell / 2));
  const minEdges = Math.round(CELL_MIN_EDGES * cell * cell);
  const rowCounts = new Int32Array(cell);
  const columnCounts = new Int32Array(cell);
  let cells = 0;
  for (let y0 = 0; y0 < height; y0 += stride) {
    for (let x0 = 0; x0 < width; x0 += stride) {
      rowCounts.fill(0);
      columnCounts.fill(0);
      let edges = 0;
      let total = 0;
      let alongRows = 0;
      let alongColumns = 0;
      for (let y = y0; y < Math.min(height, y0 + cell); y++) {
        for (let x = x0; x < Math.min(width, x0 + cell); x++) {
          const i = y * width + x;
          const weight = magnitude[i]!;
          if (!region[i] || weight < EDGE_MAGNITUDE) continue;
          edges++;
          total += weight;
          const angle = orientation[i]!;
          if (Math.abs(angle - 90) <= AXIS_TOLERANCE_DEG) {
            alongRows += weight;
            rowCounts[y - y0]!++;
          } else if (angle <= AXIS_TOLERANCE_DEG || angle >= 180 - AXIS_TOLERANCE_DEG) {
            alongColumns += weight;
            columnCounts[x - x0]!++;
          }
        }
      }
      if (edges < minEdges) continue;
      const lattice =
        alongRows + alongColumns >= LATTICE_AXIS_SHARE * total && Math.min(alongRows, alongColumns) >= LATTICE_EACH_SHARE * total;
      const lines = (counts: Int32Array) => counts.reduce((sum, count) => sum + (count >= cell / 2 ? 1 : 0), 0);
      const ruled = Math.max(lines(rowCounts), lines(columnCounts)) >= RULED_LINES;
      if (lattice || ruled) cells++;
    }
  }
  return (cells * stride * stride) / (width * height);
}

/**
 * Share of a piece's sides (pixel edges toward pixels outside it; the frame's border does not count) that lie on runs
 * of at least `run` pixels straight along a row or a column: 1 for a rectangle, whatever holes of rectangles it has
 * (a wall with windows); near 0 for the sky between twigs, whose sides step at every pixel; a slanted straight limb
 * steps too.
 */
export function straightSideShare(pixels: number[], width: number, height: number, run: number): number {
  const inside = new Uint8Array(width * height);
  let minX = width;
  let maxX = -1;
  let minY = height;
  let maxY = -1;
  for (const i of pixels) {
    inside[i] = 1;
    const x = i % width;
    const y = (i - x) / width;
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  const side = (x: number, y: number, dx: number, dy: number): boolean => {
    const qx = x + dx;
    const qy = y + dy;
    if (!inside[y * width + x] || qx < 0 || qy < 0 || qx >= width || qy >= height) return false;
    return !inside[qy * width + qx];
  };
  let sides = 0;
  let straight = 0;
  const close = (length: number) => {
    sides += length;
    if (length >= run) straight += length;
  };
  for (const dy of [-1, 1]) {
    for (let y = minY; y <= maxY; y++) {
      let length = 0;
      for (let x = minX; x <= maxX; x++) {
        if (side(x, y, 0, dy)) {
          length++;
        } else {
          close(length);
          length = 0;
        }
      }
      close(length);
    }
  }
  for (const dx of [-1, 1]) {
    for (let x = minX; x <= maxX; x++) {
      let length = 0;
      for (let y = minY; y <= maxY; y++) {
        if (side(x, y, dx, 0)) {
          length++;
        } else {
          close(length);
          length = 0;
        }
      }
      close(length);
    }
  }
  return sides > 0 ? straight / sides : 0;
}

/** Sobel gradient of luma (a unit step gives 1): magnitude, and the gradient's orientation in degrees, [0, 180). */
function lumaGradient(planes: ColourPlanes): { magnitude: Float32Array; orientation: Float32Array } {
  const { width, height } = planes;
  const luma = lumaOf(planes);
  const magnitude = new Float32Array(width * height);
  const orientation = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const up = Math.max(0, y - 1) * width;
    const row = y * width;
    const down = Math.min(height - 1, y + 1) * width;
    for (let x = 0; x < width; x++) {
      const left = Math.max(0, x - 1);
      const right = Math.min(width - 1, x + 1);
      const gx = (luma[up + right]! + 2 * luma[row + right]! + luma[down + right]! - luma[up + left]! - 2 * luma[row + left]! - luma[down + left]!) / 4;
      const gy = (luma[down + left]! + 2 * luma[down + x]! + luma[down + right]! - luma[up + left]! - 2 * luma[up + x]! - luma[up + right]!) / 4;
      magnitude[row + x] = Math.hypot(gx, gy);
      const angle = (Math.atan2(gy, gx) * 180) / Math.PI;
      orientation[row + x] = angle < 0 ? angle + 180 : angle >= 180 ? angle - 180 : angle;
    }
  }
  return { magnitude, orientation };
}
