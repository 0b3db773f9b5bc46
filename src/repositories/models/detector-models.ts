import fs from 'node:fs/promises';
import { createDetectorSession, type DetectorSession, type DetectorSessionOptions } from './detector-session.js';
import type { ModelRegistry } from './model-registry.js';
import type { ModelStore } from './model-store.js';
import { readTfjsGraphModel } from './tfjs-graph-files.js';
import { tfjsGraphModelToOnnx } from './tfjs-graph-to-onnx.js';
import { tfjsGraphModelToOnnxNhwc } from './tfjs-graph-nhwc-to-onnx.js';

/** Names the conversion in the cache; bump it whenever the converter's output changes. */
export const TFJS_GRAPH_CONVERTER_ID = 'tfjs-graph-to-onnx-v1';

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
export const TFJS_GRAPH_NHWC_CONVERTER_ID = 'tfjs-graph-nhwc-to-onnx-v1';

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
