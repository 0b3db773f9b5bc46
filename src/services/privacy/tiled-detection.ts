import type { ScoredBox } from '../../vision/box.js';
import { cropSquare, resizeArea, type PlanarImage } from '../../vision/privacy/planar-image.js';
import type { TileLevel } from '../../vision/tiling.js';
import type { RawImage } from '../../vision/raw-image.js';

/** Runs a detector on one square model input (NCHW RGB in [0, 1]) and returns its boxes in that input's pixels. */
export type TileDetector<T extends ScoredBox> = (input: Float32Array) => Promise<T[]>;

/**
 * Runs `detect` on every tile of every level (fine to coarse, see planTiles) and returns all boxes in photo pixels.
 * A box reaching a tile edge that is not the photo's edge is dropped: it is probably part of an object that the
 * overlap lets a neighbouring tile, or a coarser level, see whole.
 */
export async function detectOverTiles<T extends ScoredBox>(
  image: RawImage,
  levels: readonly TileLevel[],
  inputSize: number,
  detect: TileDetector<T>,
): Promise<T[]> {
  const found: T[] = [];
  let source: PlanarImage | RawImage = image;
  for (const level of levels) {
    // Each level is shrunk from the one before: cheaper than from the photo, and area means compose.
    const resized: PlanarImage = resizeArea(source, level.width, level.height);
    source = resized;
    for (const tile of level.tiles) {
      for (const box of await detect(cropSquare(resized, tile.x, tile.y, inputSize))) {
        const inLevel = { ...box, x: box.x + tile.x, y: box.y + tile.y };
        if (isCutByTile(inLevel, tile, level, inputSize)) continue;
        found.push({ ...inLevel, x: inLevel.x / level.scaleX, y: inLevel.y / level.scaleY, width: box.width / level.scaleX, height: box.height / level.scaleY });
      }
    }
  }
  return found;
}

function isCutByTile(box: ScoredBox, tile: { x: number; y: number }, level: TileLevel, size: number): boolean {
  const slack = 2;
  return (
    (tile.x > 0 && box.x < tile.x + slack) ||
    (tile.y > 0 && box.y < tile.y + slack) ||
    (tile.x + size < level.width && box.x + box.width > tile.x + size - slack) ||
    (tile.y + size < level.height && box.y + box.height > tile.y + size - slack)
  );
}
