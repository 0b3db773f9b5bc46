import { Random } from '../random.js';
import type { Footprint, FurnitureGenerator, PieceGeometry, SizeLimits } from './generator.js';
import { BED_GENERATORS } from './generators/beds.js';
import { CHAIR_GENERATORS } from './generators/chairs.js';
import { DECOR_GENERATORS } from './generators/decor.js';
import { FIXTURE_GENERATORS } from './generators/fixtures.js';
import { SEATING_GENERATORS } from './generators/seating.js';
import { STORAGE_GENERATORS } from './generators/storage.js';
import { TABLE_GENERATORS } from './generators/tables.js';
import { wallArtGenerator } from './generators/wall-art.js';
import { styleProfile } from './styles.js';

const GENERATORS: readonly FurnitureGenerator<object>[] = [
  ...SEATING_GENERATORS,
  ...CHAIR_GENERATORS,
  ...TABLE_GENERATORS,
  ...BED_GENERATORS,
  ...STORAGE_GENERATORS,
  ...DECOR_GENERATORS,
  wallArtGenerator,
  ...FIXTURE_GENERATORS,
] as readonly FurnitureGenerator<object>[];

const byId = new Map<string, FurnitureGenerator<object>>();
for (const generator of GENERATORS) {
  for (const id of generator.ids) {
    if (byId.has(id)) throw new Error(`two furniture generators build ${id}`);
    byId.set(id, generator);
  }
}

/** The catalog ids a generator builds. */
export function furnitureIds(): string[] {
  return [...byId.keys()];
}

/** A sampled piece: its parameters and footprint, cheap; `build()` makes the mesh. */
export interface SampledPiece {
  id: string;
  styleId: string;
  seed: number;
  params: object;
  footprint: Footprint;
  build(): PieceGeometry;
}

/**
 * One piece of a catalog id in a style, drawn from `seed`: the same three always give the same piece. The draw is
 * forked by id and style, so asking for another piece first does not change this one.
 */
export function samplePiece(id: string, styleId: string, seed: number, limits?: SizeLimits): SampledPiece {
  const generator = byId.get(id);
  if (!generator) throw new Error(`no furniture generator builds ${id}`);
  const random = new Random(seed).fork(`${id}/${styleId}`);
  const params = generator.sample(id, styleProfile(styleId), random, limits);
  return { id, styleId, seed, params, footprint: generator.footprint(params), build: () => generator.build(params) };
}
