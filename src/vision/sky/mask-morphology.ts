/** Binary and float morphology on working-resolution masks: the glue of the sky segmentation. */

/** Adds to `mask` everything reachable from `seeds` (4-connected) through `passable`; seeds may already be in it. */
export function floodFill(passable: Uint8Array, mask: Uint8Array, seeds: number[], width: number, height: number): void {
  // Each pixel enters the stack at most once as a seed and once when first reached.
  const stack = new Int32Array(width * height + seeds.length);
  let top = 0;
  for (const seed of seeds) {
    mask[seed] = 1;
    stack[top++] = seed;
  }
  while (top > 0) {
    const i = stack[--top]!;
    const x = i % width;
    const visit = (j: number) => {
      if (passable[j] && !mask[j]) {
        mask[j] = 1;
        stack[top++] = j;
      }
    };
    if (x > 0) visit(i - 1);
    if (x < width - 1) visit(i + 1);
    if (i >= width) visit(i - width);
    if (i < (height - 1) * width) visit(i + width);
  }
}

/** Dilation then erosion with a square window: fills gaps up to 2·radius pixels wide, leaves broad shapes alone. */
export function closeMask(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  if (radius <= 0) return mask.slice();
  return squareFilter(squareFilter(mask, width, height, radius, 1), width, height, radius, 0);
}

/** Max (`keep` 1) or min (`keep` 0) over a square window, separable. */
function squareFilter(mask: Uint8Array, width: number, height: number, radius: number, keep: 0 | 1): Uint8Array {
  const horizontal = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let value = 1 - keep;
      for (let dx = -radius; dx <= radius; dx++) {
        const px = Math.min(width - 1, Math.max(0, x + dx));
        if (mask[y * width + px] === keep) {
          value = keep;
          break;
        }
      }
      horizontal[y * width + x] = value;
    }
  }
  const result = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let value = 1 - keep;
      for (let dy = -radius; dy <= radius; dy++) {
        const py = Math.min(height - 1, Math.max(0, y + dy));
        if (horizontal[py * width + x] === keep) {
          value = keep;
          break;
        }
      }
      result[y * width + x] = value;
    }
  }
  return result;
}

/** Maximum over a square window, separable. */
export function localMax(values: Float32Array, width: number, height: number, radius: number): Float32Array {
  const horizontal = new Float32Array(values.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let max = -Infinity;
      for (let dx = Math.max(0, x - radius); dx <= Math.min(width - 1, x + radius); dx++) max = Math.max(max, values[y * width + dx]!);
      horizontal[y * width + x] = max;
    }
  }
  const result = new Float32Array(values.length);
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) {
      let max = -Infinity;
      for (let dy = Math.max(0, y - radius); dy <= Math.min(height - 1, y + radius); dy++) max = Math.max(max, horizontal[dy * width + x]!);
      result[y * width + x] = max;
    }
  }
  return result;
}
