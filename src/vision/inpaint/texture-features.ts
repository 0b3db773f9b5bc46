import type { RawImage } from '../raw-image.js';
import { boxMean } from '../box-filter.js';

/**
 * Per pixel, the local means of |∂x| and |∂y| of the luma over a (2·radius+1)² window, times `weight`, interleaved.
 * Differences that touch a hole pixel are left out and the means are taken over the differences that remain, so the
 * features of the hole's rim describe the surface, not the edge of the hole. Hole pixels get 0 (the fill sets them).
 */
export function textureFeatures(image: RawImage, hole: Uint8Array, weight: number, radius = 2): Float32Array {
  const { width, height, data } = image;
  const luma = new Float32Array(width * height);
  for (let i = 0; i < luma.length; i++) luma[i] = 0.299 * data[3 * i]! + 0.587 * data[3 * i + 1]! + 0.114 * data[3 * i + 2]!;
  const dx = new Float32Array(width * height);
  const dy = new Float32Array(width * height);
  const validX = new Float32Array(width * height);
  const validY = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (x > 0 && x < width - 1 && !hole[i - 1] && !hole[i + 1]) {
        dx[i] = Math.abs(luma[i + 1]! - luma[i - 1]!) / 2;
        validX[i] = 1;
      }
      if (y > 0 && y < height - 1 && !hole[i - width] && !hole[i + width]) {
        dy[i] = Math.abs(luma[i + width]! - luma[i - width]!) / 2;
        validY[i] = 1;
      }
    }
  }
  const meanX = boxMean(dx, width, height, radius);
  const meanY = boxMean(dy, width, height, radius);
  const shareX = boxMean(validX, width, height, radius);
  const shareY = boxMean(validY, width, height, radius);
  const features = new Float32Array(width * height * 2);
  for (let i = 0; i < luma.length; i++) {
    if (hole[i]) continue;
    features[2 * i] = shareX[i]! > 0 ? (weight * meanX[i]!) / shareX[i]! : 0;
    features[2 * i + 1] = shareY[i]! > 0 ? (weight * meanY[i]!) / shareY[i]! : 0;
  }
  return features;
}
