import type { Sky } from '../../catalog/catalog.js';
import { LINEAR_OF_BYTE, linearToSrgbByte } from '../colour.js';
import type { RawImage } from '../raw-image.js';

/** The strongest lift: a dull scene's mid-grey (0.18 linear) rises to about 0.21, a quarter of a stop. */
export const MAX_SUNSHINE_GAIN = 1.25;
/** A scene whose median linear luminance is this bright or brighter is not lifted at all. */
const BRIGHT_SCENE = 0.3;
/** A scene this dull or duller gets the full lift. */
const DULL_SCENE = 0.08;

export interface SunshineLift {
  /** g of the tone curve y = g·x / (1 + (g − 1)·x) in linear light: 1 leaves the scene as it is. */
  gain: number;
  /** Red raised and blue lowered by this share before the curve (the warmth of sunlight under the chosen sky). */
  warmth: number;
}

/**
 * How much the scene's light is lifted to suit a sunny sky: the duller the scene (its median luminance in linear
 * light), the more, up to MAX_SUNSHINE_GAIN; warmer for a low sun. One global curve: every pixel of the same colour
 * becomes the same colour, so walls keep their texture and colour family.
 */
export function sunshineLiftFor(image: RawImage, sky: Sky): SunshineLift {
  const { width, height, channels, data } = image;
  const histogram = new Uint32Array(256);
  const step = Math.max(1, Math.floor(Math.sqrt((width * height) / 200_000)));
  let count = 0;
  for (let y = 0; y < height; y += step) {
    for (let x = 0; x < width; x += step) {
      const o = (y * width + x) * channels;
      const luminance = 0.2126 * LINEAR_OF_BYTE[data[o]!]! + 0.7152 * LINEAR_OF_BYTE[data[o + 1]!]! + 0.0722 * LINEAR_OF_BYTE[data[o + 2]!]!;
      histogram[Math.min(255, Math.round(luminance * 255))]!++;
      count++;
    }
  }
  let seen = 0;
  let median = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v]!;
    if (seen * 2 >= count) {
      median = v / 255;
      break;
    }
  }
  const dullness = Math.min(1, Math.max(0, (BRIGHT_SCENE - median) / (BRIGHT_SCENE - DULL_SCENE)));
  const gain = 1 + (MAX_SUNSHINE_GAIN - 1) * dullness;
  // A low sun is warmer: 2 % at noon, 6 % at the horizon.
  const warmth = 0.02 + 0.04 * Math.max(0, Math.min(1, (30 - sky.sunElevationDeg) / 30));
  return { gain: Math.round(gain * 1000) / 1000, warmth: Math.round(warmth * 1000) / 1000 };
}

/** The lift applied to every pixel through one table per channel (alpha and greyscale images are left alone). */
export function applySunshineLift(image: RawImage, lift: SunshineLift): RawImage {
  if (image.channels < 3) return image;
  const tables = [1 + lift.warmth, 1, 1 - lift.warmth].map((tint) =>
    Uint8Array.from({ length: 256 }, (_, code) => {
      const x = Math.min(1, LINEAR_OF_BYTE[code]! * tint);
      return linearToSrgbByte((lift.gain * x) / (1 + (lift.gain - 1) * x));
    }),
  );
  const out = new Uint8Array(image.data);
  const { channels } = image;
  for (let o = 0; o < out.length; o += channels) {
    out[o] = tables[0]![out[o]!]!;
    out[o + 1] = tables[1]![out[o + 1]!]!;
    out[o + 2] = tables[2]![out[o + 2]!]!;
  }
  return { ...image, data: out };
}
