import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openDetector } from '../src/repositories/models/detector-models.js';
import { createDetectorSession } from '../src/repositories/models/detector-session.js';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import { halfToFloat, readTfliteModel, type TfliteModel, type TfliteOperator, type TfliteTensor } from '../src/repositories/models/tflite.js';
import { samePadding } from '../src/repositories/models/same-padding.js';
import { tfliteToOnnx, unsupportedTfliteOps } from '../src/repositories/models/tflite-to-onnx.js';
import { OBJECTRON_LABELS } from '../src/vision/declutter/ssd-decoder.js';
import { TEST_TIMEOUT_MS } from './helpers/until.js';

// ---------------------------------------------------------------------------------------------------------------
// Tiny TensorFlow Lite graphs, built as the reader returns them, with float16 constants behind DEQUANTIZE as in
// Objectron's model, checked against straightforward NHWC references.

/** Values that float16 holds exactly (multiples of 1/64 in [−2, 2]), from a seeded generator. */
function halfExactValues(count: number, seed: number): Float32Array {
  let state = seed;
  return Float32Array.from({ length: count }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return Math.round((state / 2 ** 31) * 256 - 128) / 64;
  });
}

function toHalfBytes(values: Float32Array): Uint8Array {
  const bytes = new Uint8Array(values.length * 2);
  const view = new DataView(bytes.buffer);
  values.forEach((value, i) => view.setUint16(i * 2, floatToHalf(value), true));
  return bytes;
}

/** Exact for the values above (normal float16 numbers with a short fraction) and zero. */
function floatToHalf(value: number): number {
  if (value === 0) return 0;
  const sign = value < 0 ? 0x8000 : 0;
  const exponent = Math.floor(Math.log2(Math.abs(value)));
  const fraction = Math.round((Math.abs(value) / 2 ** exponent - 1) * 1024);
  return sign | ((exponent + 15) << 10) | fraction;
}

class TinyTflite {
  readonly tensors: TfliteTensor[] = [];
  readonly operators: TfliteOperator[] = [];
  readonly values = new Map<number, Float32Array>();

  activation(name: string, shape: number[]): number {
    this.tensors.push({ name, shape, type: 'float32' });
    return this.tensors.length - 1;
  }

  /** A float16 constant and the DEQUANTIZE that makes it float32; returns the float32 tensor. */
  weight(name: string, shape: number[], seed: number): number {
    const values = halfExactValues(shape.reduce((a, b) => a * b, 1), seed);
    this.tensors.push({ name: `${name}_fp16`, shape, type: 'float16', data: toHalfBytes(values) });
    const half = this.tensors.length - 1;
    const full = this.activation(name, shape);
    this.operators.push({ op: 'DEQUANTIZE', inputs: [half], outputs: [full], options: { kind: 'none' } });
    this.values.set(full, values);
    return full;
  }

  op(op: string, inputs: number[], output: number, options: TfliteOperator['options']): void {
    this.operators.push({ op, inputs, outputs: [output], options });
  }

  model(input: number, outputs: number[]): TfliteModel {
    return { version: 3, tensors: this.tensors, inputs: [input], outputs, operators: this.operators };
  }
}

interface Nhwc {
  data: Float32Array;
  height: number;
  width: number;
  channels: number;
}

const at = (image: Nhwc, y: number, x: number, c: number): number =>
  y < 0 || x < 0 || y >= image.height || x >= image.width ? 0 : image.data[(y * image.width + x) * image.channels + c]!;

/** TensorFlow's convolution on NHWC: OHWI filters, or [1, H, W, C·M] ones when depthwise. */
function referenceConv(
  input: Nhwc,
  filter: Float32Array,
  bias: Float32Array,
  o: { kh: number; kw: number; outChannels: number; stride: number; dilation: number; depthwise: boolean; pads: [number, number]; relu6: boolean },
): Nhwc {
  const height = Math.ceil(input.height / o.stride);
  const width = Math.ceil(input.width / o.stride);
  const out = new Float32Array(height * width * o.outChannels);
  const multiplier = o.outChannels / input.channels;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let k = 0; k < o.outChannels; k++) {
        let sum = bias[k]!;
        for (let ky = 0; ky < o.kh; ky++) {
          for (let kx = 0; kx < o.kw; kx++) {
            const sy = y * o.stride + ky * o.dilation - o.pads[0];
            const sx = x * o.stride + kx * o.dilation - o.pads[1];
            if (o.depthwise) {
              sum += at(input, sy, sx, Math.floor(k / multiplier)) * filter[(ky * o.kw + kx) * o.outChannels + k]!;
            } else {
              for (let c = 0; c < input.channels; c++) sum += at(input, sy, sx, c) * filter[((k * o.kh + ky) * o.kw + kx) * input.channels + c]!;
            }
          }
        }
        out[(y * width + x) * o.outChannels + k] = o.relu6 ? Math.min(6, Math.max(0, sum)) : sum;
      }
    }
  }
  return { data: out, height, width, channels: o.outChannels };
}

async function runOnnx(model: TfliteModel, input: Float32Array, dims: number[], options: Parameters<typeof tfliteToOnnx>[1] = {}) {
  const session = await createDetectorSession(tfliteToOnnx(model, options));
  try {
    return await session.run(input, dims);
  } finally {
    await session.close();
  }
}

function assertClose(actual: Float32Array, expected: Float32Array, tolerance = 1e-4): void {
  assert.equal(actual.length, expected.length);
  let worst = 0;
  actual.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - expected[i]!))));
  assert.ok(worst < tolerance, `max abs difference ${worst}`);
}

describe('TensorFlow Lite → ONNX', () => {
  it('pads SAME as TensorFlow does: the odd pixel at the end', () => {
    assert.deepEqual(samePadding(8, 3, 2, 1), [0, 1]);
    assert.deepEqual(samePadding(7, 3, 2, 1), [1, 1]);
    assert.deepEqual(samePadding(10, 3, 1, 2), [2, 2]);
    assert.deepEqual(samePadding(300, 3, 2, 1), [0, 1]);
  });

  it('CONV_2D (stride 2, SAME on an even side, RELU6) and DEPTHWISE_CONV_2D (multiplier 2, dilation 2) match references', async () => {
    const g = new TinyTflite();
    const input = g.activation('input', [1, 8, 6, 3]);
    const convFilter = g.weight('conv/filter', [5, 3, 3, 3], 1);
    const convBias = g.weight('conv/bias', [5], 2);
    const conv = g.activation('conv', [1, 4, 3, 5]);
    g.op('CONV_2D', [input, convFilter, convBias], conv, { kind: 'conv2d', padding: 'same', strideH: 2, strideW: 2, dilationH: 1, dilationW: 1, activation: 'relu6' });
    const dwFilter = g.weight('dw/filter', [1, 3, 3, 10], 3);
    const dwBias = g.weight('dw/bias', [10], 4);
    const dw = g.activation('dw', [1, 4, 3, 10]);
    g.op('DEPTHWISE_CONV_2D', [conv, dwFilter, dwBias], dw, {
      kind: 'depthwise-conv2d', padding: 'same', strideH: 1, strideW: 1, depthMultiplier: 2, dilationH: 2, dilationW: 2, activation: 'none',
    });
    const image: Nhwc = { data: halfExactValues(8 * 6 * 3, 5), height: 8, width: 6, channels: 3 };

    const convRef = referenceConv(image, g.values.get(convFilter)!, g.values.get(convBias)!, {
      kh: 3, kw: 3, outChannels: 5, stride: 2, dilation: 1, depthwise: false, pads: [0, 0], relu6: true,
    });
    const dwRef = referenceConv(convRef, g.values.get(dwFilter)!, g.values.get(dwBias)!, {
      kh: 3, kw: 3, outChannels: 10, stride: 1, dilation: 2, depthwise: true, pads: [2, 2], relu6: false,
    });
    const outputs = await runOnnx(g.model(input, [conv, dw]), image.data, [1, 8, 6, 3]);
    assert.deepEqual(outputs.conv!.dims, [1, 4, 3, 5]);
    assertClose(outputs.conv!.data, convRef.data);
    assertClose(outputs.dw!.data, dwRef.data);
  });

  it('ADD, CONCATENATION of 4-D (channels) and 3-D tensors and RESHAPE keep TensorFlow Lite\'s element order', async () => {
    const g = new TinyTflite();
    const input = g.activation('input', [1, 3, 4, 2]);
    const filter = g.weight('conv/filter', [2, 1, 1, 2], 6);
    const conv = g.activation('conv', [1, 3, 4, 2]);
    g.op('CONV_2D', [input, filter, -1], conv, { kind: 'conv2d', padding: 'valid', strideH: 1, strideW: 1, dilationH: 1, dilationW: 1, activation: 'none' });
    const sum = g.activation('sum', [1, 3, 4, 2]);
    g.op('ADD', [conv, input], sum, { kind: 'add', activation: 'relu' });
    const joined = g.activation('joined', [1, 3, 4, 4]);
    g.op('CONCATENATION', [sum, conv], joined, { kind: 'concatenation', axis: -1, activation: 'none' });
    const flatA = g.activation('flatA', [1, 24, 2]);
    g.op('RESHAPE', [joined], flatA, { kind: 'reshape' });
    const flatB = g.activation('flatB', [1, 12, 2]);
    g.op('RESHAPE', [input], flatB, { kind: 'reshape' });
    const all = g.activation('all', [1, 36, 2]);
    g.op('CONCATENATION', [flatA, flatB], all, { kind: 'concatenation', axis: 1, activation: 'none' });

    const x = halfExactValues(24, 7);
    const w = g.values.get(filter)!;
    const convRef = new Float32Array(24);
    for (let p = 0; p < 12; p++) for (let o = 0; o < 2; o++) convRef[p * 2 + o] = x[p * 2]! * w[o * 2]! + x[p * 2 + 1]! * w[o * 2 + 1]!;
    const joinedRef: number[] = [];
    for (let p = 0; p < 12; p++) joinedRef.push(...[0, 1].map((c) => Math.max(0, convRef[p * 2 + c]! + x[p * 2 + c]!)), convRef[p * 2]!, convRef[p * 2 + 1]!);
    const expected = Float32Array.from([...joinedRef, ...x]);

    const { all: out } = await runOnnx(g.model(input, [all]), x, [1, 3, 4, 2]);
    assert.deepEqual(out!.dims, [1, 36, 2]);
    assertClose(out!.data, expected);
  });

  it('takes NCHW input in [0, 1] mapped onto the model\'s range when given inputRange', async () => {
    const g = new TinyTflite();
    const input = g.activation('input', [1, 2, 2, 3]);
    const flat = g.activation('flat', [1, 12]);
    g.op('RESHAPE', [input], flat, { kind: 'reshape' });
    const nchw = Float32Array.from({ length: 12 }, (_, i) => i / 11);
    const { flat: out } = await runOnnx(g.model(input, [flat]), nchw, [1, 3, 2, 2], { inputRange: [-1, 1] });
    // NHWC element (y, x, c) is NCHW element (c, y, x), scaled to [−1, 1].
    const expected = Float32Array.from({ length: 12 }, (_, i) => nchw[(i % 3) * 4 + Math.floor(i / 3)]! * 2 - 1);
    assertClose(out!.data, expected, 1e-6);
  });

  it('names the ops it does not know', () => {
    const g = new TinyTflite();
    const input = g.activation('input', [1, 4, 4, 3]);
    const pooled = g.activation('pooled', [1, 2, 2, 3]);
    g.op('MAX_POOL_2D', [input], pooled, { kind: 'none' });
    const model = g.model(input, [pooled]);
    assert.deepEqual(unsupportedTfliteOps(model), { MAX_POOL_2D: 1 });
    assert.throws(() => tfliteToOnnx(model), /unsupported TensorFlow Lite ops: \{"MAX_POOL_2D":1\}/);
  });

  it('reads float16 as IEEE binary16 and refuses files that are not TensorFlow Lite', () => {
    assert.deepEqual([0x3c00, 0xc000, 0x3555, 0x7bff, 0x0001, 0x0000, 0x7c00].map(halfToFloat), [1, -2, 0.333251953125, 65504, 2 ** -24, 0, Infinity]);
    assert.throws(() => readTfliteModel(new Uint8Array(64)), /no TFL3 identifier/);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The real model, when installed.

const registry = ModelRegistry.load();
const store = new ModelStore(path.resolve(import.meta.dirname, '../data/models'), registry);
const installed = await store.filesOf('objectron-oid').then(() => true, () => false);

/**
 * Raw outputs of the TensorFlow Lite runtime (tfjs-tflite 0.0.1-alpha.10's WebAssembly build, XNNPACK) for the input
 * x[i] = 0.9 sin(0.37 i), NHWC [1, 300, 300, 3]: index → value, of box encodings and class logits.
 */
const TFLITE_BOXES: Readonly<Record<number, number>> = { 0: -2.659921884536743, 1: -2.6345996856689453, 2: -80.56819915771484, 3: -80.59710693359375, 4000: 0.38276413083076477, 7667: -0.043784018605947495 };
const TFLITE_SCORES: Readonly<Record<number, number>> = { 0: 1.4735428094863892, 5: -4.2434983253479, 23000: -6.983695030212402, 24005: -4.6518073081970215, 45999: -2.560730218887329 };

describe('Objectron\'s detector from the model store', { skip: installed ? false : 'objectron-oid is not installed (run `roomcraft models install`)' }, () => {
  it('is the model the registry describes: its ops, its label map, its outputs as the TensorFlow Lite runtime gives them', { timeout: TEST_TIMEOUT_MS }, async () => {
    const [file] = await store.filesOf('objectron-oid');
    const bytes = await fs.readFile(file!);
    const entry = registry.model('objectron-oid');
    const model = readTfliteModel(bytes.subarray(entry.packed!.offset, entry.packed!.offset + entry.packed!.length));
    const counts: Record<string, number> = {};
    for (const { op } of model.operators) counts[op] = (counts[op] ?? 0) + 1;
    assert.deepEqual(counts, { DEQUANTIZE: 144, CONV_2D: 55, DEPTHWISE_CONV_2D: 17, ADD: 10, RESHAPE: 13, CONCATENATION: 2 });
    assert.deepEqual(bytes.subarray(0, entry.packed!.offset).toString('utf8').trim().split('\n'), [...OBJECTRON_LABELS]);

    // The model's own NHWC input in [−1, 1], as the reference was run.
    const session = await createDetectorSession(tfliteToOnnx(model));
    const input = Float32Array.from({ length: 300 * 300 * 3 }, (_, i) => Math.fround(Math.sin(i * 0.37) * 0.9));
    const outputs = await session.run(input, [1, 300, 300, 3]);
    await session.close();
    assert.deepEqual(outputs['raw_outputs/box_encodings']!.dims, [1, 1917, 4]);
    assert.deepEqual(outputs['raw_outputs/class_predictions']!.dims, [1, 1917, 24]);
    for (const [index, value] of Object.entries(TFLITE_BOXES)) assert.ok(Math.abs(outputs['raw_outputs/box_encodings']!.data[Number(index)]! - value) < 1e-3, `box ${index}`);
    for (const [index, value] of Object.entries(TFLITE_SCORES)) assert.ok(Math.abs(outputs['raw_outputs/class_predictions']!.data[Number(index)]! - value) < 1e-3, `score ${index}`);

    // Through the store and its conversion cache: NCHW in [0, 1], outputs named for the decoder.
    const detector = await openDetector(store, registry, 'objectron-oid');
    const nchw = new Float32Array(3 * 300 * 300);
    for (let i = 0; i < input.length; i++) nchw[(i % 3) * 90000 + Math.floor(i / 3)] = (input[i]! + 1) / 2;
    const viaStore = await detector.run(nchw, [1, 3, 300, 300]);
    await detector.close();
    assert.ok(Math.abs(viaStore.boxes!.data[4000]! - TFLITE_BOXES[4000]!) < 1e-3);
    assert.ok(Math.abs(viaStore.scores!.data[45999]! - TFLITE_SCORES[45999]!) < 1e-3);
  });
});
