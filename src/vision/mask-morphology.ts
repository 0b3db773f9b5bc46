/** Binary and float morphology on working-resolution masks (the glue of the sky segmentation), and a mask's bounds. */

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
  return erodeSquare(dilateSquare(mask, width, height, radius), width, height, radius);
}

/** Pixels whose whole (2r + 1)² window is set; pixels beyond the border count as set. */
export function erodeSquare(mask: Uint8Array, width: number, height: number, r: number): Uint8Array {
  // Erosion is the dilation of the complement, complemented.
  return complement(dilateSquare(complement(mask), width, height, r));
}

/** Square (Chebyshev) dilation by r pixels, separable; pixels beyond the border count as unset. */
export function dilateSquare(mask: Uint8Array, width: number, height: number, r: number): Uint8Array {
  if (r <= 0) return mask.slice();
  const rows = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    let last = -Infinity;
    // Left to right then right to left: distance to the nearest set pixel on the row.
    for (let x = 0; x < width; x++) {
      if (mask[y * width + x]) last = x;
      if (x - last <= r) rows[y * width + x] = 1;
    }
    last = Infinity;
    for (let x = width - 1; x >= 0; x--) {
      if (mask[y * width + x]) last = x;
      if (last - x <= r) rows[y * width + x] = 1;
    }
  }
  const out = new Uint8Array(mask.length);
  for (let x = 0; x < width; x++) {
    let last = -Infinity;
    for (let y = 0; y < height; y++) {
      if (rows[y * width + x]) last = y;
      if (y - last <= r) out[y * width + x] = 1;
    }
    last = Infinity;
    for (let y = height - 1; y >= 0; y--) {
      if (rows[y * width + x]) last = y;
      if (last - y <= r) out[y * width + x] = 1;
    }
  }
  return out;
}

function complement(mask: Uint8Array): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) out[i] = mask[i] ? 0 : 1;
  return out;
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

/** The smallest box holding every non-zero pixel of a mask (inclusive corners), or undefined for an empty mask. */
export function maskBounds(mask: Uint8Array, width: number, height: number): { x0: number; y0: number; x1: number; y1: number } | undefined {
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!mask[y * width + x]) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  return x1 < 0 ? undefined : { x0, y0, x1, y1 };
}
