import type { RenderPasses, RenderScene } from '../../repositories/blender/render-scene.js';
import type { RawImage } from '../../vision/raw-image.js';

/** What staging needs of a renderer: the Blender repository in the service, a stand-in in tests. */
export interface FurnitureRenderer {
  /** Whether rendering can run here, and why not (Blender missing, wrong version). */
  available(): Promise<{ ok: true; version: string } | { ok: false; reason: string }>;
  /** Renders the scene; `photo` is projected onto the room's surfaces as their colour. */
  render(scene: RenderScene, options: { photo?: RawImage; signal?: AbortSignal }): Promise<RenderPasses>;
}
