import { LINEAR_OF_BYTE } from '../colour.js';
import { boxMean } from '../box-filter.js';
import type { ColourPlanes } from '../colour-planes.js';
import { median } from '../robust-statistics.js';

/**
 * Per-cell appearance features of a floor, chosen so that light falling differently changes only one of them:
 *  - `shade`: log luminance (what sun patches, shadows and lighting gradients change),
 *  - `warmth`, `tint`: log chromaticity (log R/G, log B/G of linear light, unchanged when the light only brightens)
 *    turned so that `warmth` runs along the way daylight's colour varies (sun is warmer than sky, log B/G falls about
 *    twice as fast as log R/G rises) and `tint` across it, where lighting seldom moves colours,
 *  - `texture`: local mean of the log-luminance gradient's magnitude (unchanged when the light is scaled), each
 *    gradient clipped at a few times the floor's median: the step at a sun patch's border (or a seam) then cannot pass
 *    for texture, while a flat object on a grained floor, or a busy one on a plain floor, still can.
 */
export interface FloorFeatures {
  width: number;
  height: number;
  shade: Float32Array;
  warmth: Float32Array;
  tint: Float32Array;
  texture: Float32Array;
}

/** Added to linear luminance before the logarithm: damps the noise of near-black cells. */
const DARK_FLOOR = 0.02;

/** Gradients are clipped at this multiple of the floor cells' median gradient. */
const GRADIENT_CLIP = 3;

export function floorFeatures(planes: ColourPlanes, textureRadius: number, floorCells: Int32Array): FloorFeatures {
  const { width, height } = planes;
  const n = width * height;
  const shade = new Float32Array(n);
  const warmth = new Float32Array(n);
  const tint = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const r = LINEAR_OF_BYTE[Math.round(planes.r[i]! * 255)]!;
    const g = LINEAR_OF_BYTE[Math.round(planes.g[i]! * 255)]!;
    const b = LINEAR_OF_BYTE[Math.round(planes.b[i]! * 255)]!;
    shade[i] = Math.log(0.2126 * r + 0.7152 * g + 0.0722 * b + DARK_FLOOR);
    const u = Math.log((r + DARK_FLOOR) / (g + DARK_FLOOR));
    const v = Math.log((b + DARK_FLOOR) / (g + DARK_FLOOR));
    warmth[i] = (u - 2 * v) / Math.sqrt(5);
    tint[i] = (2 * u + v) / Math.sqrt(5);
  }
  const gradient = new Float32Array(n);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const gx = shade[Math.min(width - 1, x + 1) + y * width]! - shade[Math.max(0, x - 1) + y * width]!;
      const gy = shade[x + Math.min(height - 1, y + 1) * width]! - shade[x + Math.max(0, y - 1) * width]!;
      gradient[i] = 0.5 * Math.sqrt(gx * gx + gy * gy);
    }
  }
  const floorGradients = Float32Array.from(floorCells, (i) => gradient[i]!);
  const clip = GRADIENT_CLIP * Math.max(1e-3, median(floorGradients));
  for (let i = 0; i < n; i++) if (gradient[i]! > clip) gradient[i] = clip;
  return {
    width,
    height,
    shade: boxMean(shade, width, height, 1),
    warmth: boxMean(warmth, width, height, 1),
    tint: boxMean(tint, width, height, 1),
    texture: boxMean(gradient, width, height, textureRadius),
  };
}

/**
 * The smooth part of the lighting over the floor: a quadratic surface in (x, y) fitted to `values` at the listed cells
 * by iteratively reweighted least squares (Tukey's biweight), so that objects and sun patches barely pull it.
 * Returns the surface at every cell.
 */
export function robustQuadraticSurface(values: Float32Array, width: number, height: number, cells: Int32Array): Float32Array {
  const terms = (x: number, y: number, out: Float64Array) => {
    const u = (2 * x) / width - 1;
    const v = (2 * y) / height - 1;
    out[0] = 1;
    out[1] = u;
    out[2] = v;
    out[3] = u * u;
    out[4] = u * v;
    out[5] = v * v;
  };
  const p = 6;
  const basis = new Float64Array(p);
  let coefficients: Float64Array = new Float64Array(p);
  const weight = new Float32Array(cells.length).fill(1);
  const step = Math.max(1, Math.floor(cells.length / 20000));
  for (let iteration = 0; iteration < 6; iteration++) {
    const normal = new Float64Array(p * p);
    const rhs = new Float64Array(p);
    for (let k = 0; k < cells.length; k += step) {
      const w = weight[k]!;
      if (w === 0) continue;
      const i = cells[k]!;
      terms(i % width, Math.floor(i / width), basis);
      for (let a = 0; a < p; a++) {
        rhs[a]! += w * basis[a]! * values[i]!;
        for (let b = 0; b < p; b++) normal[a * p + b]! += w * basis[a]! * basis[b]!;
      }
    }
    for (let a = 0; a < p; a++) normal[a * p + a]! += 1e-6;
    const solved = solveSymmetric(normal, rhs, p);
    if (!solved) break;
    coefficients = solved;
    // Tukey weights from the residuals' robust scale.
    const residuals: number[] = [];
    for (let k = 0; k < cells.length; k += step) {
      const i = cells[k]!;
      terms(i % width, Math.floor(i / width), basis);
      let fit = 0;
      for (let a = 0; a < p; a++) fit += coefficients[a]! * basis[a]!;
      residuals.push(Math.abs(values[i]! - fit));
    }
    const sorted = Float32Array.from(residuals).sort();
    const scale = Math.max(1e-3, 1.4826 * sorted[Math.floor(sorted.length / 2)]!);
    const cut = 4.685 * scale;
    for (let k = 0, r = 0; k < cells.length; k += step, r++) {
      const t = residuals[r]! / cut;
      weight[k] = t < 1 ? (1 - t * t) ** 2 : 0;
    }
  }
  const surface = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      terms(x, y, basis);
      let fit = 0;
      for (let a = 0; a < p; a++) fit += coefficients[a]! * basis[a]!;
      surface[y * width + x] = fit;
    }
  }
  return surface;
}

/** Gaussian elimination with partial pivoting; undefined when singular. */
function solveSymmetric(matrix: Float64Array, rhs: Float64Array, n: number): Float64Array | undefined {
  const m = Float64Array.from(matrix);
  const b = Float64Array.from(rhs);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++) if (Math.abs(m[row * n + col]!) > Math.abs(m[pivot * n + col]!)) pivot = row;
    if (Math.abs(m[pivot * n + col]!) < 1e-12) return undefined;
    if (pivot !== col) {
      for (let k = 0; k < n; k++) [m[col * n + k], m[pivot * n + k]] = [m[pivot * n + k]!, m[col * n + k]!];
      [b[col], b[pivot]] = [b[pivot]!, b[col]!];
    }
    for (let row = col + 1; row < n; row++) {
      const f = m[row * n + col]! / m[col * n + col]!;
      for (let k = col; k < n; k++) m[row * n + k]! -= f * m[col * n + k]!;
      b[row]! -= f * b[col]!;
    }
  }
  const x = new Float64Array(n);
  for (let row = n - 1; row >= 0; row--) {
    let sum = b[row]!;
    for (let k = row + 1; k < n; k++) sum -= m[row * n + k]! * x[k]!;
    x[row] = sum / m[row * n + row]!;
  }
  return x;
}
