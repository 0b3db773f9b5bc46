import { scaleChroma } from '../colour.js';
import { smoothstep } from '../shaping.js';

export interface VibranceOptions {
  /** Largest relative increase of a pixel's chroma (0.2 = +20 %), given to muted colours only. 0 turns it off. Default 0.15. */
  amount: number;
}

export const DEFAULT_VIBRANCE: VibranceOptions = { amount: 0.15 };

/*
 * Saturation here is 1 − √(min / max) of linear RGB, the HSV saturation of roughly gamma-2 values: an off-white at
 * C*ab 5 has 0.1, greige at C*ab 15 about 0.28, terracotta at 35 about 0.55, a vivid red 0.8. Up to
 * NEUTRAL_SATURATION a pixel is taken for a grey surface (boosting it would bring back the cast white balance
 * removed); from VIVID_SATURATION on it is vivid already.
 */
const NEUTRAL_SATURATION = [0.3, 0.45] as const;
const VIVID_SATURATION = [0.65, 0.9] as const;
/** HSV hue range, in degrees of linear RGB, of skin (and of wood, which needs no more orange either). */
const SKIN_HUE = [4, 12, 32, 42] as const;
/** Share of the boost that skin tones keep. */
const SKIN_KEEPS = 0.3;

/**
 * Raises the chroma of muted colours, leaving greys, vivid colours and skin mostly as they are, at constant
 * luminance. `pixel` holds linear RGB and is changed in place; values may leave [0, 1] and are brought back by
 * the caller's gamut mapping.
 */
export function applyVibrance(pixel: Float64Array, amount: number): void {
  const r = pixel[0]!;
  const g = pixel[1]!;
  const b = pixel[2]!;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max <= 0) return;
  const saturation = 1 - Math.sqrt(Math.max(0, min) / max);
  let weight =
    smoothstep(NEUTRAL_SATURATION[0], NEUTRAL_SATURATION[1], saturation) *
    (1 - smoothstep(VIVID_SATURATION[0], VIVID_SATURATION[1], saturation));
  if (weight === 0) return;
  if (r >= g && g >= b) {
    const hue = (60 * (g - b)) / (max - min);
    const skin = smoothstep(SKIN_HUE[0], SKIN_HUE[1], hue) * (1 - smoothstep(SKIN_HUE[2], SKIN_HUE[3], hue));
    weight *= 1 - (1 - SKIN_KEEPS) * skin;
  }
  scaleChroma(pixel, 1 + amount * weight);
}
