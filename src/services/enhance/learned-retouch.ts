import type { Detector } from '../image-models.js';
import { applyColourGrid, fitColourGrid, type ColourGrid } from '../../vision/enhance/colour-transfer.js';
import type { RawImage } from '../../vision/raw-image.js';

/**
 * Learned retouching with MAXIM (maxim-retouching in the model catalogue, trained on MIT-Adobe FiveK): the whole
 * photo, downscaled so that its long side is `longSide` and padded to multiples of 64, goes through the network
 * once; the tone and colour change it makes is fitted as a grid of local 3×4 colour matrices (colour-transfer.ts)
 * and applied to the full-resolution photo. The network's output depends on the whole image, which is why it sees
 * the whole (small) image rather than full-resolution tiles.
 *
 * The session is the model converted by tfjs-graph-nhwc-to-onnx.ts: input float32 NHWC [1, h, w, 3] in [0, 1],
 * output `retouched`, the same shape.
 */
export interface LearnedRetouchOptions {
  /** Long side of the image the network sees, before padding to a multiple of 64 (default 256). */
  longSide?: number;
  /** Cells of the colour grid along the long side (default 8). */
  cells?: number;
}

export interface LearnedRetouchReport {
  /** Size the network ran at, padding included. */
  networkWidth: number;
  networkHeight: number;
  networkMilliseconds: number;
  totalMilliseconds: number;
  grid: ColourGrid;
}

const MULTIPLE = 64;

export async function learnedRetouch(
  image: RawImage,
  session: Detector,
  options: LearnedRetouchOptions = {},
): Promise<{ image: RawImage; report: LearnedRetouchReport }> {
  if (image.channels < 3) throw new Error('learned retouching needs an RGB or RGBA image');
  const started = performance.now();
  const longSide = options.longSide ?? 256;
  const scale = Math.min(1, longSide / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const small = downscaleToFloatRgb(image, width, height);
  const paddedWidth = Math.ceil(width / MULTIPLE) * MULTIPLE;
  const paddedHeight = Math.ceil(height / MULTIPLE) * MULTIPLE;
  const input = padReflect(small, width, height, paddedWidth, paddedHeight);

  const networkStarted = performance.now();
  const outputs = await session.run(input, [1, paddedHeight, paddedWidth, 3]);
  const networkMilliseconds = performance.now() - networkStarted;
  const output = outputs.retouched ?? Object.values(outputs)[0];
  if (!output || output.data.length !== paddedWidth * paddedHeight * 3) throw new Error('the retouching model returned an unexpected shape');

  const retouched = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width * 3; x++) {
      const v = output.data[y * paddedWidth * 3 + x]!;
      retouched[y * width * 3 + x] = v < 0 ? 0 : v > 1 ? 1 : v;
    }
  }
  const grid = fitColourGrid(small, retouched, width, height, { ...(options.cells ? { cells: options.cells } : {}) });
  const result = applyColourGrid(image, grid);
  return {
    image: result,
    report: {
      networkWidth: paddedWidth,
      networkHeight: paddedHeight,
      networkMilliseconds,
      totalMilliseconds: performance.now() - started,
      grid,
    },
  };
}

/** Area-average downscale of an 8-bit RGB(A) image to float RGB in [0, 1]. */
export function downscaleToFloatRgb(image: RawImage, width: number, height: number): Float32Array {
  const out = new Float32Array(width * height * 3);
  const sums = new Float64Array(width * 3);
  const counts = new Float64Array(width);
  const { channels } = image;
  for (let y = 0; y < height; y++) {
    sums.fill(0);
    counts.fill(0);
    const y0 = Math.floor((y * image.height) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * image.height) / height));
    for (let sy = y0; sy < y1; sy++) {
      let i = sy * image.width * channels;
      for (let sx = 0; sx < image.width; sx++, i += channels) {
        const x = Math.min(width - 1, Math.floor((sx * width) / image.width));
        sums[x * 3]! += image.data[i]!;
        sums[x * 3 + 1]! += image.data[i + 1]!;
        sums[x * 3 + 2]! += image.data[i + 2]!;
        counts[x]! += 1;
      }
    }
    for (let x = 0; x < width; x++) {
      const k = 1 / (255 * counts[x]!);
      for (let c = 0; c < 3; c++) out[(y * width + x) * 3 + c] = sums[x * 3 + c]! * k;
    }
  }
  return out;
}

/** Pads an RGB float image to `paddedWidth`×`paddedHeight` by mirroring it at the right and bottom edges. */
function padReflect(image: Float32Array, width: number, height: number, paddedWidth: number, paddedHeight: number): Float32Array {
  const out = new Float32Array(paddedWidth * paddedHeight * 3);
  const mirror = (v: number, n: number): number => {
    const period = 2 * n;
    const m = ((v % period) + period) % period;
    return m < n ? m : period - 1 - m;
  };
  for (let y = 0; y < paddedHeight; y++) {
    const sy = mirror(y, height);
    for (let x = 0; x < paddedWidth; x++) {
      const sx = mirror(x, width);
      const from = (sy * width + sx) * 3;
      const to = (y * paddedWidth + x) * 3;
      out[to] = image[from]!;
      out[to + 1] = image[from + 1]!;
      out[to + 2] = image[from + 2]!;
    }
  }
  return out;
}
