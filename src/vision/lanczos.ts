import type { RawImage } from './raw-image.js';

const LOBES = 3;

function lanczos(x: number): number {
  if (x === 0) return 1;
  if (Math.abs(x) >= LOBES) return 0;
  const px = Math.PI * x;
  return (LOBES * Math.sin(px) * Math.sin(px / LOBES)) / (px * px);
}

interface Taps {
  /** First source index of each output position. */
  start: Int32Array;
  /** Normalised weights, `size` per output position. */
  weights: Float32Array;
  size: number;
}

/** Weights of each output sample over the source samples, pixel centres aligned, edges clamped. */
function taps(source: number, target: number): Taps {
  const ratio = source / target;
  // Widen the kernel when shrinking so it also filters out what the smaller grid cannot hold.
  const stretch = Math.max(1, ratio);
  const radius = LOBES * stretch;
  const size = Math.ceil(radius) * 2 + 1;
  const start = new Int32Array(target);
  const weights = new Float32Array(target * size);
  for (let i = 0; i < target; i++) {
    const centre = (i + 0.5) * ratio - 0.5;
    const first = Math.floor(centre - radius) + 1;
    start[i] = first;
    let total = 0;
    for (let k = 0; k < size; k++) {
      const w = lanczos((first + k - centre) / stretch);
      weights[i * size + k] = w;
      total += w;
    }
    for (let k = 0; k < size; k++) weights[i * size + k]! /= total;
  }
  return { start, weights, size };
}

/**
 * Separable Lanczos-3 resampling of an 8-bit image, any channel count. sharp's enlargement ignores the kernel it is
 * given (cubic, Lanczos and Mitchell come out identical), so the fallback engine and the baselines use this one.
 * Alpha is resampled like any other channel.
 */
export function resizeLanczos3(image: RawImage, width: number, height: number): RawImage {
  const { channels } = image;
  const horizontal = taps(image.width, width);
  const vertical = taps(image.height, height);
  const rows = new Float32Array(width * image.height * channels);
  for (let y = 0; y < image.height; y++) {
    const row = y * image.width;
    for (let x = 0; x < width; x++) {
      const first = horizontal.start[x]!;
      for (let c = 0; c < channels; c++) {
        let sum = 0;
        for (let k = 0; k < horizontal.size; k++) {
          const sx = Math.min(image.width - 1, Math.max(0, first + k));
          sum += horizontal.weights[x * horizontal.size + k]! * image.data[(row + sx) * channels + c]!;
        }
        rows[(y * width + x) * channels + c] = sum;
      }
    }
  }
  const data = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) {
    const first = vertical.start[y]!;
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < channels; c++) {
        let sum = 0;
        for (let k = 0; k < vertical.size; k++) {
          const sy = Math.min(image.height - 1, Math.max(0, first + k));
          sum += vertical.weights[y * vertical.size + k]! * rows[(sy * width + x) * channels + c]!;
        }
        data[(y * width + x) * channels + c] = sum <= 0 ? 0 : sum >= 255 ? 255 : Math.round(sum);
      }
    }
  }
  return { data, width, height, channels };
}
