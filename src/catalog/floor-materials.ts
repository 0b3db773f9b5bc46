/**
 * The floor materials a refresh lays and a redesign's style names (vision/restyle/floor-materials.ts generates them
 * from a seed): what each looks like, in metres and sRGB.
 */
export type FloorPattern = 'planks' | 'chevron' | 'tiles' | 'carpet' | 'concrete';

export interface FloorMaterial {
  id: string;
  /** What the material is, for the API's documentation and error messages. */
  description: string;
  pattern: FloorPattern;
  /** Mean albedo as an sRGB colour (what the surface looks like under white light). */
  colour: string;
  /** Board or block width, or tile side, metres. */
  size: number;
  /** Board length range, or the chevron block's length, metres. */
  length?: [number, number];
  /** Seam (gap or grout) width in metres, and its sRGB colour. */
  seam?: { width: number; colour: string };
  /** Relative spread of the per-board or per-tile lightness (0.1 = ±10 %). */
  pieceVariation: number;
  /** Strength of the grain (wood), fibre (carpet) or mottling (stone, concrete), relative to the albedo. */
  grain: number;
  /** Dark veins of a marble, with their sRGB colour. */
  veins?: { colour: string; strength: number };
}

/** The catalog, with the public twin's names first (hardwood and parquet both wooden, as the twin lists them). */
export const FLOOR_MATERIALS: readonly FloorMaterial[] = [
  { id: 'parquet', description: 'oak blocks laid in chevron', pattern: 'chevron', colour: '#a87a4e', size: 0.09, length: [0.45, 0.45], seam: { width: 0.0015, colour: '#4a3220' }, pieceVariation: 0.12, grain: 0.12 },
  { id: 'tile', description: 'light grey porcelain tiles, 60 cm', pattern: 'tiles', colour: '#cfcbc4', size: 0.6, seam: { width: 0.003, colour: '#8f8a82' }, pieceVariation: 0.03, grain: 0.03 },
  { id: 'marble', description: 'white marble with grey veins, 60 cm slabs', pattern: 'tiles', colour: '#e6e3de', size: 0.6, seam: { width: 0.0015, colour: '#b5b1aa' }, pieceVariation: 0.02, grain: 0.02, veins: { colour: '#8a8a8c', strength: 0.55 } },
  { id: 'carpet', description: 'beige wall-to-wall carpet', pattern: 'carpet', colour: '#b8a68c', size: 0.004, pieceVariation: 0, grain: 0.1 },
  { id: 'concrete', description: 'polished grey concrete', pattern: 'concrete', colour: '#9c9a96', size: 0.5, pieceVariation: 0, grain: 0.12 },
  { id: 'hardwood', description: 'oak planks, 18 cm wide', pattern: 'planks', colour: '#9a6c44', size: 0.18, length: [0.9, 2.2], seam: { width: 0.0015, colour: '#3e2816' }, pieceVariation: 0.14, grain: 0.16 },
  { id: 'light-oak', description: 'pale oak planks, 20 cm wide', pattern: 'planks', colour: '#c9a77e', size: 0.2, length: [1.2, 2.4], seam: { width: 0.0012, colour: '#7a5c3c' }, pieceVariation: 0.1, grain: 0.12 },
  { id: 'walnut', description: 'dark walnut planks, 14 cm wide', pattern: 'planks', colour: '#5a3c28', size: 0.14, length: [0.7, 1.8], seam: { width: 0.0015, colour: '#24160d' }, pieceVariation: 0.16, grain: 0.2 },
  { id: 'slate-tile', description: 'dark slate tiles, 30 cm', pattern: 'tiles', colour: '#4b4e52', size: 0.3, seam: { width: 0.004, colour: '#6e6a64' }, pieceVariation: 0.1, grain: 0.1 },
  { id: 'terracotta', description: 'terracotta tiles, 30 cm', pattern: 'tiles', colour: '#b0673f', size: 0.3, seam: { width: 0.005, colour: '#d8cbb6' }, pieceVariation: 0.1, grain: 0.08 },
  { id: 'grey-carpet', description: 'mid-grey wall-to-wall carpet', pattern: 'carpet', colour: '#8a8987', size: 0.004, pieceVariation: 0, grain: 0.12 },
];

export const FLOOR_MATERIAL_IDS: readonly string[] = FLOOR_MATERIALS.map((m) => m.id);

export function floorMaterial(id: string): FloorMaterial | undefined {
  return FLOOR_MATERIALS.find((m) => m.id === id);
}

