import type { RawImage } from '../raw-image.js';
import type { Box, ScoredBox } from './box.js';
import { lumaSpread } from './luminance.js';

/** The shape of a licence plate relative to the vehicle it is on; the defaults fit EU, UK and US plates seen from the front, back or three quarters. */
export interface PlateShapeOptions {
  /** Plate width over vehicle box width, lowest. Default 0.1 (badges and model names are narrower). */
  minWidthShare?: number;
  /** Plate width over vehicle box width, highest. Default 0.5. */
  maxWidthShare?: number;
  /** Width over height, lowest. Default 1.5 (US plates are 2:1; a detected text line is a little taller than its characters). */
  minAspect?: number;
  /** Width over height, highest. Default 8 (EU plates are 4.7:1, their text line longer still). */
  maxAspect?: number;
  /** The plate's centre lies below this share of the vehicle's height from its top. Default 0.3: plates sit at bumper height. */
  minCentreDepth?: number;
}

export interface TextPlateOptions extends PlateShapeOptions {
  /** Lowest luma spread (95th − 5th percentile, of 255) inside a plate: characters contrast with the plate. Default 60. */
  minContrast?: number;
  /**
   * How far up the luma spread the median must lie, 0–1. Plates in the EU, UK and US carry dark characters on a
   * light plate, so the median (the plate, which covers most of the box) is high, while a lit sign (a bus's
   * destination display) has a dark median. Default 0.4 (a plate in shadow measured 0.48, a bus display 0.27);
   * 0 also accepts light characters on dark plates.
   */
  minBackgroundLevel?: number;
  /** Growth from the text line to the whole plate, as shares of its width and height on each side. Default 0.08 and 0.25. */
  growX?: number;
  growY?: number;
}

/** Whether a box has the size, shape and place of a licence plate on `vehicle`. */
export function isPlateShaped(box: Box, vehicle: Box, options: PlateShapeOptions = {}): boolean {
  const widthShare = box.width / vehicle.width;
  const aspect = box.width / box.height;
  const centreX = box.x + box.width / 2;
  const centreDepth = (box.y + box.height / 2 - vehicle.y) / vehicle.height;
  return (
    widthShare >= (options.minWidthShare ?? 0.1) &&
    widthShare <= (options.maxWidthShare ?? 0.5) &&
    aspect >= (options.minAspect ?? 1.5) &&
    aspect <= (options.maxAspect ?? 8) &&
    centreX >= vehicle.x &&
    centreX <= vehicle.x + vehicle.width &&
    centreDepth >= (options.minCentreDepth ?? 0.3) &&
    centreDepth <= 1
  );
}

/**
 * Licence plates among the text lines found on a vehicle: lines of a plate's shape and place with contrasting
 * characters, each grown from its characters to the plate's edges.
 */
export function platesFromText(image: RawImage, vehicle: Box, textLines: readonly ScoredBox[], options: TextPlateOptions = {}): ScoredBox[] {
  const minContrast = options.minContrast ?? 60;
  const growX = options.growX ?? 0.08;
  const growY = options.growY ?? 0.25;
  const minBackgroundLevel = options.minBackgroundLevel ?? 0.4;
  const contrasting = (line: ScoredBox): boolean => {
    const { low, median, high } = lumaSpread(image, line);
    return high - low >= minContrast && median - low >= (high - low) * minBackgroundLevel;
  };
  return textLines
    .filter((line) => isPlateShaped(line, vehicle, options) && contrasting(line))
    .map((line) => ({ ...line, x: line.x - line.width * growX, y: line.y - line.height * growY, width: line.width * (1 + 2 * growX), height: line.height * (1 + 2 * growY) }));
}

