import type { RawImage } from '../raw-image.js';
import { intersectionArea, pixelBounds, type Box, type ScoredBox } from '../box.js';
import { lumaAt } from './luminance.js';
import { isPlateShaped, type PlateShapeOptions } from './plate-candidates.js';

export interface OutlinedRectangleOptions extends PlateShapeOptions {
  /** The vehicle is searched with its box this many pixels tall at most (area average), so that every size of vehicle looks alike. Default 200. */
  workingHeight?: number;
  /** Distance, in working pixels, between a pixel just inside a side and the one outside it that it is compared with. Default 2. */
  edgeDistance?: number;
  /** A side pixel counts when it is at least this much brighter (luma) than the pixel outside it. Default 10. */
  minStep?: number;
  /** Share of each of the four sides that must count. Default 0.7. */
  minSideSupport?: number;
  /** Lowest mean step across the four sides (luma). Default 20. */
  minContrast?: number;
  /**
   * Highest luma spread inside (90th − 10th percentile) as a share of the mean step across the sides: the inside is
   * blank (no characters, which text detection would have found) and even. Default 0.75.
   */
  maxSpreadToContrast?: number;
  /**
   * Plate height over vehicle box height, lowest and highest. A plate is 11–21 cm tall on a vehicle 1.4–3 m tall,
   * and its height, unlike its width, does not shrink when the vehicle is seen at an angle. Defaults 0.045 and 0.2:
   * chrome strips and trim lines are thinner.
   */
  minHeightShare?: number;
  maxHeightShare?: number;
  /** Growth from the blank inside to the plate with its frame, as a share of its height on every side. Default 0.15. */
  grow?: number;
}

/**
 * A blank plate (no characters for text detection to find, e.g. masked or bumper-coloured) on a vehicle: a
 * rectangle of a plate's place and size whose inside is even and brighter than its outline on all four sides (a
 * plate's frame or shadow). Candidates are the rectangles whose four sides mostly step down outwards; a vehicle
 * shows one plate at most, so more than one separate candidate (paving, stacked boxes, a row of panels) is a pattern
 * and yields nothing. Returns at most one box, scored by its weakest side's support.
 *
 * Shape: `isPlateShaped` with defaults for a plate seen at an angle (width from 4 % of the vehicle, width over
 * height 1.2–5, centre in the lower part of the box, below 0.45 of its height), and the height share above.
 */
export function outlinedRectangles(image: RawImage, vehicle: Box, options: OutlinedRectangleOptions = {}): ScoredBox[] {
  const shape: PlateShapeOptions = {
    minWidthShare: options.minWidthShare ?? 0.04,
    maxWidthShare: options.maxWidthShare ?? 0.5,
    minAspect: options.minAspect ?? 1.2,
    maxAspect: options.maxAspect ?? 5,
    minCentreDepth: options.minCentreDepth ?? 0.45,
  };
  const searchTop = vehicle.y + vehicle.height * Math.max(0, (shape.minCentreDepth ?? 0.45) - (options.maxHeightShare ?? 0.2) / 2);
  const bounds = pixelBounds({ x: vehicle.x, y: searchTop, width: vehicle.width, height: vehicle.y + vehicle.height - searchTop }, image.width, image.height);
  if (!bounds) return [];
  const [x0, y0, x1, y1] = bounds;
  const factor = Math.max(1, vehicle.height / (options.workingHeight ?? 200));
  const width = Math.floor((x1 - x0) / factor);
  const height = Math.floor((y1 - y0) / factor);
  const k = options.edgeDistance ?? 2;
  if (width < 4 * k || height < 4 * k) return [];
  const luma = areaAverageLuma(image, x0, y0, factor, width, height);
  const at = (x: number, y: number): number => luma[y * width + x]!;

  // Per side, prefix sums of "this pixel is at least minStep brighter than the one k pixels outwards".
  const step = options.minStep ?? 10;
  const rowStride = width + 1;
  const columnStride = height + 1;
  const top = new Int32Array(height * rowStride);
  const bottom = new Int32Array(height * rowStride);
  const left = new Int32Array(width * columnStride);
  const right = new Int32Array(width * columnStride);
  for (let y = k; y < height - k; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * rowStride + x;
      top[i + 1] = top[i]! + (at(x, y) - at(x, y - k) >= step ? 1 : 0);
      bottom[i + 1] = bottom[i]! + (at(x, y) - at(x, y + k) >= step ? 1 : 0);
    }
  }
  for (let x = k; x < width - k; x++) {
    for (let y = 0; y < height; y++) {
      const i = x * columnStride + y;
      left[i + 1] = left[i]! + (at(x, y) - at(x - k, y) >= step ? 1 : 0);
      right[i + 1] = right[i]! + (at(x, y) - at(x + k, y) >= step ? 1 : 0);
    }
  }
  const alongRow = (sums: Int32Array, y: number, from: number, to: number): number => (sums[y * rowStride + to + 1]! - sums[y * rowStride + from]!) / (to - from + 1);
  const alongColumn = (sums: Int32Array, x: number, from: number, to: number): number =>
    (sums[x * columnStride + to + 1]! - sums[x * columnStride + from]!) / (to - from + 1);
  const marked = (sums: Int32Array, stride: number, major: number, minor: number): boolean => sums[major * stride + minor + 1]! > sums[major * stride + minor]!;

  const support = options.minSideSupport ?? 0.7;
  const minHeight = Math.max(4, Math.ceil(((options.minHeightShare ?? 0.045) * vehicle.height) / factor));
  const maxHeight = Math.floor(((options.maxHeightShare ?? 0.2) * vehicle.height) / factor);
  const minWidth = Math.max(8, Math.ceil(minHeight * (shape.minAspect ?? 1.2)));
  const maxWidth = Math.min(width - 1, Math.floor(((shape.maxWidthShare ?? 0.5) * vehicle.width) / factor));
  const candidates: (ScoredBox & { contrast: number; cells: [number, number, number, number] })[] = [];
  for (let ya = k; ya < height - k - minHeight; ya++) {
    for (let xa = k; xa < width - k - minWidth; xa++) {
      // A top-left corner: the top side starts here and the left side starts here.
      if (!(marked(top, rowStride, ya, xa + 1) || marked(top, rowStride, ya, xa + 2))) continue;
      if (!(marked(left, columnStride, xa, ya + 1) || marked(left, columnStride, xa, ya + 2))) continue;
      for (let xb = xa + minWidth - 1; xb <= Math.min(width - 1 - k, xa + maxWidth - 1); xb++) {
        if (!(marked(right, columnStride, xb, ya + 1) || marked(right, columnStride, xb, ya + 2))) continue;
        const topSupport = alongRow(top, ya, xa, xb);
        if (topSupport < support) continue;
        const w = xb - xa + 1;
        const lowest = Math.max(minHeight, Math.ceil(w / (shape.maxAspect ?? 5)));
        const highest = Math.min(maxHeight, Math.floor(w / (shape.minAspect ?? 1.2)));
        for (let h = lowest; h <= highest; h++) {
          const yb = ya + h - 1;
          if (yb >= height - k) break;
          const weakest = Math.min(topSupport, alongRow(bottom, yb, xa, xb), alongColumn(left, xa, ya, yb), alongColumn(right, xb, ya, yb));
          if (weakest < support) continue;
          const box = { x: x0 + xa * factor, y: y0 + ya * factor, width: w * factor, height: h * factor };
          if (!isPlateShaped(box, vehicle, shape)) continue;
          candidates.push({ ...box, score: weakest, contrast: 0, cells: [xa, ya, xb, yb] });
        }
      }
    }
  }

  const maxSpread = options.maxSpreadToContrast ?? 0.75;
  const minContrast = options.minContrast ?? 20;
  const blank = candidates.filter((candidate) => {
    const [xa, ya, xb, yb] = candidate.cells;
    let stepSum = 0;
    for (let x = xa; x <= xb; x++) stepSum += at(x, ya) - at(x, ya - k) + at(x, yb) - at(x, yb + k);
    for (let y = ya; y <= yb; y++) stepSum += at(xa, y) - at(xa - k, y) + at(xb, y) - at(xb + k, y);
    const contrast = stepSum / (2 * (xb - xa + 1) + 2 * (yb - ya + 1));
    const inside: number[] = [];
    for (let y = ya + 1; y < yb; y++) for (let x = xa + 1; x < xb; x++) inside.push(at(x, y));
    inside.sort((a, b) => a - b);
    const spread = inside.length === 0 ? 0 : inside[Math.floor(inside.length * 0.9)]! - inside[Math.floor(inside.length * 0.1)]!;
    candidate.contrast = contrast;
    return contrast >= minContrast && spread <= maxSpread * contrast;
  });
  // Best first (weakest side, then size); candidates overlapping a better one are the same rectangle, give or take a pixel.
  blank.sort((a, b) => b.score - a.score || b.width * b.height - a.width * a.height);
  const distinct: typeof blank = [];
  for (const candidate of blank) if (!distinct.some((kept) => intersectionArea(kept, candidate) > 0)) distinct.push(candidate);
  if (distinct.length !== 1) return [];
  const { x, y, width: w, height: h, score } = distinct[0]!;
  const grow = (options.grow ?? 0.15) * h;
  return [{ x: x - grow, y: y - grow, width: w + 2 * grow, height: h + 2 * grow, score }];
}

/** Luma of the photo from (x0, y0) averaged over `factor`-sized cells into a `width`×`height` plane. */
function areaAverageLuma(image: RawImage, x0: number, y0: number, factor: number, width: number, height: number): Float32Array {
  const luma = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const sy0 = Math.floor(y0 + y * factor);
    const sy1 = Math.min(image.height, Math.max(sy0 + 1, Math.floor(y0 + (y + 1) * factor)));
    for (let x = 0; x < width; x++) {
      const sx0 = Math.floor(x0 + x * factor);
      const sx1 = Math.min(image.width, Math.max(sx0 + 1, Math.floor(x0 + (x + 1) * factor)));
      let sum = 0;
      for (let sy = sy0; sy < sy1; sy++) for (let sx = sx0; sx < sx1; sx++) sum += lumaAt(image, sy * image.width + sx);
      luma[y * width + x] = sum / ((sy1 - sy0) * (sx1 - sx0));
    }
  }
  return luma;
}
