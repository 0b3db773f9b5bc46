import { ProtoWriter } from './protobuf-writer.js';

/**
 * The subset of ONNX's ModelProto that a feed-forward image network needs, and its encoding.
 * Field numbers are those of onnx/onnx.proto3.
 */
export interface OnnxModel {
  irVersion: number;
  opsetVersion: number;
  producerName: string;
  graph: OnnxGraph;
}

export interface OnnxGraph {
  name: string;
  nodes: OnnxNode[];
  initializers: OnnxInitializer[];
  inputs: OnnxValueInfo[];
  outputs: OnnxValueInfo[];
}

export interface OnnxNode {
  opType: string;
  name: string;
  /** An empty string stands for an omitted optional input, as ONNX specifies. */
  inputs: string[];
  outputs: string[];
  attributes?: Record<string, OnnxAttribute>;
}

export type OnnxAttribute =
  | { type: 'int'; value: number }
  | { type: 'ints'; value: readonly number[] }
  | { type: 'float'; value: number }
  | { type: 'string'; value: string };

export interface OnnxInitializer {
  name: string;
  dims: readonly number[];
  /** float32 weights; int64 values (shapes, axes) for the ops that want them; int32 constants of TensorFlow graphs. */
  values: Float32Array | Int32Array | BigInt64Array;
}

/**
 * A float32 tensor whose dimensions are numbers, or names for those fixed only at run time. Without a shape even
 * the rank is left open (the NHWC lowering does not track shapes).
 */
export interface OnnxValueInfo {
  name: string;
  shape?: ReadonlyArray<number | string>;
}

/** ONNX's TensorProto.DataType codes, for initializers and for Cast's `to`. */
export const ONNX_TENSOR_TYPE = { float: 1, int32: 6, int64: 7, bool: 9 } as const;
const ATTRIBUTE_TYPE = { float: 1, int: 2, string: 3, ints: 7 } as const;

export function encodeOnnxModel(model: OnnxModel): Uint8Array {
  const writer = new ProtoWriter();
  writer.varint(1, model.irVersion);
  writer.string(2, model.producerName);
  writer.message(7, (graph) => writeGraph(graph, model.graph));
  writer.message(8, (opset) => {
    opset.string(1, '');
    opset.varint(2, model.opsetVersion);
  });
  return writer.finish();
}

function writeGraph(writer: ProtoWriter, graph: OnnxGraph): void {
  for (const node of graph.nodes) writer.message(1, (w) => writeNode(w, node));
  writer.string(2, graph.name);
  for (const initializer of graph.initializers) writer.message(5, (w) => writeInitializer(w, initializer));
  for (const input of graph.inputs) writer.message(11, (w) => writeValueInfo(w, input));
  for (const output of graph.outputs) writer.message(12, (w) => writeValueInfo(w, output));
}

function writeNode(writer: ProtoWriter, node: OnnxNode): void {
  for (const input of node.inputs) writer.string(1, input);
  for (const output of node.outputs) writer.string(2, output);
  writer.string(3, node.name);
  writer.string(4, node.opType);
  for (const [name, attribute] of Object.entries(node.attributes ?? {})) {
    writer.message(5, (w) => writeAttribute(w, name, attribute));
  }
}

function writeAttribute(writer: ProtoWriter, name: string, attribute: OnnxAttribute): void {
  writer.string(1, name);
  switch (attribute.type) {
    case 'float':
      writer.float(2, attribute.value);
      break;
    case 'int':
      writer.varint(3, attribute.value);
      break;
    case 'string':
      writer.string(4, attribute.value);
      break;
    case 'ints':
      writer.packedVarints(8, attribute.value);
      break;
  }
  writer.varint(20, ATTRIBUTE_TYPE[attribute.type]);
}

function writeInitializer(writer: ProtoWriter, initializer: OnnxInitializer): void {
  writer.packedVarints(1, initializer.dims);
  writer.varint(2, ONNX_TENSOR_TYPE[tensorType(initializer.values)]);
  writer.string(8, initializer.name);
  writer.bytes(9, littleEndianBytes(initializer.values));
}

function writeValueInfo(writer: ProtoWriter, info: OnnxValueInfo): void {
  writer.string(1, info.name);
  writer.message(2, (type) =>
    type.message(1, (tensor) => {
      tensor.varint(1, ONNX_TENSOR_TYPE.float);
      const dims = info.shape;
      if (dims === undefined) return;
      tensor.message(2, (shape) => {
        for (const dim of dims) {
          shape.message(1, (d) => (typeof dim === 'number' ? d.varint(1, dim) : d.string(2, dim)));
        }
      });
    }),
  );
}

function tensorType(values: OnnxInitializer['values']): keyof typeof ONNX_TENSOR_TYPE {
  if (values instanceof BigInt64Array) return 'int64';
  return values instanceof Int32Array ? 'int32' : 'float';
}

/** raw_data is little-endian by definition; so is every machine Node runs on, which the check below keeps honest. */
function littleEndianBytes(values: OnnxInitializer['values']): Uint8Array {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error('big-endian hosts are not supported');
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}
