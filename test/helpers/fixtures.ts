import zlib from 'node:zlib';
import sharp from 'sharp';

/** A small photo-like test image: a horizontal colour gradient with a dark square, so resampling has edges to keep. */
export async function makeImage(
  width: number,
  height: number,
  format: 'jpeg' | 'png' | 'webp' = 'png',
  options: { alpha?: boolean; lossless?: boolean } = {},
): Promise<Buffer> {
  const channels = options.alpha ? 4 : 3;
  const pixels = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * channels;
      const inSquare = x > width / 4 && x < width / 2 && y > height / 4 && y < height / 2;
      pixels[i] = inSquare ? 20 : Math.round((255 * x) / Math.max(1, width - 1));
      pixels[i + 1] = inSquare ? 20 : Math.round((255 * y) / Math.max(1, height - 1));
      pixels[i + 2] = inSquare ? 20 : 128;
      if (options.alpha) pixels[i + 3] = x < width / 2 ? 255 : 96;
    }
  }
  const image = sharp(pixels, { raw: { width, height, channels } });
  if (format === 'jpeg') return image.jpeg({ quality: 95 }).toBuffer();
  if (format === 'webp') return image.webp({ lossless: options.lossless ?? false }).toBuffer();
  return image.png().toBuffer();
}

export function dataUrl(bytes: Buffer, contentType = 'image/png'): string {
  return `data:${contentType};base64,${bytes.toString('base64')}`;
}

export /**
 * A valid PNG header declaring width × height, followed by far too little pixel data to decode: a decompression
 * bomb's shape, and proof that a size check read only the header.
 */
function headerOnlyPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
