import { labOfLinearRgb, srgbToLinear, type Lab } from '../colour.js';
import type { RawImage } from '../raw-image.js';

/** Linear light of sRGB values in steps of 1/16 of a code: cell means need finer steps than bytes, not a power each. */
const LINEAR_STEPS = 16 * 255;
const LINEAR_OF_STEP = Float32Array.from({ length: LINEAR_STEPS + 1 }, (_, k) => srgbToLinear(k / LINEAR_STEPS));

/**
 * A rectangle of the photo area-averaged down to a working grid: the image pixels [x0, x1) × [y0, y1) map onto
 * `width` × `height` cells, each the mean of the pixels it covers.
 */
export interface RegionGrid {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  width: number;
  height: number;
  /** Image pixels per grid cell along each axis. */
  scaleX: number;
  scaleY: number;
  /** CIELAB (D65) of each cell, 3 per cell interleaved: L* 0–100, a*, b*. */
  lab: Float32Array;
}

/**
 * Area-averages the rectangle so that its longer side is at most `maxLongSide` cells (never enlarges); grey images are
 * read as r = g = b, alpha is ignored.
 */
export function regionGrid(image: RawImage, x0: number, y0: number, x1: number, y1: number, maxLongSide: number): RegionGrid {
  const { width: imageWidth, channels, data } = image;
  const spanX = x1 - x0, spanY = y1 - y0;
  const scale = Math.min(1, maxLongSide / Math.max(spanX, spanY));
  const width = Math.max(1, Math.round(spanX * scale));
  const height = Math.max(1, Math.round(spanY * scale));
  const sums = new Float64Array(width * height * 3);
  const counts = new Float64Array(width * height);
  const columnOf = new Int32Array(spanX);
  for (let x = 0; x < spanX; x++) columnOf[x] = Math.min(width - 1, Math.floor((x * width) / spanX));
  const colour = channels >= 3;
  for (let y = y0; y < y1; y++) {
    const row = Math.min(height - 1, Math.floor(((y - y0) * height) / spanY)) * width;
    let offset = (y * imageWidth + x0) * channels;
    for (let x = 0; x < spanX; x++, offset += channels) {
      const cell = row + columnOf[x]!;
      const r = data[offset]!;
      sums[cell * 3]! += r;
      sums[cell * 3 + 1]! += colour ? data[offset + 1]! : r;
      sums[cell * 3 + 2]! += colour ? data[offset + 2]! : r;
      counts[cell]! += 1;
    }
  }
  const lab = new Float32Array(width * height * 3);
  const out: Lab = { lightness: 0, a: 0, b: 0 };
  for (let i = 0; i < counts.length; i++) {
    const norm = 16 / counts[i]!;
    const r = LINEAR_OF_STEP[Math.round(sums[i * 3]! * norm)]!;
    const g = LINEAR_OF_STEP[Math.round(sums[i * 3 + 1]! * norm)]!;
    const b = LINEAR_OF_STEP[Math.round(sums[i * 3 + 2]! * norm)]!;
    labOfLinearRgb(r, g, b, out);
    lab[i * 3] = out.lightness;
    lab[i * 3 + 1] = out.a;
    lab[i * 3 + 2] = out.b;
  }
  return { x0, y0, x1, y1, width, height, scaleX: spanX / width, scaleY: spanY / height, lab };
}

/** A full-image per-pixel mask (any non-zero = set) sampled at the centre of every grid cell. */
export function sampleMaskOnGrid(mask: Uint8Array, imageWidth: number, grid: Omit<RegionGrid, 'lab'>): Uint8Array {
  const out = new Uint8Array(grid.width * grid.height);
  for (let gy = 0; gy < grid.height; gy++) {
    const y = Math.min(grid.y1 - 1, Math.floor(grid.y0 + (gy + 0.5) * grid.scaleY));
    for (let gx = 0; gx < grid.width; gx++) {
      const x = Math.min(grid.x1 - 1, Math.floor(grid.x0 + (gx + 0.5) * grid.scaleX));
      out[gy * grid.width + gx] = mask[y * imageWidth + x] ? 1 : 0;
    }
  }
  return out;
}
