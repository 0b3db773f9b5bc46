import type { RawImage } from '../raw-image.js';
import { boxMean } from '../box-filter.js';
import { pixelBounds, type Box } from '../box.js';

export interface BlurOptions {
  /** Grown around each box before blurring, as a share of its longer side: detectors' boxes are tight. Default 0.15. */
  margin?: number;
  /** Width of the band beyond the margin where the blur fades into the photo, as a share of the longer side. Default 0.15. */
  feather?: number;
  /**
   * Side of the pixelation blocks, as a share of the box's shorter side. Default 0.25: four blocks across a face or
   * a plate's height, coarser than any feature that identifies either.
   */
  blockShare?: number;
}

/** Feather and margin never shrink below this many pixels, so that tiny boxes still get a soft, covering edge. */
const MIN_BAND = 2;

/**
 * Blurs each box irreversibly: the area (box plus margin) is first reduced to the means of coarse blocks, which
 * throws its detail away for good, then smoothed twice with a box filter as wide as a block so that no mosaic is
 * left to read shapes from. Over the feather band the result fades into the photo. Pixels beyond box, margin and
 * feather are not touched (bit for bit), nor is alpha. Boxes are applied one after the other.
 */
export function blurRegions(image: RawImage, boxes: readonly Box[], options: BlurOptions = {}): RawImage {
  const out: RawImage = { ...image, data: Uint8Array.from(image.data) };
  for (const box of boxes) blurOne(out, box, options);
  return out;
}

function blurOne(image: RawImage, box: Box, options: BlurOptions): void {
  const longSide = Math.max(box.width, box.height);
  const margin = Math.max(MIN_BAND, (options.margin ?? 0.15) * longSide);
  const feather = Math.max(MIN_BAND, (options.feather ?? 0.15) * longSide);
  const covered = { x: box.x - margin, y: box.y - margin, width: box.width + 2 * margin, height: box.height + 2 * margin };
  const bounds = pixelBounds(
    { x: covered.x - feather, y: covered.y - feather, width: covered.width + 2 * feather, height: covered.height + 2 * feather },
    image.width,
    image.height,
  );
  if (!bounds) return;
  const [x0, y0, x1, y1] = bounds;
  const width = x1 - x0;
  const height = y1 - y0;
  const block = Math.max(2, Math.round((options.blockShare ?? 0.25) * Math.min(box.width, box.height)));
  const colourChannels = image.channels === 2 || image.channels === 4 ? image.channels - 1 : image.channels;

  for (let c = 0; c < colourChannels; c++) {
    const plane = new Float32Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) plane[y * width + x] = image.data[((y0 + y) * image.width + x0 + x) * image.channels + c]!;
    }
    // Blocks are laid from the covered area's corner, so that the box itself is cut the same way wherever it lies.
    const pixelated = pixelate(plane, width, height, block, Math.round(covered.x) - x0, Math.round(covered.y) - y0);
    const smooth = boxMean(boxMean(pixelated, width, height, block), width, height, block);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const weight = coverWeight(x0 + x + 0.5, y0 + y + 0.5, covered, feather);
        if (weight === 0) continue;
        const offset = ((y0 + y) * image.width + x0 + x) * image.channels + c;
        image.data[offset] = Math.round(weight * smooth[y * width + x]! + (1 - weight) * image.data[offset]!);
      }
    }
  }
}

/** Every pixel replaced by the mean of its block; blocks start at (originX, originY) and repeat both ways. */
function pixelate(plane: Float32Array, width: number, height: number, block: number, originX: number, originY: number): Float32Array {
  const out = new Float32Array(plane.length);
  const firstX = originX - Math.ceil(originX / block) * block;
  const firstY = originY - Math.ceil(originY / block) * block;
  for (let by = firstY; by < height; by += block) {
    for (let bx = firstX; bx < width; bx += block) {
      const xStart = Math.max(0, bx);
      const yStart = Math.max(0, by);
      const xEnd = Math.min(width, bx + block);
      const yEnd = Math.min(height, by + block);
      let sum = 0;
      for (let y = yStart; y < yEnd; y++) for (let x = xStart; x < xEnd; x++) sum += plane[y * width + x]!;
      const mean = sum / ((xEnd - xStart) * (yEnd - yStart));
      for (let y = yStart; y < yEnd; y++) out.fill(mean, y * width + xStart, y * width + xEnd);
    }
  }
  return out;
}

/** 1 inside the covered area, falling smoothly to 0 at `feather` pixels outside it. */
function coverWeight(x: number, y: number, covered: Box, feather: number): number {
  const dx = Math.max(covered.x - x, 0, x - (covered.x + covered.width));
  const dy = Math.max(covered.y - y, 0, y - (covered.y + covered.height));
  const distance = Math.hypot(dx, dy);
  if (distance >= feather) return 0;
  const t = 1 - distance / feather;
  return t * t * (3 - 2 * t);
}
