import { estimateLight, type LightEstimate } from '../../staging/light-estimate.js';
import type { Placement } from '../../staging/place-piece.js';
import { renderRegion, renderScene, scaleRenderScene, type RenderGrid } from '../../staging/render-setup.js';
import type { RoomModel } from '../../staging/room-model.js';
import type { PieceGeometry } from '../../furniture/generator.js';
import type { RenderPasses } from '../../repositories/blender/render-scene.js';
import { compositeRenderedLayer, estimateNoiseLevel } from '../../vision/differential-composite.js';
import { resizeLanczos3 } from '../../vision/lanczos.js';
import { polygonMask } from '../../vision/polygon-mask.js';
import type { RawImage } from '../../vision/raw-image.js';
import { MAX_RENDER_PIXELS, renderedLayer, type RenderQuality } from './furnish-piece.js';
import type { FurnitureRenderer } from './furniture-renderer.js';

export interface RenderedPieces {
  image: RawImage;
  changeMask: Uint8Array;
  changedPixels: number;
  light: LightEstimate;
  passes: RenderPasses;
  grid: RenderGrid;
}

/**
 * Placed pieces rendered in one Blender scene of the photo's room, camera and light (the region they and their
 * shadows cover only, at most `maxRenderPixels`), and composited by differential rendering: only the pieces and
 * their shadows change; shadows never fall on the view through a window or door.
 */
export async function renderPieces(
  image: RawImage,
  room: RoomModel,
  pieces: { name: string; placement: Placement; geometry: PieceGeometry }[],
  seed: number,
  deps: { renderer: FurnitureRenderer; quality: RenderQuality; signal?: AbortSignal; progress: (fraction: number) => void },
): Promise<RenderedPieces> {
  const light = estimateLight(image, room);
  const region = renderRegion(room, pieces.map((p) => p.placement));
  const scene = renderScene({ room, light, pieces, region, samples: deps.quality.samples, threads: deps.quality.threads, seed });
  const scaled = scaleRenderScene(scene, deps.quality.maxRenderPixels ?? MAX_RENDER_PIXELS);
  // The catchers take the photo as their albedo through the frame's coordinates: a photo of the render's size will do.
  const photo = scaled.grid.scale < 1 ? resizeLanczos3(image, scaled.scene.width, scaled.scene.height) : image;
  deps.progress(0.25);
  const passes = await deps.renderer.render(scaled.scene, { photo, ...(deps.signal ? { signal: deps.signal } : {}) });
  deps.progress(0.9);
  const composite = compositeRenderedLayer(image, renderedLayer(passes, scaled.grid, region), {
    grain: estimateNoiseLevel(image, region),
    seed,
    unshadowed: polygonMask(image.width, image.height, room.openings.map((o) => o.polygon)),
  });
  return { image: composite.image, changeMask: composite.changeMask, changedPixels: composite.changedPixels, light, passes, grid: scaled.grid };
}
