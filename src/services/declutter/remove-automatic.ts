import { findClutter } from '../../vision/declutter/clutter.js';
import { objectMasks } from '../../vision/declutter/object-mask.js';
import { polygonMask } from '../../vision/polygon-mask.js';
import type { RawImage } from '../../vision/raw-image.js';
import { analyseRoom, fillPhoto, MIN_PLANE_CONFIDENCE, reportBox, type DeclutterLines, type DeclutterOptions, type RemovedObject } from './declutter-photo.js';
import { detectObjects, type ObjectDetectionOptions, type ObjectDetectors } from './detect-objects.js';
import { floorMask } from './room-planes.js';

export interface AutomaticOptions extends DeclutterOptions {
  detection?: ObjectDetectionOptions;
}

/**
 * Automatic declutter: the room is analysed, objects detected, each box refined into the object's pixels and its
 * contact shadow (never a window or door), clutter on the floor added, and the union filled along the room's planes.
 */
export async function removeAutomatically(image: RawImage, lines: DeclutterLines, detectors: ObjectDetectors, options: AutomaticOptions = {}) {
  const { analysis, milliseconds: analysisMs } = await analyseRoom(image, lines, options.signal);
  options.progress?.(0.1);

  const detectionStarted = performance.now();
  const detected = await detectObjects(image, detectors, { ...options.detection, ...(options.signal ? { signal: options.signal } : {}) });
  const detectionMs = Math.round(performance.now() - detectionStarted);
  options.progress?.(0.25);

  const maskStarted = performance.now();
  const floorLabels = floorMask(analysis);
  const protectedMask = polygonMask(image.width, image.height, analysis.openings.map((o) => o.polygon));
  const hole = objectMasks(
    image,
    detected.map((d) => d.box),
    { floorLabels, protectedMask },
  );
  // What no detector names but stands out from the floor's own look: clothes, boxes, toys. Only where the layout is
  // trusted: with a wrong floor (a panorama, a close-up) the "floor's look" is a bit of everything.
  const layoutTrusted = analysis.confidence.layout >= (options.minPlaneConfidence ?? MIN_PLANE_CONFIDENCE);
  const clutter = layoutTrusted ? findClutter(image, floorLabels, hole) : { boxes: [], mask: new Uint8Array(0) };
  for (let i = 0; i < hole.length; i++) if (clutter.mask[i]) hole[i] = 1;
  const removed: RemovedObject[] = [
    ...detected.map((d) => ({ label: d.label, source: d.source, score: round(d.score), box: reportBox(d.box) })),
    ...clutter.boxes.map((box) => ({ label: 'clutter', source: 'floor-appearance', box: reportBox(box) })),
  ];
  const maskMs = Math.round(performance.now() - maskStarted);
  options.progress?.(0.35);

  const fill = await fillPhoto(
    image,
    hole,
    analysis,
    { ...options, progress: (fraction) => options.progress?.(0.35 + 0.65 * fraction) },
    { analysis: analysisMs, detection: detectionMs, masks: maskMs },
  );
  return { image: fill.image, analysis, removed, hole, report: fill.report };
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
