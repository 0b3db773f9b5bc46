import { CONVERTED_INPUT_NAME, ONNX_IR_VERSION, ONNX_OPSET_VERSION } from './onnx-conventions.js';
import { OnnxGraphBuilder } from './onnx-graph-builder.js';
import { encodeOnnxModel, type OnnxAttribute } from './onnx-proto.js';
import { hwioToOihw } from './kernel-layout.js';
import { samePadding } from './same-padding.js';
import type { Activation, TfjsLayer, TfjsLayersGraph, WeightTensor } from './tfjs-layers.js';

/** Name of the ONNX model's one output; it and the input are float32 NCHW [batch, channels, height, width]. */
export const ONNX_OUTPUT_NAME = 'upscaled';

export interface TfjsLayersConversionOptions {
  /**
   * The value the tfjs model takes for full intensity: 1 for UpscalerJS's RRDN models (thick, gans),
   * 255 for its RDN ones (medium, slim, div2k, psnr-small). The ONNX model always works in [0, 1].
   */
  modelPixelMax?: number;
  /** Clamp the output to [0, 1], as UpscalerJS clips to the model's output range. */
  clampOutput?: boolean;
}

/**
 * Lowers a TensorFlow.js layers model (as read by tfjs-layers.ts) to a serialized ONNX model with dynamic batch,
 * height and width. Layout changes happen here, once: kernels HWIO → OIHW, channel axis 3 → 1. Graph models have
 * their own converters: tfjs-graph-to-onnx.ts and tfjs-graph-nhwc-to-onnx.ts.
 */
export function tfjsLayersModelToOnnx(graph: TfjsLayersGraph, options: TfjsLayersConversionOptions = {}): Uint8Array {
  const builder = new LayersGraphBuilder();
  const pixelMax = options.modelPixelMax ?? 1;
  for (const layer of graph.layers) {
    if (layer.kind !== 'input') {
      builder.tensorOf.set(layer.name, lowerLayer(builder, layer));
    } else if (pixelMax === 1) {
      builder.tensorOf.set(layer.name, CONVERTED_INPUT_NAME);
    } else {
      builder.tensorOf.set(layer.name, builder.multiply(CONVERTED_INPUT_NAME, pixelMax, `${layer.name}/to_model_range`));
    }
  }
  let output = builder.tensor(graph.outputName);
  if (pixelMax !== 1) output = builder.multiply(output, 1 / pixelMax, 'from_model_range');
  if (options.clampOutput) {
    output = builder.node('Clip', [output, builder.scalar(0), builder.scalar(1)], 'clamp');
  }
  builder.nodes.push({ opType: 'Identity', name: ONNX_OUTPUT_NAME, inputs: [output], outputs: [ONNX_OUTPUT_NAME] });

  return encodeOnnxModel({
    irVersion: ONNX_IR_VERSION,
    opsetVersion: ONNX_OPSET_VERSION,
    producerName: 'roomcraft tfjs-layers converter',
    graph: {
      name: graph.outputName,
      nodes: builder.nodes,
      initializers: builder.initializers,
      inputs: [{ name: CONVERTED_INPUT_NAME, shape: ['batch', graph.inputChannels, 'height', 'width'] }],
      outputs: [{ name: ONNX_OUTPUT_NAME, shape: ['batch', graph.outputChannels, 'output_height', 'output_width'] }],
    },
  });
}

function lowerLayer(builder: LayersGraphBuilder, layer: Exclude<TfjsLayer, { kind: 'input' }>): string {
  const name = layer.name;
  switch (layer.kind) {
    case 'conv2d': {
      const kernel = hwioToOihw(layer.kernel);
      const inputs = [builder.tensor(layer.input), builder.weight(`${name}/kernel`, kernel.shape, kernel.values)];
      if (layer.bias) inputs.push(builder.weight(`${name}/bias`, layer.bias.shape, layer.bias.values));
      const conv = builder.node('Conv', inputs, layer.activation.kind === 'linear' ? name : `${name}/linear`, convAttributes(layer));
      return applyActivation(builder, conv, layer.activation, name);
    }
    case 'activation':
      return applyActivation(builder, builder.tensor(layer.input), layer.activation, name);
    case 'concatenate':
      return builder.node('Concat', layer.inputs.map((input) => builder.tensor(input)), name, { axis: { type: 'int', value: 1 } });
    case 'add':
      return builder.node(layer.inputs.length === 2 ? 'Add' : 'Sum', layer.inputs.map((input) => builder.tensor(input)), name);
    case 'multiply':
      return builder.multiply(builder.tensor(layer.input), layer.factor, name);
    case 'depth-to-space':
      return builder.node('DepthToSpace', [builder.tensor(layer.input)], name, {
        blocksize: { type: 'int', value: layer.blockSize },
        // DCR is TensorFlow's channel order; ONNX's other mode, CRD, is PyTorch's PixelShuffle.
        mode: { type: 'string', value: 'DCR' },
      });
    case 'upsample-nearest': {
      const scales = builder.weight(`${name}/scales`, [4], Float32Array.of(1, 1, ...layer.size));
      return builder.node('Resize', [builder.tensor(layer.input), '', scales], name, {
        mode: { type: 'string', value: 'nearest' },
        // Output pixel y reads input pixel floor(y / size): Keras's repeat.
        coordinate_transformation_mode: { type: 'string', value: 'asymmetric' },
        nearest_mode: { type: 'string', value: 'floor' },
      });
    }
  }
}

function applyActivation(builder: LayersGraphBuilder, input: string, activation: Activation, name: string): string {
  switch (activation.kind) {
    case 'linear':
      return input;
    case 'relu':
      return builder.node('Relu', [input], name);
    case 'leaky-relu':
      return builder.node('LeakyRelu', [input], name, { alpha: { type: 'float', value: activation.alpha } });
  }
}

function convAttributes(layer: TfjsLayer & { kind: 'conv2d' }): Record<string, OnnxAttribute> {
  const [kh, kw] = layer.kernel.shape as [number, number];
  const attributes: Record<string, OnnxAttribute> = {
    kernel_shape: { type: 'ints', value: [kh, kw] },
    strides: { type: 'ints', value: layer.strides },
    dilations: { type: 'ints', value: layer.dilations },
  };
  if (layer.padding === 'valid') {
    attributes.pads = { type: 'ints', value: [0, 0, 0, 0] };
  } else if (layer.strides[0] === 1 && layer.strides[1] === 1) {
    // At stride 1 TensorFlow's "same" padding does not depend on the input size (any will do): fix it.
    const [top, bottom] = samePadding(1, kh, 1, layer.dilations[0]);
    const [left, right] = samePadding(1, kw, 1, layer.dilations[1]);
    attributes.pads = { type: 'ints', value: [top, left, bottom, right] };
  } else {
    attributes.auto_pad = { type: 'string', value: 'SAME_UPPER' };
  }
  return attributes;
}

/** The shared builder, plus the ONNX tensor holding each tfjs layer's output. */
class LayersGraphBuilder extends OnnxGraphBuilder {
  /** An identity activation maps to its input's tensor. */
  readonly tensorOf = new Map<string, string>();

  tensor(layerName: string): string {
    const tensor = this.tensorOf.get(layerName);
    if (tensor === undefined) throw new Error(`layer ${layerName} is used before it is defined`);
    return tensor;
  }

  multiply(input: string, factor: number, output: string): string {
    return this.node('Mul', [input, this.scalar(factor)], output);
  }
}
