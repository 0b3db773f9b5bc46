import { LUMINANCE_WEIGHTS, lightnessOfLuminance } from '../../vision/colour.js';
import { linearOfHex } from '../../vision/restyle/hex-colour.js';

/**
 * Lightness (CIE L*) above which a palette colour is a trim white, not a wall paint: a designer paints a style's walls
 * in its light neutral (scandinavian's #E8E4DC, japandi's #EDE6DB) and keeps the pure white for ceilings and trim.
 */
const TRIM_WHITE_LIGHTNESS = 97;

/**
 * The paint a redesign puts on the walls in a style: the lightest colour of its palette short of a trim white (every
 * style's palette has a light neutral, and a room's walls are its largest surface: the darker accents go to the
 * furniture). `#rrggbb`, lower case.
 */
export function wallPaintOf(palette: readonly string[]): string {
  const lightness = (hex: string) => {
    const linear = linearOfHex(hex);
    return lightnessOfLuminance(LUMINANCE_WEIGHTS[0] * linear[0]! + LUMINANCE_WEIGHTS[1] * linear[1]! + LUMINANCE_WEIGHTS[2] * linear[2]!);
  };
  const ranked = [...palette].sort((a, b) => lightness(b) - lightness(a));
  const paint = ranked.find((hex) => lightness(hex) < TRIM_WHITE_LIGHTNESS) ?? ranked[0]!;
  return paint.toLowerCase();
}
