import type { Random } from '../random.js';
import type { Material } from './materials.js';
import type { Mesh } from './mesh.js';
import type { StyleProfile } from './styles.js';

/**
 * How a piece stands: what the planner needs without building the mesh. Metres, in the piece's frame (origin at the
 * centre of its footprint on the floor, X across, Y from front to back, front facing −Y, Z up).
 */
export interface Footprint {
  width: number;
  depth: number;
  height: number;
  /** Where it goes: on the floor anywhere, on the floor with its back to a wall, or hung on a wall. */
  placement: 'floor' | 'against-wall' | 'on-wall';
  /** Height of its lowest point above the floor: 0 on the floor, the hanging height for wall pieces. */
  elevation: number;
  /** Free floor it needs in front to be used (sitting down, opening doors and drawers), metres. */
  frontClearance: number;
}

/** One closed mesh of a piece, with one material; `grain` orients wood grain and weaves along a part's length. */
export interface PiecePart {
  name: string;
  mesh: Mesh;
  /** Key into the piece's `materials`. */
  material: string;
  grain?: 'x' | 'y' | 'z';
}

export interface PieceGeometry {
  parts: PiecePart[];
  materials: Record<string, Material>;
}

/** Caps from the planner or the request: the sample stays inside them where the piece's real sizes allow it. */
export interface SizeLimits {
  maxWidth?: number;
  maxDepth?: number;
  maxHeight?: number;
}

/**
 * One furniture family: `sample` draws the parameters for a catalog id in a style (real-world dimensions, the
 * style's arm, leg and material choices), `footprint` is the cheap box the planner works with, `build` the detailed
 * mesh, made only for what is placed. All three are pure: the same parameters give the same piece.
 */
export interface FurnitureGenerator<P extends object = object> {
  /** The catalog ids (GET /v1/furnitures) this generator builds. */
  ids: readonly string[];
  sample(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): P;
  footprint(params: P): Footprint;
  build(params: P): PieceGeometry;
}

/** Lets TypeScript infer a generator's parameter type from its `sample`. */
export function defineGenerator<P extends object>(generator: FurnitureGenerator<P>): FurnitureGenerator<P> {
  return generator;
}

/** A value in [min, max] capped by a limit, never below `floor` (a piece has a smallest real size). */
export function capped(value: number, limit: number | undefined, floor: number): number {
  return limit === undefined ? value : Math.max(floor, Math.min(value, limit));
}
