import sharp from 'sharp';
import { AppError } from '../../errors.js';
import type { Config } from '../../config/config.js';
import type { RawImage } from '../../vision/raw-image.js';

/** Classical Lanczos-3 resampling: a real upscale, and the fallback engine when no model is installed. */
export async function lanczosUpscale(image: RawImage, scale: number): Promise<RawImage> {
  const { data, info } = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: image.channels },
  })
    .resize(image.width * scale, image.height * scale, { kernel: 'lanczos3', fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as RawImage['channels'] };
}

/** Refuses, before any work, an output above the configured pixel limit, and says which input would fit. */
export function checkUpscaleOutput(size: { width: number; height: number }, scale: number, config: Config): void {
  const outputPixels = size.width * scale * size.height * scale;
  const limit = config.image.maxOutputPixels;
  if (outputPixels <= limit) return;
  const largestInputPixels = Math.floor(limit / (scale * scale));
  const aspect = size.width / size.height;
  const largestHeight = Math.floor(Math.sqrt(largestInputPixels / aspect));
  const largestWidth = Math.floor(largestHeight * aspect);
  throw new AppError(
    'output_too_large',
    400,
    `×${scale} of a ${size.width}×${size.height} image would give ${(outputPixels / 1e6).toFixed(1)} MP, above the ` +
      `${(limit / 1e6).toFixed(0)} MP limit; the largest input accepted at ×${scale} is ` +
      `${(largestInputPixels / 1e6).toFixed(2)} MP (${largestWidth}×${largestHeight} at this aspect ratio)`,
  );
}
