import { boxMean } from '../box-filter.js';
import { floodFill } from '../mask-morphology.js';
import { squaredDistanceToMask } from './mask-shapes.js';
import { median } from '../robust-statistics.js';

export interface ContactShadowOptions {
  /** How far the shadow may reach from the object, as a fraction of the object's longer side. Default 0.3. */
  reach?: number;
  /** Least darkening (L* units) below the surrounding floor that counts as shadow. Default 4. */
  minDrop?: number;
  /** Darkening, in robust standard deviations of the floor's own L* variation, that counts as shadow. Default 2.5. */
  textureSigmas?: number;
  /** Largest departure (a*b* units) from the floor's chroma scaled to the darker lightness. Default 9. */
  chromaTolerance?: number;
  /** Share of the object's height, from its top, above which no shadow is taken. Default 0.5. */
  baseFrom?: number;
}

/**
 * Grows an object's mask over the shadow it casts on the floor: cells connected to the mask, in its lower part's
 * surroundings, darker than the floor around it by more than the floor's own texture explains, with the floor's chroma
 * (Lab a*, b* scale with L*+16 when only the light changes). `lab` holds 3 values per cell; `floor`, when given,
 * limits the growth to floor cells; `blocked` cells are never entered.
 */
export function growContactShadow(
  lab: Float32Array,
  width: number,
  height: number,
  mask: Uint8Array,
  options: ContactShadowOptions & { floor?: Uint8Array; blocked?: Uint8Array } = {},
): Uint8Array {
  const reachFraction = options.reach ?? 0.3;
  const minDrop = options.minDrop ?? 4;
  const sigmas = options.textureSigmas ?? 2.5;
  const chromaTolerance = options.chromaTolerance ?? 9;
  const baseFrom = options.baseFrom ?? 0.5;
  const n = width * height;
  let top = height, bottom = -1, left = width, right = -1;
  for (let i = 0; i < n; i++) {
    if (!mask[i]) continue;
    const x = i % width, y = (i - x) / width;
    if (y < top) top = y;
    if (y > bottom) bottom = y;
    if (x < left) left = x;
    if (x > right) right = x;
  }
  if (bottom < 0) return mask.slice();
  const reach = Math.max(2, reachFraction * Math.max(bottom - top + 1, right - left + 1));
  const baseRow = top + baseFrom * (bottom - top + 1);

  const radius = Math.max(1, Math.round(Math.min(width, height) / 100));
  // Everything happens beside and below the base: work on that window only.
  const x0 = Math.max(0, Math.floor(left - 1.5 * reach) - radius);
  const x1 = Math.min(width, Math.ceil(right + 1.5 * reach) + radius + 1);
  const y0 = Math.max(0, Math.floor(baseRow) - radius);
  const w = x1 - x0, h = height - y0;
  const crop = <T extends Float32Array | Uint8Array>(source: T, channels: number, make: (length: number) => T): T => {
    const out = make(w * h * channels);
    for (let y = 0; y < h; y++) out.set(source.subarray(((y0 + y) * width + x0) * channels, ((y0 + y) * width + x1) * channels), y * w * channels);
    return out;
  };
  const bytes = (length: number) => new Uint8Array(length);
  const grown = growInWindow(
    crop(lab, 3, (length) => new Float32Array(length)),
    w,
    h,
    crop(mask, 1, bytes),
    options.floor ? crop(options.floor, 1, bytes) : undefined,
    options.blocked ? crop(options.blocked, 1, bytes) : undefined,
    { reach, baseRow: baseRow - y0, radius, minDrop, sigmas, chromaTolerance },
  );
  const result = mask.slice();
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (grown[y * w + x]) result[(y0 + y) * width + x0 + x] = 1;
  return result;
}

interface WindowParameters {
  reach: number;
  baseRow: number;
  radius: number;
  minDrop: number;
  sigmas: number;
  chromaTolerance: number;
}

function growInWindow(
  lab: Float32Array,
  width: number,
  height: number,
  mask: Uint8Array,
  floor: Uint8Array | undefined,
  blocked: Uint8Array | undefined,
  parameters: WindowParameters,
): Uint8Array {
  const { reach, baseRow, radius, minDrop, sigmas, chromaTolerance } = parameters;
  const n = width * height;
  // Lightness smoothed over a few cells so that wood grain and JPEG noise do not decide, chroma likewise; the smoothing
  // skips the object's own cells (normalised convolution), whose colour would otherwise bleed into its surroundings.
  const outside = new Float32Array(n);
  for (let i = 0; i < n; i++) outside[i] = mask[i] ? 0 : 1;
  const support = boxMean(outside, width, height, radius);
  const plane = (k: number) => {
    const p = new Float32Array(n);
    for (let i = 0; i < n; i++) p[i] = mask[i] ? 0 : lab[i * 3 + k]!;
    const smoothed = boxMean(p, width, height, radius);
    for (let i = 0; i < n; i++) smoothed[i] = support[i]! > 0 ? smoothed[i]! / support[i]! : lab[i * 3 + k]!;
    return smoothed;
  };
  const lightness = plane(0), chromaA = plane(1), chromaB = plane(2);
  const distance = squaredDistanceToMask(mask, width, height);
  const allowed = (i: number) => (!floor || floor[i]) && !(blocked && blocked[i]);

  // The surrounding floor: cells beside and below the base, beyond the reach of most contact shadows.
  const ring: number[] = [];
  for (let i = 0; i < n; i++) {
    if (mask[i] || !allowed(i)) continue;
    const y = Math.floor(i / width);
    const d = Math.sqrt(distance[i]!);
    if (y >= baseRow && d >= 0.5 * reach && d <= 1.5 * reach) ring.push(i);
  }
  if (ring.length < 8) return mask.slice();
  const values = new Float32Array(ring.length);
  const medianOf = (value: (i: number) => number) => {
    for (let k = 0; k < ring.length; k++) values[k] = value(ring[k]!);
    return median(values);
  };
  const floorL = medianOf((i) => lightness[i]!);
  const floorA = medianOf((i) => chromaA[i]!);
  const floorB = medianOf((i) => chromaB[i]!);
  const spread = 1.4826 * medianOf((i) => Math.abs(lightness[i]! - floorL));
  const threshold = floorL - Math.max(minDrop, sigmas * spread);

  const passable = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (mask[i] || !allowed(i)) continue;
    const y = Math.floor(i / width);
    if (y < baseRow || distance[i]! > reach * reach) continue;
    const l = lightness[i]!;
    if (l >= threshold) continue;
    const ratio = (l + 16) / (floorL + 16);
    const da = chromaA[i]! - floorA * ratio;
    const db = chromaB[i]! - floorB * ratio;
    if (da * da + db * db <= chromaTolerance * chromaTolerance) passable[i] = 1;
  }
  const grown = mask.slice();
  const seeds: number[] = [];
  for (let i = 0; i < n; i++) if (mask[i]) seeds.push(i);
  floodFill(passable, grown, seeds, width, height);
  return grown;
}
