import { boxMean } from '../box-filter.js';
import { byteOfLinear, fitIntoGamut, LINEAR_OF_BYTE, LUMINANCE_WEIGHTS } from '../colour.js';
import { bilinearSampler, type ColourPlanes } from '../colour-planes.js';
import type { RawImage } from '../raw-image.js';
import { Random } from '../../random.js';
import { squaredDistanceToMask } from '../declutter/mask-shapes.js';
import { selfGuidedCoefficients } from '../self-guided-filter.js';

/** A plane of the working copy, carried to the photo's pixels by bilinear interpolation. */
export interface WorkingPlane {
  width: number;
  height: number;
  values: Float32Array;
}

/**
 * The surface's opacity at the working size: 1 inside, falling to 0 over `feather` cells inside the mask's outline, 0
 * outside. The ramp lies inside the mask, so that a pixel the mask left out is never touched, and the edge of the new
 * surface blends into what borders it instead of stopping on a staircase of cells (no halo, no hard seam).
 */
export function surfaceMatte(mask: Uint8Array, width: number, height: number, feather: number): WorkingPlane {
  const outside = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) outside[i] = mask[i] ? 0 : 1;
  const distance = squaredDistanceToMask(outside, width, height);
  const values = new Float32Array(mask.length);
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    values[i] = Math.min(1, (Math.sqrt(distance[i]!) - 0.5) / feather);
  }
  return { width, height, values };
}

/**
 * The light falling on the surface, as the linear luminance of its cells smoothed edge-aware: a self-guided filter on
 * log luminance flattens the paint's grain and the old material's texture of up to `radius` cells while keeping the
 * edges of shadows and sun patches. Cells off the mask take the mean of the mask's cells around them first, so that
 * furniture beside the wall does not darken the wall's light along its edge.
 */
export function surfaceShading(planes: ColourPlanes, mask: Uint8Array, radius: number, epsilon: number): WorkingPlane {
  const { width, height } = planes;
  const n = width * height;
  const logLuminance = new Float32Array(n);
  const weight = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const luminance =
      LUMINANCE_WEIGHTS[0] * LINEAR_OF_BYTE[Math.round(planes.r[i]! * 255)]! +
      LUMINANCE_WEIGHTS[1] * LINEAR_OF_BYTE[Math.round(planes.g[i]! * 255)]! +
      LUMINANCE_WEIGHTS[2] * LINEAR_OF_BYTE[Math.round(planes.b[i]! * 255)]!;
    logLuminance[i] = Math.log(luminance + 1e-3);
    if (mask[i]) weight[i] = 1;
  }
  const filled = fillFromMask(logLuminance, weight, width, height, radius);
  const { scale, offset } = selfGuidedCoefficients(filled, width, height, radius, epsilon);
  const values = new Float32Array(n);
  for (let i = 0; i < n; i++) values[i] = Math.exp(scale[i]! * filled[i]! + offset[i]!) - 1e-3;
  return { width, height, values };
}

/**
 * The cells' own values where `weight` is 1, elsewhere the weighted mean of the cells around them (normalised
 * convolution over growing windows until some surface cell is in reach).
 */
function fillFromMask(values: Float32Array, weight: Float32Array, width: number, height: number, radius: number): Float32Array {
  const n = width * height;
  const filled = Float32Array.from(values);
  const weighted = new Float32Array(n);
  for (let i = 0; i < n; i++) weighted[i] = values[i]! * weight[i]!;
  const done = Uint8Array.from(weight, (w) => (w > 0 ? 1 : 0));
  let remaining = done.reduce((count, d) => count + (d ? 0 : 1), 0);
  for (let r = Math.max(1, radius); remaining > 0 && r <= 4 * Math.max(width, height); r *= 3) {
    const sum = boxMean(weighted, width, height, r);
    const count = boxMean(weight, width, height, r);
    for (let i = 0; i < n; i++) {
      if (done[i] || !(count[i]! > 1e-6)) continue;
      filled[i] = sum[i]! / count[i]!;
      done[i] = 1;
      remaining--;
    }
  }
  return filled;
}

/** Computes the new surface's linear RGB at photo pixel (x, y), given the photo's own linear RGB there, into `out`. */
export type SurfaceColour = (x: number, y: number, photo: Float64Array, out: Float64Array) => void;

/**
 * The photo with the new surface blended in by the matte (carried to the photo's pixels bilinearly), in linear light.
 * A pixel the matte does not reach keeps its bytes; alpha and any pixel outside the change mask are the photo's own.
 * Grey photos come back as RGB: a new colour needs three channels. `grain` (8-bit levels) gives a generated surface
 * the photo's noise, so that it does not look cleaner than the rest of the photo.
 */
export function blendSurface(
  image: RawImage,
  matte: WorkingPlane,
  colour: SurfaceColour,
  grain?: { sigma: number; seed: number },
): { image: RawImage; changeMask: Uint8Array; changedPixels: number } {
  const { width, height, channels, data } = image;
  const outChannels = channels >= 3 ? channels : ((channels + 2) as 3 | 4);
  const alphaIn = channels === 2 || channels === 4 ? channels - 1 : -1;
  const output = new Uint8Array(width * height * outChannels);
  const changeMask = new Uint8Array(width * height);
  const sample = bilinearSampler([matte.values], matte.width, matte.height, width, height);
  const alpha = new Float64Array(1);
  const photo = new Float64Array(3);
  const surface = new Float64Array(3);
  const random = new Random(grain?.seed ?? 0);
  const noise = () => Math.sqrt(-2 * Math.log(Math.max(1e-12, random.next()))) * Math.cos(2 * Math.PI * random.next());
  let changedPixels = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      const source = p * channels;
      const target = p * outChannels;
      const grey = channels < 3;
      const r = data[source]!;
      const g = grey ? r : data[source + 1]!;
      const b = grey ? r : data[source + 2]!;
      output[target] = r;
      output[target + 1] = g;
      output[target + 2] = b;
      if (alphaIn >= 0) output[target + 3] = data[source + alphaIn]!;
      sample(x, y, alpha, 0);
      const a = alpha[0]!;
      if (!(a >= MIN_ALPHA)) continue;
      photo[0] = LINEAR_OF_BYTE[r]!;
      photo[1] = LINEAR_OF_BYTE[g]!;
      photo[2] = LINEAR_OF_BYTE[b]!;
      colour(x, y, photo, surface);
      fitIntoGamut(surface);
      const share = Math.min(1, a);
      // One grain sample for the three channels: luminance noise, as a JPEG's smoothed chroma leaves a photo's noise.
      const speck = grain && grain.sigma > 0 ? noise() * grain.sigma * share : 0;
      output[target] = encode(photo[0] + (surface[0]! - photo[0]) * share, speck);
      output[target + 1] = encode(photo[1] + (surface[1]! - photo[1]) * share, speck);
      output[target + 2] = encode(photo[2] + (surface[2]! - photo[2]) * share, speck);
      changeMask[p] = 255;
      changedPixels++;
    }
  }
  return { image: { data: output, width, height, channels: outChannels }, changeMask, changedPixels };
}

function encode(linear: number, speck: number): number {
  const code = byteOfLinear(linear);
  return speck === 0 ? code : Math.min(255, Math.max(0, Math.round(code + speck)));
}

/** Below this opacity a pixel is not touched (less than half a code of change on any colour). */
const MIN_ALPHA = 1 / 512;
