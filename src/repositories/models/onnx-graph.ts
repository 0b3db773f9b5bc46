import { encodeOnnxModel, type OnnxAttribute, type OnnxInitializer, type OnnxNode } from './onnx-proto.js';
import type { Activation, TfjsLayer, TfjsLayersGraph, WeightTensor } from './tfjs-layers.js';

/** Names of the ONNX model's one input and one output, both float32 NCHW [batch, channels, height, width]. */
export const ONNX_INPUT_NAME = 'image';
export const ONNX_OUTPUT_NAME = 'upscaled';

export interface OnnxConversionOptions {
  /**
   * The value the tfjs model takes for full intensity: 1 for UpscalerJS's RRDN models (thick, gans),
   * 255 for its RDN ones (medium, slim, div2k, psnr-small). The ONNX model always works in [0, 1].
   */
  modelPixelMax?: number;
  /** Clamp the output to [0, 1], as UpscalerJS clips to the model's output range. */
  clampOutput?: boolean;
}

const OPSET_VERSION = 17;
// IR version 8 is the one that goes with opset 17.
const IR_VERSION = 8;

/**
 * Lowers a tfjs layers graph to a serialized ONNX model with dynamic batch, height and width.
 * Layout changes happen here, once: kernels HWIO → OIHW, channel axis 3 → 1.
 */
export function tfjsGraphToOnnx(graph: TfjsLayersGraph, options: OnnxConversionOptions = {}): Uint8Array {
  const builder = new OnnxGraphBuilder();
  const pixelMax = options.modelPixelMax ?? 1;
  for (const layer of graph.layers) {
    if (layer.kind !== 'input') {
      builder.tensorOf.set(layer.name, lowerLayer(builder, layer));
    } else if (pixelMax === 1) {
      builder.tensorOf.set(layer.name, ONNX_INPUT_NAME);
    } else {
      builder.tensorOf.set(layer.name, builder.multiply(ONNX_INPUT_NAME, pixelMax, `${layer.name}/to_model_range`));
    }
  }
  let output = builder.tensor(graph.outputName);
  if (pixelMax !== 1) output = builder.multiply(output, 1 / pixelMax, 'from_model_range');
  if (options.clampOutput) {
    output = builder.node('Clip', 'clamp', [output, builder.constant(0), builder.constant(1)]);
  }
  builder.nodes.push({ opType: 'Identity', name: ONNX_OUTPUT_NAME, inputs: [output], outputs: [ONNX_OUTPUT_NAME] });

  return encodeOnnxModel({
    irVersion: IR_VERSION,
    opsetVersion: OPSET_VERSION,
    producerName: 'roomcraft tfjs-layers converter',
    graph: {
      name: graph.outputName,
      nodes: builder.nodes,
      initializers: builder.initializers,
      inputs: [{ name: ONNX_INPUT_NAME, shape: ['batch', graph.inputChannels, 'height', 'width'] }],
      outputs: [{ name: ONNX_OUTPUT_NAME, shape: ['batch', graph.outputChannels, 'output_height', 'output_width'] }],
    },
  });
}

function lowerLayer(builder: OnnxGraphBuilder, layer: Exclude<TfjsLayer, { kind: 'input' }>): string {
  const name = layer.name;
  switch (layer.kind) {
    case 'conv2d': {
      const inputs = [builder.tensor(layer.input), builder.weight(`${name}/kernel`, hwioToOihw(layer.kernel))];
      if (layer.bias) inputs.push(builder.weight(`${name}/bias`, layer.bias));
      const conv = builder.node('Conv', layer.activation.kind === 'linear' ? name : `${name}/linear`, inputs, convAttributes(layer));
      return applyActivation(builder, conv, layer.activation, name);
    }
    case 'activation':
      return applyActivation(builder, builder.tensor(layer.input), layer.activation, name);
    case 'concatenate':
      return builder.node('Concat', name, layer.inputs.map((input) => builder.tensor(input)), { axis: { type: 'int', value: 1 } });
    case 'add':
      return builder.node(layer.inputs.length === 2 ? 'Add' : 'Sum', name, layer.inputs.map((input) => builder.tensor(input)));
    case 'multiply':
      return builder.multiply(builder.tensor(layer.input), layer.factor, name);
    case 'depth-to-space':
      return builder.node('DepthToSpace', name, [builder.tensor(layer.input)], {
        blocksize: { type: 'int', value: layer.blockSize },
        // DCR is TensorFlow's channel order; ONNX's other mode, CRD, is PyTorch's PixelShuffle.
        mode: { type: 'string', value: 'DCR' },
      });
    case 'upsample-nearest': {
      const scales = builder.weight(`${name}/scales`, { shape: [4], values: Float32Array.of(1, 1, ...layer.size) });
      return builder.node('Resize', name, [builder.tensor(layer.input), '', scales], {
        mode: { type: 'string', value: 'nearest' },
        // Output pixel y reads input pixel floor(y / size): Keras's repeat.
        coordinate_transformation_mode: { type: 'string', value: 'asymmetric' },
        nearest_mode: { type: 'string', value: 'floor' },
      });
    }
  }
}

function applyActivation(builder: OnnxGraphBuilder, input: string, activation: Activation, name: string): string {
  switch (activation.kind) {
    case 'linear':
      return input;
    case 'relu':
      return builder.node('Relu', name, [input]);
    case 'leaky-relu':
      return builder.node('LeakyRelu', name, [input], { alpha: { type: 'float', value: activation.alpha } });
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
    // At stride 1 TensorFlow's "same" padding does not depend on the input size: fix it, the extra pixel at the end.
    const [top, bottom] = samePadding(kh, layer.dilations[0]);
    const [left, right] = samePadding(kw, layer.dilations[1]);
    attributes.pads = { type: 'ints', value: [top, left, bottom, right] };
  } else {
    attributes.auto_pad = { type: 'string', value: 'SAME_UPPER' };
  }
  return attributes;
}

function samePadding(kernel: number, dilation: number): [number, number] {
  const total = (kernel - 1) * dilation;
  return [Math.floor(total / 2), total - Math.floor(total / 2)];
}

function hwioToOihw(kernel: WeightTensor): WeightTensor {
  const [kh, kw, cin, cout] = kernel.shape as [number, number, number, number];
  const source = kernel.values;
  const values = new Float32Array(source.length);
  let from = 0;
  for (let y = 0; y < kh; y++) {
    for (let x = 0; x < kw; x++) {
      for (let i = 0; i < cin; i++) {
        for (let o = 0; o < cout; o++) values[((o * cin + i) * kh + y) * kw + x] = source[from++]!;
      }
    }
  }
  return { shape: [cout, cin, kh, kw], values };
}

class OnnxGraphBuilder {
  readonly nodes: OnnxNode[] = [];
  readonly initializers: OnnxInitializer[] = [];
  /** The ONNX tensor holding each tfjs layer's output; an identity activation maps to its input's tensor. */
  readonly tensorOf = new Map<string, string>();
  private readonly constants = new Map<number, string>();

  tensor(layerName: string): string {
    const tensor = this.tensorOf.get(layerName);
    if (tensor === undefined) throw new Error(`layer ${layerName} is used before it is defined`);
    return tensor;
  }

  node(opType: string, output: string, inputs: string[], attributes?: Record<string, OnnxAttribute>): string {
    this.nodes.push({ opType, name: output, inputs, outputs: [output], ...(attributes ? { attributes } : {}) });
    return output;
  }

  multiply(input: string, factor: number, output: string): string {
    return this.node('Mul', output, [input, this.constant(factor)]);
  }

  weight(name: string, tensor: WeightTensor): string {
    this.initializers.push({ name, dims: tensor.shape, values: tensor.values });
    return name;
  }

  /** Scalars are shared: the forty MultiplyBeta layers of an RRDN need one 0.2. */
  constant(value: number): string {
    let name = this.constants.get(value);
    if (name === undefined) {
      name = `constant/${value}`;
      this.weight(name, { shape: [], values: Float32Array.of(value) });
      this.constants.set(value, name);
    }
    return name;
  }
}
