import type { RawImage } from '../raw-image.js';
import { pixelBounds, type Box } from '../box.js';

/** Rec. 601 luma of one pixel, 0–255; grey images are their own luma. */
export function lumaAt(image: RawImage, index: number): number {
  const offset = index * image.channels;
  if (image.channels < 3) return image.data[offset]!;
  return 0.299 * image.data[offset]! + 0.587 * image.data[offset + 1]! + 0.114 * image.data[offset + 2]!;
}

/** Percentiles of luma inside the box: the 5th, the median and the 95th. */
export interface LumaSpread {
  low: number;
  median: number;
  high: number;
}

export function lumaSpread(image: RawImage, box: Box): LumaSpread {
  const bounds = pixelBounds(box, image.width, image.height);
  if (!bounds) return { low: 0, median: 0, high: 0 };
  const [x0, y0, x1, y1] = bounds;
  const histogram = new Uint32Array(256);
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) histogram[Math.round(lumaAt(image, y * image.width + x))]!++;
  const total = (x1 - x0) * (y1 - y0);
  return { low: percentile(histogram, total, 0.05), median: percentile(histogram, total, 0.5), high: percentile(histogram, total, 0.95) };
}

function percentile(histogram: Uint32Array, total: number, fraction: number): number {
  let seen = 0;
  for (let value = 0; value < 256; value++) {
    seen += histogram[value]!;
    if (seen >= fraction * total) return value;
  }
  return 255;
}
