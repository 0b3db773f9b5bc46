import type { DetectorOutput } from '../../repositories/models/detector-session.js';

/**
 * What privacy detection needs of a model: run one float32 input, read named outputs. The worker thread hands in
 * ModelRuntime's detector sessions; tests hand in stand-ins.
 */
export interface Detector {
  run(input: Float32Array, dims: readonly number[]): Promise<Record<string, DetectorOutput>>;
}

export function outputOf(outputs: Record<string, DetectorOutput>, name?: string): DetectorOutput {
  const output = name === undefined ? Object.values(outputs)[0] : outputs[name];
  if (!output) throw new Error(`the detector has no output ${name ?? ''}`.trim());
  return output;
}
