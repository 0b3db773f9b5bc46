import type { RawImage } from '../raw-image.js';
import { boxMean } from '../box-filter.js';
import { pixelBounds, type Box, type ScoredBox } from '../box.js';
import { connectedComponents } from '../connected-components.js';
import { lumaAt } from './luminance.js';
import { isPlateShaped, type PlateShapeOptions } from './plate-candidates.js';

export interface BrightRectangleOptions extends PlateShapeOptions {
  /** The vehicle is searched at this width at most, in pixels; plates stay several pixels tall at it. Default 320. */
  workingWidth?: number;
  /** A pixel is bright when its luma exceeds the mean around it (a window of a sixth of the vehicle's height) by this. Default 12. */
  localMargin?: number;
  /** …and reaches this luma. Default 110. */
  minLuma?: number;
  /** Share of its bounding box a bright blob must fill to count as a rectangle. Default 0.75. */
  minFill?: number;
}

/**
 * Plates that text detection cannot see (blank, dirty, too blurred, already masked): blobs of pixels brighter than
 * their surroundings that fill a rectangle of a plate's shape and place on the vehicle. The score is the fill.
 */
export function brightRectangles(image: RawImage, vehicle: Box, options: BrightRectangleOptions = {}): ScoredBox[] {
  const bounds = pixelBounds(vehicle, image.width, image.height);
  if (!bounds) return [];
  const [x0, y0, x1, y1] = bounds;
  const factor = Math.max(1, (x1 - x0) / (options.workingWidth ?? 320));
  const width = Math.max(1, Math.floor((x1 - x0) / factor));
  const height = Math.max(1, Math.floor((y1 - y0) / factor));
  const luma = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) luma[y * width + x] = lumaAt(image, Math.floor(y0 + (y + 0.5) * factor) * image.width + Math.floor(x0 + (x + 0.5) * factor));
  }
  const surround = boxMean(luma, width, height, Math.max(2, Math.round(height / 6)));
  const margin = options.localMargin ?? 12;
  const minLuma = options.minLuma ?? 110;
  const bright = Uint8Array.from(luma, (value, i) => (value >= minLuma && value > surround[i]! + margin ? 1 : 0));

  const minFill = options.minFill ?? 0.75;
  const found: ScoredBox[] = [];
  for (const blob of connectedComponents(bright, width, height)) {
    const fill = blob.pixels.length / (blob.width * blob.height);
    const box = { x: x0 + blob.x * factor, y: y0 + blob.y * factor, width: blob.width * factor, height: blob.height * factor };
    if (fill >= minFill && blob.height >= 4 && isPlateShaped(box, vehicle, options)) found.push({ ...box, score: fill });
  }
  return found;
}
