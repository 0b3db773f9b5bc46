import type { RawImage } from '../raw-image.js';
import { byteOfLinear, fitIntoGamut, LINEAR_OF_BYTE, scaleChroma, srgbToLinear } from '../colour.js';
import type { GainCurve } from './exposure.js';
import type { BaseLayerUpsampler } from './local-tone.js';
import { logLuminanceAt } from './preview.js';
import { smoothstep } from '../shaping.js';
import { applyVibrance } from './vibrance.js';

export interface Corrections {
  /** White-balance gains for red, green and blue. */
  gains: readonly [number, number, number];
  /** The base layer, evaluated row by row at full resolution. */
  upsampler: BaseLayerUpsampler;
  /** Tone gain as a function of the base layer. */
  curve: GainCurve;
  /** Vibrance amount; 0 for none. */
  vibrance: number;
}

/**
 * The full-resolution correction pass, pixel by pixel: the tone gain from the curve at the pixel's base-layer value,
 * the white-balance gains (faded out toward clipping), chroma compensation where shadows were lifted, vibrance, a
 * roll-off that keeps unclipped pixels unclipped, gamut mapping, and encoding straight back to 8 bits, so that no
 * full-size float copy of the image is ever held. Alpha is copied.
 */
export function renderCorrections(image: RawImage, corrections: Corrections): RawImage {
  const { width, height, channels, data } = image;
  const colour = channels >= 3;
  const alpha = channels === 2 || channels === 4;
  const out = new Uint8Array(data.length);
  const [redGain, greenGain, blueGain] = corrections.gains;
  const { upsampler, curve, vibrance } = corrections;
  const pixel = new Float64Array(3);

  for (let y = 0; y < height; y++) {
    upsampler.loadRow(y);
    const { scaleRow, offsetRow } = upsampler;
    for (let x = 0, offset = y * width * channels; x < width; x++, offset += channels) {
      const logLuminance = logLuminanceAt(data, offset, colour);
      const gain = curve.gainAt(scaleRow[x]! * logLuminance + offsetRow[x]!);
      if (colour) {
        const red = LINEAR_OF_BYTE[data[offset]!]!;
        const green = LINEAR_OF_BYTE[data[offset + 1]!]!;
        const blue = LINEAR_OF_BYTE[data[offset + 2]!]!;
        const inputPeak = Math.max(red, green, blue);
        const balance = 1 - smoothstep(CLIPPED_BALANCE_FADE[0], CLIPPED_BALANCE_FADE[1], inputPeak);
        pixel[0] = red * (1 + balance * (redGain - 1)) * gain;
        pixel[1] = green * (1 + balance * (greenGain - 1)) * gain;
        pixel[2] = blue * (1 + balance * (blueGain - 1)) * gain;
        if (gain > 1) scaleChroma(pixel, chromaKeptUnder(gain));
        if (vibrance > 0) applyVibrance(pixel, vibrance);
        rollOffPeak(pixel, inputPeak);
        fitIntoGamut(pixel);
        out[offset] = byteOfLinear(pixel[0]!);
        out[offset + 1] = byteOfLinear(pixel[1]!);
        out[offset + 2] = byteOfLinear(pixel[2]!);
      } else {
        const value = LINEAR_OF_BYTE[data[offset]!]!;
        pixel[0] = value * gain;
        pixel[1] = pixel[0]!;
        pixel[2] = pixel[0]!;
        rollOffPeak(pixel, value);
        out[offset] = byteOfLinear(pixel[0]!);
      }
      if (alpha) out[offset + channels - 1] = data[offset + channels - 1]!;
    }
  }
  return { data: out, width, height, channels };
}

/**
 * Input peaks (linear) over which white balance fades out: a clipped pixel's colour is the sensor's ceiling, not
 * the scene's, and balancing it would tint a blown sky or lamp (white times the gains is not white).
 */
const CLIPPED_BALANCE_FADE = [0.85, 1] as const;

/**
 * A gain keeps colour ratios, so a lifted shadow keeps its saturation while its chroma grows with its lightness:
 * a dark navy suit lifted two stops turns bright blue, dark foliage neon. Chroma is therefore scaled by gain^−0.15
 * (0.9 for a doubling, 0.81 for four times), which takes back about half of that growth. Sampled for gains 1–16 in
 * steps of 1/64 (a step changes it by under 0.25 %): a power per pixel would cost a third of the whole pass.
 */
const CHROMA_LOSS_EXPONENT = 0.15;
const CHROMA_STEPS_PER_GAIN = 64;
const CHROMA_KEPT_BY_GAIN_STEP = Float32Array.from(
  { length: 15 * CHROMA_STEPS_PER_GAIN + 1 },
  (_, step) => (1 + step / CHROMA_STEPS_PER_GAIN) ** -CHROMA_LOSS_EXPONENT,
);

function chromaKeptUnder(gain: number): number {
  const step = Math.min(CHROMA_KEPT_BY_GAIN_STEP.length - 1, ((gain - 1) * CHROMA_STEPS_PER_GAIN + 0.5) | 0);
  return CHROMA_KEPT_BY_GAIN_STEP[step]!;
}

/** Linear light of code 253.4: the most that a pixel below the clipping codes (254 and 255) may be brought to. */
const HIGHEST_UNCLIPPED = srgbToLinear(253.4 / 255);

/**
 * When the corrections raised a pixel's largest channel from `inputPeak`, rolls the raise off toward the top so that
 * a pixel that was not clipped does not become clipped: the peak x gained by s becomes s·x / √(1 + (s² − 1)·(x/K)²),
 * which is s·x in the shadows and K (just below code 254) at x = K. Pixels already at or above K keep their peak.
 * All channels are scaled alike, so hue and saturation are kept.
 */
function rollOffPeak(pixel: Float64Array, inputPeak: number): void {
  const peak = Math.max(pixel[0]!, pixel[1]!, pixel[2]!);
  if (peak <= inputPeak || inputPeak <= 0) return;
  let target = inputPeak;
  if (inputPeak < HIGHEST_UNCLIPPED) {
    const raise = peak / inputPeak;
    const relative = inputPeak / HIGHEST_UNCLIPPED;
    target = peak / Math.sqrt(1 + (raise * raise - 1) * relative * relative);
  }
  const scale = target / peak;
  pixel[0]! *= scale;
  pixel[1]! *= scale;
  pixel[2]! *= scale;
}
