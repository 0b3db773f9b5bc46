import { CONVERTED_INPUT_NAME, ONNX_IR_VERSION, ONNX_OPSET_VERSION } from './onnx-conventions.js';
import { OnnxGraphBuilder } from './onnx-graph-builder.js';
import { encodeOnnxModel, ONNX_TENSOR_TYPE, type OnnxAttribute } from './onnx-proto.js';
import type { ConstantTensor, TfjsGraph, TfjsGraphNode } from './tfjs-graph.js';

/**
 * A second lowering of TensorFlow graph models to ONNX, for graphs that tfjs-graph-to-onnx.ts cannot take: graphs
 * exported from JAX with jax2tf (MAXIM), full of Einsum, Transpose, Reshape and BroadcastTo over tensors of any
 * rank, with the input size flowing through hundreds of shape computations.
 *
 * Where tfjs-graph-to-onnx.ts keeps every 4-D tensor NCHW and evaluates shape arithmetic itself, this one keeps
 * TensorFlow's layout (NHWC) everywhere and translates op by op, shape arithmetic included, as ONNX ops over int32
 * tensors. Only Conv2D and Conv2DBackpropInput change layout, with a Transpose either side (onnxruntime's transpose
 * optimiser cancels the pairs between consecutive convolutions), and weights are transposed by Transpose nodes that
 * onnxruntime folds when the session opens. With a fixed input size onnxruntime folds the shape arithmetic too.
 *
 * The ONNX model's input (CONVERTED_INPUT_NAME) is float32 NHWC [1, height, width, channels], in the model's own
 * range; its outputs' shapes are left open, as this lowering does not track shapes.
 */

export interface TfjsGraphNhwcConversionOptions {
  /** ONNX output name → TensorFlow node name. */
  outputs: Readonly<Record<string, string>>;
  /** A fixed [height, width] lets onnxruntime fold all shape arithmetic; without it the model takes any size. */
  inputSize?: readonly [number, number];
  /**
   * The input's full shape, for graphs whose Placeholder is not NHWC RGB (NanoDet's, exported through onnx-tf, is
   * NCHW [1, 3, 416, 416] with its own Transposes around each op). Overrides `inputSize`.
   */
  inputShape?: readonly number[];
}

/** The TensorFlow ops this lowering knows; any other op in the part of the graph converted is an error. */
export const NHWC_SUPPORTED_OPS: readonly string[] = [
  'Const', 'Placeholder', 'Identity', 'Conv2D', 'Conv2DBackpropInput', 'AddV2', 'Add', 'Sub', 'Mul', 'RealDiv',
  'Maximum', 'Minimum', 'FloorDiv', 'FloorMod', 'Greater', 'GreaterEqual', 'Less', 'LessEqual', 'Equal', 'NotEqual',
  'LogicalAnd', 'Square', 'Rsqrt', 'Reciprocal', 'Sign', 'Abs', 'Neg', 'Exp', 'Tanh', 'Floor', 'Cast', 'Shape',
  'StridedSlice', 'Pack', 'ConcatV2', 'Sum', 'Range', 'ExpandDims', 'BroadcastTo', 'Reshape', 'Transpose', 'Einsum',
  'SelectV2', 'Select', 'GatherV2', 'Squeeze',
  // For graphs exported from PyTorch through ONNX and onnx-tf (NanoDet):
  'Pad', 'PadV2', 'Relu', 'LeakyRelu', 'Sigmoid', 'MaxPool', 'ResizeBilinear', 'SplitV', 'SparseToDense',
];

type OnnxType = keyof typeof ONNX_TENSOR_TYPE;
const TF_TYPE: Record<string, OnnxType> = { DT_FLOAT: 'float', DT_INT32: 'int32', DT_INT64: 'int64', DT_BOOL: 'bool' };

/** A lowered TensorFlow output: the ONNX tensor name, and the values when the TensorFlow node was a Const. */
interface Value {
  name: string;
  constant?: ConstantTensor;
}

/** Lists the ops of the graph (reachable from `outputs`) that this lowering does not know, with their counts. */
export function unsupportedNhwcOps(graph: TfjsGraph, outputs: readonly string[]): Record<string, number> {
  const missing: Record<string, number> = {};
  for (const node of reachable(graph, outputs)) {
    if (!NHWC_SUPPORTED_OPS.includes(node.op)) missing[node.op] = (missing[node.op] ?? 0) + 1;
  }
  return missing;
}

export function tfjsGraphModelToOnnxNhwc(graph: TfjsGraph, options: TfjsGraphNhwcConversionOptions): Uint8Array {
  const lowering = new NhwcLowering(graph, options);
  const order = reachable(graph, Object.values(options.outputs));
  const missing = unsupportedNhwcOps(graph, Object.values(options.outputs));
  if (Object.keys(missing).length > 0) throw new Error(`unsupported TensorFlow ops: ${JSON.stringify(missing)}`);
  for (const node of order) lowering.lowerNode(node);
  for (const [onnxName, tfName] of Object.entries(options.outputs)) lowering.builder.node('Identity', [lowering.ref(tfName).name], onnxName);
  return encodeOnnxModel({
    irVersion: ONNX_IR_VERSION,
    opsetVersion: ONNX_OPSET_VERSION,
    producerName: 'roomcraft tfjs-graph NHWC converter',
    graph: {
      name: 'nhwc',
      // Numbers, not the output names: MAXIM's are long, and would add 4 MB (5 %) to the file.
      nodes: lowering.builder.nodes.map((node, i) => ({ ...node, name: `n${i}` })),
      initializers: lowering.builder.initializers,
      inputs: [{ name: CONVERTED_INPUT_NAME, shape: lowering.inputShape }],
      outputs: Object.keys(options.outputs).map((name) => ({ name })),
    },
  });
}

/** Nodes needed for `outputs`, producers before consumers, found without recursion (MAXIM chains are deep). */
function reachable(graph: TfjsGraph, outputs: readonly string[]): TfjsGraphNode[] {
  const order: TfjsGraphNode[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: { node: TfjsGraphNode; next: number }[] = [];
  const push = (reference: string): void => {
    const name = reference.split(':')[0]!;
    if (state.has(name)) return;
    const node = graph.nodes.get(name);
    if (!node) throw new Error(`the graph has no node ${name}`);
    state.set(name, 'open');
    stack.push({ node, next: 0 });
  };
  for (const output of outputs) {
    push(output);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.next < top.node.inputs.length) {
        push(top.node.inputs[top.next++]!);
      } else {
        stack.pop();
        state.set(top.node.name, 'done');
        order.push(top.node);
      }
    }
  }
  return order;
}

class NhwcLowering {
  readonly builder = new OnnxGraphBuilder();
  private readonly values = new Map<string, Value>();
  private counter = 0;

  constructor(
    private readonly graph: TfjsGraph,
    private readonly options: TfjsGraphNhwcConversionOptions,
  ) {}

  ref(reference: string): Value {
    const [name, index] = reference.split(':');
    if (index !== undefined && index !== '0') {
      // Further outputs exist for SplitV only, stored under `name:index`.
      const further = this.values.get(reference);
      if (!further) throw new Error(`${reference}: only the first output of a node can be used`);
      return further;
    }
    const value = this.values.get(name!);
    if (!value) throw new Error(`${name} used before it was lowered`);
    return value;
  }

  private constant(reference: string): ConstantTensor {
    const value = this.ref(reference);
    if (!value.constant) throw new Error(`${reference} must be a constant`);
    return value.constant;
  }

  private fresh(base: string, suffix: string): string {
    return `${base}/__${suffix}_${this.counter++}`;
  }

  private int64(base: string, values: readonly number[], dims: readonly number[] = [values.length]): string {
    return this.builder.weight(this.fresh(base, 'i64'), dims, BigInt64Array.from(values, (value) => BigInt(value)));
  }

  /** A shape-like int32 tensor as the 1-D int64 tensor ONNX wants for shapes, axes and slice bounds. */
  private asInt64Vector(base: string, reference: string): string {
    const value = this.ref(reference);
    if (value.constant) {
      return this.int64(base, Array.from(value.constant.values), [value.constant.values.length]);
    }
    const cast = this.builder.node('Cast', [value.name], this.fresh(base, 'cast'), { to: { type: 'int', value: ONNX_TENSOR_TYPE.int64 } });
    return this.builder.node('Reshape', [cast, this.int64(base, [-1])], this.fresh(base, 'vec'));
  }

  lowerNode(node: TfjsGraphNode): void {
    const value = this.lower(node);
    this.values.set(node.name, value);
  }

  private lower(node: TfjsGraphNode): Value {
    const name = node.name;
    const inputName = (i: number): string => this.ref(node.inputs[i]!).name;
    const unary = (opType: string): Value => ({ name: this.builder.node(opType, [inputName(0)], name) });
    const binary = (opType: string): Value => ({ name: this.builder.node(opType, [inputName(0), inputName(1)], name) });
    const type = (key: string): OnnxType => {
      const tf = node.attributes[key];
      const onnx = TF_TYPE[String(tf)];
      if (!onnx) throw new Error(`${name}: type ${String(tf)} is not supported`);
      return onnx;
    };
    switch (node.op) {
      case 'Const': {
        const constant = this.graph.constants.get(name);
        if (!constant) throw new Error(`constant ${name} has no weights`);
        return { name: this.builder.weight(name, constant.shape, constant.values), constant };
      }
      case 'Placeholder':
        return { name: this.builder.node('Identity', [CONVERTED_INPUT_NAME], name) };
      case 'Identity':
        return this.ref(node.inputs[0]!);
      case 'Conv2D':
        return { name: this.convolution(node, false) };
      case 'Conv2DBackpropInput':
        return { name: this.convolution(node, true) };
      case 'Add':
      case 'AddV2':
        return binary('Add');
      case 'Sub':
        return binary('Sub');
      case 'Mul':
        return binary('Mul');
      case 'RealDiv':
        return binary('Div');
      case 'Maximum':
        return binary('Max');
      case 'Minimum':
        return binary('Min');
      case 'Greater':
        return binary('Greater');
      case 'GreaterEqual':
        return binary('GreaterOrEqual');
      case 'Less':
        return binary('Less');
      case 'LessEqual':
        return binary('LessOrEqual');
      case 'Equal':
        return binary('Equal');
      case 'LogicalAnd':
        return binary('And');
      case 'NotEqual': {
        const equal = this.builder.node('Equal', [inputName(0), inputName(1)], this.fresh(name, 'eq'));
        return { name: this.builder.node('Not', [equal], name) };
      }
      case 'FloorDiv': {
        if (type('T') === 'float') {
          const quotient = this.builder.node('Div', [inputName(0), inputName(1)], this.fresh(name, 'div'));
          return { name: this.builder.node('Floor', [quotient], name) };
        }
        // Integer floor division, exact for the small sizes of shape arithmetic: through float32.
        const toFloat = { to: { type: 'int' as const, value: ONNX_TENSOR_TYPE.float } };
        const a = this.builder.node('Cast', [inputName(0)], this.fresh(name, 'a'), toFloat);
        const b = this.builder.node('Cast', [inputName(1)], this.fresh(name, 'b'), toFloat);
        const floor = this.builder.node('Floor', [this.builder.node('Div', [a, b], this.fresh(name, 'div'))], this.fresh(name, 'floor'));
        return { name: this.builder.node('Cast', [floor], name, { to: { type: 'int', value: ONNX_TENSOR_TYPE[type('T')] } }) };
      }
      case 'FloorMod': {
        if (type('T') !== 'float') return { name: this.builder.node('Mod', [inputName(0), inputName(1)], name, { fmod: { type: 'int', value: 0 } }) };
        const quotient = this.builder.node('Floor', [this.builder.node('Div', [inputName(0), inputName(1)], this.fresh(name, 'div'))], this.fresh(name, 'fl'));
        const product = this.builder.node('Mul', [quotient, inputName(1)], this.fresh(name, 'mul'));
        return { name: this.builder.node('Sub', [inputName(0), product], name) };
      }
      case 'Square':
        return { name: this.builder.node('Mul', [inputName(0), inputName(0)], name) };
      case 'Rsqrt':
        return { name: this.builder.node('Reciprocal', [this.builder.node('Sqrt', [inputName(0)], this.fresh(name, 'sqrt'))], name) };
      case 'Reciprocal':
      case 'Sign':
      case 'Abs':
      case 'Neg':
      case 'Exp':
      case 'Tanh':
      case 'Floor':
        return unary(node.op);
      case 'Cast':
        return { name: this.builder.node('Cast', [inputName(0)], name, { to: { type: 'int', value: ONNX_TENSOR_TYPE[type('DstT')] } }) };
      case 'Shape': {
        const shape = this.builder.node('Shape', [inputName(0)], this.fresh(name, 'shape'));
        return { name: this.builder.node('Cast', [shape], name, { to: { type: 'int', value: ONNX_TENSOR_TYPE[type('out_type')] } }) };
      }
      case 'StridedSlice':
        return { name: this.stridedSlice(node) };
      case 'Pack': {
        const axis = Number(node.attributes.axis ?? 0);
        const axes = this.int64(name, [axis]);
        const parts = node.inputs.map((_, i) => this.builder.node('Unsqueeze', [inputName(i), axes], this.fresh(name, 'unsq')));
        return { name: this.builder.node('Concat', parts, name, { axis: { type: 'int', value: axis } }) };
      }
      case 'ConcatV2': {
        const axis = Number(this.constant(node.inputs[node.inputs.length - 1]!).values[0]);
        const parts = node.inputs.slice(0, -1).map((_, i) => inputName(i));
        return { name: this.builder.node('Concat', parts, name, { axis: { type: 'int', value: axis } }) };
      }
      case 'Sum': {
        const axes = this.asInt64Vector(name, node.inputs[1]!);
        const keepdims = node.attributes.keep_dims === true ? 1 : 0;
        return { name: this.builder.node('ReduceSum', [inputName(0), axes], name, { keepdims: { type: 'int', value: keepdims } }) };
      }
      case 'Range':
        return { name: this.builder.node('Range', [inputName(0), inputName(1), inputName(2)], name) };
      case 'ExpandDims':
        return { name: this.builder.node('Unsqueeze', [inputName(0), this.asInt64Vector(name, node.inputs[1]!)], name) };
      case 'Squeeze': {
        const dims = (node.attributes.squeeze_dims ?? node.attributes.axis ?? []) as number[];
        const inputs = dims.length > 0 ? [inputName(0), this.int64(name, dims)] : [inputName(0)];
        return { name: this.builder.node('Squeeze', inputs, name) };
      }
      case 'BroadcastTo':
        return { name: this.builder.node('Expand', [inputName(0), this.asInt64Vector(name, node.inputs[1]!)], name) };
      case 'Reshape':
        return { name: this.builder.node('Reshape', [inputName(0), this.asInt64Vector(name, node.inputs[1]!)], name) };
      case 'Transpose': {
        const perm = Array.from(this.constant(node.inputs[1]!).values);
        return { name: this.builder.node('Transpose', [inputName(0)], name, { perm: { type: 'ints', value: perm } }) };
      }
      case 'Einsum': {
        const equation = String(node.attributes.equation);
        return { name: this.builder.node('Einsum', node.inputs.map((_, i) => inputName(i)), name, { equation: { type: 'string', value: equation } }) };
      }
      case 'Select':
      case 'SelectV2':
        return { name: this.builder.node('Where', [inputName(0), inputName(1), inputName(2)], name) };
      case 'Relu':
      case 'Sigmoid':
        return unary(node.op);
      case 'LeakyRelu': {
        const alpha = typeof node.attributes.alpha === 'number' ? node.attributes.alpha : 0.2;
        return { name: this.builder.node('LeakyRelu', [inputName(0)], name, { alpha: { type: 'float', value: alpha } }) };
      }
      case 'Pad':
      case 'PadV2': {
        const paddings = Array.from(this.constant(node.inputs[1]!).values);
        const rank = paddings.length / 2;
        const pads = this.int64(name, [...Array.from({ length: rank }, (_, axis) => paddings[axis * 2]!), ...Array.from({ length: rank }, (_, axis) => paddings[axis * 2 + 1]!)]);
        const inputs = [inputName(0), pads];
        if (node.op === 'PadV2') inputs.push(inputName(2));
        return { name: this.builder.node('Pad', inputs, name) };
      }
      case 'MaxPool':
        return { name: this.maxPool(node) };
      case 'ResizeBilinear':
        return { name: this.resizeBilinear(node) };
      case 'SplitV':
        return this.splitV(node);
      case 'SparseToDense':
        return this.sparseToDense(node);
      case 'GatherV2': {
        if (Number(node.attributes.batch_dims ?? 0) !== 0) throw new Error(`${name}: batch_dims is not supported`);
        const axis = Number(this.constant(node.inputs[2]!).values[0]);
        return { name: this.builder.node('Gather', [inputName(0), inputName(1)], name, { axis: { type: 'int', value: axis } }) };
      }
      default:
        throw new Error(`${name}: TensorFlow op ${node.op} is not supported`);
    }
  }

  /** NHWC in and out; the filter's layout is changed by a Transpose node that onnxruntime folds. */
  private convolution(node: TfjsGraphNode, transposed: boolean): string {
    const name = node.name;
    const format = String(node.attributes.data_format ?? 'NHWC');
    if (format !== 'NHWC') throw new Error(`${name}: data_format ${format} is not supported`);
    const strides = (node.attributes.strides as number[] | undefined) ?? [1, 1, 1, 1];
    const dilations = (node.attributes.dilations as number[] | undefined) ?? [1, 1, 1, 1];
    const padding = String(node.attributes.padding);
    if (padding !== 'SAME' && padding !== 'VALID') throw new Error(`${name}: padding ${padding} is not supported`);
    const [inputRef, filterRef] = transposed ? [node.inputs[2]!, node.inputs[1]!] : [node.inputs[0]!, node.inputs[1]!];
    const x = this.builder.node('Transpose', [this.ref(inputRef).name], this.fresh(name, 'nchw'), { perm: { type: 'ints', value: [0, 3, 1, 2] } });
    // Conv2D filter HWIO → OIHW; Conv2DBackpropInput filter [h, w, out, in] → ConvTranspose's [in, out, h, w].
    const w = this.builder.node('Transpose', [this.ref(filterRef).name], this.fresh(name, 'w'), { perm: { type: 'ints', value: [3, 2, 0, 1] } });
    const attributes: Record<string, OnnxAttribute> = {
      strides: { type: 'ints', value: [strides[1]!, strides[2]!] },
      dilations: { type: 'ints', value: [dilations[1]!, dilations[2]!] },
      auto_pad: { type: 'string', value: padding === 'SAME' ? 'SAME_UPPER' : 'VALID' },
    };
    const y = this.builder.node(transposed ? 'ConvTranspose' : 'Conv', [x, w], this.fresh(name, 'conv'), attributes);
    return this.builder.node('Transpose', [y], name, { perm: { type: 'ints', value: [0, 2, 3, 1] } });
  }

  /** NHWC max pooling, through NCHW as for convolutions; ONNX's SAME padding ignores padded cells as TensorFlow's does. */
  private maxPool(node: TfjsGraphNode): string {
    const name = node.name;
    const format = String(node.attributes.data_format ?? 'NHWC');
    if (format !== 'NHWC') throw new Error(`${name}: data_format ${format} is not supported`);
    const padding = String(node.attributes.padding);
    if (padding !== 'SAME' && padding !== 'VALID') throw new Error(`${name}: padding ${padding} is not supported`);
    const [, kh, kw] = node.attributes.ksize as number[];
    const [, sh, sw] = node.attributes.strides as number[];
    const x = this.builder.node('Transpose', [this.ref(node.inputs[0]!).name], this.fresh(name, 'nchw'), { perm: { type: 'ints', value: [0, 3, 1, 2] } });
    const y = this.builder.node('MaxPool', [x], this.fresh(name, 'pool'), {
      kernel_shape: { type: 'ints', value: [kh!, kw!] },
      strides: { type: 'ints', value: [sh!, sw!] },
      auto_pad: { type: 'string', value: padding === 'SAME' ? 'SAME_UPPER' : 'VALID' },
    });
    return this.builder.node('Transpose', [y], name, { perm: { type: 'ints', value: [0, 2, 3, 1] } });
  }

  /** NHWC bilinear resize to the [height, width] of the second input; the NCHW sizes are [N, C] of the input and those. */
  private resizeBilinear(node: TfjsGraphNode): string {
    const name = node.name;
    const mode = node.attributes.align_corners ? 'align_corners' : node.attributes.half_pixel_centers ? 'half_pixel' : 'asymmetric';
    const x = this.builder.node('Transpose', [this.ref(node.inputs[0]!).name], this.fresh(name, 'nchw'), { perm: { type: 'ints', value: [0, 3, 1, 2] } });
    const batchAndChannels = this.builder.node('Slice', [this.builder.node('Shape', [x], this.fresh(name, 'shape')), this.int64(name, [0]), this.int64(name, [2])], this.fresh(name, 'nc'));
    const sizes = this.builder.node('Concat', [batchAndChannels, this.asInt64Vector(name, node.inputs[1]!)], this.fresh(name, 'sizes'), { axis: { type: 'int', value: 0 } });
    const y = this.builder.node('Resize', [x, '', '', sizes], this.fresh(name, 'resize'), {
      mode: { type: 'string', value: 'linear' },
      coordinate_transformation_mode: { type: 'string', value: mode },
    });
    return this.builder.node('Transpose', [y], name, { perm: { type: 'ints', value: [0, 2, 3, 1] } });
  }

  /** SplitV with known sizes, as one Slice per part; part i > 0 is stored as `name:i` for ref. */
  private splitV(node: TfjsGraphNode): Value {
    const name = node.name;
    const sizes = Array.from(this.constant(node.inputs[1]!).values);
    const axis = Number(this.constant(node.inputs[2]!).values[0]);
    if (sizes.some((size) => size < 0)) throw new Error(`${name}: split sizes must be known`);
    const input = this.ref(node.inputs[0]!).name;
    let start = 0;
    let first: Value | undefined;
    sizes.forEach((size, i) => {
      const part = i === 0 ? name : `${name}:${i}`;
      const output = this.builder.node('Slice', [input, this.int64(name, [start]), this.int64(name, [start + size]), this.int64(name, [axis])], part);
      start += size;
      if (i === 0) first = { name: output };
      else this.values.set(part, { name: output });
    });
    return first!;
  }

  /** SparseToDense of constants (onnx-tf's way of filling in Reshape's 0 sizes), evaluated here: 1-D outputs only. */
  private sparseToDense(node: TfjsGraphNode): Value {
    const name = node.name;
    const [indices, outputShape, values, fill] = node.inputs.map((input) => this.constant(input));
    if (outputShape!.values.length !== 1) throw new Error(`${name}: only 1-D outputs are supported`);
    const length = outputShape!.values[0]!;
    const isInt = values!.values instanceof Int32Array;
    const dense = isInt ? new Int32Array(length) : new Float32Array(length);
    dense.fill(fill!.values[0]!);
    for (let i = 0; i < indices!.values.length; i++) dense[indices!.values[i]!] = values!.values.length === 1 ? values!.values[0]! : values!.values[i]!;
    return { name: this.builder.weight(name, [length], dense), constant: { shape: [length], values: dense } };
  }

  private stridedSlice(node: TfjsGraphNode): string {
    const name = node.name;
    const mask = (key: string): number => Number(node.attributes[key] ?? 0);
    if (mask('ellipsis_mask') !== 0 || mask('new_axis_mask') !== 0) throw new Error(`${name}: ellipsis and new-axis masks are not supported`);
    const beginMask = mask('begin_mask');
    const endMask = mask('end_mask');
    const shrink = mask('shrink_axis_mask');
    const beginValue = this.ref(node.inputs[1]!);
    const endValue = this.ref(node.inputs[2]!);
    const stridesValue = this.ref(node.inputs[3]!);
    const length = this.vectorLength(node.inputs[1]!);
    const axes = this.int64(name, Array.from({ length }, (_, i) => i));
    const big = 2 ** 53 - 1;
    let starts: string;
    let ends: string;
    if (beginMask !== 0 || endMask !== 0 || shrink !== 0) {
      if (!beginValue.constant || !endValue.constant || !stridesValue.constant) {
        throw new Error(`${name}: masked slices need constant bounds`);
      }
      const begin = Array.from(beginValue.constant.values);
      const end = Array.from(endValue.constant.values);
      const strides = Array.from(stridesValue.constant.values);
      for (let i = 0; i < length; i++) {
        const bit = 1 << i;
        if (shrink & bit) {
          end[i] = begin[i] === -1 ? big : begin[i]! + 1;
          strides[i] = 1;
          continue;
        }
        if (beginMask & bit) begin[i] = strides[i]! > 0 ? 0 : big;
        if (endMask & bit) end[i] = strides[i]! > 0 ? big : -big;
      }
      starts = this.int64(name, begin);
      ends = this.int64(name, end);
      const sliced = this.builder.node('Slice', [this.ref(node.inputs[0]!).name, starts, ends, axes, this.int64(name, strides)], this.fresh(name, 'slice'));
      const shrunk = Array.from({ length }, (_, i) => i).filter((i) => shrink & (1 << i));
      if (shrunk.length === 0) return this.builder.node('Identity', [sliced], name);
      return this.builder.node('Squeeze', [sliced, this.int64(name, shrunk)], name);
    }
    starts = this.asInt64Vector(name, node.inputs[1]!);
    ends = this.asInt64Vector(name, node.inputs[2]!);
    const steps = this.asInt64Vector(name, node.inputs[3]!);
    return this.builder.node('Slice', [this.ref(node.inputs[0]!).name, starts, ends, axes, steps], name);
  }

  /** The length of a 1-D int tensor: a constant's, or the number of values a Pack gathers. */
  private vectorLength(reference: string): number {
    const value = this.ref(reference);
    if (value.constant) return value.constant.values.length;
    let node = this.graph.nodes.get(reference.split(':')[0]!);
    while (node?.op === 'Identity') node = this.graph.nodes.get(node.inputs[0]!.split(':')[0]!);
    if (node?.op === 'Pack') return node.inputs.length;
    if (node?.op === 'ConcatV2') return node.inputs.slice(0, -1).reduce((sum, input) => sum + this.vectorLength(input), 0);
    throw new Error(`${reference}: the length of slice bounds must be known (got a ${node?.op})`);
  }

  get inputShape(): readonly (number | string)[] {
    if (this.options.inputShape) return this.options.inputShape;
    const size = this.options.inputSize;
    return [1, size?.[0] ?? 'height', size?.[1] ?? 'width', 3];
  }
}
