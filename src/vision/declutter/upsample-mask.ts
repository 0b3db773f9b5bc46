import { bilinearTaps } from '../colour-planes.js';

/**
 * A cell mask enlarged to `outWidth` × `outHeight` pixels: bilinear interpolation of the 0/1 cells cut at one half,
 * which rounds the staircase of the cells into smooth outlines.
 */
export function upsampleMask(cells: Uint8Array, gridWidth: number, gridHeight: number, outWidth: number, outHeight: number): Uint8Array {
  const data = new Uint8Array(outWidth * outHeight);
  const columns = bilinearTaps(outWidth, gridWidth);
  const rows = bilinearTaps(outHeight, gridHeight);
  for (let y = 0; y < outHeight; y++) {
    const top = rows.low[y]! * gridWidth, bottom = rows.high[y]! * gridWidth, ty = rows.weight[y]!;
    for (let x = 0; x < outWidth; x++) {
      const left = columns.low[x]!, right = columns.high[x]!, tx = columns.weight[x]!;
      const a = cells[top + left]!, b = cells[top + right]!, c = cells[bottom + left]!, d = cells[bottom + right]!;
      if (a + b + c + d === 0) continue;
      const upper = a + (b - a) * tx;
      const lower = c + (d - c) * tx;
      if (upper + (lower - upper) * ty >= 0.5) data[y * outWidth + x] = 1;
    }
  }
  return data;
}
