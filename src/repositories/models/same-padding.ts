/**
 * TensorFlow's "SAME" padding along one axis, [before, after]: whatever makes the output ceil(size / stride) long,
 * the odd pixel at the end. At stride 1 it does not depend on `size`.
 */
export function samePadding(size: number, kernel: number, stride: number, dilation: number): [number, number] {
  const output = Math.ceil(size / stride);
  const total = Math.max((output - 1) * stride + (kernel - 1) * dilation + 1 - size, 0);
  return [Math.floor(total / 2), total - Math.floor(total / 2)];
}
