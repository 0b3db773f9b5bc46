import { AppError } from '../../errors.js';
import { samplePiece } from '../../furniture/library.js';
import { Random } from '../../random.js';
import { estimateLight } from '../../staging/light-estimate.js';
import { placePiece } from '../../staging/place-piece.js';
import { renderRegion, renderScene, scaleRenderScene, type RenderGrid } from '../../staging/render-setup.js';
import { roomModel } from '../../staging/room-model.js';
import type { RenderPasses } from '../../repositories/blender/render-scene.js';
import { compositeRenderedLayer, estimateNoiseLevel, type RenderedLayer } from '../../vision/differential-composite.js';
import { denoiseLayer } from '../../vision/feature-denoise.js';
import { resizeLanczos3 } from '../../vision/lanczos.js';
import { resampleLayer } from '../../vision/resample-layer.js';
import type { Box } from '../../vision/box.js';
import { polygonMask } from '../../vision/polygon-mask.js';
import type { RawImage } from '../../vision/raw-image.js';
import { analyzeRoom } from '../geometry/analyze-room.js';
import type { ChosenLines } from '../operations/line-source-choice.js';
import type { FurnitureRenderer } from './furniture-renderer.js';

export interface FurnishPieceRequest {
  furnitureId: string;
  styleId: string;
  seed: number;
  preserveWindows: boolean;
  /** Photo-sized, non-zero where the piece may stand. */
  mask?: Uint8Array;
  /** Known-answer scenes: the footprint's centre at this floor pixel, turned by yaw. */
  at?: { x: number; y: number; yaw: number };
}

/** Furniture already in the photo, found by the declutter detectors; absent when they are not installed. */
export interface ExistingFurniture {
  find(image: RawImage, signal?: AbortSignal): Promise<Box[]>;
}

export interface RenderQuality {
  /** Cycles samples per pixel of the final render. */
  samples: number;
  threads: number;
  /**
   * The render's resolution as a photo of at most this many pixels (default MAX_RENDER_PIXELS); a larger photo's
   * region is rendered smaller and resampled up to it.
   */
  maxRenderPixels?: number;
}

/**
 * A 12 MP photo's region is rendered as if the photo had 4 MP and resampled up (1.7× in each direction): a phone's
 * 12 MP photo is not sharper than that at the pixel (demosaicing, noise reduction, JPEG), and the render costs a
 * third of its pixels × samples (docs/decisions/0011, 2026-11-26).
 */
export const MAX_RENDER_PIXELS = 4_000_000;

export interface FurnishedPhoto {
  image: RawImage;
  changeMask: Uint8Array;
  result: Record<string, unknown>;
}

/**
 * One piece of furniture rendered into a photo: the room from the geometry analysis, the piece drawn from the seed
 * in the style, placed at the best free spot, lit by the photo's light, composited by differential rendering so that
 * only the piece and its shadows change.
 */
export async function furnishPiece(
  image: RawImage,
  request: FurnishPieceRequest,
  deps: {
    lines: ChosenLines;
    renderer: FurnitureRenderer;
    quality: RenderQuality;
    existing?: ExistingFurniture;
    signal?: AbortSignal;
    progress?: (fraction: number) => void;
  },
): Promise<FurnishedPhoto> {
  const progress = deps.progress ?? (() => {});
  const analysis = await analyzeRoom(image, deps.lines.layout, {
    ...(deps.lines.vanishingPoints ? { vanishingPointLines: deps.lines.vanishingPoints } : {}),
    lineSourceName: deps.lines.name,
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  progress(0.15);
  const room = roomModel(analysis);
  const standing = deps.existing ? await deps.existing.find(image, deps.signal) : undefined;
  const obstacles = (standing ?? []).map(shrunkOutline);
  const piece = samplePiece(request.furnitureId, request.styleId, request.seed);
  const outcome = placePiece(room, {
    obstacles,
    footprint: piece.footprint,
    preserveWindows: request.preserveWindows,
    random: new Random(request.seed).fork('placement'),
    ...(request.mask ? { mask: request.mask } : {}),
    ...(request.at ? { at: request.at } : {}),
  });
  if (!outcome.placed) {
    const fix = request.mask
      ? 'mark a larger area of visible floor, or choose a smaller piece'
      : /already in the photo/.test(outcome.reason)
        ? 'declutter the photo first, or choose a smaller piece'
        : request.preserveWindows
          ? 'choose a smaller piece, or leave preserveWindows off'
          : 'choose a smaller piece';
    throw new AppError('no_room_for_furniture', 400, `${outcome.reason}: ${fix}`);
  }
  const { placement } = outcome;
  // Checked after placement: a request that cannot be placed is the caller's to fix (400) whatever the machine has.
  const available = await deps.renderer.available();
  if (!available.ok) throw new AppError('renderer_unavailable', 503, `staging needs Blender, which is not usable here: ${available.reason}`);
  const geometry = piece.build();
  const light = estimateLight(image, room);
  const region = renderRegion(room, [placement]);
  const scene = renderScene({
    room,
    light,
    pieces: [{ name: piece.id, placement, geometry }],
    region,
    samples: deps.quality.samples,
    threads: deps.quality.threads,
    seed: request.seed,
  });
  const scaled = scaleRenderScene(scene, deps.quality.maxRenderPixels ?? MAX_RENDER_PIXELS);
  // The catchers take the photo as their albedo through the frame's coordinates: a photo of the render's size will do.
  const photo = scaled.grid.scale < 1 ? resizeLanczos3(image, scaled.scene.width, scaled.scene.height) : image;
  progress(0.25);
  const passes = await deps.renderer.render(scaled.scene, { photo, ...(deps.signal ? { signal: deps.signal } : {}) });
  progress(0.9);
  const grain = estimateNoiseLevel(image, region);
  const composite = compositeRenderedLayer(image, renderedLayer(passes, scaled.grid, region), {
    grain,
    seed: request.seed,
    unshadowed: polygonMask(image.width, image.height, room.openings.map((o) => o.polygon)),
  });
  const round = (v: number) => Math.round(v * 1000) / 1000;
  return {
    image: composite.image,
    changeMask: composite.changeMask,
    result: {
      staging: {
        engine: 'blender-cycles',
        seed: request.seed,
        pieces: [
          {
            furnitureId: piece.id,
            styleId: piece.styleId,
            size: { width: round(piece.footprint.width), depth: round(piece.footprint.depth), height: round(piece.footprint.height) },
            // World metres, the camera at the origin, X right, Y forward, Z up (docs/api.md).
            position: { x: round(placement.x), y: round(placement.y), z: round(room.box.floor + piece.footprint.elevation) },
            yawDegrees: round((placement.yaw * 180) / Math.PI),
            ...(placement.against ? { against: placement.against } : {}),
            box3d: placement.corners.map((c) => c.map(round)),
            imageBox: placement.imageBox,
          },
        ],
        changedPixels: composite.changedPixels,
        lights: light.lights.map((l) => l.from),
        // Furniture already in the photo, kept clear of; null when the detectors are not installed (not checked).
        existingFurniture: standing ? standing.length : null,
        lightScale: round(passes.lightScale),
        geometryConfidence: round(analysis.confidence.overall),
        renderSeconds: round(passes.seconds),
        renderPeakMemoryMiB: Math.round(passes.peakMemoryMiB),
        samples: deps.quality.samples,
        // The render's pixels per photo pixel along each side (1: rendered at the photo's resolution).
        renderScale: round(scaled.grid.scale),
        denoised: passes.guides !== undefined,
      },
    },
  };
}

/**
 * The layer the composite takes from a render: the pieces denoised with the render's feature passes (when it has
 * them), at the render's resolution, then resampled onto the photo's pixels of the region when it was rendered
 * smaller.
 */
export function renderedLayer(passes: RenderPasses, grid: RenderGrid, region: { x0: number; y0: number; x1: number; y1: number }): RenderedLayer {
  const pieces = passes.guides ? denoiseLayer(passes.width, passes.height, passes.pieces, passes.guides) : passes.pieces;
  if (grid.scale === 1) return { x0: region.x0, y0: region.y0, width: passes.width, height: passes.height, pieces, shadow: passes.shadow };
  const target = { x0: region.x0, y0: region.y0, width: region.x1 - region.x0, height: region.y1 - region.y0 };
  const resampled = resampleLayer({ width: passes.width, height: passes.height, pieces, shadow: passes.shadow }, grid, target);
  return { ...target, pieces: resampled.pieces, shadow: resampled.shadow };
}

/**
 * A detection box as an outline, shrunk by a tenth on each side: detector boxes run loose around their object, and a
 * piece beside a sofa must not be refused for the box's slack.
 */
export function shrunkOutline(box: Box): [number, number][] {
  const dx = box.width * 0.1;
  const dy = box.height * 0.1;
  const x0 = box.x + dx;
  const y0 = box.y + dy;
  const x1 = box.x + box.width - dx;
  const y1 = box.y + box.height - dy;
  return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
}
