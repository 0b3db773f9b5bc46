import { Random } from '../../random.js';
import { capped, defineGenerator, type Footprint, type FurnitureGenerator, type PieceGeometry, type PiecePart, type SizeLimits } from '../generator.js';
import { mixHex, parseHex, plain, type Material } from '../materials.js';
import { cylinder, deform, ellipsoid, lathe, loft, merge, rotate, roundedBoxBetween, translate, tube, type Mesh, type Vec3 } from '../mesh.js';
import { clamp, mm } from '../numbers.js';
import { ellipse, roundedRectangle } from '../outline.js';
import { fourLegs, handle, isMetalLeg, leg, plinthBase, sledBase } from '../parts.js';
import type { HandleKind, LegKind, StyleProfile } from '../styles.js';

/**
 * Case goods: cabinets, chests, wardrobes, bookcases, vanities, a kitchen island, a kitchen cart and a refrigerator.
 *
 * A cabinet is built as a joiner builds it: two side panels, a bottom board, a back panel and dividers in the style's
 * case finish, a top (a wood board with its grain along the width, a stone worktop, a ceramic basin top), and fronts
 * as separate panels set 2 mm into the carcass with a 3 mm reveal between them, so that doors and drawers read as
 * such. Shaker and raised-panel fronts for the traditional families, slab fronts for the modern ones; handles of the
 * style's kind (none: push-to-open), and the style's base (a recessed plinth, short tapered legs, bun or turned feet,
 * metal legs or sled runners). Open compartments get shelves, and bookcases books (small boxes of varied sizes and
 * colours, a few leaning or stacked) and a few objects.
 */

/** Reveal between fronts and between a front and the carcass, metres. */
const GAP = 0.003;
/** Fronts sit this far behind the carcass's front edges. */
const FRONT_INSET = 0.002;
/** How far shaker frames and raised panels stand out of a front. */
const PROUD = 0.006;
/** Back panel thickness. */
const BACK = 0.01;
/** How far each handle kind of parts.handle stands out of the front it is fixed to. */
const HANDLE_REACH: Record<HandleKind, number> = { bar: 0.031, knob: 0.029, ring: 0.016, cup: 0.018, none: 0 };

type FrontStyle = 'slab' | 'shaker' | 'raised';
type CellKind = 'drawer' | 'door' | 'flap' | 'open';
type BaseGroup = 'low' | 'tall' | 'kitchen';

/** One compartment of a bay, from the bottom up: its share of the bay's height, its fronts side by side, shelves. */
export interface CellSpec {
  kind: CellKind;
  size: number;
  /** Fronts side by side (door leaves, drawers next to each other). */
  leaves: number;
  /** Shelves inside an open compartment. */
  shelves: number;
}

/** A vertical section of the carcass between two panels: its share of the inner width and its cells. */
export interface BaySpec {
  size: number;
  cells: CellSpec[];
}

export interface BaseSpec {
  kind: LegKind;
  /** Height from the floor to the underside of the carcass. */
  height: number;
  thickness: number;
}

export interface TopSpec {
  thickness: number;
  /** Overhangs beyond the carcass. */
  front: number;
  side: number;
  back: number;
  radius: number;
  /** A moulded cornice: a second, smaller board under the top (traditional pieces). */
  moulding: boolean;
}

export interface VanitySpec {
  basins: number;
  /** A vessel bowl standing on a counter, or a ceramic top with the basin moulded into it. */
  kind: 'vessel' | 'integrated';
  shape: 'round' | 'oval' | 'rect';
  basinWidth: number;
  basinDepth: number;
  /** Vessel: height above the counter; integrated: depth of the bowl below the top. */
  basinHeight: number;
  /** How much taller than strictly needed the tap is. */
  tapRise: number;
}

export interface CaseMaterials {
  carcass: Material;
  front: Material;
  top: Material;
  base: Material;
  metal: Material;
  ceramic: Material;
  accent: Material;
}

export interface CaseParams {
  id: string;
  styleId: string;
  /** Overall width and depth (handles and overhangs included). */
  width: number;
  depth: number;
  /** Height of the top surface (the counter of a vanity; basins and taps stand above it). */
  height: number;
  board: number;
  frontThickness: number;
  frontStyle: FrontStyle;
  base: BaseSpec;
  top: TopSpec;
  bays: BaySpec[];
  handle: HandleKind;
  /** Drawer bar length, and the vertical bar length on doors. */
  handleLength: number;
  doorHandleLength: number;
  contents: 'none' | 'books' | 'decor' | 'towels';
  contentSeed: number;
  vanity: VanitySpec | null;
  placement: 'floor' | 'against-wall';
  frontClearance: number;
  materials: CaseMaterials;
}

export interface CartParams {
  id: string;
  styleId: string;
  width: number;
  depth: number;
  height: number;
  frame: 'metal' | 'wood';
  post: number;
  topThickness: number;
  shelves: number;
  drawer: boolean;
  handle: HandleKind;
  casterRadius: number;
  edge: number;
  materials: { top: Material; shelf: Material; frame: Material; metal: Material; wheel: Material; front: Material };
}

export interface FridgeParams {
  id: string;
  styleId: string;
  width: number;
  depth: number;
  height: number;
  /** Freezer under or over the fridge compartment, as a drawer or a door. */
  freezer: 'bottom' | 'top';
  freezerDrawer: boolean;
  /** Freezer door height. */
  freezerHeight: number;
  doorThickness: number;
  radius: number;
  kick: number;
  handleSide: 'left' | 'right';
  handleLength: number;
  materials: { finish: Material; handle: Material; gasket: Material; grille: Material };
}

// ---------------------------------------------------------------------------------------------------------------
// Shared helpers.

class Assembly {
  readonly parts: PiecePart[] = [];
  readonly materials: Record<string, Material> = {};

  add(name: string, meshes: readonly (Mesh | undefined)[], key: string, material: Material, grain?: 'x' | 'y' | 'z'): void {
    const present = meshes.filter((m): m is Mesh => m !== undefined && m.faces.length > 0);
    if (present.length === 0) return;
    const part: PiecePart = { name, mesh: present.length === 1 ? present[0]! : merge(...present), material: key };
    if (grain && (material.kind === 'wood' || material.kind === 'rattan' || material.kind === 'fabric' || material.kind === 'painted-wood')) part.grain = grain;
    this.parts.push(part);
    this.materials[key] = material;
  }

  geometry(): PieceGeometry {
    return { parts: this.parts, materials: this.materials };
  }
}

function luminance(hex: string): number {
  const [r, g, b] = parseHex(hex);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}


/** A plan outline at height z: a rounded rectangle of fixed point count, or an ellipse. */
function outline(shape: 'round' | 'oval' | 'rect', cx: number, cy: number, w: number, d: number, z: number, cornerRatio = 0.3): Vec3[] {
  if (shape === 'rect') {
    const r = clamp(Math.min(w, d) * cornerRatio, 0.001, Math.min(w, d) / 2 - 0.001);
    return roundedRectangle(w, d, r, 4).map(([x, y]) => [cx + x, cy + y, z] as Vec3);
  }
  return ellipse(w, d, 40).map(([x, y]) => [cx + x, cy + y, z] as Vec3);
}

/** A rounded rectangle outline with a given corner radius (for a top and the hole in it). */
function rectRing(cx: number, cy: number, w: number, d: number, r: number, z: number): Vec3[] {
  const rr = clamp(r, 0.001, Math.min(w, d) / 2 - 0.001);
  return roundedRectangle(w, d, rr, 4).map(([x, y]) => [cx + x, cy + y, z] as Vec3);
}

// ---------------------------------------------------------------------------------------------------------------
// Bases: plinths, legs, feet, sled runners.

/** How far a leg of a kind reaches out of its spot (splayed legs lean, cabriole knees bow). */
function legReach(kind: LegKind, height: number, thickness: number): number {
  switch (kind) {
    case 'splayed':
      return Math.min(height * 0.18, 0.06) + thickness / 2;
    case 'cabriole':
      return thickness * 0.8;
    case 'hairpin':
      return Math.min(0.09, height * 0.35) * 0.5 + Math.max(0.005, thickness * 0.12);
    case 'bun':
      return thickness * 0.6;
    case 'metal-square':
      return thickness * 0.22;
    default:
      return thickness * 0.5;
  }
}

/** The base under a carcass of width cw and depth cd centred at y = cy, from the floor to `spec.height`. */
function baseMesh(spec: BaseSpec, cw: number, cd: number, cy: number): Mesh {
  const h = spec.height;
  if (spec.kind === 'plinth') return translate(plinthBase(cw, cd, h, Math.min(0.05, cd * 0.08)), [0, cy, 0]);
  if (spec.kind === 'sled') {
    const r = 0.011;
    return translate(sledBase(cw - 2 * r - 0.08, cd - 2 * r - 0.03, h, r), [0, cy, 0]);
  }
  const inset = legReach(spec.kind, h, spec.thickness) + 0.014;
  const meshes = [translate(fourLegs(spec.kind, cw, cd, inset, h, spec.thickness), [0, cy, 0])];
  if (cw > 1.7 && spec.kind !== 'block' && spec.kind !== 'bun') {
    for (const sy of [-1, 1]) meshes.push(leg(spec.kind, { x: 0, y: cy + sy * (cd / 2 - inset), outward: [0, sy] }, h, spec.thickness));
  }
  const legs = merge(...meshes);
  // The mitre at the sharp V of a hairpin's foot reaches below the floor: the foot is flattened onto it instead.
  return spec.kind === 'hairpin' ? deform(legs, ([x, y, z]) => [x, y, Math.max(0, z)]) : legs;
}

function sampleBase(style: StyleProfile, r: Random, group: BaseGroup): BaseSpec {
  const options: [LegKind, number][] = style.legs.map((original, i) => {
    let kind: LegKind = original;
    if (group === 'tall' && (kind === 'hairpin' || kind === 'sled')) kind = kind === 'hairpin' ? 'metal-square' : 'plinth';
    if (group === 'kitchen' && kind !== 'plinth' && kind !== 'block' && kind !== 'bun' && kind !== 'turned') kind = 'plinth';
    let weight = 3 - Math.min(2, i);
    if (kind === 'plinth') weight *= group === 'low' ? 1.5 : 2.5;
    return [kind, weight];
  });
  const kind = r.weighted(options);
  const [lo, hi] = style.legHeight;
  const u = (a: number, b: number): number => mm(r.uniform(a, b));
  switch (kind) {
    case 'plinth':
      return { kind, height: group === 'kitchen' ? u(0.09, 0.12) : u(0.05, 0.09), thickness: 0 };
    case 'sled':
      return { kind, height: u(0.06, 0.11), thickness: 0 };
    case 'block':
      return { kind, height: group === 'kitchen' ? u(0.08, 0.11) : u(0.03, 0.07), thickness: u(0.05, 0.07) };
    case 'bun':
      return { kind, height: u(0.05, 0.08), thickness: u(0.07, 0.09) };
    case 'turned':
      return { kind, height: group === 'low' ? u(0.1, 0.16) : u(0.08, 0.12), thickness: u(0.055, 0.07) };
    case 'cabriole':
      return { kind, height: group === 'low' ? u(0.12, 0.2) : u(0.1, 0.14), thickness: u(0.05, 0.06) };
    case 'tapered':
    case 'splayed':
      return { kind, height: group === 'low' ? u(Math.max(0.1, lo), Math.max(0.14, Math.min(0.24, hi + 0.04))) : u(0.08, 0.12), thickness: u(0.042, 0.052) };
    case 'hairpin':
      return { kind, height: u(0.15, 0.24), thickness: 0.05 };
    case 'metal-square':
      return { kind, height: group === 'low' ? u(0.1, 0.2) : u(0.06, 0.1), thickness: u(0.06, 0.085) };
  }
}

/** Front styles by style id: slabs for the modern families, shaker and raised panels for the traditional ones. */
const FRONT_STYLES: Record<string, readonly FrontStyle[]> = {
  farmhouse: ['shaker'],
  coastal: ['shaker', 'slab'],
  rustic: ['shaker', 'slab'],
  mediterranean: ['shaker', 'slab'],
  bohemian: ['slab', 'shaker'],
  traditional: ['raised', 'raised', 'shaker'],
  parisian: ['raised', 'shaker'],
};

/** Width of the frame of a shaker or raised-panel front, or 0 when the front is a slab (or too small for a frame). */
function frontFrame(style: FrontStyle, w: number, h: number): number {
  if (style === 'slab') return 0;
  const f = Math.min(0.07, w * 0.18, h * 0.2);
  return f >= 0.025 ? f : 0;
}

/** A front panel from (x0, z0) to (x1, z1) whose outer face is the plane y = yF, with its shaker frame or raised panel. */
function frontPanel(x0: number, x1: number, z0: number, z1: number, yF: number, ft: number, style: FrontStyle, radius: number): Mesh {
  const slab = roundedBoxBetween([x0, yF, z0], [x1, yF + ft, z1], radius, 2);
  const f = frontFrame(style, x1 - x0, z1 - z0);
  if (f === 0) return slab;
  const r = Math.min(0.002, PROUD / 3);
  if (style === 'raised') return merge(slab, roundedBoxBetween([x0 + f, yF - PROUD, z0 + f], [x1 - f, yF + 0.001, z1 - f], PROUD * 0.7, 2));
  return merge(
    slab,
    roundedBoxBetween([x0, yF - PROUD, z0], [x0 + f, yF + 0.001, z1], r, 1),
    roundedBoxBetween([x1 - f, yF - PROUD, z0], [x1, yF + 0.001, z1], r, 1),
    roundedBoxBetween([x0 + f, yF - PROUD, z0], [x1 - f, yF + 0.001, z0 + f], r, 1),
    roundedBoxBetween([x0 + f, yF - PROUD, z1 - f], [x1 - f, yF + 0.001, z1], r, 1),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Case layout: shared by footprint and build so that both agree.

interface FrontLayout {
  kind: 'drawer' | 'door' | 'flap';
  x0: number;
  x1: number;
  z0: number;
  z1: number;
  frame: number;
  /** Where the handles go, how far their mounting face stands out of the front's face, and whether they stand upright. */
  handles: { x: number; z: number }[];
  handleFace: number;
  vertical: boolean;
  length: number;
}

interface Compartment {
  x0: number;
  x1: number;
  z0: number;
  z1: number;
}

interface CaseLayout {
  cw: number;
  cf: number;
  cb: number;
  z0: number;
  zc: number;
  xi0: number;
  xi1: number;
  yF: number;
  dividers: number[];
  /** Boards across a bay: x range and z range. */
  shelves: { x0: number; x1: number; z0: number; z1: number }[];
  fronts: FrontLayout[];
  compartments: Compartment[];
}

function doorHandleZ(z0: number, z1: number, half: number): number {
  const lo = z0 + 0.05 + half;
  const hi = z1 - 0.05 - half;
  if (lo >= hi) return (z0 + z1) / 2;
  if (z1 <= 1.15) return hi;
  if (z0 >= 1.0) return lo;
  return clamp(1.02, lo, hi);
}

function caseLayout(p: CaseParams): CaseLayout {
  const b = p.board;
  const cw = p.width - 2 * Math.max(0, p.top.side);
  const z0 = p.base.height;
  const zc = p.height - p.top.thickness;
  const xi0 = -cw / 2 + b;
  const xi1 = cw / 2 - b;
  const zi0 = z0 + b;
  const zi1 = zc;
  const dividers: number[] = [];
  const shelves: CaseLayout['shelves'] = [];
  const fronts: FrontLayout[] = [];
  const compartments: Compartment[] = [];
  const innerWidth = xi1 - xi0 - b * (p.bays.length - 1);
  const baySum = p.bays.reduce((s, bay) => s + bay.size, 0);
  let x = xi0;
  p.bays.forEach((bay, bi) => {
    const bx0 = x;
    const bx1 = x + (innerWidth * bay.size) / baySum;
    x = bx1 + b;
    if (bi + 1 < p.bays.length) dividers.push(bx1 + b / 2);
    const bayCentre = (bx0 + bx1) / 2;
    const cellSum = bay.cells.reduce((s, c) => s + c.size, 0);
    const bounds: number[] = [zi0];
    let z = zi0;
    for (const cell of bay.cells) {
      z += ((zi1 - zi0) * cell.size) / cellSum;
      bounds.push(z);
    }
    bay.cells.forEach((cell, ci) => {
      const below = ci > 0 ? bay.cells[ci - 1]! : undefined;
      const above = ci + 1 < bay.cells.length ? bay.cells[ci + 1]! : undefined;
      const boardBelow = below !== undefined && (below.kind === 'open' || cell.kind === 'open');
      const boardAbove = above !== undefined && (above.kind === 'open' || cell.kind === 'open');
      const oz0 = bounds[ci]! + (boardBelow ? b / 2 : 0);
      const oz1 = bounds[ci + 1]! - (boardAbove ? b / 2 : 0);
      if (boardBelow) shelves.push({ x0: bx0, x1: bx1, z0: bounds[ci]! - b / 2, z1: bounds[ci]! + b / 2 });
      if (cell.kind === 'open') {
        const n = Math.max(0, cell.shelves);
        const step = (oz1 - oz0 + b) / (n + 1);
        let cz = oz0;
        for (let s = 1; s <= n; s++) {
          const sz = oz0 - b / 2 + step * s;
          shelves.push({ x0: bx0, x1: bx1, z0: sz - b / 2, z1: sz + b / 2 });
          compartments.push({ x0: bx0, x1: bx1, z0: cz, z1: sz - b / 2 });
          cz = sz + b / 2;
        }
        compartments.push({ x0: bx0, x1: bx1, z0: cz, z1: oz1 });
        return;
      }
      // Fronts: the reveal is GAP to the carcass and to a shelf, GAP/2 each side of a boundary between two fronts.
      const fz0 = oz0 + (ci === 0 || boardBelow ? GAP : GAP / 2);
      const fz1 = oz1 - (above === undefined || boardAbove ? GAP : GAP / 2);
      const n = Math.max(1, cell.leaves);
      const fw = (bx1 - bx0 - 2 * GAP - (n - 1) * GAP) / n;
      for (let i = 0; i < n; i++) {
        const fx0 = bx0 + GAP + i * (fw + GAP);
        const fx1 = fx0 + fw;
        const frame = frontFrame(p.frontStyle, fw, fz1 - fz0);
        const h = fz1 - fz0;
        let handles: { x: number; z: number }[] = [];
        let vertical = false;
        let length = p.handleLength;
        let handleFace = 0;
        if (cell.kind === 'drawer') {
          const twin = fw > 0.65 && p.handle !== 'bar';
          const hz = h > 0.3 ? fz1 - Math.min(0.1, h / 4) : (fz0 + fz1) / 2;
          handles = twin ? [{ x: fx0 + fw / 4, z: hz }, { x: fx1 - fw / 4, z: hz }] : [{ x: (fx0 + fx1) / 2, z: hz }];
          length = Math.min(p.handleLength, fw * 0.5);
          handleFace = frame > 0 && p.frontStyle === 'raised' ? PROUD : 0;
        } else if (cell.kind === 'flap') {
          handles = [{ x: (fx0 + fx1) / 2, z: fz1 - (frame > 0 ? frame / 2 : 0.045) }];
          length = Math.min(p.handleLength, fw * 0.5);
          handleFace = frame > 0 && p.frontStyle === 'shaker' ? PROUD : 0;
        } else {
          // Door: the handle on the free edge. Single doors open away from the piece's middle, leaves in pairs meet.
          const handleRight = n === 1 ? bayCentre <= 0.01 : i < n / 2;
          const edge = frame > 0 ? frame / 2 : Math.min(0.045, fw / 4);
          vertical = true;
          length = Math.min(p.doorHandleLength, h * 0.5);
          const hz = doorHandleZ(fz0, fz1, p.handle === 'bar' || p.handle === 'cup' ? length / 2 : 0.02);
          handles = [{ x: handleRight ? fx1 - edge : fx0 + edge, z: hz }];
          handleFace = frame > 0 && p.frontStyle === 'shaker' ? PROUD : 0;
        }
        if (p.handle === 'none') handles = [];
        fronts.push({ kind: cell.kind, x0: fx0, x1: fx1, z0: fz0, z1: fz1, frame, handles, handleFace, vertical, length });
      }
    });
  });
  // Depth: the carcass's front edge sits far enough back that the top, the fronts and the handles all fit.
  let reach = 0;
  for (const f of fronts) {
    if (f.frame > 0) reach = Math.max(reach, PROUD);
    if (f.handles.length > 0) reach = Math.max(reach, f.handleFace + HANDLE_REACH[p.handle]);
  }
  const cf = -p.depth / 2 + Math.max(0, p.top.front, reach - FRONT_INSET);
  const cb = p.depth / 2 - Math.max(0, p.top.back);
  return { cw, cf, cb, z0, zc, xi0, xi1, yF: cf + FRONT_INSET, dividers, shelves, fronts, compartments };
}

// ---------------------------------------------------------------------------------------------------------------
// Vanity tops, basins and taps.

interface BasinPlace {
  cx: number;
  cy: number;
  tapY: number;
  tapHeight: number;
  tapR: number;
  /** How far the spout reaches forward from the column. */
  spout: number;
}

function vanityPlaces(p: CaseParams, L: CaseLayout): BasinPlace[] {
  const v = p.vanity;
  if (!v) return [];
  const topFront = L.cf - p.top.front;
  const topBack = L.cb + p.top.back;
  const yc = (topFront + topBack) / 2 - 0.015;
  const tw = L.cw + 2 * p.top.side;
  const places: BasinPlace[] = [];
  for (let i = 0; i < v.basins; i++) {
    const cx = v.basins === 1 ? 0 : (-tw / 2 + (tw * (i + 0.5)) / v.basins);
    const tapY = Math.min(yc + v.basinDepth / 2 + 0.04, topBack - 0.035);
    const spout = Math.max(0.08, tapY - yc - v.basinDepth * 0.12);
    const rim = v.kind === 'vessel' ? v.basinHeight : 0;
    const tapHeight = Math.max(0.15, rim + 0.075) + v.tapRise;
    places.push({ cx, cy: yc, tapY, tapHeight, tapR: 0.011, spout });
  }
  return places;
}

function tapMesh(x: number, y: number, z: number, height: number, spout: number, radius: number): Mesh {
  // A column, a tight bend, a spout sloping slightly down towards the basin and a short downturned outlet.
  const bend = 0.028;
  const top = z + height - radius;
  const path: Vec3[] = [[x, y, z + 0.01], [x, y, top - bend]];
  for (let i = 1; i <= 4; i++) {
    const a = (Math.PI / 2) * (i / 4);
    path.push([x, y - bend + bend * Math.cos(a), top - bend + bend * Math.sin(a)]);
  }
  path.push([x, y - spout + 0.012, top - 0.008]);
  path.push([x, y - spout, top - 0.024]);
  const lever = tube(
    [
      [x, y, top - bend - 0.03],
      [x + 0.012, y + 0.05, top - bend - 0.01],
    ],
    radius * 0.55,
    8,
  );
  return merge(cylinder(0.022, 0.02, z - 0.001, z + 0.03, 18, 0.004), tube(path, radius, 12), lever);
}

/** A vessel basin standing on z: a bowl with a thin rim and an inner floor. */
function vesselMesh(v: VanitySpec, cx: number, cy: number, z: number): Mesh {
  const w = v.basinWidth;
  const d = v.basinDepth;
  const h = v.basinHeight;
  const wall = 0.012;
  const ring = (k: number, zz: number, inner = false): Vec3[] =>
    outline(v.shape, cx, cy, inner ? (w - 2 * wall) * k : w * k, inner ? (d - 2 * wall) * k : d * k, zz, v.shape === 'rect' ? 0.28 : 0.3);
  return loft([
    [[cx, cy, z]],
    ring(0.55, z),
    ring(0.62, z + 0.006),
    ring(0.9, z + h * 0.45),
    ring(1, z + h - 0.006),
    ring(0.985, z + h),
    ring(1, z + h, true),
    ring(0.99, z + h - 0.012, true),
    ring(0.85, z + h * 0.45, true),
    ring(0.5, z + 0.014, true),
    [[cx, cy, z + 0.014]],
  ]);
}

/** A ceramic top with the basin moulded into it: one closed surface from under the bowl, round the top, into the bowl. */
function integratedTop(v: VanitySpec, tw: number, y0: number, y1: number, zc: number, zt: number, cx: number, cy: number, edge: number): Mesh {
  const td = y1 - y0;
  const tyc = (y0 + y1) / 2;
  const bev = clamp(edge, 0.002, (zt - zc) / 3);
  const corner = Math.max(0.008, bev + 0.004);
  const hw = v.basinWidth;
  const hd = v.basinDepth;
  const hr = Math.min(hw, hd) * 0.22;
  const deep = v.basinHeight;
  const wall = 0.012;
  return loft([
    [[cx, cy, zt - deep - wall]],
    rectRing(cx, cy, hw * 0.6, hd * 0.6, hr * 0.6, zt - deep - wall),
    rectRing(cx, cy, hw + 2 * wall, hd + 2 * wall, hr + wall, zc),
    rectRing(0, tyc, tw - 2 * bev, td - 2 * bev, corner - bev, zc),
    rectRing(0, tyc, tw, td, corner, zc + bev),
    rectRing(0, tyc, tw, td, corner, zt - bev),
    rectRing(0, tyc, tw - 2 * bev, td - 2 * bev, corner - bev, zt),
    rectRing(cx, cy, hw + 2 * bev, hd + 2 * bev, hr + bev, zt),
    rectRing(cx, cy, hw, hd, hr, zt - bev),
    rectRing(cx, cy, hw * 0.96, hd * 0.95, hr * 0.96, zt - deep * 0.45),
    rectRing(cx, cy, hw * 0.55, hd * 0.5, hr * 0.5, zt - deep),
    [[cx, cy, zt - deep]],
  ]);
}

// ---------------------------------------------------------------------------------------------------------------
// Shelf contents: books, objects, towels.

const BOOK_COLOURS = ['#7A2E2E', '#2E4A6B', '#D8CFC0', '#3F5E3A', '#C9A227', '#232323', '#A0522D', '#6B5B7A', '#EDE7DA', '#8C8C88', '#B5651D', '#35524A'];

interface Contents {
  books: Mesh[][];
  ceramic: Mesh[];
  accent: Mesh[];
  metal: Mesh[];
}

function vase(x: number, y: number, z: number, r: number, h: number): Mesh {
  return translate(
    lathe(
      [
        [0, 0],
        [r * 0.55, 0],
        [r * 0.9, h * 0.25],
        [r, h * 0.45],
        [r * 0.72, h * 0.75],
        [r * 0.42, h * 0.9],
        [r * 0.5, h],
        [r * 0.4, h * 0.985],
        [0, h * 0.85],
      ],
      18,
    ),
    [x, y, z],
  );
}

function bowl(x: number, y: number, z: number, r: number, h: number): Mesh {
  return translate(
    lathe(
      [
        [0, 0],
        [r * 0.5, 0],
        [r * 0.86, h * 0.45],
        [r, h],
        [r * 0.92, h],
        [r * 0.76, h * 0.45],
        [r * 0.4, h * 0.15],
        [0, h * 0.15],
      ],
      18,
    ),
    [x, y, z],
  );
}

function book(x0: number, x1: number, y0: number, y1: number, z0: number, z1: number): Mesh {
  return roundedBoxBetween([x0, y0, z0], [x1, y1, z1], 0.0015, 1);
}

/** Fills one compartment with runs of books, a leaning book, stacks and objects ('sparse': one or two things). */
function fillCompartment(r: Random, c: Compartment, y0: number, y1: number, density: 'full' | 'sparse', out: Contents, colours: number): void {
  const H = c.z1 - c.z0;
  const D = y1 - y0;
  if (H < 0.1 || D < 0.1 || c.x1 - c.x0 < 0.12) return;
  const colour = (): Mesh[] => out.books[r.int(0, colours - 1)]!;
  let x = c.x0 + (density === 'full' ? r.uniform(0.005, 0.03) : r.uniform(0.02, Math.max(0.03, (c.x1 - c.x0) * 0.3)));
  let items = 0;
  const maxItems = density === 'full' ? 99 : r.int(1, 2);
  while (x < c.x1 - 0.03 && items < maxItems) {
    const room = c.x1 - 0.006 - x;
    const action = density === 'full' ? r.weighted<string>([['run', 6], ['object', 1.4], ['stack', 1.2], ['gap', 0.6]]) : r.weighted<string>([['stack', 2], ['object', 2]]);
    items++;
    if (action === 'gap') {
      x += r.uniform(0.03, 0.12);
      continue;
    }
    if (action === 'run') {
      if (H < 0.13) {
        x += 0.05;
        continue;
      }
      const baseH = Math.min(r.uniform(0.17, 0.29), H - 0.02);
      const count = r.int(4, 16);
      const series = r.chance(0.25) ? colour() : undefined;
      let last = x;
      for (let i = 0; i < count; i++) {
        const t = r.uniform(0.015, 0.045);
        if (x + t > c.x1 - 0.006) break;
        const h = Math.min(baseH * r.uniform(0.84, 1.08), H - 0.012);
        const dd = Math.min(r.uniform(0.14, 0.23), D - 0.01);
        const yb = y0 + r.uniform(0.004, 0.015);
        (series ?? colour()).push(book(x, x + t, yb, yb + dd, c.z0, c.z0 + h));
        x += t + (r.chance(0.15) ? 0.003 : 0.0008);
        last = x;
      }
      // Sometimes one leans on the run.
      const a = r.uniform(0.12, 0.3);
      const t = r.uniform(0.018, 0.035);
      const s = Math.sin(a);
      const co = Math.cos(a);
      const h = Math.min(baseH * r.uniform(0.85, 1.0), (H - 0.012 - s * t) / co);
      if (r.chance(0.35) && last + s * h + co * t < c.x1 - 0.006 && h > 0.1) {
        const dd = Math.min(r.uniform(0.14, 0.22), D - 0.01);
        const yb = y0 + 0.008;
        colour().push(translate(rotate(book(0, t, yb, yb + dd, 0, h), 'y', -a), [last + s * h + 0.001, 0, c.z0]));
        x = last + s * h + co * t + 0.01;
      }
      x += r.uniform(0.0, 0.04);
      continue;
    }
    if (action === 'stack') {
      const len = Math.min(r.uniform(0.15, 0.24), room - 0.01);
      if (len < 0.12) break;
      const n = r.int(2, 5);
      let z = c.z0;
      const cy = (y0 + y1) / 2 - 0.01;
      for (let i = 0; i < n; i++) {
        const th = r.uniform(0.018, 0.04);
        if (z + th > c.z1 - 0.015) break;
        const l = len * r.uniform(0.86, 1);
        const dd = Math.min(r.uniform(0.12, 0.19), D - 0.02);
        const ox = x + r.uniform(0, len - l);
        colour().push(book(ox, ox + l, cy - dd / 2, cy + dd / 2, z, z + th));
        z += th;
      }
      if (r.chance(0.4) && c.z1 - z > 0.08) {
        const rr = Math.min(0.035, (c.z1 - z - 0.01) / 2);
        out.metal.push(ellipsoid([x + len / 2, cy, z + rr], [rr, rr, rr], 14));
      }
      x += len + r.uniform(0.02, 0.08);
      continue;
    }
    // An object: a vase, a bowl, a lidded box or a sphere.
    const kind = r.pick(['vase', 'bowl', 'box', 'sphere'] as const);
    const cy = (y0 + y1) / 2;
    if (kind === 'vase') {
      const rr = Math.min(r.uniform(0.04, 0.075), D / 2 - 0.015, room / 2 - 0.005);
      const h = Math.min(r.uniform(0.14, 0.3), H - 0.025);
      if (rr < 0.025 || h < 0.08) break;
      out.ceramic.push(vase(x + rr, cy, c.z0, rr, h));
      x += 2 * rr + r.uniform(0.03, 0.08);
    } else if (kind === 'bowl') {
      const rr = Math.min(r.uniform(0.06, 0.1), D / 2 - 0.015, room / 2 - 0.005);
      const h = Math.min(rr * r.uniform(0.55, 0.8), H - 0.02);
      if (rr < 0.035) break;
      out.ceramic.push(bowl(x + rr, cy, c.z0, rr, h));
      x += 2 * rr + r.uniform(0.03, 0.08);
    } else if (kind === 'box') {
      const w = Math.min(r.uniform(0.14, 0.26), room - 0.005);
      const d = Math.min(r.uniform(0.12, 0.2), D - 0.03);
      const h = Math.min(r.uniform(0.08, 0.15), H - 0.02);
      if (w < 0.1) break;
      out.accent.push(roundedBoxBetween([x, cy - d / 2, c.z0], [x + w, cy + d / 2, c.z0 + h], 0.006, 2));
      x += w + r.uniform(0.03, 0.08);
    } else {
      const rr = Math.min(r.uniform(0.035, 0.06), (H - 0.02) / 2, room / 2 - 0.005, D / 2 - 0.015);
      if (rr < 0.025) break;
      out.metal.push(ellipsoid([x + rr, cy, c.z0 + rr], [rr, rr, rr], 16));
      x += 2 * rr + r.uniform(0.03, 0.08);
    }
  }
}

/** Towels in an open niche: rolls stacked end-on or a folded pile. */
function towels(r: Random, c: Compartment, y0: number, y1: number): Mesh[] {
  const H = c.z1 - c.z0;
  const W = c.x1 - c.x0;
  const D = y1 - y0;
  const meshes: Mesh[] = [];
  if (H < 0.08 || W < 0.15 || D < 0.12) return meshes;
  if (r.chance(0.5)) {
    const rr = Math.min(r.uniform(0.035, 0.05), (H - 0.01) / 3.8, (W - 0.01) / 6);
    const n = Math.max(1, Math.min(3, Math.floor((W - 0.01) / (2 * rr + 0.002))));
    const len = Math.min(D - 0.02, r.uniform(0.2, 0.28));
    const cx = (c.x0 + c.x1) / 2;
    const yb = y0 + 0.005;
    const roll = (x: number, z: number): Mesh => translate(rotate(cylinder(rr, rr, 0, len, 16, rr * 0.4), 'x', -Math.PI / 2), [x, yb, z]);
    for (let i = 0; i < n; i++) meshes.push(roll(cx + (i - (n - 1) / 2) * (2 * rr + 0.002), c.z0 + rr));
    const z2 = c.z0 + rr + Math.sqrt(3) * rr + 0.001;
    if (n >= 2 && z2 + rr < c.z1 - 0.005) for (let i = 0; i < n - 1; i++) meshes.push(roll(cx + (i - (n - 2) / 2) * (2 * rr + 0.002), z2));
    return meshes;
  }
  const w = Math.min(W - 0.03, r.uniform(0.24, 0.32));
  const d = Math.min(D - 0.02, r.uniform(0.18, 0.25));
  const cx = (c.x0 + c.x1) / 2;
  const cy = (y0 + y1) / 2;
  let z = c.z0;
  const n = r.int(2, 4);
  for (let i = 0; i < n; i++) {
    const th = r.uniform(0.035, 0.05);
    if (z + th > c.z1 - 0.01) break;
    const jx = r.uniform(-0.006, 0.006);
    meshes.push(roundedBoxBetween([cx - w / 2 + jx, cy - d / 2, z], [cx + w / 2 + jx, cy + d / 2, z + th], th * 0.45, 3));
    z += th;
  }
  return meshes;
}

// ---------------------------------------------------------------------------------------------------------------
// The case generator.

const CASE_IDS = [
  'tv_stand',
  'bookcase',
  'sideboard',
  'wardrobe',
  'chest_of_drawers',
  'shoe_cabinet',
  'nightstand',
  'pantry_cabinet',
  'tall_bathroom_cabinet',
  'vanity_unit',
  'double_vanity',
  'kitchen_island',
] as const;

const cell = (kind: CellKind, size = 1, leaves = 1, shelves = 0): CellSpec => ({ kind, size: mm(size), leaves, shelves });
const bay = (cells: CellSpec[], size = 1): BaySpec => ({ size: mm(size), cells });
const drawers = (n: number, graduation = 0): CellSpec[] =>
  Array.from({ length: n }, (_, i) => cell('drawer', 1 + (graduation * (n - 1 - i)) / Math.max(1, n - 1)));

/** Styles whose case goods sit low and long. */
const LOW_STYLES = new Set(['mid_century_modern', 'japandi', 'scandinavian', 'minimalist', 'modern']);

function sampleCase(id: string, style: StyleProfile, r: Random, limits?: SizeLimits): CaseParams {
  const low = LOW_STYLES.has(style.id);
  const traditional = style.legs.includes('cabriole') || style.id === 'traditional';
  // Dimensions: normal about the nominal size inside the real range, capped by the limits but never below the range.
  const fit = (v: number, limit: number | undefined, lo: number): number => mm(capped(v, limit, lo));
  const W = (lo: number, mid: number, hi: number, dev: number): number => fit(r.normal(mid, dev, lo, hi), limits?.maxWidth, lo);
  const D = (lo: number, mid: number, hi: number, dev: number): number => fit(r.normal(mid, dev, lo, hi), limits?.maxDepth, lo);
  const H = (lo: number, mid: number, hi: number, dev: number): number => fit(r.normal(mid, dev, lo, hi), limits?.maxHeight, lo);
  const Du = (lo: number, hi: number): number => fit(r.uniform(lo, hi), limits?.maxDepth, lo);
  const Hu = (lo: number, hi: number): number => fit(r.uniform(lo, hi), limits?.maxHeight, lo);
  const carcass = r.pick(style.cases);
  const others = style.cases.filter((m) => m !== carcass);
  const front = others.length > 0 && r.chance(0.2) ? r.pick(others) : carcass;
  const metal = r.pick(style.metals);
  const handleKind = r.pick(style.handles);
  const frontStyle = r.pick(FRONT_STYLES[style.id] ?? (['slab'] as const));
  const woodish = carcass.kind === 'wood' ? carcass : r.pick(style.woods);
  const accents = style.accents.filter((m) => m.kind === 'fabric' || m.kind === 'boucle' || m.kind === 'velvet');
  const accent = accents.length > 0 ? r.pick(accents) : plain('fabric', '#F2F0EC', 0.92);
  // Basins are mostly light glazes: the lightest of the style's ceramics, sometimes another.
  const lightest = [...style.ceramics].sort((a, b2) => luminance(b2.color) - luminance(a.color))[0]!;
  const ceramic = r.chance(0.7) ? lightest : r.pick(style.ceramics);
  const rustic = style.id === 'rustic' || style.id === 'farmhouse';
  const board = mm(rustic ? r.uniform(0.024, 0.032) : style.id === 'minimalist' ? r.uniform(0.016, 0.019) : r.uniform(0.018, 0.022));
  const longBars = style.id === 'modern' || style.id === 'luxury' || style.id === 'art_deco' || style.id === 'mid_century_modern';
  const handleLength = mm(handleKind === 'cup' ? r.uniform(0.09, 0.12) : longBars ? r.uniform(0.16, 0.3) : r.uniform(0.1, 0.16));
  let doorHandleLength = mm(handleKind === 'cup' ? r.uniform(0.09, 0.12) : longBars ? r.uniform(0.2, 0.32) : r.uniform(0.12, 0.2));

  let group: BaseGroup = 'low';
  let width: number;
  let depth: number;
  let height: number;
  let bays: BaySpec[];
  let placement: CaseParams['placement'] = 'against-wall';
  let frontClearance = 0.6;
  let contents: CaseParams['contents'] = 'none';
  let vanity: VanitySpec | null = null;
  let topMaterial: Material = carcass.kind === 'wood' ? carcass : woodish;
  if (carcass.kind !== 'wood' && !r.chance(0.45)) topMaterial = carcass;
  let topThickness = mm(Math.max(board, r.uniform(0.02, 0.03)) + (rustic ? 0.01 : 0));
  let overFront = mm(low ? r.uniform(0, 0.012) : r.uniform(0.005, 0.02));
  let overSide = mm(low ? r.uniform(0, 0.012) : r.uniform(0.005, 0.02));
  if (style.id === 'minimalist' || style.id === 'modern') overFront = overSide = 0;
  let overBack = 0;
  let moulding = traditional && r.chance(0.7);

  const leafCount = (w: number, max = 2): number => Math.min(max, w > 0.62 ? 2 : 1);

  switch (id) {
    case 'tv_stand': {
      width = W(1.3, 1.8, 2.2, 0.2);
      depth = D(0.36, 0.42, 0.48, 0.03);
      height = low ? Hu(0.38, 0.52) : Hu(0.42, 0.6);
      const n = width >= 1.9 && r.chance(0.4) ? 4 : width >= 1.5 ? 3 : r.pick([2, 3]);
      const openMiddle = n % 2 === 1 && r.chance(0.6);
      const uniformKind = r.weighted<CellKind>([['door', 3], ['flap', 2], ['drawer', 2]]);
      bays = Array.from({ length: n }, (_, i) => {
        if (openMiddle && i === (n - 1) / 2) return bay([cell('open', 1, 1, 0)], 0.9);
        const kind = r.chance(0.75) ? uniformKind : r.weighted<CellKind>([['door', 3], ['flap', 2], ['drawer', 2]]);
        return bay(kind === 'drawer' ? drawers(2) : [cell(kind)]);
      });
      if (!openMiddle && r.chance(0.35)) {
        // A low open shelf for devices under a row of fronts.
        bays = bays.map((b) => bay([cell('open', 0.45), ...b.cells], b.size));
      }
      contents = 'decor';
      frontClearance = 0.5;
      break;
    }
    case 'bookcase': {
      width = W(0.7, 1.0, 1.4, 0.15);
      depth = D(0.26, 0.33, 0.4, 0.03);
      height = H(1.7, 2.0, 2.2, 0.12);
      group = 'tall';
      const n = width > 1.15 ? 2 : width > 0.95 && r.chance(0.5) ? 2 : 1;
      const doors = r.chance(0.35);
      bays = Array.from({ length: n }, () => {
        const openH = height - (doors ? 0.75 : 0.1);
        const shelves = Math.max(2, Math.round(openH / r.uniform(0.3, 0.37)) - 1);
        return doors ? bay([cell('door', 0.7 / height, leafCount(width / n)), cell('open', 1 - 0.7 / height, 1, shelves)]) : bay([cell('open', 1, 1, shelves + 1)]);
      });
      contents = 'books';
      overFront = overSide = traditional ? overFront : 0;
      frontClearance = 0.5;
      break;
    }
    case 'sideboard': {
      width = W(1.3, 1.8, 2.2, 0.22);
      depth = D(0.4, 0.46, 0.52, 0.03);
      height = low ? Hu(0.68, 0.82) : Hu(0.75, 0.92);
      const n = width >= 1.75 && r.chance(0.5) ? 4 : 3;
      const pattern = r.pick(['doors-drawers', 'doors', 'drawer-row'] as const);
      bays = Array.from({ length: n }, (_, i) => {
        if (pattern === 'doors') return bay([cell('door')]);
        if (pattern === 'drawer-row') return bay([cell('door', 0.72), cell('drawer', 0.28)]);
        const middle = n === 3 ? i === 1 : i === 1 || i === 2;
        return middle && (n === 3 || i === 1) ? bay(drawers(3, 0.3)) : bay([cell('door')]);
      });
      frontClearance = 0.6;
      break;
    }
    case 'wardrobe': {
      width = W(1.0, 1.5, 2.0, 0.22);
      depth = D(0.55, 0.6, 0.66, 0.025);
      height = Hu(2.0, 2.3);
      group = 'tall';
      const doors = width < 1.2 ? 2 : width > 1.65 ? 3 : r.pick([2, 3]);
      const drawerRow = r.chance(0.35);
      bays = [bay(drawerRow ? [cell('drawer', 0.24 / height, doors), cell('door', 1 - 0.24 / height, doors)] : [cell('door', 1, doors)])];
      doorHandleLength = mm(handleKind === 'bar' ? (longBars ? r.uniform(0.35, 0.6) : r.uniform(0.2, 0.3)) : doorHandleLength);
      if (traditional) {
        moulding = true;
        topThickness = mm(r.uniform(0.04, 0.06));
        overFront = overSide = mm(r.uniform(0.02, 0.03));
      } else {
        topThickness = board;
        overFront = overSide = 0;
      }
      frontClearance = 0.9;
      break;
    }
    case 'chest_of_drawers': {
      width = W(0.7, 1.0, 1.3, 0.13);
      depth = D(0.4, 0.48, 0.55, 0.03);
      height = low ? Hu(0.72, 0.95) : Hu(0.8, 1.12);
      const rows = r.int(3, 5);
      const split = rows <= 4 && width >= 0.8 && r.chance(0.35);
      const cells = drawers(rows, traditional || r.chance(0.4) ? r.uniform(0.15, 0.45) : 0);
      if (split) cells[cells.length - 1] = { ...cells[cells.length - 1]!, leaves: 2 };
      bays = [bay(cells)];
      frontClearance = 0.6;
      break;
    }
    case 'shoe_cabinet': {
      const flaps = r.chance(0.55) || (limits?.maxDepth ?? 1) < 0.3;
      width = W(0.6, 0.9, 1.2, 0.13);
      depth = flaps ? Du(0.22, 0.3) : Du(0.3, 0.4);
      height = Hu(0.85, 1.2);
      if (flaps) {
        const n = height > 1.05 ? 3 : 2;
        const columns = width > 0.95 ? 2 : 1;
        bays = Array.from({ length: columns }, () => bay(Array.from({ length: n }, () => cell('flap'))));
      } else {
        bays = [bay([cell('door', 0.8, leafCount(width)), cell('drawer', 0.2, width > 0.8 ? 2 : 1)])];
      }
      frontClearance = 0.5;
      break;
    }
    case 'nightstand': {
      width = W(0.38, 0.46, 0.6, 0.05);
      depth = D(0.32, 0.4, 0.46, 0.03);
      height = Hu(0.5, 0.6);
      const pattern = r.pick(['two', 'one-open', 'one-door', 'one'] as const);
      bays = [
        bay(
          pattern === 'two'
            ? drawers(2)
            : pattern === 'one-open'
              ? [cell('open', 1.1), cell('drawer', 0.9)]
              : pattern === 'one-door'
                ? [cell('door', 1.6), cell('drawer', 1)]
                : [cell('drawer')],
        ),
      ];
      contents = 'decor';
      frontClearance = 0.5;
      break;
    }
    case 'pantry_cabinet': {
      width = W(0.45, 0.6, 0.9, 0.08);
      depth = D(0.5, 0.6, 0.65, 0.03);
      height = Hu(1.95, 2.25);
      group = 'tall';
      const leaves = leafCount(width);
      const pattern = r.pick(['tall', 'split', 'drawers'] as const);
      bays = [
        bay(
          pattern === 'tall'
            ? [cell('door', 1, leaves)]
            : pattern === 'split'
              ? [cell('door', 1.25, leaves), cell('door', 0.75, leaves)]
              : [...drawers(2), cell('door', 4.5, leaves)],
        ),
      ];
      topThickness = board;
      overFront = overSide = 0;
      frontClearance = 0.6;
      break;
    }
    case 'tall_bathroom_cabinet': {
      width = W(0.3, 0.4, 0.5, 0.05);
      depth = D(0.22, 0.3, 0.36, 0.03);
      height = Hu(1.5, 1.9);
      group = 'tall';
      const pattern = r.pick(['niche', 'drawer', 'tall'] as const);
      bays = [
        bay(
          pattern === 'niche'
            ? [cell('door', 0.38), cell('open', 0.2, 1, 0), cell('door', 0.42)]
            : pattern === 'drawer'
              ? [cell('drawer', 0.16), cell('door', 0.84)]
              : [cell('door', 0.55), cell('door', 0.45)],
        ),
      ];
      contents = 'towels';
      topThickness = board;
      overFront = overSide = 0;
      frontClearance = 0.5;
      break;
    }
    case 'vanity_unit':
    case 'double_vanity': {
      const double = id === 'double_vanity';
      width = double ? W(1.2, 1.4, 1.7, 0.14) : W(0.6, 0.8, 1.0, 0.1);
      depth = double ? D(0.45, 0.5, 0.55, 0.025) : D(0.42, 0.46, 0.52, 0.025);
      const integrated = !double && r.chance(0.45);
      height = integrated ? Hu(0.8, 0.88) : Hu(0.74, 0.8);
      const pattern = r.pick(['drawers', 'doors', 'open'] as const);
      const unit = (w: number): BaySpec =>
        bay(pattern === 'drawers' ? drawers(2, 0.3) : pattern === 'doors' ? [cell('door', 1, leafCount(w))] : [cell('open', 0.9), cell('drawer', 1.1)]);
      bays = double ? (r.chance(0.5) ? [unit(width / 2), unit(width / 2)] : [bay([cell('door')]), bay(drawers(3, 0.3), 0.8), bay([cell('door')])]) : [unit(width)];
      const shape = r.pick(['round', 'oval', 'rect'] as const);
      const counterDepth = depth - 0.03;
      const bw = integrated ? Math.min(width * 0.7, r.uniform(0.45, 0.6)) : shape === 'round' ? r.uniform(0.36, 0.44) : r.uniform(0.42, 0.55);
      const maxBasinDepth = counterDepth - 0.15;
      const bd = integrated ? Math.min(r.uniform(0.28, 0.34), maxBasinDepth) : shape === 'round' ? Math.min(bw, maxBasinDepth) : Math.min(r.uniform(0.32, 0.38), maxBasinDepth);
      vanity = {
        basins: double ? 2 : 1,
        kind: integrated ? 'integrated' : 'vessel',
        shape: integrated ? 'rect' : shape,
        basinWidth: mm(Math.min(bw, double ? width / 2 - 0.12 : width - 0.1)),
        basinDepth: mm(shape === 'round' && !integrated ? Math.min(bw, bd) : bd),
        basinHeight: mm(integrated ? r.uniform(0.11, 0.14) : r.uniform(0.1, 0.15)),
        tapRise: mm(r.uniform(0, 0.05)),
      };
      if (vanity.shape === 'round') vanity.basinWidth = vanity.basinDepth = Math.min(vanity.basinWidth, vanity.basinDepth);
      const stones = style.stones;
      topMaterial = integrated ? ceramic : r.chance(0.6) ? r.pick(stones) : r.chance(0.5) ? r.pick(style.woods) : ceramic;
      topThickness = mm(integrated ? r.uniform(0.035, 0.05) : topMaterial.kind === 'wood' ? r.uniform(0.03, 0.045) : r.uniform(0.02, 0.035));
      overFront = mm(r.uniform(0.01, 0.02));
      overSide = mm(r.uniform(0, 0.01));
      moulding = false;
      contents = 'towels';
      frontClearance = 0.6;
      break;
    }
    case 'kitchen_island': {
      width = W(1.4, 2.0, 2.6, 0.25);
      depth = D(0.85, 1.0, 1.15, 0.07);
      height = Hu(0.88, 0.94);
      group = 'kitchen';
      placement = 'floor';
      overFront = mm(r.uniform(0.02, 0.03));
      overSide = mm(r.uniform(0.015, 0.03));
      const cabinetDepth = r.uniform(0.57, 0.62);
      overBack = mm(Math.max(0.2, depth - cabinetDepth - 0.03));
      const cw = width - 2 * overSide;
      const n = Math.max(2, Math.round(cw / 0.6));
      const kinds: ('drawers' | 'door' | 'pans')[] = [];
      for (let i = 0; i < n; i++) {
        const mirror = n - 1 - i;
        kinds.push(mirror < i ? kinds[mirror]! : r.pick(['drawers', 'door', 'pans'] as const));
      }
      bays = kinds.map((k) => bay(k === 'drawers' ? drawers(3, 0.6) : k === 'pans' ? drawers(2) : [cell('door', 0.78), cell('drawer', 0.22)]));
      const stone = r.chance(0.65);
      topMaterial = stone ? r.pick(style.stones) : r.pick(style.woods);
      topThickness = mm(stone ? r.uniform(0.03, 0.04) : r.uniform(0.04, 0.06));
      moulding = false;
      frontClearance = 0.9;
      break;
    }
    default:
      throw new Error(`storage generator does not build ${id}`);
  }

  const base = sampleBase(style, r, group);
  // Low pieces keep a carcass tall enough for their fronts.
  base.height = mm(Math.min(base.height, Math.max(0.03, height * 0.35)));
  if (overFront < 0.01 || overSide < 0.01) moulding = false;
  // The top of a tall piece is above the eye: the carcass's own board.
  if (group === 'tall') topMaterial = carcass;
  const radius = mm(clamp(Math.max(style.edge, topMaterial.kind === 'marble' || topMaterial.kind === 'stone' ? 0.003 : style.edge + 0.002), 0.002, topThickness / 2 - 0.001));
  const baseMaterial = base.kind === 'plinth' ? carcass : isMetalLeg(base.kind) ? metal : woodish;
  return {
    id,
    styleId: style.id,
    width,
    depth,
    height,
    board,
    frontThickness: mm(r.uniform(0.017, 0.021)),
    frontStyle,
    base,
    top: { thickness: topThickness, front: overFront, side: overSide, back: overBack, radius, moulding },
    bays,
    handle: handleKind,
    handleLength,
    doorHandleLength,
    contents,
    contentSeed: r.int(1, 2 ** 30),
    vanity,
    placement,
    frontClearance,
    materials: { carcass, front, top: topMaterial, base: baseMaterial, metal, ceramic, accent },
  };
}

function caseFootprint(p: CaseParams): Footprint {
  let height = p.height;
  if (p.vanity) {
    const L = caseLayout(p);
    for (const place of vanityPlaces(p, L)) {
      height = Math.max(height, p.height + place.tapHeight, p.vanity.kind === 'vessel' ? p.height + p.vanity.basinHeight : 0);
    }
  }
  return { width: p.width, depth: p.depth, height, placement: p.placement, elevation: 0, frontClearance: p.frontClearance };
}

function buildCase(p: CaseParams): PieceGeometry {
  const L = caseLayout(p);
  const A = new Assembly();
  const m = p.materials;
  const b = p.board;
  const cd = L.cb - L.cf;
  const cy = (L.cf + L.cb) / 2;
  const rb = mm(clamp(p.top.radius, 0.0015, b * 0.3));

  // Base.
  A.add('base', [baseMesh(p.base, L.cw, cd, cy)], 'base', m.base, 'z');

  // Carcass: side panels and dividers (grain up), bottom, shelves and back (grain across).
  const sides: Mesh[] = [
    roundedBoxBetween([-L.cw / 2, L.cf, L.z0], [-L.cw / 2 + b, L.cb, L.zc], rb, 2),
    roundedBoxBetween([L.cw / 2 - b, L.cf, L.z0], [L.cw / 2, L.cb, L.zc], rb, 2),
  ];
  for (const x of L.dividers) sides.push(roundedBoxBetween([x - b / 2, L.cf, L.z0 + b], [x + b / 2, L.cb - BACK, L.zc], rb * 0.6, 2));
  A.add('carcass sides', sides, 'carcass', m.carcass, 'z');
  const boards: Mesh[] = [
    roundedBoxBetween([L.xi0, L.cf, L.z0], [L.xi1, L.cb, L.z0 + b], rb * 0.6, 2),
    roundedBoxBetween([L.xi0, L.cb - BACK, L.z0 + b], [L.xi1, L.cb, L.zc], 0.001, 1),
  ];
  for (const s of L.shelves) boards.push(roundedBoxBetween([s.x0, L.cf + 0.004, s.z0], [s.x1, L.cb - BACK, s.z1], rb * 0.6, 2));
  A.add('carcass boards', boards, 'carcass', m.carcass, 'x');

  // Top.
  const tw = L.cw + 2 * p.top.side;
  const ty0 = L.cf - p.top.front;
  const ty1 = L.cb + p.top.back;
  const places = vanityPlaces(p, L);
  if (p.vanity && p.vanity.kind === 'integrated') {
    const place = places[0]!;
    A.add('basin top', [integratedTop(p.vanity, tw, ty0, ty1, L.zc, p.height, place.cx, place.cy, p.top.radius)], 'ceramic', m.ceramic);
  } else {
    const tops: Mesh[] = [roundedBoxBetween([-tw / 2, ty0, L.zc], [tw / 2, ty1, p.height], p.top.radius, 3)];
    if (p.top.moulding) {
      const mh = Math.min(0.02, p.top.thickness * 0.6);
      const ox = p.top.side * 0.5;
      const oy = p.top.front * 0.5;
      tops.push(roundedBoxBetween([-L.cw / 2 - ox, L.cf - oy, L.zc - mh], [L.cw / 2 + ox, L.cb, L.zc + 0.001], Math.min(mh / 2 - 0.001, 0.008), 3));
    }
    A.add('top', tops, 'top', m.top, 'x');
  }

  // Fronts and handles.
  const doors: Mesh[] = [];
  const drawersMeshes: Mesh[] = [];
  const handles: Mesh[] = [];
  const fr = mm(clamp(Math.min(p.top.radius, 0.003), 0.0012, p.frontThickness / 3));
  for (const f of L.fronts) {
    const panel = frontPanel(f.x0, f.x1, f.z0, f.z1, L.yF, p.frontThickness, p.frontStyle, fr);
    (f.kind === 'door' ? doors : drawersMeshes).push(panel);
    for (const h of f.handles) {
      const mesh = handle(p.handle, h.x, h.z, L.yF - f.handleFace, f.length, f.vertical);
      if (mesh) handles.push(mesh);
    }
  }
  A.add('doors', doors, 'front', m.front, 'z');
  A.add('drawer fronts', drawersMeshes, 'front', m.front, 'x');
  A.add('handles', handles, 'metal', m.metal);

  // Vanity basins and taps.
  if (p.vanity) {
    const basins: Mesh[] = [];
    const taps: Mesh[] = [];
    for (const place of places) {
      if (p.vanity.kind === 'vessel') basins.push(vesselMesh(p.vanity, place.cx, place.cy, p.height));
      const floor = p.vanity.kind === 'vessel' ? p.height + 0.013 : p.height - p.vanity.basinHeight - 0.001;
      taps.push(cylinder(0.019, 0.019, floor, floor + 0.004, 16, 0.001));
      const tx = place.cx;
      taps.push(tapMesh(tx, place.tapY, p.height, place.tapHeight, place.spout, place.tapR));
    }
    A.add('basins', basins, 'ceramic', m.ceramic);
    A.add('taps', taps, 'metal', m.metal);
  }

  // What stands in the open compartments.
  if (p.contents !== 'none' && L.compartments.length > 0) {
    const r = new Random(p.contentSeed);
    const y0 = L.cf + 0.012;
    const y1 = L.cb - BACK - 0.004;
    if (p.contents === 'towels') {
      const meshes: Mesh[] = [];
      for (const c of L.compartments) meshes.push(...towels(r, c, y0, y1));
      A.add('towels', meshes, 'accent', m.accent, 'x');
    } else {
      const pool = [...BOOK_COLOURS];
      const palette = Array.from({ length: 6 }, () => {
        const base = pool.splice(r.int(0, pool.length - 1), 1)[0]!;
        return mixHex(base, r.pick(['#FFFFFF', '#000000']), r.uniform(0, 0.2));
      });
      const out: Contents = { books: palette.map(() => []), ceramic: [], accent: [], metal: [] };
      for (const c of L.compartments) {
        if (p.contents === 'books' && r.chance(0.08)) continue;
        if (p.contents === 'decor' && r.chance(0.35)) continue;
        fillCompartment(r, c, y0, y1, p.contents === 'books' && r.chance(0.82) ? 'full' : 'sparse', out, palette.length);
      }
      palette.forEach((colour, i) => A.add(`books ${i + 1}`, out.books[i]!, `book${i + 1}`, plain('painted-wood', colour, r.uniform(0.45, 0.75)), 'z'));
      A.add('decor ceramics', out.ceramic, 'ceramic', m.ceramic);
      A.add('decor boxes', out.accent, 'accent', m.accent, 'x');
      A.add('decor metal', out.metal, 'metal', m.metal);
    }
  }
  return A.geometry();
}

const caseGenerator = defineGenerator<CaseParams>({
  ids: CASE_IDS,
  sample: (id, style, random, limits) => sampleCase(id, style, random, limits),
  footprint: caseFootprint,
  build: buildCase,
});

// ---------------------------------------------------------------------------------------------------------------
// Kitchen cart.

const METAL_FRAME_STYLES = new Set(['industrial', 'modern', 'minimalist', 'luxury', 'art_deco', 'contemporary']);

function sampleCart(id: string, style: StyleProfile, r: Random, limits?: SizeLimits): CartParams {
  const metalFrame = METAL_FRAME_STYLES.has(style.id) ? r.chance(0.8) : r.chance(0.15);
  const metal = r.pick(style.metals);
  const wood = r.pick(style.woods);
  const stoneTop = r.chance(style.stones.some((s) => s.kind === 'marble') ? 0.3 : 0.1);
  const top = stoneTop ? r.pick(style.stones) : wood;
  const casterRadius = mm(r.uniform(0.03, 0.04));
  return {
    id,
    styleId: style.id,
    width: mm(capped(r.normal(0.62, 0.08, 0.5, 0.85), limits?.maxWidth, 0.45)),
    depth: mm(capped(r.normal(0.42, 0.04, 0.35, 0.5), limits?.maxDepth, 0.32)),
    height: mm(capped(r.uniform(0.82, 0.94), limits?.maxHeight, 0.75)),
    frame: metalFrame ? 'metal' : 'wood',
    post: mm(metalFrame ? r.uniform(0.022, 0.03) : r.uniform(0.035, 0.045)),
    topThickness: mm(stoneTop ? r.uniform(0.02, 0.03) : r.uniform(0.03, 0.045)),
    shelves: r.int(1, 2),
    drawer: r.chance(0.5),
    handle: r.pick(style.handles.filter((h) => h !== 'none').length > 0 ? style.handles.filter((h) => h !== 'none') : (['bar'] as const)),
    casterRadius,
    edge: mm(Math.max(style.edge, 0.003)),
    materials: {
      top,
      shelf: metalFrame ? r.pick([wood, metal]) : wood,
      frame: metalFrame ? metal : wood,
      metal,
      wheel: plain('plastic', '#2A2A2A', 0.6),
      front: r.pick(style.cases),
    },
  };
}

/** The cart's handle bar stands this far out of the body on the +X side. */
const CART_BAR = 0.05;

function cartFootprint(p: CartParams): Footprint {
  return { width: p.width, depth: p.depth, height: p.height, placement: 'floor', elevation: 0, frontClearance: 0.5 };
}

function buildCart(p: CartParams): PieceGeometry {
  const A = new Assembly();
  const m = p.materials;
  const bx0 = -p.width / 2;
  const bx1 = p.width / 2 - CART_BAR;
  const y0 = -p.depth / 2;
  const y1 = p.depth / 2;
  const over = 0.015;
  const t = p.post;
  const R = p.casterRadius;
  const ch = 2 * R + 0.025;
  const zTop = p.height - p.topThickness;
  // Posts.
  const px = [bx0 + over, bx1 - over - t];
  const py = [y0 + over, y1 - over - t];
  const posts: Mesh[] = [];
  for (const x of px) for (const y of py) posts.push(roundedBoxBetween([x, y, ch], [x + t, y + t, zTop], p.frame === 'metal' ? 0.002 : 0.004, 2));
  A.add('posts', posts, 'frame', m.frame, 'z');
  // Top and shelves.
  A.add('top', [roundedBoxBetween([bx0, y0, zTop], [bx1, y1, p.height], Math.min(p.edge + 0.002, p.topThickness / 2 - 0.001), 3)], 'top', m.top, 'x');
  const shelves: Mesh[] = [];
  const sx0 = px[0]! + t * 0.5;
  const sx1 = px[1]! + t * 0.5;
  const sy0 = py[0]! + t * 0.5;
  const sy1 = py[1]! + t * 0.5;
  const levels = p.shelves === 2 ? [ch + 0.06, ch + 0.06 + (zTop - ch - 0.06) * 0.45] : [ch + 0.06];
  for (const z of levels) shelves.push(roundedBoxBetween([sx0, sy0, z], [sx1, sy1, z + 0.018], 0.003, 2));
  // A lip round the bottom shelf (a gallery) holds bottles.
  if (p.frame === 'metal') {
    const z = levels[0]! + 0.06;
    const rail = (a: Vec3, c: Vec3): Mesh => tube([a, c], 0.005, 8);
    shelves.push(rail([sx0, py[0]! + t / 2, z], [sx1, py[0]! + t / 2, z]), rail([sx0, py[1]! + t / 2, z], [sx1, py[1]! + t / 2, z]));
  }
  A.add('shelves', shelves, 'shelf', m.shelf, 'x');
  // Under the top: a drawer at the front or an apron.
  const fronts: Mesh[] = [];
  const hardware: Mesh[] = [];
  const apronH = 0.1;
  const reach = HANDLE_REACH[p.handle];
  if (p.drawer) {
    const face = y0 + reach;
    fronts.push(roundedBoxBetween([px[0]! + t + GAP, face, zTop - apronH], [px[1]! - GAP, face + 0.018, zTop - GAP], 0.002, 2));
    fronts.push(roundedBoxBetween([px[0]! + t, face + 0.018, zTop - apronH - 0.012], [px[1]!, y1 - over - t, zTop - apronH], 0.002, 1));
    const hm = handle(p.handle, (bx0 + bx1) / 2, zTop - apronH / 2, face, Math.min(0.14, (bx1 - bx0) * 0.4));
    if (hm) hardware.push(hm);
  } else {
    fronts.push(roundedBoxBetween([px[0]! + t, py[0]! + t * 0.3, zTop - apronH * 0.6], [px[1]!, py[0]! + t * 0.3 + 0.018, zTop], 0.002, 2));
  }
  fronts.push(roundedBoxBetween([px[0]! + t, py[1]! + t * 0.7 - 0.018, zTop - apronH * 0.6], [px[1]!, py[1]! + t * 0.7, zTop], 0.002, 2));
  A.add('aprons', fronts, 'front', m.front, 'x');
  // Handle bar on the +X end.
  const hz = zTop - 0.04;
  const hy = p.depth / 2 - 0.07;
  const barR = 0.009;
  const xb = p.width / 2 - barR;
  hardware.push(
    tube(
      [
        [bx1 - over - t / 2, -hy, hz],
        [xb, -hy, hz],
        [xb, hy, hz],
        [bx1 - over - t / 2, hy, hz],
      ],
      barR,
      10,
    ),
  );
  // Casters: a plate under each post, a fork and a wheel turning about X.
  const wheels: Mesh[] = [];
  for (const x of px) {
    for (const y of py) {
      const cx = x + t / 2;
      const cyy = clamp(y + t / 2, y0 + R + 0.006, y1 - R - 0.006);
      hardware.push(roundedBoxBetween([cx - 0.022, cyy - 0.022, ch - 0.006], [cx + 0.022, cyy + 0.022, ch], 0.002, 1));
      hardware.push(roundedBoxBetween([cx - 0.016, cyy - 0.01, R], [cx + 0.016, cyy + 0.01, ch - 0.005], 0.002, 1));
      wheels.push(translate(rotate(cylinder(R, R, -0.011, 0.011, 18, 0.004), 'y', Math.PI / 2), [cx, cyy, R]));
    }
  }
  A.add('hardware', hardware, 'metal', m.metal);
  A.add('wheels', wheels, 'wheel', m.wheel);
  return A.geometry();
}

const cartGenerator = defineGenerator<CartParams>({
  ids: ['kitchen_cart'],
  sample: (id, style, random, limits) => sampleCart(id, style, random, limits),
  footprint: cartFootprint,
  build: buildCart,
});

// ---------------------------------------------------------------------------------------------------------------
// Refrigerator.

const RETRO_STYLES = new Set(['mid_century_modern', 'coastal', 'parisian', 'bohemian', 'mediterranean']);

function sampleFridge(id: string, style: StyleProfile, r: Random, limits?: SizeLimits): FridgeParams {
  const retro = RETRO_STYLES.has(style.id) && r.chance(0.6);
  const steel = { kind: 'metal', color: '#C4C5C6', roughness: 0.3, brushed: true } as const satisfies Material;
  const dark = ['industrial', 'art_deco', 'luxury', 'modern'].includes(style.id);
  let finish: Material;
  if (retro) finish = plain('lacquer', r.pick(['#F3EBD8', '#A8CFC9', '#E8C9C2', '#9DB8D2', '#EFE4B0']), 0.25);
  else
    finish = r.weighted<Material>([
      [steel, 3],
      [plain('lacquer', '#F4F4F2', 0.3), ['scandinavian', 'minimalist', 'farmhouse', 'coastal', 'japandi'].includes(style.id) ? 3 : 1],
      [plain('lacquer', '#1E1E1F', 0.3), dark ? 2.5 : 0.5],
    ]);
  const width = mm(capped(r.normal(0.62, 0.05, 0.55, 0.75), limits?.maxWidth, 0.5));
  const height = mm(capped(r.normal(1.85, 0.08, 1.7, 2.0), limits?.maxHeight, 1.4));
  const handleMaterial = finish.kind === 'metal' ? ({ kind: 'metal', color: '#B9BABB', roughness: 0.25, brushed: true } satisfies Material) : retro ? ({ kind: 'metal', color: '#E2E2E2', roughness: 0.05 } satisfies Material) : r.pick(style.metals);
  return {
    id,
    styleId: style.id,
    width,
    depth: mm(capped(r.normal(0.67, 0.03, 0.6, 0.74), limits?.maxDepth, 0.55)),
    height,
    freezer: retro ? 'top' : r.chance(0.8) ? 'bottom' : 'top',
    freezerDrawer: r.chance(0.5),
    freezerHeight: mm(retro ? r.uniform(0.3, 0.42) : r.uniform(0.55, 0.75)),
    doorThickness: mm(r.uniform(0.05, 0.065)),
    radius: mm(retro ? r.uniform(0.035, 0.05) : r.uniform(0.006, 0.015)),
    kick: mm(r.uniform(0.06, 0.1)),
    handleSide: r.pick(['left', 'right'] as const),
    handleLength: mm(r.uniform(0.3, 0.6)),
    materials: { finish, handle: handleMaterial, gasket: plain('plastic', '#303234', 0.7), grille: plain('plastic', '#1B1C1D', 0.6) },
  };
}

function fridgeFootprint(p: FridgeParams): Footprint {
  return { width: p.width, depth: p.depth, height: p.height, placement: 'against-wall', elevation: 0, frontClearance: 0.9 };
}

function buildFridge(p: FridgeParams): PieceGeometry {
  const A = new Assembly();
  const m = p.materials;
  const reach = HANDLE_REACH.bar;
  const yD = -p.depth / 2 + reach;
  const yB = yD + p.doorThickness;
  const w = p.width;
  const r = p.radius;
  A.add('body', [roundedBoxBetween([-w / 2, yB + 0.004, 0.012], [w / 2, p.depth / 2, p.height], Math.min(r, 0.03), 3)], 'finish', m.finish);
  A.add('gasket', [roundedBoxBetween([-w / 2 + 0.006, yB - 0.004, p.kick], [w / 2 - 0.006, yB + 0.01, p.height - 0.006], 0.002, 1)], 'gasket', m.gasket);
  A.add('kick grille', [roundedBoxBetween([-w / 2 + 0.02, yB - 0.012, 0.014], [w / 2 - 0.02, yB + 0.01, p.kick - 0.005], 0.002, 1)], 'grille', m.grille);
  // Doors.
  const gap = 0.004;
  const zTop = p.height - 0.003;
  const freezerLow = p.freezer === 'bottom';
  const split = freezerLow ? p.kick + p.freezerHeight : zTop - p.freezerHeight;
  const lower: [number, number] = [p.kick, split - gap / 2];
  const upper: [number, number] = [split + gap / 2, zTop];
  const dr = Math.min(r, p.doorThickness / 2 - 0.002);
  const doorMesh = ([z0, z1]: [number, number]): Mesh => roundedBoxBetween([-w / 2 + 0.002, yD, z0], [w / 2 - 0.002, yB, z1], dr, 3);
  A.add('doors', [doorMesh(lower), doorMesh(upper)], 'finish', m.finish);
  // Vertical bar handles on the free edge; a freezer drawer gets a horizontal bar along its top.
  const side = p.handleSide === 'right' ? 1 : -1;
  const hx = side * (w / 2 - 0.05);
  const handles: (Mesh | undefined)[] = [];
  const fridgeDoor = freezerLow ? upper : lower;
  const freezerDoor = freezerLow ? lower : upper;
  const fLen = Math.min(p.handleLength, (fridgeDoor[1] - fridgeDoor[0]) * 0.55);
  const fz = freezerLow ? fridgeDoor[0] + 0.06 + fLen / 2 : fridgeDoor[1] - 0.06 - fLen / 2;
  const bar = (x: number, z: number, len: number, vertical: boolean): Mesh | undefined => handle('bar', x, z, yD, len, vertical);
  handles.push(bar(hx, fz, fLen, true));
  const zLen = Math.min(0.32, (freezerDoor[1] - freezerDoor[0]) * 0.55);
  if (p.freezerDrawer && freezerLow) handles.push(bar(0, freezerDoor[1] - 0.05, Math.min(w * 0.6, 0.45), false));
  else handles.push(bar(hx, freezerLow ? freezerDoor[1] - 0.05 - zLen / 2 : freezerDoor[0] + 0.05 + zLen / 2, zLen, true));
  A.add('handles', handles, 'handle', m.handle);
  // Feet hidden behind the grille.
  const feet: Mesh[] = [];
  for (const sx of [-1, 1]) for (const y of [yB + 0.04, p.depth / 2 - 0.06]) feet.push(translate(cylinder(0.015, 0.015, 0, 0.014, 12), [sx * (w / 2 - 0.05), y, 0]));
  A.add('feet', feet, 'grille', m.grille);
  return A.geometry();
}

const fridgeGenerator = defineGenerator<FridgeParams>({
  ids: ['refrigerator'],
  sample: (id, style, random, limits) => sampleFridge(id, style, random, limits),
  footprint: fridgeFootprint,
  build: buildFridge,
});

/** The storage family: case goods, the kitchen cart and the refrigerator. */
export const STORAGE_GENERATORS: readonly FurnitureGenerator[] = [caseGenerator, cartGenerator, fridgeGenerator];
