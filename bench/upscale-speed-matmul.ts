/**
 * The machine's limit for `bench/upscale-speed.ts`: multiply-adds per second of one float32 matrix product
 * (1024 × 1024 by 1024 × 1024, the constant factor an initializer as convolution weights are) in onnxruntime-node,
 * with the session options production uses.
 */
import { encodeOnnxModel } from '../src/repositories/models/onnx-proto.js';
import { createImageModelSession } from '../src/repositories/models/onnx-runtime.js';

export const MATMUL_N = 1024;

export interface MatmulRate {
  threads: number;
  /** Best run: the rate this machine reaches when the other load on it lets it. */
  bestGmacs: number;
  medianGmacs: number;
  runs: number;
}

function matmulModel(n: number): Uint8Array {
  const weights = new Float32Array(n * n);
  let seed = 1;
  for (let i = 0; i < weights.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    weights[i] = seed / 2 ** 32 - 0.5;
  }
  return encodeOnnxModel({
    irVersion: 8,
    opsetVersion: 17,
    producerName: 'roomcraft-bench',
    graph: {
      name: 'matmul',
      // [1, 1, n, n] so that the image session (NCHW, one input, one output) can feed it.
      nodes: [{ opType: 'MatMul', name: 'matmul', inputs: ['a', 'b'], outputs: ['y'] }],
      initializers: [{ name: 'b', dims: [n, n], values: weights }],
      inputs: [{ name: 'a', shape: [1, 1, n, n] }],
      outputs: [{ name: 'y', shape: [1, 1, n, n] }],
    },
  });
}

/** Runs the product for about `seconds` (at least 5 times) after one warm-up. */
export async function measureMatmul(threads: number, seconds: number): Promise<MatmulRate> {
  const n = MATMUL_N;
  const session = await createImageModelSession(matmulModel(n), { intraOpNumThreads: threads });
  const input = new Float32Array(n * n).fill(0.5);
  await session.infer(input, n, n);
  const rates: number[] = [];
  const started = performance.now();
  while (rates.length < 5 || performance.now() - started < seconds * 1000) {
    const t0 = performance.now();
    await session.infer(input, n, n);
    rates.push(n ** 3 / ((performance.now() - t0) / 1000) / 1e9);
  }
  await session.close();
  rates.sort((a, b) => a - b);
  return { threads, bestGmacs: rates.at(-1)!, medianGmacs: rates[rates.length >> 1]!, runs: rates.length };
}
