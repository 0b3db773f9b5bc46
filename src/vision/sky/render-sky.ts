import type { Sky } from '../../catalog/catalog.js';
import { srgbToLinear } from '../colour.js';
import { smoothstep } from '../shaping.js';

export interface RenderSkyOptions {
  /** Row (0 = top, may be fractional) where the sky meets the horizon; lower rows repeat the horizon. Default: height. */
  horizonRow?: number;
  /** Seed of the cloud pattern and of the side the sun is on. Default 1. */
  seed?: number;
}

/** A rendered sky in linear light, three planes of `width × height`. */
export interface LinearSky {
  width: number;
  height: number;
  r: Float32Array;
  g: Float32Array;
  b: Float32Array;
}

/**
 * How many degrees of elevation the frame's sky spans from the horizon row to the top row. Photos of houses are taken
 * with normal lenses held level, so the top of the frame is some 25–35° above the horizon; 40° keeps the zenith colour
 * within reach at the top without pretending the frame shows the whole dome.
 */
const SKY_SPAN_DEG = 40;
/**
 * Clouds fade into the haze between these elevations: far-off clouds are low-contrast, and their ever smaller texture
 * would otherwise alias.
 */
const CLOUD_FADE_DEG: [number, number] = [3, 14];
const CLOUD_OCTAVES = 5;
/** Cloud features near the top of the frame are about a third of the image height across. */
const CLOUD_FREQUENCY = 2.2;

/**
 * A sky from a catalog entry at exactly `width × height`, in linear light (replaceSky enlarges it to the photo): a
 * zenith-to-horizon gradient (steepest near the horizon, as real skies are), fractal-noise clouds on a receding layer
 * (large overhead, small and flattened toward the horizon) covering `cloudCover` of the sky with edges as soft as
 * `cloudSoftness`, and a broad warm glow on the sun's side that is stronger when the sun is low. Deterministic: the
 * same sky, size and seed give the same values, and the same seed gives the same clouds at any resolution.
 */
export function renderLinearSky(sky: Sky, width: number, height: number, options: RenderSkyOptions = {}): LinearSky {
  const seed = options.seed ?? 1;
  const horizonRow = Math.max(1, options.horizonRow ?? height);
  const zenith = hexToLinear(sky.zenith);
  const horizon = hexToLinear(sky.horizon);
  const elevation = new Float32Array(height);
  for (let y = 0; y < height; y++) elevation[y] = Math.max(0, ((horizonRow - (y + 0.5)) / horizonRow) * SKY_SPAN_DEG);

  const cloudDensity = sky.cloudCover > 0 ? cloudsOf(sky, width, height, elevation, seed) : undefined;
  // The sun sits toward one side, chosen by the seed; its height follows its elevation on the same angular scale.
  const sunX = (hash(seed, 7, 11) < 0.5 ? 0.2 : 0.8) * width;
  const sunY = horizonRow - (sky.sunElevationDeg / SKY_SPAN_DEG) * horizonRow;
  const glowStrength = 0.04 + 0.16 * (1 - sky.sunElevationDeg / 90);
  const glowColour = [1, 0.93, 0.8];
  const glowRadius = 0.5 * height;

  const r = new Float32Array(width * height);
  const g = new Float32Array(width * height);
  const b = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const t = Math.min(1, elevation[y]! / SKY_SPAN_DEG);
    // Steep near the horizon: most of the paling happens in the last few degrees above it.
    const mix = 1 - (1 - t) * (1 - t);
    const base = [0, 1, 2].map((c) => horizon[c]! + (zenith[c]! - horizon[c]!) * mix);
    const cloudFade = smoothstep(CLOUD_FADE_DEG[0], CLOUD_FADE_DEG[1], elevation[y]!);
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      let red = base[0]!, green = base[1]!, blue = base[2]!;
      if (cloudDensity) {
        const density = cloudDensity.density[i]! * cloudFade;
        const shade = cloudDensity.shade[i]!;
        // Cloud colour: white lit by the sun, greyed underneath, tinted by the sky light around it.
        const cloud = [0, 1, 2].map((c) => shade * (0.78 + 0.22 * base[c]!));
        red += (cloud[0]! - red) * density;
        green += (cloud[1]! - green) * density;
        blue += (cloud[2]! - blue) * density;
      }
      const distance = Math.hypot(x + 0.5 - sunX, y + 0.5 - sunY) / glowRadius;
      const glow = glowStrength * Math.exp(-distance * distance);
      r[i] = red + glow * glowColour[0]!;
      g[i] = green + glow * glowColour[1]!;
      b[i] = blue + glow * glowColour[2]!;
    }
  }
  return { width, height, r, g, b };
}

interface Clouds {
  density: Float32Array;
  shade: Float32Array;
}

function cloudsOf(sky: Sky, width: number, height: number, elevation: Float32Array, seed: number): Clouds {
  const noise = new Float32Array(width * height);
  const above = new Float32Array(width * height);
  const histogram = new Float64Array(512);
  let counted = 0;
  for (let y = 0; y < height; y++) {
    const degrees = elevation[y]!;
    // A flat cloud layer seen from the ground: its distance grows as 1/sin(elevation), so clouds shrink and flatten
    // toward the horizon. Coordinates are in image heights so that the clouds do not depend on the resolution.
    if (degrees <= CLOUD_FADE_DEG[0]) continue;
    const depth = 1 / Math.sin((degrees * Math.PI) / 180);
    const depthAbove = 1 / Math.sin(((degrees + 3) * Math.PI) / 180);
    for (let x = 0; x < width; x++) {
      const across = (x + 0.5 - width / 2) / height;
      const i = y * width + x;
      noise[i] = fractalNoise(across * depth * CLOUD_FREQUENCY, depth * CLOUD_FREQUENCY * 1.8, seed);
      above[i] = fractalNoise(across * depthAbove * CLOUD_FREQUENCY, depthAbove * CLOUD_FREQUENCY * 1.8, seed);
      histogram[Math.min(511, Math.floor(noise[i]! * 512))]! += 1;
      counted++;
    }
  }
  // The threshold is the noise's own quantile, so about cloudCover of the sky lies under a cloud, thin edges included.
  const threshold = quantile(histogram, counted, 1 - sky.cloudCover);
  const softness = 0.03 + 0.15 * sky.cloudSoftness;
  const density = new Float32Array(width * height);
  const shade = new Float32Array(width * height);
  for (let i = 0; i < noise.length; i++) {
    if (noise[i] === 0) continue;
    // Squared: a cloud thins out gradually toward its edge instead of ending in a cut-out rim.
    const cover = smoothstep(threshold - softness * 0.5, threshold + softness * 1.5, noise[i]!);
    density[i] = cover * cover * 0.92;
    // Denser above than here: this is a cloud's underside, in its own shadow.
    shade[i] = 0.8 + 0.2 * smoothstep(-0.06, 0.06, noise[i]! - above[i]!);
  }
  return { density, shade };
}

function quantile(histogram: Float64Array, count: number, fraction: number): number {
  let cumulative = 0;
  for (let bin = 0; bin < histogram.length; bin++) {
    cumulative += histogram[bin]!;
    if (cumulative >= fraction * count) return (bin + 1) / histogram.length;
  }
  return 1;
}

/** Sum of octaves of value noise, normalised to about [0, 1] (mean 0.5). */
function fractalNoise(x: number, y: number, seed: number): number {
  let sum = 0;
  let amplitude = 0.5;
  let frequency = 1;
  let total = 0;
  for (let octave = 0; octave < CLOUD_OCTAVES; octave++) {
    sum += amplitude * valueNoise(x * frequency, y * frequency, seed + octave * 131);
    total += amplitude;
    amplitude *= 0.5;
    frequency *= 2.03; // not exactly 2, so that octaves do not share lattice lines
  }
  return sum / total;
}

function valueNoise(x: number, y: number, seed: number): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const sx = fx * fx * fx * (fx * (fx * 6 - 15) + 10);
  const sy = fy * fy * fy * (fy * (fy * 6 - 15) + 10);
  const a = hash(x0, y0, seed);
  const b = hash(x0 + 1, y0, seed);
  const c = hash(x0, y0 + 1, seed);
  const d = hash(x0 + 1, y0 + 1, seed);
  const top = a + (b - a) * sx;
  const bottom = c + (d - c) * sx;
  return top + (bottom - top) * sy;
}

/** Integer hash of a lattice point to [0, 1). */
function hash(x: number, y: number, seed: number): number {
  let h = Math.imul(x | 0, 374761393) ^ Math.imul(y | 0, 668265263) ^ Math.imul(seed | 0, 2147483647);
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

function hexToLinear(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255].map((byte) => srgbToLinear(byte / 255)) as [number, number, number];
}
