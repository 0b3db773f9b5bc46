import { connectedComponents } from '../connected-components.js';
import { dilateSquare } from '../mask-morphology.js';

/** A mask on a grid of its own (1 = in), covering the whole photo: the grids differ only in their cell size. */
export interface GridMask {
  width: number;
  height: number;
  mask: Uint8Array;
}

/** How a relaid floor and the floor seen cover each other. */
export interface FloorCoverage {
  /** The floor seen (less what is kept out), as a share of the photo. */
  seenShare: number;
  /** The share of that floor the relaid floor does not reach. */
  leftShare: number;
  /** The largest connected piece of it, as a share of the floor seen. */
  largestShare: number;
  /**
   * The share of the relaid floor's edge along which the floor seen goes on: of the cells `edgeDepth` cells outside the
   * relaid floor (kept-out cells aside), those that are floor seen. A thin strip of old floor along the new one's edge
   * is little of the floor's area but much of its edge.
   */
  openEdgeShare: number;
  /** The share of the relaid floor that lies on (or within the tolerance of) the floor seen. */
  onFloorShare: number;
}

/**
 * The floor seen (`seen`, e.g. the room network's floor class) that the relaid floor (`relaid`) would not reach, and
 * the share of the relaid floor that is floor seen, on `seen`'s grid: a cell of it is relaid when at least half of the `relaid` cells it holds are, and the relaid
 * region is grown by `tolerance` cells first, because the two masks' borders are drawn by different means (the
 * network's is a few of its cells wide). Cells of `keptOut` (on `seen`'s grid: windows and doors with the floor seen
 * through them, which no relaid floor should reach) are neither counted nor left.
 *
 * A floor relaid on the layout's floor face alone stops short where the layout misplaced a wall, or where the floor
 * goes on past a partition into the next space; the old floor then runs on beside the new one, a patchwork. Where it
 * stops a little short along a stretch (a kitchen counter's foot the box has no face for), the old floor shows as a
 * strip: `openEdgeShare` measures that along the edge, `edgeDepth` cells out (past the borders' disagreement).
 */
export function floorCoverage(seen: GridMask, relaid: GridMask, keptOut: Uint8Array, tolerance: number, edgeDepth: number): FloorCoverage {
  const { width, height } = seen;
  const counts = new Uint32Array(width * height);
  const totals = new Uint32Array(width * height);
  for (let y = 0; y < relaid.height; y++) {
    const row = Math.min(height - 1, Math.floor(((y + 0.5) * height) / relaid.height)) * width;
    for (let x = 0; x < relaid.width; x++) {
      const cell = row + Math.min(width - 1, Math.floor(((x + 0.5) * width) / relaid.width));
      totals[cell]!++;
      counts[cell]! += relaid.mask[y * relaid.width + x] ? 1 : 0;
    }
  }
  // A cell no relaid cell falls in (a grid finer than the relaid one) takes the nearest relaid cell's value.
  const reached = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const cell = y * width + x;
      if (totals[cell]! > 0) {
        reached[cell] = 2 * counts[cell]! >= totals[cell]! ? 1 : 0;
      } else {
        const ry = Math.min(relaid.height - 1, Math.floor(((y + 0.5) * relaid.height) / height));
        const rx = Math.min(relaid.width - 1, Math.floor(((x + 0.5) * relaid.width) / width));
        reached[cell] = relaid.mask[ry * relaid.width + rx] ? 1 : 0;
      }
    }
  }
  const grown = tolerance > 0 ? dilateSquare(reached, width, height, tolerance) : reached;
  const left = new Uint8Array(width * height);
  let floor = 0;
  let leftCount = 0;
  for (let i = 0; i < left.length; i++) {
    if (!seen.mask[i] || keptOut[i]) continue;
    floor++;
    if (!grown[i]) {
      left[i] = 1;
      leftCount++;
    }
  }
  const nearFloor = tolerance > 0 ? dilateSquare(seen.mask, width, height, tolerance) : seen.mask;
  let relaidCount = 0;
  let onFloor = 0;
  for (let i = 0; i < reached.length; i++) {
    if (!reached[i]) continue;
    relaidCount++;
    if (nearFloor[i]) onFloor++;
  }
  const onFloorShare = relaidCount > 0 ? onFloor / relaidCount : 0;
  const openEdgeShare = openEdge(seen.mask, reached, keptOut, width, height, edgeDepth);
  if (floor === 0) return { seenShare: 0, leftShare: 0, largestShare: 0, openEdgeShare, onFloorShare };
  const largest = connectedComponents(left, width, height).reduce((most, piece) => Math.max(most, piece.pixels.length), 0);
  return { seenShare: floor / (width * height), leftShare: leftCount / floor, largestShare: largest / floor, openEdgeShare, onFloorShare };
}

/** Of the cells `depth` cells outside `reached` (square distance, `keptOut` aside), the share that `seen` holds. */
function openEdge(seen: Uint8Array, reached: Uint8Array, keptOut: Uint8Array, width: number, height: number, depth: number): number {
  const inner = depth > 1 ? dilateSquare(reached, width, height, depth - 1) : reached;
  const outer = dilateSquare(reached, width, height, depth);
  let ring = 0;
  let open = 0;
  for (let i = 0; i < outer.length; i++) {
    if (!outer[i] || inner[i] || keptOut[i]) continue;
    ring++;
    if (seen[i]) open++;
  }
  return ring > 0 ? open / ring : 0;
}
