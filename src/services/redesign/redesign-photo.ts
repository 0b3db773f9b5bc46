import { AppError } from '../../errors.js';
import type { RegionMask } from '../../vision/declutter/region-mask.js';
import { area, intersectionArea, type Box } from '../../vision/box.js';
import type { RawImage } from '../../vision/raw-image.js';
import { reportBox } from '../declutter/declutter-photo.js';
import type { ObjectDetectors } from '../declutter/detect-objects.js';
import { findCandidatesIn, removeCandidates } from '../declutter/remove-automatic.js';
import type { RoomAnalysis } from '../geometry/analyze-room.js';
import { analyzeWithSecondOpinion, type ChosenLines, type SecondOpinion } from '../operations/line-source-choice.js';
import { stepTimer } from '../step-timer.js';
import { layoutReport, networkContradicts, unsureLayout } from '../geometry/layout-trust.js';
import { refreshPhoto } from '../refresh/refresh-photo.js';
import type { FurnitureRenderer } from '../staging/furniture-renderer.js';
import type { RenderQuality } from '../staging/render-pieces.js';
import { roomLayoutDoubt, stageRoom } from '../staging/stage-room.js';
import { isPieceSized, isStandingFurniture } from '../staging/standing-furniture.js';
import { wallPaintOf } from './style-paint.js';
import { floorSeedOf } from '../../vision/restyle/floor-materials.js';
import { floorMaterial } from '../../catalog/floor-materials.js';
import type { SceneLight } from '../../vision/restyle/scene-light.js';

/**
 * Creativity, on the public twin's 0–30 scale, from which each surface may change: below WALLS_FROM only the
 * furniture (what stands is removed where that comes out clean, and the style's furniture is placed); from it the
 * walls are repainted in the style's paint too; from FLOOR_FROM the floor is relaid in the style's material as well.
 */
export const WALLS_FROM = 10;
export const FLOOR_FROM = 20;

/**
 * Least share of an object's pixels (its mask, contact shadow included) inside the request's mask for it to be
 * removed: the fill then changes the object's pixels and a seam of 2 pixels around them.
 */
const INSIDE_MASK_SHARE = 0.98;

export interface RedesignRequest {
  styleId: string;
  /** The style's palette (the catalog's `#rrggbb` colours): the walls' paint is drawn from it. */
  palette: readonly string[];
  /** The style's floor material (the catalog's `floor`, an id of vision/restyle/floor-materials.ts). */
  floor: string;
  roomId: string;
  /** 0–30: which surfaces may change (WALLS_FROM, FLOOR_FROM). */
  creativity: number;
  seed: number;
  preserveWindows: boolean;
  preserveWalls: boolean;
  preserveFloor: boolean;
  /** Photo-sized, non-zero where the room may be redesigned: objects inside it are removed, furniture stands in it. */
  mask?: Uint8Array;
}

export interface RedesignDeps {
  /** With the room network in them, every step builds on its box where it is trusted (redesignAnalysis). */
  lines: ChosenLines;
  detectors: ObjectDetectors;
  renderer: FurnitureRenderer;
  quality: RenderQuality;
  signal?: AbortSignal;
  progress?: (fraction: number) => void;
}

export interface RedesignedPhoto {
  image: RawImage;
  /** 255 where the output may differ from the photo (every pixel that does is in it). */
  changeMask: Uint8Array;
  changedPixels: number;
  result: { redesign: Record<string, unknown> };
  /**
   * For benchmarks: where each step may have changed the photo (non-zero), and the light the walls were painted under
   * (the refresh's estimate: its colour and the old paint's albedo).
   */
  steps: { removal: Uint8Array; walls?: Uint8Array; floor?: Uint8Array; staging?: Uint8Array; wallsLight?: { cast: number[]; oldAlbedo: number } };
}

/** Why a step left the photo as it was, in the job's words. */
export interface Skipped {
  changed: false;
  reason: string;
  detail: string;
}

/**
 * A room redesigned in a style (issue 18): what stands is removed by the automatic declutter wherever its self-check
 * says the removal comes out clean (the rest stays, and the new furniture is planned around it); the walls are
 * repainted in the style's paint where the refresh is sure of them; and the room type's programme is planned and
 * rendered in the style. Each step that cannot be done well leaves the photo as it was for that step and says why;
 * every pixel outside the returned change mask is the photo's own.
 */
export async function redesignPhoto(image: RawImage, request: RedesignRequest, deps: RedesignDeps): Promise<RedesignedPhoto> {
  const progress = deps.progress ?? (() => {});
  const abortable = deps.signal ? { signal: deps.signal } : {};
  const timer = stepTimer(deps.signal);

  // 1. What stands, removed where the declutter's self-check passes (the declutter's own progress runs 0–1 over both).
  // One room analysis serves every step: a removal or a coat of paint moves no wall, floor or camera.
  const analysisStarted = performance.now();
  const room = await redesignAnalysis(image, deps.lines, deps.signal);
  const analysisMs = Math.round(performance.now() - analysisStarted);
  progress(0.03);
  const found = await findCandidatesIn(image, room.analysis, deps.detectors, { ...abortable, progress: (f) => progress(0.3 * f) });
  const candidates = request.mask ? found.candidates.filter((c) => insideShare(c.mask, request.mask!, image.width) >= INSIDE_MASK_SHARE) : found.candidates;
  const removal = await removeCandidates(image, room.analysis, candidates, {
    openings: found.openings,
    layoutTrusted: found.layoutTrusted,
    timings: { analysis: analysisMs, ...found.timings },
    ...abortable,
    progress: (f) => progress(0.3 * f),
  });
  timer.lap('removal');
  progress(0.3);
  let current = removal.image;
  // An object outside the user's mask stands as much as one the self-check kept: new furniture keeps clear of both.
  const outsideUserMask = found.candidates.filter((c) => !candidates.includes(c));
  const standing = [...removal.kept.map((k) => k.box), ...outsideUserMask.map((c) => c.box)].filter((box) => isPieceSized(box, image));
  // Furniture (or a person) found at furnish's stricter scores, whatever its size: a bed filling half a bedroom photo
  // is furniture, while a box over half an empty room at a low score is the detector seeing the room itself.
  const furnished = candidates.some((c) => c.detected && isStandingFurniture(c));

  // 2. The walls, in the style's paint.
  const paint = wallPaintOf(request.palette);
  let walls: Record<string, unknown> | Skipped;
  let wallsMask: Uint8Array | undefined;
  let wallsLight: { cast: number[]; oldAlbedo: number } | undefined;
  // The photo's light as judged on its own walls: the floor step, after them, must not judge it on the new paint.
  let photoLight: SceneLight | undefined;
  const wallsSkipped = request.preserveWalls
    ? skipped('preserved', 'preserveWalls was set')
    : request.mask
      ? skipped('mask_given', 'with a mask only what it marks changes, and a wall painted in part would be a patchwork')
      : request.creativity < WALLS_FROM
        ? skipped('creativity', `the walls are repainted from creativity ${WALLS_FROM}`)
        : undefined;
  if (wallsSkipped) {
    walls = { ...wallsSkipped, paint };
  } else {
    const refreshed = await refreshPhoto(
      current,
      { transformation: 'walls', value: paint, paint },
      { lines: deps.lines, detectors: deps.detectors, analysis: room.analysis, ...abortable, progress: (f) => progress(0.3 + 0.1 * f) },
    );
    const report = refreshed.result.refresh;
    if (refreshed.changeMask) {
      current = refreshed.image;
      wallsMask = refreshed.changeMask;
      wallsLight = { cast: (report.light as { cast: number[] }).cast, oldAlbedo: report.oldAlbedo as number };
      photoLight = refreshed.light;
      walls = { changed: true, paint, changedPixels: report.changedPixels };
    } else {
      walls = { changed: false, paint, reason: report.unchangedReason, detail: report.unchangedDetail };
    }
  }
  timer.lap('walls');
  progress(0.4);

  // 3. The floor, in the style's material, where the refresh is sure the new floor reaches all of the floor seen.
  let floor: Record<string, unknown> | Skipped;
  let floorMask: Uint8Array | undefined;
  const floorSkipped = request.preserveFloor
    ? skipped('preserved', 'preserveFloor was set')
    : request.mask
      ? skipped('mask_given', 'with a mask only what it marks changes, and a floor relaid in part would be a patchwork')
      : request.creativity < FLOOR_FROM
        ? skipped('creativity', `the floor is relaid from creativity ${FLOOR_FROM}`)
        : undefined;
  if (floorSkipped) {
    floor = floorSkipped;
  } else {
    // The catalog checks every style's floor against the materials when it loads.
    const material = floorMaterial(request.floor);
    if (!material) throw new Error(`floor material ${request.floor} is not one of the materials`);
    const refreshed = await refreshPhoto(
      current,
      { transformation: 'floor', value: material.id, material, seed: floorSeedOf(material.id) },
      {
        lines: deps.lines,
        detectors: deps.detectors,
        analysis: room.analysis,
        ...(photoLight ? { light: photoLight } : {}),
        ...abortable,
        progress: (f) => progress(0.4 + 0.05 * f),
      },
    );
    const report = refreshed.result.refresh;
    if (refreshed.changeMask) {
      current = refreshed.image;
      floorMask = refreshed.changeMask;
      floor = { changed: true, material: report.material, changedPixels: report.changedPixels };
    } else {
      floor = { changed: false, material: report.material, reason: report.unchangedReason, detail: report.unchangedDetail };
    }
  }
  timer.lap('floor');
  progress(0.45);

  // 4. The style's furniture: an empty room gets the programme's furniture alone, a furnished one its decor as well.
  let staging: Record<string, unknown> | Skipped;
  let stagingMask: Uint8Array | undefined;
  const furnitureRoom: SecondOpinion = { ...room };
  // The network looked at the photo as it came, so it still sees what the removal took out: not an obstacle.
  if (furnitureRoom.analysis.standing && removal.removed.length > 0) {
    furnitureRoom.analysis = { ...furnitureRoom.analysis, standing: notRemoved(furnitureRoom.analysis.standing, removal.removed.map((o) => o.box)) };
  }
  const notStaged = whyNotStage(furnitureRoom.analysis, removal.kept);
  if (notStaged) {
    staging = notStaged;
  } else {
    try {
      const staged = await stageRoom(
        current,
        {
          roomId: request.roomId,
          styleId: request.styleId,
          seed: request.seed,
          preserveWindows: request.preserveWindows,
          decor: furnished,
          anneal: true,
          windowsChosen: true,
          wallsPreserved: request.preserveWalls,
          refusalFix: 'the redesign’s other steps stand; a room type with a smaller programme may fit',
          layoutFix: 'the redesign’s other steps stand',
          ...(request.mask ? { mask: request.mask } : {}),
        },
        {
          lines: deps.lines,
          analysis: furnitureRoom,
          renderer: deps.renderer,
          quality: deps.quality,
          ...(standing.length ? { existing: { find: async () => standing } } : {}),
          ...abortable,
          progress: (f) => progress(0.45 + 0.53 * f),
        },
      );
      current = staged.image;
      stagingMask = staged.changeMask;
      staging = { changed: true, ...(staged.result.staging as Record<string, unknown>) };
    } catch (error) {
      // A room with no place for the programme, or whose layout is unsure, keeps its floor as it is; the other steps
      // stand.
      if (!(error instanceof AppError && (error.code === 'no_room_for_furniture' || error.code === 'layout_uncertain'))) throw error;
      staging = skipped(error.code, error.message);
    }
  }
  timer.lap('staging');

  // The steps' own masks: each says where it may have changed the photo, so a pixel changed outside them is a bug the
  // tests and bench:redesign would see.
  const changeMask = new Uint8Array(image.width * image.height);
  let changedPixels = 0;
  for (let p = 0; p < changeMask.length; p++) {
    if (removal.changed[p] || wallsMask?.[p] || floorMask?.[p] || stagingMask?.[p]) changeMask[p] = 255;
    const q = p * image.channels;
    let differs = false;
    for (let c = 0; c < image.channels; c++) differs ||= current.data[q + c] !== image.data[q + c];
    if (differs) changedPixels++;
  }
  const round = (v: number) => Math.round(v * 1000) / 1000;
  const changed = [
    ...(removal.removed.length ? ['furniture_removed'] : []),
    ...(walls.changed ? ['walls'] : []),
    ...(floor.changed ? ['floor'] : []),
    ...(staging.changed ? ['furniture_placed'] : []),
  ];
  return {
    image: current,
    changeMask,
    changedPixels,
    result: {
      redesign: {
        styleId: request.styleId,
        roomId: request.roomId,
        creativity: request.creativity,
        seed: request.seed,
        changed,
        unchanged: changedPixels === 0,
        roomWasFurnished: furnished,
        layout: layoutReport(room.analysis, room.networkDoubt),
        removed: removal.removed.map((o) => ({ ...o, box: reportBox(o.box) })),
        kept: [
          ...removal.kept.map((o) => ({ ...o, box: reportBox(o.box) })),
          ...outsideUserMask.map((c) => ({ label: c.label, source: c.source, ...(c.score === undefined ? {} : { score: c.score }), box: reportBox(c.box), reason: 'outside_mask', detail: 'the object is not inside the mask' })),
        ],
        filledShare: removal.report.filledShare,
        walls,
        floor,
        staging,
        changedPixels,
        unchangedShare: round(1 - changedPixels / (image.width * image.height)),
        milliseconds: timer.report(),
      },
    },
    steps: {
      removal: removal.changed,
      ...(wallsMask ? { walls: wallsMask } : {}),
      ...(floorMask ? { floor: floorMask } : {}),
      ...(stagingMask ? { staging: stagingMask } : {}),
      ...(wallsLight ? { wallsLight } : {}),
    },
  };
}

/**
 * The room every step of a redesign builds on: where the room network was chosen, the box fitted to its layout map when
 * it is found at the trusted confidence and passes the whole-room stagings' own checks, else the lines' (the stagings'
 * order, docs/decisions/0021 and 0022); the lines' alone otherwise. The stagings' checks are the strictest of the
 * three steps' (the refresh asks for less floor on a photo looking down), so a box the furniture may stand on is one
 * the paint and the fill may follow.
 */
function redesignAnalysis(image: RawImage, lines: ChosenLines, signal?: AbortSignal): Promise<SecondOpinion> {
  return analyzeWithSecondOpinion(image, lines, roomLayoutDoubt, signal);
}

/**
 * Why the style's furniture is not staged, or undefined where it may be (stageRoom's own refusals aside):
 * - `layout_uncertain`: the walls' own rule, for the furniture too: on a layout this unsure (a panorama, a close-up),
 *   or a lines' layout the room network's map contradicts, furniture is planned on a floor that is not there (seen on
 *   furnished_bedroom_pano360_11: a bed hanging from the ceiling);
 * - `furniture_kept`: furniture or a person the declutter kept still stands (furnish's labels and scores; kept
 *   because its removal would not come out clean, or because it touches a fixture of the property): new furniture
 *   beside it would be a second bed or sofa in the room, planned on a floor the old pieces hide (seen on
 *   furnished_bedroom_07: a chest of drawers over the child on the bed).
 */
export function whyNotStage(analysis: Pick<RoomAnalysis, 'confidence'> & { layout: Pick<RoomAnalysis['layout'], 'evidence' | 'networkAgreement' | 'fittedToMap'> }, kept: readonly { label: string; source: string; score?: number }[]): Skipped | undefined {
  const unsure = unsureLayout(analysis) ?? networkContradicts(analysis);
  if (unsure) return skipped('layout_uncertain', unsure);
  const furniture = kept.filter((k) => isStandingFurniture(k));
  if (furniture.length === 0) return undefined;
  const labels = [...new Set(furniture.map((k) => k.label))].join(', ');
  return skipped('furniture_kept', `the ${labels} in the photo stayed (see kept for why), and new furniture beside it would be a second set in the room`);
}

/**
 * The boxes of `standing` that the removed objects do not cover for the most part: a removed shoe beside a kitchen
 * island leaves the island standing.
 */
export function notRemoved(standing: readonly Box[], removed: readonly Box[]): Box[] {
  return standing.filter((box) => removed.reduce((sum, r) => sum + intersectionArea(box, r), 0) < 0.5 * area(box));
}

function skipped(reason: string, detail: string): Skipped {
  return { changed: false, reason, detail };
}

/** Share of a region's pixels the full-image mask (row length `width`) marks; 0 for an empty region. */
function insideShare(region: RegionMask, mask: Uint8Array, width: number): number {
  let pixels = 0;
  let inside = 0;
  for (let y = 0; y < region.height; y++) {
    for (let x = 0; x < region.width; x++) {
      if (!region.data[y * region.width + x]) continue;
      pixels++;
      if (mask[(region.y + y) * width + region.x + x]) inside++;
    }
  }
  return pixels ? inside / pixels : 0;
}
