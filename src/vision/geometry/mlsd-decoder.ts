import type { LineSegment } from './segments.js';

/**
 * M-LSD's two output maps at half the input resolution, NHWC as the ONNX models of jp.keijiro.mlsd return them:
 * `scores` [1, h, w, 1], the probability that a segment's centre lies in the cell (the exported graph already applies
 * the sigmoid and a 3 × 3 max-pool suppression), and `offsets` [1, h, w, 4], the displacements (dx0, dy0, dx1, dy1)
 * from the cell to the segment's two endpoints, in map cells, y down.
 */
export interface MlsdMaps {
  scores: Float32Array;
  offsets: Float32Array;
  /** Map size: half the model's input size. */
  width: number;
  height: number;
}

export interface MlsdDecodeOptions {
  /** Lowest centre score kept. Default 0.1, the reference's `score_thr` (and Keijiro's runtime default). */
  scoreThreshold?: number;
  /** Shortest segment kept, in map cells (half input pixels). Default 20, the reference's `dist_thr`. */
  minLength?: number;
  /** Most centres taken, best first, after suppression. Default 200, the reference's `topk_n`. */
  topK?: number;
  /** Side of the max-pool window of the centre suppression. Default 3, the reference's `ksize`. */
  nmsKernel?: number;
  /** Whether `scores` are logits that still need the sigmoid. Default false (the exported graph applies it). */
  logits?: boolean;
}

/**
 * Segments from M-LSD's maps, as the reference post-processing (`pred_lines` of navervision/mlsd) does it: sigmoid,
 * keep cells equal to the maximum of their `nmsKernel` window, take the `topK` best, drop those under
 * `scoreThreshold` or shorter than `minLength`, and scale the endpoints ×2 to input pixels. Endpoints are returned in
 * the model's input pixels (continuous coordinates), best score first.
 */
export function decodeMlsd(maps: MlsdMaps, options: MlsdDecodeOptions = {}): LineSegment[] {
  const { width, height, offsets } = maps;
  const threshold = options.scoreThreshold ?? 0.1;
  const minLength = options.minLength ?? 20;
  const topK = options.topK ?? 200;
  const radius = Math.floor((options.nmsKernel ?? 3) / 2);
  if (maps.scores.length !== width * height) throw new Error(`scores hold ${maps.scores.length} values, not ${width}×${height}`);
  if (offsets.length !== width * height * 4) throw new Error(`offsets hold ${offsets.length} values, not ${width}×${height}×4`);
  const heat = options.logits ? maps.scores.map((v) => 1 / (1 + Math.exp(-v))) : maps.scores;

  const candidates: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const value = heat[i]!;
      // Cells under the threshold can never be kept; skipping them first changes nothing but the time taken.
      if (!(value > threshold)) continue;
      let isMax = true;
      for (let dy = -radius; dy <= radius && isMax; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -radius; dx <= radius; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= width) continue;
          if (heat[yy * width + xx]! > value) {
            isMax = false;
            break;
          }
        }
      }
      if (isMax) candidates.push(i);
    }
  }
  candidates.sort((a, b) => heat[b]! - heat[a]! || a - b);

  const segments: LineSegment[] = [];
  for (const i of candidates.slice(0, topK)) {
    const x = i % width;
    const y = (i - x) / width;
    const dx0 = offsets[4 * i]!;
    const dy0 = offsets[4 * i + 1]!;
    const dx1 = offsets[4 * i + 2]!;
    const dy1 = offsets[4 * i + 3]!;
    if (Math.hypot(dx0 - dx1, dy0 - dy1) <= minLength) continue;
    segments.push({ x0: 2 * (x + dx0), y0: 2 * (y + dy0), x1: 2 * (x + dx1), y1: 2 * (y + dy1), score: heat[i]! });
  }
  return segments;
}
