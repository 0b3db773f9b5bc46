/** Rec. 709 / sRGB luminance weights, applied to linear-light values. */
export const LUMINANCE_WEIGHTS = [0.2126, 0.7152, 0.0722] as const;

export function srgbToLinear(encoded: number): number {
  return encoded <= 0.04045 ? encoded / 12.92 : ((encoded + 0.055) / 1.055) ** 2.4;
}

export function linearToSrgb(linear: number): number {
  return linear <= 0.0031308 ? linear * 12.92 : 1.055 * linear ** (1 / 2.4) - 0.055;
}

/** Linear light of every 8-bit sRGB code: decoding is a lookup, never a power. */
export const LINEAR_OF_BYTE: Float32Array = Float32Array.from({ length: 256 }, (_, code) => srgbToLinear(code / 255));

/**
 * 2^14 steps over [0, 1] keep the encoding error under 0.2 of a code even in the steep toe of the sRGB curve,
 * so that a pixel that is not changed encodes back to its own byte.
 */
const ENCODE_STEPS = 1 << 14;
const BYTE_OF_LINEAR_STEP: Uint8Array = Uint8Array.from({ length: ENCODE_STEPS + 1 }, (_, step) =>
  Math.round(linearToSrgb(step / ENCODE_STEPS) * 255),
);

/** Linear light in [0, 1] (clamped) to an 8-bit sRGB code, by lookup. */
export function byteOfLinear(linear: number): number {
  if (!(linear > 0)) return 0;
  if (linear >= 1) return 255;
  return BYTE_OF_LINEAR_STEP[(linear * ENCODE_STEPS + 0.5) | 0]!;
}

const INTERPOLATED_STEPS = 4096;
/** sRGB value (0…255, unrounded) of linear light at INTERPOLATED_STEPS + 1 points: a table instead of a pow per sample. */
const SRGB_OF_LINEAR_STEP: Float32Array = Float32Array.from({ length: INTERPOLATED_STEPS + 1 }, (_, step) =>
  255 * linearToSrgb(step / INTERPOLATED_STEPS),
);

/**
 * Linear light (clamped to [0, 1]) to an 8-bit sRGB code, interpolated between unrounded samples of the curve and
 * rounded once: the encoder of the sky replacement. byteOfLinear takes the nearest of finer, pre-rounded steps
 * instead; the two can differ by a code near a half-code, so neither stands in for the other without changing outputs.
 */
export function linearToSrgbByte(linear: number): number {
  const position = Math.min(Math.max(linear, 0), 1) * INTERPOLATED_STEPS;
  const index = Math.min(Math.floor(position), INTERPOLATED_STEPS - 1);
  const fraction = position - index;
  const value = SRGB_OF_LINEAR_STEP[index]! + (SRGB_OF_LINEAR_STEP[index + 1]! - SRGB_OF_LINEAR_STEP[index]!) * fraction;
  return Math.min(255, Math.max(0, Math.round(value)));
}

/** CIE L* (0–100) of a relative luminance in [0, 1] (D65 white = 1). */
export function lightnessOfLuminance(luminance: number): number {
  return luminance > 216 / 24389 ? 116 * Math.cbrt(luminance) - 16 : (24389 / 27) * luminance;
}

export interface Lab {
  lightness: number;
  a: number;
  b: number;
}

/** CIELAB (D65) of linear sRGB; `out` is reused so that per-pixel loops allocate nothing. */
export function labOfLinearRgb(red: number, green: number, blue: number, out: Lab): Lab {
  const x = (0.4124 * red + 0.3576 * green + 0.1805 * blue) / 0.95047;
  const y = 0.2126 * red + 0.7152 * green + 0.0722 * blue;
  const z = (0.0193 * red + 0.1192 * green + 0.9505 * blue) / 1.08883;
  const fx = labCompand(x);
  const fy = labCompand(y);
  const fz = labCompand(z);
  out.lightness = 116 * fy - 16;
  out.a = 500 * (fx - fy);
  out.b = 200 * (fy - fz);
  return out;
}

function labCompand(ratio: number): number {
  return ratio > 216 / 24389 ? Math.cbrt(ratio) : ((24389 / 27) * ratio + 16) / 116;
}

/**
 * Brings linear RGB in `pixel` into [0, 1] by moving it toward its own luminance rather than clipping each channel,
 * so that a colour pushed past the gamut by a gain keeps its hue and brightness and only loses some chroma.
 */
export function fitIntoGamut(pixel: Float64Array): void {
  const r = pixel[0]!;
  const g = pixel[1]!;
  const b = pixel[2]!;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max <= 1 && min >= 0) return;
  const luminance = Math.min(1, Math.max(0, LUMINANCE_WEIGHTS[0] * r + LUMINANCE_WEIGHTS[1] * g + LUMINANCE_WEIGHTS[2] * b));
  let keep = 1;
  if (max > 1) keep = Math.min(keep, (1 - luminance) / (max - luminance));
  if (min < 0) keep = Math.min(keep, luminance / (luminance - min));
  pixel[0] = luminance + (r - luminance) * keep;
  pixel[1] = luminance + (g - luminance) * keep;
  pixel[2] = luminance + (b - luminance) * keep;
}

/** Moves linear RGB toward its own luminance (factor < 1) or away from it (factor > 1), keeping the luminance. */
export function scaleChroma(pixel: Float64Array, factor: number): void {
  const luminance = LUMINANCE_WEIGHTS[0] * pixel[0]! + LUMINANCE_WEIGHTS[1] * pixel[1]! + LUMINANCE_WEIGHTS[2] * pixel[2]!;
  pixel[0] = luminance + (pixel[0]! - luminance) * factor;
  pixel[1] = luminance + (pixel[1]! - luminance) * factor;
  pixel[2] = luminance + (pixel[2]! - luminance) * factor;
}
