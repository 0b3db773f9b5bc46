import { resizeBicubic } from '../../repositories/image-resize.js';
import type { RawImage } from '../../vision/raw-image.js';

/**
 * Iterative back-projection: nudges the upscaled image until, downscaled again, it gives back the input. Costs two
 * resamplings per iteration and measurably raises fidelity (docs/benchmarks.md, upscaling quality).
 */
export async function backProject(input: RawImage, upscaled: RawImage, iterations: number): Promise<RawImage> {
  let current = upscaled;
  for (let i = 0; i < iterations; i++) {
    const down = await resizeBicubic(current, input.width, input.height);
    // The error is signed; offset by 128 to carry it through 8-bit resampling.
    const error = new Uint8Array(input.data.length);
    for (let k = 0; k < error.length; k++) error[k] = Math.max(0, Math.min(255, 128 + input.data[k]! - down.data[k]!));
    const up = await resizeBicubic({ ...input, data: error }, current.width, current.height);
    const data = new Uint8Array(current.data.length);
    for (let k = 0; k < data.length; k++) data[k] = Math.max(0, Math.min(255, current.data[k]! + up.data[k]! - 128));
    current = { ...current, data };
  }
  return current;
}
