import { srgbToLinear } from '../colour.js';

/** Linear RGB of a `#rrggbb` sRGB colour. */
export function linearOfHex(hex: string): Float64Array {
  const value = Number.parseInt(hex.slice(1), 16);
  return Float64Array.of(srgbToLinear(((value >> 16) & 255) / 255), srgbToLinear(((value >> 8) & 255) / 255), srgbToLinear((value & 255) / 255));
}
