import { decodeTfjsWeights, type WeightsManifestEntry, type WeightsManifestGroup } from './tfjs-weights.js';

/**
 * A TensorFlow.js graph model (model.json of format "graph-model" + weight shards) read into plain data: the
 * TensorFlow nodes with their attributes decoded, and the value of every Const node. Nothing is interpreted here;
 * tfjs-graph-to-onnx.ts and tfjs-graph-nhwc-to-onnx.ts give the ops their meaning.
 */
export interface TfjsGraph {
  nodes: ReadonlyMap<string, TfjsGraphNode>;
  constants: ReadonlyMap<string, ConstantTensor>;
}

export interface TfjsGraphNode {
  name: string;
  op: string;
  /** Producer names; `name:1` is a producer's second output, `^name` a control dependency (dropped on reading). */
  inputs: string[];
  attributes: Readonly<Record<string, AttributeValue>>;
}

export type AttributeValue = number | boolean | string | number[] | string[] | (number | null)[] | null;

export interface ConstantTensor {
  shape: readonly number[];
  values: Float32Array | Int32Array;
}

interface RawAttribute {
  i?: string;
  f?: number;
  b?: boolean;
  s?: string;
  type?: string;
  list?: { i?: string[]; s?: string[]; f?: number[] };
  shape?: { dim?: { size: string }[]; unknownRank?: boolean };
}

interface RawNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, RawAttribute>;
}

/** `shards` holds the bytes of the weight files in the order the manifest lists them. */
export function parseTfjsGraphModel(modelJson: unknown, shards: readonly Uint8Array[]): TfjsGraph {
  const json = modelJson as { format?: unknown; modelTopology?: { node?: unknown }; weightsManifest?: unknown };
  if (json.format !== 'graph-model') throw new Error(`model.json is a ${String(json.format)}, not a graph-model`);
  if (!Array.isArray(json.modelTopology?.node)) throw new Error('model.json has no modelTopology.node array');
  if (!Array.isArray(json.weightsManifest)) throw new Error('model.json has no weightsManifest array');

  const nodes = new Map<string, TfjsGraphNode>();
  for (const raw of json.modelTopology.node as RawNode[]) {
    const attributes: Record<string, AttributeValue> = {};
    for (const [key, value] of Object.entries(raw.attr ?? {})) attributes[key] = decodeAttribute(value);
    const inputs = (raw.input ?? []).filter((input) => !input.startsWith('^'));
    nodes.set(raw.name, { name: raw.name, op: raw.op, inputs, attributes });
  }
  return { nodes, constants: decodeConstants(json.weightsManifest as WeightsManifestGroup[], shards) };
}

function decodeAttribute(value: RawAttribute): AttributeValue {
  if (value.i !== undefined) return Number(value.i);
  if (value.f !== undefined) return value.f;
  if (value.b !== undefined) return value.b;
  if (value.s !== undefined) return Buffer.from(value.s, 'base64').toString('utf8');
  if (value.type !== undefined) return value.type;
  if (value.list) {
    if (value.list.i) return value.list.i.map(Number);
    if (value.list.s) return value.list.s.map((s) => Buffer.from(s, 'base64').toString('utf8'));
    if (value.list.f) return value.list.f;
    return [];
  }
  // -1 (unknown) becomes null: the converter fixes those sizes itself.
  if (value.shape) return (value.shape.dim ?? []).map((d) => (Number(d.size) < 0 ? null : Number(d.size)));
  return null;
}

/**
 * decodeTfjsWeights reads float32 weights only. An int32 weight has the same four bytes per value, so it is read
 * as float32 and its bits are then viewed as int32: no arithmetic touches them on the way.
 */
function decodeConstants(manifest: readonly WeightsManifestGroup[], shards: readonly Uint8Array[]): Map<string, ConstantTensor> {
  const integers = new Set<string>();
  const asFloat = manifest.map((group) => ({
    paths: group.paths,
    weights: group.weights.map((entry): WeightsManifestEntry => {
      if (entry.dtype !== 'int32') return entry;
      if (entry.quantization) throw new Error(`weight ${entry.name}: quantised int32 weights are not supported`);
      integers.add(entry.name);
      return { ...entry, dtype: 'float32' };
    }),
  }));
  const constants = new Map<string, ConstantTensor>();
  for (const [name, tensor] of decodeTfjsWeights(asFloat, shards)) {
    const values = integers.has(name)
      ? new Int32Array(tensor.values.buffer, tensor.values.byteOffset, tensor.values.length)
      : tensor.values;
    constants.set(name, { shape: tensor.shape, values });
  }
  return constants;
}
