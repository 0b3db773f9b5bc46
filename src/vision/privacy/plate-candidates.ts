import type { RawImage } from '../raw-image.js';
import type { Box, ScoredBox } from '../box.js';
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
  /**
   * Text regions on one row closer than this many times their height are also tried as one line. PP-OCR splits a
   * plate's characters where they are widely spaced or where a plate stacks small letters beside big ones (a region
   * name printed vertically), and each piece alone is too narrow for a plate. Only pieces of about one height
   * (within `mergeHeightRatio`) are joined, as a plate's characters are: joining ragged pieces made a plate of a
   * chrome bumper's reflections. Default 0.5; 0 tries no merged lines.
   */
  mergeGap?: number;
  /** Lowest ratio of the lower to the taller height of two pieces joined by `mergeGap`. Default 0.7. */
  mergeHeightRatio?: number;
  /**
   * Widest piece joined by `mergeGap`, as width over height: split plates split into single characters or stacks of
   * them, while long pieces were reflections on chrome. Default 1.5.
   */
  mergeMaxPieceAspect?: number;
  /**
   * A line that ends within this many of its heights of the photo's edge, on a vehicle whose box reaches that edge,
   * may be a plate cut by the edge: only its visible part shows, so it may be as short as `borderMinAspect`, and it
   * is grown to the edge. Default 0.5.
   */
  borderReach?: number;
  /** Lowest width over height of a plate cut by the photo's edge. Default 0.8 (the visible part of a plate is any width). */
  borderMinAspect?: number;
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
 * characters, each grown from its characters to the plate's edges. `pieces` (text found at a finer scale) count only
 * when joined into a row with others (see `mergeGap`): a line found whole at the finer scale alone was within the
 * coarse search's reach, and on the shared set the only such line was a chrome bumper's reflection.
 */
export function platesFromText(
  image: RawImage,
  vehicle: Box,
  textLines: readonly ScoredBox[],
  options: TextPlateOptions = {},
  pieces: readonly ScoredBox[] = [],
): ScoredBox[] {
  const minContrast = options.minContrast ?? 60;
  const growX = options.growX ?? 0.08;
  const growY = options.growY ?? 0.25;
  const minBackgroundLevel = options.minBackgroundLevel ?? 0.4;
  const reach = options.borderReach ?? 0.5;
  const contrasting = (line: ScoredBox): boolean => {
    const { low, median, high } = lumaSpread(image, line);
    return high - low >= minContrast && median - low >= (high - low) * minBackgroundLevel;
  };
  // Which side of the photo cuts both the line and its vehicle: -1 left, 1 right, 0 neither.
  const cutSide = (line: Box): number => {
    const margin = reach * line.height;
    // CenterNet's boxes can stop a little short of the vehicle's end (see detectPlates).
    const slack = 0.05 * vehicle.width;
    if (line.x <= margin && vehicle.x <= slack) return -1;
    if (line.x + line.width >= image.width - margin && vehicle.x + vehicle.width >= image.width - slack) return 1;
    return 0;
  };
  const found: ScoredBox[] = [];
  for (const line of [...textLines, ...mergedRows([...textLines, ...pieces].filter((piece) => piece.width <= (options.mergeMaxPieceAspect ?? 1.5) * piece.height), options.mergeGap ?? 0.5, options.mergeHeightRatio ?? 0.7)]) {
    const side = cutSide(line);
    const shape = side === 0 ? options : { ...options, minAspect: Math.min(options.minAspect ?? 1.5, options.borderMinAspect ?? 0.8) };
    if (!isPlateShaped(line, vehicle, shape) || !contrasting(line)) continue;
    const plate = { ...line, x: line.x - line.width * growX, y: line.y - line.height * growY, width: line.width * (1 + 2 * growX), height: line.height * (1 + 2 * growY) };
    if (side === -1) plate.width += plate.x, plate.x = 0;
    if (side === 1) plate.width = image.width - plate.x;
    found.push(plate);
  }
  return found;
}

/**
 * Runs of two or more text regions on one row (vertical overlap at least half the lower one's height, heights in at
 * least `heightRatio`), each less than `gap` times the taller height from the next, as one box with the lowest score
 * among them.
 */
export function mergedRows(lines: readonly ScoredBox[], gap: number, heightRatio = 0.7): ScoredBox[] {
  if (gap <= 0) return [];
  const sorted = [...lines].sort((a, b) => a.x - b.x);
  const merged: ScoredBox[] = [];
  for (let start = 0; start < sorted.length; start++) {
    let run = { ...sorted[start]! };
    for (const next of sorted.slice(start + 1)) {
      const overlap = Math.min(run.y + run.height, next.y + next.height) - Math.max(run.y, next.y);
      const height = Math.max(run.height, next.height);
      const similar = Math.min(run.height, next.height) >= heightRatio * height;
      if (!similar || overlap < 0.5 * Math.min(run.height, next.height) || next.x - (run.x + run.width) > gap * height) continue;
      const x = Math.min(run.x, next.x);
      const y = Math.min(run.y, next.y);
      run = {
        x,
        y,
        width: Math.max(run.x + run.width, next.x + next.width) - x,
        height: Math.max(run.y + run.height, next.y + next.height) - y,
        score: Math.min(run.score, next.score),
      };
      merged.push({ ...run });
    }
  }
  return merged;
}

