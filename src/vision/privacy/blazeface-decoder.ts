import type { ScoredBox } from '../box.js';

/**
 * BlazeFace full-range as MediaPipe configures it (face_detection_full_range.pbtxt): a 192 × 192 input and one
 * anchor per cell of a 48 × 48 grid (stride 4, fixed anchor size), 2304 in all.
 */
export const BLAZEFACE_INPUT_SIZE = 192;
export const BLAZEFACE_GRID_SIZE = 48;
/** Values per anchor in the model's output: the score logit, then box (x, y, w, h) and six (x, y) keypoints. */
export const BLAZEFACE_VALUES_PER_ANCHOR = 17;

export interface Anchor {
  /** Centre in input pixels. */
  x: number;
  y: number;
}

/** Anchor centres row by row, each at the middle of its grid cell: the order of the model's 2304 outputs. */
export function blazeFaceAnchors(inputSize = BLAZEFACE_INPUT_SIZE, gridSize = BLAZEFACE_GRID_SIZE): Anchor[] {
  const stride = inputSize / gridSize;
  const anchors: Anchor[] = [];
  for (let row = 0; row < gridSize; row++) {
    for (let column = 0; column < gridSize; column++) anchors.push({ x: (column + 0.5) * stride, y: (row + 0.5) * stride });
  }
  return anchors;
}

/**
 * The boxes of every anchor whose score reaches `minScore`, in input pixels. The regressors are offsets of the
 * box centre from the anchor and the box size, already in input pixels (MediaPipe's x/y/w/h scale of 192 with a
 * fixed anchor size of 1 cancel out). MediaPipe clips the logit to ±100 before the sigmoid; so does this.
 */
export function decodeBlazeFace(output: Float32Array, anchors: readonly Anchor[], minScore: number): ScoredBox[] {
  if (output.length !== anchors.length * BLAZEFACE_VALUES_PER_ANCHOR) {
    throw new Error(`expected ${anchors.length} × ${BLAZEFACE_VALUES_PER_ANCHOR} values, got ${output.length}`);
  }
  const boxes: ScoredBox[] = [];
  anchors.forEach((anchor, i) => {
    const offset = i * BLAZEFACE_VALUES_PER_ANCHOR;
    const logit = Math.min(100, Math.max(-100, output[offset]!));
    const score = 1 / (1 + Math.exp(-logit));
    if (score < minScore) return;
    const width = output[offset + 3]!;
    const height = output[offset + 4]!;
    if (width <= 0 || height <= 0) return;
    const x = anchor.x + output[offset + 1]!;
    const y = anchor.y + output[offset + 2]!;
    boxes.push({ x: x - width / 2, y: y - height / 2, width, height, score });
  });
  return boxes;
}
