import { intersectionOverUnion, type Box } from '../../vision/privacy/box.js';
import { decodeCenterNet, type ClassedBox } from '../../vision/privacy/centernet-decoder.js';
import { nonMaxSuppression } from '../../vision/privacy/non-max-suppression.js';
import { planTiles } from '../../vision/privacy/tiling.js';
import { COCO_CLASSES, type CocoClass } from '../../vision/declutter/coco-classes.js';
import { decodeNanoDet, toNanoDetInput } from '../../vision/declutter/nanodet-decoder.js';
import type { RawImage } from '../../vision/raw-image.js';
import { outputOf, type Detector } from '../privacy/detector.js';
import { detectOverTiles } from '../privacy/tiled-detection.js';

export type ObjectSource = 'centernet' | 'nanodet' | 'objectron';

/** A removable object in photo pixels: its label (COCO's name), the detector whose box won, and that box's score. */
export interface DetectedObject {
  label: string;
  source: ObjectSource;
  score: number;
  box: Box;
}

/**
 * The networks by role; each must answer with the outputs named in detector-models.ts. In a worker thread these
 * are ModelRuntime's detector sessions of `OBJECT_MODEL_NAMES`.
 */
export interface ObjectDetectors {
  /** CenterNet (COCO): outputs `heatmap` and `sizes`. */
  centernet: Detector;
  /** NanoDet-g (COCO): outputs `scores8|16|32` and `boxes8|16|32`. */
  nanodet?: Detector;
  /** Reserved for MediaPipe Objectron's Open Images SSD; not wired yet (see the declutter report). */
  objectron?: Detector;
}

/** Registry names of the models behind each role of ObjectDetectors. */
export const OBJECT_MODEL_NAMES = { centernet: 'centernet-coco', nanodet: 'nanodet-coco' } as const;

/**
 * COCO classes a declutter removes: furniture and everything movable that lives indoors, people and pets included
 * (a person in a listing photo is removed too). Left out: vehicles, street furniture and farm or wild animals
 * (not indoor objects, and where the detectors are wrong indoors they are wrong with these), and fixtures that
 * belong to the property: toilet, sink, oven, refrigerator.
 */
export const REMOVABLE_CLASSES: readonly CocoClass[] = [
  'person', 'cat', 'dog', 'bird',
  'chair', 'couch', 'bed', 'dining table', 'bench', 'potted plant',
  'tv', 'laptop', 'mouse', 'remote', 'keyboard', 'cell phone', 'microwave', 'toaster', 'hair drier', 'clock',
  'book', 'vase', 'scissors', 'teddy bear', 'toothbrush',
  'bottle', 'wine glass', 'cup', 'fork', 'knife', 'spoon', 'bowl',
  'banana', 'apple', 'sandwich', 'orange', 'broccoli', 'carrot', 'hot dog', 'pizza', 'donut', 'cake',
  'backpack', 'umbrella', 'handbag', 'tie', 'suitcase',
  'bicycle', 'sports ball', 'frisbee', 'skis', 'snowboard', 'skateboard', 'surfboard', 'tennis racket', 'baseball bat', 'baseball glove', 'kite',
];

/**
 * Lowest score reported, per detector: the two are calibrated differently (CenterNet's is a heat-map peak,
 * NanoDet's a quality-focal score that also predicts the box's IoU). Measured on shared/testdata/rooms against the
 * hand-drawn boxes of bench/data/furniture-boxes.json (8 furnished photos, 110 objects) and on 7 photos without
 * removable objects (2 empty rooms, 4 exteriors, 1 outdoor): 0.3 / 0.35 is the lowest pair at which the photos
 * without objects give no report (at 0.25 / 0.3 one: a wall lamp as clock). There, of 64 reports on the furnished
 * photos, 31 match a drawn object (IoU ≥ 0.3), 29 lie on one (≥ 70 % inside: single books of a bookcase, a part of a
 * sectional) and 4 are off any object (a ceiling rosette as clock, a door handle as bottle); 29 of the 110 drawn
 * objects are found (the rest are mostly outside COCO: rugs, lamps, clothes, pictures, cushions, boxes). Raising the
 * pair to 0.4 / 0.45 halves recall (15 / 110) for little precision. Objectron's value is a placeholder until that
 * detector is wired.
 */
export const DEFAULT_MIN_SCORES: Readonly<Record<ObjectSource, number>> = { centernet: 0.3, nanodet: 0.35, objectron: 0.5 };

export interface ObjectDetectionOptions {
  /** COCO class names to report. Default REMOVABLE_CLASSES. */
  labels?: readonly string[];
  /** Lowest score reported per detector; default DEFAULT_MIN_SCORES. */
  minScores?: Partial<Record<ObjectSource, number>>;
  /**
   * Side, in photo pixels, of CenterNet's finest tiles. Default 1024: on a 12 MP photo a cup of 80 photo pixels is
   * 40 model pixels there; coarser levels follow up to the whole photo, so big furniture is seen whole.
   */
  smallestTile?: number;
  /** Overlap of neighbouring tiles. Default 0.25. */
  overlap?: number;
  /** Boxes of one label overlapping by more than this are one object, within and across detectors. Default 0.5. */
  iouThreshold?: number;
  /**
   * Boxes of different labels overlapping by more than this are one object named twice (an armchair as chair and
   * couch): the better score keeps it. Default 0.8.
   */
  sameObjectIou?: number;
  /** Checked between detectors. */
  signal?: AbortSignal;
}

const CENTERNET_SIZE = 512;
const CENTERNET_GRID = CENTERNET_SIZE / 4;
const NANODET_SIZE = 416;
const NANODET_STRIDES = [8, 16, 32] as const;
/** Candidates are decoded below the reported threshold so that fusion can average in weaker boxes of the same object. */
const CANDIDATE_FRACTION = 0.5;

/**
 * Removable objects in photo pixels: CenterNet over a tile pyramid (as for vehicles), NanoDet over a coarser one
 * (its 416-pixel input over the whole photo and its halves), each thresholded with its own calibration, then
 * fused: boxes of one label overlapping across detectors become one, the score-weighted mean of them, scored and
 * named by the best. Sorted by score.
 */
export async function detectObjects(image: RawImage, detectors: ObjectDetectors, options: ObjectDetectionOptions = {}): Promise<DetectedObject[]> {
  const labels = new Set(options.labels ?? REMOVABLE_CLASSES);
  const classIds = new Set(COCO_CLASSES.flatMap((name, id) => (labels.has(name) ? [id] : [])));
  const minScores = { ...DEFAULT_MIN_SCORES, ...options.minScores };
  const iou = options.iouThreshold ?? 0.5;
  const overlap = options.overlap ?? 0.25;
  const smallestTile = options.smallestTile ?? 1024;
  if (classIds.size === 0) return [];

  const found: SourcedBox[] = [];
  options.signal?.throwIfAborted();
  const centernetLevels = planTiles(image.width, image.height, { inputSize: CENTERNET_SIZE, smallestTile, overlap });
  const centernet = await detectOverTiles(image, centernetLevels, CENTERNET_SIZE, async (input) => {
    const outputs = await detectors.centernet.run(input, [1, 3, CENTERNET_SIZE, CENTERNET_SIZE]);
    const maps = { heatmap: outputOf(outputs, 'heatmap').data, sizes: outputOf(outputs, 'sizes').data, classes: 80, rows: CENTERNET_GRID, columns: CENTERNET_GRID };
    return decodeCenterNet(maps, { classIds, minScore: minScores.centernet * CANDIDATE_FRACTION });
  });
  found.push(...withSource(classAwareNms(centernet, iou), 'centernet', minScores.centernet));

  if (detectors.nanodet) {
    options.signal?.throwIfAborted();
    const nanodet = detectors.nanodet;
    // NanoDet is the second opinion on furniture-sized things: twice CenterNet's finest tile is enough.
    const levels = planTiles(image.width, image.height, { inputSize: NANODET_SIZE, smallestTile: smallestTile * 2, overlap });
    const boxes = await detectOverTiles(image, levels, NANODET_SIZE, async (input) => {
      const outputs = await nanodet.run(toNanoDetInput(input), [1, 3, NANODET_SIZE, NANODET_SIZE]);
      const decoded = decodeNanoDet(
        NANODET_STRIDES.map((stride) => ({ stride, scores: outputOf(outputs, `scores${stride}`).data, distances: outputOf(outputs, `boxes${stride}`).data })),
        { inputSize: NANODET_SIZE, minScore: minScores.nanodet * CANDIDATE_FRACTION, classIds },
      );
      // NanoDet's own suppression (per class, IoU 0.6) before the tile's boxes join the others.
      return classAwareNms(decoded, 0.6);
    });
    found.push(...withSource(classAwareNms(boxes, iou), 'nanodet', minScores.nanodet));
  }

  const fused = fuse(found, iou);
  return suppressRenamed(fused, options.sameObjectIou ?? 0.8).map(({ classId, source, score, x, y, width, height }) => ({
    label: COCO_CLASSES[classId]!,
    source,
    score,
    box: { x, y, width, height },
  }));
}

interface SourcedBox extends ClassedBox {
  source: ObjectSource;
  /** Whether the box passed its detector's threshold; weaker ones only join a fused object. */
  reported: boolean;
}

function withSource(boxes: readonly ClassedBox[], source: ObjectSource, minScore: number): SourcedBox[] {
  return boxes.map((box) => ({ ...box, source, reported: box.score >= minScore }));
}

/** Greedy NMS within each class. */
function classAwareNms<T extends ClassedBox>(boxes: readonly T[], iouThreshold: number): T[] {
  const byClass = new Map<number, T[]>();
  for (const box of boxes) byClass.set(box.classId, [...(byClass.get(box.classId) ?? []), box]);
  return [...byClass.values()].flatMap((group) => nonMaxSuppression(group, iouThreshold));
}

/**
 * Weighted box fusion, class by class: the best reported box of a label gathers every box of that label (either
 * detector, reported or not) overlapping it by more than `iouThreshold`; the object's box is their score-weighted
 * mean, its score and source the best's. Boxes that no reported box gathers are dropped.
 */
function fuse(boxes: readonly SourcedBox[], iouThreshold: number): SourcedBox[] {
  const remaining = [...boxes].sort((a, b) => Number(b.reported) - Number(a.reported) || b.score - a.score);
  const objects: SourcedBox[] = [];
  while (remaining.length > 0 && remaining[0]!.reported) {
    const best = remaining.shift()!;
    const cluster = [best];
    for (let i = remaining.length - 1; i >= 0; i--) {
      const other = remaining[i]!;
      if (other.classId === best.classId && intersectionOverUnion(best, other) > iouThreshold) cluster.push(...remaining.splice(i, 1));
    }
    const total = cluster.reduce((sum, box) => sum + box.score, 0);
    const mean = (pick: (box: Box) => number): number => cluster.reduce((sum, box) => sum + pick(box) * box.score, 0) / total;
    objects.push({ ...best, x: mean((b) => b.x), y: mean((b) => b.y), width: mean((b) => b.width), height: mean((b) => b.height) });
  }
  return objects.sort((a, b) => b.score - a.score);
}

/** Of boxes of different labels that are almost the same rectangle, the best scored only (input sorted by score). */
function suppressRenamed<T extends ClassedBox>(sorted: readonly T[], iouThreshold: number): T[] {
  const kept: T[] = [];
  for (const box of sorted) {
    if (!kept.some((other) => other.classId !== box.classId && intersectionOverUnion(other, box) > iouThreshold)) kept.push(box);
  }
  return kept;
}
