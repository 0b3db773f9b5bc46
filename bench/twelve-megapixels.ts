import sharp from 'sharp';
import type { RawImage } from '../src/vision/raw-image.js';
import { TWELVE_MEGAPIXELS } from './shared-photos.js';

/** The photo resized with Lanczos (sharp's lanczos3) to about 12 megapixels, up or down, keeping its aspect ratio and channels. */
export async function resizeToTwelveMegapixels(image: RawImage): Promise<RawImage> {
  const scale = Math.sqrt(TWELVE_MEGAPIXELS / (image.width * image.height));
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .resize(Math.round(image.width * scale), Math.round(image.height * scale), { kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, channels: image.channels };
}
