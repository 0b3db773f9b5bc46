import type { DetectorOutput } from '../repositories/models/detector-session.js';
import type { ImageModelSession } from '../repositories/models/onnx-runtime.js';

/**
 * What detection (privacy, declutter, room lines) needs of a model: run one float32 input, read named outputs. The worker thread hands in
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

/** What operations see of the model runtime. */
export interface ImageModels {
  isInstalled(name: string): Promise<boolean>;
  /** A one-input, one-output image-to-image network (super-resolution). */
  imageSession(name: string): Promise<ImageModelSession>;
  /** A detector with named outputs. */
  detectorSession(name: string): Promise<Detector>;
}
