import { dilateRound } from '../declutter/mask-shapes.js';
import { polygonMask, type Polygon } from '../polygon-mask.js';

/**
 * The frame around a window or door (casing, trim, sill) that an opening's outline leaves out, as a share of the
 * outline's smaller side in the photo: what is kept with the opening wherever the view and its frame must stay as they
 * were.
 */
const FRAME_SHARE = 0.04;

/** An opening's frame margin in pixels of the polygon's own image: at least 2. */
export function frameMargin(polygon: Polygon): number {
  const xs = polygon.map((p) => p[0]);
  const ys = polygon.map((p) => p[1]);
  return Math.max(2, FRAME_SHARE * Math.min(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)));
}

/** The openings with their frames, as a mask of the image (1 = opening or frame). */
export function framedOpeningsMask(width: number, height: number, polygons: readonly Polygon[]): Uint8Array {
  const mask = new Uint8Array(width * height);
  for (const polygon of polygons) {
    const grown = dilateRound(polygonMask(width, height, [polygon]), width, height, frameMargin(polygon));
    for (let i = 0; i < mask.length; i++) mask[i] = mask[i]! | grown[i]!;
  }
  return mask;
}
