import sharp from 'sharp';
import type { RawImage } from '../vision/raw-image.js';

/**
 * Resamples to exactly width × height (aspect ratio not kept) with libvips's bicubic kernel (Catmull-Rom), on 8-bit
 * pixels; the result has the input's channels.
 */
export async function resizeBicubic(image: RawImage, width: number, height: number): Promise<RawImage> {
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .resize(width, height, { kernel: 'cubic', fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as RawImage['channels'] };
}
