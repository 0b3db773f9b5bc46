import { InferenceSession, Tensor } from 'onnxruntime-node';

/** The one place that talks to onnxruntime: a session over an image-to-image model with one input and one output. */
export interface ImageModelSession {
  /** `input` is float32 NCHW [1, channels, height, width]; the result is the output tensor's values, also NCHW. */
  infer(input: Float32Array, height: number, width: number): Promise<Float32Array>;
  close(): Promise<void>;
}

export interface ImageModelSessionOptions {
  /**
   * Threads one inference may use. Each job worker owns a session, so the default is 1: workers already
   * share out the cores, and on a 2-core machine a second thread per session gained little (see the report).
   */
  intraOpNumThreads?: number;
}

export async function createImageModelSession(
  modelBytes: Uint8Array,
  options: ImageModelSessionOptions = {},
): Promise<ImageModelSession> {
  const session = await InferenceSession.create(modelBytes, {
    intraOpNumThreads: options.intraOpNumThreads ?? 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
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
