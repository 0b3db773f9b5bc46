import type { RawImage } from '../raw-image.js';

/**
 * RGB as three float32 planes with values in [0, 1]: the layout detectors take (NCHW without the batch axis), and
 * one that area resizing can run over plane by plane.
 */
export interface PlanarImage {
  width: number;
  height: number;
  /** Red plane, then green, then blue; each row-major. */
  data: Float32Array;
}

/** Value of model pixels outside the photo (letterboxing): mid grey, as neutral as a model input gets. */
const OUTSIDE = 0.5;

/** The colour planes of `region` of the photo (whole pixels, inside it); grey photos give three equal planes, alpha is ignored. */
export function toPlanar(image: RawImage, region: { x: number; y: number; width: number; height: number }): PlanarImage {
  const { x: left, y: top, width, height } = region;
  const plane = width * height;
  const data = new Float32Array(3 * plane);
  const colour = image.channels >= 3;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const source = ((top + y) * image.width + left + x) * image.channels;
      const target = y * width + x;
      data[target] = image.data[source]! / 255;
      data[plane + target] = image.data[source + (colour ? 1 : 0)]! / 255;
      data[2 * plane + target] = image.data[source + (colour ? 2 : 0)]! / 255;
    }
  }
  return { width, height, data };
}

/**
 * Resizes by area: each target pixel is the mean of the source area it covers, so shrinking by any factor does
 * not alias (a face's detail must not turn into moiré before the detector sees it). Enlarging repeats pixels.
 * Separable, rows first; a RawImage source is read as it is, without a float copy of the whole photo.
 */
export function resizeArea(image: PlanarImage | RawImage, width: number, height: number): PlanarImage {
  if (!('channels' in image) && width === image.width && height === image.height) return image;
  const rows = 'channels' in image ? resizeRowsOfBytes(image, width) : resizeRows(image.data, 3 * image.height, image.width, width);
  const data = new Float32Array(3 * width * height);
  const spans = footprints(image.height, height);
  for (let c = 0; c < 3; c++) {
    const source = c * width * image.height;
    const target = c * width * height;
    for (let y = 0; y < height; y++) {
      const { first, weights } = spans[y]!;
      const row = target + y * width;
      for (let k = 0; k < weights.length; k++) {
        const weight = weights[k]!;
        const from = source + (first + k) * width;
        for (let x = 0; x < width; x++) data[row + x]! += weight * rows[from + x]!;
      }
    }
  }
  return { width, height, data };
}

/** A size × size window at (x, y), NCHW: a detector's input. What lies outside the image reads as mid grey. */
export function cropSquare(image: PlanarImage, x: number, y: number, size: number): Float32Array {
  const plane = size * size;
  const out = new Float32Array(3 * plane).fill(OUTSIDE);
  const x0 = Math.max(0, x);
  const x1 = Math.min(image.width, x + size);
  for (let c = 0; c < 3; c++) {
    for (let row = Math.max(0, y); row < Math.min(image.height, y + size); row++) {
      const from = c * image.width * image.height + row * image.width;
      if (x1 > x0) out.set(image.data.subarray(from + x0, from + x1), c * plane + (row - y) * size + (x0 - x));
    }
  }
  return out;
}

/** The rows pass of resizeArea straight from 8-bit pixels: planes of `image.height` rows, `target` wide, in [0, 1]. */
function resizeRowsOfBytes(image: RawImage, target: number): Float32Array {
  const out = new Float32Array(3 * image.height * target);
  const spans = footprints(image.width, target);
  const offsets = image.channels >= 3 ? [0, 1, 2] : [0, 0, 0];
  const plane = image.height * target;
  for (let y = 0; y < image.height; y++) {
    const from = y * image.width * image.channels;
    for (let c = 0; c < 3; c++) {
      const to = c * plane + y * target;
      for (let i = 0; i < target; i++) {
        const { first, weights } = spans[i]!;
        let sum = 0;
        for (let k = 0; k < weights.length; k++) sum += weights[k]! * image.data[from + (first + k) * image.channels + offsets[c]!]!;
        out[to + i] = sum / 255;
      }
    }
  }
  return out;
}

/** Resizes each of `lines` consecutive rows from `length` to `target` values. */
function resizeRows(source: Float32Array, lines: number, length: number, target: number): Float32Array {
  const out = new Float32Array(lines * target);
  const spans = footprints(length, target);
  for (let line = 0; line < lines; line++) {
    const from = line * length;
    const to = line * target;
    for (let i = 0; i < target; i++) {
      const { first, weights } = spans[i]!;
      let sum = 0;
      for (let k = 0; k < weights.length; k++) sum += weights[k]! * source[from + first + k]!;
      out[to + i] = sum;
    }
  }
  return out;
}

interface Footprint {
  first: number;
  /** Share of each source pixel from `first` on; they add up to 1. */
  weights: Float32Array;
}

function footprints(length: number, target: number): Footprint[] {
  const step = length / target;
  return Array.from({ length: target }, (_, i) => {
    if (step <= 1) return { first: Math.min(length - 1, Math.floor((i + 0.5) * step)), weights: Float32Array.of(1) };
    const from = i * step;
    const to = from + step;
    const first = Math.floor(from);
    const last = Math.min(length, Math.ceil(to));
    const weights = new Float32Array(last - first);
    for (let p = first; p < last; p++) weights[p - first] = (Math.min(to, p + 1) - Math.max(from, p)) / step;
    return { first, weights };
  });
}
