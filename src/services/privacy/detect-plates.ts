import { expandBox, intersectionArea, pixelBounds, type Box, type ScoredBox } from '../../vision/box.js';
import { brightRectangles, type BrightRectangleOptions } from '../../vision/privacy/bright-rectangles.js';
import { nonMaxSuppression } from '../../vision/non-max-suppression.js';
import { outlinedRectangles, type OutlinedRectangleOptions } from '../../vision/privacy/outlined-rectangles.js';
import { platesFromText, type TextPlateOptions } from '../../vision/privacy/plate-candidates.js';
import type { RawImage } from '../../vision/raw-image.js';
import type { Detector } from '../image-models.js';
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
  /**
   * Blank plates (no characters) as outlined rectangles, looked for on the vehicles whose box holds no plate found
   * otherwise; see outlinedRectangles. `false`: not looked for. Default: looked for, with its defaults. On the shared
   * set it finds the one blank plate (bumper-coloured, seen at an angle; its weakest side's support 0.75 against the
   * threshold 0.7, and lost at a working height of 240) and a small motorcycle plate text missed, and adds no false
   * positive; a lit door panel between trim lines passed every test too, but its car already had a plate found.
   */
  outlinedRectangles?: OutlinedRectangleOptions | false;
  /**
   * Side, in photo pixels, of the tiles of a second text search over the lower part of vehicles larger than it
   * (where plates sit, below `minCentreDepth`). The whole vehicle is shrunk to the detector's input side, and on a car
   * filling a large photo that shrinks a plate's smaller letters below what PP-OCR finds (a 20 px letter on a
   * 1200 px car becomes 10 px). What it finds counts only as pieces of a row (see platesFromText). 0: no second search. Default 640, the detector's input side: tiles are not shrunk.
   */
  fineTileSide?: number;
}

/**
 * Licence plates in photo pixels. No network detects plates here, so this is a pipeline: on each vehicle, the text
 * lines of a plate's shape, place and contrast (PP-OCR's text detector on the vehicle alone), optionally bright
 * rectangles of a plate's shape, and on vehicles without either, one blank outlined rectangle (outlinedRectangles).
 */
export async function detectPlates(
  image: RawImage,
  vehicles: readonly Box[],
  textDetector: Detector,
  options: PlateDetectionOptions = {},
): Promise<ScoredBox[]> {
  const plates: ScoredBox[] = [];
  const searched: Box[] = [];
  for (const vehicle of vehicles) {
    if (vehicle.width < (options.minVehicleWidth ?? 80)) continue;
    // A little beyond the vehicle's box: CenterNet's boxes can stop short of a bumper.
    const bounds = pixelBounds(expandBox(vehicle, 0.05), image.width, image.height);
    if (!bounds) continue;
    searched.push(vehicle);
    const [x0, y0, x1, y1] = bounds;
    const lines = await detectText(image, { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, textDetector, options.text);
    const pieces: ScoredBox[] = [];
    const tileSide = options.fineTileSide ?? 640;
    if (tileSide > 0 && Math.max(x1 - x0, y1 - y0) > tileSide) {
      const top = Math.max(y0, Math.floor(vehicle.y + vehicle.height * (options.plates?.minCentreDepth ?? 0.3)));
      for (const tile of bandTiles(x0, top, x1, y1, tileSide)) pieces.push(...(await detectText(image, tile, textDetector, options.text)));
    }
    plates.push(...platesFromText(image, vehicle, lines, options.plates, pieces));
    if (options.brightRectangles) plates.push(...brightRectangles(image, vehicle, options.brightRectangles));
  }
  // A blank rectangle is weaker evidence than characters: only where no plate was found on or over the vehicle
  // (CenterNet may box one car twice, and the other box must not add a second plate).
  if (options.outlinedRectangles !== false) {
    const found = [...plates];
    for (const vehicle of searched) {
      if (found.some((plate) => intersectionArea(plate, vehicle) > 0)) continue;
      plates.push(...outlinedRectangles(image, vehicle, options.outlinedRectangles));
    }
  }
  return nonMaxSuppression(plates, 0.3);
}

/** Tiles of at most `side` covering [x0, x1) × [y0, y1), overlapping by a quarter so that a plate lies whole in one. */
function bandTiles(x0: number, y0: number, x1: number, y1: number, side: number): Box[] {
  const starts = (from: number, to: number): number[] => {
    if (to - from <= side) return [from];
    const count = Math.ceil((to - from - side) / (side * 0.75)) + 1;
    return Array.from({ length: count }, (_, i) => Math.round(from + ((to - from - side) * i) / (count - 1)));
  };
  const tiles: Box[] = [];
  for (const y of starts(y0, y1)) {
    for (const x of starts(x0, x1)) tiles.push({ x, y, width: Math.min(side, x1 - x), height: Math.min(side, y1 - y) });
  }
  return tiles;
}
