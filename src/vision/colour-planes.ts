import type { RawImage } from './raw-image.js';

/** An RGB image as three float planes with samples in [0, 1] (sRGB-encoded, as stored): what the sky code analyses. */
export interface ColourPlanes {
  width: number;
  height: number;
  r: Float32Array;
  g: Float32Array;
  b: Float32Array;
  /** Mean alpha (0…1) of each pixel, present only when the image has an alpha channel. */
  opacity?: Float32Array;
}

/**
 * Area-averages `image` so that its longer side is at most `maxLongSide` (never enlarges). Averaging every source
 * pixel, not sampling, matters here: it turns JPEG noise and one-pixel twigs into the gentle mixtures that the sky
 * cues expect. Greyscale is spread to three equal planes; alpha is averaged into `opacity`.
 */
export function downsampleToPlanes(image: RawImage, maxLongSide: number): ColourPlanes {
  const { width, height, channels, data } = image;
  const scale = Math.min(1, maxLongSide / Math.max(width, height));
  const outWidth = Math.max(1, Math.round(width * scale));
  const outHeight = Math.max(1, Math.round(height * scale));
  const colour = channels >= 3;
  const alphaChannel = channels === 2 || channels === 4 ? channels - 1 : -1;
  const plane = () => new Float32Array(outWidth * outHeight);
  const planes = [plane(), plane(), plane()] as const;
  const opacity = alphaChannel >= 0 ? new Float32Array(outWidth * outHeight) : undefined;
  const counts = new Float32Array(outWidth * outHeight);
  const columnOf = new Int32Array(width);
  for (let x = 0; x < width; x++) columnOf[x] = Math.min(outWidth - 1, Math.floor((x * outWidth) / width));
  for (let y = 0; y < height; y++) {
    const rowBase = Math.min(outHeight - 1, Math.floor((y * outHeight) / height)) * outWidth;
    let offset = y * width * channels;
    for (let x = 0; x < width; x++, offset += channels) {
      const target = rowBase + columnOf[x]!;
      const red = data[offset]!;
      planes[0][target]! += red;
      planes[1][target]! += colour ? data[offset + 1]! : red;
      planes[2][target]! += colour ? data[offset + 2]! : red;
      if (opacity) opacity[target]! += data[offset + alphaChannel]!;
      counts[target]! += 1;
    }
  }
  for (let i = 0; i < counts.length; i++) {
    const norm = 1 / (255 * counts[i]!);
    planes[0][i]! *= norm;
    planes[1][i]! *= norm;
    planes[2][i]! *= norm;
    if (opacity) opacity[i]! *= norm;
  }
  return { width: outWidth, height: outHeight, r: planes[0], g: planes[1], b: planes[2], ...(opacity ? { opacity } : {}) };
}

/** BT.601 luma of sRGB-encoded samples: the brightness people judge, cheap and monotonic in each channel. */
export function lumaOf(planes: ColourPlanes): Float32Array {
  const luma = new Float32Array(planes.r.length);
  for (let i = 0; i < luma.length; i++) luma[i] = 0.299 * planes.r[i]! + 0.587 * planes.g[i]! + 0.114 * planes.b[i]!;
  return luma;
}

/** Bilinear sample of a plane at fractional coordinates (pixel centres at integer + 0.5), clamped at the borders. */
export function sampleBilinear(plane: Float32Array, width: number, height: number, x: number, y: number): number {
  const fx = Math.min(Math.max(x - 0.5, 0), width - 1);
  const fy = Math.min(Math.max(y - 0.5, 0), height - 1);
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const x1 = Math.min(x0 + 1, width - 1);
  const y1 = Math.min(y0 + 1, height - 1);
  const tx = fx - x0;
  const ty = fy - y0;
  const top = plane[y0 * width + x0]! * (1 - tx) + plane[y0 * width + x1]! * tx;
  const bottom = plane[y1 * width + x0]! * (1 - tx) + plane[y1 * width + x1]! * tx;
  return top * (1 - ty) + bottom * ty;
}

/** For each of `length` output positions, the two source samples around it and the weight of the second. */
export function bilinearTaps(length: number, sourceLength: number): { low: Int32Array; high: Int32Array; weight: Float32Array } {
  const low = new Int32Array(length);
  const high = new Int32Array(length);
  const weight = new Float32Array(length);
  const scale = sourceLength / length;
  for (let i = 0; i < length; i++) {
    const position = Math.min(Math.max((i + 0.5) * scale - 0.5, 0), sourceLength - 1);
    low[i] = Math.floor(position);
    high[i] = Math.min(low[i]! + 1, sourceLength - 1);
    weight[i] = position - low[i]!;
  }
  return { low, high, weight };
}

/** Writes the value of each plane at pixel (x, y) to `target[at]`, `target[at + 1]`, … */
export type PlanesSampler = (x: number, y: number, target: Float32Array | Float64Array, at: number) => void;

/**
 * Bilinear lookup of planes of `sourceWidth × sourceHeight` at the pixels of a `width × height` grid over the same
 * area (see bilinearTaps): how a small sky, or coefficients fitted on a small copy, are carried to the full image.
 */
export function bilinearSampler(
  planes: readonly Float32Array[],
  sourceWidth: number,
  sourceHeight: number,
  width: number,
  height: number,
): PlanesSampler {
  const columns = bilinearTaps(width, sourceWidth);
  const rows = bilinearTaps(height, sourceHeight);
  return (x, y, target, at) => {
    const top = rows.low[y]! * sourceWidth;
    const bottom = rows.high[y]! * sourceWidth;
    const left = columns.low[x]!;
    const right = columns.high[x]!;
    const tx = columns.weight[x]!;
    const ty = rows.weight[y]!;
    for (let k = 0; k < planes.length; k++) {
      const plane = planes[k]!;
      const upper = plane[top + left]! + (plane[top + right]! - plane[top + left]!) * tx;
      const lower = plane[bottom + left]! + (plane[bottom + right]! - plane[bottom + left]!) * tx;
      target[at + k] = upper + (lower - upper) * ty;
    }
  };
}
