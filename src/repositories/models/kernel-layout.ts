/** A convolution kernel as TensorFlow stores it (channels last), whichever file it came from. */
export interface TensorflowKernel {
  shape: readonly number[];
  values: ArrayLike<number>;
}

/** A kernel in ONNX's Conv layout. */
export interface OnnxKernel {
  shape: number[];
  values: Float32Array;
}

/** [kh, kw, in, out] → [out, in, kh, kw]. */
export function hwioToOihw(kernel: TensorflowKernel): OnnxKernel {
  const [kh, kw, cin, cout] = kernel.shape as [number, number, number, number];
  const values = new Float32Array(kernel.values.length);
  let from = 0;
  for (let y = 0; y < kh; y++) {
    for (let x = 0; x < kw; x++) {
      for (let i = 0; i < cin; i++) {
        for (let o = 0; o < cout; o++) values[((o * cin + i) * kh + y) * kw + x] = kernel.values[from++]!;
      }
    }
  }
  return { shape: [cout, cin, kh, kw], values };
}

/** [kh, kw, in, multiplier] → [in × multiplier, 1, kh, kw]: TensorFlow's output channel i × multiplier + m is ONNX group i's m-th. */
export function depthwiseToOihw(kernel: TensorflowKernel): OnnxKernel {
  const [kh, kw, cin, multiplier] = kernel.shape as [number, number, number, number];
  const values = new Float32Array(kernel.values.length);
  let from = 0;
  for (let y = 0; y < kh; y++) {
    for (let x = 0; x < kw; x++) {
      for (let i = 0; i < cin; i++) {
        for (let m = 0; m < multiplier; m++) values[((i * multiplier + m) * kh + y) * kw + x] = kernel.values[from++]!;
      }
    }
  }
  return { shape: [cin * multiplier, 1, kh, kw], values };
}
