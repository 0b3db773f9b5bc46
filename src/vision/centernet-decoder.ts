import type { ScoredBox } from './box.js';

/** A detection of CenterNet, in the model's input pixels, with its COCO class (0-based: 2 car, 3 motorcycle, ...). */
export interface ClassedBox extends ScoredBox {
  classId: number;
}

export interface CenterNetMaps {
  /** Per-class centre heat map after the sigmoid, NCHW [1, classes, rows, columns]. */
  heatmap: Float32Array;
  /** Distances from a centre to the box's left, top, right and bottom edges in input pixels, NCHW [1, 4, rows, columns]. */
  sizes: Float32Array;
  classes: number;
  rows: number;
  columns: number;
}

export interface CenterNetDecodeOptions {
  /** COCO class ids to keep. */
  classIds: ReadonlySet<number>;
  /** Lowest heat-map value kept. */
  minScore: number;
  /** Input pixels per heat-map cell. Default 4, CenterNet's output stride. */
  stride?: number;
}

/**
 * CenterNet's own post-processing, the part of the graph cut off at conversion: a cell is an object centre where
 * its class's heat is the maximum of its 3 × 3 neighbourhood (no suppression is needed beyond that), and the box
 * spans the predicted distances around the cell's corner point × stride (the network's convention).
 */
export function decodeCenterNet(maps: CenterNetMaps, options: CenterNetDecodeOptions): ClassedBox[] {
  const { rows, columns } = maps;
  const stride = options.stride ?? 4;
  const plane = rows * columns;
  const boxes: ClassedBox[] = [];
  for (const classId of options.classIds) {
    const heat = maps.heatmap.subarray(classId * plane, (classId + 1) * plane);
    for (let y = 0; y < rows; y++) {
      for (let x = 0; x < columns; x++) {
        const score = heat[y * columns + x]!;
        if (score < options.minScore || !isLocalMaximum(heat, rows, columns, x, y, score)) continue;
        const cell = y * columns + x;
        const left = x * stride - maps.sizes[cell]!;
        const top = y * stride - maps.sizes[plane + cell]!;
        const right = x * stride + maps.sizes[2 * plane + cell]!;
        const bottom = y * stride + maps.sizes[3 * plane + cell]!;
        if (right > left && bottom > top) boxes.push({ x: left, y: top, width: right - left, height: bottom - top, score, classId });
      }
    }
  }
  return boxes;
}

function isLocalMaximum(heat: Float32Array, rows: number, columns: number, x: number, y: number, value: number): boolean {
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      const nx = x + dx;
      const ny = y + dy;
      if ((dx || dy) && nx >= 0 && ny >= 0 && nx < columns && ny < rows && heat[ny * columns + nx]! > value) return false;
    }
  }
  return true;
}
