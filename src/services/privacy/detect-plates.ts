import { expandBox, pixelBounds, type Box, type ScoredBox } from '../../vision/privacy/box.js';
import { brightRectangles, type BrightRectangleOptions } from '../../vision/privacy/bright-rectangles.js';
import { nonMaxSuppression } from '../../vision/privacy/non-max-suppression.js';
import { platesFromText, type TextPlateOptions } from '../../vision/privacy/plate-candidates.js';
import type { RawImage } from '../../vision/raw-image.js';
import type { Detector } from './detector.js';
import { detectText, type TextDetectionOptions } from './detect-text.js';

export interface PlateDetectionOptions {
  /**
   * Vehicles narrower than this many photo pixels are skipped: their plates are too small to read (a plate is a
   * quarter of a car's width at most, so under 20 px here). Default 80.
   */
  minVehicleWidth?: number;
  /** Text detection on each vehicle; see detectText. */
  text?: TextDetectionOptions;
  /** Which text lines are plates; see platesFromText. */
  plates?: TextPlateOptions;
  /**
   * Also look for plates without legible text (blank, dirty, masked) as bright plate-shaped rectangles; see
   * brightRectangles. Default: not looked for. On the shared set this found no plate that text missed (the one
   * blank plate there is no brighter than its silver bumper) and added a false positive in a shop window.
   */
  brightRectangles?: BrightRectangleOptions;
}

/**
 * Licence plates in photo pixels. No network detects plates here, so this is a pipeline: on each vehicle, the text
 * lines of a plate's shape, place and contrast (PP-OCR's text detector on the vehicle alone), and optionally bright
 * rectangles of a plate's shape.
 */
export async function detectPlates(
  image: RawImage,
  vehicles: readonly Box[],
  textDetector: Detector,
  options: PlateDetectionOptions = {},
): Promise<ScoredBox[]> {
  const plates: ScoredBox[] = [];
  for (const vehicle of vehicles) {
    if (vehicle.width < (options.minVehicleWidth ?? 80)) continue;
    // A little beyond the vehicle's box: CenterNet's boxes can stop short of a bumper.
    const bounds = pixelBounds(expandBox(vehicle, 0.05), image.width, image.height);
    if (!bounds) continue;
    const [x0, y0, x1, y1] = bounds;
    const lines = await detectText(image, { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, textDetector, options.text);
    plates.push(...platesFromText(image, vehicle, lines, options.plates));
    if (options.brightRectangles) plates.push(...brightRectangles(image, vehicle, options.brightRectangles));
  }
  return nonMaxSuppression(plates, 0.3);
}
