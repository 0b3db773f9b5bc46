import type { PinholeCamera } from './camera.js';
import { layoutDisagreement } from './layout-agreement.js';
import { layoutLabelMap, type RoomBox } from './room-box.js';
import type { RoomSegmentation } from './room-segmentation.js';

export interface MapFitOptions {
  /** Map pixels whose layout class the network gives less probability than this are not compared. Default 0.6. */
  minConfidence?: number;
  /** Longer side of the grid the box is compared on (the map is sampled down to it). Default 160. */
  gridSize?: number;
  /** Most evaluations of the disagreement. Default 600. */
  maxEvaluations?: number;
  /** The start is kept, unsearched, when it disagrees with less of the map than this. Default 0. */
  minDisagreement?: number;
}

export interface MapFit {
  box: RoomBox;
  /** Share of the compared map pixels the start's faces disagree with, and the fit's. */
  before: number;
  after: number;
}

/** Largest move of a wall, the front wall or the ceiling, as the logarithm of its distance's ratio to the start's. */
const MAX_MOVE = 2;

/**
 * The box, seen by the same camera, whose faces agree best with the room network's layout map pixel by pixel,
 * searched from a start (the box fitter's). The fitter weighs the lines' support against the map's orientations, and
 * lines that are no room edge (an arched window's, a picture rail's) can pull a boundary off the map
 * (empty_room_02: 16.6 % wrong against the map's 2.7 %); here only the map counts. A pattern search (Hooke and
 * Jeeves) moves the left, right and front walls and the ceiling, halving its steps when no move helps; the floor
 * stays, since a box has no scale of its own.
 *
 * Only the map's confident pixels are compared; walls are matched one to one by overlap, since the network names
 * walls by the camera and the box by the room.
 */
export function fitBoxToLayoutMap(camera: PinholeCamera, box: RoomBox, map: RoomSegmentation, options: MapFitOptions = {}): MapFit {
  const grid = mapGrid(map, options.gridSize ?? 160, options.minConfidence ?? 0.6);
  const maxEvaluations = options.maxEvaluations ?? 600;
  const distances = ['left', 'right', 'front', 'ceiling'] as const;
  // The logarithms of each distance's ratio to the start's.
  const moved = (p: readonly number[]): RoomBox => {
    const out = { ...box };
    distances.forEach((key, k) => (out[key] = box[key] * Math.exp(p[k]!)));
    return out;
  };
  let evaluations = 0;
  const cost = (p: readonly number[]) => {
    evaluations++;
    return layoutDisagreement(layoutLabelMap(camera, moved(p), grid.width, grid.height), grid.labels, grid.compared);
  };
  const steps = distances.map(() => 0.15);
  const minStep = 0.15 / 64;
  let best = distances.map(() => 0);
  const before = cost(best);
  let bestCost = before;
  while (before >= (options.minDisagreement ?? 0) && evaluations < maxEvaluations && steps.some((s) => s >= minStep)) {
    let improved = false;
    for (let k = 0; k < best.length && evaluations < maxEvaluations; k++) {
      if (steps[k]! < minStep) continue;
      for (const sign of [1, -1]) {
        const trial = best.slice();
        trial[k] = trial[k]! + sign * steps[k]!;
        if (Math.abs(trial[k]!) > MAX_MOVE) continue;
        const c = cost(trial);
        if (c < bestCost - 1e-9) {
          best = trial;
          bestCost = c;
          improved = true;
          break;
        }
      }
    }
    if (!improved) for (let k = 0; k < steps.length; k++) steps[k] = steps[k]! / 2;
  }
  return { box: moved(best), before, after: bestCost };
}

/** Mean probability of the winning layout class over the map: how sure the network is of its own layout. */
export function layoutMapConfidence(map: RoomSegmentation): number {
  let sum = 0;
  for (let i = 0; i < map.layoutConfidence.length; i++) sum += map.layoutConfidence[i]!;
  return map.layoutConfidence.length > 0 ? sum / map.layoutConfidence.length : 0;
}

/** The map's layout at the grid's size, and which of its pixels are confident enough to compare. */
function mapGrid(map: RoomSegmentation, gridSize: number, minConfidence: number): { width: number; height: number; labels: Uint8Array; compared: Uint8Array } {
  const scale = Math.min(1, gridSize / Math.max(map.width, map.height));
  const width = Math.max(1, Math.round(map.width * scale));
  const height = Math.max(1, Math.round(map.height * scale));
  const labels = new Uint8Array(width * height);
  const compared = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(map.height - 1, Math.floor(((y + 0.5) / height) * map.height));
    for (let x = 0; x < width; x++) {
      const k = sy * map.width + Math.min(map.width - 1, Math.floor(((x + 0.5) / width) * map.width));
      // The map's classes are room-box's faces in the same order: floor, ceiling, then the walls.
      labels[y * width + x] = map.layout[k]!;
      compared[y * width + x] = map.layoutConfidence[k]! >= minConfidence ? 1 : 0;
    }
  }
  return { width, height, labels, compared };
}
