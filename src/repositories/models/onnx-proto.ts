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
  /** float32 weights, or int64 values (shapes, axes) for the ops that want them. */
  values: Float32Array | BigInt64Array;
}

/** A float32 tensor whose dimensions are numbers, or names for those fixed only at run time. */
export interface OnnxValueInfo {
  name: string;
  shape: ReadonlyArray<number | string>;
}

const TENSOR_FLOAT = 1;
const TENSOR_INT64 = 7;
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

/** Writes one AttributeProto; shared by every ONNX graph the project builds. */
export function writeAttribute(writer: ProtoWriter, name: string, attribute: OnnxAttribute): void {
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
  writer.varint(2, initializer.values instanceof BigInt64Array ? TENSOR_INT64 : TENSOR_FLOAT);
  writer.string(8, initializer.name);
  writer.bytes(9, littleEndianBytes(initializer.values));
}

function writeValueInfo(writer: ProtoWriter, info: OnnxValueInfo): void {
  writer.string(1, info.name);
  writer.message(2, (type) =>
    type.message(1, (tensor) => {
      tensor.varint(1, TENSOR_FLOAT);
      tensor.message(2, (shape) => {
        for (const dim of info.shape) {
          shape.message(1, (d) => (typeof dim === 'number' ? d.varint(1, dim) : d.string(2, dim)));
        }
      });
    }),
  );
}

/** raw_data is little-endian by definition; so is every machine Node runs on, which the check below keeps honest. */
function littleEndianBytes(values: Float32Array | BigInt64Array): Uint8Array {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error('big-endian hosts are not supported');
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}
