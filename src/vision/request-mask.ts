import type { RawImage } from './raw-image.js';

/**
 * A request's mask image as a full-image mask: 1 where its first channel is white or opaque (≥ 128), as the spec's
 * masks mark what an operation may change (the hole to fill, the floor to furnish, the area to redesign).
 */
export function markedPixels(mask: RawImage): Uint8Array {
  const marked = new Uint8Array(mask.width * mask.height);
  for (let i = 0; i < marked.length; i++) marked[i] = mask.data[i * mask.channels]! >= 128 ? 1 : 0;
  return marked;
}
