import { connectedComponents } from '../connected-components.js';
import { floodFill } from '../mask-morphology.js';

/** Binary-mask operations of the object masks: hole filling, component selection, round dilation. */

/** The mask with every region of 0s that does not reach the grid's border set to 1. */
export function fillHoles(mask: Uint8Array, width: number, height: number): Uint8Array {
  const background = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) background[i] = mask[i] ? 0 : 1;
  const border: number[] = [];
  for (let x = 0; x < width; x++) border.push(x, (height - 1) * width + x);
  for (let y = 0; y < height; y++) border.push(y * width, y * width + width - 1);
  // Everything reachable from the border through 0s is outside; the rest, holes included, is the filled mask.
  const outside = new Uint8Array(mask.length);
  floodFill(background, outside, border.filter((i) => background[i] === 1), width, height);
  for (let i = 0; i < outside.length; i++) outside[i] = outside[i] ? 0 : 1;
  return outside;
}

/**
 * The components of `mask` that overlap `core` (cells set to 1); if none does, the largest component. Stray specks
 * that the colour model also liked (a cushion of the same colour beside the box) are dropped.
 */
export function keepComponentsTouching(mask: Uint8Array, width: number, height: number, core: Uint8Array): Uint8Array {
  const components = connectedComponents(mask, width, height);
  const kept = new Uint8Array(mask.length);
  let largest: number[] | undefined;
  let any = false;
  for (const component of components) {
    if (!largest || component.pixels.length > largest.length) largest = component.pixels;
    if (component.pixels.some((p) => core[p])) {
      any = true;
      for (const p of component.pixels) kept[p] = 1;
    }
  }
  if (!any && largest) for (const p of largest) kept[p] = 1;
  return kept;
}

/** Squared Euclidean distance of every cell to the nearest set cell (Felzenszwalb–Huttenlocher, exact, separable). */
export function squaredDistanceToMask(mask: Uint8Array, width: number, height: number): Float32Array {
  const far = 1e20;
  const field = new Float32Array(width * height);
  for (let i = 0; i < field.length; i++) field[i] = mask[i] ? 0 : far;
  const size = Math.max(width, height);
  const f = new Float64Array(size);
  const d = new Float64Array(size);
  const v = new Int32Array(size);
  const z = new Float64Array(size + 1);
  for (let x = 0; x < width; x++) {
    for (let k = 0; k < height; k++) f[k] = field[k * width + x]!;
    lowerEnvelope(f, d, v, z, height);
    for (let k = 0; k < height; k++) field[k * width + x] = d[k]!;
  }
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let k = 0; k < width; k++) f[k] = field[row + k]!;
    lowerEnvelope(f, d, v, z, width);
    for (let k = 0; k < width; k++) field[row + k] = d[k]!;
  }
  return field;
}

function lowerEnvelope(f: Float64Array, d: Float64Array, v: Int32Array, z: Float64Array, n: number): void {
  let k = 0;
  v[0] = 0;
  z[0] = -Infinity;
  z[1] = Infinity;
  for (let q = 1; q < n; q++) {
    let s = (f[q]! + q * q - (f[v[k]!]! + v[k]! * v[k]!)) / (2 * q - 2 * v[k]!);
    while (s <= z[k]!) {
      k--;
      s = (f[q]! + q * q - (f[v[k]!]! + v[k]! * v[k]!)) / (2 * q - 2 * v[k]!);
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = Infinity;
  }
  k = 0;
  for (let q = 0; q < n; q++) {
    while (z[k + 1]! < q) k++;
    d[q] = (q - v[k]!) ** 2 + f[v[k]!]!;
  }
}

/** Dilation by a disc of `radius` cells (fractional radii allowed). */
export function dilateRound(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  if (radius <= 0) return mask.slice();
  const distance = squaredDistanceToMask(mask, width, height);
  const limit = radius * radius;
  const out = new Uint8Array(mask.length);
  for (let i = 0; i < out.length; i++) out[i] = distance[i]! <= limit ? 1 : 0;
  return out;
}
