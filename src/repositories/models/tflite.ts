/**
 * A reader of TensorFlow Lite model files (FlatBuffers, schema tensorflow/lite/schema/schema.fbs) for the little a
 * converter needs: the first subgraph's tensors, their constant buffers, its operators with their builtin options.
 * Read only; no FlatBuffers library, only the wire format: a table is an int32 offset back to its vtable, whose
 * uint16 entries locate each field; vectors, strings and sub-tables are uint32 offsets forward to a length prefix.
 */

/** TensorType of the schema: the element types a model of ours may hold. */
export type TfliteTensorType = 'float32' | 'float16' | 'int32' | 'uint8' | 'int64' | 'int8' | 'other';

export interface TfliteTensor {
  name: string;
  shape: readonly number[];
  type: TfliteTensorType;
  /** The constant's bytes, little-endian, or undefined for an activation (the buffer is empty). */
  data?: Uint8Array;
}

export type TflitePadding = 'same' | 'valid';
export type TfliteActivation = 'none' | 'relu' | 'relu-n1-to-1' | 'relu6' | 'tanh' | 'sign-bit';

export type TfliteOptions =
  | { kind: 'conv2d'; padding: TflitePadding; strideH: number; strideW: number; dilationH: number; dilationW: number; activation: TfliteActivation }
  | {
      kind: 'depthwise-conv2d';
      padding: TflitePadding;
      strideH: number;
      strideW: number;
      depthMultiplier: number;
      dilationH: number;
      dilationW: number;
      activation: TfliteActivation;
    }
  | { kind: 'concatenation'; axis: number; activation: TfliteActivation }
  | { kind: 'add'; activation: TfliteActivation }
  | { kind: 'reshape'; newShape?: readonly number[] }
  | { kind: 'none' };

export interface TfliteOperator {
  /** The builtin operator's schema name (CONV_2D, …), or `CUSTOM:<code>`. */
  op: string;
  /** Tensor indices; −1 stands for an omitted optional input. */
  inputs: readonly number[];
  outputs: readonly number[];
  options: TfliteOptions;
}

export interface TfliteModel {
  version: number;
  tensors: readonly TfliteTensor[];
  inputs: readonly number[];
  outputs: readonly number[];
  /** In execution order, as the file lists them. */
  operators: readonly TfliteOperator[];
}

/** BuiltinOperator codes of the schema, those a reader may meet in detection and image models. */
const BUILTIN_OPERATORS: Readonly<Record<number, string>> = {
  0: 'ADD', 1: 'AVERAGE_POOL_2D', 2: 'CONCATENATION', 3: 'CONV_2D', 4: 'DEPTHWISE_CONV_2D', 5: 'DEPTH_TO_SPACE',
  6: 'DEQUANTIZE', 8: 'FLOOR', 9: 'FULLY_CONNECTED', 14: 'LOGISTIC', 17: 'MAX_POOL_2D', 18: 'MUL', 19: 'RELU',
  21: 'RELU6', 22: 'RESHAPE', 23: 'RESIZE_BILINEAR', 25: 'SOFTMAX', 28: 'TANH', 32: 'CUSTOM', 34: 'PAD', 39: 'TRANSPOSE',
  40: 'MEAN', 41: 'SUB', 42: 'DIV', 43: 'SQUEEZE', 45: 'STRIDED_SLICE', 49: 'SPLIT', 53: 'CAST', 54: 'PRELU',
  55: 'MAXIMUM', 57: 'MINIMUM', 67: 'TRANSPOSE_CONV', 70: 'EXPAND_DIMS', 76: 'RSQRT', 77: 'SHAPE', 81: 'POW', 83: 'PACK',
  97: 'RESIZE_NEAREST_NEIGHBOR', 98: 'LEAKY_RELU', 114: 'QUANTIZE', 117: 'HARD_SWISH',
};

const TENSOR_TYPES: Readonly<Record<number, TfliteTensorType>> = { 0: 'float32', 1: 'float16', 2: 'int32', 3: 'uint8', 4: 'int64', 9: 'int8' };
const ACTIVATIONS: readonly TfliteActivation[] = ['none', 'relu', 'relu-n1-to-1', 'relu6', 'tanh', 'sign-bit'];

/** BuiltinOptions union tags of the schema that this reader decodes. */
const OPTIONS_CONV2D = 1;
const OPTIONS_DEPTHWISE_CONV2D = 2;
const OPTIONS_CONCATENATION = 10;
const OPTIONS_ADD = 11;
const OPTIONS_RESHAPE = 17;

/** The FlatBuffers file identifier of TensorFlow Lite models, at bytes 4–7. */
const FILE_IDENTIFIER = 'TFL3';

export function readTfliteModel(bytes: Uint8Array): TfliteModel {
  if (bytes.length < 8 || String.fromCharCode(...bytes.subarray(4, 8)) !== FILE_IDENTIFIER) {
    throw new Error('not a TensorFlow Lite model (no TFL3 identifier)');
  }
  const fb = new FlatBuffer(bytes);
  const model = fb.root();
  const version = fb.uint32(model, 0, 0);
  const opcodes = fb.tables(model, 1).map((code) => {
    // builtin_code (field 3) superseded deprecated_builtin_code (field 0, int8) at 127; the larger of the two holds.
    const builtin = Math.max(fb.int8(code, 0, 0), fb.int32(code, 3, 0));
    const name = BUILTIN_OPERATORS[builtin] ?? `BUILTIN_${builtin}`;
    return name === 'CUSTOM' ? `CUSTOM:${fb.string(code, 1) ?? ''}` : name;
  });
  const buffers = fb.tables(model, 4).map((buffer) => fb.bytes(buffer, 0));
  const subgraphs = fb.tables(model, 2);
  if (subgraphs.length !== 1) throw new Error(`expected one subgraph, found ${subgraphs.length}`);
  const graph = subgraphs[0]!;

  const tensors = fb.tables(graph, 0).map((tensor): TfliteTensor => {
    const typeCode = fb.int8(tensor, 1, 0);
    const data = buffers[fb.uint32(tensor, 2, 0)];
    return {
      name: fb.string(tensor, 3) ?? '',
      shape: fb.int32s(tensor, 0),
      type: TENSOR_TYPES[typeCode] ?? 'other',
      ...(data && data.length > 0 ? { data } : {}),
    };
  });
  const operators = fb.tables(graph, 3).map((operator): TfliteOperator => {
    const op = opcodes[fb.uint32(operator, 0, 0)];
    if (op === undefined) throw new Error('an operator names an opcode the model does not list');
    return {
      op,
      inputs: fb.int32s(operator, 1),
      outputs: fb.int32s(operator, 2),
      options: readOptions(fb, fb.uint8(operator, 3, 0), fb.table(operator, 4)),
    };
  });
  return { version, tensors, inputs: fb.int32s(graph, 1), outputs: fb.int32s(graph, 2), operators };
}

function readOptions(fb: FlatBuffer, type: number, table: number | undefined): TfliteOptions {
  if (table === undefined) return { kind: 'none' };
  const padding = (field: number): TflitePadding => (fb.int8(table, field, 0) === 1 ? 'valid' : 'same');
  const activation = (field: number): TfliteActivation => {
    const code = fb.int8(table, field, 0);
    const name = ACTIVATIONS[code];
    if (name === undefined) throw new Error(`unknown fused activation ${code}`);
    return name;
  };
  switch (type) {
    case OPTIONS_CONV2D:
      return {
        kind: 'conv2d',
        padding: padding(0),
        strideW: fb.int32(table, 1, 1),
        strideH: fb.int32(table, 2, 1),
        activation: activation(3),
        dilationW: fb.int32(table, 4, 1),
        dilationH: fb.int32(table, 5, 1),
      };
    case OPTIONS_DEPTHWISE_CONV2D:
      return {
        kind: 'depthwise-conv2d',
        padding: padding(0),
        strideW: fb.int32(table, 1, 1),
        strideH: fb.int32(table, 2, 1),
        depthMultiplier: fb.int32(table, 3, 1),
        activation: activation(4),
        dilationW: fb.int32(table, 5, 1),
        dilationH: fb.int32(table, 6, 1),
      };
    case OPTIONS_CONCATENATION:
      return { kind: 'concatenation', axis: fb.int32(table, 0, 0), activation: activation(1) };
    case OPTIONS_ADD:
      return { kind: 'add', activation: activation(0) };
    case OPTIONS_RESHAPE: {
      const newShape = fb.int32s(table, 0);
      return { kind: 'reshape', ...(newShape.length > 0 ? { newShape } : {}) };
    }
    default:
      return { kind: 'none' };
  }
}

/** Element values of a float32 or float16 constant as float32; anything else is an error. */
export function tensorFloats(tensor: TfliteTensor): Float32Array {
  if (!tensor.data) throw new Error(`tensor ${tensor.name} is not a constant`);
  const { data } = tensor;
  const count = tensor.shape.reduce((a, b) => a * b, 1);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const values = new Float32Array(count);
  if (tensor.type === 'float32') {
    if (data.length !== count * 4) throw new Error(`tensor ${tensor.name}: ${data.length} bytes for ${count} float32 values`);
    for (let i = 0; i < count; i++) values[i] = view.getFloat32(i * 4, true);
  } else if (tensor.type === 'float16') {
    if (data.length !== count * 2) throw new Error(`tensor ${tensor.name}: ${data.length} bytes for ${count} float16 values`);
    for (let i = 0; i < count; i++) values[i] = halfToFloat(view.getUint16(i * 2, true));
  } else {
    throw new Error(`tensor ${tensor.name} is ${tensor.type}, not a float`);
  }
  return values;
}

/** IEEE 754 binary16 → number, subnormals, infinities and NaN included. */
export function halfToFloat(half: number): number {
  const sign = half & 0x8000 ? -1 : 1;
  const exponent = (half >> 10) & 0x1f;
  const fraction = half & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction === 0 ? sign * Infinity : NaN;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/** Positions are absolute byte offsets into the file; a table is addressed by its start. */
class FlatBuffer {
  private readonly view: DataView;

  constructor(private readonly file: Uint8Array) {
    this.view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  }

  root(): number {
    return this.view.getUint32(0, true);
  }

  /** Absolute position of field `index` of the table at `table`, or undefined when absent (the default holds). */
  private field(table: number, index: number): number | undefined {
    const vtable = table - this.view.getInt32(table, true);
    const vtableSize = this.view.getUint16(vtable, true);
    const entry = 4 + 2 * index;
    if (entry + 2 > vtableSize) return undefined;
    const offset = this.view.getUint16(vtable + entry, true);
    return offset === 0 ? undefined : table + offset;
  }

  private follow(position: number): number {
    return position + this.view.getUint32(position, true);
  }

  int8(table: number, index: number, fallback: number): number {
    const at = this.field(table, index);
    return at === undefined ? fallback : this.view.getInt8(at);
  }

  uint8(table: number, index: number, fallback: number): number {
    const at = this.field(table, index);
    return at === undefined ? fallback : this.view.getUint8(at);
  }

  int32(table: number, index: number, fallback: number): number {
    const at = this.field(table, index);
    return at === undefined ? fallback : this.view.getInt32(at, true);
  }

  uint32(table: number, index: number, fallback: number): number {
    const at = this.field(table, index);
    return at === undefined ? fallback : this.view.getUint32(at, true);
  }

  table(table: number, index: number): number | undefined {
    const at = this.field(table, index);
    return at === undefined ? undefined : this.follow(at);
  }

  string(table: number, index: number): string | undefined {
    const bytes = this.bytes(table, index);
    return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
  }

  /** A [ubyte] vector (or a string's bytes), without copying. */
  bytes(table: number, index: number): Uint8Array | undefined {
    const at = this.field(table, index);
    if (at === undefined) return undefined;
    const start = this.follow(at);
    const length = this.view.getUint32(start, true);
    if (start + 4 + length > this.file.length) throw new Error('a vector runs past the end of the model file');
    return this.file.subarray(start + 4, start + 4 + length);
  }

  int32s(table: number, index: number): number[] {
    const at = this.field(table, index);
    if (at === undefined) return [];
    const start = this.follow(at);
    const length = this.view.getUint32(start, true);
    return Array.from({ length }, (_, i) => this.view.getInt32(start + 4 + 4 * i, true));
  }

  tables(table: number, index: number): number[] {
    const at = this.field(table, index);
    if (at === undefined) return [];
    const start = this.follow(at);
    const length = this.view.getUint32(start, true);
    return Array.from({ length }, (_, i) => this.follow(start + 4 + 4 * i));
  }

}
