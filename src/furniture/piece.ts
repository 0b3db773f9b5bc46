import type { PieceGeometry, PiecePart } from './generator.js';
import type { Material } from './materials.js';
import { bounds, translate, type Mesh, type Vec3 } from './mesh.js';

/** Putting a built piece together: its named parts and the frame they are placed in. */

/** A part of a piece; `grain` only where given (a part without one has no grain key at all). */
export function part(name: string, mesh: Mesh, material: string, grain?: 'x' | 'y' | 'z'): PiecePart {
  return grain ? { name, mesh, material, grain } : { name, mesh, material };
}

/** A grain along `axis` for wood and painted wood, none for other materials (spread it into a PiecePart). */
export function woodGrain(material: Material, axis: 'x' | 'y' | 'z'): { grain?: 'x' | 'y' | 'z' } {
  return material.kind === 'wood' || material.kind === 'painted-wood' ? { grain: axis } : {};
}

/**
 * The piece with its parts centred on X and Y at the origin and its lowest point at `elevation`, so that it can be
 * built in whatever frame is convenient; materials no part uses are dropped.
 */
export function finish(parts: PiecePart[], materials: Record<string, Material>, elevation = 0): PieceGeometry {
  const b = bounds(...parts.map((p) => p.mesh));
  const shift: Vec3 = [-(b.min[0] + b.max[0]) / 2, -(b.min[1] + b.max[1]) / 2, elevation - b.min[2]];
  const used = new Set(parts.map((p) => p.material));
  const kept: Record<string, Material> = {};
  for (const [key, material] of Object.entries(materials)) if (used.has(key)) kept[key] = material;
  return { parts: parts.map((p) => ({ ...p, mesh: translate(p.mesh, shift) })), materials: kept };
}
