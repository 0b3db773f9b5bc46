import type { SurfaceMap } from '../../vision/inpaint/inpaint.js';
import { roomSurfaces } from '../../vision/inpaint/surfaces.js';
import { FLOOR } from '../../vision/geometry/room-box.js';
import { analysisBox, analysisCamera, layoutLabels, type RoomAnalysis } from '../geometry/analyze-room.js';

/**
 * The room's planes for the fill, labelled at `width` × `height` (any size: the fill samples it), or undefined when
 * the layout is too uncertain to trust: a wrong plane copies the wrong surface, plain PatchMatch copies by likeness.
 */
export function surfaceMapOf(analysis: RoomAnalysis, width: number, height: number, minConfidence: number): SurfaceMap | undefined {
  if (!(analysis.confidence.layout >= minConfidence)) return undefined;
  return {
    surfaces: roomSurfaces(analysisCamera(analysis), analysisBox(analysis)),
    labels: layoutLabels(analysis, width, height),
    width,
    height,
  };
}

/** Longer side at which the floor is labelled: a ray per pixel of a 12 MP photo would cost a second for a mask that
 * the object masks and the clutter finder only sample on grids of a few hundred cells. */
const FLOOR_LABEL_SIZE = 1024;

/** 1 on the floor of the layout, at the photo's size (labelled at FLOOR_LABEL_SIZE and enlarged, nearest pixel). */
export function floorMask(analysis: RoomAnalysis): Uint8Array {
  const { width, height } = analysis.image;
  const factor = Math.min(1, FLOOR_LABEL_SIZE / Math.max(width, height));
  const labelWidth = Math.max(1, Math.round(width * factor));
  const labelHeight = Math.max(1, Math.round(height * factor));
  const labels = layoutLabels(analysis, labelWidth, labelHeight);
  const floor = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = Math.min(labelHeight - 1, Math.floor(((y + 0.5) * labelHeight) / height)) * labelWidth;
    for (let x = 0; x < width; x++) {
      if (labels[row + Math.min(labelWidth - 1, Math.floor(((x + 0.5) * labelWidth) / width))] === FLOOR) floor[y * width + x] = 1;
    }
  }
  return floor;
}
