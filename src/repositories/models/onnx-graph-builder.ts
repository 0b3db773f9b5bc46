import type { OnnxAttribute, OnnxInitializer, OnnxNode } from './onnx-proto.js';

/**
 * The nodes and initializers of an ONNX graph as a converter appends them. Every node has one output, whose name
 * it takes too: the output names are unique already, and onnxruntime's messages then say where they come from.
 */
export class OnnxGraphBuilder {
  readonly nodes: OnnxNode[] = [];
  readonly initializers: OnnxInitializer[] = [];
  private readonly scalars = new Map<number, string>();

  /** `scalarPrefix` names the shared scalars apart from the converted model's own tensors. */
  constructor(private readonly scalarPrefix = 'constant') {}

  /** Appends a node and returns its output. */
  node(opType: string, inputs: string[], output: string, attributes?: Record<string, OnnxAttribute>): string {
    this.nodes.push({ opType, name: output, inputs, outputs: [output], ...(attributes ? { attributes } : {}) });
    return output;
  }

  weight(name: string, dims: readonly number[], values: OnnxInitializer['values']): string {
    this.initializers.push({ name, dims, values });
    return name;
  }

  /** float32 scalars are shared: the forty MultiplyBeta layers of an RRDN need one 0.2. */
  scalar(value: number): string {
    let name = this.scalars.get(value);
    if (name === undefined) {
      name = this.weight(`${this.scalarPrefix}/${value}`, [], Float32Array.of(value));
      this.scalars.set(value, name);
    }
    return name;
  }
}
