import type { RawImage } from '../raw-image.js';
import type { GreyPlane } from './lsd.js';

/**
 * Resizes to exactly width × height with a tent filter widened by the reduction factor (area-like averaging when
 * shrinking, bilinear when enlarging; the two axes independently, so the aspect ratio may change). Returns RGB: grey
 * is spread to three channels, alpha is dropped (a line detector wants the colours as they are, not composited).
 */
export function resizeRgb(image: RawImage, width: number, height: number): RawImage {
  const { channels } = image;
  const colour = channels >= 3;
  const horizontal = weights(image.width, width);
  const vertical = weights(image.height, height);
  // Rows first into a float buffer of width × image.height × 3.
  const temp = new Float32Array(width * image.height * 3);
  for (let y = 0; y < image.height; y++) {
    const row = y * image.width * channels;
    for (let x = 0; x < width; x++) {
      const { start, values } = horizontal[x]!;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let k = 0; k < values.length; k++) {
        const o = row + (start + k) * channels;
        const w = values[k]!;
        const red = image.data[o]!;
        r += w * red;
        g += w * (colour ? image.data[o + 1]! : red);
        b += w * (colour ? image.data[o + 2]! : red);
      }
      const t = (y * width + x) * 3;
      temp[t] = r;
      temp[t + 1] = g;
      temp[t + 2] = b;
    }
  }
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const { start, values } = vertical[y]!;
    for (let x = 0; x < width; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let k = 0; k < values.length; k++) {
        const t = ((start + k) * width + x) * 3;
        const w = values[k]!;
        r += w * temp[t]!;
        g += w * temp[t + 1]!;
        b += w * temp[t + 2]!;
      }
      const o = (y * width + x) * 3;
      data[o] = clampByte(r);
      data[o + 1] = clampByte(g);
      data[o + 2] = clampByte(b);
    }
  }
  return { data, width, height, channels: 3 };
}

/**
 * Resizes so that the longer side is `longSide` (never enlarging), keeping the aspect ratio. Large reductions first
 * average whole blocks of pixels (one pass over a 12 MP photo), then finish with resizeRgb.
 */
export function resizeToLongSide(image: RawImage, longSide: number): RawImage {
  const factor = Math.min(1, longSide / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * factor));
  const height = Math.max(1, Math.round(image.height * factor));
  if (width === image.width && height === image.height && image.channels === 3) return image;
  const block = Math.floor(1 / factor / 1.5);
  const reduced = block >= 2 ? blockAverage(image, block) : image;
  return resizeRgb(reduced, width, height);
}

/** Averages each block × block square (partial blocks at the edges included) into one RGB pixel. */
export function blockAverage(image: RawImage, block: number): RawImage {
  const { width, height, channels, data } = image;
  const outWidth = Math.ceil(width / block);
  const outHeight = Math.ceil(height / block);
  const sums = new Uint32Array(outWidth * 3);
  const out = new Uint8Array(outWidth * outHeight * 3);
  const binOf = new Int32Array(width);
  for (let x = 0; x < width; x++) binOf[x] = Math.floor(x / block) * 3;
  for (let oy = 0; oy < outHeight; oy++) {
    sums.fill(0);
    const y0 = oy * block;
    const y1 = Math.min(height, y0 + block);
    for (let y = y0; y < y1; y++) {
      let o = y * width * channels;
      if (channels === 3) {
        for (let x = 0; x < width; x++, o += 3) {
          const t = binOf[x]!;
          sums[t]! += data[o]!;
          sums[t + 1]! += data[o + 1]!;
          sums[t + 2]! += data[o + 2]!;
        }
      } else {
        for (let x = 0; x < width; x++, o += channels) {
          const t = binOf[x]!;
          const red = data[o]!;
          sums[t]! += red;
          sums[t + 1]! += channels >= 3 ? data[o + 1]! : red;
          sums[t + 2]! += channels >= 3 ? data[o + 2]! : red;
        }
      }
    }
    for (let ox = 0; ox < outWidth; ox++) {
      const count = (Math.min(width, (ox + 1) * block) - ox * block) * (y1 - y0);
      const t = (oy * outWidth + ox) * 3;
      out[t] = Math.round(sums[ox * 3]! / count);
      out[t + 1] = Math.round(sums[ox * 3 + 1]! / count);
      out[t + 2] = Math.round(sums[ox * 3 + 2]! / count);
    }
  }
  return { data: out, width: outWidth, height: outHeight, channels: 3 };
}

/** BT.601 luma, 0–255. */
export function greyPlane(image: RawImage): GreyPlane {
  const { width, height, channels, data } = image;
  const grey = new Float32Array(width * height);
  for (let i = 0, o = 0; i < grey.length; i++, o += channels) {
    grey[i] = channels >= 3 ? 0.299 * data[o]! + 0.587 * data[o + 1]! + 0.114 * data[o + 2]! : data[o]!;
  }
  return { data: grey, width, height };
}

function clampByte(v: number): number {
  return v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
}

function weights(source: number, target: number): { start: number; values: Float32Array }[] {
  const scale = target / source;
  const support = Math.max(1, 1 / scale);
  const out: { start: number; values: Float32Array }[] = [];
  for (let i = 0; i < target; i++) {
    const centre = (i + 0.5) / scale - 0.5;
    const start = Math.max(0, Math.ceil(centre - support));
    const end = Math.min(source - 1, Math.floor(centre + support));
    const values = new Float32Array(Math.max(1, end - start + 1));
    let sum = 0;
    for (let j = start; j <= end; j++) {
      const w = Math.max(0, 1 - Math.abs(j - centre) / support);
      values[j - start] = w;
      sum += w;
    }
    if (sum === 0) {
      const nearest = Math.min(source - 1, Math.max(0, Math.round(centre)));
      out.push({ start: nearest, values: Float32Array.of(1) });
      continue;
    }
    for (let k = 0; k < values.length; k++) values[k]! /= sum;
    out.push({ start, values });
  }
  return out;
}
