import type { Box } from './box.js';

/** A 4-connected set of mask pixels: its bounding box in mask pixels and its pixel indices. */
export interface Component extends Box {
  pixels: number[];
}

export function connectedComponents(mask: Uint8Array, width: number, height: number): Component[] {
  const visited = new Uint8Array(mask.length);
  const found: Component[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || visited[start]) continue;
    let [minX, minY, maxX, maxY] = [width, height, -1, -1];
    const pixels: number[] = [];
    const stack = [start];
    visited[start] = 1;
    const visit = (index: number): void => {
      if (mask[index] && !visited[index]) {
        visited[index] = 1;
        stack.push(index);
      }
    };
    while (stack.length > 0) {
      const index = stack.pop()!;
      const x = index % width;
      const y = (index - x) / width;
      pixels.push(index);
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
      if (x > 0) visit(index - 1);
      if (x < width - 1) visit(index + 1);
      if (y > 0) visit(index - width);
      if (y < height - 1) visit(index + width);
    }
    found.push({ x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1, pixels });
  }
  return found;
}
