import type { ScoredBox } from '../box.js';
import { connectedComponents } from '../connected-components.js';

export interface TextRegionOptions {
  /** A pixel is text where the probability reaches this. Default 0.3, PaddleOCR's `det_db_thresh`. */
  pixelThreshold?: number;
  /** A region is kept when its mean probability reaches this. Default 0.5 (PaddleOCR: 0.6; plates are small and blurry). */
  minRegionScore?: number;
  /** Regions smaller than this many pixels on their short side are noise. Default 3. */
  minSide?: number;
  /**
   * How far the shrunk text kernel is grown back, as PaddleOCR's unclip: by area × ratio / perimeter on every side.
   * Default 1.5, its `det_db_unclip_ratio`.
   */
  unclipRatio?: number;
}

/**
 * The text regions of a DB (differentiable binarisation) probability map such as PP-OCR's detector outputs: connected
 * components of the thresholded map, each as its bounding box grown by the unclip distance. Axis-aligned boxes
 * instead of PaddleOCR's rotated rectangles: plates in photos of parked cars are near level, and a blur is
 * axis-aligned anyway.
 */
export function textRegions(probability: Float32Array, width: number, height: number, options: TextRegionOptions = {}): ScoredBox[] {
  const threshold = options.pixelThreshold ?? 0.3;
  const minScore = options.minRegionScore ?? 0.5;
  const minSide = options.minSide ?? 3;
  const unclipRatio = options.unclipRatio ?? 1.5;
  const mask = Uint8Array.from(probability, (p) => (p >= threshold ? 1 : 0));
  const regions: ScoredBox[] = [];
  for (const component of connectedComponents(mask, width, height)) {
    const score = component.pixels.reduce((sum, index) => sum + probability[index]!, 0) / component.pixels.length;
    if (Math.min(component.width, component.height) < minSide || score < minScore) continue;
    const grow = (component.width * component.height * unclipRatio) / (2 * (component.width + component.height));
    regions.push({ x: component.x - grow, y: component.y - grow, width: component.width + 2 * grow, height: component.height + 2 * grow, score });
  }
  return regions;
}
