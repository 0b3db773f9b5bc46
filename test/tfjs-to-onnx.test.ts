import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { tfjsLayersModelToOnnx, type TfjsLayersConversionOptions } from '../src/repositories/models/tfjs-layers-to-onnx.js';
import { createImageModelSession } from '../src/repositories/models/onnx-runtime.js';
import { parseTfjsLayersModel } from '../src/repositories/models/tfjs-layers.js';
import { readTfjsLayersModel } from '../src/repositories/models/tfjs-layers-files.js';
import { decodeTfjsWeights } from '../src/repositories/models/tfjs-weights.js';
import { nhwcToNchw, TinyModelBuilder, type NhwcImage } from './helpers/tiny-tfjs-model.js';

const TOLERANCE = 1e-4;

/** Converts the built model, runs it in onnxruntime on `input` and returns the NCHW output with its reference. */
async function runBoth(
  builder: TinyModelBuilder,
  output: string,
  input: NhwcImage,
  options: TfjsLayersConversionOptions = {},
): Promise<{ actual: Float32Array; expected: Float32Array; scale: number }> {
  const { modelJson, shards } = builder.build(output);
  const graph = parseTfjsLayersModel(modelJson, shards);
  const session = await createImageModelSession(tfjsLayersModelToOnnx(graph, options));
  try {
    const pixelMax = options.modelPixelMax ?? 1;
    const modelInput = { ...input, data: input.data.map((v) => v * pixelMax) };
    const reference = builder.reference(output, modelInput);
    let expected = nhwcToNchw(reference).map((v) => v / pixelMax);
    if (options.clampOutput) expected = expected.map((v) => Math.min(1, Math.max(0, v)));
    const actual = await session.infer(nhwcToNchw(input), input.height, input.width);
    return { actual, expected, scale: reference.height / input.height };
  } finally {
    await session.close();
  }
}

function assertClose(actual: Float32Array, expected: Float32Array): void {
  assert.equal(actual.length, expected.length);
  let worst = 0;
  actual.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - expected[i]!))));
  assert.ok(worst < TOLERANCE, `max abs difference ${worst}`);
}

describe('tfjs layers model → ONNX', () => {
  it('matches a naive reference for an RRDN-style block: same-padded convs, relu, concat, beta residual, pixel shuffle, uint8 weights', async () => {
    const b = new TinyModelBuilder(1);
    const x = b.input('LR_input', 3);
    const pre = b.conv('Pre_blocks_conv', x, { filters: 8, kernel: [3, 3] });
    const f1 = b.conv('F_1_1', pre, { filters: 4, kernel: [3, 3], activation: 'relu' });
    const r1 = b.relu('F_1_1_Relu', f1);
    const joined = b.concatenate('F_1_concat', [pre, r1]);
    const squeeze = b.conv('F_1_squeeze', joined, { filters: 8, kernel: [1, 1], padding: 'valid', quantize: 'uint8' });
    const beta = b.multiplyBeta('multiply_beta', squeeze);
    const residual = b.sum('RRDB_1_out', [pre, beta]);
    const preShuffle = b.conv('PreShuffle', residual, { filters: 12, kernel: [3, 3] });
    const shuffled = b.pixelShuffle('pixel_shuffle', preShuffle, 2);
    const out = b.conv('SR', shuffled, { filters: 3, kernel: [3, 3] });

    const { actual, expected, scale } = await runBoth(b, out, b.randomImage(9, 13, 3));
    assert.equal(scale, 2);
    assertClose(actual, expected);
  });

  it('matches a naive reference for an RDN-style tail: nearest upsampling, 5×5 and even kernels, a three-way add', async () => {
    const b = new TinyModelBuilder(2);
    const x = b.input('LR', 3);
    const a = b.conv('F_m1', x, { filters: 6, kernel: [5, 5] });
    const c = b.conv('F_0', a, { filters: 6, kernel: [4, 4], useBias: false });
    const d = b.conv('F_1', c, { filters: 6, kernel: [2, 3], quantize: 'uint16' });
    const sum = b.sum('GFF', [a, c, d]);
    const up = b.upsample('UPsample', sum, 3);
    const out = b.conv('SR', up, { filters: 3, kernel: [3, 3] });

    const { actual, expected, scale } = await runBoth(b, out, b.randomImage(7, 10, 3));
    assert.equal(scale, 3);
    assertClose(actual, expected);
  });

  it('handles strides, dilation and leaky relu as TensorFlow pads them', async () => {
    const b = new TinyModelBuilder(3);
    const x = b.input('LR', 3);
    const dilated = b.conv('dilated', x, { filters: 5, kernel: [3, 3], dilation: 2 });
    const leaky = b.leakyRelu('leaky', dilated, 0.1);
    const strided = b.conv('strided', leaky, { filters: 12, kernel: [3, 3], strides: 2 });
    const out = b.pixelShuffle('shuffle', strided, 2);

    // 11×7 at stride 2 gives 6×4; TensorFlow puts the odd padding pixel at the end.
    const { actual, expected } = await runBoth(b, out, b.randomImage(11, 7, 3));
    assert.equal(actual.length, 3 * 12 * 8);
    assertClose(actual, expected);
  });

  it('works in [0, 1] whatever range the model uses, and clamps the output when asked', async () => {
    const b = new TinyModelBuilder(4);
    const x = b.input('LR', 3);
    const out = b.upsample('up', b.conv('SR', x, { filters: 3, kernel: [3, 3] }), 2);

    const { actual, expected } = await runBoth(b, out, b.randomImage(5, 6, 3), { modelPixelMax: 255, clampOutput: true });
    assert.ok(expected.some((v) => v === 0) && expected.some((v) => v === 1), 'the test should exercise clamping');
    assertClose(actual, expected);
  });

  it('refuses a layer type it does not know, naming it', () => {
    const b = new TinyModelBuilder(5);
    const x = b.input('LR', 3);
    const out = b.custom('SpatialTransformer', 'warp', [x], 3);
    const { modelJson, shards } = b.build(out);
    assert.throws(() => parseTfjsLayersModel(modelJson, shards), /unsupported layer type SpatialTransformer \(layer warp\)/);
  });

  it('refuses shards that do not match the manifest', () => {
    const b = new TinyModelBuilder(6);
    const out = b.conv('SR', b.input('LR', 3), { filters: 3, kernel: [3, 3] });
    const { modelJson, shards } = b.build(out);
    assert.throws(() => parseTfjsLayersModel(modelJson, []), /lists 1 shard files but 0 were given/);
    assert.throws(() => parseTfjsLayersModel(modelJson, [shards[0]!.subarray(1)]), /runs past the end/);
  });

  it('reads model.json and its shards from the given files only, matching shards by name', async (t) => {
    const b = new TinyModelBuilder(7);
    const out = b.pixelShuffle('shuffle', b.conv('conv', b.input('LR', 3), { filters: 12, kernel: [3, 3] }), 2);
    const { modelJson, shards } = b.build(out);
    const directory = await mkdtemp(path.join(tmpdir(), 'tfjs-layers-'));
    t.after(() => rm(directory, { recursive: true, force: true }));
    const jsonPath = path.join(directory, 'model.json');
    const shardPath = path.join(directory, 'group1-shard1of1.bin');
    await writeFile(jsonPath, JSON.stringify(modelJson));
    await writeFile(shardPath, shards[0]!);

    const graph = await readTfjsLayersModel([jsonPath, shardPath]);
    assert.deepEqual([graph.scale, graph.inputChannels, graph.outputChannels, graph.layers.length], [2, 3, 3, 3]);
    await assert.rejects(readTfjsLayersModel([jsonPath]), /shard group1-shard1of1\.bin is not among the given files/);
  });

  it('decodes float16-quantised weights', () => {
    const manifest = [{ paths: ['w.bin'], weights: [{ name: 'w', shape: [5], dtype: 'float32', quantization: { dtype: 'float16' } }] }];
    const halves = Uint16Array.of(0x3c00, 0xc000, 0x3800, 0x7bff, 0x0001);
    const decoded = decodeTfjsWeights(manifest, [new Uint8Array(halves.buffer)]).get('w')!;
    assert.deepEqual(Array.from(decoded.values), [1, -2, 0.5, 65504, 2 ** -24]);
  });
});
