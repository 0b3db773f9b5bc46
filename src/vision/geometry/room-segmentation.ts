import type { OrientationMap } from './orientation-map.js';
import { blockAverage, resizeRgb } from './resample.js';
import type { RawImage } from '../raw-image.js';

/** What each pixel shows, as the room-understanding network names it (tools/room-understanding/synth.py). */
export const VISIBLE_CLASSES = ['floor', 'ceiling', 'wall', 'window', 'door', 'furniture', 'rug', 'art', 'clutter'] as const;
/** The room's face behind everything: walls named by the camera (front within 45° of the view's bearing). */
export const LAYOUT_CLASSES = ['floor', 'ceiling', 'wall-left', 'wall-front', 'wall-right'] as const;

export type VisibleClass = (typeof VISIBLE_CLASSES)[number];
export type LayoutClass = (typeof LAYOUT_CLASSES)[number];

/** The network's maps at its own resolution. */
export interface RoomSegmentation {
  width: number;
  height: number;
  /** Index into VISIBLE_CLASSES per pixel. */
  visible: Uint8Array;
  /** Index into LAYOUT_CLASSES per pixel. */
  layout: Uint8Array;
  /** Probability of the winning layout class per pixel. */
  layoutConfidence: Float32Array;
  /** Probability that a pixel lies on a boundary between two faces of the room. */
  edges: Float32Array;
}

/** The network's input size for a photo: the longer side `longSide`, both sides multiples of 32 (its strides). */
export function networkSize(width: number, height: number, longSide: number): { width: number; height: number } {
  const factor = longSide / Math.max(width, height);
  const round = (v: number) => Math.max(32, Math.round((v * factor) / 32) * 32);
  return { width: round(width), height: round(height) };
}

/** sRGB in [0, 1], NCHW, at the network's size (the aspect ratio is kept to within one stride). */
export function networkInput(image: RawImage, longSide: number): { input: Float32Array; width: number; height: number } {
  const size = networkSize(image.width, image.height, longSide);
  const block = Math.floor(Math.min(image.width / size.width, image.height / size.height) / 1.5);
  const reduced = block >= 2 ? blockAverage(image, block) : image;
  const small = resizeRgb(reduced, size.width, size.height);
  const plane = size.width * size.height;
  const input = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) {
    input[i] = small.data[i * 3]! / 255;
    input[plane + i] = small.data[i * 3 + 1]! / 255;
    input[2 * plane + i] = small.data[i * 3 + 2]! / 255;
  }
  return { input, ...size };
}

/**
 * `seen`'s maps with the layout, its confidence and the boundaries of `layout`, and the windows and doors of both:
 * the layout network (models/room-layout.onnx) finds passages and doors the other misses (empty_studio_white_03's
 * passage, empty_living_07's door), the other finds windows it misses, and an opening found is furniture kept off it.
 * Its other classes are left out: it calls dark wood floors and beige walls furniture (docs/decisions/0020).
 */
export function withLayoutOf(seen: RoomSegmentation, layout: RoomSegmentation): RoomSegmentation {
  if (seen.width !== layout.width || seen.height !== layout.height) {
    throw new Error(`maps of ${seen.width}×${seen.height} and ${layout.width}×${layout.height} do not lie on one grid`);
  }
  const visible = seen.visible.slice();
  for (let i = 0; i < visible.length; i++) {
    if (!OPENING_CLASSES.has(visible[i]!) && OPENING_CLASSES.has(layout.visible[i]!)) visible[i] = layout.visible[i]!;
  }
  return { ...seen, visible, layout: layout.layout, layoutConfidence: layout.layoutConfidence, edges: layout.edges };
}

const OPENING_CLASSES = new Set([VISIBLE_CLASSES.indexOf('window'), VISIBLE_CLASSES.indexOf('door')]);

/** Argmax and softmax of the network's logits (NCHW planes of one image). */
export function decodeSegmentation(visibleLogits: Float32Array, layoutLogits: Float32Array, edgeLogits: Float32Array, width: number, height: number): RoomSegmentation {
  const plane = width * height;
  if (visibleLogits.length !== plane * VISIBLE_CLASSES.length || layoutLogits.length !== plane * LAYOUT_CLASSES.length || edgeLogits.length !== plane) {
    throw new Error(`the network's outputs do not match a ${width}×${height} input`);
  }
  const visible = argmaxPlanes(visibleLogits, VISIBLE_CLASSES.length, plane).index;
  const { index: layout, probability: layoutConfidence } = argmaxPlanes(layoutLogits, LAYOUT_CLASSES.length, plane);
  const edges = new Float32Array(plane);
  for (let i = 0; i < plane; i++) edges[i] = 1 / (1 + Math.exp(-edgeLogits[i]!));
  return { width, height, visible, layout, layoutConfidence, edges };
}

function argmaxPlanes(logits: Float32Array, classes: number, plane: number): { index: Uint8Array; probability: Float32Array } {
  const index = new Uint8Array(plane);
  const probability = new Float32Array(plane);
  for (let i = 0; i < plane; i++) {
    let best = 0;
    let max = logits[i]!;
    for (let c = 1; c < classes; c++) {
      const v = logits[c * plane + i]!;
      if (v > max) {
        max = v;
        best = c;
      }
    }
    let sum = 0;
    for (let c = 0; c < classes; c++) sum += Math.exp(logits[c * plane + i]! - max);
    index[i] = best;
    probability[i] = 1 / sum;
  }
  return { index, probability };
}

/**
 * The orientation map the box fitter scores layouts against, read from the network's layout instead of swept from
 * line segments: floor and ceiling are horizontal (axis 2), the left and right walls face X (0), the front wall Y (1).
 * Pixels whose layout class is less likely than `minConfidence` stay unknown (−1), as do the network's doubts.
 */
export function orientationFromSegmentation(segmentation: RoomSegmentation, imageWidth: number, imageHeight: number, gridSize = 160, minConfidence = 0.6): OrientationMap {
  const scale = gridSize / Math.max(imageWidth, imageHeight);
  const width = Math.max(1, Math.round(imageWidth * scale));
  const height = Math.max(1, Math.round(imageHeight * scale));
  const orientation = new Int8Array(width * height);
  const axisOf = [2, 2, 0, 1, 0];
  for (let y = 0; y < height; y++) {
    const sy = Math.min(segmentation.height - 1, Math.floor(((y + 0.5) / height) * segmentation.height));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(segmentation.width - 1, Math.floor(((x + 0.5) / width) * segmentation.width));
      const k = sy * segmentation.width + sx;
      orientation[y * width + x] = segmentation.layoutConfidence[k]! >= minConfidence ? axisOf[segmentation.layout[k]!]! : -1;
    }
  }
  return { width, height, scale, orientation };
}

