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

/** Axis-aligned bounds. */
export function bounds(mesh: Mesh): { min: Vec3; max: Vec3 } {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const v of mesh.vertices) {
    for (let k = 0; k < 3; k++) {
      if (v[k]! < min[k]!) min[k] = v[k]!;
      if (v[k]! > max[k]!) max[k] = v[k]!;
    }
  }
  return { min, max };
}

/**
 * Grid coordinates along one side of a rounded box: the flat middle as one span, `segments` steps through each
 * rounded edge. Values run from −half to +half.
 */
function roundedSteps(half: number, radius: number, segments: number): number[] {
  if (radius <= 0 || segments < 1) return [-half, half];
  const steps: number[] = [];
  for (let i = 0; i <= segments; i++) steps.push(-half + (radius * i) / segments);
  for (let i = 0; i <= segments; i++) steps.push(half - radius + (radius * i) / segments);
  return steps.filter((v, i, all) => i === 0 || v - all[i - 1]! > 1e-9);
}

/**
 * A box of `size` centred on `center` whose edges and corners are rounded with `radius` (a bevel that catches
 * light: sharp edges read as computer graphics). `segments` steps per rounded edge; radius 0 gives a plain box.
 */
export function roundedBox(center: Vec3, size: Vec3, radius = 0, segments = 3): Mesh {
  const half: Vec3 = [size[0] / 2, size[1] / 2, size[2] / 2];
  const r = Math.max(0, Math.min(radius, half[0], half[1], half[2]));
  const steps = half.map((h) => roundedSteps(h, r, r > 0 ? segments : 0)) as [number[], number[], number[]];
  const vertices: Vec3[] = [];
  const index = new Map<string, number>();
  const vertexAt = (p: Vec3): number => {
    // Grid points are shared by neighbouring faces: weld them by their grid position.
    const key = `${p[0].toFixed(9)},${p[1].toFixed(9)},${p[2].toFixed(9)}`;
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
    for (let i = 0; i + 1 < sa.length; i++) {
      for (let j = 0; j + 1 < sb.length; j++) {
        const corner = (ia: number, jb: number): number => {
          const p: Vec3 = [0, 0, 0];
          p[axis] = sign * half[axis]!;
          p[a] = sa[ia]!;
          p[b] = sb[jb]!;
          return vertexAt(p);
        };
        faces.push([corner(i, j), corner(i + 1, j), corner(i + 1, j + 1), corner(i, j + 1)]);
      }
    }
  }
  return { vertices, faces };
}

/** A rounded box given by its lower and upper corners. */
export function roundedBoxBetween(min: Vec3, max: Vec3, radius = 0, segments = 3): Mesh {
  return roundedBox(
    [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2],
    [max[0] - min[0], max[1] - min[1], max[2] - min[2]],
    radius,
    segments,
  );
}

/**
 * A surface of revolution about the Z axis through (0, 0): `profile` is a list of (radius, z) points from bottom to
 * top. An end with radius 0 closes at a pole; an end with a radius closes with a flat cap.
 */
export function lathe(profile: [number, number][], segments = 24): Mesh {
  const vertices: Vec3[] = [];
  const faces: number[][] = [];
  const rings: number[][] = [];
  for (const [radius, z] of profile) {
    if (radius <= 1e-9) {
      vertices.push([0, 0, z]);
      rings.push([vertices.length - 1]);
      continue;
    }
    const ring: number[] = [];
    for (let s = 0; s < segments; s++) {
      const angle = (2 * Math.PI * s) / segments;
      vertices.push([radius * Math.cos(angle), radius * Math.sin(angle), z]);
      ring.push(vertices.length - 1);
    }
    rings.push(ring);
  }
  // Profiles go up and the angle counter-clockwise seen from above, so (lower s, lower s+1, upper s+1, upper s) faces out.
  for (let k = 0; k + 1 < rings.length; k++) {
    const lower = rings[k]!;
    const upper = rings[k + 1]!;
    for (let s = 0; s < segments; s++) {
      const t = (s + 1) % segments;
      if (lower.length === 1 && upper.length === 1) continue;
      if (lower.length === 1) faces.push([lower[0]!, upper[t]!, upper[s]!]);
      else if (upper.length === 1) faces.push([lower[s]!, lower[t]!, upper[0]!]);
      else faces.push([lower[s]!, lower[t]!, upper[t]!, upper[s]!]);
    }
  }
  const first = rings[0]!;
  const last = rings[rings.length - 1]!;
  if (first.length > 1) faces.push([...first].reverse());
  if (last.length > 1) faces.push([...last]);
  return { vertices, faces };
}

/** A (possibly tapered) cylinder standing on z0, `segments` sides; `bevel` rounds its top and bottom rims. */
export function cylinder(radiusBottom: number, radiusTop: number, z0: number, z1: number, segments = 16, bevel = 0): Mesh {
  const b = Math.min(bevel, (z1 - z0) / 3, radiusBottom / 2, radiusTop / 2);
  if (b <= 0) return lathe([[radiusBottom, z0], [radiusTop, z1]], segments);
  return lathe(
    [
      [radiusBottom - b, z0],
      [radiusBottom - b * 0.3, z0 + b * 0.3],
      [radiusBottom, z0 + b],
      [radiusTop, z1 - b],
      [radiusTop - b * 0.3, z1 - b * 0.3],
      [radiusTop - b, z1],
    ],
    segments,
  );
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

/** A rectangle with rounded corners (counter-clockwise), for table tops, mirrors and rugs. */
export function roundedRectangle(width: number, depth: number, radius: number, segments = 6): [number, number][] {
  const r = Math.max(0, Math.min(radius, width / 2, depth / 2));
  if (r === 0) return [[-width / 2, -depth / 2], [width / 2, -depth / 2], [width / 2, depth / 2], [-width / 2, depth / 2]];
  const points: [number, number][] = [];
  const corners: [number, number, number][] = [
    [width / 2 - r, -depth / 2 + r, -Math.PI / 2],
    [width / 2 - r, depth / 2 - r, 0],
    [-width / 2 + r, depth / 2 - r, Math.PI / 2],
    [-width / 2 + r, -depth / 2 + r, Math.PI],
  ];
  for (const [x, y, start] of corners) {
    for (let s = 0; s <= segments; s++) {
      const angle = start + ((Math.PI / 2) * s) / segments;
      points.push([x + r * Math.cos(angle), y + r * Math.sin(angle)]);
    }
  }
  return points.filter((p, i, all) => i === 0 || Math.hypot(p[0] - all[i - 1]![0], p[1] - all[i - 1]![1]) > 1e-9);
}

/** An ellipse's outline (counter-clockwise). */
export function ellipse(width: number, depth: number, segments = 32): [number, number][] {
  const points: [number, number][] = [];
  for (let s = 0; s < segments; s++) {
    const angle = (2 * Math.PI * s) / segments;
    points.push([(width / 2) * Math.cos(angle), (depth / 2) * Math.sin(angle)]);
  }
  return points;
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
function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
function normalize(a: Vec3): Vec3 {
  const length = Math.hypot(a[0], a[1], a[2]);
  return length > 0 ? [a[0] / length, a[1] / length, a[2] / length] : [0, 0, 1];
}
function anyPerpendicular(d: Vec3): Vec3 {
  const helper: Vec3 = Math.abs(d[2]) < 0.9 ? [0, 0, 1] : [1, 0, 0];
  return normalize(cross(d, helper));
}
