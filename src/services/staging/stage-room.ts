import { AppError } from '../../errors.js';
import { planSvg } from '../../staging/plan-drawing.js';
import { planRoom, type RoomPlan } from '../../staging/plan-room.js';
import { roomFromLines } from '../../staging/room-from-lines.js';
import type { RoomModel } from '../../staging/room-model.js';
import type { RawImage } from '../../vision/raw-image.js';
import { findClutter } from '../../vision/declutter/clutter.js';
import { MIN_PLANE_CONFIDENCE } from '../declutter/declutter-photo.js';
import { floorMask } from '../declutter/room-planes.js';
import type { RoomAnalysis } from '../geometry/analyze-room.js';
import { layoutReport, missingFloor, networkContradicts, unsureLayout } from '../geometry/layout-trust.js';
import { analyzeWithSecondOpinion, type ChosenLines, type SecondOpinion } from '../operations/line-source-choice.js';
import { boxOutline, shrunkOutline, type ExistingFurniture, type FurnishedPhoto } from './furnish-piece.js';
import { plainWallCheck } from './plain-wall-check.js';
import { renderPieces, type RenderQuality } from './render-pieces.js';
import type { FurnitureRenderer } from './furniture-renderer.js';

/** Share of the single piece's samples a whole room is rendered with. */
export const WHOLE_ROOM_SAMPLES_SHARE = 0.5;
/** The largest render of a whole room; a larger photo's room is rendered at this size and resampled up. */
export const MAX_ROOM_RENDER_PIXELS = 1_200_000;
/**
 * The most pixels a whole room's regions are rendered with, together; larger regions are rendered smaller and resampled
 * up. Cycles' time follows the pixels, not the samples: on empty_bedroom_03 at 2 MP (a bed close to the camera, a
 * region of 0.97 MP at 1.2 MP) 96 samples took 97.7 s, 48 took 92.8 s (most pixels run to the adaptive threshold's
 * end either way), and 0.55 MP took 57.3 s, looking the same on the contact sheet (docs/decisions/0012).
 */
export const MAX_ROOM_REGION_PIXELS = 500_000;
/**
 * Cycles' adaptive threshold for a whole room (a single piece keeps Blender's 0.01). Most of a room's render is floor
 * and wall that only catch shadows, and their ratio is smoothed before the composite; the pieces are denoised with
 * the feature passes. Measured on empty_living_01 at 2 MP (9 pieces, 96 samples) against a 384-sample render at
 * 0.002: CPU time 204 s at 0.01, 153 s at 0.03, 108 s at 0.06; the denoised pieces 44.4, 43.9 and 41.7 dB from the
 * reference (an RMS error of 2 levels, under the grain the composite adds), the smoothed shadow ratio 0.0022, 0.0025
 * and 0.0030 RMS (docs/decisions/0012).
 */
export const WHOLE_ROOM_ADAPTIVE_THRESHOLD = 0.05;
/**
 * Least share of the photo the layout's floor must cover for a whole room, where the photo looks down at the floor
 * (missingFloor). On the shared empty rooms the layouts that were right showed 11–35 % floor; the ones that had put
 * the floor's edge far too low showed 0–6 % (empty_studio_white_03 at 6 %, drawn layout error 21 %: pieces too large
 * and floating), and the share moved by at most 0.02 between 1024 px, 2 MP and full size where the layout stayed the
 * same (docs/decisions/0012).
 */
export const MIN_ROOM_FLOOR_SHARE = 0.08;
/**
 * Least layout confidence for a whole room. Lower than the refresh's 0.6: on right layouts the confidence swung
 * between 0.47 and 1.00 over three sizes of one photo; a photo with no room in it (a blank wall) gets the analysis's
 * fallback box at 0 (docs/decisions/0012).
 */
export const MIN_ROOM_LAYOUT_CONFIDENCE = 0.3;

export interface StageRoomRequest {
  roomId: string;
  styleId: string;
  seed: number;
  preserveWindows: boolean;
  /** Photo-sized, non-zero where furniture may stand. */
  mask?: Uint8Array;
  /** Lamps, plants and rugs alone (smart-staging-v2, furnish); the legacy smart-staging leaves them out. */
  decor: boolean;
  /** Refine the arrangement by simulated annealing (smart-staging-v2, furnish); the legacy one takes the first good one. */
  anneal: boolean;
  /** Whether the caller chose preserveWindows (furnish) or the endpoint always keeps windows (the smart stagings). */
  windowsChosen: boolean;
  /** The fix a refusal suggests, where the caller knows better than the request's own switches (a redesign). */
  refusalFix?: string;
  /** The fix a refusal for an unsure layout suggests (a redesign's other steps stand). */
  layoutFix?: string;
  /** Hang nothing on the walls (a redesign asked to preserve them). */
  wallsPreserved?: boolean;
}

/**
 * Why a whole room would not be planned on this layout: one found without evidence, one that shows too little of the
 * floor, or a lines' layout the room network's map contradicts (networkContradicts) comes out as pieces too large,
 * floating or cut by the frame; refused, where a single piece at a marked spot may still do.
 */
export function roomLayoutDoubt(analysis: RoomAnalysis): string | undefined {
  return unsureLayout(analysis, MIN_ROOM_LAYOUT_CONFIDENCE) ?? missingFloor(analysis, MIN_ROOM_FLOOR_SHARE) ?? networkContradicts(analysis);
}

/**
 * A whole room staged into a photo: the room from the geometry analysis, the room type's programme planned on the
 * floor the photo shows (around any furniture already standing), every piece drawn from the seed in the style, all
 * rendered in one Blender scene lit by the photo's light and composited by differential rendering, so that only the
 * furniture and its shadows change.
 */
export async function stageRoom(
  image: RawImage,
  request: StageRoomRequest,
  deps: {
    lines: ChosenLines;
    renderer: FurnitureRenderer;
    quality: RenderQuality;
    existing?: ExistingFurniture;
    /**
     * This photo's room as an earlier step analysed it, with `networkDoubt` where the lines' layout stood in (a
     * redesign's); else analysed here (analyzeWithSecondOpinion with roomLayoutDoubt).
     */
    analysis?: SecondOpinion;
    signal?: AbortSignal;
    progress?: (fraction: number) => void;
  },
): Promise<FurnishedPhoto> {
  const progress = deps.progress ?? (() => {});
  // The network's box moved onto its map where it is sure of it (decision 0026): furniture stands better on it. A
  // redesign's analysis, shared with its paint, is the fit alone.
  const { analysis, networkDoubt } = deps.analysis ?? (await analyzeWithSecondOpinion(image, deps.lines, roomLayoutDoubt, deps.signal, { fitToMap: true }));
  progress(0.15);
  const doubt = roomLayoutDoubt(analysis);
  if (doubt) {
    const fix =
      request.layoutFix ??
      'furnish single pieces with furnitureId and a mask marking the floor where each should stand; a photo taken level from a corner, with the floor and two walls in view, is analysed more surely';
    throw new AppError('layout_uncertain', 422, `${doubt}: ${fix}`);
  }
  const room = roomFromLines(analysis, request.mask !== undefined);
  const standing = deps.existing ? await deps.existing.find(image, deps.signal) : undefined;
  // What the room network sees standing (a kitchen island, a sofa's back): its box holds the whole thing, so no
  // piece's image may overlap it, in front of it or behind it.
  const obstacles = [...(standing ?? []).map(shrunkOutline), ...floorStandingOutlines(image, analysis), ...(analysis.standing ?? []).map((b) => boxOutline(b))];
  const plan = planRoom(room, {
    roomId: request.roomId,
    styleId: request.styleId,
    seed: request.seed,
    preserveWindows: request.preserveWindows,
    decor: request.decor,
    anneal: request.anneal,
    ...(request.mask ? { mask: request.mask } : {}),
    ...(obstacles.length ? { obstacles } : {}),
    plainWall: plainWallCheck(image, room, request.wallsPreserved === true),
  });
  // A plan that leaves out the room's main group (no bed in a bedroom) or still breaks a rule is refused, not rendered.
  if (plan.pieces.length === 0 || plan.violations.length > 0) {
    const why = plan.pieces.length === 0 ? 'no piece of the room’s programme fits on the floor seen in the photo' : plan.violations.join('; ');
    const fix =
      request.refusalFix ??
      (request.mask
        ? 'mark a larger area of visible floor'
        : (standing?.length ?? 0) > 0
          ? 'declutter the photo first (POST /v1/declutter): the furniture already standing leaves no room'
          : request.preserveWindows
            ? request.windowsChosen
              ? 'leave preserveWindows off, or furnish single pieces with furnitureId'
              : 'POST /v1/furnish with this roomId and preserveWindows false lets furniture stand before windows; or furnish single pieces with furnitureId'
            : 'furnish single pieces with furnitureId');
    throw new AppError('no_room_for_furniture', 400, `${why}: ${fix}`);
  }
  const available = await deps.renderer.available();
  if (!available.ok) throw new AppError('renderer_unavailable', 503, `staging needs Blender, which is not usable here: ${available.reason}`);
  const built = plan.pieces.map((p, k) => ({ name: `${k}-${p.furnitureId}`, placement: p.placement, geometry: p.piece.build() }));
  // A whole room's region covers much of the photo, and every pixel of it is rendered: at the single piece's samples
  // and resolution a 2 MP room took ten minutes on two loaded cores. Half the samples (the denoiser carries them), a
  // looser adaptive threshold, and at most a 1.2 MP render with at most 0.5 MP of regions, resampled up
  // (docs/decisions/0012).
  const quality = {
    ...deps.quality,
    samples: Math.max(Math.min(32, deps.quality.samples), Math.round(deps.quality.samples * WHOLE_ROOM_SAMPLES_SHARE)),
    maxRenderPixels: Math.min(deps.quality.maxRenderPixels ?? MAX_ROOM_RENDER_PIXELS, MAX_ROOM_RENDER_PIXELS),
    maxRegionPixels: Math.min(deps.quality.maxRegionPixels ?? MAX_ROOM_REGION_PIXELS, MAX_ROOM_REGION_PIXELS),
    adaptiveThreshold: deps.quality.adaptiveThreshold ?? WHOLE_ROOM_ADAPTIVE_THRESHOLD,
  };
  const rendered = await renderPieces(image, room, built, request.seed, { ...deps, quality, progress });
  const { render, light } = rendered;
  const round = (v: number) => Math.round(v * 1000) / 1000;
  return {
    image: rendered.image,
    changeMask: rendered.changeMask,
    result: {
      staging: {
        engine: 'blender-cycles',
        seed: request.seed,
        roomId: request.roomId,
        pieces: plan.pieces.map((p) => ({
          furnitureId: p.furnitureId,
          styleId: p.piece.styleId,
          group: p.group,
          size: { width: round(p.piece.footprint.width), depth: round(p.piece.footprint.depth), height: round(p.piece.footprint.height) },
          position: { x: round(p.placement.x), y: round(p.placement.y), z: round(room.box.floor + p.piece.footprint.elevation) },
          yawDegrees: round((p.placement.yaw * 180) / Math.PI),
          ...(p.placement.against ? { against: p.placement.against } : {}),
          box3d: p.placement.corners.map((c) => c.map(round)),
          imageBox: p.placement.imageBox,
        })),
        plan: planSummary(room, plan, round, planSvg(room, plan)),
        changedPixels: rendered.changedPixels,
        unchangedShare: round(1 - rendered.changedPixels / (image.width * image.height)),
        lights: light.lights.map((l) => l.from),
        existingFurniture: standing ? standing.length : null,
        lightScale: round(render.lightScale),
        geometryConfidence: round(analysis.confidence.overall),
        // Where the lines' layout stood in for the room network's (analyzeWithSecondOpinion), and why.
        layout: layoutReport(analysis, networkDoubt),
        renderSeconds: round(render.seconds),
        renderRegions: render.regions,
        renderPeakMemoryMiB: Math.round(render.peakMemoryMiB),
        samples: quality.samples,
        renderScale: round(render.scale),
        denoised: render.denoised,
      },
    },
  };
}

/** Widest a floor region may be, over its height, to be taken for something standing (floorStandingOutlines). */
const MAX_STANDING_ASPECT = 3;

/**
 * What stands on the floor that no detector names (a pillar, the foot of a kitchen island, a box), as the declutter's
 * floor-clutter finder sees it, where the layout is trusted enough for it. Its box holds only the floor part of each,
 * so the outline reaches up to the top of the photo: a piece whose image overlaps it would be drawn over it, whether
 * it stood behind it or before it (seen on empty_living_03: a sofa drawn through a pillar standing in front of it).
 */
function floorStandingOutlines(image: RawImage, analysis: RoomAnalysis): [number, number][][] {
  if (!(analysis.confidence.layout >= MIN_PLANE_CONFIDENCE)) return [];
  const { boxes } = findClutter(image, floorMask(analysis), new Uint8Array(image.width * image.height));
  const margin = 2;
  // Only compact regions inside the frame: a long strip is the layout's floor edge running along a wall's foot (a
  // rendered room's bounce light read as clutter: 556 × 44 px), and a region cut by the frame is most often the
  // layout's error at the border; neither is something standing (the pillar's foot: 40 × 38 px).
  const standing = boxes.filter(
    (b) => b.width <= MAX_STANDING_ASPECT * b.height && b.x > margin && b.x + b.width < image.width - margin && b.y + b.height < image.height - margin,
  );
  return standing.map((b) => [[b.x, 0], [b.x + b.width, 0], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]]);
}

/** The plan as the job reports it: the floor in metres, each footprint, what was left out, and a drawing from above. */
function planSummary(room: Pick<RoomModel, 'box' | 'blocks'>, plan: RoomPlan, round: (v: number) => number, svg: string): Record<string, unknown> {
  const { box } = room;
  return {
    // World metres, the camera at the origin, X right, Y forward (docs/api.md).
    room: { left: round(box.left), right: round(box.right), front: round(box.front) },
    columns: room.blocks.map((b) => ({ x0: round(b.x0), x1: round(b.x1), y0: round(b.y0), y1: round(b.y1) })),
    footprints: plan.pieces.map((p) => ({ furnitureId: p.furnitureId, corners: p.placement.corners.slice(0, 4).map((c) => [round(c[0]), round(c[1])]) })),
    missing: plan.missing,
    completeness: round(plan.completeness),
    mainWalkway: plan.mainWalkway,
    planMilliseconds: plan.milliseconds,
    imageUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
  };
}
