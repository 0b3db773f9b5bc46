import { CONVERTED_INPUT_NAME, ONNX_IR_VERSION, ONNX_OPSET_VERSION } from './onnx-conventions.js';
import { OnnxGraphBuilder } from './onnx-graph-builder.js';
import { encodeOnnxModel, type OnnxValueInfo } from './onnx-proto.js';
import { samePadding } from './same-padding.js';
import { tensorFloats, type TfliteActivation, type TfliteModel, type TfliteOperator } from './tflite.js';

/**
 * Lowers a TensorFlow Lite model of convolutions (an SSD MobileNet: MediaPipe Objectron's Open Images detector) to
 * ONNX, for exactly the ops listed in TFLITE_SUPPORTED_OPS; any other op is an error that names it.
 *
 * TensorFlow Lite is NHWC throughout; ONNX's Conv is NCHW. Each 4-D activation is kept in whichever layout its
 * producer left it, and changed (one Transpose, shared by every consumer) only where a consumer needs the other:
 * convolutions want NCHW, RESHAPE and the graph's outputs want TensorFlow's own layout. Consecutive convolutions
 * therefore run without a Transpose between them. Weights change layout here, once: CONV_2D's OHWI → OIHW,
 * DEPTHWISE_CONV_2D's [1, H, W, C·M] → [C·M, 1, H, W] with C groups. DEQUANTIZE of float16 constants is folded.
 */

const TFLITE_SUPPORTED_OPS: readonly string[] = ['CONV_2D', 'DEPTHWISE_CONV_2D', 'RESHAPE', 'ADD', 'CONCATENATION', 'DEQUANTIZE'];

export interface TfliteConversionOptions {
  /** ONNX output name → TensorFlow Lite tensor name. Default: the model's outputs under their own names. */
  outputs?: Readonly<Record<string, string>>;
  /**
   * The pixel range the model expects, e.g. [-1, 1]. When given, the ONNX input is the detectors' convention, NCHW
   * [1, channels, height, width] RGB in [0, 1], mapped onto this range inside the graph; without it, the input is
   * the model's own tensor, NHWC in the model's range.
   */
  inputRange?: readonly [number, number];
}

type Layout = 'nhwc' | 'nchw';

/** A tensor computed at run time: its ONNX name per layout it exists in, and its TensorFlow Lite (NHWC) shape. */
interface Activation {
  shape: readonly number[];
  names: Partial<Record<Layout, string>>;
}

/** NHWC axis → NCHW axis. */
const NCHW_AXIS = [0, 2, 3, 1] as const;

/** Lists the ops of the model that this lowering does not know, with their counts. */
export function unsupportedTfliteOps(model: TfliteModel): Record<string, number> {
  const missing: Record<string, number> = {};
  for (const { op } of model.operators) if (!TFLITE_SUPPORTED_OPS.includes(op)) missing[op] = (missing[op] ?? 0) + 1;
  return missing;
}

export function tfliteToOnnx(model: TfliteModel, options: TfliteConversionOptions = {}): Uint8Array {
  const missing = unsupportedTfliteOps(model);
  if (Object.keys(missing).length > 0) throw new Error(`unsupported TensorFlow Lite ops: ${JSON.stringify(missing)}`);
  if (model.inputs.length !== 1) throw new Error(`expected one input, found ${model.inputs.length}`);
  const lowering = new Lowering(model);

  const inputTensor = model.tensors[model.inputs[0]!]!;
  if (inputTensor.type !== 'float32') throw new Error(`the input is ${inputTensor.type}, not float32`);
  const inputShape = inputTensor.shape;
  let onnxInputShape: readonly number[] = inputShape;
  if (options.inputRange) {
    if (inputShape.length !== 4) throw new Error('inputRange needs an NHWC image input');
    const [low, high] = options.inputRange;
    onnxInputShape = [inputShape[0]!, inputShape[3]!, inputShape[1]!, inputShape[2]!];
    const scaled = lowering.builder.node('Mul', [CONVERTED_INPUT_NAME, lowering.builder.scalar(high - low)], 'input/scaled');
    const shifted = lowering.builder.node('Add', [scaled, lowering.builder.scalar(low)], 'input/shifted');
    lowering.define(model.inputs[0]!, { shape: inputShape, names: { nchw: shifted } });
  } else {
    lowering.define(model.inputs[0]!, { shape: inputShape, names: { nhwc: CONVERTED_INPUT_NAME } });
  }

  for (const [index, operator] of model.operators.entries()) lowering.lower(operator, index);

  const wanted = options.outputs ?? Object.fromEntries(model.outputs.map((i) => [model.tensors[i]!.name, model.tensors[i]!.name]));
  const outputs: OnnxValueInfo[] = [];
  for (const [onnxName, tfliteName] of Object.entries(wanted)) {
    const index = model.tensors.findIndex((tensor) => tensor.name === tfliteName);
    if (index < 0) throw new Error(`the model has no tensor ${tfliteName}`);
    const value = lowering.activation(index);
    lowering.builder.nodes.push({ opType: 'Identity', name: `output/${onnxName}`, inputs: [lowering.inLayout(value, 'nhwc')], outputs: [onnxName] });
    outputs.push({ name: onnxName, shape: value.shape });
  }

  return encodeOnnxModel({
    irVersion: ONNX_IR_VERSION,
    opsetVersion: ONNX_OPSET_VERSION,
    producerName: 'roomcraft tflite converter',
    graph: {
      name: 'tflite',
      nodes: lowering.builder.nodes,
      initializers: lowering.builder.initializers,
      inputs: [{ name: CONVERTED_INPUT_NAME, shape: onnxInputShape }],
      outputs,
    },
  });
}

class Lowering {
  readonly builder = new OnnxGraphBuilder();
  private readonly activations = new Map<number, Activation>();
  /** Folded constants (DEQUANTIZE outputs), as float32. */
  private readonly folded = new Map<number, Float32Array>();
  private counter = 0;

  constructor(private readonly model: TfliteModel) {}

  define(index: number, activation: Activation): void {
    this.activations.set(index, activation);
  }

  activation(index: number): Activation {
    const value = this.activations.get(index);
    if (!value) throw new Error(`tensor ${this.nameOf(index)} is used before it is computed (or is a constant)`);
    return value;
  }

  /** The ONNX name of `value` in `layout`; a 4-D tensor is transposed once, on first demand. */
  inLayout(value: Activation, layout: Layout): string {
    const existing = value.names[layout];
    if (existing !== undefined) return existing;
    const [other] = Object.values(value.names);
    if (value.shape.length !== 4) {
      // Only 4-D tensors ever take the NCHW layout.
      return other!;
    }
    const perm = layout === 'nchw' ? [0, 3, 1, 2] : [0, 2, 3, 1];
    const name = this.builder.node('Transpose', [other!], `${other}/${layout}`, { perm: { type: 'ints', value: perm } });
    value.names[layout] = name;
    return name;
  }

  /** Numbered, as a convolution's filter and bias are both named after its output. */
  private weight(base: string, dims: readonly number[], values: Float32Array | BigInt64Array): string {
    return this.builder.weight(`${base}/__w${this.counter++}`, dims, values);
  }

  private nameOf(index: number): string {
    return this.model.tensors[index]?.name ?? `#${index}`;
  }

  /** A constant's values: a float32 or float16 buffer, or a folded DEQUANTIZE. */
  private constant(index: number): Float32Array {
    const folded = this.folded.get(index);
    if (folded) return folded;
    const tensor = this.model.tensors[index];
    if (!tensor?.data) throw new Error(`tensor ${this.nameOf(index)} must be a constant`);
    return tensorFloats(tensor);
  }

  private isConstant(index: number): boolean {
    return this.folded.has(index) || this.model.tensors[index]?.data !== undefined;
  }

  lower(operator: TfliteOperator, position: number): void {
    const [outputIndex] = operator.outputs;
    if (operator.outputs.length !== 1 || outputIndex === undefined) throw new Error(`${operator.op} #${position}: expected one output`);
    const output = this.model.tensors[outputIndex]!;
    // Prefixed, so that an output may take a TensorFlow Lite tensor's own name.
    const name = `tfl/${output.name || position}`;
    const shape = output.shape;
    switch (operator.op) {
      case 'DEQUANTIZE': {
        const input = this.model.tensors[operator.inputs[0]!]!;
        if (input.type !== 'float16' || !input.data) throw new Error(`DEQUANTIZE #${position}: only float16 constants are supported (got ${input.type})`);
        this.folded.set(outputIndex, tensorFloats(input));
        return;
      }
      case 'CONV_2D':
      case 'DEPTHWISE_CONV_2D':
        this.define(outputIndex, { shape, names: { nchw: this.convolution(operator, name) } });
        return;
      case 'ADD': {
        if (operator.options.kind !== 'add') throw new Error(`ADD #${position}: missing options`);
        const [a, b] = operator.inputs.map((i) => this.operand(i, shape));
        const layout: Layout = a!.layout === 'nchw' && b!.layout === 'nchw' ? 'nchw' : 'nhwc';
        const sum = this.builder.node('Add', [this.operandIn(a!, layout), this.operandIn(b!, layout)], `${name}/add`);
        this.define(outputIndex, { shape, names: { [layout]: this.activate(sum, operator.options.activation, name) } });
        return;
      }
      case 'CONCATENATION': {
        if (operator.options.kind !== 'concatenation') throw new Error(`CONCATENATION #${position}: missing options`);
        const inputs = operator.inputs.map((i) => this.activation(i));
        const rank = shape.length;
        const axis = operator.options.axis < 0 ? operator.options.axis + rank : operator.options.axis;
        const layout: Layout = rank === 4 && inputs.every((v) => v.names.nchw !== undefined) ? 'nchw' : 'nhwc';
        const onnxAxis = layout === 'nchw' ? NCHW_AXIS[axis as 0 | 1 | 2 | 3] : axis;
        const joined = this.builder.node('Concat', inputs.map((v) => this.inLayout(v, layout)), `${name}/concat`, { axis: { type: 'int', value: onnxAxis } });
        this.define(outputIndex, { shape, names: { [layout]: this.activate(joined, operator.options.activation, name) } });
        return;
      }
      case 'RESHAPE': {
        const input = this.activation(operator.inputs[0]!);
        if (shape.some((size) => size < 0)) throw new Error(`RESHAPE #${position}: the output shape must be static`);
        const target = this.weight(name, [shape.length], BigInt64Array.from(shape.map((size) => BigInt(size))));
        this.define(outputIndex, { shape, names: { nhwc: this.builder.node('Reshape', [this.inLayout(input, 'nhwc'), target], name) } });
        return;
      }
      default:
        throw new Error(`unsupported TensorFlow Lite op ${operator.op}`);
    }
  }

  /** An ADD operand: an activation in the layout it has, or a constant (always NHWC, broadcast as TensorFlow does). */
  private operand(index: number, outputShape: readonly number[]): { layout: Layout; value: Activation | string } {
    if (!this.isConstant(index)) {
      const value = this.activation(index);
      return { layout: value.names.nchw !== undefined && outputShape.length === 4 ? 'nchw' : 'nhwc', value };
    }
    const tensor = this.model.tensors[index]!;
    return { layout: 'nhwc', value: this.weight(tensor.name, tensor.shape, this.constant(index)) };
  }

  private operandIn(operand: { value: Activation | string }, layout: Layout): string {
    return typeof operand.value === 'string' ? operand.value : this.inLayout(operand.value, layout);
  }

  /** CONV_2D or DEPTHWISE_CONV_2D as an ONNX Conv over NCHW, with the fused activation; returns the NCHW output. */
  private convolution(operator: TfliteOperator, name: string): string {
    const { options } = operator;
    if (options.kind !== 'conv2d' && options.kind !== 'depthwise-conv2d') throw new Error(`${operator.op} ${name}: missing options`);
    const [inputIndex, filterIndex, biasIndex] = operator.inputs;
    const input = this.activation(inputIndex!);
    if (input.shape.length !== 4) throw new Error(`${operator.op} ${name}: the input must be 4-D`);
    const filterShape = this.model.tensors[filterIndex!]!.shape;
    const filter = this.constant(filterIndex!);
    const [, inputHeight, inputWidth, inputChannels] = input.shape as [number, number, number, number];

    let weights: Float32Array;
    let weightDims: number[];
    let group = 1;
    if (options.kind === 'conv2d') {
      const [o, kh, kw, i] = filterShape as [number, number, number, number];
      if (i !== inputChannels) throw new Error(`CONV_2D ${name}: a filter of ${i} input channels for ${inputChannels}`);
      weights = ohwiToOihw(filter, o, kh, kw, i);
      weightDims = [o, i, kh, kw];
    } else {
      const [one, kh, kw, channels] = filterShape as [number, number, number, number];
      if (one !== 1 || channels !== inputChannels * options.depthMultiplier) {
        throw new Error(`DEPTHWISE_CONV_2D ${name}: filter [${filterShape.join(', ')}] does not fit ${inputChannels} channels × ${options.depthMultiplier}`);
      }
      // Output channel c·M + m reads input channel c: ONNX's grouped Conv with C groups of M outputs each.
      weights = hwoToOhw(filter, kh, kw, channels);
      weightDims = [channels, 1, kh, kw];
      group = inputChannels;
    }
    const [, kh, kw] = filterShape as [number, number, number, number];
    const same = options.padding === 'same';
    const pads = [
      ...(same ? samePadding(inputHeight, kh, options.strideH, options.dilationH) : [0, 0]),
      ...(same ? samePadding(inputWidth, kw, options.strideW, options.dilationW) : [0, 0]),
    ];
    const inputs = [this.inLayout(input, 'nchw'), this.weight(name, weightDims, weights)];
    if (biasIndex !== undefined && biasIndex >= 0) inputs.push(this.weight(name, [weightDims[0]!], this.constant(biasIndex)));
    const conv = this.builder.node('Conv', inputs, `${name}/conv`, {
      kernel_shape: { type: 'ints', value: [kh, kw] },
      strides: { type: 'ints', value: [options.strideH, options.strideW] },
      dilations: { type: 'ints', value: [options.dilationH, options.dilationW] },
      // [top, bottom, left, right] → ONNX's [top, left, bottom, right].
      pads: { type: 'ints', value: [pads[0]!, pads[2]!, pads[1]!, pads[3]!] },
      group: { type: 'int', value: group },
    });
    return this.activate(conv, options.activation, name);
  }

  private activate(tensor: string, activation: TfliteActivation, name: string): string {
    switch (activation) {
      case 'none':
        return tensor;
      case 'relu':
        return this.builder.node('Relu', [tensor], name);
      case 'relu6':
        return this.builder.node('Clip', [tensor, this.builder.scalar(0), this.builder.scalar(6)], name);
      case 'relu-n1-to-1':
        return this.builder.node('Clip', [tensor, this.builder.scalar(-1), this.builder.scalar(1)], name);
      case 'tanh':
        return this.builder.node('Tanh', [tensor], name);
      default:
        throw new Error(`${name}: unsupported fused activation ${activation}`);
    }
  }
}

function ohwiToOihw(filter: Float32Array, o: number, kh: number, kw: number, i: number): Float32Array {
  const out = new Float32Array(filter.length);
  for (let a = 0; a < o; a++) {
    for (let y = 0; y < kh; y++) {
      for (let x = 0; x < kw; x++) {
        for (let c = 0; c < i; c++) out[((a * i + c) * kh + y) * kw + x] = filter[((a * kh + y) * kw + x) * i + c]!;
      }
    }
  }
  return out;
}

function hwoToOhw(filter: Float32Array, kh: number, kw: number, channels: number): Float32Array {
  const out = new Float32Array(filter.length);
  for (let y = 0; y < kh; y++) {
    for (let x = 0; x < kw; x++) {
      for (let c = 0; c < channels; c++) out[(c * kh + y) * kw + x] = filter[(y * kw + x) * channels + c]!;
    }
  }
  return out;
}
