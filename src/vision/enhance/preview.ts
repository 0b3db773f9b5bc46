import type { RawImage } from '../raw-image.js';
import { LINEAR_OF_BYTE, LUMINANCE_WEIGHTS } from '../colour.js';

/**
 * Floor added to luminance before taking its logarithm: about sRGB code 3. Below it differences are sensor noise,
 * and without it the log domain would stretch them into the widest range of the image.
 */
export const LUMINANCE_FLOOR = 1e-3;

/** An 8-bit code at or above which a channel counts as at the sensor's ceiling for the estimators. */
const NEAR_CLIPPED_CODE = 250;

/**
 * The image reduced by averaging square blocks, in linear light: every estimate (white balance, exposure,
 * the tone-mapping base layer) is made here, at a few hundred thousand pixels whatever the photo's size.
 */
export interface Preview {
  width: number;
  height: number;
  /** Side, in full-resolution pixels, of the block behind one preview pixel. */
  block: number;
  /** Mean linear channel values; for greyscale input the three are the same plane. */
  red: Float32Array;
  green: Float32Array;
  blue: Float32Array;
  /** Mean of ln(luminance + LUMINANCE_FLOOR) over the block: the guide the full-resolution pass reproduces. */
  logLuminance: Float32Array;
  /** Share of the block's pixels with a channel at or above code 250, whose colour says little about the light. */
  nearClipped: Float32Array;
  /**
   * Mean opacity of the block (0–1), or null for an image without alpha. Estimators skip mostly transparent blocks:
   * the colour under a transparent pixel is not part of the picture.
   */
  coverage: Float32Array | null;
}

/** Whether preview pixel `index` is mostly visible. */
export function isVisible(preview: Preview, index: number): boolean {
  return preview.coverage === null || preview.coverage[index]! >= 0.5;
}

/** Per-byte luminance contributions of each channel, so that a pixel's luminance is three lookups and two adds. */
const LUMINANCE_OF_RED = LINEAR_OF_BYTE.map((value) => value * LUMINANCE_WEIGHTS[0]);
const LUMINANCE_OF_GREEN = LINEAR_OF_BYTE.map((value) => value * LUMINANCE_WEIGHTS[1]);
const LUMINANCE_OF_BLUE = LINEAR_OF_BYTE.map((value) => value * LUMINANCE_WEIGHTS[2]);

/**
 * ln(luminance + LUMINANCE_FLOOR) on 2^14 steps of luminance: interpolated, it is within 5·10⁻⁴ of the logarithm
 * even in the deepest shadows, and it spares a logarithm per pixel in both full-resolution passes.
 */
const LOG_STEPS = 1 << 14;
const LOG_OF_LUMINANCE_STEP = Float32Array.from({ length: LOG_STEPS + 2 }, (_, step) => Math.log(step / LOG_STEPS + LUMINANCE_FLOOR));

/** ln(luminance + LUMINANCE_FLOOR) of the pixel at byte `offset`: its colour channels, or its grey channel. */
export function logLuminanceAt(data: Uint8Array, offset: number, colour: boolean): number {
  const luminance = colour
    ? LUMINANCE_OF_RED[data[offset]!]! + LUMINANCE_OF_GREEN[data[offset + 1]!]! + LUMINANCE_OF_BLUE[data[offset + 2]!]!
    : LINEAR_OF_BYTE[data[offset]!]!;
  const position = Math.min(LOG_STEPS, luminance * LOG_STEPS);
  const step = position | 0;
  const low = LOG_OF_LUMINANCE_STEP[step]!;
  return low + (position - step) * (LOG_OF_LUMINANCE_STEP[step + 1]! - low);
}

/** Reduces `image` so that the preview has at most about `maxPixels` pixels (never enlarges). */
export function buildPreview(image: RawImage, maxPixels: number): Preview {
  const { width, height, channels, data } = image;
  const colour = channels >= 3;
  const alphaChannel = channels === 2 || channels === 4 ? channels - 1 : -1;
  const block = Math.max(1, Math.ceil(Math.sqrt((width * height) / maxPixels)));
  const previewWidth = Math.ceil(width / block);
  const previewHeight = Math.ceil(height / block);
  const size = previewWidth * previewHeight;
  const red = new Float32Array(size);
  const green = colour ? new Float32Array(size) : red;
  const blue = colour ? new Float32Array(size) : red;
  const logLuminance = new Float32Array(size);
  const nearClipped = new Float32Array(size);
  const coverage = alphaChannel >= 0 ? new Float32Array(size) : null;
  const counts = new Uint32Array(size);

  const columnCell = Int32Array.from({ length: width }, (_, x) => Math.floor(x / block));
  for (let y = 0; y < height; y++) {
    const previewRow = Math.floor(y / block) * previewWidth;
    let offset = y * width * channels;
    for (let x = 0; x < width; x++, offset += channels) {
      const cell = previewRow + columnCell[x]!;
      const r = data[offset]!;
      if (colour) {
        const g = data[offset + 1]!;
        const b = data[offset + 2]!;
        red[cell]! += LINEAR_OF_BYTE[r]!;
        green[cell]! += LINEAR_OF_BYTE[g]!;
        blue[cell]! += LINEAR_OF_BYTE[b]!;
        if (r >= NEAR_CLIPPED_CODE || g >= NEAR_CLIPPED_CODE || b >= NEAR_CLIPPED_CODE) nearClipped[cell]!++;
      } else {
        red[cell]! += LINEAR_OF_BYTE[r]!;
        if (r >= NEAR_CLIPPED_CODE) nearClipped[cell]!++;
      }
      logLuminance[cell]! += logLuminanceAt(data, offset, colour);
      if (coverage) coverage[cell]! += data[offset + alphaChannel]! / 255;
      counts[cell]!++;
    }
  }
  for (let cell = 0; cell < size; cell++) {
    const count = counts[cell]!;
    red[cell]! /= count;
    if (colour) {
      green[cell]! /= count;
      blue[cell]! /= count;
    }
    logLuminance[cell]! /= count;
    nearClipped[cell]! /= count;
    if (coverage) coverage[cell]! /= count;
  }
  return { width: previewWidth, height: previewHeight, block, red, green, blue, logLuminance, nearClipped, coverage };
}
