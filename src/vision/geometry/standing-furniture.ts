import type { Box } from '../box.js';
import { connectedComponents } from '../connected-components.js';
import { LAYOUT_CLASSES, VISIBLE_CLASSES, type RoomSegmentation } from './room-segmentation.js';

export interface StandingFurnitureOptions {
  /** Least share of the image a region must cover. Default 0.002: a chair's seat at the back of a room. */
  minShare?: number;
  /** Least share of its pixels a region must have on the layout's floor. Default 0.1. */
  minOnFloor?: number;
  /** Least share of its pixels a region must have off the floor, as both maps have it. Default 0.3. */
  minOffFloor?: number;
}

const NETWORK_FLOOR = LAYOUT_CLASSES.indexOf('floor');
const STANDING_CLASSES = new Set((['furniture', 'clutter'] as const).map((c) => VISIBLE_CLASSES.indexOf(c)));

/**
 * What stands on the floor as the room network sees it: each 4-connected region of its furniture and clutter pixels
 * that lies partly on the layout's floor and rises well off it (a sofa's back against a wall, a kitchen island with
 * the fridge beside it), as its bounding box in the segmentation's pixels. `floor` is 1 where the fitted box shows
 * floor, at the segmentation's size.
 * - A region wholly on the floor is left out: on glossy floors the network calls reflections and sun patches
 *   furniture, and those lie flat on it (so does a low table seen from above, which the detectors find).
 * - A pixel is off the floor only where the network's own layout map (the room's faces behind everything) has no floor
 *   there either: where the box put the floor's edge too low, a reflection beyond it is still on the floor
 *   (empty_dining_01).
 * - On the floor is the box's alone: built-in cupboards, a terrace's railing or a door the network calls furniture
 *   reach down into its own map's floor, and would fence off whole rooms.
 * - A region wholly off the floor (wall cabinets, a painting) stands on no floor a piece could use.
 */
export function standingFurniture(segmentation: RoomSegmentation, floor: Uint8Array, options: StandingFurnitureOptions = {}): Box[] {
  const { width, height, visible, layout } = segmentation;
  if (floor.length !== width * height) throw new Error(`the floor map (${floor.length}) is not the segmentation's size (${width}×${height})`);
  const minPixels = (options.minShare ?? 0.002) * width * height;
  const minOnFloor = options.minOnFloor ?? 0.1;
  const minOffFloor = options.minOffFloor ?? 0.3;
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) if (STANDING_CLASSES.has(visible[i]!)) mask[i] = 1;
  const found: Box[] = [];
  for (const region of connectedComponents(mask, width, height)) {
    if (region.pixels.length < minPixels) continue;
    const onFloor = region.pixels.reduce((n, i) => n + floor[i]!, 0) / region.pixels.length;
    const offFloor = region.pixels.reduce((n, i) => n + (!floor[i] && layout[i] !== NETWORK_FLOOR ? 1 : 0), 0) / region.pixels.length;
    if (onFloor < minOnFloor || offFloor < minOffFloor) continue;
    found.push({ x: region.x, y: region.y, width: region.width, height: region.height });
  }
  return found;
}
