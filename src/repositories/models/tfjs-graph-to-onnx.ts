import { CONVERTED_INPUT_NAME, ONNX_IR_VERSION, ONNX_OPSET_VERSION } from './onnx-conventions.js';
import { OnnxGraphBuilder } from './onnx-graph-builder.js';
import { encodeOnnxModel, type OnnxValueInfo } from './onnx-proto.js';
import { depthwiseToOihw, hwioToOihw } from './kernel-layout.js';
import { samePadding } from './same-padding.js';
import type { ConstantTensor, TfjsGraph, TfjsGraphNode } from './tfjs-graph.js';

// The ONNX model's input (CONVERTED_INPUT_NAME) is float32 NCHW [1, channels, height, width], RGB in [0, 1].

export interface TfjsGraphConversionOptions {
  /** The pixel range the TensorFlow model expects, e.g. [-1, 1] or [0, 255]; the ONNX input is always [0, 1]. */
  inputRange: readonly [number, number];
  /**
   * ONNX output name → TensorFlow node name. Only what these nodes need is converted, so a graph can be cut
   * before post-processing that is better done in TypeScript (top-k, gathers) or past heads nobody reads.
   */
  outputs: Readonly<Record<string, string>>;
}

/**
 * Lowers a TensorFlow graph model to ONNX for a fixed input size (the Placeholder's; batch 1). Every 4-D tensor is
 * kept NCHW, which is what ONNX's Conv wants; the layout is changed once, on the weights, and around the rare
 * op whose meaning depends on it (Reshape). Rank-4 outputs are therefore NCHW, others as in TensorFlow.
 * Shape arithmetic (Shape → StridedSlice → Pack, which Keras emits for a dynamic batch) is evaluated here.
 */
export function tfjsGraphModelToOnnx(graph: TfjsGraph, options: TfjsGraphConversionOptions): Uint8Array {
  const lowering = new Lowering(graph, options);
  const outputs: OnnxValueInfo[] = [];
  for (const [onnxName, tfName] of Object.entries(options.outputs)) {
    const value = lowering.tensor(tfName);
    if (value.name !== onnxName) {
      if (lowering.builder.defines(onnxName)) throw new Error(`output name ${onnxName} is already a tensor of the graph`);
      lowering.builder.nodes.push({ opType: 'Identity', name: onnxName, inputs: [value.name], outputs: [onnxName] });
    }
    outputs.push({ name: onnxName, shape: value.shape.length === 4 ? toNchw(value.shape) : value.shape });
  }
  return encodeOnnxModel({
    irVersion: ONNX_IR_VERSION,
    opsetVersion: ONNX_OPSET_VERSION,
    producerName: 'roomcraft tfjs-graph converter',
    graph: {
      name: 'detector',
      nodes: lowering.builder.nodes,
      initializers: lowering.builder.initializers,
      inputs: [{ name: CONVERTED_INPUT_NAME, shape: toNchw(lowering.inputShape) }],
      outputs,
    },
  });
}

/** A value known while converting (weights, shapes) or a tensor computed at run time, with its TensorFlow shape. */
type Value = ({ kind: 'constant' } & ConstantTensor) | { kind: 'tensor'; name: string; shape: readonly number[] };
type Tensor = Extract<Value, { kind: 'tensor' }>;

/** NHWC axis → NCHW axis. */
const NCHW_AXIS = [0, 2, 3, 1] as const;

class Lowering {
  readonly builder = new DetectorGraphBuilder();
  readonly inputShape: readonly number[];
  private readonly values = new Map<string, Value>();

  constructor(
    private readonly graph: TfjsGraph,
    private readonly options: TfjsGraphConversionOptions,
  ) {
    const placeholders = [...graph.nodes.values()].filter((node) => node.op === 'Placeholder');
    if (placeholders.length !== 1) throw new Error(`expected one Placeholder, found ${placeholders.length}`);
    const shape = placeholders[0]!.attributes.shape;
    if (!Array.isArray(shape) || shape.length !== 4 || shape.slice(1).some((size) => typeof size !== 'number')) {
      throw new Error('the input must be NHWC with a fixed height, width and channel count');
    }
    this.inputShape = [1, ...(shape.slice(1) as number[])];
  }

  tensor(reference: string): Tensor {
    const value = this.value(reference);
    if (value.kind !== 'tensor') throw new Error(`${reference} is a constant where a tensor was expected`);
    return value;
  }

  private value(reference: string): Value {
    const [name, index] = reference.split(':');
    if (index !== undefined && index !== '0') throw new Error(`${reference}: only the first output of a node can be used`);
    let value = this.values.get(name!);
    if (!value) {
      const node = this.graph.nodes.get(name!);
      if (!node) throw new Error(`the graph has no node ${name}`);
      value = this.lower(node);
      this.values.set(name!, value);
    }
    return value;
  }

  private constant(reference: string): ConstantTensor {
    const value = this.value(reference);
    if (value.kind !== 'constant') throw new Error(`${reference} must be known when converting`);
    return value;
  }

  private lower(node: TfjsGraphNode): Value {
    const input = (i: number): Tensor => this.tensor(node.inputs[i]!);
    switch (node.op) {
      case 'Const': {
        const constant = this.graph.constants.get(node.name);
        if (!constant) throw new Error(`constant ${node.name} has no weights`);
        return { kind: 'constant', ...constant };
      }
      case 'Placeholder': {
        const [low, high] = this.options.inputRange;
        const scaled = this.builder.node('Mul', [CONVERTED_INPUT_NAME, this.builder.scalar(high - low)], `${node.name}/scale`);
        return { kind: 'tensor', name: this.builder.node('Add', [scaled, this.builder.scalar(low)], node.name), shape: this.inputShape };
      }
      case 'Identity':
        return this.value(node.inputs[0]!);
      case 'Conv2D':
      case '_FusedConv2D':
        return this.convolution(node, false);
      case 'DepthwiseConv2dNative':
      case 'FusedDepthwiseConv2dNative':
        return this.convolution(node, true);
      case 'Add':
      case 'AddV2':
      case 'Sub':
      case 'Mul':
        return this.binary(node);
      case 'Relu':
      case 'Relu6':
      case 'Sigmoid':
      case 'LeakyRelu': {
        const x = input(0);
        return { kind: 'tensor', name: this.activation(x.name, node.op, node.name, node.attributes.alpha), shape: x.shape };
      }
      case 'Pad':
        return this.pad(node, input(0));
      case 'MaxPool':
        return this.maxPool(node, input(0));
      case 'Mean':
        return this.mean(node, input(0));
      case 'ConcatV2':
        return this.concat(node);
      case 'ResizeBilinear':
        return this.resizeBilinear(node, input(0));
      case 'DepthToSpace': {
        const x = input(0);
        const block = node.attributes.block_size as number;
        const [n, h, w, c] = x.shape as [number, number, number, number];
        const name = this.builder.node('DepthToSpace', [x.name], node.name, {
          blocksize: { type: 'int', value: block },
          // DCR is TensorFlow's channel order (ONNX's CRD is PyTorch's PixelShuffle).
          mode: { type: 'string', value: 'DCR' },
        });
        return { kind: 'tensor', name, shape: [n, h * block, w * block, c / (block * block)] };
      }
      case 'Reshape':
        return this.reshape(node, input(0));
      case 'Shape': {
        const shape = this.value(node.inputs[0]!).shape;
        return { kind: 'constant', shape: [shape.length], values: Int32Array.from(shape) };
      }
      case 'StridedSlice':
        return stridedSlice(node, this.constant(node.inputs[0]!), ...node.inputs.slice(1, 4).map((i) => this.constant(i)));
      case 'Pack': {
        const parts = node.inputs.map((i) => this.constant(i));
        if (parts.some((part) => part.shape.length !== 0) || node.attributes.axis !== 0) throw new Error(`${node.name}: only scalars packed on axis 0`);
        return { kind: 'constant', shape: [parts.length], values: Int32Array.from(parts, (part) => part.values[0]!) };
      }
      default:
        throw new Error(`${node.name}: TensorFlow op ${node.op} is not supported`);
    }
  }

  private convolution(node: TfjsGraphNode, depthwise: boolean): Tensor {
    if ((node.attributes.data_format ?? 'NHWC') !== 'NHWC') throw new Error(`${node.name}: only NHWC is supported`);
    const x = this.tensor(node.inputs[0]!);
    const filter = this.constant(node.inputs[1]!);
    const [kh, kw, cin, multiplierOrOut] = filter.shape as [number, number, number, number];
    const [, sh, sw] = (node.attributes.strides as number[] | undefined) ?? [1, 1, 1, 1];
    const [, dh, dw] = (node.attributes.dilations as number[] | undefined) ?? [1, 1, 1, 1];
    const fused = (node.attributes.fused_ops as string[] | undefined) ?? [];
    const [first, activation, ...rest] = fused;
    if ((first !== undefined && first !== 'BiasAdd') || rest.length > 0) throw new Error(`${node.name}: fused ops ${fused.join(', ')} are not supported`);

    const [, h, w] = x.shape as [number, number, number, number];
    const [top, bottom, outH] = tfPadding(node, h, kh, sh!, dh!);
    const [left, right, outW] = tfPadding(node, w, kw, sw!, dw!);
    const outChannels = depthwise ? cin * multiplierOrOut : multiplierOrOut;
    const weights = depthwise ? depthwiseToOihw(filter) : hwioToOihw(filter);
    const inputs = [x.name, this.builder.weight(`${node.name}/filter`, weights.shape, weights.values)];
    if (first === 'BiasAdd') {
      const bias = this.constant(node.inputs[2]!);
      inputs.push(this.builder.weight(`${node.name}/bias`, [outChannels], Float32Array.from(bias.values)));
    }
    const convName = activation === undefined ? node.name : `${node.name}/linear`;
    this.builder.node('Conv', inputs, convName, {
      kernel_shape: { type: 'ints', value: [kh, kw] },
      strides: { type: 'ints', value: [sh!, sw!] },
      dilations: { type: 'ints', value: [dh!, dw!] },
      pads: { type: 'ints', value: [top, left, bottom, right] },
      group: { type: 'int', value: depthwise ? cin : 1 },
    });
    const name = activation === undefined ? convName : this.activation(convName, activation, node.name, node.attributes.leakyrelu_alpha);
    return { kind: 'tensor', name, shape: [1, outH, outW, outChannels] };
  }

  private activation(input: string, op: string, output: string, alpha: unknown): string {
    switch (op) {
      case 'Relu':
      case 'Sigmoid':
        return this.builder.node(op, [input], output);
      case 'Relu6':
        return this.builder.node('Clip', [input, this.builder.scalar(0), this.builder.scalar(6)], output);
      case 'LeakyRelu':
        return this.builder.node('LeakyRelu', [input], output, { alpha: { type: 'float', value: typeof alpha === 'number' ? alpha : 0.2 } });
      default:
        throw new Error(`${output}: activation ${op} is not supported`);
    }
  }

  private binary(node: TfjsGraphNode): Tensor {
    const operands = node.inputs.map((i) => this.value(i));
    const tensors = operands.filter((v): v is Tensor => v.kind === 'tensor');
    if (tensors.length === 0) throw new Error(`${node.name}: both operands are constants`);
    const rank = Math.max(...tensors.map((t) => t.shape.length));
    if (tensors.some((t) => t.shape.length !== rank)) throw new Error(`${node.name}: operands of different ranks`);
    const names = operands.map((operand, i) =>
      operand.kind === 'tensor' ? operand.name : this.broadcastConstant(operand, rank, `${node.name}/operand${i}`),
    );
    const opType = node.op === 'AddV2' ? 'Add' : node.op;
    const shape = tensors.map((t) => t.shape).reduce((a, b) => a.map((size, i) => Math.max(size, b[i]!)));
    return { kind: 'tensor', name: this.builder.node(opType, names, node.name), shape };
  }

  /** A scalar, or a per-channel vector beside a 4-D tensor: TensorFlow broadcasts it over the last axis, NCHW over axis 1. */
  private broadcastConstant(constant: ConstantTensor, rank: number, name: string): string {
    const values = Float32Array.from(constant.values);
    if (values.length === 1) return this.builder.weight(name, [], values);
    if (rank === 4 && constant.shape.length === 1) return this.builder.weight(name, [1, values.length, 1, 1], values);
    throw new Error(`${name}: a constant of shape [${constant.shape.join(', ')}] cannot be broadcast yet`);
  }

  private pad(node: TfjsGraphNode, x: Tensor): Tensor {
    const paddings = this.constant(node.inputs[1]!).values;
    if (x.shape.length !== 4) throw new Error(`${node.name}: only 4-D tensors are padded`);
    const before = [0, 1, 2, 3].map((axis) => paddings[axis * 2]!);
    const after = [0, 1, 2, 3].map((axis) => paddings[axis * 2 + 1]!);
    const nchw = (list: number[]): number[] => [list[0]!, list[3]!, list[1]!, list[2]!];
    const pads = this.builder.int64(`${node.name}/pads`, [...nchw(before), ...nchw(after)]);
    const name = this.builder.node('Pad', [x.name, pads], node.name);
    return { kind: 'tensor', name, shape: x.shape.map((size, axis) => size + before[axis]! + after[axis]!) };
  }

  private maxPool(node: TfjsGraphNode, x: Tensor): Tensor {
    const [, kh, kw] = node.attributes.ksize as number[];
    const [, sh, sw] = node.attributes.strides as number[];
    const [n, h, w, c] = x.shape as [number, number, number, number];
    const [top, bottom, outH] = tfPadding(node, h, kh!, sh!, 1);
    const [left, right, outW] = tfPadding(node, w, kw!, sw!, 1);
    // ONNX's MaxPool ignores padded cells, as TensorFlow's "SAME" pooling does.
    const name = this.builder.node('MaxPool', [x.name], node.name, {
      kernel_shape: { type: 'ints', value: [kh!, kw!] },
      strides: { type: 'ints', value: [sh!, sw!] },
      pads: { type: 'ints', value: [top, left, bottom, right] },
    });
    return { kind: 'tensor', name, shape: [n, outH, outW, c] };
  }

  private mean(node: TfjsGraphNode, x: Tensor): Tensor {
    if (node.attributes.keep_dims !== true || x.shape.length !== 4) throw new Error(`${node.name}: only 4-D means that keep dimensions`);
    const axes = [...this.constant(node.inputs[1]!).values].map((axis) => (axis + 4) % 4);
    const name = this.builder.node('ReduceMean', [x.name], node.name, {
      axes: { type: 'ints', value: axes.map((axis) => NCHW_AXIS[axis]!) },
      keepdims: { type: 'int', value: 1 },
    });
    return { kind: 'tensor', name, shape: x.shape.map((size, axis) => (axes.includes(axis) ? 1 : size)) };
  }

  private concat(node: TfjsGraphNode): Tensor {
    const parts = node.inputs.slice(0, -1).map((i) => this.tensor(i));
    const rank = parts[0]!.shape.length;
    const axis = (this.constant(node.inputs.at(-1)!).values[0]! + rank) % rank;
    const name = this.builder.node('Concat', parts.map((p) => p.name), node.name, {
      axis: { type: 'int', value: rank === 4 ? NCHW_AXIS[axis]! : axis },
    });
    const shape = parts[0]!.shape.map((size, i) => (i === axis ? parts.reduce((sum, p) => sum + p.shape[i]!, 0) : size));
    return { kind: 'tensor', name, shape };
  }

  private resizeBilinear(node: TfjsGraphNode, x: Tensor): Tensor {
    const [outH, outW] = this.constant(node.inputs[1]!).values as unknown as [number, number];
    const [n, h, w, c] = x.shape as [number, number, number, number];
    const scales = this.builder.weight(`${node.name}/scales`, [4], Float32Array.of(1, 1, outH / h, outW / w));
    // tf2onnx's mapping of TensorFlow's two flags onto ONNX's coordinate modes.
    const mode = node.attributes.align_corners ? 'align_corners' : node.attributes.half_pixel_centers ? 'half_pixel' : 'asymmetric';
    const name = this.builder.node('Resize', [x.name, '', scales], node.name, {
      mode: { type: 'string', value: 'linear' },
      coordinate_transformation_mode: { type: 'string', value: mode },
    });
    return { kind: 'tensor', name, shape: [n, outH, outW, c] };
  }

  /** Reshape reads elements in TensorFlow's NHWC order, so a 4-D tensor goes back to NHWC around it. */
  private reshape(node: TfjsGraphNode, x: Tensor): Tensor {
    const requested = [...this.constant(node.inputs[1]!).values];
    const known = requested.reduce((product, size) => (size === -1 ? product : product * size), 1);
    const total = x.shape.reduce((product, size) => product * size, 1);
    const shape = requested.map((size) => (size === -1 ? total / known : size));
    let input = x.name;
    if (x.shape.length === 4) input = this.builder.node('Transpose', [input], `${node.name}/to_nhwc`, { perm: { type: 'ints', value: [0, 2, 3, 1] } });
    let name = this.builder.node('Reshape', [input, this.builder.int64(`${node.name}/shape`, shape)], shape.length === 4 ? `${node.name}/nhwc` : node.name);
    if (shape.length === 4) name = this.builder.node('Transpose', [name], node.name, { perm: { type: 'ints', value: [0, 3, 1, 2] } });
    return { kind: 'tensor', name, shape };
  }
}

/** TensorFlow's "SAME" / "VALID" padding along one axis: [before, after, output size]. */
function tfPadding(node: TfjsGraphNode, size: number, kernel: number, stride: number, dilation: number): [number, number, number] {
  const extent = (kernel - 1) * dilation + 1;
  switch (node.attributes.padding) {
    case 'VALID':
      return [0, 0, Math.floor((size - extent) / stride) + 1];
    case 'SAME':
      return [...samePadding(size, kernel, stride, dilation), Math.ceil(size / stride)];
    default:
      throw new Error(`${node.name}: padding ${String(node.attributes.padding)} is not supported`);
  }
}

/** TensorFlow's StridedSlice of a 1-D constant (shape arithmetic), with begin, end and shrink-axis masks. */
function stridedSlice(node: TfjsGraphNode, input: ConstantTensor, begin?: ConstantTensor, end?: ConstantTensor, strides?: ConstantTensor): Value {
  const mask = (name: string): number => (node.attributes[name] as number | undefined) ?? 0;
  if (input.shape.length !== 1 || mask('ellipsis_mask') || mask('new_axis_mask')) throw new Error(`${node.name}: only plain slices of 1-D constants`);
  const length = input.values.length;
  const clampIndex = (index: number): number => Math.min(Math.max(index < 0 ? index + length : index, 0), length);
  const step = strides?.values[0] ?? 1;
  const from = mask('begin_mask') & 1 ? 0 : clampIndex(begin!.values[0]!);
  if (mask('shrink_axis_mask') & 1) return { kind: 'constant', shape: [], values: Int32Array.of(input.values[from]!) };
  const to = mask('end_mask') & 1 ? length : clampIndex(end!.values[0]!);
  const values: number[] = [];
  for (let i = from; step > 0 ? i < to : i > to; i += step) values.push(input.values[i]!);
  return { kind: 'constant', shape: [values.length], values: Int32Array.from(values) };
}

function toNchw(shape: readonly number[]): number[] {
  return [shape[0]!, shape[3]!, shape[1]!, shape[2]!];
}

/** The shared builder, plus what the outputs and the shape operands need. */
class DetectorGraphBuilder extends OnnxGraphBuilder {
  constructor() {
    super('scalar');
  }

  defines(tensor: string): boolean {
    return tensor === CONVERTED_INPUT_NAME || this.nodes.some((n) => n.outputs.includes(tensor)) || this.initializers.some((i) => i.name === tensor);
  }

  /** Shapes, pads and axes, which ONNX wants as int64. */
  int64(name: string, values: readonly number[]): string {
    return this.weight(name, [values.length], BigInt64Array.from(values, (value) => BigInt(value)));
  }
}
