/**
 * One level of a tile pyramid: the photo resized to `width` × `height`, and the top-left corners of square tiles
 * of the detector's input size that cover it. A level pixel is 1 / scaleX photo pixels wide.
 */
export interface TileLevel {
  width: number;
  height: number;
  scaleX: number;
  scaleY: number;
  tiles: { x: number; y: number }[];
}

export interface TilingOptions {
  /** Side of the detector's square input, in model pixels. */
  inputSize: number;
  /**
   * Side, in photo pixels, of the tiles of the finest level. A face of height f there is f × inputSize / smallestTile
   * model pixels tall; the default 288 keeps a 24-pixel face at 16 BlazeFace pixels, where it scores reliably.
   */
  smallestTile?: number;
  /** Share of a tile's side that overlaps its neighbour, so that a face cut by one tile is whole in the next. Default 0.25. */
  overlap?: number;
}

/**
 * Levels from fine to coarse: tiles of `smallestTile` photo pixels, then twice that, and so on, and last the whole
 * photo in one tile (letterboxed). Each level halves the resolution, so a face too big for one level is whole in
 * the next while small faces get the finest. Tiles of a level overlap; the last one of a row or column ends at the
 * border instead of hanging over it.
 */
export function planTiles(photoWidth: number, photoHeight: number, options: TilingOptions): TileLevel[] {
  const { inputSize } = options;
  const overlap = options.overlap ?? 0.25;
  const longSide = Math.max(photoWidth, photoHeight);
  const levels: TileLevel[] = [];
  for (let side = Math.max(options.smallestTile ?? 288, inputSize); side < longSide; side *= 2) {
    levels.push(level(photoWidth, photoHeight, inputSize / side, inputSize, overlap));
  }
  levels.push(level(photoWidth, photoHeight, inputSize / longSide, inputSize, overlap));
  return levels;
}

function level(photoWidth: number, photoHeight: number, scale: number, inputSize: number, overlap: number): TileLevel {
  const width = Math.max(1, Math.round(photoWidth * scale));
  const height = Math.max(1, Math.round(photoHeight * scale));
  const xs = axisStarts(width, inputSize, overlap);
  const ys = axisStarts(height, inputSize, overlap);
  return { width, height, scaleX: width / photoWidth, scaleY: height / photoHeight, tiles: ys.flatMap((y) => xs.map((x) => ({ x, y }))) };
}

/** Starts of windows of `size` along an axis of `length`: one window if it fits, else evenly spread with at least `overlap`. */
export function axisStarts(length: number, size: number, overlap: number): number[] {
  if (size >= length) return [0];
  const count = Math.ceil((length - size) / (size * (1 - overlap))) + 1;
  const step = (length - size) / (count - 1);
  return Array.from({ length: count }, (_, i) => Math.round(i * step));
}
