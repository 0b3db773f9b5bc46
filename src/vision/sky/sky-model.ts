import { boxMean } from '../box-filter.js';
import type { ColourPlanes } from '../colour-planes.js';

/**
 * Normalised convolution: the local mean colour of sky pixels, leaning on a planar fit of the whole sky where few are
 * near, so the model is smooth, follows the sky's gradient (an overcast sky darkens toward the horizon, a clear one
 * pales) and exists under every object.
 */
export function fitSkyModel(planes: ColourPlanes, mask: Uint8Array, radius: number): ColourPlanes {
  const { width, height } = planes;
  const weight = new Float32Array(mask.length);
  for (let i = 0; i < mask.length; i++) weight[i] = mask[i]!;
  const localWeight = boxMean(weight, width, height, radius);
  // Small: the planar fit only decides where the window holds (almost) no sky at all.
  const fallbackWeight = 0.01;
  const [r, g, b] = [planes.r, planes.g, planes.b].map((plane) => {
    const fallback = planarFit(plane, mask, width, height);
    const weighted = new Float32Array(plane.length);
    for (let i = 0; i < plane.length; i++) weighted[i] = plane[i]! * weight[i]!;
    const local = boxMean(weighted, width, height, radius);
    for (let i = 0; i < local.length; i++) {
      const x = i % width;
      const y = (i - x) / width;
      local[i] = (local[i]! + fallbackWeight * fallback(x, y)) / (localWeight[i]! + fallbackWeight);
    }
    return local;
  }) as [Float32Array, Float32Array, Float32Array];
  return { width, height, r, g, b };
}

/**
 * Least-squares plane c0 + c1·x + c2·y through one channel of the sky pixels, clamped to the range the sky actually
 * spans so that extrapolation far below a small sky cannot run off.
 */
export function planarFit(plane: Float32Array, mask: Uint8Array, width: number, height: number): (x: number, y: number) => number {
  // Normal equations in coordinates centred and scaled to [-1, 1] for conditioning.
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  const scale = Math.max(cx, cy, 1);
  let n = 0, sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0, sv = 0, sxv = 0, syv = 0;
  let low = Infinity;
  let high = -Infinity;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    const x = ((i % width) - cx) / scale;
    const y = (Math.floor(i / width) - cy) / scale;
    const v = plane[i]!;
    n++; sx += x; sy += y; sxx += x * x; syy += y * y; sxy += x * y; sv += v; sxv += x * v; syv += y * v;
    low = Math.min(low, v);
    high = Math.max(high, v);
  }
  if (n === 0) return () => 0.5;
  const coefficients = solve3(
    [[n, sx, sy], [sx, sxx, sxy], [sy, sxy, syy]],
    [sv, sxv, syv],
  ) ?? [sv / n, 0, 0];
  return (x, y) => {
    const value = coefficients[0] + coefficients[1] * ((x - cx) / scale) + coefficients[2] * ((y - cy) / scale);
    return Math.min(high, Math.max(low, value));
  };
}

/** Cramer's rule; undefined when the system is (nearly) singular, e.g. a sky one row tall. */
function solve3(m: number[][], v: number[]): [number, number, number] | undefined {
  const det = (a: number[][]) =>
    a[0]![0]! * (a[1]![1]! * a[2]![2]! - a[1]![2]! * a[2]![1]!) -
    a[0]![1]! * (a[1]![0]! * a[2]![2]! - a[1]![2]! * a[2]![0]!) +
    a[0]![2]! * (a[1]![0]! * a[2]![1]! - a[1]![1]! * a[2]![0]!);
  const d = det(m);
  if (Math.abs(d) < 1e-9 * Math.max(1, Math.abs(m[0]![0]!) ** 3)) return undefined;
  const column = (k: number) => det(m.map((row, r) => row.map((value, c) => (c === k ? v[r]! : value))));
  return [column(0) / d, column(1) / d, column(2) / d];
}

/**
 * How far a pixel's colour is from the sky model: full weight for being darker or differently coloured, a third for
 * being brighter, because what stands in front of a sky is nearly always darker than it while the sky's own clouds
 * and glow are brighter.
 */
export function distanceToSky(planes: ColourPlanes, skyModel: ColourPlanes, brighterWeight = 1 / 3): Float32Array {
  const distance = new Float32Array(planes.r.length);
  for (let i = 0; i < distance.length; i++) {
    const dr = planes.r[i]! - skyModel.r[i]!;
    const dg = planes.g[i]! - skyModel.g[i]!;
    const db = planes.b[i]! - skyModel.b[i]!;
    const dLuma = 0.299 * dr + 0.587 * dg + 0.114 * db;
    const chroma = Math.hypot(dr - dLuma, dg - dLuma, db - dLuma);
    const brightness = dLuma < 0 ? dLuma : dLuma * brighterWeight;
    distance[i] = Math.hypot(chroma, brightness);
  }
  return distance;
}
