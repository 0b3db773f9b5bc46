import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createDetectorSession } from '../src/repositories/models/detector-session.js';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import type { TfjsGraph, TfjsGraphNode } from '../src/repositories/models/tfjs-graph.js';
import { tfjsGraphModelToOnnxNhwc, unsupportedNhwcOps } from '../src/repositories/models/tfjs-graph-nhwc-to-onnx.js';
import {
  DETECTED_LABELS,
  detectObjects,
  FIXTURE_CLASSES,
  OBJECT_MODEL_NAMES,
  REMOVABLE_CLASSES,
  REMOVABLE_LABELS,
  REMOVABLE_OBJECTRON_CLASSES,
} from '../src/services/declutter/detect-objects.js';
import type { Detector } from '../src/services/image-models.js';
import { COCO_CLASSES, cocoClassId, type CocoClass } from '../src/vision/declutter/coco-classes.js';
import { decodeNanoDet, toNanoDetInput } from '../src/vision/declutter/nanodet-decoder.js';
import {
  decodeSsd,
  OBJECTRON_ANCHOR_COUNT,
  OBJECTRON_ANCHORS,
  OBJECTRON_BOX_SCALES,
  OBJECTRON_LABELS,
  ssdAnchors,
  type ObjectronLabel,
} from '../src/vision/declutter/ssd-decoder.js';
import { intersectionOverUnion, type Box } from '../src/vision/box.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { TEST_TIMEOUT_MS } from './helpers/until.js';

const grey = (width: number, height: number): RawImage => ({ data: new Uint8Array(width * height * 3).fill(128), width, height, channels: 3 });

interface Planted {
  label: CocoClass;
  score: number;
  /** In photo pixels; the photo is 512 × 512, so CenterNet's input pixels are photo pixels. */
  box: Box;
}

/** A CenterNet stand-in: a heat peak at each planted box's centre cell, with the distances that rebuild the box. */
function fakeCenterNet(planted: readonly Planted[]): Detector {
  return {
    async run(_input, dims) {
      assert.deepEqual(dims, [1, 3, 512, 512]);
      const plane = 128 * 128;
      const heatmap = new Float32Array(80 * plane);
      const sizes = new Float32Array(4 * plane);
      for (const { label, score, box } of planted) {
        const x = Math.round((box.x + box.width / 2) / 4);
        const y = Math.round((box.y + box.height / 2) / 4);
        const cell = y * 128 + x;
        heatmap[cocoClassId(label) * plane + cell] = score;
        sizes[cell] = x * 4 - box.x;
        sizes[plane + cell] = y * 4 - box.y;
        sizes[2 * plane + cell] = box.x + box.width - x * 4;
        sizes[3 * plane + cell] = box.y + box.height - y * 4;
      }
      return { heatmap: { data: heatmap, dims: [1, 80, 128, 128] }, sizes: { data: sizes, dims: [1, 4, 128, 128] } };
    },
  };
}

/**
 * A NanoDet stand-in on its stride-32 level (13 × 13 cells of a 416 input, the 512-pixel photo shrunk by 416/512):
 * a planted object sits at a cell with whole-stride edge distances, encoded as near one-hot distributions.
 */
function fakeNanoDet(planted: readonly { label: CocoClass; score: number; cell: readonly [number, number]; strides: readonly number[] }[]): Detector {
  return {
    async run(_input, dims) {
      assert.deepEqual(dims, [1, 3, 416, 416]);
      const level = (cells: number) => ({ scores: new Float32Array(cells * 80), boxes: new Float32Array(cells * 44) });
      const levels = { 8: level(52 * 52), 16: level(26 * 26), 32: level(13 * 13) };
      for (const { label, score, cell: [cx, cy], strides } of planted) {
        const cell = cy * 13 + cx;
        levels[32].scores[cell * 80 + cocoClassId(label)] = score;
        strides.forEach((distance, edge) => (levels[32].boxes[(cell * 4 + edge) * 11 + distance] = 40));
      }
      const outputs: Record<string, { data: Float32Array; dims: number[] }> = {};
      for (const stride of [8, 16, 32] as const) {
        const cells = levels[stride].scores.length / 80;
        outputs[`scores${stride}`] = { data: levels[stride].scores, dims: [1, cells, 80] };
        outputs[`boxes${stride}`] = { data: levels[stride].boxes, dims: [1, cells, 44] };
      }
      return outputs;
    },
  };
}

const ANCHORS = ssdAnchors(OBJECTRON_ANCHORS);
/** The last anchor of the coarsest layer: centred, 0.97 of the input on each side, so any box can be encoded on it. */
const WIDE_ANCHOR = OBJECTRON_ANCHOR_COUNT - 1;

/** SSD encodings (y, x, h, w) that decode to `box` (input-normalised) on anchor `a`; the inverse of MediaPipe's decode. */
function encode(box: Box, a: number): [number, number, number, number] {
  const anchor = ANCHORS[a]!;
  const s = OBJECTRON_BOX_SCALES;
  return [
    ((box.y + box.height / 2 - anchor.yCenter) / anchor.height) * s.y,
    ((box.x + box.width / 2 - anchor.xCenter) / anchor.width) * s.x,
    Math.log(box.height / anchor.height) * s.h,
    Math.log(box.width / anchor.width) * s.w,
  ];
}

const logit = (p: number): number => Math.log(p / (1 - p));

/**
 * An Objectron stand-in: each planted object is one anchor's prediction (the wide anchor, then the one before it),
 * its box in photo pixels of a 512-pixel square photo (the 300-pixel input is that photo shrunk by 300/512).
 */
function fakeObjectron(planted: readonly { label: ObjectronLabel; score: number; box: Box }[]): Detector {
  return {
    async run(_input, dims) {
      assert.deepEqual(dims, [1, 3, 300, 300]);
      const boxes = new Float32Array(OBJECTRON_ANCHOR_COUNT * 4);
      const scores = new Float32Array(OBJECTRON_ANCHOR_COUNT * 24).fill(-10);
      planted.forEach(({ label, score, box }, i) => {
        const a = WIDE_ANCHOR - i;
        const normalised = { x: box.x / 512, y: box.y / 512, width: box.width / 512, height: box.height / 512 };
        boxes.set(encode(normalised, a), a * 4);
        scores[a * 24 + OBJECTRON_LABELS.indexOf(label)] = logit(score);
      });
      return { boxes: { data: boxes, dims: [1, OBJECTRON_ANCHOR_COUNT, 4] }, scores: { data: scores, dims: [1, OBJECTRON_ANCHOR_COUNT, 24] } };
    },
  };
}

/** NanoDet box of cell (6, 6) ± 3 strides: 112 … 304 model pixels, 137.8 … 374.2 photo pixels. */
const NANODET_CHAIR = { label: 'chair', score: 0.6, cell: [6, 6], strides: [3, 3, 3, 3] } as const;
const NANODET_CHAIR_BOX: Box = { x: 112 / 0.8125, y: 112 / 0.8125, width: 192 / 0.8125, height: 192 / 0.8125 };

describe('detectObjects', () => {
  it('keeps removable classes and fixtures only, each above its detector threshold', async () => {
    const centernet = fakeCenterNet([
      { label: 'chair', score: 0.8, box: { x: 40, y: 60, width: 100, height: 120 } },
      { label: 'car', score: 0.9, box: { x: 300, y: 300, width: 150, height: 80 } },
      { label: 'toilet', score: 0.85, box: { x: 300, y: 40, width: 80, height: 100 } },
      { label: 'cup', score: 0.2, box: { x: 200, y: 420, width: 40, height: 40 } },
    ]);
    const found = await detectObjects(grey(512, 512), { centernet });
    assert.deepEqual(found.map((o) => [o.label, o.source, o.score.toFixed(2)]), [['toilet', 'centernet', '0.85'], ['chair', 'centernet', '0.80']]);
    assert.ok(intersectionOverUnion(found[1]!.box, { x: 40, y: 60, width: 100, height: 120 }) > 0.99);
    const removable = await detectObjects(grey(512, 512), { centernet }, { labels: REMOVABLE_LABELS });
    assert.deepEqual(removable.map((o) => o.label), ['chair']);

    const withLowerThreshold = await detectObjects(grey(512, 512), { centernet }, { minScores: { centernet: 0.15 } });
    assert.deepEqual(withLowerThreshold.map((o) => o.label), ['toilet', 'chair', 'cup']);
    const cars = await detectObjects(grey(512, 512), { centernet }, { labels: ['car'] });
    assert.deepEqual(cars.map((o) => o.label), ['car']);
  });

  it('fuses one object seen by both detectors into a score-weighted box named by the best', async () => {
    const centernetChair: Box = { x: 150, y: 150, width: 220, height: 220 };
    const found = await detectObjects(grey(512, 512), {
      centernet: fakeCenterNet([{ label: 'chair', score: 0.4, box: centernetChair }]),
      nanodet: fakeNanoDet([NANODET_CHAIR]),
    });
    assert.equal(found.length, 1);
    const [chair] = found;
    assert.equal(chair!.label, 'chair');
    assert.equal(chair!.source, 'nanodet');
    assert.ok(Math.abs(chair!.score - 0.6) < 1e-6);
    const expectedX = (0.4 * centernetChair.x + 0.6 * NANODET_CHAIR_BOX.x) / 1.0;
    assert.ok(Math.abs(chair!.box.x - expectedX) < 1.5, `x ${chair!.box.x}, expected ${expectedX}`);
  });

  it('lets a box under its threshold join an object but not stand alone', async () => {
    const centernet = fakeCenterNet([
      { label: 'chair', score: 0.2, box: { x: 150, y: 150, width: 220, height: 220 } },
      { label: 'couch', score: 0.2, box: { x: 10, y: 400, width: 200, height: 100 } },
    ]);
    const found = await detectObjects(grey(512, 512), { centernet, nanodet: fakeNanoDet([NANODET_CHAIR]) });
    assert.deepEqual(found.map((o) => o.label), ['chair']);
    assert.ok(found[0]!.box.x > NANODET_CHAIR_BOX.x, 'the weak CenterNet box pulled the fused box towards itself');
  });

  it('is class-aware: a person on a chair stays two objects; one thing named twice becomes one', async () => {
    const found = await detectObjects(grey(512, 512), {
      centernet: fakeCenterNet([
        { label: 'chair', score: 0.7, box: { x: 100, y: 200, width: 200, height: 200 } },
        { label: 'person', score: 0.6, box: { x: 120, y: 140, width: 160, height: 240 } },
        { label: 'couch', score: 0.5, box: { x: 102, y: 200, width: 200, height: 202 } },
      ]),
    });
    assert.deepEqual(found.map((o) => o.label).sort(), ['chair', 'person']);
  });

  it('names one thing a fixture when one of its names is, whatever the scores: a built-in microwave is no tv', async () => {
    const found = await detectObjects(grey(512, 512), {
      centernet: fakeCenterNet([
        { label: 'tv', score: 0.6, box: { x: 200, y: 100, width: 80, height: 60 } },
        { label: 'microwave', score: 0.5, box: { x: 202, y: 100, width: 80, height: 62 } },
        { label: 'cup', score: 0.45, box: { x: 40, y: 300, width: 40, height: 40 } },
      ]),
    });
    assert.deepEqual(found.map((o) => o.label), ['microwave', 'cup']);
  });

  it('adds Objectron: its own classes under their lower-cased names, tables fused with CenterNet\'s "dining table"', async () => {
    const table: Box = { x: 100, y: 250, width: 300, height: 150 };
    const found = await detectObjects(grey(512, 512), {
      centernet: fakeCenterNet([{ label: 'dining table', score: 0.5, box: table }]),
      objectron: fakeObjectron([
        { label: 'Table', score: 0.6, box: { ...table, x: 110 } },
        { label: 'Box', score: 0.4, box: { x: 20, y: 20, width: 60, height: 50 } },
        { label: 'Car', score: 0.9, box: { x: 300, y: 20, width: 150, height: 80 } },
        { label: 'Chair', score: 0.1, box: { x: 400, y: 100, width: 60, height: 100 } },
      ]),
    });
    assert.deepEqual(found.map((o) => [o.label, o.source, o.score.toFixed(2)]), [['table', 'objectron', '0.60'], ['box', 'objectron', '0.40']]);
    // The fused table: the score-weighted mean of the two boxes (0.5 and 0.6).
    assert.ok(Math.abs(found[0]!.box.x - (0.5 * 100 + 0.6 * 110) / 1.1) < 1, `x ${found[0]!.box.x}`);
    assert.ok(intersectionOverUnion(found[1]!.box, { x: 20, y: 20, width: 60, height: 50 }) > 0.97);

    const lower = await detectObjects(grey(512, 512), { centernet: fakeCenterNet([]), objectron: fakeObjectron([{ label: 'Chair', score: 0.1, box: table }]) }, { minScores: { objectron: 0.05 } });
    assert.deepEqual(lower.map((o) => o.label), ['chair']);
  });

  it('lists Objectron\'s removable classes from its label set, without vehicles and cattle', () => {
    for (const label of REMOVABLE_OBJECTRON_CLASSES) assert.ok(OBJECTRON_LABELS.includes(label), label);
    for (const label of ['Car', 'Vehicle', 'Cattle', '???'] as const) assert.ok(!REMOVABLE_OBJECTRON_CLASSES.includes(label), label);
    assert.ok(REMOVABLE_LABELS.includes('dining table') && REMOVABLE_LABELS.includes('computer monitor'));
  });

  it('lists only names of COCO classes, and no fixture as removable', () => {
    for (const label of [...REMOVABLE_CLASSES, ...FIXTURE_CLASSES]) assert.ok(COCO_CLASSES.includes(label), label);
    for (const label of FIXTURE_CLASSES) assert.ok(!REMOVABLE_LABELS.includes(label) && DETECTED_LABELS.includes(label), label);
    assert.equal(COCO_CLASSES.length, 80);
    assert.equal(cocoClassId('chair'), 56);
    assert.equal(cocoClassId('tv'), 62);
  });
});

describe('the SSD decoder (MediaPipe Objectron)', () => {
  it('generates MediaPipe\'s 1917 anchors', () => {
    assert.equal(ANCHORS.length, 1917);
    const rounded = (i: number) => Object.values(ANCHORS[i]!).map((v) => Number(v.toFixed(5)));
    // x centre, y centre, width, height, as in SsdAnchorsCalculator's golden file for this configuration.
    assert.deepEqual(rounded(0), [0.02632, 0.02632, 0.1, 0.1]);
    assert.deepEqual(rounded(1), [0.02632, 0.02632, 0.28284, 0.14142]);
    assert.deepEqual(rounded(3), [0.07895, 0.02632, 0.1, 0.1]);
    assert.deepEqual(rounded(1083), [0.05, 0.05, 0.35, 0.35]);
    assert.deepEqual(rounded(1911), [0.5, 0.5, 0.95, 0.95]);
    assert.deepEqual(rounded(1915), [0.5, 0.5, 0.54846, 1.64553]);
    assert.deepEqual(rounded(1916), [0.5, 0.5, 0.97468, 0.97468]);
  });

  it('decodes (y, x, h, w) encodings against the anchors, applies the sigmoid, skips the background and suppresses per class', () => {
    const encodings = new Float32Array(ANCHORS.length * 4);
    const logits = new Float32Array(ANCHORS.length * 24).fill(-10);
    const box = { x: 0.2, y: 0.3, width: 0.4, height: 0.5 };
    encodings.set(encode(box, 1916), 1916 * 4);
    encodings.set(encode({ ...box, x: 0.21 }, 1915), 1915 * 4);
    logits[1916 * 24 + 5] = logit(0.7); // Chair
    logits[1916 * 24 + 15] = logit(0.5); // Table, same box
    logits[1915 * 24 + 5] = logit(0.6); // a second chair box, suppressed
    logits[1914 * 24] = 10; // background
    const options = { anchors: ANCHORS, inputSize: 300, scales: OBJECTRON_BOX_SCALES, classes: 24, minScore: 0.3 };
    const found = decodeSsd(encodings, logits, options).sort((a, b) => b.score - a.score);
    assert.deepEqual(found.map((b) => [OBJECTRON_LABELS[b.classId], b.score.toFixed(3)]), [['Chair', '0.700'], ['Table', '0.500']]);
    for (const [value, expected] of [[found[0]!.x, 60], [found[0]!.y, 90], [found[0]!.width, 120], [found[0]!.height, 150]] as const) {
      assert.ok(Math.abs(value - expected) < 1e-3, `${value} ≠ ${expected}`);
    }
    assert.equal(decodeSsd(encodings, logits, { ...options, nmsIou: 1 }).length, 3);
    assert.deepEqual(decodeSsd(encodings, logits, { ...options, classIds: new Set([15]) }).map((b) => b.classId), [15]);
    // An anchor with no encoding is the anchor itself, clipped to the input.
    logits[0] = -10;
    logits[5] = logit(0.9);
    const [small] = decodeSsd(new Float32Array(ANCHORS.length * 4), logits, { ...options, classIds: new Set([5]), minScore: 0.8 });
    assert.deepEqual([small!.x, small!.y, small!.width.toFixed(3), small!.height.toFixed(3)], [0, 0, '22.895', '22.895']);
  });
});

describe('the NanoDet decoder', () => {
  it('places a box at the cell centre, edges at the expectation of each distribution, clipped to the input', () => {
    // A 2 × 2 grid of stride 208 on a 416 input; cell 3 is centred at (312, 312).
    const scores = new Float32Array(4 * 80);
    const distances = new Float32Array(4 * 44);
    scores[3 * 80 + 56] = 0.7; // chair
    scores[3 * 80 + 2] = 0.9; // car, not asked for
    scores[3 * 80 + 57] = 0.4; // couch, under the threshold
    const edge = (index: number, logits: (bin: number) => number) => {
      for (let bin = 0; bin < 11; bin++) distances[(3 * 4 + index) * 11 + bin] = logits(bin);
    };
    edge(0, () => 0); // uniform: 5 strides = 1040 px to the left, clipped at 0
    edge(1, (bin) => (bin === 0 ? 50 : 0)); // 0: the top is the centre
    edge(2, (bin) => (bin === 0 || bin === 1 ? 50 : 0)); // half 0, half 1: 0.5 stride = 104 px
    edge(3, (bin) => (bin === 1 ? 50 : 0)); // 1 stride = 208 px, clipped at 416
    const boxes = decodeNanoDet([{ stride: 208, scores, distances }], { inputSize: 416, minScore: 0.5, classIds: new Set([56, 57]) });
    assert.equal(boxes.length, 1);
    const [box] = boxes;
    assert.equal(box!.classId, 56);
    assert.equal(box!.score, Math.fround(0.7));
    const near = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) < 1e-6, `${what} ${actual} ≠ ${expected}`);
    near(box!.x, 0, 'left');
    near(box!.y, 312, 'top');
    near(box!.width, 416, 'width');
    near(box!.height, 104, 'height');
  });

  it('normalises as NanoDet does: BGR planes, (255 v − mean) / std', () => {
    const rgb = new Float32Array([1, 0, 0.5].flatMap((v) => [v, v]));
    const out = toNanoDetInput(rgb);
    assert.ok(Math.abs(out[0]! - (127.5 - 103.53) / 57.375) < 1e-5);
    assert.ok(Math.abs(out[2]! - (0 - 116.28) / 57.12) < 1e-5);
    assert.ok(Math.abs(out[4]! - (255 - 123.675) / 58.395) < 1e-5);
  });
});

describe('NHWC lowering of the ops of onnx-tf graphs (NanoDet)', () => {
  it('matches a plain reference for Pad, Transpose, MaxPool, LeakyRelu, ResizeBilinear, SplitV, Sigmoid, SparseToDense', async () => {
    const nodes = new Map<string, TfjsGraphNode>();
    const add = (name: string, op: string, inputs: string[] = [], attributes: TfjsGraphNode['attributes'] = {}) =>
      nodes.set(name, { name, op, inputs, attributes });
    add('x', 'Placeholder');
    add('pads', 'Const');
    add('padded', 'PadV2', ['x', 'pads', 'padValue']);
    add('padValue', 'Const');
    add('toNhwc', 'Const');
    add('nhwc', 'Transpose', ['padded', 'toNhwc']);
    add('pool', 'MaxPool', ['nhwc'], { ksize: [1, 3, 3, 1], strides: [1, 2, 2, 1], padding: 'VALID', data_format: 'NHWC' });
    add('leaky', 'LeakyRelu', ['pool'], { alpha: 0.1 });
    add('size', 'Const');
    add('resized', 'ResizeBilinear', ['leaky', 'size'], { half_pixel_centers: true, align_corners: false });
    add('splits', 'Const');
    add('axis', 'Const');
    add('split', 'SplitV', ['resized', 'splits', 'axis']);
    add('sig', 'Sigmoid', ['split']);
    add('where', 'Const');
    add('outShape', 'Const');
    add('fillValue', 'Const');
    add('zero', 'Const');
    add('dense', 'SparseToDense', ['where', 'outShape', 'fillValue', 'zero']);
    add('base', 'Const');
    add('shape', 'AddV2', ['base', 'dense']);
    add('flat', 'Reshape', ['split:1', 'shape']);
    const graph: TfjsGraph = {
      nodes,
      constants: new Map([
        // NCHW [1, 2, 5, 5] padded by one row and column at the end with −1: [1, 2, 6, 6].
        ['pads', { shape: [4, 2], values: new Int32Array([0, 0, 0, 0, 0, 1, 0, 1]) }],
        ['padValue', { shape: [], values: new Float32Array([-1]) }],
        ['toNhwc', { shape: [4], values: new Int32Array([0, 2, 3, 1]) }],
        ['size', { shape: [2], values: new Int32Array([4, 4]) }],
        ['splits', { shape: [2], values: new Int32Array([1, 1]) }],
        ['axis', { shape: [], values: new Int32Array([3]) }],
        // SparseToDense puts 16 at index 1 of [1, 0]: the shape [1, 16].
        ['where', { shape: [1, 1], values: new Int32Array([1]) }],
        ['outShape', { shape: [1], values: new Int32Array([2]) }],
        ['fillValue', { shape: [], values: new Int32Array([16]) }],
        ['zero', { shape: [], values: new Int32Array([0]) }],
        ['base', { shape: [2], values: new Int32Array([1, 0]) }],
      ]),
    };
    assert.deepEqual(unsupportedNhwcOps(graph, ['sig', 'flat']), {});
    const onnx = tfjsGraphModelToOnnxNhwc(graph, { outputs: { first: 'sig', second: 'flat' }, inputShape: [1, 2, 5, 5] });
    const session = await createDetectorSession(onnx);
    const input = Float32Array.from({ length: 50 }, (_, i) => Math.sin(i * 1.7) * 3);
    const { first, second } = await session.run(input, [1, 2, 5, 5]);
    await session.close();

    // Reference, NHWC after the transpose: pad, 3 × 3 / 2 max pool (6 → 2), leaky relu, resize 2 → 4.
    const padded = (c: number, y: number, x: number): number => (y < 5 && x < 5 ? input[c * 25 + y * 5 + x]! : -1);
    const pooled = (c: number, y: number, x: number): number => {
      let max = -Infinity;
      for (let dy = 0; dy < 3; dy++) for (let dx = 0; dx < 3; dx++) max = Math.max(max, padded(c, y * 2 + dy, x * 2 + dx));
      return max > 0 ? max : 0.1 * max;
    };
    const sample = (c: number, y: number, x: number): number => {
      const at = (v: number) => Math.min(Math.max((v + 0.5) / 2 - 0.5, 0), 1);
      const [fy, fx] = [at(y), at(x)];
      const [y0, x0] = [Math.floor(fy), Math.floor(fx)];
      const [y1, x1] = [Math.min(y0 + 1, 1), Math.min(x0 + 1, 1)];
      const top = pooled(c, y0, x0) * (1 - (fx - x0)) + pooled(c, y0, x1) * (fx - x0);
      const bottom = pooled(c, y1, x0) * (1 - (fx - x0)) + pooled(c, y1, x1) * (fx - x0);
      return top * (1 - (fy - y0)) + bottom * (fy - y0);
    };
    assert.deepEqual(first!.dims, [1, 4, 4, 1]);
    assert.deepEqual(second!.dims, [1, 16]);
    for (let y = 0; y < 4; y++) {
      for (let x = 0; x < 4; x++) {
        const i = y * 4 + x;
        assert.ok(Math.abs(first!.data[i]! - 1 / (1 + Math.exp(-sample(0, y, x)))) < 1e-5, `sigmoid at ${i}`);
        assert.ok(Math.abs(second!.data[i]! - sample(1, y, x)) < 1e-5, `second part at ${i}`);
      }
    }
  });
});

const registry = ModelRegistry.load();
const store = new ModelStore(path.resolve(import.meta.dirname, '../data/models'), registry);
const installed = await Promise.all(Object.values(OBJECT_MODEL_NAMES).map((name) => store.filesOf(name).then(() => true, () => false)));

describe('the real object detectors', { skip: installed.every(Boolean) ? false : 'centernet-coco, nanodet-coco and objectron-oid are not installed (run `roomcraft models install`)' }, () => {
  it('find nothing removable in a plain grey room', { timeout: TEST_TIMEOUT_MS }, async () => {
    const runtime = new ModelRuntime(store, registry);
    try {
      const detectors = {
        centernet: await runtime.detectorSession(OBJECT_MODEL_NAMES.centernet),
        nanodet: await runtime.detectorSession(OBJECT_MODEL_NAMES.nanodet),
        objectron: await runtime.detectorSession(OBJECT_MODEL_NAMES.objectron),
      };
      const room = grey(1200, 800);
      // Floor darker than the walls, as in a photo of an empty room.
      room.data.fill(90, room.data.length * 0.65);
      assert.deepEqual(await detectObjects(room, detectors), []);
    } finally {
      await runtime.close();
    }
  });
});
