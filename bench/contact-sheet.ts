/**
 * Contact sheets of the benchmarks that show photos before and after: a row of images side by side under a caption,
 * and the rows stacked into one JPEG.
 */
import sharp from 'sharp';
import type { RawImage } from '../src/vision/raw-image.js';

/** The images (3-channel) side by side at `height` px, 6 px apart, under a yellow caption. */
export async function sheetRow(images: RawImage[], caption: string, height = 300): Promise<Buffer> {
  const tiles = await Promise.all(images.map((image) => sharp(Buffer.from(image.data), { raw: { width: image.width, height: image.height, channels: 3 } }).resize({ height }).png().toBuffer()));
  const widths = await Promise.all(tiles.map(async (tile) => (await sharp(tile).metadata()).width!));
  const total = widths.reduce((sum, w) => sum + w, 0) + (images.length - 1) * 6;
  const label = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="20"><rect width="100%" height="100%" fill="#000"/><text x="4" y="14" font-family="sans-serif" font-size="12" fill="#ff0">${caption.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text></svg>`,
  );
  let left = 0;
  const placed = tiles.map((input, k) => {
    const at = left;
    left += widths[k]! + 6;
    return { input, left: at, top: 22 };
  });
  return sharp({ create: { width: total, height: height + 22, channels: 3, background: '#000' } })
    .composite([{ input: label, left: 0, top: 0 }, ...placed])
    .png()
    .toBuffer();
}

/** The rows stacked top to bottom, 4 px apart, written as a JPEG to `file`. */
export async function writeSheet(rows: Buffer[], file: string): Promise<void> {
  const sizes = await Promise.all(rows.map(async (row) => sharp(row).metadata()));
  let top = 0;
  const placed = rows.map((input, k) => {
    const at = top;
    top += sizes[k]!.height! + 4;
    return { input, left: 0, top: at };
  });
  await sharp({ create: { width: Math.max(...sizes.map((m) => m.width!)), height: top, channels: 3, background: '#000' } }).composite(placed).jpeg({ quality: 80 }).toFile(file);
}
