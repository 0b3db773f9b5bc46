import type { RawImage } from '../raw-image.js';

/**
 * Carries a tone and colour change seen on a small copy of a photo up to the full photo: a local affine colour
 * transform (3×4 matrix per cell of a coarse grid, as in bilateral-guided upsampling without the intensity axis)
 * is fitted from the small input to the small output, and applied at full resolution with the matrices
 * interpolated bilinearly between cell centres. Sharp detail never passes through the small image; only the
 * smooth change of colour does.
 */

/** Row-major 3×4: out_c = m[4c]·r + m[4c+1]·g + m[4c+2]·b + m[4c+3], channels in [0, 1]. */
export type AffineColour = Float64Array;

export interface ColourGrid {
  columns: number;
  rows: number;
  /** columns × rows matrices of 12 values, row by row. */
  matrices: Float64Array;
}

export interface FitOptions {
  /** Cells along the longer side (default 8); the shorter side gets proportionally fewer, at least 1. */
  cells?: number;
  /**
   * Ridge weight pulling each cell's matrix towards the global fit (default 0.02 per pixel share): flat cells, whose
   * colours span too little to fix 12 numbers, take the global transform instead of an arbitrary one.
   */
  regularisation?: number;
}

/**
 * Fits the grid from `source` to `target`, two RGB float images in [0, 1] of the same size, interleaved,
 * `width`×`height`.
 */
export function fitColourGrid(source: Float32Array, target: Float32Array, width: number, height: number, options: FitOptions = {}): ColourGrid {
  const cells = options.cells ?? 8;
  const lambda = options.regularisation ?? 0.02;
  const long = Math.max(width, height);
  const columns = Math.max(1, Math.round((cells * width) / long));
  const rows = Math.max(1, Math.round((cells * height) / long));
  const global = fitAffine(source, target, width, 0, 0, width, height, null, 1e-4);
  const matrices = new Float64Array(columns * rows * 12);
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      // Each cell fits on itself and half a cell around it, so neighbours agree where they are interpolated.
      const x0 = Math.max(0, Math.floor(((column - 0.5) * width) / columns));
      const x1 = Math.min(width, Math.ceil(((column + 1.5) * width) / columns));
      const y0 = Math.max(0, Math.floor(((row - 0.5) * height) / rows));
      const y1 = Math.min(height, Math.ceil(((row + 1.5) * height) / rows));
      const matrix = fitAffine(source, target, width, x0, y0, x1, y1, global, lambda);
      matrices.set(matrix, (row * columns + column) * 12);
    }
  }
  return { columns, rows, matrices };
}

/**
 * Least squares for out = M·[r, g, b, 1] over a rectangle, with a ridge term λ·n·‖M − prior‖² (or a tiny one
 * towards identity when there is no prior).
 */
function fitAffine(
  source: Float32Array,
  target: Float32Array,
  width: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  prior: AffineColour | null,
  lambda: number,
): AffineColour {
  const xtx = new Float64Array(16);
  const xty = new Float64Array(12); // 4 × 3
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * width + x) * 3;
      const v = [source[i]!, source[i + 1]!, source[i + 2]!, 1];
      for (let a = 0; a < 4; a++) {
        const va = v[a]!;
        for (let b = a; b < 4; b++) xtx[a * 4 + b]! += va * v[b]!;
        for (let c = 0; c < 3; c++) xty[a * 3 + c]! += va * target[i + c]!;
      }
      n++;
    }
  }
  for (let a = 0; a < 4; a++) for (let b = 0; b < a; b++) xtx[a * 4 + b] = xtx[b * 4 + a]!;
  const reference = prior ?? identity();
  const weight = Math.max(lambda * n, 1e-6);
  for (let a = 0; a < 4; a++) {
    xtx[a * 4 + a]! += weight;
    for (let c = 0; c < 3; c++) xty[a * 3 + c]! += weight * reference[c * 4 + a]!;
  }
  const solution = solve4(xtx, xty);
  const matrix = new Float64Array(12);
  for (let c = 0; c < 3; c++) for (let a = 0; a < 4; a++) matrix[c * 4 + a] = solution[a * 3 + c]!;
  return matrix;
}

function identity(): AffineColour {
  return new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]);
}

/** Solves the 4×4 symmetric positive system A·X = B for a 4×3 X by Gaussian elimination with partial pivoting. */
function solve4(a: Float64Array, b: Float64Array): Float64Array {
  const m = Float64Array.from(a);
  const x = Float64Array.from(b);
  for (let col = 0; col < 4; col++) {
    let pivot = col;
    for (let r = col + 1; r < 4; r++) if (Math.abs(m[r * 4 + col]!) > Math.abs(m[pivot * 4 + col]!)) pivot = r;
    if (pivot !== col) {
      for (let k = 0; k < 4; k++) [m[col * 4 + k], m[pivot * 4 + k]] = [m[pivot * 4 + k]!, m[col * 4 + k]!];
      for (let k = 0; k < 3; k++) [x[col * 3 + k], x[pivot * 3 + k]] = [x[pivot * 3 + k]!, x[col * 3 + k]!];
    }
    const d = m[col * 4 + col]!;
    for (let r = 0; r < 4; r++) {
      if (r === col) continue;
      const f = m[r * 4 + col]! / d;
      if (f === 0) continue;
      for (let k = 0; k < 4; k++) m[r * 4 + k]! -= f * m[col * 4 + k]!;
      for (let k = 0; k < 3; k++) x[r * 3 + k]! -= f * x[col * 3 + k]!;
    }
  }
  for (let r = 0; r < 4; r++) for (let k = 0; k < 3; k++) x[r * 3 + k]! /= m[r * 4 + r]!;
  return x;
}

/**
 * Applies the grid to an 8-bit RGB or RGBA image of any size (alpha kept). Matrices are interpolated bilinearly
 * between cell centres, clamped at the borders; results are rounded and clamped to 0–255.
 */
export function applyColourGrid(image: RawImage, grid: ColourGrid): RawImage {
  if (image.channels < 3) throw new Error('applyColourGrid needs an RGB or RGBA image');
  const { width, height, channels } = image;
  const { columns, rows, matrices } = grid;
  const out = new Uint8Array(image.data.length);
  const rowMatrices = new Float64Array(columns * 12);
  // Per column of the image: the left cell and the weight of the right one.
  const left = new Int32Array(width);
  const rightWeight = new Float32Array(width);
  for (let x = 0; x < width; x++) {
    const position = Math.min(Math.max(((x + 0.5) * columns) / width - 0.5, 0), columns - 1);
    const l = Math.min(Math.floor(position), Math.max(columns - 2, 0));
    left[x] = l;
    rightWeight[x] = columns > 1 ? position - l : 0;
  }
  const scale = 1 / 255;
  for (let y = 0; y < height; y++) {
    const position = Math.min(Math.max(((y + 0.5) * rows) / height - 0.5, 0), rows - 1);
    const top = Math.min(Math.floor(position), Math.max(rows - 2, 0));
    const w = rows > 1 ? position - top : 0;
    const bottom = Math.min(top + 1, rows - 1);
    for (let k = 0; k < columns * 12; k++) {
      rowMatrices[k] = matrices[top * columns * 12 + k]! * (1 - w) + matrices[bottom * columns * 12 + k]! * w;
    }
    let i = y * width * channels;
    for (let x = 0; x < width; x++, i += channels) {
      const base = left[x]! * 12;
      const next = columns > 1 ? base + 12 : base;
      const t = rightWeight[x]!;
      const r = image.data[i]! * scale;
      const g = image.data[i + 1]! * scale;
      const b = image.data[i + 2]! * scale;
      for (let c = 0; c < 3; c++) {
        const o = c * 4;
        const m0 = rowMatrices[base + o]! + (rowMatrices[next + o]! - rowMatrices[base + o]!) * t;
        const m1 = rowMatrices[base + o + 1]! + (rowMatrices[next + o + 1]! - rowMatrices[base + o + 1]!) * t;
        const m2 = rowMatrices[base + o + 2]! + (rowMatrices[next + o + 2]! - rowMatrices[base + o + 2]!) * t;
        const m3 = rowMatrices[base + o + 3]! + (rowMatrices[next + o + 3]! - rowMatrices[base + o + 3]!) * t;
        const v = (m0 * r + m1 * g + m2 * b + m3) * 255 + 0.5;
        out[i + c] = v <= 0 ? 0 : v >= 255 ? 255 : v;
      }
      if (channels === 4) out[i + 3] = image.data[i + 3]!;
    }
  }
  return { data: out, width, height, channels };
}
