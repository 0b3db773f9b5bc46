import { greyToRgb, joinAlpha, rgbToGrey, splitAlpha } from '../../vision/channels.js';
import { inpaint, type FillSources, type InpaintOptions } from '../../vision/inpaint/inpaint.js';
import { fillPolygon } from '../../vision/polygon-mask.js';
import { pixelBounds, type Box } from '../../vision/box.js';
import type { RawImage } from '../../vision/raw-image.js';
import type { RoomAnalysis } from '../geometry/analyze-room.js';
import type { LineSource } from '../geometry/line-sources.js';
import { analyzeWithLines } from '../operations/line-source-choice.js';
import { objectMasks } from '../../vision/declutter/object-mask.js';
import { detectObjects, type ObjectDetectors } from './detect-objects.js';
import { surfaceMapOf } from './room-planes.js';

export interface DeclutterLines {
  /** Structural lines for the layout (M-LSD). */
  layout: LineSource;
  /** Extra lines for the vanishing points only (LSD). */
  vanishingPoints?: LineSource;
}

/** Layout confidence from which the room's planes (and its floor) are trusted. */
export const MIN_PLANE_CONFIDENCE = 0.3;

export interface DeclutterOptions {
  /** Layout confidence from which the room's planes guide the fill; below it the fill is plain PatchMatch. Default 0.3. */
  minPlaneConfidence?: number;
  /** Settings of the fill; see InpaintOptions. */
  fill?: InpaintOptions;
  /** 1 on pixels never copied from (objects that stay in the room: a copy of them would appear in the hole). */
  avoid?: Uint8Array;
  signal?: AbortSignal;
  progress?: (fraction: number) => void;
}

/** Something the automatic mode took out, for the job's result. */
export interface RemovedObject {
  label: string;
  /** Which detector found it, or `floor-appearance` for clutter that stood out from the floor (label `clutter`). */
  source: string;
  /** The detector's confidence; absent for clutter, which is not a detection. */
  score?: number;
  box: Box;
}

export interface DeclutterReport {
  /** Share of the photo that was filled. */
  filledShare: number;
  /** Whether the room's planes guided the fill. */
  planeGuided: boolean;
  layoutConfidence: number;
  /** The fill's pyramid and where its hole lay; absent when nothing was filled. */
  fill?: { levels: number; working: { width: number; height: number }; holeBySurface: Record<string, number> };
  /** Time of each step; detection, masks and the self-check only where they ran. */
  milliseconds: DeclutterTimings;
}

export interface DeclutterTimings {
  analysis: number;
  detection?: number;
  masks?: number;
  /** The automatic mode's self-check (removal-gate.ts), before and after the fill. */
  gate?: number;
  fill: number;
}

/**
 * Fills `hole` (1 = remove, the photo's size) from the rest of the photo, guided by the room's planes when the
 * analysis is confident; windows and doors the hole does not touch are never copied from. Alpha and grey are kept:
 * the fill runs on the colour, alpha passes through. `timings` are the steps before the fill, for the report.
 */
export async function fillPhoto(
  image: RawImage,
  hole: Uint8Array,
  analysis: RoomAnalysis,
  options: DeclutterOptions = {},
  timings: Omit<DeclutterTimings, 'fill'> = { analysis: 0 },
): Promise<{ image: RawImage; report: DeclutterReport; sources?: FillSources }> {
  const { colour, alpha } = splitAlpha(image);
  const rgb = colour.channels === 1 ? greyToRgb(colour) : colour;
  const workingSize = options.fill?.workingSize ?? 1024;
  const factor = Math.min(1, workingSize / Math.max(image.width, image.height));
  const surfaces = surfaceMapOf(
    analysis,
    Math.max(1, Math.round(image.width * factor)),
    Math.max(1, Math.round(image.height * factor)),
    options.minPlaneConfidence ?? MIN_PLANE_CONFIDENCE,
  );
  const started = performance.now();
  const filled = inpaint(
    { image: rgb, hole, excluded: sourcesToAvoid(analysis, hole, options.avoid), ...(surfaces ? { surfaces } : {}) },
    {
      ...options.fill,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.progress ? { progress: options.progress } : {}),
    },
  );
  let result = filled.image;
  if (colour.channels === 1) result = rgbToGrey(result);
  if (alpha) result = joinAlpha(result, alpha);
  let holePixels = 0;
  for (let i = 0; i < hole.length; i++) holePixels += hole[i]!;
  return {
    image: result,
    ...(filled.sources ? { sources: filled.sources } : {}),
    report: {
      filledShare: holePixels / hole.length,
      planeGuided: surfaces !== undefined,
      layoutConfidence: round(analysis.confidence.layout),
      fill: { levels: filled.report.levels, working: filled.report.working, holeBySurface: filled.report.holeBySurface },
      milliseconds: { ...timings, fill: Math.round(performance.now() - started) },
    },
  };
}

/** The room analysis the fill needs, timed. */
export async function analyseRoom(image: RawImage, lines: DeclutterLines, signal?: AbortSignal): Promise<{ analysis: RoomAnalysis; milliseconds: number }> {
  const started = performance.now();
  const analysis = await analyzeWithLines(image, lines, signal);
  return { analysis, milliseconds: Math.round(performance.now() - started) };
}

/**
 * Masked declutter: analyses the room, finds the objects that stay (when detectors are given) so that none of them
 * is copied into the hole, and fills the hole; see fillPhoto.
 */
export async function removeMasked(
  image: RawImage,
  hole: Uint8Array,
  lines: DeclutterLines,
  options: DeclutterOptions & { detectors?: ObjectDetectors } = {},
) {
  const { analysis, milliseconds } = await analyseRoom(image, lines, options.signal);
  const detectionStarted = performance.now();
  const staying = options.detectors
    ? await detectObjects(image, options.detectors, options.signal ? { signal: options.signal } : {})
    : [];
  // The objects the hole does not reach into stay; their own pixels and shadows (not their loose boxes, which also
  // hold the floor and wall the fill needs) are kept out of the sources.
  const apart = staying.filter((o) => !touches(hole, image.width, pixelBounds(o.box, image.width, image.height)));
  const avoid = apart.length > 0 ? objectMasks(image, apart.map((o) => o.box)) : undefined;
  if (avoid && options.avoid) for (let i = 0; i < avoid.length; i++) avoid[i] ||= options.avoid[i]!;
  const detection = Math.round(performance.now() - detectionStarted);
  const filled = await fillPhoto(image, hole, analysis, { ...options, ...(avoid ? { avoid } : {}) }, { analysis: milliseconds, detection });
  return { ...filled, analysis, avoided: apart, avoidMask: avoid ?? options.avoid };
}

/**
 * Pixels never copied from: `avoid` (objects that stay), and the openings the hole does not touch (their frames and
 * views are never what stood behind an object).
 */
function sourcesToAvoid(analysis: RoomAnalysis, hole: Uint8Array, avoid: Uint8Array | undefined): Uint8Array | undefined {
  const { width, height } = analysis.image;
  let excluded = avoid?.slice();
  for (const opening of analysis.openings) {
    // An opening the hole reaches near (its bounding box) may be what the hole continues: it stays a source.
    const xs = opening.polygon.map((p) => p[0]);
    const ys = opening.polygon.map((p) => p[1]);
    const x = Math.min(...xs);
    const y = Math.min(...ys);
    if (touches(hole, width, pixelBounds({ x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y }, width, height))) continue;
    excluded ??= new Uint8Array(width * height);
    fillPolygon(excluded, width, height, opening.polygon);
  }
  return excluded;
}

/** Whether any hole pixel lies within the bounds (false for none). */
function touches(hole: Uint8Array, width: number, bounds: [number, number, number, number] | undefined): boolean {
  if (!bounds) return false;
  const [x0, y0, x1, y1] = bounds;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) if (hole[y * width + x]) return true;
  }
  return false;
}

/** A box in whole photo pixels, as job results show them. */
export function reportBox(box: Box): Box {
  return { x: Math.round(box.x), y: Math.round(box.y), width: Math.round(box.width), height: Math.round(box.height) };
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
