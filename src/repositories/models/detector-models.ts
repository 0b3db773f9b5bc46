import fs from 'node:fs/promises';
import { createDetectorSession, type DetectorSession, type DetectorSessionOptions } from './detector-session.js';
import type { ModelRegistry } from './model-registry.js';
import type { ModelStore } from './model-store.js';
import { readTfjsGraphModel } from './tfjs-graph-files.js';
import { readTfliteModel } from './tflite.js';
import { tfliteToOnnx } from './tflite-to-onnx.js';
import { tfjsGraphModelToOnnx } from './tfjs-graph-to-onnx.js';
import { tfjsGraphModelToOnnxNhwc } from './tfjs-graph-nhwc-to-onnx.js';

/** Names the conversion in the cache; bump it whenever the converter's output changes. */
export const TFJS_GRAPH_CONVERTER_ID = 'tfjs-graph-to-onnx-v2';

/**
 * Where each tfjs graph detector is cut, ONNX output name → TensorFlow node. BlazeFace keeps its face head only
 * (the person head would cost time for nothing); CenterNet stops before its top-k and gathers, which
 * centernet-decoder.ts does on the heat map instead.
 */
const GRAPH_OUTPUTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'blazeface-full-range': { faces: 'Identity' },
  'centernet-coco': { heatmap: 'tower_0/keypoints', sizes: 'tower_0/wh' },
};

/** Converter of graphs exported from JAX (MAXIM), which keep TensorFlow's NHWC layout throughout. */
export const TFJS_GRAPH_NHWC_CONVERTER_ID = 'tfjs-graph-nhwc-to-onnx-v2';

/** Graphs converted by the NHWC lowering, with their ONNX output name → TensorFlow node. */
const NHWC_GRAPH_OUTPUTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'maxim-retouching': { retouched: 'Identity' },
  // NanoDet (onnx-tf export): class scores and box distributions per stride 8, 16, 32; see nanodet-decoder.ts.
  'nanodet-coco': {
    scores8: 'Identity',
    scores16: 'Identity_1',
    scores32: 'Identity_2',
    boxes8: 'Identity_3',
    boxes16: 'Identity_4',
    boxes32: 'Identity_5',
  },
};

/** Input shapes of NHWC-lowered graphs whose input is not NHWC RGB of any size. */
const NHWC_INPUT_SHAPES: Readonly<Record<string, readonly number[]>> = {
  'nanodet-coco': [1, 3, 416, 416],
};

/** Converter of TensorFlow Lite models (tflite-to-onnx.ts). */
export const TFLITE_CONVERTER_ID = 'tflite-to-onnx-v1';

/** TensorFlow Lite detectors, with their ONNX output name → TensorFlow Lite tensor. */
const TFLITE_OUTPUTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  // Objectron's SSD: box encodings and class logits per anchor; see ssd-decoder.ts.
  'objectron-oid': { boxes: 'raw_outputs/box_encodings', scores: 'raw_outputs/class_predictions' },
};

/** A detector session over an installed model: ONNX files as they are, tfjs graphs converted once and cached. */
export async function openDetector(
  store: ModelStore,
  registry: ModelRegistry,
  name: string,
  options: DetectorSessionOptions = {},
): Promise<DetectorSession> {
  const model = registry.model(name);
  if (model.format === 'onnx') {
    const [onnxPath] = await store.filesOf(name);
    return createDetectorSession(await fs.readFile(onnxPath!), options);
  }
  if (model.format === 'tflite' || model.format === 'tflite-packed') {
    const outputs = TFLITE_OUTPUTS[name];
    if (!outputs) throw new Error(`model ${name} is not a detector`);
    const onnxPath = await store.convert(name, TFLITE_CONVERTER_ID, async ([file]) =>
      tfliteToOnnx(readTfliteModel(await readRange(file!, model.packed)), { outputs, inputRange: model.inputRange ?? [0, 1] }),
    );
    return createDetectorSession(await fs.readFile(onnxPath), options);
  }
  const nhwcOutputs = NHWC_GRAPH_OUTPUTS[name];
  if (nhwcOutputs) {
    const onnxPath = await store.convert(name, TFJS_GRAPH_NHWC_CONVERTER_ID, async (files) =>
      tfjsGraphModelToOnnxNhwc(await readTfjsGraphModel(files), { outputs: nhwcOutputs, inputShape: NHWC_INPUT_SHAPES[name] }),
    );
    return createDetectorSession(await fs.readFile(onnxPath), options);
  }
  const outputs = GRAPH_OUTPUTS[name];
  if (model.format !== 'tfjs-graph' || !outputs) throw new Error(`model ${name} is not a detector`);
  const inputRange = model.inputRange ?? [0, 1];
  const onnxPath = await store.convert(name, TFJS_GRAPH_CONVERTER_ID, async (files) =>
    tfjsGraphModelToOnnx(await readTfjsGraphModel(files), { inputRange, outputs }),
  );
  return createDetectorSession(await fs.readFile(onnxPath), options);
}

/** The whole file, or the `range` of it where a packed model lies. */
async function readRange(file: string, range: { offset: number; length: number } | undefined): Promise<Uint8Array> {
  if (!range) return fs.readFile(file);
  const handle = await fs.open(file, 'r');
  try {
    const bytes = new Uint8Array(range.length);
    for (let done = 0; done < range.length; ) {
      const { bytesRead } = await handle.read(bytes, done, range.length - done, range.offset + done);
      if (bytesRead === 0) throw new Error(`${file} ends before byte ${range.offset + range.length}`);
      done += bytesRead;
    }
    return bytes;
  } finally {
    await handle.close();
  }
}
