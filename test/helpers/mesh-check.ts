import { signedVolume, type Mesh } from '../../src/furniture/mesh.js';

/**
 * What keeps a mesh from being a closed, outward-oriented surface: edges not shared by exactly two faces in opposite
 * directions, degenerate faces, non-finite vertices, and a negative enclosed volume (normals pointing in).
 */
export function closedMeshProblems(mesh: Mesh): string[] {
  const problems: string[] = [];
  if (mesh.vertices.some((v) => !v.every(Number.isFinite))) problems.push('non-finite vertex');
  const directed = new Map<string, number>();
  for (const face of mesh.faces) {
    if (face.length < 3 || new Set(face).size !== face.length) problems.push(`degenerate face ${face.join(',')}`);
    for (let i = 0; i < face.length; i++) {
      const key = `${face[i]}>${face[(i + 1) % face.length]}`;
      directed.set(key, (directed.get(key) ?? 0) + 1);
    }
  }
  let open = 0;
  for (const [key, count] of directed) {
    const [a, b] = key.split('>');
    if (count !== 1 || directed.get(`${b}>${a}`) !== 1) open++;
  }
  if (open > 0) problems.push(`${open} edges not shared by exactly two opposite faces`);
  if (signedVolume(mesh) <= 0) problems.push(`enclosed volume ${signedVolume(mesh)} is not positive (normals inward)`);
  return problems;
}
