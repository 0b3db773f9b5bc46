import { decodeTfjsWeights, type WeightTensor, type WeightsManifestGroup } from './tfjs-weights.js';

export type { WeightTensor } from './tfjs-weights.js';

/**
 * A TensorFlow.js layers model (model.json + weight shards) read into a typed, framework-free graph:
 * the layer kinds of the UpscalerJS ESRGAN models (RDN and RRDN), each with its weights attached.
 * Tensors are NHWC, as in Keras; converters choose their own layout.
 */
export interface TfjsLayersGraph {
  /** Layers in an order where every layer comes after its inputs; the first is the input, the last the output. */
  layers: TfjsLayer[];
  inputName: string;
  outputName: string;
  inputChannels: number;
  outputChannels: number;
  /** How many output pixels per input pixel along each axis. */
  scale: number;
  weights: ReadonlyMap<string, WeightTensor>;
}

export type Activation = { kind: 'linear' } | { kind: 'relu' } | { kind: 'leaky-relu'; alpha: number };

export type TfjsLayer =
  | { kind: 'input'; name: string }
  | {
      kind: 'conv2d';
      name: string;
      input: string;
      /** Keras layout: [kernelHeight, kernelWidth, inputChannels, filters]. */
      kernel: WeightTensor;
      bias: WeightTensor | null;
      strides: [number, number];
      dilations: [number, number];
      padding: 'same' | 'valid';
      activation: Activation;
    }
  | { kind: 'activation'; name: string; input: string; activation: Activation }
  | { kind: 'concatenate'; name: string; inputs: string[] }
  | { kind: 'add'; name: string; inputs: string[] }
  | { kind: 'multiply'; name: string; input: string; factor: number }
  /** TensorFlow's depth_to_space: channel (i * block + j) * C + c goes to pixel offset (i, j), channel c. */
  | { kind: 'depth-to-space'; name: string; input: string; blockSize: number }
  | { kind: 'upsample-nearest'; name: string; input: string; size: [number, number] };

export interface ParseOptions {
  /** The model's upscaling factor, used for a PixelShuffle layer whose block size is neither in its config nor its name. */
  scale?: number;
}

/**
 * `modelJson` is the parsed model.json; `shards` the bytes of the weight files, in the order the manifest
 * lists them.
 */
export function parseTfjsLayersModel(
  modelJson: unknown,
  shards: readonly Uint8Array[],
  options: ParseOptions = {},
): TfjsLayersGraph {
  const json = asRecord(modelJson, 'model.json');
  const manifest = json.weightsManifest;
  if (!Array.isArray(manifest)) throw new Error('model.json has no weightsManifest array');
  const weights = decodeTfjsWeights(manifest as WeightsManifestGroup[], shards);

  const topology = asRecord(json.modelTopology, 'modelTopology');
  // Keras nests the model under model_config; some exporters put it at the top.
  const model = asRecord(topology.model_config ?? topology, 'model_config');
  if (model.class_name !== 'Functional' && model.class_name !== 'Model') {
    throw new Error(`only functional Keras models are supported, not ${String(model.class_name)}`);
  }
  const config = asRecord(model.config, 'model_config.config');
  const inputName = singleEndpoint(config.input_layers, 'input_layers');
  const outputName = singleEndpoint(config.output_layers, 'output_layers');

  const rawLayers = new Map<string, Record<string, unknown>>();
  for (const raw of asArray(config.layers, 'layers')) {
    const layer = asRecord(raw, 'layer');
    rawLayers.set(asString(layer.name, 'layer name'), layer);
  }

  const layers: TfjsLayer[] = [];
  const channels = new Map<string, number>();
  const scales = new Map<string, number>();
  const visiting = new Set<string>();
  const context: LayerContext = { weights, options, channels, scales };

  // Depth-first from the output, so that the list is topologically ordered and unused layers are left out.
  const visit = (name: string): void => {
    if (channels.has(name)) return;
    if (visiting.has(name)) throw new Error(`layer ${name} is part of a cycle`);
    const raw = rawLayers.get(name);
    if (!raw) throw new Error(`layer ${name} is referenced but not defined`);
    visiting.add(name);
    const inputs = inboundLayerNames(raw);
    inputs.forEach(visit);
    const layer = name === inputName ? inputLayer(raw, channels, scales) : convertLayer(raw, inputs, context);
    visiting.delete(name);
    layers.push(layer);
  };
  visit(outputName);
  if (!channels.has(inputName)) throw new Error(`the output ${outputName} does not depend on the input ${inputName}`);

  return {
    layers,
    inputName,
    outputName,
    inputChannels: channels.get(inputName)!,
    outputChannels: channels.get(outputName)!,
    scale: scales.get(outputName)!,
    weights,
  };
}

interface LayerContext {
  weights: ReadonlyMap<string, WeightTensor>;
  options: ParseOptions;
  /** Channel count and spatial scale of every layer converted so far, for checking how layers fit together. */
  channels: Map<string, number>;
  scales: Map<string, number>;
}

function inputLayer(raw: Record<string, unknown>, channels: Map<string, number>, scales: Map<string, number>): TfjsLayer {
  const name = raw.name as string;
  if (raw.class_name !== 'InputLayer') throw new Error(`the model input ${name} is a ${String(raw.class_name)}`);
  const config = asRecord(raw.config, `${name} config`);
  const shape = asArray(config.batch_input_shape ?? config.batch_shape, `${name} batch_input_shape`);
  const depth = shape[3];
  if (shape.length !== 4 || typeof depth !== 'number') {
    throw new Error(`input ${name} must be an image batch [N, H, W, C] with known C, not ${JSON.stringify(shape)}`);
  }
  channels.set(name, depth);
  scales.set(name, 1);
  return { kind: 'input', name };
}

function convertLayer(raw: Record<string, unknown>, inputs: string[], context: LayerContext): TfjsLayer {
  const name = raw.name as string;
  const className = asString(raw.class_name, `${name} class_name`);
  const config = asRecord(raw.config, `${name} config`);
  if (inputs.length === 0) throw new Error(`${className} layer ${name} has no inputs; the model must have a single input`);
  const { channels, scales } = context;
  const inputChannels = inputs.map((input) => channels.get(input)!);
  const inputScale = scales.get(inputs[0]!)!;
  const single = (): string => {
    if (inputs.length !== 1) throw new Error(`${className} layer ${name} takes one input, not ${inputs.length}`);
    return inputs[0]!;
  };
  const define = (layer: TfjsLayer, outputChannels: number, outputScale = inputScale): TfjsLayer => {
    channels.set(name, outputChannels);
    scales.set(name, outputScale);
    return layer;
  };

  switch (className) {
    case 'Conv2D': {
      const input = single();
      const conv = convolution(name, config, input, context.weights);
      if (conv.kernel.shape[2] !== inputChannels[0]) {
        throw new Error(`Conv2D ${name} expects ${conv.kernel.shape[2]} input channels, gets ${inputChannels[0]}`);
      }
      return define(conv, conv.kernel.shape[3]!, inputScale / conv.strides[0]);
    }
    case 'Activation':
      return define({ kind: 'activation', name, input: single(), activation: activation(config.activation, name) }, inputChannels[0]!);
    case 'ReLU':
      return define({ kind: 'activation', name, input: single(), activation: reluLayerActivation(config, name) }, inputChannels[0]!);
    case 'LeakyReLU': {
      const alpha = config.alpha ?? config.negative_slope ?? 0.3;
      if (typeof alpha !== 'number') throw new Error(`LeakyReLU ${name} has a non-numeric slope`);
      return define({ kind: 'activation', name, input: single(), activation: { kind: 'leaky-relu', alpha } }, inputChannels[0]!);
    }
    case 'Concatenate': {
      if (config.axis !== -1 && config.axis !== 3) throw new Error(`Concatenate ${name} must join channels, not axis ${String(config.axis)}`);
      requireSameScale(name, inputs, scales);
      return define({ kind: 'concatenate', name, inputs }, inputChannels.reduce((sum, c) => sum + c, 0));
    }
    case 'Add': {
      if (inputs.length < 2) throw new Error(`Add ${name} needs at least two inputs`);
      if (new Set(inputChannels).size !== 1) throw new Error(`Add ${name} mixes channel counts ${inputChannels.join(', ')}`);
      requireSameScale(name, inputs, scales);
      return define({ kind: 'add', name, inputs }, inputChannels[0]!);
    }
    case 'MultiplyBeta': {
      // UpscalerJS's own MultiplyBeta ignores its config and multiplies by 0.2; the config, when present, agrees.
      const factor = config.beta ?? 0.2;
      if (typeof factor !== 'number') throw new Error(`MultiplyBeta ${name} has a non-numeric beta`);
      return define({ kind: 'multiply', name, input: single(), factor }, inputChannels[0]!);
    }
    case 'UpSampling2D': {
      if ((config.interpolation ?? 'nearest') !== 'nearest') {
        throw new Error(`UpSampling2D ${name}: only nearest interpolation is supported, not ${String(config.interpolation)}`);
      }
      requireChannelsLast(config, name);
      const size = pair(config.size, `${name} size`);
      if (size[0] !== size[1]) throw new Error(`UpSampling2D ${name} scales the axes differently (${size.join('×')})`);
      return define({ kind: 'upsample-nearest', name, input: single(), size }, inputChannels[0]!, inputScale * size[0]);
    }
    default: {
      const shuffle = /^PixelShuffle(?:(\d+)x)?$/.exec(className);
      if (shuffle) {
        const blockSize = config.scale ?? (shuffle[1] ? Number(shuffle[1]) : context.options.scale);
        if (typeof blockSize !== 'number' || !Number.isInteger(blockSize) || blockSize < 1) {
          throw new Error(`${className} ${name}: block size unknown; pass the model's scale`);
        }
        const depth = inputChannels[0]!;
        if (depth % (blockSize * blockSize) !== 0) {
          throw new Error(`${className} ${name}: ${depth} channels do not split into ${blockSize}×${blockSize} blocks`);
        }
        const input = single();
        return define({ kind: 'depth-to-space', name, input, blockSize }, depth / (blockSize * blockSize), inputScale * blockSize);
      }
      throw new Error(`unsupported layer type ${className} (layer ${name})`);
    }
  }
}

function convolution(
  name: string,
  config: Record<string, unknown>,
  input: string,
  weights: ReadonlyMap<string, WeightTensor>,
): TfjsLayer & { kind: 'conv2d' } {
  requireChannelsLast(config, name);
  if ((config.groups ?? 1) !== 1) throw new Error(`Conv2D ${name}: grouped convolutions are not supported`);
  const padding = config.padding;
  if (padding !== 'same' && padding !== 'valid') throw new Error(`Conv2D ${name}: unsupported padding ${String(padding)}`);
  const kernel = weights.get(`${name}/kernel`);
  if (!kernel) throw new Error(`Conv2D ${name}: no weight ${name}/kernel in the manifest`);
  const kernelSize = pair(config.kernel_size, `${name} kernel_size`);
  const [kh, kw, , filters] = kernel.shape;
  if (kernel.shape.length !== 4 || kh !== kernelSize[0] || kw !== kernelSize[1] || filters !== config.filters) {
    throw new Error(`Conv2D ${name}: kernel shape [${kernel.shape.join(', ')}] does not match its config`);
  }
  let bias: WeightTensor | null = null;
  if (config.use_bias !== false) {
    bias = weights.get(`${name}/bias`) ?? null;
    if (!bias || bias.values.length !== filters) throw new Error(`Conv2D ${name}: missing or misshapen ${name}/bias`);
  }
  const strides = pair(config.strides ?? 1, `${name} strides`);
  if (strides[0] !== strides[1]) throw new Error(`Conv2D ${name}: unequal strides are not supported`);
  return {
    kind: 'conv2d',
    name,
    input,
    kernel,
    bias,
    strides,
    dilations: pair(config.dilation_rate ?? 1, `${name} dilation_rate`),
    padding,
    activation: activation(config.activation ?? 'linear', name),
  };
}

function activation(value: unknown, layerName: string): Activation {
  if (value === 'linear') return { kind: 'linear' };
  if (value === 'relu') return { kind: 'relu' };
  throw new Error(`layer ${layerName}: unsupported activation ${JSON.stringify(value)}`);
}

function reluLayerActivation(config: Record<string, unknown>, name: string): Activation {
  if ((config.max_value ?? null) !== null || (config.threshold ?? 0) !== 0) {
    throw new Error(`ReLU ${name}: max_value and threshold are not supported`);
  }
  const slope = config.negative_slope ?? 0;
  if (typeof slope !== 'number') throw new Error(`ReLU ${name} has a non-numeric negative_slope`);
  return slope === 0 ? { kind: 'relu' } : { kind: 'leaky-relu', alpha: slope };
}

/** Keras 2 form: one call of the layer, as [[layerName, nodeIndex, tensorIndex, kwargs], ...]. */
function inboundLayerNames(raw: Record<string, unknown>): string[] {
  const nodes = asArray(raw.inbound_nodes ?? [], `${String(raw.name)} inbound_nodes`);
  if (nodes.length === 0) return [];
  if (nodes.length > 1) throw new Error(`layer ${String(raw.name)} is shared between several calls; not supported`);
  return asArray(nodes[0], `${String(raw.name)} inbound node`).map((entry) => {
    const [layerName, nodeIndex, tensorIndex] = asArray(entry, `${String(raw.name)} inbound entry`);
    if (typeof layerName !== 'string' || nodeIndex !== 0 || tensorIndex !== 0) {
      throw new Error(`layer ${String(raw.name)}: unsupported inbound reference ${JSON.stringify(entry)}`);
    }
    return layerName;
  });
}

function singleEndpoint(value: unknown, what: string): string {
  const endpoints = asArray(value, what);
  const first = endpoints[0];
  if (endpoints.length !== 1 || !Array.isArray(first) || typeof first[0] !== 'string') {
    throw new Error(`the model must have exactly one ${what.replace('_layers', '')}, found ${JSON.stringify(value)}`);
  }
  return first[0];
}

function requireChannelsLast(config: Record<string, unknown>, name: string): void {
  if ((config.data_format ?? 'channels_last') !== 'channels_last') throw new Error(`layer ${name} is not channels_last`);
}

function requireSameScale(name: string, inputs: string[], scales: Map<string, number>): void {
  if (new Set(inputs.map((input) => scales.get(input))).size !== 1) throw new Error(`layer ${name} joins tensors of different sizes`);
}

function pair(value: unknown, what: string): [number, number] {
  if (typeof value === 'number') return [value, value];
  if (Array.isArray(value) && value.length === 2 && value.every((v) => Number.isInteger(v) && v > 0)) {
    return [value[0] as number, value[1] as number];
  }
  throw new Error(`${what}: expected a positive integer or a pair of them, got ${JSON.stringify(value)}`);
}

function asRecord(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${what} is not an object`);
  return value as Record<string, unknown>;
}

function asArray(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${what} is not an array`);
  return value;
}

function asString(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new Error(`${what} is not a string`);
  return value;
}
