import { lumaAt } from './privacy/luminance.js';
import type { RawImage } from './raw-image.js';

/** A luma step across two pixels (central differences, 0–255 levels) from which a pixel lies on an edge. */
const EDGE_STEP = 12;

/**
 * Share of the box's pixels that lie on an edge of the photo: near 0 on a plain painted wall (0–0.8 % where the
 * planner hung art on plain walls of the shared empty rooms, a socket included), 8 % and more over a picture already
 * hanging, a door frame, a pass-through to a kitchen or the view through a window (docs/decisions/0012). A box off the
 * photo counts as all edge: nothing is hung where the photo shows no wall.
 */
export function edgeShare(image: RawImage, box: { x0: number; y0: number; x1: number; y1: number }): number {
  const { width, height } = image;
  const x0 = Math.max(1, Math.floor(box.x0));
  const y0 = Math.max(1, Math.floor(box.y0));
  const x1 = Math.min(width - 1, Math.ceil(box.x1));
  const y1 = Math.min(height - 1, Math.ceil(box.y1));
  if (x1 <= x0 || y1 <= y0) return 1;
  const luma = (x: number, y: number) => lumaAt(image, y * width + x);
  let edges = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const gx = luma(x + 1, y) - luma(x - 1, y);
      const gy = luma(x, y + 1) - luma(x, y - 1);
      if (gx * gx + gy * gy > EDGE_STEP * EDGE_STEP) edges++;
    }
  }
  return edges / ((x1 - x0) * (y1 - y0));
}
