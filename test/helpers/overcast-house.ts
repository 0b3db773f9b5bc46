import sharp from 'sharp';

export interface OvercastHouse {
  png: Buffer;
  /** RGB, row by row. */
  pixels: Buffer;
  width: number;
  height: number;
  /** The roofline's row at column x: sky above it, brick from it down. */
  roof: (x: number) => number;
}

/**
 * A brick house under a flat overcast sky (the enhancer's and sunshine's test scene): the sky pale grey and smooth,
 * the house below a gabled roofline textured and darker.
 */
export async function overcastHouse(): Promise<OvercastHouse> {
  const width = 240;
  const height = 180;
  const roof = (x: number) => 80 + Math.abs(x - 120) * 0.4;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      if (y < roof(x)) {
        const v = 205 + Math.round((y / roof(x)) * 12);
        pixels.set([v, v + 1, v + 3], i);
      } else {
        const brick = ((x >> 3) + (y >> 2)) % 2 ? 20 : 0;
        pixels.set([110 + brick, 72 + brick / 2, 58], i);
      }
    }
  }
  return { png: await sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer(), pixels, width, height, roof };
}
