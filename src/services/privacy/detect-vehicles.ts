import type { ScoredBox } from '../../vision/box.js';
import { decodeCenterNet } from '../../vision/centernet-decoder.js';
import { nonMaxSuppression } from '../../vision/non-max-suppression.js';
import { planTiles } from '../../vision/tiling.js';
import type { RawImage } from '../../vision/raw-image.js';
import { outputOf, type Detector } from '../image-models.js';
import { detectOverTiles } from './tiled-detection.js';

/** COCO ids (0-based, CenterNet's order) of the vehicles that carry licence plates. */
export const PLATE_CARRYING_CLASSES: ReadonlySet<number> = new Set([2, 3, 5, 7]); // car, motorcycle, bus, truck

const INPUT_SIZE = 512;
const INPUT_DIMS = [1, 3, INPUT_SIZE, INPUT_SIZE] as const;
const GRID = INPUT_SIZE / 4;
const COCO_CLASSES = 80;

export interface VehicleDetectionOptions {
  /** Lowest heat kept. Default 0.2: Human's threshold for this model; plates are looked for, not reported. */
  minScore?: number;
  /**
   * Side of the finest tiles in photo pixels. Default 1024: a car whose plate is legible (≥ 40 px wide) is about
   * 150 px wide and so ~75 model pixels there, well inside CenterNet's range.
   */
  smallestTile?: number;
  /** Overlap of neighbouring tiles. Default 0.25. */
  overlap?: number;
  /** A car also reported as a truck, or seen at two levels: boxes overlapping by more than this are one. Default 0.5. */
  iouThreshold?: number;
}

/** Cars, motorcycles, buses and trucks in photo pixels: CenterNet over a tile pyramid. */
export async function detectVehicles(image: RawImage, detector: Detector, options: VehicleDetectionOptions = {}): Promise<ScoredBox[]> {
  const levels = planTiles(image.width, image.height, {
    inputSize: INPUT_SIZE,
    smallestTile: options.smallestTile ?? 1024,
    overlap: options.overlap ?? 0.25,
  });
  const found = await detectOverTiles(image, levels, INPUT_SIZE, async (input) => {
    const outputs = await detector.run(input, INPUT_DIMS);
    const maps = { heatmap: outputOf(outputs, 'heatmap').data, sizes: outputOf(outputs, 'sizes').data, classes: COCO_CLASSES, rows: GRID, columns: GRID };
    return decodeCenterNet(maps, { classIds: PLATE_CARRYING_CLASSES, minScore: options.minScore ?? 0.2 });
  });
  return nonMaxSuppression(found, options.iouThreshold ?? 0.5).map(({ x, y, width, height, score }) => ({ x, y, width, height, score }));
}
