import { smoothstep } from '../shaping.js';
import { boxMean } from '../box-filter.js';
import { lumaOf, type ColourPlanes } from '../colour-planes.js';

/** Per-pixel evidence for "this is sky", computed at the working resolution. */
export interface SkyCues {
  width: number;
  height: number;
  /** Local mean of |Laplacian| of the lightly smoothed luma and blue–yellow chroma. */
  texture: Float32Array;
  /** 0…1: bright enough × sky-coloured × smooth, and 0 where the image is mostly transparent (no colour to judge). */
  likelihood: Float32Array;
}

export interface SkyCueOptions {
  /**
   * Brightest channel at which the brightness cue starts and reaches 1. Default [0.3, 0.55]. The brightest channel
   * rather than luma: a deep blue zenith is dark in luma but not in its blue channel.
   */
  brightness?: [number, number];
  /** Chroma (max − min channel) over which a non-blue pixel stops counting as neutral grey. Default [0.06, 0.16]. */
  neutralChroma?: [number, number];
  /** Hue range in degrees that counts as sky blue (cyan to violet-blue). Default [180, 250], softened by 20° on each side. */
  blueHue?: [number, number];
  /** Texture over which the smoothness cue falls from 1 to 0. Default [0.004, 0.016]. */
  texture?: [number, number];
  /** Radius of the texture window in working pixels. Default 2. */
  textureRadius?: number;
}

const DEFAULTS: Required<SkyCueOptions> = {
  brightness: [0.3, 0.55],
  neutralChroma: [0.06, 0.16],
  blueHue: [180, 250],
  texture: [0.004, 0.016],
  textureRadius: 2,
};

const HUE_SOFTNESS_DEG = 20;

export function computeSkyCues(planes: ColourPlanes, options: SkyCueOptions = {}): SkyCues {
  const settings = { ...DEFAULTS, ...options };
  const { width, height, r, g, b } = planes;
  const luma = lumaOf(planes);
  const texture = textureOf(planes, luma, settings.textureRadius);
  const likelihood = new Float32Array(luma.length);
  for (let i = 0; i < likelihood.length; i++) {
    const red = r[i]!;
    const green = g[i]!;
    const blue = b[i]!;
    const max = Math.max(red, green, blue);
    const chroma = max - Math.min(red, green, blue);
    const brightness = smoothstep(settings.brightness[0], settings.brightness[1], max);
    const blueness = blueHueScore(hueDegrees(red, green, blue, max, chroma), settings.blueHue) * smoothstep(0.02, 0.06, chroma);
    const neutral = 1 - smoothstep(settings.neutralChroma[0], settings.neutralChroma[1], chroma);
    const colour = blueness + (1 - blueness) * neutral;
    const smooth = 1 - smoothstep(settings.texture[0], settings.texture[1], texture[i]!);
    const opaque = !planes.opacity || planes.opacity[i]! >= 0.5;
    likelihood[i] = opaque ? brightness * colour * smooth : 0;
  }
  return { width, height, texture, likelihood };
}

function hueDegrees(red: number, green: number, blue: number, max: number, chroma: number): number {
  if (chroma <= 0) return 0;
  let hue: number;
  if (max === red) hue = ((green - blue) / chroma) % 6;
  else if (max === green) hue = (blue - red) / chroma + 2;
  else hue = (red - green) / chroma + 4;
  return (hue * 60 + 360) % 360;
}

function blueHueScore(hue: number, [low, high]: [number, number]): number {
  if (hue >= low && hue <= high) return 1;
  const distance = hue < low ? low - hue : hue - high;
  return Math.max(0, 1 - distance / HUE_SOFTNESS_DEG);
}

/**
 * Second derivatives rather than gradients: a sky may ramp steadily toward the horizon (a first derivative that
 * never vanishes) but it does not bend sharply, while foliage, brick and branches do at every pixel.
 */
function textureOf(planes: ColourPlanes, luma: Float32Array, radius: number): Float32Array {
  const { width, height } = planes;
  const chroma = new Float32Array(luma.length);
  for (let i = 0; i < chroma.length; i++) chroma[i] = planes.b[i]! - (planes.r[i]! + planes.g[i]!) / 2;
  const smoothLuma = boxMean(luma, width, height, 1);
  const smoothChroma = boxMean(chroma, width, height, 1);
  const curvature = new Float32Array(luma.length);
  for (let y = 0; y < height; y++) {
    const up = Math.max(0, y - 1) * width;
    const row = y * width;
    const down = Math.min(height - 1, y + 1) * width;
    for (let x = 0; x < width; x++) {
      const left = row + Math.max(0, x - 1);
      const right = row + Math.min(width - 1, x + 1);
      const centre = row + x;
      const lumaLaplacian = smoothLuma[up + x]! + smoothLuma[down + x]! + smoothLuma[left]! + smoothLuma[right]! - 4 * smoothLuma[centre]!;
      const chromaLaplacian =
        smoothChroma[up + x]! + smoothChroma[down + x]! + smoothChroma[left]! + smoothChroma[right]! - 4 * smoothChroma[centre]!;
      curvature[centre] = Math.abs(lumaLaplacian) + Math.abs(chromaLaplacian);
    }
  }
  return boxMean(curvature, width, height, radius);
}
