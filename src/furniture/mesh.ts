/**
 * Closed triangle-and-quad meshes for procedural furniture, in metres. Every primitive here returns a watertight,
 * consistently oriented surface (each edge shared by exactly two faces, in opposite directions, normals outward), so
 * Cycles shades it without holes and a test can prove it for every generated piece.
 *
 * A piece's frame: origin at the centre of its footprint on the floor, X along its width (left to right seen from
 * its front), Y from its front to its back (the front faces −Y), Z up.
 */

export type Vec3 = [number, number, number];

export interface Mesh {
  /** Vertex positions. */
  vertices: Vec3[];
  /** Polygons as vertex indices, counter-clockwise seen from outside. */
  faces: number[][];
}

/** Joins meshes into one (their surfaces stay separate closed shells). */
export function merge(...meshes: Mesh[]): Mesh {
  const vertices: Vec3[] = [];
  const faces: number[][] = [];
  for (const mesh of meshes) {
    const offset = vertices.length;
    vertices.push(...mesh.vertices.map((v) => [v[0], v[1], v[2]] as Vec3));
    faces.push(...mesh.faces.map((f) => f.map((i) => i + offset)));
  }
  return { vertices, faces };
}

/** Moves every vertex by `fn`; faces keep their order, so a deformation that does not fold keeps the mesh closed. */
export function deform(mesh: Mesh, fn: (v: Vec3) => Vec3): Mesh {
  return { vertices: mesh.vertices.map((v) => fn([v[0], v[1], v[2]])), faces: mesh.faces };
}

export function translate(mesh: Mesh, t: Vec3): Mesh {
  return deform(mesh, (v) => [v[0] + t[0], v[1] + t[1], v[2] + t[2]]);
}

/** Scales about the origin; a negative factor count that is odd mirrors the mesh, so the faces are flipped back. */
export function scale(mesh: Mesh, s: Vec3): Mesh {
  const scaled = deform(mesh, (v) => [v[0] * s[0], v[1] * s[1], v[2] * s[2]]);
  const negatives = s.filter((k) => k < 0).length;
  return negatives % 2 === 1 ? { vertices: scaled.vertices, faces: scaled.faces.map((f) => [...f].reverse()) } : scaled;
}

/** Rotation about an axis through the origin by `angle` radians (right-handed). */
export function rotate(mesh: Mesh, axis: 'x' | 'y' | 'z', angle: number): Mesh {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return deform(mesh, ([x, y, z]) => {
    if (axis === 'x') return [x, c * y - s * z, s * y + c * z];
    if (axis === 'y') return [c * x + s * z, y, -s * x + c * z];
    return [c * x - s * y, s * x + c * y, z];
  });
}

/** Mirror image across the plane X = 0 (a left arm from a right one). */
export function mirrorX(mesh: Mesh): Mesh {
  return scale(mesh, [-1, 1, 1]);
}

/** Stands a mesh drawn flat (outline in XY with y up, thickness along +Z toward the viewer) upright: y → z, z → −y. */
export function standUp(mesh: Mesh): Mesh {
  return rotate(mesh, 'x', Math.PI / 2);
}

/** Leans what is above z0 back (towards +Y) by `slope` metres per metre of height: a reclining back. */
export function shearY(mesh: Mesh, z0: number, slope: number): Mesh {
  return deform(mesh, ([x, y, z]) => [x, y + Math.max(0, z - z0) * slope, z]);
}

/** Axis-aligned bounds of one mesh, or of several together. */
export function bounds(...meshes: Mesh[]): { min: Vec3; max: Vec3 } {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const mesh of meshes) {
    for (const v of mesh.vertices) {
      for (let k = 0; k < 3; k++) {
        if (v[k]! < min[k]!) min[k] = v[k]!;
        if (v[k]! > max[k]!) max[k] = v[k]!;
      }
    }
  }
  return { min, max };
}

/** Volume enclosed by a closed mesh, positive when its faces are counter-clockwise seen from outside. */
export function signedVolume(mesh: Mesh): number {
  let volume = 0;
  for (const face of mesh.faces) {
    const a = mesh.vertices[face[0]!]!;
    for (let i = 1; i + 1 < face.length; i++) {
      const b = mesh.vertices[face[i]!]!;
      const c = mesh.vertices[face[i + 1]!]!;
      volume += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6;
    }
  }
  return volume;
}

/**
 * The mesh with its faces reversed if they point inward. For surfaces built from parametric rings or deformed by a
 * mapping whose handedness is not obvious (a loop's rings, a board bent along a line): working out the winding for
 * every case is error-prone, and the sign of the enclosed volume settles it.
 */
export function orientOutward(mesh: Mesh): Mesh {
  return signedVolume(mesh) >= 0 ? mesh : { vertices: mesh.vertices, faces: mesh.faces.map((f) => [...f].reverse()) };
}

/**
 * Grid coordinates along one axis of a rounded box, from −half to +half: `segments` steps through each rounded edge
 * and the flat span between them cut into `flatSteps` equal steps.
 */
function roundedSteps(half: number, radius: number, segments: number, flatSteps: number): number[] {
  const inner = half - radius;
  const steps: number[] = [];
  const rounded = radius > 0 && segments >= 1;
  if (rounded) for (let i = 0; i <= segments; i++) steps.push(-half + (radius * i) / segments);
  else steps.push(-half);
  for (let i = 1; i <= flatSteps; i++) steps.push(-inner + (2 * inner * i) / flatSteps);
  if (rounded) for (let i = 1; i <= segments; i++) steps.push(inner + (radius * i) / segments);
  return steps.filter((v, i, all) => i === 0 || v - all[i - 1]! > 1e-9);
}

/**
 * A box of `size` centred on `center` whose edges and corners are rounded with `radius` (a bevel that catches
 * light: sharp edges read as computer graphics). `segments` steps per rounded edge; radius 0 gives a plain box.
 *
 * `flatSteps` cuts the flat span along X, Y and Z into that many equal steps. With the default of one step each flat
 * face is a single quad, which is all a rigid box needs; a box that is deformed afterwards (a cushion's sag, a duvet's
 * rumples, a tufting dimple, a bent arm) needs vertices in the middle of its faces to move.
 */
export function roundedBox(center: Vec3, size: Vec3, radius = 0, segments = 3, flatSteps: readonly [number, number, number] = [1, 1, 1]): Mesh {
  const half: Vec3 = [size[0] / 2, size[1] / 2, size[2] / 2];
  const r = Math.max(0, Math.min(radius, half[0], half[1], half[2]));
  const steps = half.map((h, k) => roundedSteps(h, r, r > 0 ? segments : 0, Math.max(1, Math.round(flatSteps[k]!)))) as [number[], number[], number[]];
  const counts: Vec3 = [steps[0].length, steps[1].length, steps[2].length];
  const vertices: Vec3[] = [];
  // Grid points are shared by neighbouring faces: weld them by their grid indices (a number key, not printed
  // coordinates: beds and sofas build hundreds of boxes and subdivided ones have thousands of points).
  const index = new Map<number, number>();
  const vertexAt = (g: Vec3, p: Vec3): number => {
    const key = g[0] + counts[0] * (g[1] + counts[1] * g[2]);
    const found = index.get(key);
    if (found !== undefined) return found;
    const inner: Vec3 = [0, 0, 0];
    for (let k = 0; k < 3; k++) inner[k] = Math.max(-half[k]! + r, Math.min(half[k]! - r, p[k]!));
    const d: Vec3 = [p[0] - inner[0], p[1] - inner[1], p[2] - inner[2]];
    const length = Math.hypot(d[0], d[1], d[2]);
    const surface: Vec3 = length > 1e-12 && r > 0 ? [inner[0] + (d[0] / length) * r, inner[1] + (d[1] / length) * r, inner[2] + (d[2] / length) * r] : p;
    vertices.push([surface[0] + center[0], surface[1] + center[1], surface[2] + center[2]]);
    index.set(key, vertices.length - 1);
    return vertices.length - 1;
  };
  const faces: number[][] = [];
  // Each face: the fixed axis and its sign, and the two running axes ordered so the normal points outward.
  const sides: [number, 1 | -1, number, number][] = [
    [0, 1, 1, 2],
    [0, -1, 2, 1],
    [1, 1, 2, 0],
    [1, -1, 0, 2],
    [2, 1, 0, 1],
    [2, -1, 1, 0],
  ];
  for (const [axis, sign, a, b] of sides) {
    const sa = steps[a]!;
    const sb = steps[b]!;
    const fixed = sign > 0 ? counts[axis]! - 1 : 0;
    const corner = (ia: number, jb: number): number => {
      const g: Vec3 = [0, 0, 0];
      const p: Vec3 = [0, 0, 0];
      g[axis] = fixed;
      p[axis] = sign * half[axis]!;
      g[a] = ia;
      p[a] = sa[ia]!;
      g[b] = jb;
      p[b] = sb[jb]!;
      return vertexAt(g, p);
    };
    for (let i = 0; i + 1 < sa.length; i++) {
      for (let j = 0; j + 1 < sb.length; j++) faces.push([corner(i, j), corner(i + 1, j), corner(i + 1, j + 1), corner(i, j + 1)]);
    }
  }
  return { vertices, faces };
}

/** A rounded box given by its lower and upper corners (see roundedBox for `flatSteps`). */
export function roundedBoxBetween(min: Vec3, max: Vec3, radius = 0, segments = 3, flatSteps: readonly [number, number, number] = [1, 1, 1]): Mesh {
  return roundedBox(
    [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2],
    [max[0] - min[0], max[1] - min[1], max[2] - min[2]],
    radius,
    segments,
    flatSteps,
  );
}

/**
 * Joins rings of points into one surface, ring k to ring k + 1: rings are counter-clockwise seen from above when they
 * stand for an outer wall going up, all of the same number of points or of one point (a pole). An open loft is capped
 * with a flat polygon at both ends (keep end rings planar and convex); a `closed` one joins the last ring back to the
 * first instead (a torus-like shell: rims, frames, rolled edges).
 */
export function loft(rings: readonly (readonly Vec3[])[], closed = false): Mesh {
  const vertices: Vec3[] = [];
  const faces: number[][] = [];
  const indices = rings.map((ring) =>
    ring.map((p) => {
      vertices.push([p[0], p[1], p[2]]);
      return vertices.length - 1;
    }),
  );
  const count = indices.length;
  const pairs = closed ? count : count - 1;
  for (let k = 0; k < pairs; k++) {
    const lower = indices[k]!;
    const upper = indices[(k + 1) % count]!;
    if (lower.length === 1 && upper.length === 1) continue;
    const n = Math.max(lower.length, upper.length);
    for (let s = 0; s < n; s++) {
      const t = (s + 1) % n;
      if (lower.length === 1) faces.push([lower[0]!, upper[t]!, upper[s]!]);
      else if (upper.length === 1) faces.push([lower[s]!, lower[t]!, upper[0]!]);
      else faces.push([lower[s]!, lower[t]!, upper[t]!, upper[s]!]);
    }
  }
  if (!closed) {
    const first = indices[0]!;
    const last = indices[count - 1]!;
    if (first.length > 1) faces.push([...first].reverse());
    if (last.length > 1) faces.push([...last]);
  }
  return { vertices, faces };
}

/**
 * A surface of revolution about the Z axis through (0, 0): `profile` is a list of (radius, z) points from bottom to
 * top. An end with radius 0 closes at a pole; an end with a radius closes with a flat cap.
 */
export function lathe(profile: [number, number][], segments = 24): Mesh {
  // The angle runs counter-clockwise seen from above, so the rings face out as loft wants them.
  return loft(
    profile.map(([radius, z]): Vec3[] => {
      if (radius <= 1e-9) return [[0, 0, z]];
      const ring: Vec3[] = [];
      for (let s = 0; s < segments; s++) {
        const angle = (2 * Math.PI * s) / segments;
        ring.push([radius * Math.cos(angle), radius * Math.sin(angle), z]);
      }
      return ring;
    }),
  );
}

/**
 * The (radius, z) profile of a cylinder's side from z0 to z1 whose bottom and top rims are rounded off by `bevel`,
 * for lathe(): it ends `bevel` in from the rim at both ends.
 */
export function bevelledSide(radiusBottom: number, radiusTop: number, z0: number, z1: number, bevel: number): [number, number][] {
  const b = bevel;
  return [
    [radiusBottom - b, z0],
    [radiusBottom - b * 0.3, z0 + b * 0.3],
    [radiusBottom, z0 + b],
    [radiusTop, z1 - b],
    [radiusTop - b * 0.3, z1 - b * 0.3],
    [radiusTop - b, z1],
  ];
}

/** A (possibly tapered) cylinder standing on z0, `segments` sides; `bevel` rounds its top and bottom rims. */
export function cylinder(radiusBottom: number, radiusTop: number, z0: number, z1: number, segments = 16, bevel = 0): Mesh {
  const b = Math.min(bevel, (z1 - z0) / 3, radiusBottom / 2, radiusTop / 2);
  if (b <= 0) return lathe([[radiusBottom, z0], [radiusTop, z1]], segments);
  return lathe(bevelledSide(radiusBottom, radiusTop, z0, z1, b), segments);
}

/** A closed ellipsoid of semi-axes `radii` centred on `center`. */
export function ellipsoid(center: Vec3, radii: Vec3, segments = 16): Mesh {
  const rings = Math.max(4, Math.round(segments / 2));
  const profile: [number, number][] = [];
  for (let i = 0; i <= rings; i++) {
    const phi = -Math.PI / 2 + (Math.PI * i) / rings;
    profile.push([Math.cos(phi), Math.sin(phi)]);
  }
  profile[0] = [0, -1];
  profile[rings] = [0, 1];
  return deform(lathe(profile, segments), ([x, y, z]) => [center[0] + x * radii[0], center[1] + y * radii[1], center[2] + z * radii[2]]);
}

/**
 * A round tube of `radius` along a polyline (metal frames, rails, handles), capped at both ends; corners are mitred
 * by averaging the neighbouring directions.
 */
export function tube(path: Vec3[], radius: number, segments = 10): Mesh {
  if (path.length < 2) throw new Error('a tube needs at least two points');
  const vertices: Vec3[] = [];
  const faces: number[][] = [];
  const dirs = path.slice(1).map((p, i) => normalize(sub(p, path[i]!)));
  let normal = anyPerpendicular(dirs[0]!);
  for (let k = 0; k < path.length; k++) {
    // The ring is a circle around the incoming segment (the first one at the start), carried along it onto the
    // joint's bisecting plane: an exact mitre, so the tube keeps its radius through every bend.
    const incoming = dirs[Math.max(0, k - 1)]!;
    normal = normalize(sub(normal, scaleVec(incoming, dot(normal, incoming))));
    const binormal = cross(incoming, normal);
    const interior = k > 0 && k < path.length - 1;
    const bisector = interior ? normalize(add(dirs[k - 1]!, dirs[k]!)) : incoming;
    for (let s = 0; s < segments; s++) {
      const angle = (2 * Math.PI * s) / segments;
      const offset = add(scaleVec(normal, Math.cos(angle) * radius), scaleVec(binormal, Math.sin(angle) * radius));
      const slide = interior ? -dot(offset, bisector) / dot(incoming, bisector) : 0;
      vertices.push(add(path[k]!, add(offset, scaleVec(incoming, slide))));
    }
  }
  for (let k = 0; k + 1 < path.length; k++) {
    for (let s = 0; s < segments; s++) {
      const t = (s + 1) % segments;
      const a = k * segments;
      const b = (k + 1) * segments;
      faces.push([a + s, a + t, b + t, b + s]);
    }
  }
  const first: number[] = [];
  const last: number[] = [];
  for (let s = 0; s < segments; s++) {
    first.push(s);
    last.push((path.length - 1) * segments + s);
  }
  faces.push(first.reverse());
  faces.push(last);
  return { vertices, faces };
}

/** A straight round rod between two points (a tube of one segment). */
export function rod(a: Vec3, b: Vec3, radius: number, segments = 12): Mesh {
  return tube([a, b], radius, segments);
}

/**
 * A prism: the polygon (counter-clockwise, in the XY plane) extruded from z0 to z1. Convex or star-shaped about
 * its centroid (the caps are fans from it).
 */
export function prism(polygon: [number, number][], z0: number, z1: number): Mesh {
  const n = polygon.length;
  const cx = polygon.reduce((s, p) => s + p[0], 0) / n;
  const cy = polygon.reduce((s, p) => s + p[1], 0) / n;
  const vertices: Vec3[] = [
    ...polygon.map(([x, y]) => [x, y, z0] as Vec3),
    ...polygon.map(([x, y]) => [x, y, z1] as Vec3),
    [cx, cy, z0],
    [cx, cy, z1],
  ];
  const faces: number[][] = [];
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    faces.push([i, j, n + j, n + i]);
    faces.push([2 * n, j, i]);
    faces.push([2 * n + 1, n + i, n + j]);
  }
  return { vertices, faces };
}

function sub(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
function add(a: Vec3, b: Vec3): Vec3 {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
}
function scaleVec(a: Vec3, k: number): Vec3 {
  return [a[0] * k, a[1] * k, a[2] * k];
}
function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
export function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
/** The unit vector along `a`; a zero vector gives +Z. */
export function normalize(a: Vec3): Vec3 {
  const length = Math.hypot(a[0], a[1], a[2]);
  return length > 0 ? [a[0] / length, a[1] / length, a[2] / length] : [0, 0, 1];
}
function anyPerpendicular(d: Vec3): Vec3 {
  const helper: Vec3 = Math.abs(d[2]) < 0.9 ? [0, 0, 1] : [1, 0, 0];
  return normalize(cross(d, helper));
}
