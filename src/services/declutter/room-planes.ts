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

/** 1 on the floor of the layout, at the photo's size. */
export function floorMask(analysis: RoomAnalysis): Uint8Array {
  const labels = layoutLabels(analysis);
  const floor = new Uint8Array(labels.length);
  for (let i = 0; i < labels.length; i++) floor[i] = labels[i] === FLOOR ? 1 : 0;
  return floor;
}
