import type { Random } from '../random.js';
import { fabric, type Material } from './materials.js';
import { bounds, orientOutward, rotate, type Mesh, type Vec3 } from './mesh.js';
import { clamp01, mm } from './numbers.js';
import type { StyleProfile } from './styles.js';

/**
 * Throw blankets: a soft textile over one arm of a sofa or armchair, over the back cushion in a back corner, or
 * folded across the foot of a bed's duvet.
 *
 * A throw is a sheet of cloth about a centimetre thick laid over the solids it rests on. The solids are cut into
 * slices across the throw; each slice's section is wrapped by its convex hull (cloth bridges hollows), offset
 * outward by a small gap: that is the throw's underside, so it never enters what it lies on. Where the cloth comes
 * down onto a seat it rounds the corner with a fillet and then follows the seat cushion's real top (its sag). The
 * sheet's own soft folds only ever push it outward, and it stops, or its folds flatten, where it would leave the
 * piece's box (the footprint is the piece's, with or without a throw).
 *
 * Whether a piece has a throw is drawn from its own random stream (the piece's Random forked with "throw"), so every
 * other parameter of every seed stays what it was.
 */

export type ThrowPlacement = 'arm' | 'back-corner' | 'bed-foot';

export interface ThrowParams {
  /** Over an arm, over the back cushion in a back corner, or folded across the foot of a bed. */
  placement: ThrowPlacement;
  /**
   * Which arm or corner, seen from the front: +1 right, −1 left. On a corner sofa +1 is the chaise's side (the
   * frame in which it is built before a chaise on the left is mirrored). Beds: 1.
   */
  side: 1 | -1;
  /** Its extent across the slices: along the arm, across the corner, or the depth of the bed's folded band. */
  width: number;
  /** From the arm's front, from the arm's inner face, or from the duvet's foot edge, to the throw. */
  inset: number;
  /** How far it lies onto the seat, or hangs down a bed's sides below the mattress top. */
  reach: number;
  thickness: number;
  /** Height of its soft folds, and where they fall. */
  fold: number;
  phase: number;
  material: Material;
}

/** How likely a sofa, armchair or bed of a style carries a throw. */
export const THROW_CHANCE: Record<string, number> = {
  scandinavian: 0.6,
  bohemian: 0.6,
  farmhouse: 0.55,
  traditional: 0.55,
  rustic: 0.5,
  coastal: 0.45,
  parisian: 0.4,
  luxury: 0.4,
  mediterranean: 0.4,
  japandi: 0.35,
  mid_century_modern: 0.35,
  contemporary: 0.3,
  art_deco: 0.25,
  modern: 0.2,
  industrial: 0.12,
  minimalist: 0.08,
};

/** Undyed and heathered yarns for a neutral knit. */
const NEUTRAL_YARNS = ['#EEE7DA', '#D9CBB3', '#BFB3A2', '#A7A39C', '#6E6A64', '#4A4643'];

/** A chunky knit (a coarse weave), a felted wool (loops) or a linen, in one of the style's accents or a neutral yarn. */
export function throwMaterial(style: StyleProfile, random: Random): Material {
  const color = random.chance(0.6) ? random.pick(style.accents).color : random.pick(NEUTRAL_YARNS);
  const look = random.weighted<'knit' | 'wool' | 'linen'>([
    ['knit', 0.5],
    ['wool', 0.2],
    ['linen', 0.3],
  ]);
  if (look === 'knit') return { kind: 'fabric', color, roughness: 0.97, scale: mm(random.uniform(0.005, 0.008)) };
  if (look === 'wool') return { ...fabric('boucle', color, 0.96), scale: 0.006 };
  return { ...fabric('fabric', color, 0.92), scale: 0.002 };
}

/**
 * A sofa's or armchair's throw, or none: drawn with the style's chance. Corners a throw pillow stands in are left
 * to the arm throw, which then lies in front of the pillow; a back without cushions takes the arm throw only.
 */
export function sampleSeatThrow(style: StyleProfile, random: Random, seat: { pillows: number; cushionedBack: boolean; armchair: boolean }): ThrowParams | undefined {
  if (!random.chance(THROW_CHANCE[style.id] ?? 0.3)) return undefined;
  // Pillows fill a sofa's left corner first, then the right one; an armchair's one pillow fills most of its back.
  const free: (1 | -1)[] = [];
  if (seat.pillows < 1) free.push(-1);
  if (seat.pillows < (seat.armchair ? 1 : 2)) free.push(1);
  const backCorner = seat.cushionedBack && free.length > 0 && random.chance(0.3);
  const side: 1 | -1 = free.length > 0 ? random.pick(free) : random.chance(0.5) ? 1 : -1;
  return {
    placement: backCorner ? 'back-corner' : 'arm',
    side,
    width: mm(backCorner ? random.uniform(0.34, 0.5) : random.uniform(0.32, 0.55)),
    inset: mm(backCorner ? random.uniform(0.012, 0.04) : random.uniform(0.05, 0.14)),
    reach: mm(backCorner ? random.uniform(0.06, 0.16) : random.uniform(0.06, 0.2)),
    thickness: mm(random.uniform(0.008, 0.012)),
    fold: mm(random.uniform(0.01, 0.022)),
    phase: random.uniform(0, Math.PI * 2),
    material: throwMaterial(style, random),
  };
}

/** A bed's throw, or none: a folded band across the foot of the duvet. */
export function sampleBedThrow(style: StyleProfile, random: Random): ThrowParams | undefined {
  if (!random.chance(THROW_CHANCE[style.id] ?? 0.3)) return undefined;
  return {
    placement: 'bed-foot',
    side: 1,
    width: mm(random.uniform(0.4, 0.6)),
    inset: mm(random.uniform(0.1, 0.22)),
    reach: mm(random.uniform(0.05, 0.14)),
    thickness: mm(random.uniform(0.014, 0.022)),
    fold: mm(random.uniform(0.003, 0.007)),
    phase: random.uniform(0, Math.PI * 2),
    material: throwMaterial(style, random),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Building

/** The gap between a throw's underside and what it rests on, metres. */
const GAP = 0.003;
/** Radius of the fillet where the cloth comes down from an arm or a back cushion onto the seat. */
const FILLET = 0.045;

/** What a throw is laid on and what it must keep clear of, in the frame it is built in. */
interface Scene {
  /** What the throw is draped over (their slices' hull). */
  solids: Mesh[];
  /** Seat cushions (or a duvet) it comes down onto: their top as a height field. */
  seats: Mesh[];
  /** Every other part near it: the throw is shortened to keep clear of them, or not laid. */
  obstacles: Mesh[];
}

/**
 * The throw over the right arm (the caller mirrors meshes for the left): `solids` the arm and its cap, `seatTop` the
 * seat cushions' top, `outerX` the piece's side. Undefined when the arm has no room for it (a pillow or the back
 * leaves less than 0.2 m).
 */
export function armThrow(t: ThrowParams, scene: Scene & { seatTop: number; outerX: number; maxZ: number }): Mesh | undefined {
  const arm = bounds(...scene.solids);
  const region = { u0: arm.min[0] - FILLET - t.reach - 0.03, u1: scene.outerX + 0.01, z0: scene.seatTop - 0.05, z1: arm.max[2] + 0.05 };
  // In front of a pillow it moves up to the arm's front if that makes room for it.
  const range = clearRange(arm.min[1] + t.inset, t.width, region, scene.obstacles) ?? clearRange(arm.min[1] + Math.min(t.inset, 0.045), t.width, region, scene.obstacles);
  if (!range) return undefined;
  return drape(t, scene, range, {
    seatTop: scene.seatTop,
    limit: (u, z) => u <= scene.outerX - 0.0015 && z <= scene.maxZ - 0.0015,
  });
}

/**
 * The throw over the back cushion in the right back corner (the caller mirrors for the left), from `armInnerX`
 * leftward: down the cushion's front onto the seat, and over its top as far as the back frame (front `backFront(z)`).
 */
export function backCornerThrow(
  t: ThrowParams,
  scene: Scene & { seatTop: number; armInnerX: number; cushionX0: number; backFront: (z: number) => number; maxZ: number },
): Mesh | undefined {
  // The drape's frame: the back (+Y) becomes +X, slices run along −X (v = −x).
  const toFrame = (m: Mesh): Mesh => rotate(m, 'z', -Math.PI / 2);
  const framed: Scene = { solids: scene.solids.map(toFrame), seats: scene.seats.map(toFrame), obstacles: scene.obstacles.map(toFrame) };
  const cushion = bounds(...framed.solids);
  const region = { u0: cushion.min[0] - FILLET - t.reach - 0.03, u1: cushion.max[0], z0: scene.seatTop - 0.05, z1: scene.maxZ };
  const start = -(scene.armInnerX - t.inset);
  const width = Math.min(t.width, -scene.cushionX0 - 0.012 - start);
  const range = clearRange(start, width, region, framed.obstacles);
  if (!range) return undefined;
  const mesh = drape(t, framed, range, {
    seatTop: scene.seatTop,
    limit: (u, z) => u <= scene.backFront(z) - 0.002 && z <= scene.maxZ - 0.0015,
    // Not down the crevice between the cushion's rounded back and the frame.
    maxNormalU: 0.35,
  });
  return mesh && rotate(mesh, 'z', Math.PI / 2);
}

/**
 * The folded band across the foot of a bed: over the duvet (`solids`: duvet and mattress) from `footY` + inset,
 * hanging down both sides to `reach` below `top` (never below `lowest`, never beyond ±`halfWidth`).
 */
export function bedThrow(t: ThrowParams, scene: Scene & { footY: number; top: number; lowest: number; halfWidth: number }): Mesh | undefined {
  const hangTo = Math.max(scene.top - t.reach, scene.lowest);
  return drape(t, scene, [scene.footY + t.inset, scene.footY + t.inset + t.width], {
    hangTo,
    limit: (u, z) => Math.abs(u) <= scene.halfWidth - 0.0015 && z >= scene.lowest,
  });
}

type P2 = [number, number];

/**
 * The slice range [start, start + width] shortened so that nothing else of the piece stands in the throw's region
 * (in u and z) over it; undefined if less than 0.2 m is left or something stands at its start.
 */
function clearRange(start: number, width: number, region: { u0: number; u1: number; z0: number; z1: number }, obstacles: Mesh[]): [number, number] | undefined {
  let end = start + width;
  for (const mesh of obstacles) {
    const b = bounds(mesh);
    if (b.max[0] < region.u0 || b.min[0] > region.u1 || b.max[2] < region.z0 || b.min[2] > region.z1) continue;
    if (b.max[1] < start || b.min[1] > end) continue;
    if (b.min[1] <= start + 0.02) return undefined;
    end = Math.min(end, b.min[1] - 0.015);
  }
  return end - start >= 0.2 ? [start, end] : undefined;
}

interface DrapeEnds {
  /** Arm and back corner: the cloth starts on the seat (top `seatTop`) and comes up the solid's inner (−u) side. */
  seatTop?: number;
  /** Bed band: both ends hang down the sides to this height. */
  hangTo?: number;
  /** Where the throw's outer surface may be: the piece's box, the back frame. */
  limit: (u: number, z: number) => boolean;
  /** How far past the top the cloth may turn down the far side (the largest +u component of its normal). */
  maxNormalU?: number;
}

interface Section {
  points: P2[];
  normals: P2[];
  /** Arc length of each point from the start. */
  s: number[];
  /** Indices where the seat part ends and where the part over the solid begins (the fillet between). */
  seatEnd: number;
  chainStart: number;
}

/** The sheet over the solids between slices `range` (y), in the piece's frame. */
function drape(t: ThrowParams, scene: Scene, range: [number, number], ends: DrapeEnds): Mesh | undefined {
  const [v0, v1] = range;
  // A bed's band is long and gently curved: coarser steps keep it to a few thousand points.
  const step = ends.hangTo !== undefined ? 0.02 : 0.008;
  const vs = edgeRows(v0, v1, step * 1.75, t.thickness * 0.6);
  const sections: Section[] = [];
  for (const v of vs) {
    const hull = convexHull(sliceAt(scene.solids, v));
    if (hull.length < 3) return undefined;
    const section = ends.seatTop !== undefined ? seatSection(hull, ends.seatTop + GAP, t, ends.limit, ends.maxNormalU ?? 1) : hangSection(hull, ends.hangTo!, t, ends.limit);
    if (!section) return undefined;
    sections.push(section);
  }
  // The same number of points on every slice: the seat part, the fillet and the part over the solid each resampled.
  const seatCount = ends.seatTop !== undefined ? Math.max(3, Math.round(t.reach / 0.015)) : 0;
  const filletCount = ends.seatTop !== undefined ? 8 : 0;
  const chainLength = Math.max(...sections.map((q) => q.s[q.s.length - 1]! - q.s[q.chainStart]!));
  const chainCount = Math.max(8, Math.round(chainLength / step));
  const grid = sections.map((q) => resampleSection(q, seatCount, filletCount, chainCount, t.thickness * 0.6));
  if (grid.some((q) => q.points.length !== grid[0]!.points.length)) return undefined;
  const ni = grid[0]!.points.length;
  const nj = grid.length;
  const seatEnd = grid[0]!.seatEnd;
  const chainStart = grid[0]!.chainStart;
  const sSeat = grid[0]!.s[seatEnd]!;
  const sChain = grid[0]!.s[chainStart]!;
  // Where the cloth reaches the top of what it hangs from (its normal turns up).
  let topIndex = chainStart;
  while (topIndex < ni - 1 && grid[0]!.normals[topIndex]![1] < 0.85) topIndex++;
  const sTop = grid[0]!.s[topIndex]!;
  // The hems are not ruled lines: each edge wanders inward by up to `wander` along the cloth. Every column of the
  // grid is re-spread between its two edges and read off the slices (the slices are close, so the surface between
  // them is the one they make).
  const wander = ends.hangTo !== undefined ? 0.004 : 0.014;
  const column = (i: number, v: number): { p: P2; n: P2; s: number; total: number } => {
    let j = 0;
    while (j < nj - 2 && vs[j + 1]! < v) j++;
    const f = clamp01((v - vs[j]!) / (vs[j + 1]! - vs[j]!));
    const a = grid[j]!;
    const b = grid[j + 1]!;
    const mix = (x: number, y: number): number => x + (y - x) * f;
    const nu = mix(a.normals[i]![0], b.normals[i]![0]);
    const nz = mix(a.normals[i]![1], b.normals[i]![1]);
    const l = Math.hypot(nu, nz) || 1;
    return {
      p: [mix(a.points[i]![0], b.points[i]![0]), mix(a.points[i]![1], b.points[i]![1])],
      n: [nu / l, nz / l],
      s: mix(a.s[i]!, b.s[i]!),
      total: mix(a.s[ni - 1]!, b.s[ni - 1]!),
    };
  };
  const inner: Vec3[][] = [];
  const outer: Vec3[][] = [];
  const seatHeights = scene.seats.length > 0 ? heightField(scene.seats) : undefined;
  const ridge = (x: number): number => (0.5 + 0.5 * Math.sin(x)) ** 2;
  for (let i = 0; i < ni; i++) {
    const rowIn: Vec3[] = [];
    const rowOut: Vec3[] = [];
    const s0 = grid[0]!.s[i]!;
    const e0 = wander * (0.55 + 0.45 * Math.sin(s0 / 0.06 + t.phase));
    const e1 = wander * (0.55 + 0.45 * Math.sin(s0 / 0.05 + t.phase * 2.7 + 1));
    const a0 = v0 + e0;
    const a1 = v1 - e1;
    for (let j = 0; j < nj; j++) {
      const v = a0 + ((vs[j]! - v0) * (a1 - a0)) / (v1 - v0);
      const c = column(i, v);
      let [u, z] = c.p;
      const [nu, nz] = c.n;
      const { s, total } = c;
      // On the seat, the cloth follows the cushion's top (its sag), blending in from the foot of the fillet.
      if (seatHeights && i < seatEnd) {
        const top = seatHeights(u, v);
        if (top !== undefined) {
          const w = smooth((sSeat - s) / 0.08);
          z = Math.max(top + GAP, z - w * Math.max(0, z - (top + GAP)));
        }
      }
      // On a bed the band lies on the duvet's real, rumpled top where it is level.
      if (seatHeights && ends.hangTo !== undefined && nz > 0.6) {
        const top = seatHeights(u, v);
        if (top !== undefined && top + GAP < z) z -= smooth((nz - 0.6) / 0.3) * (z - (top + GAP));
      }
      // Soft folds, ridges running down the cloth: outward only, flatter where it lies on a level top, none at an end
      // that stops short of the piece's box.
      const hanging = ends.hangTo !== undefined ? 1 : i < chainStart ? 1 : 1 - 0.7 * smooth((nz - 0.3) / 0.65);
      const ending = smooth((ends.hangTo !== undefined ? Math.min(s, total - s) : total - s) / 0.05);
      // On the seat the folds fan out toward the cloth's free end; across the cloth they come and go.
      const fan = i < seatEnd ? 1 - (0.35 * (sSeat - s)) / Math.max(0.05, sSeat) : 1;
      const across = (v - v0) * fan;
      const wave = 0.65 * ridge((2 * Math.PI * across) / 0.13 + t.phase + s * 3) + 0.35 * ridge((2 * Math.PI * across) / 0.075 + t.phase * 2.3 - s * 7);
      const swell = 0.65 + 0.35 * Math.sin((2 * Math.PI * (v - v0)) / 0.33 + t.phase * 1.3);
      // Where it hangs down a side the cloth stands off it a little, most halfway down.
      const billow = ends.hangTo === undefined && i >= chainStart && s < sTop ? t.fold * 0.6 * Math.sin((Math.PI * (s - sChain)) / Math.max(0.02, sTop - sChain)) * (0.7 + 0.3 * Math.sin((2 * Math.PI * (v - v0)) / 0.21 + t.phase)) : 0;
      let fold = t.fold * hanging * ending * wave * swell + Math.max(0, billow);
      // Soft hems: the sheet rounds off over its last few millimetres at every edge.
      const edge = Math.max(0, Math.min(s, total - s, v - a0, a1 - v));
      const r = t.thickness * 0.6;
      const k = edge >= r ? 1 : Math.max(0.3, Math.sqrt(Math.max(0, 1 - ((r - edge) / r) ** 2)));
      const at = (d: number): P2 => [u + nu * d, z + nz * d];
      const allowed = (d: number): boolean => {
        const [x, y] = at(d);
        return ends.limit(x, y);
      };
      while (fold > 1e-5 && !allowed(fold + (t.thickness * (1 + k)) / 2)) fold *= 0.7;
      if (fold <= 1e-5) fold = 0;
      const mid = fold + t.thickness / 2;
      const under = at(mid - (t.thickness * k) / 2);
      const over = at(mid + (t.thickness * k) / 2);
      rowIn.push([under[0], v, under[1]]);
      rowOut.push([over[0], v, over[1]]);
    }
    inner.push(rowIn);
    outer.push(rowOut);
  }
  return thickSheet(inner, outer);
}

/** Slice rows from a to b about `step` apart, with two extra rows within `hem` of each end for the rounded hems. */
function edgeRows(a: number, b: number, step: number, hem: number): number[] {
  const n = Math.max(2, Math.round((b - a) / step));
  const rows: number[] = [];
  for (let i = 0; i <= n; i++) rows.push(a + ((b - a) * i) / n);
  const extra = [a + hem * 0.25, a + hem * 0.7, b - hem * 0.7, b - hem * 0.25];
  return [...rows, ...extra].sort((x, y) => x - y).filter((x, i, all) => i === 0 || x - all[i - 1]! > 1e-6);
}

/** 0 below 0, 1 above 1, an S-curve between. */
function smooth(x: number): number {
  const s = clamp01(x);
  return s * s * (3 - 2 * s);
}

/** Where the meshes' edges cross the plane y = v, as (x, z) points. */
function sliceAt(meshes: Mesh[], v: number): P2[] {
  const points: P2[] = [];
  for (const mesh of meshes) {
    for (const face of mesh.faces) {
      for (let k = 0; k < face.length; k++) {
        const a = mesh.vertices[face[k]!]!;
        const b = mesh.vertices[face[(k + 1) % face.length]!]!;
        const da = a[1] - v;
        const db = b[1] - v;
        if (da === 0) points.push([a[0], a[2]]);
        else if (da * db < 0) {
          const f = da / (da - db);
          points.push([a[0] + (b[0] - a[0]) * f, a[2] + (b[2] - a[2]) * f]);
        }
      }
    }
  }
  return points;
}

/** Convex hull, counter-clockwise (u right, z up), without collinear points. */
function convexHull(points: P2[]): P2[] {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (p.length < 3) return p;
  const cross = (o: P2, a: P2, b: P2): number => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: P2[] = [];
  for (const q of p) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, q) <= 1e-12) lower.pop();
    lower.push(q);
  }
  const upper: P2[] = [];
  for (let i = p.length - 1; i >= 0; i--) {
    const q = p[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, q) <= 1e-12) upper.pop();
    upper.push(q);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/** The hull offset outward by `d` (corners rounded), counter-clockwise, with each point's outward normal. */
function offsetHull(hull: P2[], d: number): { points: P2[]; normals: P2[] } {
  const n = hull.length;
  const points: P2[] = [];
  const normals: P2[] = [];
  const edgeNormal = (a: P2, b: P2): number => Math.atan2(-(b[0] - a[0]), b[1] - a[1]);
  for (let i = 0; i < n; i++) {
    const prev = hull[(i - 1 + n) % n]!;
    const p = hull[i]!;
    const next = hull[(i + 1) % n]!;
    const a0 = edgeNormal(prev, p);
    let a1 = edgeNormal(p, next);
    while (a1 < a0) a1 += 2 * Math.PI;
    const steps = Math.max(1, Math.ceil((a1 - a0) / 0.25));
    for (let k = 0; k <= steps; k++) {
      const a = a0 + ((a1 - a0) * k) / steps;
      normals.push([Math.cos(a), Math.sin(a)]);
      points.push([p[0] + d * Math.cos(a), p[1] + d * Math.sin(a)]);
    }
  }
  return { points, normals };
}

/** The closest point of the closed polyline to q: its distance, the point and the index of the segment it lies on. */
function closest(poly: P2[], q: P2): { distance: number; point: P2; segment: number; f: number } {
  let best = { distance: Infinity, point: poly[0]!, segment: 0, f: 0 };
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i]!;
    const b = poly[(i + 1) % poly.length]!;
    const ex = b[0] - a[0];
    const ez = b[1] - a[1];
    const l2 = ex * ex + ez * ez;
    const f = l2 > 0 ? clamp01(((q[0] - a[0]) * ex + (q[1] - a[1]) * ez) / l2) : 0;
    const p: P2 = [a[0] + ex * f, a[1] + ez * f];
    const distance = Math.hypot(q[0] - p[0], q[1] - p[1]);
    if (distance < best.distance) best = { distance, point: p, segment: i, f };
  }
  return best;
}

/** Whether q lies inside the counter-clockwise convex polygon. */
function insideConvex(poly: P2[], q: P2): boolean {
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i]!;
    const b = poly[(i + 1) % poly.length]!;
    if ((b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0]) < 0) return false;
  }
  return true;
}

/**
 * Walks the offset hull from segment `segment` (at fraction f) in `direction` (+1 counter-clockwise), while
 * `keep(point, normal)` holds; the end is found to a tenth of a millimetre. At most once around.
 */
function walk(offset: { points: P2[]; normals: P2[] }, segment: number, f: number, direction: 1 | -1, keep: (p: P2, n: P2) => boolean): { points: P2[]; normals: P2[] } {
  const { points, normals } = offset;
  const n = points.length;
  const lerp = (a: P2, b: P2, x: number): P2 => [a[0] + (b[0] - a[0]) * x, a[1] + (b[1] - a[1]) * x];
  const unit = (a: P2): P2 => {
    const l = Math.hypot(a[0], a[1]) || 1;
    return [a[0] / l, a[1] / l];
  };
  const a = segment;
  const b = (segment + 1) % n;
  const start = lerp(points[a]!, points[b]!, f);
  const startNormal = unit(lerp(normals[a]!, normals[b]!, f));
  const outPoints: P2[] = [start];
  const outNormals: P2[] = [startNormal];
  if (!keep(start, startNormal)) return { points: outPoints, normals: outNormals };
  // Counter-clockwise the next point is the segment's end; clockwise its start, or the one before when we stand on it.
  let index = direction > 0 ? b : f > 0 ? a : (a - 1 + n) % n;
  let previous = start;
  let previousNormal = startNormal;
  for (let step = 0; step < n; step++) {
    const p = points[index]!;
    const q = normals[index]!;
    if (!keep(p, q)) {
      let lo = 0;
      let hi = 1;
      for (let k = 0; k < 24; k++) {
        const mid = (lo + hi) / 2;
        if (keep(lerp(previous, p, mid), unit(lerp(previousNormal, q, mid)))) lo = mid;
        else hi = mid;
      }
      outPoints.push(lerp(previous, p, lo));
      outNormals.push(unit(lerp(previousNormal, q, lo)));
      break;
    }
    outPoints.push(p);
    outNormals.push(q);
    previous = p;
    previousNormal = q;
    index = (index + direction + n) % n;
  }
  return { points: outPoints, normals: outNormals };
}

/**
 * A slice of a throw that starts on the seat: along the seat at `seatZ`, round a fillet onto the solid's inner side,
 * up it, over its top and down its far side while the throw's outer surface stays inside `limit`.
 */
function seatSection(hull: P2[], seatZ: number, t: ThrowParams, limit: (u: number, z: number) => boolean, maxNormalU: number): Section | undefined {
  const offset = offsetHull(hull, GAP);
  const poly = offset.points;
  // The fillet's centre: at FILLET above the seat, FILLET from the offset hull, on the seat's side.
  const cz = seatZ + FILLET;
  const minU = Math.min(...poly.map((p) => p[0]));
  const maxU = Math.max(...poly.map((p) => p[0]));
  const gap = (cu: number): number => (insideConvex(poly, [cu, cz]) ? -1 : closest(poly, [cu, cz]).distance - FILLET);
  let lo = minU - FILLET - 1;
  let hi = maxU;
  if (gap(hi) > 0) return undefined;
  for (let k = 0; k < 40; k++) {
    const mid = (lo + hi) / 2;
    if (gap(mid) > 0) lo = mid;
    else hi = mid;
  }
  const cu = lo;
  const touch = closest(poly, [cu, cz]);
  const points: P2[] = [];
  const normals: P2[] = [];
  // Seat: from the free end to the foot of the fillet.
  const seatSteps = 12;
  for (let k = 0; k < seatSteps; k++) {
    points.push([cu - t.reach + (t.reach * k) / seatSteps, seatZ]);
    normals.push([0, 1]);
  }
  const seatEnd = points.length;
  // Fillet: a quarter-ish circle about (cu, cz) from straight below it to where it touches the hull.
  const a0 = -Math.PI / 2;
  const a1 = Math.atan2(touch.point[1] - cz, touch.point[0] - cu);
  for (let k = 0; k < 16; k++) {
    const a = a0 + ((a1 - a0) * k) / 16;
    points.push([cu + FILLET * Math.cos(a), cz + FILLET * Math.sin(a)]);
    normals.push([-Math.cos(a), -Math.sin(a)]);
  }
  const chainStart = points.length;
  // Up the inner side (clockwise on the counter-clockwise hull), over the top, down the far side.
  // It stops where its outer surface would leave `limit`, where it would turn down the far side more steeply than
  // `maxNormalU` allows, or where it would go under the solid.
  const keep = (p: P2, n: P2): boolean => n[0] <= maxNormalU && !(n[0] > 0 && n[1] < -0.3) && limit(p[0] + n[0] * t.thickness, p[1] + n[1] * t.thickness);
  const chain = walk(offset, touch.segment, touch.f, -1, keep);
  if (chain.points.length < 2 || Math.hypot(chain.points[chain.points.length - 1]![0] - touch.point[0], chain.points[chain.points.length - 1]![1] - touch.point[1]) < 0.05) return undefined;
  points.push(...chain.points);
  normals.push(...chain.normals);
  return withLengths(points, normals, seatEnd, chainStart);
}

/** A slice of a throw laid over the top of the solid and hanging down both sides to `hangTo` (a bed's band). */
function hangSection(hull: P2[], hangTo: number, t: ThrowParams, limit: (u: number, z: number) => boolean): Section | undefined {
  const offset = offsetHull(hull, GAP);
  // Start at the top: the offset point whose normal is closest to straight up.
  let top = 0;
  offset.normals.forEach((n, i) => {
    if (n[1] > offset.normals[top]![1]) top = i;
  });
  const keep = (p: P2, n: P2): boolean => p[1] >= hangTo && n[1] > -0.3 && limit(p[0] + n[0] * t.thickness, p[1] + n[1] * t.thickness);
  const left = walk(offset, top, 0, 1, keep);
  const right = walk(offset, top, 0, -1, keep);
  if (left.points.length < 2 || right.points.length < 2) return undefined;
  const points = [...left.points.slice(1).reverse(), ...right.points];
  const normals = [...left.normals.slice(1).reverse(), ...right.normals];
  return withLengths(points, normals, 0, 0);
}

function withLengths(points: P2[], normals: P2[], seatEnd: number, chainStart: number): Section {
  const s = [0];
  for (let i = 1; i < points.length; i++) s.push(s[i - 1]! + Math.hypot(points[i]![0] - points[i - 1]![0], points[i]![1] - points[i - 1]![1]));
  return { points, normals, s, seatEnd, chainStart };
}

/**
 * The section resampled evenly by arc length: `seatCount` points on the seat part, `filletCount` on the fillet,
 * `chainCount` over the solid, and two more within `hem` of each end for the rounded hems.
 */
function resampleSection(q: Section, seatCount: number, filletCount: number, chainCount: number, hem: number): Section {
  const total = q.s[q.s.length - 1]!;
  const sSeat = q.s[q.seatEnd]!;
  const sChain = q.s[q.chainStart]!;
  const at: number[] = [];
  for (let k = 0; k < seatCount; k++) at.push((sSeat * k) / seatCount);
  for (let k = 0; k < filletCount; k++) at.push(sSeat + ((sChain - sSeat) * k) / filletCount);
  for (let k = 0; k <= chainCount; k++) at.push(sChain + ((total - sChain) * k) / chainCount);
  const marks = [hem * 0.25, hem * 0.7, total - hem * 0.7, total - hem * 0.25];
  const all = [...at, ...marks].sort((a, b) => a - b).filter((x, i, list) => i === 0 || x - list[i - 1]! > 1e-6);
  const points: P2[] = [];
  const normals: P2[] = [];
  let seg = 0;
  for (const s of all) {
    while (seg < q.s.length - 2 && q.s[seg + 1]! < s) seg++;
    const span = q.s[seg + 1]! - q.s[seg]!;
    const f = span > 0 ? clamp01((s - q.s[seg]!) / span) : 0;
    const a = q.points[seg]!;
    const b = q.points[seg + 1]!;
    points.push([a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f]);
    const na = q.normals[seg]!;
    const nb = q.normals[seg + 1]!;
    const nx = na[0] + (nb[0] - na[0]) * f;
    const nz = na[1] + (nb[1] - na[1]) * f;
    const l = Math.hypot(nx, nz) || 1;
    normals.push([nx / l, nz / l]);
  }
  // Which resampled points are on the seat, and where the part over the solid begins.
  const seatEnd = all.filter((s) => s < sSeat - 1e-9).length;
  const chainStart = all.filter((s) => s < sChain - 1e-9).length;
  return { points, normals, s: all, seatEnd, chainStart };
}

/**
 * The top of the meshes as a height field: the highest point of their faces above (x, y), or undefined where none
 * is. Faces are fanned into triangles.
 */
function heightField(meshes: Mesh[]): (x: number, y: number) => number | undefined {
  type Triangle = [Vec3, Vec3, Vec3];
  const triangles: Triangle[] = [];
  for (const mesh of meshes) {
    for (const face of mesh.faces) {
      const a = mesh.vertices[face[0]!]!;
      for (let k = 1; k + 1 < face.length; k++) triangles.push([a, mesh.vertices[face[k]!]!, mesh.vertices[face[k + 1]!]!]);
    }
  }
  // Triangles binned on a 5 cm grid of the floor plan.
  const cell = 0.05;
  const b = bounds(...meshes);
  const columns = Math.max(1, Math.ceil((b.max[0] - b.min[0]) / cell) + 1);
  const rows = Math.max(1, Math.ceil((b.max[1] - b.min[1]) / cell) + 1);
  const bins: Triangle[][] = Array.from({ length: columns * rows }, () => []);
  const col = (x: number): number => Math.min(columns - 1, Math.max(0, Math.floor((x - b.min[0]) / cell)));
  const row = (y: number): number => Math.min(rows - 1, Math.max(0, Math.floor((y - b.min[1]) / cell)));
  for (const tri of triangles) {
    const [a, p, c] = tri;
    for (let i = col(Math.min(a[0], p[0], c[0])); i <= col(Math.max(a[0], p[0], c[0])); i++) {
      for (let j = row(Math.min(a[1], p[1], c[1])); j <= row(Math.max(a[1], p[1], c[1])); j++) bins[j * columns + i]!.push(tri);
    }
  }
  return (x, y) => {
    if (x < b.min[0] || x > b.max[0] || y < b.min[1] || y > b.max[1]) return undefined;
    let top: number | undefined;
    for (const [a, p, c] of bins[row(y) * columns + col(x)]!) {
      const d = (p[1] - c[1]) * (a[0] - c[0]) + (c[0] - p[0]) * (a[1] - c[1]);
      if (Math.abs(d) < 1e-14) continue;
      const l1 = ((p[1] - c[1]) * (x - c[0]) + (c[0] - p[0]) * (y - c[1])) / d;
      const l2 = ((c[1] - a[1]) * (x - c[0]) + (a[0] - c[0]) * (y - c[1])) / d;
      const l3 = 1 - l1 - l2;
      if (l1 < -1e-9 || l2 < -1e-9 || l3 < -1e-9) continue;
      const z = l1 * a[2] + l2 * p[2] + l3 * c[2];
      if (top === undefined || z > top) top = z;
    }
    return top;
  };
}

/** A closed solid between two grids of the same size (its underside and top), their borders joined by rims. */
function thickSheet(inner: Vec3[][], outer: Vec3[][]): Mesh {
  const ni = inner.length;
  const nj = inner[0]!.length;
  const vertices: Vec3[] = [...inner.flat(), ...outer.flat()];
  const P = (i: number, j: number): number => i * nj + j;
  const Q = (i: number, j: number): number => ni * nj + i * nj + j;
  const faces: number[][] = [];
  for (let i = 0; i + 1 < ni; i++) {
    for (let j = 0; j + 1 < nj; j++) {
      faces.push([Q(i, j), Q(i + 1, j), Q(i + 1, j + 1), Q(i, j + 1)]);
      faces.push([P(i, j), P(i, j + 1), P(i + 1, j + 1), P(i + 1, j)]);
    }
  }
  const J = nj - 1;
  const I = ni - 1;
  for (let i = 0; i + 1 < ni; i++) {
    faces.push([Q(i + 1, 0), Q(i, 0), P(i, 0), P(i + 1, 0)]);
    faces.push([Q(i, J), Q(i + 1, J), P(i + 1, J), P(i, J)]);
  }
  for (let j = 0; j + 1 < nj; j++) {
    faces.push([Q(0, j), Q(0, j + 1), P(0, j + 1), P(0, j)]);
    faces.push([Q(I, j + 1), Q(I, j), P(I, j), P(I, j + 1)]);
  }
  return orientOutward({ vertices, faces });
}
