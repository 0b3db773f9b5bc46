import { Tensor } from 'onnxruntime-node';
import { openInferenceSession } from './onnx-runtime.js';

/** One output tensor of a detector: float32 values and their dimensions. */
export interface DetectorOutput {
  data: Float32Array;
  dims: readonly number[];
}

/**
 * A session over a detector: one float32 input, any number of float32 outputs read by name (scores, boxes, maps).
 * Like ImageModelSession, onnxruntime-node computes on the calling thread: call it from a job worker thread.
 */
export interface DetectorSession {
  /** `dims` of the input tensor, e.g. [1, 3, height, width]; every output of the model comes back. */
  run(input: Float32Array, dims: readonly number[]): Promise<Record<string, DetectorOutput>>;
  close(): Promise<void>;
}

export interface DetectorSessionOptions {
  /** Threads one inference may use. Default 1, for the reason given in onnx-runtime.ts. */
  intraOpNumThreads?: number;
}

export async function createDetectorSession(modelBytes: Uint8Array, options: DetectorSessionOptions = {}): Promise<DetectorSession> {
  const session = await openInferenceSession(modelBytes, options.intraOpNumThreads);
  const [inputName] = session.inputNames;
  if (inputName === undefined) throw new Error('the model has no input');

  return {
    async run(input, dims) {
      const results = await session.run({ [inputName]: new Tensor('float32', input, [...dims]) });
      const outputs: Record<string, DetectorOutput> = {};
      for (const name of session.outputNames) {
        const output = results[name];
        if (!(output?.data instanceof Float32Array)) throw new Error(`output ${name} is not float32`);
        outputs[name] = { data: output.data, dims: output.dims };
      }
      return outputs;
    },
    close: () => session.release(),
  };
}
