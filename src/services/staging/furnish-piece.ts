import { AppError } from '../../errors.js';
import { samplePiece } from '../../furniture/library.js';
import { Random } from '../../random.js';
import { placePiece } from '../../staging/place-piece.js';
import { roomFromLines } from '../../staging/room-from-lines.js';
import { plainWallCheck } from './plain-wall-check.js';
import type { Box } from '../../vision/box.js';
import type { RawImage } from '../../vision/raw-image.js';
import { renderPieces, type RenderQuality } from './render-pieces.js';
import { analyzeWithLines, type ChosenLines } from '../operations/line-source-choice.js';
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
  const analysis = await analyzeWithLines(image, deps.lines, deps.signal);
  progress(0.15);
  const room = roomFromLines(analysis, request.mask !== undefined);
  const standing = deps.existing ? await deps.existing.find(image, deps.signal) : undefined;
  const obstacles = (standing ?? []).map(shrunkOutline);
  const piece = samplePiece(request.furnitureId, request.styleId, request.seed);
  const outcome = placePiece(room, {
    obstacles,
    footprint: piece.footprint,
    preserveWindows: request.preserveWindows,
    random: new Random(request.seed).fork('placement'),
    // A user's mask (or point) is their own choice of where the piece goes, as with door frames and columns
    // (roomFromLines): the photo's walls are not second-guessed there.
    ...(request.mask ? { mask: request.mask } : request.at ? {} : { plainWall: plainWallCheck(image, room, false) }),
    ...(request.at ? { at: request.at } : {}),
  });
  if (!outcome.placed) {
    const fix = request.mask
      ? 'mark a larger area of visible floor, or choose a smaller piece'
      : /already in the photo/.test(outcome.reason)
        ? 'declutter the photo first, or choose a smaller piece'
        : /no plain wall/.test(outcome.reason)
          ? 'send a mask marking the floor where it should stand, or choose another piece'
          : request.preserveWindows
          ? 'choose a smaller piece, or leave preserveWindows off'
          : 'choose a smaller piece';
    throw new AppError('no_room_for_furniture', 400, `${outcome.reason}: ${fix}`);
  }
  const { placement } = outcome;
  // Checked after placement: a request that cannot be placed is the caller's to fix (400) whatever the machine has.
  const available = await deps.renderer.available();
  if (!available.ok) throw new AppError('renderer_unavailable', 503, `staging needs Blender, which is not usable here: ${available.reason}`);
  const rendered = await renderPieces(image, room, [{ name: piece.id, placement, geometry: piece.build() }], request.seed, { ...deps, progress });
  const { render, light } = rendered;
  const round = (v: number) => Math.round(v * 1000) / 1000;
  return {
    image: rendered.image,
    changeMask: rendered.changeMask,
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
        changedPixels: rendered.changedPixels,
        lights: light.lights.map((l) => l.from),
        // Furniture already in the photo, kept clear of; null when the detectors are not installed (not checked).
        existingFurniture: standing ? standing.length : null,
        lightScale: round(render.lightScale),
        geometryConfidence: round(analysis.confidence.overall),
        renderSeconds: round(render.seconds),
        renderPeakMemoryMiB: Math.round(render.peakMemoryMiB),
        samples: deps.quality.samples,
        // The render's pixels per photo pixel along each side (1: rendered at the photo's resolution).
        renderScale: round(render.scale),
        denoised: render.denoised,
      },
    },
  };
}

/**
 * A detection box as an outline, shrunk by a tenth on each side: detector boxes run loose around their object, and a
 * piece beside a sofa must not be refused for the box's slack.
 */
export function shrunkOutline(box: Box): [number, number][] {
  return boxOutline(box, 0.1);
}

/** A box as an outline (the planner's obstacles), `inset` of its width and height taken off each side. */
export function boxOutline(box: Box, inset = 0): [number, number][] {
  const dx = box.width * inset;
  const dy = box.height * inset;
  const x0 = box.x + dx;
  const y0 = box.y + dy;
  const x1 = box.x + box.width - dx;
  const y1 = box.y + box.height - dy;
  return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
}
