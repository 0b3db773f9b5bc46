import { findClutter } from '../../vision/declutter/clutter.js';
import { checkGrid } from '../../vision/declutter/fill-check.js';
import { objectMask } from '../../vision/declutter/object-mask.js';
import { paintRegionMask, type RegionMask } from '../../vision/declutter/region-mask.js';
import { dilateSquare } from '../../vision/mask-morphology.js';
import { polygonMask } from '../../vision/polygon-mask.js';
import { pixelBounds, type Box } from '../../vision/box.js';
import type { RawImage } from '../../vision/raw-image.js';
import type { RoomAnalysis } from '../geometry/analyze-room.js';
import {
  analyseRoom,
  fillPhoto,
  MIN_PLANE_CONFIDENCE,
  reportBox,
  type DeclutterLines,
  type DeclutterOptions,
  type DeclutterReport,
  type DeclutterTimings,
  type RemovedObject,
} from './declutter-photo.js';
import { detectObjects, type ObjectDetectionOptions, type ObjectDetectors } from './detect-objects.js';
import {
  checkAfterFill,
  checkBeforeFill,
  gateGrid,
  groupCandidates,
  groupHole,
  unionRegion,
  type GateThresholds,
  type GroupVerdict,
  type KeepReason,
  type RemovalCandidate,
} from './removal-gate.js';
import { floorMask } from './room-planes.js';

export interface AutomaticOptions extends DeclutterOptions {
  detection?: ObjectDetectionOptions;
  /** Thresholds of the self-check; see removal-gate.ts. */
  gate?: Partial<GateThresholds>;
}

/** An object found but left in place, and why. */
export interface KeptObject extends RemovedObject {
  reason: KeepReason;
  /** The measurement that decided, in words ("hole 16 % of the photo"). */
  detail: string;
}

/** Why nothing was removed: nothing was found, or nothing found passed the self-check. */
export type UnchangedReason = 'nothing_found' | 'nothing_passed';

export interface AutomaticResult {
  image: RawImage;
  analysis: RoomAnalysis;
  removed: RemovedObject[];
  kept: KeptObject[];
  /** Present when the photo is returned as it came. */
  unchanged?: UnchangedReason;
  /** 1 on the pixels filled (the removed objects' masks), the photo's size. */
  hole: Uint8Array;
  /** 1 on every pixel that may differ from the photo: the filled pixels and the seams around them. */
  changed: Uint8Array;
  report: DeclutterReport;
  /** Every group of touching objects with its measurements and verdict, for benchmarks. */
  groups: GroupVerdict[];
  candidates: RemovalCandidate[];
}

/**
 * Automatic declutter: the room is analysed, objects detected, each box refined into the object's pixels and its
 * contact shadow (never a window or door), clutter on the floor added; then only what passes the self-check
 * (removal-gate.ts) is filled, and everything else stays pixel for pixel.
 */
export async function removeAutomatically(image: RawImage, lines: DeclutterLines, detectors: ObjectDetectors, options: AutomaticOptions = {}): Promise<AutomaticResult> {
  const found = await findCandidates(image, lines, detectors, options);
  return removeCandidates(image, found.analysis, found.candidates, { ...options, ...found });
}

/** What the automatic mode would remove, before the self-check: detections refined to their pixels, and floor clutter. */
export async function findCandidates(image: RawImage, lines: DeclutterLines, detectors: ObjectDetectors, options: AutomaticOptions = {}) {
  const { analysis, milliseconds: analysisMs } = await analyseRoom(image, lines, options.signal);
  options.progress?.(0.1);
  const found = await findCandidatesIn(image, analysis, detectors, options);
  return { ...found, timings: { analysis: analysisMs, ...found.timings } };
}

/**
 * findCandidates on a room already analysed: the same detections refined to their pixels, and the same floor clutter
 * (the refresh keeps out what the declutter would remove, at the declutter's own scores).
 */
export async function findCandidatesIn(image: RawImage, analysis: RoomAnalysis, detectors: ObjectDetectors, options: AutomaticOptions = {}) {
  const detectionStarted = performance.now();
  const detected = await detectObjects(image, detectors, { ...options.detection, ...(options.signal ? { signal: options.signal } : {}) });
  const detectionMs = Math.round(performance.now() - detectionStarted);
  options.progress?.(0.25);

  const maskStarted = performance.now();
  const floorLabels = floorMask(analysis);
  const openings = polygonMask(image.width, image.height, analysis.openings.map((o) => o.polygon));
  const candidates: RemovalCandidate[] = detected.map((d) => ({
    label: d.label,
    source: d.source,
    score: round(d.score),
    box: d.box,
    mask: objectMask(image, d.box, { floorLabels, protectedMask: openings }),
    detected: true,
  }));
  // What no detector names but stands out from the floor's own look: clothes, boxes, toys. Only where the layout is
  // trusted: with a wrong floor (a panorama, a close-up) the "floor's look" is a bit of everything.
  const layoutTrusted = analysis.confidence.layout >= (options.minPlaneConfidence ?? MIN_PLANE_CONFIDENCE);
  if (layoutTrusted) {
    const known = new Uint8Array(image.width * image.height);
    for (const c of candidates) paintRegionMask(known, image.width, c.mask);
    const clutter = findClutter(image, floorLabels, known);
    for (const box of clutter.boxes) {
      candidates.push({ label: 'clutter', source: 'floor-appearance', box, mask: cropMask(clutter.mask, image.width, image.height, box), detected: false });
    }
  }
  const maskMs = Math.round(performance.now() - maskStarted);
  options.progress?.(0.35);
  return { analysis, candidates, openings, layoutTrusted, timings: { detection: detectionMs, masks: maskMs } };
}

export interface CandidateRemovalOptions extends DeclutterOptions {
  /** Full-image, 1 on windows and doors. */
  openings: Uint8Array;
  layoutTrusted: boolean;
  gate?: Partial<GateThresholds>;
  timings?: Omit<DeclutterTimings, 'fill'>;
}

/**
 * Removes what passes the self-check of the candidates, groups of touching ones together: the checks that need no
 * fill first; one fill of the groups left (the kept ones are never copied from); the checks of each filled group
 * against its own surroundings; and the filled pixels of the groups that pass (and their seams) copied into the
 * original. Every other pixel is the original's. One fill serves every group: a group's fill never copies from
 * another group's pixels (they were hole), and each group is judged against a ring that leaves other objects out,
 * so a group kept after the fill changes nothing of the groups that pass.
 */
export async function removeCandidates(
  image: RawImage,
  analysis: RoomAnalysis,
  candidates: RemovalCandidate[],
  options: CandidateRemovalOptions,
): Promise<AutomaticResult> {
  const timings = options.timings ?? { analysis: 0 };
  const gateStarted = performance.now();
  const { width, height } = image;
  let verdicts: GroupVerdict[] = [];
  let gateMs = 0;
  const unchanged = (reason: UnchangedReason, report?: DeclutterReport): AutomaticResult => ({
    image,
    analysis,
    removed: [],
    kept: keptObjects(candidates, verdicts),
    unchanged: reason,
    hole: new Uint8Array(width * height),
    changed: new Uint8Array(width * height),
    report: report
      ? { ...report, filledShare: 0 }
      : {
          filledShare: 0,
          planeGuided: false,
          layoutConfidence: Math.round(analysis.confidence.layout * 1000) / 1000,
          milliseconds: { ...timings, gate: Math.round(gateMs), fill: 0 },
        },
    groups: verdicts,
    candidates,
  });
  if (candidates.length === 0) return unchanged('nothing_found');

  const seam = options.fill?.seam ?? 2;
  // Groups farther apart than two seams never share a filled pixel, so each can be kept or removed on its own.
  const gap = Math.max(2 * seam + 2, Math.round(0.004 * Math.max(width, height)));
  const context = { analysis, layoutTrusted: options.layoutTrusted, openings: options.openings, ...(options.gate ? { thresholds: options.gate } : {}) };
  const gate = gateGrid(image, candidates, context);
  const groups = groupCandidates(candidates, gap, image, gate.grid);
  const regions = groups.map((members) => unionRegion(members.map((m) => candidates[m]!.mask), 0, width, height));
  const holes = regions.map((region) => groupHole(region, image, gate));
  verdicts = groups.map((members, g) => checkBeforeFill(image, candidates, members, holes[g]!, gate, context));
  gateMs = performance.now() - gateStarted;
  const passing = verdicts.flatMap((v, g) => (v.reason ? [] : [g]));
  if (passing.length === 0) return unchanged('nothing_passed');

  const hole = new Uint8Array(width * height);
  for (const g of passing) paintRegionMask(hole, width, regions[g]!);
  // Kept groups are never copied from: a copy of them would appear in the hole.
  let avoid: Uint8Array | undefined;
  verdicts.forEach((v, g) => {
    if (!v.reason) return;
    avoid ??= options.avoid?.slice() ?? new Uint8Array(width * height);
    paintRegionMask(avoid, width, regions[g]!);
  });
  const fill = await fillPhoto(
    image,
    hole,
    analysis,
    { ...options, ...(avoid ? { avoid } : {}), progress: (fraction) => options.progress?.(0.35 + 0.6 * fraction) },
    timings,
  );

  const checkStarted = performance.now();
  const filledGrid = checkGrid(fill.image);
  verdicts = verdicts.map((v, g) => (v.reason ? v : checkAfterFill(gate.grid, filledGrid, v, holes[g]!, gate, options.gate)));
  const removedGroups = verdicts.flatMap((v, g) => (v.reason ? [] : [g]));
  gateMs += performance.now() - checkStarted;
  const report: DeclutterReport = { ...fill.report, milliseconds: { ...fill.report.milliseconds, gate: Math.round(gateMs) } };
  if (removedGroups.length === 0) return unchanged('nothing_passed', report);

  // The original, with the filled pixels (and seams) of the groups that passed.
  const output = new Uint8Array(image.data);
  const finalHole = new Uint8Array(width * height);
  const changed = new Uint8Array(width * height);
  const channels = image.channels;
  for (const g of removedGroups) {
    paintRegionMask(finalHole, width, regions[g]!);
    const grown = unionRegion([regions[g]!], seam, width, height);
    const band = dilateSquare(grown.data, grown.width, grown.height, seam);
    for (let y = 0; y < grown.height; y++) {
      for (let x = 0; x < grown.width; x++) {
        if (!band[y * grown.width + x]) continue;
        const pixel = (grown.y + y) * width + grown.x + x;
        changed[pixel] = 1;
        const p = pixel * channels;
        for (let c = 0; c < channels; c++) output[p + c] = fill.image.data[p + c]!;
      }
    }
  }
  let filledPixels = 0;
  for (let i = 0; i < finalHole.length; i++) filledPixels += finalHole[i]!;
  options.progress?.(1);
  return {
    image: { ...image, data: output },
    analysis,
    removed: removedGroups.flatMap((g) => groups[g]!.map((m) => removedObject(candidates[m]!))),
    kept: keptObjects(candidates, verdicts),
    hole: finalHole,
    changed,
    report: { ...report, filledShare: filledPixels / finalHole.length },
    groups: verdicts,
    candidates,
  };
}

function removedObject(candidate: RemovalCandidate): RemovedObject {
  return {
    label: candidate.label,
    source: candidate.source,
    ...(candidate.score !== undefined ? { score: candidate.score } : {}),
    box: reportBox(candidate.box),
  };
}

function keptObjects(candidates: readonly RemovalCandidate[], verdicts: readonly GroupVerdict[]): KeptObject[] {
  return verdicts.flatMap((v) => (v.reason ? v.members.map((m) => ({ ...removedObject(candidates[m]!), reason: v.reason!, detail: v.detail ?? '' })) : []));
}

/** The mask's pixels inside the box and the margin findClutter grew around it. */
function cropMask(mask: Uint8Array, width: number, height: number, box: Box): RegionMask {
  // findClutter grows its regions by 1.5 cells of a 512-cell grid.
  const reach = Math.ceil((2 * Math.max(width, height)) / 512) + 2;
  const [x0, y0, x1, y1] = pixelBounds({ x: box.x - reach, y: box.y - reach, width: box.width + 2 * reach, height: box.height + 2 * reach }, width, height) ?? [0, 0, 0, 0];
  const region: RegionMask = { x: x0, y: y0, width: x1 - x0, height: y1 - y0, data: new Uint8Array((x1 - x0) * (y1 - y0)) };
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) region.data[(y - y0) * region.width + (x - x0)] = mask[y * width + x]!;
  return region;
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
