import type { RawImage } from '../raw-image.js';

export interface SharpenOptions {
  /** Share of the detail (luma minus its blur) added back. 0 turns sharpening off. Default 0.5. */
  amount: number;
  /** Standard deviation, in pixels, of the blur that defines detail: the scale of the edges sharpened. Default 1. */
  sigma: number;
  /** Detail within this many noise standard deviations of zero is taken for noise and left alone. Default 2.5. */
  noiseThreshold: number;
  /** Largest change of a pixel, in 8-bit codes: strong edges get no more, so they gain no visible halo. Default 8. */
  maxStep: number;
}

export const DEFAULT_SHARPEN: SharpenOptions = { amount: 0.5, sigma: 1, noiseThreshold: 2.5, maxStep: 8 };

export interface SharpenReport {
  /** Estimated noise of the luma, standard deviation in 8-bit codes. */
  noiseSigma: number;
  /** Detail magnitude, in codes, below which nothing is sharpened. */
  threshold: number;
}

/** Quantisation alone leaves about this much "noise": the threshold never goes below it. */
const MIN_THRESHOLD = 1;
/** Codes a sharpened channel may reach unless it was already beyond: 254–255 count as clipped, 0–2 as crushed. */
const UNCLIPPED_CEILING = 253;
const UNCRUSHED_FLOOR = 3;

/**
 * Unsharp mask on luma with coring: the same change is added to every colour channel, so edges get crisper
 * without colour fringes, and detail weaker than the estimated noise is not amplified. Changes `image` in place;
 * alpha is left alone.
 */
export function sharpenInPlace(image: RawImage, options: SharpenOptions): SharpenReport {
  const { width, height, channels, data } = image;
  const luma = lumaPlane(image);
  const noiseSigma = estimateNoiseSigma(luma, width, height);
  const threshold = Math.max(MIN_THRESHOLD, options.noiseThreshold * noiseSigma);
  if (options.amount <= 0) return { noiseSigma, threshold };

  const kernel = gaussianKernel(options.sigma);
  const radius = (kernel.length - 1) / 2;
  const horizontal = blurRows(luma, width, height, kernel);
  const blurredRow = new Float32Array(width);
  const colourChannels = channels >= 3 ? 3 : 1;
  for (let y = 0; y < height; y++) {
    blurredRow.fill(0);
    for (let k = -radius; k <= radius; k++) {
      const source = Math.min(height - 1, Math.max(0, y + k)) * width;
      const weight = kernel[k + radius]!;
      for (let x = 0; x < width; x++) blurredRow[x]! += weight * horizontal[source + x]!;
    }
    for (let x = 0; x < width; x++) {
      const detail = luma[y * width + x]! - blurredRow[x]!;
      const magnitude = Math.abs(detail) - threshold;
      if (magnitude <= 0) continue;
      const step = Math.min(options.maxStep, options.amount * magnitude) * Math.sign(detail);
      const offset = (y * width + x) * channels;
      for (let c = 0; c < colourChannels; c++) {
        const before = data[offset + c]!;
        // Sharpening may steepen an edge but must not be what blows a highlight or crushes a shadow.
        const ceiling = Math.max(before, UNCLIPPED_CEILING);
        const floor = Math.min(before, UNCRUSHED_FLOOR);
        data[offset + c] = Math.round(Math.min(ceiling, Math.max(floor, before + step)));
      }
    }
  }
  return { noiseSigma, threshold };
}

/** Rec. 709 luma of the encoded values, in codes (fixed point, weights × 2^16). */
function lumaPlane(image: RawImage): Uint8Array {
  const { width, height, channels, data } = image;
  const luma = new Uint8Array(width * height);
  if (channels < 3) {
    for (let i = 0; i < luma.length; i++) luma[i] = data[i * channels]!;
    return luma;
  }
  for (let i = 0, offset = 0; i < luma.length; i++, offset += channels) {
    luma[i] = (13933 * data[offset]! + 46871 * data[offset + 1]! + 4732 * data[offset + 2]! + 32768) >> 16;
  }
  return luma;
}

/**
 * Immerkær's estimator made robust: the 3×3 Laplacian difference N responds to noise with 6σ and to smooth shading
 * with nothing; the median of |N * I| (rather than its mean) also ignores the edges that would inflate it.
 */
function estimateNoiseSigma(luma: Uint8Array, width: number, height: number): number {
  if (width < 3 || height < 3) return 0;
  const histogram = new Uint32Array(16 * 255 + 1);
  let count = 0;
  for (let y = 1; y < height - 1; y++) {
    const row = y * width;
    for (let x = 1; x < width - 1; x++) {
      const i = row + x;
      const response =
        luma[i - width - 1]! - 2 * luma[i - width]! + luma[i - width + 1]! -
        2 * luma[i - 1]! + 4 * luma[i]! - 2 * luma[i + 1]! +
        luma[i + width - 1]! - 2 * luma[i + width]! + luma[i + width + 1]!;
      histogram[Math.abs(response)]!++;
      count++;
    }
  }
  let seen = 0;
  for (let value = 0; value < histogram.length; value++) {
    seen += histogram[value]!;
    if (seen * 2 >= count) return value / (0.6745 * 6);
  }
  return 0;
}

function gaussianKernel(sigma: number): Float32Array {
  const radius = Math.max(1, Math.ceil(3 * sigma));
  const weights = Array.from({ length: 2 * radius + 1 }, (_, i) => Math.exp(-((i - radius) ** 2) / (2 * sigma * sigma)));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return Float32Array.from(weights, (weight) => weight / total);
}

function blurRows(plane: Uint8Array, width: number, height: number, kernel: Float32Array): Float32Array {
  const radius = (kernel.length - 1) / 2;
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      let sum = 0;
      if (x >= radius && x < width - radius) {
        for (let k = 0; k < kernel.length; k++) sum += kernel[k]! * plane[row + x - radius + k]!;
      } else {
        for (let k = -radius; k <= radius; k++) sum += kernel[k + radius]! * plane[row + Math.min(width - 1, Math.max(0, x + k))]!;
      }
      out[row + x] = sum;
    }
  }
  return out;
}
