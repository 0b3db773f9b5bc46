/**
 * How far two room layouts of one photo disagree, pixel by pixel: the share of pixels whose face differs once the
 * walls of one are matched one-to-one to the walls of the other by overlap. Wall names are not compared: two
 * layouts that see the same wall may call it left and front. The same measure scores a layout against one drawn by
 * hand (the benches) and the lines' layout against the room network's map (services/geometry/layout-trust.ts).
 */
import { CEILING, FLOOR, WALL_BACK } from './room-box.js';

/**
 * Share of the compared pixels whose face differs between `a` and `b`: label maps of one size in room-box's face ids
 * (FLOOR, CEILING, walls above; any other label is no face and agrees with nothing); only pixels where `compared` is
 * non-zero count when it is given. 0 when no pixel is compared.
 */
export function layoutDisagreement(a: Uint8Array, b: Uint8Array, compared?: Uint8Array): number {
  if (a.length !== b.length || (compared && compared.length !== a.length)) throw new Error('layoutDisagreement: label maps of different sizes');
  const overlap = new Map<number, number>();
  const wallsA = new Set<number>();
  const wallsB = new Set<number>();
  let counted = 0;
  for (let i = 0; i < a.length; i++) {
    if (compared && !compared[i]) continue;
    counted++;
    const p = a[i]!;
    const q = b[i]!;
    if (isWall(p)) wallsA.add(p);
    if (isWall(q)) wallsB.add(q);
    if (isWall(p) && isWall(q)) overlap.set(p * 256 + q, (overlap.get(p * 256 + q) ?? 0) + 1);
  }
  if (counted === 0) return 0;
  const match = bestWallMatch([...wallsA], [...wallsB], overlap);
  let differing = 0;
  for (let i = 0; i < a.length; i++) {
    if (compared && !compared[i]) continue;
    const p = a[i]!;
    const mapped = isWall(p) ? (match.get(p) ?? -1) : isFace(p) ? p : -1;
    if (mapped !== b[i]) differing++;
  }
  return differing / counted;
}

/** A label outside room-box's faces (none, 255) is no face: it matches nothing. */
function isFace(label: number): boolean {
  return label >= FLOOR && label <= WALL_BACK;
}

function isWall(label: number): boolean {
  return isFace(label) && label !== FLOOR && label !== CEILING;
}

/**
 * The one-to-one assignment of `a`'s walls to `b`'s with the most shared pixels. A room shows at most five walls, so
 * every assignment is tried (at most 5! = 120).
 */
function bestWallMatch(wallsA: number[], wallsB: number[], overlap: Map<number, number>): Map<number, number> {
  const padded = [...wallsB, ...Array<number>(Math.max(0, wallsA.length - wallsB.length)).fill(-1)];
  let best = new Map<number, number>();
  let bestShared = -1;
  for (const order of permutations(padded)) {
    let shared = 0;
    const match = new Map<number, number>();
    wallsA.forEach((wall, k) => {
      const other = order[k]!;
      if (other < 0) return;
      match.set(wall, other);
      shared += overlap.get(wall * 256 + other) ?? 0;
    });
    if (shared > bestShared) {
      bestShared = shared;
      best = match;
    }
  }
  return best;
}

/** Every ordering of `items`. */
export function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [items.slice()];
  const out: T[][] = [];
  items.forEach((item, i) => {
    for (const rest of permutations([...items.slice(0, i), ...items.slice(i + 1)])) out.push([item, ...rest]);
  });
  return out;
}
