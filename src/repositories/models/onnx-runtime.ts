import { InferenceSession, Tensor } from 'onnxruntime-node';

/** The one place that talks to onnxruntime: a session over an image-to-image model with one input and one output. */
export interface ImageModelSession {
  /**
   * `input` is float32 NCHW [1, channels, height, width]; the result is the output tensor's values, also NCHW.
   * onnxruntime-node runs the model on the calling thread, event loop included, despite the promise: call this
   * from a job worker thread only. Two sessions in one thread therefore take turns rather than run together.
   */
  infer(input: Float32Array, height: number, width: number): Promise<Float32Array>;
  close(): Promise<void>;
}

export interface ImageModelSessionOptions {
  /**
   * Threads one inference may use. Default 1: each job worker owns a session, and the workers share out the
   * cores. Measured on 2 cores: two workers × 1 thread beat one session × 2 threads, and a 2-thread session
   * slows down sharply when anything else wants a core, because its threads wait for each other at every op.
   */
  intraOpNumThreads?: number;
}

/** Every session of the service: sequential, fully optimised, `intraOpNumThreads` (default 1) threads. */
export function openInferenceSession(modelBytes: Uint8Array, intraOpNumThreads = 1): Promise<InferenceSession> {
  return InferenceSession.create(modelBytes, {
    intraOpNumThreads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // Errors only: converted graphs carry initializers onnxruntime folds away, and it warns about each of them.
    logSeverityLevel: 3,
  });
}

export async function createImageModelSession(
  modelBytes: Uint8Array,
  options: ImageModelSessionOptions = {},
): Promise<ImageModelSession> {
  const session = await openInferenceSession(modelBytes, options.intraOpNumThreads);
  const [inputName] = session.inputNames;
  const [outputName] = session.outputNames;
  if (inputName === undefined || outputName === undefined) throw new Error('the model has no input or no output');

  return {
    async infer(input, height, width) {
      const channels = input.length / (height * width);
      if (!Number.isInteger(channels)) throw new Error(`${input.length} values are not a whole number of ${width}×${height} planes`);
      const results = await session.run({ [inputName]: new Tensor('float32', input, [1, channels, height, width]) });
      const output = results[outputName];
      if (!(output?.data instanceof Float32Array)) throw new Error(`output ${outputName} is not float32`);
      return output.data;
    },
    close: () => session.release(),
  };
}
