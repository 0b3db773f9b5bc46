import type { Random } from '../../random.js';
import { capped, defineGenerator, type FurnitureGenerator, type Footprint, type PieceGeometry, type PiecePart } from '../generator.js';
import { fabric, metal, mixHex, plain, wood, type Material } from '../materials.js';
import { bounds, cylinder, deform, ellipsoid, merge, mirrorX, rotate, roundedBoxBetween, translate, tube, type Mesh, type Vec3 } from '../mesh.js';
import { leg, plinthBase, sledBase, tuftButtons, type LegSpot } from '../parts.js';
import type { ArmKind, LegKind, StyleProfile } from '../styles.js';

/**
 * Upholstered and outdoor seating: sofas (two and three seats, the L-shaped corner sofa with its chaise), armchairs,
 * and the weatherproof garden sofa and armchair. The style drives the arm and leg kinds, the seat and back heights,
 * the cushion softness and sag, tufting, and every material; the seed picks among the style's options.
 *
 * The helpers exported here (subdivided boxes, sagging and standing cushions, throw pillows, bent boards, filleted
 * tube loops) are shared with chairs.ts.
 */

// ---------------------------------------------------------------------------------------------------------------
// Shared geometry helpers
// ---------------------------------------------------------------------------------------------------------------

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function clamp01(value: number): number {
  return clamp(value, 0, 1);
}

function smooth(t: number): number {
  const s = clamp01(t);
  return s * s * (3 - 2 * s);
}

/** Rounds to a millimetre: sampled dimensions read as a designer would write them. */
export function mm(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function gridSteps(half: number, radius: number, segments: number, cells: number): number[] {
  const inner = half - radius;
  const steps: number[] = [];
  for (let i = 0; i < segments; i++) steps.push(-half + (radius * i) / segments);
  for (let i = 0; i <= cells; i++) steps.push(-inner + (2 * inner * i) / cells);
  for (let i = 1; i <= segments; i++) steps.push(inner + (radius * i) / segments);
  return steps.filter((v, i, all) => i === 0 || v - all[i - 1]! > 1e-9);
}

/**
 * A rounded box like mesh.roundedBox whose flat spans are also cut into `cells` per axis. roundedBox leaves each
 * flat face as one quad, so a deformation (a cushion's sag, a tufting dimple, a curved arm) has no vertex to move in
 * the middle of a face; this one has.
 */
export function gridBox(min: Vec3, max: Vec3, radius: number, segments: number, cells: readonly [number, number, number]): Mesh {
  const center: Vec3 = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
  const half: Vec3 = [(max[0] - min[0]) / 2, (max[1] - min[1]) / 2, (max[2] - min[2]) / 2];
  const r = Math.max(0, Math.min(radius, half[0], half[1], half[2]));
  const steps = [0, 1, 2].map((k) => gridSteps(half[k]!, r, r > 0 ? segments : 0, Math.max(1, Math.round(cells[k]!)))) as [number[], number[], number[]];
  const vertices: Vec3[] = [];
  const n: [number, number, number] = [steps[0].length, steps[1].length, steps[2].length];
  // Grid points are shared by neighbouring faces: weld them by their grid indices.
  const index = new Map<number, number>();
  const vertexAt = (g: [number, number, number]): number => {
    const key = g[0] + n[0] * (g[1] + n[1] * g[2]);
    const found = index.get(key);
    if (found !== undefined) return found;
    const p: Vec3 = [steps[0][g[0]]!, steps[1][g[1]]!, steps[2][g[2]]!];
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
    const fixed = sign > 0 ? n[axis]! - 1 : 0;
    const corner = (ia: number, jb: number): number => {
      const g: [number, number, number] = [0, 0, 0];
      g[axis] = fixed;
      g[a] = ia;
      g[b] = jb;
      return vertexAt(g);
    };
    for (let i = 0; i + 1 < sa.length; i++) {
      for (let j = 0; j + 1 < sb.length; j++) faces.push([corner(i, j), corner(i + 1, j), corner(i + 1, j + 1), corner(i, j + 1)]);
    }
  }
  return { vertices, faces };
}

/**
 * A filled cushion inside [min, max]: rounded edges, sides that bulge as filled fabric does, and a top that sinks by
 * `sag` in the middle of each of its `dips` sitting places (a negative sag puffs it up instead). The same shape as
 * parts.cushion, on a subdivided box so the sag is actually visible, and kept inside the box it is given.
 */
export function softCushion(min: Vec3, max: Vec3, radius: number, sag: number, dips = 1): Mesh {
  const cx = (min[0] + max[0]) / 2;
  const cy = (min[1] + max[1]) / 2;
  // The sides bulge by 4 % at mid-height: start 4 % smaller so the filled shape stays inside the box.
  const hx = (max[0] - min[0]) / 2 / 1.04;
  const hy = (max[1] - min[1]) / 2 / 1.04;
  const top = max[2] - Math.max(0, -sag);
  const cz = (min[2] + top) / 2;
  const hz = (top - min[2]) / 2;
  const r = Math.max(0, Math.min(radius, hx * 0.9, hy * 0.9, hz * 0.95));
  const block = gridBox([cx - hx, cy - hy, min[2]], [cx + hx, cy + hy, top], r, 4, [4 * dips, 4, 2]);
  return deform(block, ([x, y, z]) => {
    const fx = ((x - (cx - hx)) / (2 * hx)) * dips;
    const cell = Math.min(dips - 1, Math.max(0, Math.floor(fx)));
    const u = Math.min(1, Math.abs((fx - cell) * 2 - 1));
    const v = Math.min(1, Math.abs(y - cy) / hy);
    const w = clamp((z - cz) / hz, -1, 1);
    const dip = sag * (1 - u * u) * (1 - v * v) * Math.max(0, w);
    const bulge = 1 + 0.04 * (1 - w * w);
    return [cx + (x - cx) * bulge, cy + (y - cy) * bulge, z - dip];
  });
}

/**
 * A cushion standing on its edge (back cushions, padded backs): x from x0 to x1, z from z0 to z1, its back face on
 * the plane y = 0 and its front, puffed forward by `puff`, reaching y = −thickness.
 */
export function uprightCushion(x0: number, x1: number, z0: number, z1: number, thickness: number, radius: number, puff: number, dips = 1): Mesh {
  const lying = softCushion([x0, z0, 0], [x1, z1, thickness], radius, -puff, dips);
  // (x, y, z) → (x, −z, y): a proper rotation about X, so the faces keep facing out.
  return deform(lying, ([x, y, z]) => [x, -z, y]);
}

/** A throw pillow centred on the origin, facing −Y: a filled square (or oblong) with the pinched corners of a real one. */
export function throwPillow(width: number, thickness: number, height: number): Mesh {
  const shape = ellipsoid([0, 0, 0], [width / 2, thickness / 2, height / 2], 20);
  return deform(shape, ([x, y, z]) => {
    const a = Math.atan2(z / (height / 2), x / (width / 2));
    const f = Math.pow(1 / Math.max(Math.abs(Math.cos(a)), Math.abs(Math.sin(a))), 0.6);
    return [x * f, y, z * f];
  });
}

/** Leans what is above z0 back (towards +Y) by `slope` metres per metre of height. */
export function shearY(mesh: Mesh, z0: number, slope: number): Mesh {
  return deform(mesh, ([x, y, z]) => [x, y + Math.max(0, z - z0) * slope, z]);
}

/** Faces reversed where a mesh's enclosed volume came out negative. */
export function orientOutward(mesh: Mesh): Mesh {
  let volume = 0;
  for (const face of mesh.faces) {
    const a = mesh.vertices[face[0]!]!;
    for (let i = 1; i + 1 < face.length; i++) {
      const b = mesh.vertices[face[i]!]!;
      const c = mesh.vertices[face[i + 1]!]!;
      volume += a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
    }
  }
  return volume >= 0 ? mesh : { vertices: mesh.vertices, faces: mesh.faces.map((f) => [...f].reverse()) };
}

/**
 * A board of `thickness` bent along a centre line in the XY plane and standing from z0 to z1: curved chair slats,
 * top rails, bent-plywood backs, a bar stool's back band.
 */
export function sweptBoard(line: readonly [number, number][], thickness: number, z0: number, z1: number): Mesh {
  const n = line.length;
  const vertices: Vec3[] = [];
  const h = thickness / 2;
  for (let i = 0; i < n; i++) {
    const prev = line[Math.max(0, i - 1)]!;
    const next = line[Math.min(n - 1, i + 1)]!;
    const l = Math.hypot(next[0] - prev[0], next[1] - prev[1]) || 1;
    const nx = -(next[1] - prev[1]) / l;
    const ny = (next[0] - prev[0]) / l;
    const [px, py] = line[i]!;
    vertices.push([px + nx * h, py + ny * h, z0], [px - nx * h, py - ny * h, z0], [px - nx * h, py - ny * h, z1], [px + nx * h, py + ny * h, z1]);
  }
  const faces: number[][] = [];
  for (let i = 0; i + 1 < n; i++) {
    const a = 4 * i;
    const b = 4 * (i + 1);
    for (let k = 0; k < 4; k++) faces.push([a + k, a + ((k + 1) % 4), b + ((k + 1) % 4), b + k]);
  }
  const e = 4 * (n - 1);
  faces.push([3, 2, 1, 0], [e, e + 1, e + 2, e + 3]);
  return orientOutward({ vertices, faces });
}

/** Points along an arc of a circle in the XY plane (angles in radians, counter-clockwise from +X). */
export function arcLine(cx: number, cy: number, radius: number, from: number, to: number, steps: number): [number, number][] {
  const line: [number, number][] = [];
  for (let i = 0; i <= steps; i++) {
    const a = from + ((to - from) * i) / steps;
    line.push([cx + radius * Math.cos(a), cy + radius * Math.sin(a)]);
  }
  return line;
}

/**
 * A centre line across X bowed back at its middle (concave to the sitter): x from −span to span, y = yEnds at
 * x = ±half and yEnds + bow at x = 0.
 */
export function bowLine(span: number, half: number, yEnds: number, bow: number, steps = 12): [number, number][] {
  const line: [number, number][] = [];
  for (let i = 0; i <= steps; i++) {
    const x = -span + (2 * span * i) / steps;
    line.push([x, yEnds + bow * (1 - (x / half) ** 2)]);
  }
  return line;
}

/**
 * A closed polygon's path for tube(): corners rounded by quadratic fillets of `radius`, starting and ending in the
 * middle of the first side, so the two capped ends of the tube meet inside it.
 */
export function filletLoop(corners: readonly Vec3[], radius: number, steps = 4): Vec3[] {
  const n = corners.length;
  const lerp = (a: Vec3, b: Vec3, t: number): Vec3 => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
  const dist = (a: Vec3, b: Vec3): number => Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
  const start = lerp(corners[0]!, corners[1 % n]!, 0.5);
  const path: Vec3[] = [start];
  for (let k = 1; k <= n; k++) {
    const p = corners[k % n]!;
    const a = corners[(k - 1) % n]!;
    const b = corners[(k + 1) % n]!;
    const d = Math.min(radius, dist(a, p) * 0.45, dist(p, b) * 0.45);
    const a0 = lerp(p, a, d / dist(a, p));
    const b0 = lerp(p, b, d / dist(p, b));
    for (let s = 0; s <= steps; s++) {
      const t = s / steps;
      path.push([
        (1 - t) ** 2 * a0[0] + 2 * (1 - t) * t * p[0] + t * t * b0[0],
        (1 - t) ** 2 * a0[1] + 2 * (1 - t) * t * p[1] + t * t * b0[1],
        (1 - t) ** 2 * a0[2] + 2 * (1 - t) * t * p[2] + t * t * b0[2],
      ]);
    }
  }
  path.push([start[0], start[1], start[2]]);
  return path;
}

/**
 * How far a leg from parts.leg reaches beyond its spot along X or Y when it leans out along a diagonal: the
 * splayed foot, the cabriole knee, the hairpin's spread. Legs are inset by this much to stay under their piece.
 */
export function legReach(kind: LegKind, height: number, thickness: number): number {
  const t = thickness;
  switch (kind) {
    case 'splayed':
      return Math.max(t / 2, Math.min(height * 0.18, 0.06) / Math.SQRT2 + t * 0.3 + 0.004);
    case 'cabriole':
      return t * 0.75;
    case 'hairpin':
      return (Math.min(0.09, height * 0.35) / 2) / Math.SQRT2 + Math.max(0.005, t * 0.12) + 0.002;
    case 'bun':
      return t * 0.6;
    case 'metal-square':
      return t * 0.22;
    default:
      return t / 2;
  }
}

/**
 * parts.leg, standing on the floor: the hairpin's two rods meet at so sharp a V that tube()'s mitre at the foot
 * spikes centimetres under the floor (or, for a wider V, leaves the foot floating); the hairpin is set down on the
 * floor and what would go under it is flattened onto it (a small flat foot).
 */
export function standingLeg(kind: LegKind, spot: LegSpot, height: number, thickness: number): Mesh {
  const mesh = leg(kind, spot, height, thickness);
  if (kind !== 'hairpin') return mesh;
  const lift = Math.max(0, bounds(mesh).min[2]);
  return deform(mesh, ([x, y, z]) => [x, y, Math.max(0, z - lift)]);
}

export const WOODEN_LEGS: ReadonlySet<LegKind> = new Set<LegKind>(['tapered', 'splayed', 'turned', 'bun', 'cabriole', 'block']);

/** Wooden legs from the style's woods, metal ones from its metals. */
export function legMaterial(kind: LegKind, style: StyleProfile, random: Random): Material {
  return WOODEN_LEGS.has(kind) ? random.pick(style.woods) : random.pick(style.metals);
}

/** Weatherproof woven fabric in a colour of the style (outdoor cushions are solution-dyed acrylic, never velvet). */
export function outdoorFabric(material: Material): Material {
  return fabric('fabric', material.color, 0.9);
}

export function part(name: string, mesh: Mesh, material: string, grain?: 'x' | 'y' | 'z'): PiecePart {
  return grain ? { name, mesh, material, grain } : { name, mesh, material };
}

function legSpot(x: number, y: number, ox: number, oy: number): LegSpot {
  const l = Math.hypot(ox, oy) || 1;
  return { x, y, outward: [ox / l, oy / l] };
}

// ---------------------------------------------------------------------------------------------------------------
// Upholstered sofas and armchairs
// ---------------------------------------------------------------------------------------------------------------

type SofaKind = 'sofa' | 'armchair' | 'corner';
type BackKind = 'cushions' | 'tight' | 'tufted';

export interface SofaParams {
  id: string;
  styleId: string;
  kind: SofaKind;
  /** Overall, metres. For the corner sofa `depth` is the chaise's full depth. */
  width: number;
  depth: number;
  height: number;
  /** Corner sofa: depth of the run along the back, width of the chaise, and its side (+1 right, −1 left, seen from the front). */
  mainDepth: number;
  chaiseWidth: number;
  chaiseSide: 1 | -1;
  /** Top of the seat cushions at the front. */
  seatHeight: number;
  seatThickness: number;
  legKind: LegKind;
  legHeight: number;
  /** Leg thickness; the plinth's recess; the sled runner's radius. */
  legThickness: number;
  armKind: ArmKind;
  armWidth: number;
  armHeight: number;
  /** A wooden board capping wide arms. */
  armCap: boolean;
  backKind: BackKind;
  /** Back frame thickness at its foot, and how much thinner it is at the top (the back reclines). */
  backThickness: number;
  backRake: number;
  backCushionDepth: number;
  /** How far the back cushions stop under the top of the frame. */
  backCushionDrop: number;
  /** Sitting places (seat cushions, or dips of one bench cushion). */
  seats: number;
  bench: boolean;
  softness: number;
  sag: number;
  tuftColumns: number;
  tuftRows: number;
  pillows: number;
  pillowSize: number;
  materials: { upholstery: Material; legs: Material; cap: Material; pillows: Material[] };
}

const SOFA_KINDS: Record<string, SofaKind> = { sofa_3_seater: 'sofa', sofa_2_seater: 'sofa', corner_sofa: 'corner', armchair: 'armchair' };

const ARM_WIDTH: Record<ArmKind, readonly [number, number]> = {
  track: [0.14, 0.2],
  slope: [0.14, 0.2],
  rolled: [0.17, 0.23],
  curved: [0.16, 0.22],
  slim: [0.055, 0.085],
  wide: [0.22, 0.3],
};

/** Leg thickness per kind for sofas (metal-square and hairpin sizes are parts.leg's overall thickness). */
const SOFA_LEG_THICKNESS: Record<LegKind, readonly [number, number]> = {
  tapered: [0.035, 0.05],
  splayed: [0.035, 0.05],
  turned: [0.05, 0.065],
  bun: [0.08, 0.1],
  cabriole: [0.04, 0.055],
  block: [0.05, 0.075],
  'metal-square': [0.08, 0.11],
  hairpin: [0.05, 0.06],
  sled: [0.011, 0.014],
  plinth: [0.03, 0.05],
};

function sampleSofa(id: string, style: StyleProfile, random: Random, limits?: { maxWidth?: number; maxDepth?: number; maxHeight?: number }): SofaParams {
  const kind = SOFA_KINDS[id];
  if (!kind) throw new Error(`upholstered seating does not build ${id}`);
  const r = random;
  let width: number;
  let depth: number;
  let mainDepth = 0;
  let chaiseWidth = 0;
  let floorWidth: number;
  if (kind === 'armchair') {
    width = r.uniform(0.74, 0.95);
    depth = r.uniform(0.78, 0.92);
    floorWidth = 0.66;
  } else if (kind === 'corner') {
    width = r.uniform(2.3, 3.0);
    mainDepth = r.uniform(0.86, 0.98);
    depth = r.uniform(1.5, 1.85);
    chaiseWidth = r.uniform(0.8, 0.95);
    floorWidth = 2.0;
  } else if (id === 'sofa_3_seater') {
    width = r.uniform(1.95, 2.35);
    depth = r.uniform(0.86, 1.0);
    floorWidth = 1.75;
  } else {
    width = r.uniform(1.45, 1.8);
    depth = r.uniform(0.85, 0.97);
    floorWidth = 1.3;
  }
  width = capped(width, limits?.maxWidth, floorWidth);
  if (kind === 'corner') {
    depth = capped(depth, limits?.maxDepth, 1.4);
    mainDepth = Math.min(mainDepth, depth - 0.5);
  } else {
    depth = capped(depth, limits?.maxDepth, kind === 'armchair' ? 0.72 : 0.8);
  }
  const seatHeight = r.uniform(style.seatHeight[0], style.seatHeight[1]);
  const [h0, h1] = style.sofaHeight;
  let height = kind === 'armchair' ? Math.min(1.0, r.uniform(h0 + 0.02, h1 + 0.1)) : r.uniform(h0, h1);
  height = capped(height, limits?.maxHeight, seatHeight + 0.24);

  const legKind = r.pick(style.legs);
  const [t0, t1] = SOFA_LEG_THICKNESS[legKind];
  const legThickness = r.uniform(t0, t1);
  const legHeight = Math.min(Math.max(0.01, r.uniform(style.legHeight[0], style.legHeight[1])), seatHeight - 0.2);
  const seatThickness = clamp(r.uniform(0.12, 0.16) + style.softness * 0.6, 0.1, seatHeight - legHeight - 0.07);

  const armKind = r.pick(style.arms);
  const [a0, a1] = ARM_WIDTH[armKind];
  let armWidth = r.uniform(a0, a1);
  if (kind === 'armchair') armWidth = Math.max(a0 * 0.7, Math.min(armWidth, (width - 0.5) / 2));
  const armLift = armKind === 'wide' ? r.uniform(0.13, 0.2) : r.uniform(0.15, 0.24);
  const armHeight = Math.min(seatHeight + armLift, height - (armKind === 'curved' ? 0.1 : 0.06));
  const armCap = armKind === 'wide' && r.chance(0.5);

  let backKind: BackKind = 'cushions';
  if (style.tufted && r.chance(0.6)) backKind = 'tufted';
  else if ((style.id === 'modern' || style.id === 'minimalist') && r.chance(0.3)) backKind = 'tight';
  const tight = backKind !== 'cushions';
  const backThickness = tight ? r.uniform(0.2, 0.27) : r.uniform(0.13, 0.19);
  const backRake = tight ? r.uniform(0.05, 0.09) : r.uniform(0.02, 0.05);
  const frontDepth = kind === 'corner' ? mainDepth : depth;
  const backCushionDepth = tight ? 0 : clamp(r.uniform(0.15, 0.21), 0.12, frontDepth - backThickness - 0.48);
  const backCushionDrop = r.uniform(0, 0.05);

  let seats = kind === 'armchair' ? 1 : id === 'sofa_3_seater' ? (r.chance(0.25) ? 2 : 3) : 2;
  if (kind === 'corner') seats = width - chaiseWidth - armWidth > 1.75 ? 3 : 2;
  const bench = kind !== 'armchair' && (style.id === 'modern' || style.id === 'minimalist') && r.chance(0.45);

  const innerWidth = width - 2 * armWidth;
  const tuftColumns = Math.max(3, Math.round(innerWidth / 0.19));
  const tuftRows = height - seatHeight > 0.4 ? 3 : 2;
  const pillows =
    kind === 'armchair'
      ? r.chance(0.35)
        ? 1
        : 0
      : kind === 'corner'
        ? r.weighted([
            [0, 2],
            [2, 3],
            [3, 3],
            [4, 2],
          ] as const)
        : r.weighted([
            [0, 3],
            [2, 4],
            [3, 2],
          ] as const);
  const pillowSize = kind === 'armchair' ? r.uniform(0.36, 0.44) : r.uniform(0.4, 0.5);

  const upholstery = r.pick(style.upholstery);
  const legs = legKind === 'plinth' ? { ...upholstery, color: mixHex(upholstery.color, '#000000', 0.45) } : legMaterial(legKind, style, r);
  const cap = r.pick(style.woods);
  const pairColour = r.pick(style.accents);
  const pillowMaterials: Material[] = [];
  for (let i = 0; i < pillows; i++) pillowMaterials.push(i < 2 ? pairColour : r.pick(style.accents));

  return {
    id,
    styleId: style.id,
    kind,
    width: mm(width),
    depth: mm(depth),
    height: mm(height),
    mainDepth: mm(mainDepth),
    chaiseWidth: mm(chaiseWidth),
    chaiseSide: r.chance(0.5) ? 1 : -1,
    seatHeight: mm(seatHeight),
    seatThickness: mm(seatThickness),
    legKind,
    legHeight: mm(legHeight),
    legThickness: mm(legThickness),
    armKind,
    armWidth: mm(armWidth),
    armHeight: mm(armHeight),
    armCap,
    backKind,
    backThickness: mm(backThickness),
    backRake: mm(backRake),
    backCushionDepth: mm(backCushionDepth),
    backCushionDrop: mm(backCushionDrop),
    seats,
    bench,
    softness: style.softness * r.uniform(0.9, 1.15),
    sag: style.sag * r.uniform(0.8, 1.25),
    tuftColumns,
    tuftRows,
    pillows,
    pillowSize: mm(pillowSize),
    materials: { upholstery, legs, cap, pillows: pillowMaterials },
  };
}

/** The right arm of a kind, its outer face on x = ox; the left one is its mirror image. */
function armMesh(kind: ArmKind, ox: number, aw: number, y0: number, y1: number, z0: number, zTop: number, riseTo: number, softness: number): Mesh {
  switch (kind) {
    case 'track':
      return roundedBoxBetween([ox - aw, y0, z0], [ox, y1, zTop], clamp(softness * 0.6, 0.008, aw * 0.3), 3);
    case 'slim':
      return roundedBoxBetween([ox - aw, y0, z0], [ox, y1, zTop], Math.min(aw * 0.35, Math.max(0.008, softness * 0.5)), 3);
    case 'wide':
      return roundedBoxBetween([ox - aw, y0, z0], [ox, y1, zTop], clamp(softness * 0.5, 0.01, 0.025), 3);
    case 'slope': {
      // Tapered: narrower at the top than at the foot, its top falling towards the front.
      const box = gridBox([ox - aw, y0, z0], [ox, y1, zTop], clamp(softness * 0.6, 0.01, aw * 0.3), 3, [1, 2, 2]);
      const drop = Math.min(0.06, (zTop - z0) * 0.15);
      return deform(box, ([x, y, z]) => {
        const t = (z - z0) / (zTop - z0);
        const front = 1 - (y - y0) / (y1 - y0);
        return [ox - (ox - x) * (1 - 0.32 * t), y, z - drop * front * t];
      });
    }
    case 'rolled': {
      // A scroll: a round roll along the arm's length overhanging a lower panel.
      const r = aw / 2;
      const scroll = translate(rotate(cylinder(r, r, y0, y1, 20, Math.min(0.012, r * 0.3)), 'x', -Math.PI / 2), [ox - r, 0, zTop - r]);
      const panel = roundedBoxBetween([ox - aw + 0.012, y0 + 0.012, z0], [ox - r * 0.3, y1, zTop - r], clamp(softness * 0.5, 0.006, 0.03), 3);
      return merge(panel, scroll);
    }
    case 'curved': {
      // One rounded sweep: the arm's top rises towards the back and flows into it.
      const rad = Math.min(aw * 0.45, 0.09);
      const box = gridBox([ox - aw, y0, z0], [ox, y1, zTop], rad, 4, [1, 8, 2]);
      const rise = Math.max(0, riseTo - zTop);
      const yr = y1 - Math.min(0.45, (y1 - y0) * 0.5);
      const zMid = (z0 + zTop) / 2;
      return deform(box, ([x, y, z]) => {
        const t = clamp01((z - zMid) / Math.max(1e-6, zTop - rad - zMid));
        return [x, y, z + rise * smooth((y - yr) / (y1 - yr)) * t];
      });
    }
  }
}

function buildSofa(p: SofaParams): PieceGeometry {
  const W = p.width;
  const Dt = p.depth;
  const corner = p.kind === 'corner';
  const D = corner ? p.mainDepth : p.depth;
  const Cw = corner ? p.chaiseWidth : 0;
  const yb = Dt / 2;
  const yMainFront = Dt / 2 - D;
  const aw = p.armWidth;
  const LH = p.legHeight;
  const H = p.height;
  const SH = p.seatHeight;
  const deck = SH - p.seatThickness;
  const soft = p.softness;
  const cap = p.armCap ? 0.028 : 0;
  // The front of the back frame, height by height: it thins towards the top, so the back reclines.
  const backFront = (z: number): number => yb - (p.backThickness - p.backRake * clamp01((z - LH) / (H - LH)));
  const parts: PiecePart[] = [];

  // Arms; built for a chaise on the right and mirrored at the end for one on the left.
  const riseTo = H - 0.05;
  const rightArm = armMesh(p.armKind, W / 2, aw, corner ? -Dt / 2 : yMainFront, yb, LH, p.armHeight - cap, riseTo, soft);
  const leftArm = mirrorX(armMesh(p.armKind, W / 2, aw, yMainFront, yb, LH, p.armHeight - cap, riseTo, soft));
  parts.push(part('arm-left', leftArm, 'upholstery'), part('arm-right', rightArm, 'upholstery'));
  if (p.armCap) {
    const board = (y0: number): Mesh => roundedBoxBetween([W / 2 - aw, y0, p.armHeight - cap - 0.004], [W / 2, yb - p.backThickness * 0.5, p.armHeight], 0.004, 2);
    parts.push(part('arm-caps', merge(mirrorX(board(yMainFront)), board(corner ? -Dt / 2 : yMainFront)), 'cap', 'y'));
  }

  // Back frame: a tapered block, dimpled and buttoned when tufted.
  const tight = p.backKind !== 'cushions';
  const bx0 = -W / 2 + aw * 0.5;
  const bx1 = W / 2 - aw * 0.5;
  const yFront0 = yb - p.backThickness;
  const backRadius = Math.min(tight ? soft : soft * 0.7, p.backThickness * 0.45, 0.05);
  const tuftX0 = -W / 2 + aw + 0.05;
  const tuftX1 = W / 2 - aw - 0.05;
  const tuftZ0 = SH + 0.07;
  const tuftZ1 = H - Math.max(0.07, backRadius + 0.03);
  const buttonsAt: [number, number][] = [];
  if (p.backKind === 'tufted') {
    for (let i = 0; i < p.tuftColumns; i++) {
      for (let j = 0; j < p.tuftRows; j++) {
        buttonsAt.push([
          tuftX0 + ((tuftX1 - tuftX0) * (i + 0.5 + (j % 2) * 0.5 - 0.25)) / p.tuftColumns,
          tuftZ0 + ((tuftZ1 - tuftZ0) * (j + 0.5)) / p.tuftRows,
        ]);
      }
    }
  }
  const dimple = clamp(soft * 0.35, 0.008, 0.018);
  const taper = (v: Vec3): Vec3 => [v[0], yb - (yb - v[1]) * ((yb - backFront(v[2])) / p.backThickness), v[2]];
  let back = gridBox(
    [bx0, yFront0, LH],
    [bx1, yb, H],
    backRadius,
    3,
    p.backKind === 'tufted' ? [p.tuftColumns * 4, 2, p.tuftRows * 5] : [2, 1, 2],
  );
  if (buttonsAt.length > 0) {
    back = deform(back, ([x, y, z]) => {
      const onFront = clamp01(1 - (y - yFront0) / 0.02);
      if (onFront <= 0) return [x, y, z];
      let d = 0;
      for (const [bx, bz] of buttonsAt) d = Math.max(d, Math.exp(-((x - bx) ** 2 + (z - bz) ** 2) / (0.045 * 0.045)));
      return [x, y + dimple * d * onFront, z];
    });
  }
  parts.push(part('back', deform(back, taper), 'upholstery'));
  if (buttonsAt.length > 0) {
    const buttons = tuftButtons(tuftX0, tuftX1, tuftZ0, tuftZ1, yFront0 + dimple * 0.75, p.tuftColumns, p.tuftRows);
    parts.push(part('tufting', deform(buttons, taper), 'upholstery'));
  }

  // Base deck under the seat cushions.
  const baseRadius = Math.min(soft * 0.5, 0.02);
  const bases: Mesh[] = [roundedBoxBetween([-W / 2 + aw - 0.02, yMainFront + 0.01, LH], [W / 2 - aw + 0.02, yb - 0.02, deck], baseRadius, 2)];
  if (corner) bases.push(roundedBoxBetween([W / 2 - Cw, -Dt / 2 + 0.01, LH], [W / 2 - aw + 0.02, yMainFront + 0.05, deck], baseRadius, 2));
  parts.push(part('base', merge(...bases), 'upholstery'));

  // Seat cushions: one per place, or one bench cushion dipping at each place.
  const seatBack = backFront(deck) + 0.006;
  const mainX0 = -W / 2 + aw;
  const mainX1 = corner ? W / 2 - Cw : W / 2 - aw;
  const gap = 0.006;
  const spans = (x0: number, x1: number, n: number): [number, number][] => {
    const w = (x1 - x0 - gap * (n - 1)) / n;
    return Array.from({ length: n }, (_, i) => [x0 + i * (w + gap), x0 + i * (w + gap) + w] as [number, number]);
  };
  const seatSpans = p.bench ? [[mainX0, mainX1] as [number, number]] : spans(mainX0, mainX1, p.seats);
  const seatRadius = clamp(soft, 0.012, p.seatThickness * 0.45);
  seatSpans.forEach(([x0, x1], i) => {
    parts.push(part(`seat-cushion-${i + 1}`, softCushion([x0, yMainFront + 0.004, deck], [x1, seatBack, SH], seatRadius, p.sag, p.bench ? p.seats : 1), 'upholstery'));
  });
  if (corner) {
    parts.push(part('chaise-cushion', softCushion([W / 2 - Cw + gap, -Dt / 2 + 0.004, deck], [W / 2 - aw, seatBack, SH], seatRadius, p.sag * 1.3), 'upholstery'));
  }

  // Back cushions lean on the back frame, following its rake.
  const backSpans = spans(mainX0, mainX1, p.seats);
  if (corner) backSpans.push([W / 2 - Cw + gap, W / 2 - aw]);
  const cushionFront = (z: number): number => backFront(z) - (tight ? 0 : p.backCushionDepth + Math.abs(p.sag) * 0.5);
  if (!tight) {
    const z0 = SH - 0.015;
    const z1 = H - 0.012 - p.backCushionDrop;
    backSpans.forEach(([x0, x1], i) => {
      const upright = uprightCushion(x0, x1, z0, z1, p.backCushionDepth, clamp(soft * 1.1, 0.015, 0.07), clamp(soft * 0.45, 0.006, 0.03));
      parts.push(part(`back-cushion-${i + 1}`, deform(upright, ([x, y, z]) => [x, y + backFront(z), z]), 'upholstery'));
    });
  }

  // Legs, plinth or sled.
  const legParts = sofaLegs(p, W, Dt, D, Cw, yMainFront, yb);
  if (legParts) parts.push(part('legs', legParts, 'legs', WOODEN_LEGS.has(p.legKind) ? 'z' : undefined));

  // Throw pillows against the back, in the corners first.
  const pillowSlots: { x: number; side: -1 | 1 }[] = [
    { x: mainX0, side: -1 },
    { x: W / 2 - aw, side: 1 },
    { x: mainX0 + p.pillowSize * 0.85, side: -1 },
    { x: W / 2 - aw - p.pillowSize * 0.85, side: 1 },
  ];
  for (let i = 0; i < p.pillows && i < pillowSlots.length; i++) {
    const slot = pillowSlots[i]!;
    const size = Math.min(p.pillowSize, (H - SH) * 0.95);
    let pillow = rotate(rotate(throwPillow(size, size * 0.3, size), 'x', -0.32), 'z', slot.side * 0.18 * (i < 2 ? 1 : -0.6));
    let b = bounds(pillow);
    const tall = H - 0.012 - (SH - 0.01);
    if (b.max[2] - b.min[2] > tall) {
      const k = tall / (b.max[2] - b.min[2]);
      pillow = deform(pillow, ([x, y, z]) => [x * k, y * k, z * k]);
      b = bounds(pillow);
    }
    const zMid = SH - 0.01 + (b.max[2] - b.min[2]) / 2;
    const dx = slot.side < 0 ? slot.x + 0.015 - b.min[0] : slot.x - 0.015 - b.max[0];
    const dy = cushionFront(zMid) + 0.03 - b.max[1];
    parts.push(part(`pillow-${i + 1}`, translate(pillow, [dx, dy, SH - 0.01 - b.min[2]]), `pillow${i + 1}`));
  }

  const materials: Record<string, Material> = { upholstery: p.materials.upholstery, legs: p.materials.legs };
  if (p.armCap) materials.cap = p.materials.cap;
  p.materials.pillows.forEach((m, i) => {
    if (i < p.pillows) materials[`pillow${i + 1}`] = m;
  });
  const flipped = corner && p.chaiseSide < 0 ? parts.map((q) => ({ ...q, mesh: mirrorX(q.mesh) })) : parts;
  return { parts: flipped, materials };
}

function sofaLegs(p: SofaParams, W: number, Dt: number, D: number, Cw: number, yMainFront: number, yb: number): Mesh | undefined {
  const LH = p.legHeight;
  const corner = p.kind === 'corner';
  if (p.legKind === 'plinth') {
    const recess = p.legThickness;
    const main = translate(plinthBase(W, D, LH + 0.005, recess), [0, yMainFront + D / 2, 0]);
    if (!corner) return main;
    const chaiseDepth = Dt - D + recess * 2 + 0.05;
    return merge(main, translate(plinthBase(Cw, chaiseDepth, LH + 0.005, recess), [W / 2 - Cw / 2, -Dt / 2 + chaiseDepth / 2, 0]));
  }
  if (p.legKind === 'sled') {
    const rr = p.legThickness;
    const inset = rr + 0.035;
    if (!corner) return translate(sledBase(W - 2 * inset, D - 2 * inset, LH + 0.005, rr), [0, yMainFront + D / 2, 0]);
    const mainWidth = W - Cw;
    return merge(
      translate(sledBase(mainWidth - 2 * inset, D - 2 * inset, LH + 0.005, rr), [-W / 2 + mainWidth / 2, yMainFront + D / 2, 0]),
      translate(sledBase(Cw - 2 * inset, Dt - 2 * inset, LH + 0.005, rr), [W / 2 - Cw / 2, 0, 0]),
    );
  }
  const t = p.legThickness;
  const i = legReach(p.legKind, LH, t) + 0.025;
  const spots: LegSpot[] = [legSpot(-W / 2 + i, yMainFront + i, -1, -1), legSpot(-W / 2 + i, yb - i, -1, 1), legSpot(W / 2 - i, yb - i, 1, 1)];
  if (corner) {
    spots.push(legSpot(W / 2 - i, -Dt / 2 + i, 1, -1), legSpot(W / 2 - Cw + i, -Dt / 2 + i, -1, -1), legSpot(W / 2 - Cw + i, yMainFront + i, -1, -1));
  } else {
    spots.push(legSpot(W / 2 - i, yMainFront + i, 1, -1));
  }
  const upright = p.legKind !== 'splayed' && p.legKind !== 'cabriole' && p.legKind !== 'hairpin';
  if (upright && W > 1.75) {
    const xm = corner ? (-W / 2 + (W / 2 - Cw)) / 2 : 0;
    spots.push(legSpot(xm, yb - i, 0, 1), legSpot(xm, yMainFront + i, 0, -1));
  }
  return merge(...spots.map((spot) => standingLeg(p.legKind, spot, LH + 0.004, t)));
}

function sofaFootprint(p: SofaParams): Footprint {
  return {
    width: p.width,
    depth: p.depth,
    height: p.height,
    placement: p.kind === 'armchair' ? 'floor' : 'against-wall',
    elevation: 0,
    frontClearance: p.kind === 'armchair' ? 0.6 : 0.75,
  };
}

export const upholsteredSeating = defineGenerator<SofaParams>({
  ids: ['sofa_3_seater', 'sofa_2_seater', 'corner_sofa', 'armchair'],
  sample: sampleSofa,
  footprint: sofaFootprint,
  build: buildSofa,
});

// ---------------------------------------------------------------------------------------------------------------
// Outdoor sofa and garden armchair
// ---------------------------------------------------------------------------------------------------------------

export type OutdoorFrame = 'teak' | 'aluminium' | 'rattan';

export interface OutdoorParams {
  id: string;
  styleId: string;
  kind: 'sofa' | 'armchair';
  frame: OutdoorFrame;
  width: number;
  depth: number;
  height: number;
  seatHeight: number;
  seatThickness: number;
  armHeight: number;
  /** Arm board (teak), woven arm (rattan) or cap board (aluminium) width. */
  armWidth: number;
  /** Teak posts' section, aluminium tube radius, rattan back thickness. */
  member: number;
  /** Aluminium: a teak board on each arm. */
  armCap: boolean;
  backSlats: number;
  backCushionDepth: number;
  backRake: number;
  seats: number;
  softness: number;
  sag: number;
  pillows: number;
  pillowSize: number;
  materials: { frame: Material; cushion: Material; cap: Material; feet: Material; pillows: Material[] };
}

/** How likely each outdoor frame is in a style (teak, aluminium, rattan). */
export const OUTDOOR_FRAMES: Record<string, readonly [number, number, number]> = {
  modern: [1, 3, 1],
  contemporary: [1, 2, 2],
  scandinavian: [3, 1, 1],
  minimalist: [1, 3, 0],
  industrial: [1, 4, 0],
  japandi: [2, 0, 2],
  mid_century_modern: [3, 1, 0],
  bohemian: [1, 0, 4],
  farmhouse: [3, 0, 1],
  coastal: [2, 0, 3],
  traditional: [3, 0, 1],
  luxury: [2, 2, 1],
  art_deco: [0, 3, 1],
  rustic: [4, 0, 1],
  mediterranean: [2, 1, 2],
  parisian: [0, 3, 2],
};

export const TEAK = wood('#8E5B30', '#5E3818', 0.55, 0.012);
const WEATHERED_TEAK = wood('#9C958A', '#6E675D', 0.7, 0.014);
const POWDER_COATS: readonly Material[] = [metal('#34363A', 0.55), metal('#E8E8E4', 0.5), metal('#8C8174', 0.55)];
const RATTANS: readonly Material[] = [plain('rattan', '#B8925A', 0.7), plain('rattan', '#8F8A82', 0.75), plain('rattan', '#4A3B2E', 0.7)];

export function pickOutdoorFrame(style: StyleProfile, random: Random): OutdoorFrame {
  const [t, a, r] = OUTDOOR_FRAMES[style.id] ?? [1, 1, 1];
  return random.weighted([
    ['teak', t],
    ['aluminium', a],
    ['rattan', r],
  ] as const);
}

/** The frame material of an outdoor piece: teak (or the style's wood, or weathered grey), powder-coated metal, rattan. */
export function outdoorFrameMaterial(frame: OutdoorFrame, style: StyleProfile, random: Random): Material {
  if (frame === 'teak') {
    if ((style.id === 'coastal' || style.id === 'rustic' || style.id === 'minimalist') && random.chance(0.4)) return WEATHERED_TEAK;
    return random.chance(0.55) ? TEAK : random.pick(style.woods);
  }
  if (frame === 'aluminium') {
    if (random.chance(0.5)) {
      const m = random.pick(style.metals);
      return { ...m, roughness: Math.max(m.roughness, 0.4) };
    }
    return random.pick(POWDER_COATS);
  }
  const styled = [...style.cases, ...style.accents].filter((m) => m.kind === 'rattan');
  return styled.length > 0 && random.chance(0.6) ? random.pick(styled) : random.pick(RATTANS);
}

function sampleOutdoor(id: string, style: StyleProfile, random: Random, limits?: { maxWidth?: number; maxDepth?: number; maxHeight?: number }): OutdoorParams {
  if (id !== 'outdoor_sofa' && id !== 'garden_armchair') throw new Error(`outdoor seating does not build ${id}`);
  const r = random;
  const kind = id === 'outdoor_sofa' ? 'sofa' : 'armchair';
  const frame = pickOutdoorFrame(style, r);
  let width = kind === 'sofa' ? r.uniform(1.7, 2.1) : r.uniform(0.66, 0.84);
  let depth = kind === 'sofa' ? r.uniform(0.78, 0.92) : r.uniform(0.72, 0.88);
  const seatHeight = r.uniform(0.38, 0.44);
  let height = r.uniform(kind === 'sofa' ? 0.7 : 0.72, kind === 'sofa' ? 0.82 : 0.86);
  width = capped(width, limits?.maxWidth, kind === 'sofa' ? 1.4 : 0.6);
  depth = capped(depth, limits?.maxDepth, 0.66);
  height = capped(height, limits?.maxHeight, seatHeight + 0.24);
  const armHeight = Math.min(seatHeight + r.uniform(0.17, 0.24), height - 0.06);
  const armWidth = frame === 'teak' ? r.uniform(0.09, 0.14) : frame === 'rattan' ? r.uniform(0.1, 0.18) : r.uniform(0.07, 0.1);
  const member = frame === 'teak' ? r.uniform(0.045, 0.06) : frame === 'aluminium' ? r.uniform(0.016, 0.022) : r.uniform(0.1, 0.15);
  const seats = kind === 'armchair' ? 1 : width > 1.85 && r.chance(0.6) ? 3 : 2;
  const pillows = kind === 'armchair' ? (r.chance(0.5) ? 1 : 0) : r.weighted([
    [0, 2],
    [2, 4],
    [3, 2],
  ] as const);
  const frameMaterial = outdoorFrameMaterial(frame, style, r);
  const cushion = outdoorFabric(r.pick(style.upholstery));
  const pair = outdoorFabric(r.pick(style.accents));
  const pillowMaterials: Material[] = [];
  for (let i = 0; i < pillows; i++) pillowMaterials.push(i < 2 ? pair : outdoorFabric(r.pick(style.accents)));
  return {
    id,
    styleId: style.id,
    kind,
    frame,
    width: mm(width),
    depth: mm(depth),
    height: mm(height),
    seatHeight: mm(seatHeight),
    seatThickness: mm(r.uniform(0.12, 0.16)),
    armHeight: mm(armHeight),
    armWidth: mm(armWidth),
    member: mm(member),
    armCap: frame === 'aluminium' && r.chance(0.5),
    backSlats: r.int(3, 5),
    backCushionDepth: mm(r.uniform(0.13, 0.18)),
    backRake: mm(r.uniform(0.06, 0.12)),
    seats,
    softness: clamp(style.softness * r.uniform(1.0, 1.3), 0.03, 0.07),
    sag: style.sag * r.uniform(0.7, 1.1),
    pillows,
    pillowSize: mm(r.uniform(0.4, 0.48)),
    materials: { frame: frameMaterial, cushion, cap: TEAK, feet: frame === 'rattan' ? r.pick(POWDER_COATS) : frameMaterial, pillows: pillowMaterials },
  };
}

function buildOutdoor(p: OutdoorParams): PieceGeometry {
  const W = p.width;
  const D = p.depth;
  const H = p.height;
  const SH = p.seatHeight;
  const deck = SH - p.seatThickness;
  const parts: PiecePart[] = [];
  // What the cushions fill: inner faces of the arms, front of the back.
  let innerX: number;
  let backPlane: number;
  let seatFront: number;
  if (p.frame === 'teak') {
    const m = p.member;
    const aw = p.armWidth;
    const px = W / 2 - aw / 2;
    const yF = -D / 2 + 0.04 + m / 2;
    const yB = D / 2 - m / 2;
    const armTop = p.armHeight;
    const posts: Mesh[] = [];
    const boards: Mesh[] = [];
    const rails: Mesh[] = [];
    const sideSlats: Mesh[] = [];
    const crossRails: Mesh[] = [];
    for (const sx of [-1, 1]) {
      const x = sx * px;
      posts.push(roundedBoxBetween([x - m / 2, yF - m / 2, 0], [x + m / 2, yF + m / 2, armTop - 0.028], 0.004, 2));
      posts.push(roundedBoxBetween([x - m / 2, yB - m / 2, 0], [x + m / 2, yB + m / 2, H], 0.004, 2));
      boards.push(roundedBoxBetween([sx > 0 ? W / 2 - aw : -W / 2, -D / 2, armTop - 0.03], [sx > 0 ? W / 2 : -W / 2 + aw, yB - m / 2, armTop], 0.005, 2));
      // Side: a low rail, a seat rail and vertical slats up to the arm.
      rails.push(roundedBoxBetween([x - m * 0.3, yF, 0.1], [x + m * 0.3, yB, 0.14], 0.003, 1));
      rails.push(roundedBoxBetween([x - m * 0.35, yF, deck - 0.07], [x + m * 0.35, yB, deck], 0.003, 1));
      const slats = 3;
      for (let k = 1; k <= slats; k++) {
        const y = yF + ((yB - yF) * k) / (slats + 1);
        sideSlats.push(roundedBoxBetween([x - m * 0.25, y - 0.025, deck - 0.01], [x + m * 0.25, y + 0.025, armTop - 0.028], 0.003, 1));
      }
    }
    const sx0 = -px + m / 2;
    const sx1 = px - m / 2;
    crossRails.push(roundedBoxBetween([sx0, yF - m / 2, deck - 0.08], [sx1, yF - m / 2 + m * 0.6, deck], 0.003, 1));
    crossRails.push(roundedBoxBetween([sx0, yB - m / 2 - m * 0.6, deck - 0.08], [sx1, yB - m / 2, deck], 0.003, 1));
    const slatsAcross: Mesh[] = [];
    for (let k = 0; k < 4; k++) {
      const y0 = yF + m / 2 + 0.02 + ((yB - yF - m - 0.04) * k) / 4;
      slatsAcross.push(roundedBoxBetween([sx0, y0, deck - 0.022], [sx1, y0 + (yB - yF - m) / 4 - 0.03, deck], 0.003, 1));
    }
    const backBoards: Mesh[] = [];
    const railH = 0.06;
    backBoards.push(roundedBoxBetween([-px - m / 2, D / 2 - m, H - railH], [px + m / 2, D / 2, H], 0.005, 2));
    const zb0 = deck + 0.06;
    const zb1 = H - railH - 0.02;
    const pitch = (zb1 - zb0) / p.backSlats;
    for (let k = 0; k < p.backSlats; k++) {
      backBoards.push(roundedBoxBetween([sx0, D / 2 - m * 0.8, zb0 + k * pitch], [sx1, D / 2 - m * 0.25, zb0 + k * pitch + pitch * 0.6], 0.003, 1));
    }
    parts.push(part('posts', merge(...posts), 'frame', 'z'), part('arm-boards', merge(...boards), 'frame', 'y'), part('side-rails', merge(...rails), 'frame', 'y'));
    parts.push(part('side-slats', merge(...sideSlats), 'frame', 'z'), part('seat-rails', merge(...crossRails), 'frame', 'x'));
    parts.push(part('seat-slats', merge(...slatsAcross), 'frame', 'x'), part('back-slats', merge(...backBoards), 'frame', 'x'));
    innerX = px - m / 2 - 0.003;
    backPlane = D / 2 - m * 0.8;
    seatFront = -D / 2 + 0.04;
  } else if (p.frame === 'aluminium') {
    const rt = p.member;
    const loops: Mesh[] = [];
    const fillet = 0.05;
    for (const sx of [-1, 1]) {
      const x = sx * (W / 2 - rt);
      loops.push(
        tubeLoop(
          [
            [x, -D / 2 + rt, rt],
            [x, D / 2 - rt, rt],
            [x, D / 2 - rt, p.armHeight - rt],
            [x, -D / 2 + rt, p.armHeight - rt],
          ],
          rt,
          fillet,
        ),
      );
    }
    const xb = W / 2 - rt;
    loops.push(
      tubeLoop(
        [
          [-xb, D / 2 - rt, deck - 0.03],
          [xb, D / 2 - rt, deck - 0.03],
          [xb, D / 2 - rt, H - rt],
          [-xb, D / 2 - rt, H - rt],
        ],
        rt,
        fillet,
      ),
    );
    const seatRails = [
      tubeStraight([-xb, -D / 2 + 0.09, deck - rt], [xb, -D / 2 + 0.09, deck - rt], rt * 0.8),
      tubeStraight([-xb, D / 2 - 0.12, deck - rt], [xb, D / 2 - 0.12, deck - rt], rt * 0.8),
    ];
    const straps: Mesh[] = [];
    const zb0 = deck + 0.06;
    const zb1 = H - 0.08;
    for (let k = 0; k < p.backSlats; k++) {
      const z = zb0 + ((zb1 - zb0) * (k + 0.5)) / p.backSlats;
      straps.push(roundedBoxBetween([-xb, D / 2 - rt - 0.006, z - 0.022], [xb, D / 2 - rt + 0.006, z + 0.022], 0.004, 1));
    }
    parts.push(part('frame', merge(...loops, ...seatRails), 'frame'), part('back-straps', merge(...straps), 'frame'));
    if (p.armCap) {
      const boards = [-1, 1].map((sx) =>
        roundedBoxBetween([sx > 0 ? W / 2 - p.armWidth : -W / 2, -D / 2 + 0.01, p.armHeight - 0.004], [sx > 0 ? W / 2 : -W / 2 + p.armWidth, D / 2 - 2 * rt, p.armHeight + 0.022], 0.005, 2),
      );
      parts.push(part('arm-caps', merge(...boards), 'cap', 'y'));
    }
    innerX = W / 2 - 2 * rt - 0.004;
    backPlane = D / 2 - 2 * rt;
    seatFront = -D / 2 + 0.01;
  } else {
    // Woven rattan: a base, two arms and a back, on small feet.
    const aw = p.armWidth;
    const bt = p.member;
    const feet = 0.04;
    const rad = clamp(p.softness * 0.8, 0.025, 0.05);
    parts.push(
      part('base', roundedBoxBetween([-W / 2 + aw - 0.02, -D / 2 + 0.01, feet], [W / 2 - aw + 0.02, D / 2 - bt + 0.02, deck], rad, 3), 'frame', 'x'),
      part('arm-left', roundedBoxBetween([-W / 2, -D / 2, feet], [-W / 2 + aw, D / 2, p.armHeight], Math.min(rad, aw * 0.4), 3), 'frame', 'y'),
      part('arm-right', roundedBoxBetween([W / 2 - aw, -D / 2, feet], [W / 2, D / 2, p.armHeight], Math.min(rad, aw * 0.4), 3), 'frame', 'y'),
      part('back', roundedBoxBetween([-W / 2 + aw * 0.4, D / 2 - bt, feet], [W / 2 - aw * 0.4, D / 2, H], Math.min(rad, bt * 0.4), 3), 'frame', 'x'),
    );
    const feetMeshes: Mesh[] = [];
    for (const sx of [-1, 1]) {
      for (const sy of [-1, 1]) {
        const x = sx * (W / 2 - 0.06);
        const y = sy * (D / 2 - 0.06);
        feetMeshes.push(roundedBoxBetween([x - 0.025, y - 0.025, 0], [x + 0.025, y + 0.025, feet + 0.01], 0.004, 2));
      }
    }
    parts.push(part('feet', merge(...feetMeshes), 'feet'));
    innerX = W / 2 - aw;
    backPlane = D / 2 - bt;
    seatFront = -D / 2 + 0.01;
  }

  // Thick outdoor cushions.
  const gap = 0.006;
  const seatW = (2 * innerX - gap * (p.seats - 1)) / p.seats;
  const rad = clamp(p.softness, 0.02, p.seatThickness * 0.45);
  const backAt = (z: number): number => backPlane - p.backRake * clamp01(1 - (z - SH) / (H - SH));
  for (let i = 0; i < p.seats; i++) {
    const x0 = -innerX + i * (seatW + gap);
    parts.push(part(`seat-cushion-${i + 1}`, softCushion([x0, seatFront, deck], [x0 + seatW, backAt(deck) + 0.005, SH], rad, p.sag), 'cushion'));
    const upright = uprightCushion(x0, x0 + seatW, SH - 0.015, H - 0.015, p.backCushionDepth, clamp(p.softness * 1.1, 0.02, 0.07), clamp(p.softness * 0.45, 0.01, 0.03));
    parts.push(part(`back-cushion-${i + 1}`, deform(upright, ([x, y, z]) => [x, y + backAt(z), z]), 'cushion'));
  }
  for (let i = 0; i < p.pillows && i < 3; i++) {
    const side = i % 2 === 0 ? -1 : 1;
    const size = Math.min(p.pillowSize, (H - SH) * 0.9);
    let pillow = rotate(rotate(throwPillow(size, size * 0.3, size), 'x', -0.3), 'z', side * 0.15);
    let b = bounds(pillow);
    const tall = H - 0.015 - (SH - 0.01);
    if (b.max[2] - b.min[2] > tall) {
      const k = tall / (b.max[2] - b.min[2]);
      pillow = deform(pillow, ([x, y, z]) => [x * k, y * k, z * k]);
      b = bounds(pillow);
    }
    const xEdge = i < 2 ? innerX : innerX - p.pillowSize * 0.85;
    const dx = side < 0 ? -xEdge + 0.015 - b.min[0] : xEdge - 0.015 - b.max[0];
    const zMid = SH + (b.max[2] - b.min[2]) / 2;
    const dy = backAt(zMid) - p.backCushionDepth + 0.02 - b.max[1];
    parts.push(part(`pillow-${i + 1}`, translate(pillow, [dx, dy, SH - 0.01 - b.min[2]]), `pillow${i + 1}`));
  }
  const materials: Record<string, Material> = { frame: p.materials.frame, cushion: p.materials.cushion };
  if (p.frame === 'rattan') materials.feet = p.materials.feet;
  if (p.armCap && p.frame === 'aluminium') materials.cap = p.materials.cap;
  p.materials.pillows.forEach((m, i) => {
    if (i < p.pillows) materials[`pillow${i + 1}`] = m;
  });
  return { parts, materials };
}

/** A closed loop of round tube through `corners` with filleted corners. */
export function tubeLoop(corners: readonly Vec3[], radius: number, fillet: number): Mesh {
  return tubeOf(filletLoop(corners, fillet, 4), radius, 12);
}

/** A straight round bar. */
export function tubeStraight(a: Vec3, b: Vec3, radius: number): Mesh {
  return tubeOf([a, b], radius, 12);
}

function tubeOf(path: Vec3[], radius: number, segments: number): Mesh {
  return orientOutward(tube(path, radius, segments));
}

function outdoorFootprint(p: OutdoorParams): Footprint {
  return {
    width: p.width,
    depth: p.depth,
    height: p.height,
    placement: p.kind === 'sofa' ? 'against-wall' : 'floor',
    elevation: 0,
    frontClearance: p.kind === 'sofa' ? 0.7 : 0.55,
  };
}

export const outdoorSeating = defineGenerator<OutdoorParams>({
  ids: ['outdoor_sofa', 'garden_armchair'],
  sample: sampleOutdoor,
  footprint: outdoorFootprint,
  build: buildOutdoor,
});

export const SEATING_GENERATORS: FurnitureGenerator[] = [upholsteredSeating, outdoorSeating];
