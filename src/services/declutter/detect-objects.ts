import { intersectionOverUnion, type Box } from '../../vision/box.js';
import { decodeCenterNet, type ClassedBox } from '../../vision/centernet-decoder.js';
import { nonMaxSuppression } from '../../vision/non-max-suppression.js';
import { planTiles } from '../../vision/tiling.js';
import { COCO_CLASSES, type CocoClass } from '../../vision/declutter/coco-classes.js';
import { decodeNanoDet, toNanoDetInput } from '../../vision/declutter/nanodet-decoder.js';
import {
  decodeSsd,
  OBJECTRON_ANCHORS,
  OBJECTRON_BOX_SCALES,
  OBJECTRON_INPUT_SIZE,
  OBJECTRON_LABELS,
  ssdAnchors,
  type ObjectronLabel,
} from '../../vision/declutter/ssd-decoder.js';
import type { RawImage } from '../../vision/raw-image.js';
import { outputOf, type Detector } from '../image-models.js';
import { detectOverTiles } from '../privacy/tiled-detection.js';

export type ObjectSource = 'centernet' | 'nanodet' | 'objectron';

/**
 * A removable object in photo pixels: its label (COCO's name, or Objectron's in lower case: "table", "box",
 * "computer monitor"), the detector whose box won, and that box's score.
 */
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
  /** MediaPipe Objectron's SSD (Open Images, 23 classes): outputs `boxes` and `scores`; see ssd-decoder.ts. */
  objectron?: Detector;
}

/** Registry names of the models behind each role of ObjectDetectors. */
export const OBJECT_MODEL_NAMES = { centernet: 'centernet-coco', nanodet: 'nanodet-coco', objectron: 'objectron-oid' } as const;

/**
 * COCO classes a declutter removes: furniture and everything movable that lives indoors, people and pets included
 * (a person in a listing photo is removed too). Left out: vehicles, street furniture and farm or wild animals
 * (not indoor objects, and where the detectors are wrong indoors they are wrong with these), and the fixtures of
 * FIXTURE_CLASSES.
 */
export const REMOVABLE_CLASSES: readonly CocoClass[] = [
  'person', 'cat', 'dog', 'bird',
  'chair', 'couch', 'bed', 'dining table', 'bench', 'potted plant',
  'tv', 'laptop', 'mouse', 'remote', 'keyboard', 'cell phone', 'toaster', 'hair drier', 'clock',
  'book', 'vase', 'scissors', 'teddy bear', 'toothbrush',
  'bottle', 'wine glass', 'cup', 'fork', 'knife', 'spoon', 'bowl',
  'banana', 'apple', 'sandwich', 'orange', 'broccoli', 'carrot', 'hot dog', 'pizza', 'donut', 'cake',
  'backpack', 'umbrella', 'handbag', 'tie', 'suitcase',
  'bicycle', 'sports ball', 'frisbee', 'skis', 'snowboard', 'skateboard', 'surfboard', 'tennis racket', 'baseball bat', 'baseball glove', 'kite',
];

/**
 * Objectron classes a declutter removes: all but the vehicles and cattle (outdoor things, and where the detector is
 * wrong indoors it is wrong with these). Its boxes, furniture boxes above all, are the reason to run it: "Box" and
 * the footwear classes are outside COCO, and its tables, desks and chairs come out where the COCO detectors miss them.
 */
export const REMOVABLE_OBJECTRON_CLASSES: readonly ObjectronLabel[] = [
  'Chair', 'Desk', 'Table', 'Box', 'Book', 'Computer monitor', 'Laptop', 'Computer mouse', 'Mug', 'Coffee cup', 'Bottle',
  'Footwear', 'Boot', 'High heels', 'Camera', 'Stationary bicycle', 'Bicycle', 'Person', 'Cat', 'Dog',
];

/** The labels a declutter may remove: the COCO names of REMOVABLE_CLASSES and Objectron's, lower-cased. */
export const REMOVABLE_LABELS: readonly string[] = [...REMOVABLE_CLASSES, ...REMOVABLE_OBJECTRON_CLASSES.map(objectronLabel)];

/**
 * COCO classes that belong to the property. They are found so that the automatic declutter keeps them, and with them
 * whatever they touch (two detectors naming one object differently: a built-in microwave as tv), and so that no fill
 * copies them. A microwave is one: over-range and built-in microwaves sit in the cabinets, the detectors cannot tell
 * them from one standing on a counter, and removing a built-in one leaves a smear across the cabinet doors (seen on
 * empty_living_05's kitchen, where the redesign removed it).
 */
export const FIXTURE_CLASSES: readonly CocoClass[] = ['toilet', 'sink', 'oven', 'refrigerator', 'microwave'];

const FIXTURE_NAMES: ReadonlySet<string> = new Set(FIXTURE_CLASSES);

/** Whether a detection's label names a fixture of the property (FIXTURE_CLASSES). */
export function isFixture(label: string): boolean {
  return FIXTURE_NAMES.has(label);
}

/** Every label reported by default: what a declutter may remove, and the fixtures it keeps. */
export const DETECTED_LABELS: readonly string[] = [...REMOVABLE_LABELS, ...FIXTURE_CLASSES];

/**
 * Labels that name one kind of object in both label sets, mapped to one name: boxes of the same object from
 * different detectors are fused when they share this name (CenterNet's "dining table" and Objectron's "table"
 * or "desk"). Labels not listed are their own.
 */
const SAME_KIND: Readonly<Record<string, string>> = {
  table: 'dining table',
  desk: 'dining table',
  'computer monitor': 'tv',
  'computer mouse': 'mouse',
  mug: 'cup',
  'coffee cup': 'cup',
  'stationary bicycle': 'bicycle',
  boot: 'footwear',
  'high heels': 'footwear',
};

/** The reported name of an Objectron class. */
export function objectronLabel(name: ObjectronLabel): string {
  return name.toLowerCase();
}

/**
 * Lowest score reported, per detector: they are calibrated differently (CenterNet's is a heat-map peak, NanoDet's
 * a quality-focal score that also predicts the box's IoU, Objectron's an SSD sigmoid that rarely passes 0.5 indoors).
 * Measured on shared/testdata/rooms against the hand-drawn boxes of bench/data/furniture-boxes.json (8 furnished
 * photos, 110 objects) and on 7 photos without removable objects (2 empty rooms, 4 exteriors, 1 outdoor):
 * 0.3 / 0.35 is the lowest CenterNet / NanoDet pair at which the photos without objects give no report (at 0.25 / 0.3
 * one: a wall lamp as clock). There, of 64 reports on the furnished photos, 31 match a drawn object (IoU ≥ 0.3), 29
 * lie on one (≥ 70 % inside: single books of a bookcase, a part of a sectional) and 4 are off any object (a ceiling
 * rosette as clock, a door handle as bottle); 29 of the 110 drawn objects are found (the rest are mostly outside
 * COCO: rugs, lamps, clothes, pictures, cushions, boxes). Raising the pair to 0.4 / 0.45 halves recall (15 / 110) for
 * little precision.
 * Objectron, added to that pair: the photos without objects first give a report at 0.15 (a table at 0.19 in the
 * white studio), none from 0.2 up. At 0.25, 37 of the 110 objects are found (29 without it) and the boxes found
 * cover 68 % of each photo's drawn-box pixels on average (48 % without it; 86 % against 63 % pooled over the
 * pixels of all photos); its 41 reports are 18 matches, 23 on an object and 2 off any (a bicycle over basement
 * shelving, a table over a nightstand). 0.2 finds 42 objects and covers 70 %, but reports 79 boxes (5 off any object)
 * and leaves no margin over the 0.19 of the empty studio; 0.3 finds 33 and covers 60 %.
 */
export const DEFAULT_MIN_SCORES: Readonly<Record<ObjectSource, number>> = { centernet: 0.3, nanodet: 0.35, objectron: 0.25 };

export interface ObjectDetectionOptions {
  /** Labels to report: COCO class names and Objectron's, lower-cased. Default DETECTED_LABELS. */
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
const OBJECTRON_ANCHOR_LIST = ssdAnchors(OBJECTRON_ANCHORS);
/** Candidates are decoded below the reported threshold so that fusion can average in weaker boxes of the same object. */
const CANDIDATE_FRACTION = 0.5;

/**
 * Objects in photo pixels (by default what a declutter removes and the fixtures it keeps): CenterNet over a tile
 * pyramid (as for vehicles), NanoDet over a coarser one (its 416-pixel input over the whole photo and its halves),
 * each thresholded with its own calibration, then fused: boxes of one label overlapping across detectors become one,
 * the score-weighted mean of them, scored and named by the best. Sorted by score.
 */
export async function detectObjects(image: RawImage, detectors: ObjectDetectors, options: ObjectDetectionOptions = {}): Promise<DetectedObject[]> {
  const labels = new Set(options.labels ?? DETECTED_LABELS);
  const classIds = new Set(COCO_CLASSES.flatMap((name, id) => (labels.has(name) ? [id] : [])));
  const objectronIds = new Set(OBJECTRON_LABELS.flatMap((name, id) => (id > 0 && labels.has(objectronLabel(name)) ? [id] : [])));
  const minScores = { ...DEFAULT_MIN_SCORES, ...options.minScores };
  const iou = options.iouThreshold ?? 0.5;
  const overlap = options.overlap ?? 0.25;
  const smallestTile = options.smallestTile ?? 1024;
  if (classIds.size === 0 && objectronIds.size === 0) return [];

  const found: SourcedBox[] = [];
  options.signal?.throwIfAborted();
  const coco = (boxes: readonly ClassedBox[]) => boxes.map((box) => ({ ...box, label: COCO_CLASSES[box.classId]! }));
  const centernetLevels = planTiles(image.width, image.height, { inputSize: CENTERNET_SIZE, smallestTile, overlap });
  // Not run when only Objectron's labels are asked for.
  const centernet = classIds.size === 0 ? [] : await detectOverTiles(image, centernetLevels, CENTERNET_SIZE, async (input) => {
    const outputs = await detectors.centernet.run(input, [1, 3, CENTERNET_SIZE, CENTERNET_SIZE]);
    const maps = { heatmap: outputOf(outputs, 'heatmap').data, sizes: outputOf(outputs, 'sizes').data, classes: 80, rows: CENTERNET_GRID, columns: CENTERNET_GRID };
    return decodeCenterNet(maps, { classIds, minScore: minScores.centernet * CANDIDATE_FRACTION });
  });
  found.push(...withSource(coco(classAwareNms(centernet, iou)), 'centernet', minScores.centernet));

  if (detectors.nanodet && classIds.size > 0) {
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
    found.push(...withSource(coco(classAwareNms(boxes, iou)), 'nanodet', minScores.nanodet));
  }

  if (detectors.objectron && objectronIds.size > 0) {
    options.signal?.throwIfAborted();
    const objectron = detectors.objectron;
    // A 300-pixel input: tiles as coarse as NanoDet's, so that a tile still holds a piece of furniture whole.
    const levels = planTiles(image.width, image.height, { inputSize: OBJECTRON_INPUT_SIZE, smallestTile: smallestTile * 2, overlap });
    const boxes = await detectOverTiles(image, levels, OBJECTRON_INPUT_SIZE, async (input) => {
      const outputs = await objectron.run(input, [1, 3, OBJECTRON_INPUT_SIZE, OBJECTRON_INPUT_SIZE]);
      return decodeSsd(outputOf(outputs, 'boxes').data, outputOf(outputs, 'scores').data, {
        anchors: OBJECTRON_ANCHOR_LIST,
        inputSize: OBJECTRON_INPUT_SIZE,
        scales: OBJECTRON_BOX_SCALES,
        classes: OBJECTRON_LABELS.length,
        minScore: minScores.objectron * CANDIDATE_FRACTION,
        classIds: objectronIds,
      });
    });
    const named = classAwareNms(boxes, iou).map((box) => ({ ...box, label: objectronLabel(OBJECTRON_LABELS[box.classId]!) }));
    found.push(...withSource(named, 'objectron', minScores.objectron));
  }

  const fused = fuse(found, iou);
  return suppressRenamed(fused, options.sameObjectIou ?? 0.8).map(({ label, source, score, x, y, width, height }) => ({
    label,
    source,
    score,
    box: { x, y, width, height },
  }));
}

interface SourcedBox extends ClassedBox {
  /** The reported name; `classId` indexes the source's own label set. */
  label: string;
  /** What the fusion compares: boxes of one kind of object under the names of either label set. */
  kind: string;
  source: ObjectSource;
  /** Whether the box passed its detector's threshold; weaker ones only join a fused object. */
  reported: boolean;
}

function withSource(boxes: readonly (ClassedBox & { label: string })[], source: ObjectSource, minScore: number): SourcedBox[] {
  return boxes.map((box) => ({ ...box, kind: SAME_KIND[box.label] ?? box.label, source, reported: box.score >= minScore }));
}

/** Greedy NMS within each class. */
function classAwareNms<T extends ClassedBox>(boxes: readonly T[], iouThreshold: number): T[] {
  const byClass = new Map<number, T[]>();
  for (const box of boxes) byClass.set(box.classId, [...(byClass.get(box.classId) ?? []), box]);
  return [...byClass.values()].flatMap((group) => nonMaxSuppression(group, iouThreshold));
}

/**
 * Weighted box fusion, kind by kind: the best reported box of a kind of object gathers every box of that kind (any
 * detector, reported or not) overlapping it by more than `iouThreshold`; the object's box is their score-weighted
 * mean, its label, score and source the best's. Boxes that no reported box gathers are dropped.
 */
function fuse(boxes: readonly SourcedBox[], iouThreshold: number): SourcedBox[] {
  const remaining = [...boxes].sort((a, b) => Number(b.reported) - Number(a.reported) || b.score - a.score);
  const objects: SourcedBox[] = [];
  while (remaining.length > 0 && remaining[0]!.reported) {
    const best = remaining.shift()!;
    const cluster = [best];
    for (let i = remaining.length - 1; i >= 0; i--) {
      const other = remaining[i]!;
      if (other.kind === best.kind && intersectionOverUnion(best, other) > iouThreshold) cluster.push(...remaining.splice(i, 1));
    }
    const total = cluster.reduce((sum, box) => sum + box.score, 0);
    const mean = (pick: (box: Box) => number): number => cluster.reduce((sum, box) => sum + pick(box) * box.score, 0) / total;
    objects.push({ ...best, x: mean((b) => b.x), y: mean((b) => b.y), width: mean((b) => b.width), height: mean((b) => b.height) });
  }
  return objects.sort((a, b) => b.score - a.score);
}

/**
 * Of boxes of different kinds that are almost the same rectangle, the best scored only (input sorted by score), but
 * a fixture before any other name: a built-in microwave that one detector calls a tv at a better score stays a
 * microwave, which the automatic declutter keeps. Sorted by score.
 */
function suppressRenamed<T extends SourcedBox>(sorted: readonly T[], iouThreshold: number): T[] {
  const kept: T[] = [];
  for (const box of [...sorted.filter((box) => isFixture(box.label)), ...sorted.filter((box) => !isFixture(box.label))]) {
    if (!kept.some((other) => other.kind !== box.kind && intersectionOverUnion(other, box) > iouThreshold)) kept.push(box);
  }
  return kept.sort((a, b) => b.score - a.score);
}
