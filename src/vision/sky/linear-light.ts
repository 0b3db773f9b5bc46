/**
 * sRGB ↔ linear light. Mixing sky into a half-covered twig pixel, or a glow into a gradient, is done in linear light
 * because that is how light adds; 8-bit sRGB is only the storage.
 */

/** Linear value of an sRGB-encoded one (both 0…1). */
export function srgbToLinear(value: number): number {
  return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
}

/** Linear value of each 8-bit sRGB level. */
export const SRGB_TO_LINEAR: Float32Array = Float32Array.from({ length: 256 }, (_, level) => srgbToLinear(level / 255));

const ENCODE_STEPS = 4096;
/** sRGB value (0…255, unrounded) of linear light sampled at ENCODE_STEPS + 1 points: a table instead of a pow per sample. */
const LINEAR_TO_SRGB: Float32Array = (() => {
  const table = new Float32Array(ENCODE_STEPS + 1);
  for (let step = 0; step <= ENCODE_STEPS; step++) {
    const v = step / ENCODE_STEPS;
    table[step] = 255 * (v <= 0.0031308 ? v * 12.92 : 1.055 * v ** (1 / 2.4) - 0.055);
  }
  return table;
})();

/** Encodes linear light (clamped to 0…1) as an 8-bit sRGB level; `dither` in (−1, 1) levels is added before rounding. */
export function linearToSrgbByte(linear: number, dither = 0): number {
  const position = Math.min(Math.max(linear, 0), 1) * ENCODE_STEPS;
  const index = Math.min(Math.floor(position), ENCODE_STEPS - 1);
  const fraction = position - index;
  const value = LINEAR_TO_SRGB[index]! + (LINEAR_TO_SRGB[index + 1]! - LINEAR_TO_SRGB[index]!) * fraction + dither * 0.5;
  return Math.min(255, Math.max(0, Math.round(value)));
}
