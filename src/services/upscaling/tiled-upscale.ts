import type { RawImage } from '../../vision/raw-image.js';

/**
 * One network pass: `tile` is float32 NCHW [1, 3, height, width] in [0, 1]; the result is
 * [1, 3, height × scale, width × scale], also in [0, 1] (values outside are clamped).
 */
export type TileInference = (tile: Float32Array, height: number, width: number) => Promise<Float32Array>;

export interface TiledUpscaleOptions {
  /** The network's upscaling factor. */
  scale: number;
  /** Largest edge, in input pixels, of a window fed to the network, padding included: working memory grows with its square. */
  tileSize?: number;
  /**
   * Input pixels of real context each tile gets beyond the part of it that is kept. Convolutions near a tile's edge
   * see zero padding instead of the image; with enough context that error fades below 1/255 and no seam shows.
   */
  padding?: number;
  onProgress?: (tilesDone: number, tilesTotal: number) => void;
  signal?: AbortSignal;
}

export const DEFAULT_TILE_SIZE = 256;
export const DEFAULT_TILE_PADDING = 16;

/**
 * Upscales an RGB image tile by tile: each window is inferred with its context, and only its core is kept, so the
 * result does not depend on where the tiles fall (to within the context's error) and memory does not grow with the
 * image beyond the 8-bit output itself. Grey and alpha are the caller's: it passes RGB only.
 */
export async function upscaleTiled(image: RawImage, infer: TileInference, options: TiledUpscaleOptions): Promise<RawImage> {
  if (image.channels !== 3) throw new Error(`tiled upscaling takes RGB, not ${image.channels} channels`);
  const { scale } = options;
  const tileSize = options.tileSize ?? DEFAULT_TILE_SIZE;
  const padding = options.padding ?? DEFAULT_TILE_PADDING;
  if (!Number.isInteger(scale) || scale < 1) throw new Error(`scale must be a positive integer, not ${scale}`);
  if (tileSize - 2 * padding < 1) throw new Error(`a ${tileSize}px tile leaves no core inside ${padding}px of padding`);

  const rows = planAxis(image.height, tileSize, padding);
  const columns = planAxis(image.width, tileSize, padding);
  const total = rows.length * columns.length;
  const output: RawImage = {
    data: new Uint8Array(image.width * scale * image.height * scale * 3),
    width: image.width * scale,
    height: image.height * scale,
    channels: 3,
  };
  let done = 0;
  for (const row of rows) {
    for (const column of columns) {
      options.signal?.throwIfAborted();
      const tile = readTile(image, row, column);
      const upscaled = await infer(tile, row.end - row.start, column.end - column.start);
      writeTileCore(output, upscaled, row, column, scale);
      options.onProgress?.(++done, total);
    }
  }
  return output;
}

/** A window [start, end) along one axis and the part [keepStart, keepEnd) of it that goes into the result. */
export interface AxisTile {
  start: number;
  end: number;
  keepStart: number;
  keepEnd: number;
}

/**
 * Splits one axis into kept cores of equal size (±1) that cover it, each read with `padding` pixels of context
 * on both sides where the image has them: windows are at most `tileSize` long, and no pixel is inferred more often
 * than the overlap requires.
 */
export function planAxis(length: number, tileSize: number, padding: number): AxisTile[] {
  if (length <= tileSize) return [{ start: 0, end: length, keepStart: 0, keepEnd: length }];
  const count = Math.ceil(length / (tileSize - 2 * padding));
  return Array.from({ length: count }, (_, index) => {
    const keepStart = Math.round((index * length) / count);
    const keepEnd = Math.round(((index + 1) * length) / count);
    return { start: Math.max(0, keepStart - padding), end: Math.min(length, keepEnd + padding), keepStart, keepEnd };
  });
}

function readTile(image: RawImage, row: AxisTile, column: AxisTile): Float32Array {
  const height = row.end - row.start;
  const width = column.end - column.start;
  const plane = height * width;
  const tile = new Float32Array(3 * plane);
  for (let y = 0; y < height; y++) {
    let source = ((row.start + y) * image.width + column.start) * 3;
    for (let x = 0; x < width; x++, source += 3) {
      const target = y * width + x;
      tile[target] = image.data[source]! / 255;
      tile[plane + target] = image.data[source + 1]! / 255;
      tile[2 * plane + target] = image.data[source + 2]! / 255;
    }
  }
  return tile;
}

function writeTileCore(output: RawImage, upscaled: Float32Array, row: AxisTile, column: AxisTile, scale: number): void {
  const tileWidth = (column.end - column.start) * scale;
  const tileHeight = (row.end - row.start) * scale;
  const plane = tileWidth * tileHeight;
  if (upscaled.length !== 3 * plane) {
    throw new Error(`the network returned ${upscaled.length} values for a ${tileWidth}×${tileHeight} RGB tile`);
  }
  const firstX = (column.keepStart - column.start) * scale;
  const lastX = (column.keepEnd - column.start) * scale;
  for (let y = (row.keepStart - row.start) * scale; y < (row.keepEnd - row.start) * scale; y++) {
    let target = ((row.start * scale + y) * output.width + column.start * scale + firstX) * 3;
    for (let x = firstX; x < lastX; x++, target += 3) {
      const source = y * tileWidth + x;
      output.data[target] = toByte(upscaled[source]!);
      output.data[target + 1] = toByte(upscaled[plane + source]!);
      output.data[target + 2] = toByte(upscaled[2 * plane + source]!);
    }
  }
}

function toByte(value: number): number {
  return Math.min(255, Math.max(0, Math.round(value * 255)));
}
