import { estimateLight, type LightEstimate } from '../../staging/light-estimate.js';
import type { Placement } from '../../staging/place-piece.js';
import { renderRegions, renderScene, scaleRenderScene, type Region, type RenderGrid } from '../../staging/render-setup.js';
import type { RoomModel } from '../../staging/room-model.js';
import type { PieceGeometry } from '../../furniture/generator.js';
import type { RenderPasses } from '../../repositories/blender/render-scene.js';
import { compositeRenderedLayer, estimateNoiseLevel, type RenderedLayer } from '../../vision/differential-composite.js';
import { denoiseLayer } from '../../vision/feature-denoise.js';
import { resampleLayer } from '../../vision/resample-layer.js';
import { resizeLanczos3 } from '../../vision/lanczos.js';
import { framedOpeningsMask } from '../../vision/geometry/opening-frames.js';
import type { RawImage } from '../../vision/raw-image.js';
import type { FurnitureRenderer } from './furniture-renderer.js';

export interface RenderQuality {
  /** Cycles samples per pixel of the final render. */
  samples: number;
  threads: number;
  /**
   * Cycles' adaptive sampling threshold: a pixel stops sampling once its noise estimate is under it (RenderScene's
   * default 0.01 when absent).
   */
  adaptiveThreshold?: number;
  /**
   * The render's resolution as a photo of at most this many pixels (default MAX_RENDER_PIXELS); a larger photo's
   * region is rendered smaller and resampled up to it.
   */
  maxRenderPixels?: number;
  /**
   * The most pixels the rendered regions together may have; the regions are rendered smaller (and resampled up) to
   * stay under it. Absent: no limit besides `maxRenderPixels`.
   */
  maxRegionPixels?: number;
}

/**
 * A 12 MP photo's region is rendered as if the photo had 4 MP and resampled up (1.7× in each direction): a phone's
 * 12 MP photo is not sharper than that at the pixel (demosaicing, noise reduction, JPEG), and the render costs a
 * third of its pixels × samples (docs/decisions/0011, 2026-11-26).
 */
export const MAX_RENDER_PIXELS = 4_000_000;

export interface RenderedPieces {
  image: RawImage;
  changeMask: Uint8Array;
  changedPixels: number;
  light: LightEstimate;
  render: RenderSummary;
}

/** What the Blender runs of one staging took, summed over the regions rendered. */
export interface RenderSummary {
  /** Rectangles rendered, each in a Blender run of its own. */
  regions: number;
  seconds: number;
  /** The largest of the runs' peak memory. */
  peakMemoryMiB: number;
  /** The light calibration's scale (the same scene and seed calibrate every run alike). */
  lightScale: number;
  /** Whether every region's pieces were denoised with the render's feature passes. */
  denoised: boolean;
  /** The render's pixels per photo pixel along each side (1: rendered at the photo's resolution). */
  scale: number;
}

/**
 * Placed pieces rendered in Blender scenes of the photo's room, camera and light, and composited by differential
 * rendering: only the pieces and their shadows change; shadows never fall on a window or door, its frame or the view.
 * Only the regions the pieces and their shadows cover are rendered (renderRegions: disjoint rectangles, one Blender
 * run each, every piece in every scene so that each casts its shadow wherever it falls), at most `maxRenderPixels`.
 */
export async function renderPieces(
  image: RawImage,
  room: RoomModel,
  pieces: { name: string; placement: Placement; geometry: PieceGeometry }[],
  seed: number,
  deps: { renderer: FurnitureRenderer; quality: RenderQuality; signal?: AbortSignal; progress: (fraction: number) => void },
): Promise<RenderedPieces> {
  const light = estimateLight(image, room);
  const regions = renderRegions(room, pieces.map((p) => p.placement));
  const unshadowed = framedOpeningsMask(image.width, image.height, room.openings.map((o) => o.polygon));
  const changeMask = new Uint8Array(image.width * image.height);
  const maxPixels = renderPixelLimit(image, regions, deps.quality);
  const summary: RenderSummary = { regions: regions.length, seconds: 0, peakMemoryMiB: 0, lightScale: 1, denoised: true, scale: 1 };
  let composite = image;
  let changedPixels = 0;
  // The catchers take the photo as their albedo through the frame's coordinates: a photo of the render's size will do.
  let renderPhoto: RawImage | undefined;
  deps.progress(0.25);
  for (const [k, region] of regions.entries()) {
    const scene = {
      ...renderScene({ room, light, pieces, region, samples: deps.quality.samples, threads: deps.quality.threads, seed }),
      ...(deps.quality.adaptiveThreshold === undefined ? {} : { adaptiveThreshold: deps.quality.adaptiveThreshold }),
    };
    const scaled = scaleRenderScene(scene, maxPixels);
    renderPhoto ??= scaled.grid.scale < 1 ? resizeLanczos3(image, scaled.scene.width, scaled.scene.height) : image;
    const passes = await deps.renderer.render(scaled.scene, { photo: renderPhoto, ...(deps.signal ? { signal: deps.signal } : {}) });
    // The regions are disjoint, so each composite starts from the photo's own pixels there.
    const layer = compositeRenderedLayer(composite, renderedLayer(passes, scaled.grid, region), {
      grain: estimateNoiseLevel(image, region),
      seed: seed + k,
      unshadowed,
    });
    composite = layer.image;
    for (let p = 0; p < changeMask.length; p++) changeMask[p] ||= layer.changeMask[p]!;
    changedPixels += layer.changedPixels;
    summary.seconds += passes.seconds;
    summary.peakMemoryMiB = Math.max(summary.peakMemoryMiB, passes.peakMemoryMiB);
    summary.lightScale = passes.lightScale;
    summary.denoised &&= passes.guides !== undefined;
    summary.scale = scaled.grid.scale;
    deps.progress(0.25 + (0.65 * (k + 1)) / regions.length);
  }
  return { image: composite, changeMask, changedPixels, light, render: summary };
}

/**
 * The photo size the scenes are rendered at, as a pixel count for scaleRenderScene: at most `maxRenderPixels`, and
 * smaller still where the regions would together have more than `maxRegionPixels` at that size. The time Cycles takes
 * grows with the pixels rendered, not with the pieces (docs/decisions/0012).
 */
export function renderPixelLimit(image: Pick<RawImage, 'width' | 'height'>, regions: readonly Region[], quality: Pick<RenderQuality, 'maxRenderPixels' | 'maxRegionPixels'>): number {
  const photoPixels = image.width * image.height;
  const limit = Math.min(photoPixels, quality.maxRenderPixels ?? MAX_RENDER_PIXELS);
  if (quality.maxRegionPixels === undefined) return limit;
  const regionPixels = regions.reduce((sum, r) => sum + (r.x1 - r.x0) * (r.y1 - r.y0), 0);
  // The regions' pixels shrink with the photo's: at `limit` they have regionPixels · limit / photoPixels.
  const atLimit = (regionPixels * limit) / photoPixels;
  return atLimit <= quality.maxRegionPixels ? limit : (limit * quality.maxRegionPixels) / atLimit;
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
