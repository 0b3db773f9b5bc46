import type { ClassedBox } from '../centernet-decoder.js';
import { nonMaxSuppression } from '../non-max-suppression.js';

/**
 * Decoding of an SSD detector's raw outputs as MediaPipe does it (SsdAnchorsCalculator, then
 * TfLiteTensorsToDetectionsCalculator), for the Open Images detector of MediaPipe Objectron. The model leaves out
 * the anchors and post-processing: per anchor it gives four box encodings and a logit per class.
 */

/**
 * The classes of Objectron's detector, index = class id, as its label map (the first asset of the package's
 * packed-assets file) lists them. Class 0 is the background.
 */
export const OBJECTRON_LABELS = [
  '???', 'Bicycle', 'Boot', 'Laptop', 'Person', 'Chair', 'Cattle', 'Desk', 'Cat', 'Computer mouse', 'Computer monitor',
  'Box', 'Mug', 'Coffee cup', 'Stationary bicycle', 'Table', 'Bottle', 'High heels', 'Vehicle', 'Footwear', 'Dog',
  'Book', 'Camera', 'Car',
] as const;

export type ObjectronLabel = (typeof OBJECTRON_LABELS)[number];

/** SsdAnchorsCalculatorOptions, the fields that the non-multiscale generation reads. */
export interface SsdAnchorOptions {
  inputWidth: number;
  inputHeight: number;
  minScale: number;
  maxScale: number;
  /** Per layer; the feature map of a layer is ceil(input / stride) cells. */
  strides: readonly number[];
  aspectRatios: readonly number[];
  /** Cell centre offset, in cells. MediaPipe's default 0.5. */
  anchorOffsetX?: number;
  anchorOffsetY?: number;
  /** The lowest layer gets three fixed anchors (scale 0.1 at 1:1, the layer's scale at 2:1 and 1:2). */
  reduceBoxesInLowestLayer?: boolean;
  /** An extra anchor per cell between this layer's scale and the next's; 0 leaves it out. MediaPipe's default 1. */
  interpolatedScaleAspectRatio?: number;
}

/** An anchor in input-normalised coordinates ([0, 1] across the input). */
export interface Anchor {
  xCenter: number;
  yCenter: number;
  width: number;
  height: number;
}

/** The anchors of MediaPipe's object_detection_oid_v4_cpu graph: 1917 of them (19² × 3 + (10² + 5² + 3² + 2² + 1) × 6). */
export const OBJECTRON_ANCHORS: SsdAnchorOptions = {
  inputWidth: 300,
  inputHeight: 300,
  minScale: 0.2,
  maxScale: 0.95,
  strides: [16, 32, 64, 128, 256, 512],
  aspectRatios: [1.0, 2.0, 0.5, 3.0, 0.3333],
  reduceBoxesInLowestLayer: true,
};

/** Box encoding scales of the same graph's TfLiteTensorsToDetectionsCalculator. */
export const OBJECTRON_BOX_SCALES: BoxScales = { x: 10, y: 10, h: 5, w: 5 };

/** Side of the detector's square input, in pixels. */
export const OBJECTRON_INPUT_SIZE = 300;

/** Number of anchors the Objectron detector predicts for. */
export const OBJECTRON_ANCHOR_COUNT = 1917;

export interface BoxScales {
  x: number;
  y: number;
  h: number;
  w: number;
}

function layerScale(minScale: number, maxScale: number, index: number, count: number): number {
  return count === 1 ? (minScale + maxScale) / 2 : minScale + ((maxScale - minScale) * index) / (count - 1);
}

/** SsdAnchorsCalculator's anchors, in its order: layer by layer, row by row, cell by cell, anchor by anchor. */
export function ssdAnchors(options: SsdAnchorOptions): Anchor[] {
  const { strides, minScale, maxScale } = options;
  const offsetX = options.anchorOffsetX ?? 0.5;
  const offsetY = options.anchorOffsetY ?? 0.5;
  const interpolated = options.interpolatedScaleAspectRatio ?? 1;
  const anchors: Anchor[] = [];
  let layer = 0;
  while (layer < strides.length) {
    const ratios: number[] = [];
    const scales: number[] = [];
    // Layers of equal stride share one grid, their anchors merged cell by cell.
    let last = layer;
    while (last < strides.length && strides[last] === strides[layer]) {
      const scale = layerScale(minScale, maxScale, last, strides.length);
      if (last === 0 && options.reduceBoxesInLowestLayer) {
        ratios.push(1, 2, 0.5);
        scales.push(0.1, scale, scale);
      } else {
        for (const ratio of options.aspectRatios) {
          ratios.push(ratio);
          scales.push(scale);
        }
        if (interpolated > 0) {
          const next = last === strides.length - 1 ? 1 : layerScale(minScale, maxScale, last + 1, strides.length);
          ratios.push(interpolated);
          scales.push(Math.sqrt(scale * next));
        }
      }
      last++;
    }
    const rows = Math.ceil(options.inputHeight / strides[layer]!);
    const columns = Math.ceil(options.inputWidth / strides[layer]!);
    for (let y = 0; y < rows; y++) {
      for (let x = 0; x < columns; x++) {
        for (let i = 0; i < ratios.length; i++) {
          const root = Math.sqrt(ratios[i]!);
          anchors.push({ xCenter: (x + offsetX) / columns, yCenter: (y + offsetY) / rows, width: scales[i]! * root, height: scales[i]! / root });
        }
      }
    }
    layer = last;
  }
  return anchors;
}

export interface SsdDecodeOptions {
  anchors: readonly Anchor[];
  /** Side of the square input in pixels: boxes come back in input pixels, clipped to the input. */
  inputSize: number;
  scales: BoxScales;
  /** Classes per anchor, background included. */
  classes: number;
  /** Lowest score (after the sigmoid) kept. */
  minScore: number;
  /** Class ids to report; all but the background (0) when absent. */
  classIds?: ReadonlySet<number>;
  /** Per-class suppression of boxes overlapping by more than this. Default 0.6; 1 turns it off. */
  nmsIou?: number;
}

/**
 * Boxes from the raw outputs: `encodings` [anchors, 4] as (y, x, h, w) relative to each anchor, `logits`
 * [anchors, classes]. Unlike MediaPipe, which keeps each anchor's best class only, every class above `minScore`
 * is a candidate (a desk is often also a table); then greedy suppression class by class.
 */
export function decodeSsd(encodings: Float32Array, logits: Float32Array, options: SsdDecodeOptions): ClassedBox[] {
  const { anchors, classes, scales, inputSize } = options;
  if (encodings.length !== anchors.length * 4) throw new Error(`${encodings.length / 4} box encodings for ${anchors.length} anchors`);
  if (logits.length !== anchors.length * classes) throw new Error(`${logits.length} class logits for ${anchors.length} anchors × ${classes} classes`);
  // sigmoid(z) ≥ s ⇔ z ≥ logit(s): compare logits and leave the exponential to the few that pass.
  const minLogit = Math.log(options.minScore / (1 - options.minScore));
  const found: ClassedBox[] = [];
  for (let a = 0; a < anchors.length; a++) {
    let box: { x: number; y: number; width: number; height: number } | undefined | null;
    for (let classId = 1; classId < classes; classId++) {
      const logit = logits[a * classes + classId]!;
      if (logit < minLogit || (options.classIds && !options.classIds.has(classId))) continue;
      if (box === undefined) box = decodeBox(encodings, a, anchors[a]!, scales, inputSize);
      if (box === null) break;
      found.push({ ...box, score: 1 / (1 + Math.exp(-logit)), classId });
    }
  }
  const iou = options.nmsIou ?? 0.6;
  if (iou >= 1) return found;
  const byClass = new Map<number, ClassedBox[]>();
  for (const box of found) byClass.set(box.classId, [...(byClass.get(box.classId) ?? []), box]);
  return [...byClass.values()].flatMap((group) => nonMaxSuppression(group, iou));
}

/** The anchor's box in input pixels, clipped to the input; null when nothing of it is left. */
function decodeBox(encodings: Float32Array, a: number, anchor: Anchor, scales: BoxScales, size: number): { x: number; y: number; width: number; height: number } | null {
  const yCenter = (encodings[a * 4]! / scales.y) * anchor.height + anchor.yCenter;
  const xCenter = (encodings[a * 4 + 1]! / scales.x) * anchor.width + anchor.xCenter;
  const height = Math.exp(encodings[a * 4 + 2]! / scales.h) * anchor.height;
  const width = Math.exp(encodings[a * 4 + 3]! / scales.w) * anchor.width;
  const left = Math.max(0, xCenter - width / 2) * size;
  const top = Math.max(0, yCenter - height / 2) * size;
  const right = Math.min(1, xCenter + width / 2) * size;
  const bottom = Math.min(1, yCenter + height / 2) * size;
  return right > left && bottom > top ? { x: left, y: top, width: right - left, height: bottom - top } : null;
}
