import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createDetectorSession, type DetectorSession } from '../src/repositories/models/detector-session.js';
import type { TfjsGraph, TfjsGraphNode } from '../src/repositories/models/tfjs-graph.js';
import { tfjsGraphModelToOnnxNhwc, unsupportedNhwcOps } from '../src/repositories/models/tfjs-graph-nhwc-to-onnx.js';
import { learnedRetouch } from '../src/services/enhance/learned-retouch.js';
import { applyColourGrid, fitColourGrid } from '../src/vision/enhance/colour-transfer.js';
import type { RawImage } from '../src/vision/raw-image.js';

function photo(width: number, height: number): RawImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      data[i] = (x * 255) / width;
      data[i + 1] = (y * 255) / height;
      data[i + 2] = ((x + y) * 97) % 200;
    }
  }
  return { data, width, height, channels: 3 };
}

function toFloat(image: RawImage): Float32Array {
  return Float32Array.from(image.data, (v) => v / 255);
}

test('the colour grid carries a global affine colour change to the full image', () => {
  const image = photo(64, 48);
  const source = toFloat(image);
  const target = new Float32Array(source.length);
  for (let i = 0; i < source.length; i += 3) {
    target[i] = 0.9 * source[i]! + 0.05;
    target[i + 1] = 0.8 * source[i + 1]! + 0.1 * source[i]!;
    target[i + 2] = 0.7 * source[i + 2]! + 0.1;
  }
  const grid = fitColourGrid(source, target, 64, 48, { cells: 4 });
  const out = applyColourGrid(image, grid);
  let worst = 0;
  for (let i = 0; i < out.data.length; i++) worst = Math.max(worst, Math.abs(out.data[i]! - target[i]! * 255));
  assert.ok(worst <= 2, `worst error ${worst}`);
});

test('the colour grid follows a change that differs from left to right', () => {
  const image = photo(80, 40);
  const source = toFloat(image);
  const target = Float32Array.from(source, (v, i) => (Math.floor(i / 3) % 80 < 40 ? v * 0.5 : Math.min(1, v * 1.2)));
  const out = applyColourGrid(image, fitColourGrid(source, target, 80, 40, { cells: 8 }));
  const at = (x: number, y: number) => out.data[(y * 80 + x) * 3 + 1]! / Math.max(1, image.data[(y * 80 + x) * 3 + 1]!);
  assert.ok(at(5, 30) < 0.6, `left ratio ${at(5, 30)}`);
  assert.ok(at(75, 30) > 1.1, `right ratio ${at(75, 30)}`);
});

test('learnedRetouch runs the whole image small, padded to 64, and applies the change at full size', async () => {
  const image = photo(300, 200);
  let seen: readonly number[] = [];
  const session: DetectorSession = {
    async run(input, dims) {
      seen = dims;
      return { retouched: { data: Float32Array.from(input, (v) => v * 0.5), dims } };
    },
    async close() {},
  };
  const { image: out, report } = await learnedRetouch(image, session, { longSide: 100 });
  assert.deepEqual(seen, [1, 128, 128, 3]);
  assert.equal(report.networkWidth, 128);
  assert.equal(out.width, 300);
  for (let i = 0; i < out.data.length; i += 997) assert.ok(Math.abs(out.data[i]! - image.data[i]! * 0.5) <= 2, `at ${i}`);
});

test('the NHWC converter lowers convolution, shape arithmetic, einsum and slices that onnxruntime runs', async () => {
  const nodes = new Map<string, TfjsGraphNode>();
  const add = (name: string, op: string, inputs: string[] = [], attributes: TfjsGraphNode['attributes'] = {}) =>
    nodes.set(name, { name, op, inputs, attributes });
  add('x', 'Placeholder', [], { dtype: 'DT_FLOAT', shape: [null, null, null, 3] });
  add('w', 'Const');
  add('conv', 'Conv2D', ['x', 'w'], { padding: 'SAME', strides: [1, 1, 1, 1], dilations: [1, 1, 1, 1], data_format: 'NHWC' });
  add('shape', 'Shape', ['x'], { out_type: 'DT_INT32' });
  add('b0', 'Const');
  add('b1', 'Const');
  add('s1', 'Const');
  add('h', 'StridedSlice', ['shape', 'b0', 'b1', 's1'], { shrink_axis_mask: 1 });
  add('minus1', 'Const');
  add('flatShape', 'Pack', ['h', 'minus1'], { axis: 0, T: 'DT_INT32' });
  add('flat', 'Reshape', ['conv', 'flatShape']);
  add('m', 'Const');
  add('mixed', 'Einsum', ['flat', 'm'], { equation: 'ab,bc->ac' });
  add('out', 'Identity', ['mixed']);
  const graph: TfjsGraph = {
    nodes,
    constants: new Map([
      ['w', { shape: [1, 1, 3, 2], values: new Float32Array([1, 0, 0, 1, 1, 1]) }],
      ['b0', { shape: [1], values: new Int32Array([1]) }],
      ['b1', { shape: [1], values: new Int32Array([2]) }],
      ['s1', { shape: [1], values: new Int32Array([1]) }],
      ['minus1', { shape: [], values: new Int32Array([-1]) }],
      ['m', { shape: [4, 1], values: new Float32Array([1, 2, 3, 4]) }],
    ]),
  };
  assert.deepEqual(unsupportedNhwcOps(graph, ['out']), {});
  const session = await createDetectorSession(tfjsGraphModelToOnnxNhwc(graph, { outputs: { y: 'out' } }));
  // 2×2 image: per pixel conv gives [r + b, g + b]; each row of 2 pixels flattens to 4 values, mixed by [1, 2, 3, 4].
  const x = new Float32Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  const { y } = await session.run(x, [1, 2, 2, 3]);
  const pixel = (i: number) => [x[i * 3]! + x[i * 3 + 2]!, x[i * 3 + 1]! + x[i * 3 + 2]!];
  const expected = [0, 1].map((row) => {
    const values = [...pixel(row * 2), ...pixel(row * 2 + 1)];
    return values[0]! + 2 * values[1]! + 3 * values[2]! + 4 * values[3]!;
  });
  assert.deepEqual(y!.dims, [2, 1]);
  assert.deepEqual(Array.from(y!.data), expected);
  await session.close();
});
