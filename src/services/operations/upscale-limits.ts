import { AppError } from '../../errors.js';
import type { Config } from '../../config/config.js';

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
