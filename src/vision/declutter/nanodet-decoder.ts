import type { ClassedBox } from '../centernet-decoder.js';

/**
 * NanoDet's own post-processing (RangiLyu/nanodet, GFL head of v0.x), which the exported graph leaves out. Each
 * level is a grid of cells `stride` input pixels apart; a cell has a score per class (after the sigmoid) and, per
 * box edge (left, top, right, bottom), a discrete distribution over 0 … regMax strides: softmax, then expectation,
 * gives that edge's distance from the cell centre ((x + 0.5) × stride, (y + 0.5) × stride).
 */
export interface NanoDetLevel {
  /** [cells, classes], cells row-major over the level's grid. */
  scores: Float32Array;
  /** [cells, 4 × (regMax + 1)]: the four edges' logits, one after the other. */
  distances: Float32Array;
  /** Input pixels per cell: 8, 16 or 32. */
  stride: number;
}

export interface NanoDetDecodeOptions {
  /** Side of the square model input in pixels: 416. */
  inputSize: number;
  /** Lowest class score kept. NanoDet's own is 0.05, followed by NMS at IoU 0.6. */
  minScore: number;
  /** COCO class ids (0-based) to keep; all when absent. */
  classIds?: ReadonlySet<number>;
  /** Classes per cell. Default 80 (COCO). */
  classes?: number;
  /** Largest distance in strides. Default 10 (NanoDet-g, 11 bins per edge). */
  regMax?: number;
}

/** Every (cell, class) scoring at least `minScore`, as a box in input pixels (clipped to the input); no suppression. */
export function decodeNanoDet(levels: readonly NanoDetLevel[], options: NanoDetDecodeOptions): ClassedBox[] {
  const classes = options.classes ?? 80;
  const bins = (options.regMax ?? 10) + 1;
  const size = options.inputSize;
  const boxes: ClassedBox[] = [];
  const edges = new Float64Array(4);
  for (const { scores, distances, stride } of levels) {
    const columns = Math.ceil(size / stride);
    const cells = scores.length / classes;
    if (distances.length !== cells * 4 * bins) throw new Error(`stride ${stride}: ${distances.length} distance values for ${cells} cells`);
    for (let cell = 0; cell < cells; cell++) {
      let decoded = false;
      for (let classId = 0; classId < classes; classId++) {
        const score = scores[cell * classes + classId]!;
        if (score < options.minScore || (options.classIds && !options.classIds.has(classId))) continue;
        if (!decoded) {
          for (let edge = 0; edge < 4; edge++) edges[edge] = expectation(distances, (cell * 4 + edge) * bins, bins) * stride;
          decoded = true;
        }
        const cx = ((cell % columns) + 0.5) * stride;
        const cy = (Math.floor(cell / columns) + 0.5) * stride;
        const left = Math.max(0, cx - edges[0]!);
        const top = Math.max(0, cy - edges[1]!);
        const right = Math.min(size, cx + edges[2]!);
        const bottom = Math.min(size, cy + edges[3]!);
        if (right > left && bottom > top) boxes.push({ x: left, y: top, width: right - left, height: bottom - top, score, classId });
      }
    }
  }
  return boxes;
}

/** Σ i × softmax(logits)[i] over `bins` values from `offset`. */
function expectation(logits: Float32Array, offset: number, bins: number): number {
  let max = -Infinity;
  for (let i = 0; i < bins; i++) max = Math.max(max, logits[offset + i]!);
  let total = 0;
  let weighted = 0;
  for (let i = 0; i < bins; i++) {
    const p = Math.exp(logits[offset + i]! - max);
    total += p;
    weighted += p * i;
  }
  return weighted / total;
}

/** NanoDet's input normalisation (its configs' mean and std, for channels in BGR order, 0–255 scale). */
const MEAN_BGR = [103.53, 116.28, 123.675] as const;
const STD_BGR = [57.375, 57.12, 58.395] as const;

/**
 * A detector input as the tiling gives it (NCHW RGB in [0, 1]) → NanoDet's: BGR planes, each (255 v − mean) / std.
 * Returns a new array.
 */
export function toNanoDetInput(rgb: Float32Array): Float32Array {
  const plane = rgb.length / 3;
  const out = new Float32Array(rgb.length);
  for (let c = 0; c < 3; c++) {
    const from = (2 - c) * plane; // BGR plane c is RGB plane 2 − c
    const mean = MEAN_BGR[c]!;
    const scale = 255 / STD_BGR[c]!;
    const offset = mean / STD_BGR[c]!;
    for (let i = 0; i < plane; i++) out[c * plane + i] = rgb[from + i]! * scale - offset;
  }
  return out;
}
