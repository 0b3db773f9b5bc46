import type { Random } from '../../random.js';
import { capped, defineGenerator, type Footprint, type FurnitureGenerator, type PieceGeometry, type PiecePart, type SizeLimits } from '../generator.js';
import { fabric, metal, mixHex, plain, type Material } from '../materials.js';
import { cylinder, deform, lathe, loft, merge, orientOutward, prism, rod, rotate, roundedBoxBetween, scale, standUp, translate, tube, type Mesh, type Vec3 } from '../mesh.js';
import { circleProfile, closedTube, revolveLoop, ringAt, slab, sweepOutline } from '../mesh-sweep.js';
import { round4 } from '../numbers.js';
import { circlePoints, offsetOutline, roundedRect, scalePts, shiftPts, superellipse, type Pt } from '../outline.js';
import { finish, part } from '../piece.js';
import { rattanOf, softFabrics, styleFamily } from '../style-picks.js';
import type { StyleProfile } from '../styles.js';

/**
 * Bathroom and outdoor fixtures: built-in and freestanding bathtubs, shower enclosures, toilets, hanging egg chairs
 * and barbecues. Lofts of outline rings and swept rims come from mesh-sweep.ts, their outlines from outline.ts.
 */

const SANITARY: Material = { kind: 'ceramic', color: '#F6F6F3', roughness: 0.12 };
const GLASS: Material = { kind: 'glass', color: '#EEF4F3', roughness: 0.03 };

function woodish(m: Material): 'z' | undefined {
  return m.kind === 'wood' ? 'z' : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Built-in bathtub
// ---------------------------------------------------------------------------------------------------------------

export interface BathtubParams {
  id: string;
  styleId: string;
  width: number;
  depth: number;
  /** Height of the deck (the rim) above the floor. */
  height: number;
  basinDepth: number;
  /** Deck widths around the basin: the tap end is wider. */
  deck: number;
  tapDeck: number;
  tapEnd: 'left' | 'right';
  apron: 'plain' | 'panelled' | 'slatted' | 'stone';
  tap: 'gooseneck' | 'bridge';
  spoutHeight: number;
  materials: { shell: Material; apron: Material; backing: Material; metal: Material };
}

const DECK_THICKNESS = 0.035;
const APRON_INSET = 0.01;
const SPOUT_RADIUS = 0.011;

function basinRings(p: BathtubParams): Vec3[][] {
  const W = p.width;
  const D = p.depth;
  const H = p.height;
  const front = p.deck;
  const back = p.deck + 0.02;
  const left0 = W / 2 - p.deck; // backrest end (−x) at the rim, measured from x = 0
  const right0 = W / 2 - p.tapDeck;
  const half0 = (D - front - back) / 2;
  const cy = (front - back) / 2;
  const r0 = Math.min(0.2, half0 * 0.8);
  const rings: Vec3[][] = [];
  const ts = [0, 0.12, 0.25, 0.4, 0.55, 0.68, 0.79, 0.88, 0.94, 0.98, 1];
  for (const t of ts) {
    const e = 1 - Math.sqrt(Math.max(0, 1 - t * t));
    const left = left0 - 0.38 * (0.6 * t + 0.4 * e);
    const right = right0 - 0.1 * e;
    const half = half0 - 0.11 * e;
    const r = Math.min(r0 - 0.06 * e, 0.45 * Math.min(left + right, 2 * half));
    const outline = roundedRect(left + right, 2 * half, r, 6, (right - left) / 2, cy);
    rings.push(ringAt(outline, H - 0.008 - t * (p.basinDepth - 0.008)));
  }
  return rings;
}

function bathtubShell(p: BathtubParams): Mesh {
  const W = p.width;
  const D = p.depth;
  const H = p.height;
  const deck = roundedRect(W, D, 0.02, 6);
  const low = H - p.basinDepth - 0.03;
  const lower = roundedRect(W - 0.05, D - 0.05, 0.02, 6);
  const basin = basinRings(p);
  const rim = basin[0]!.map(([x, y]) => [x, y] as Pt);
  return loft([
    ringAt(lower, low),
    ringAt(lower, H - DECK_THICKNESS),
    ringAt(offsetOutline(deck, -0.004), H - DECK_THICKNESS),
    ringAt(deck, H - DECK_THICKNESS + 0.004),
    ringAt(deck, H - 0.005),
    ringAt(offsetOutline(deck, -0.005), H),
    ringAt(offsetOutline(rim, 0.01), H),
    ...basin,
  ]);
}

/** The tub's front and end panels (a U open to the wall), hollow so the basin above stays clear. */
function apronPanels(x0: number, x1: number, y0: number, y1: number, z0: number, z1: number, t: number, r: number): Mesh {
  return merge(
    roundedBoxBetween([x0, y0, z0], [x1, y0 + t, z1], r, 2),
    roundedBoxBetween([x0, y0 + t - 0.002, z0], [x0 + t, y1, z1], r, 2),
    roundedBoxBetween([x1 - t, y0 + t - 0.002, z0], [x1, y1, z1], r, 2),
  );
}

function bathTap(p: BathtubParams, x: number, y: number): Mesh {
  const H = p.height;
  const top = H + p.spoutHeight;
  const r = SPOUT_RADIUS;
  if (p.tap === 'gooseneck') {
    const ra = 0.065;
    const path: Vec3[] = [[x, y, H - 0.005], [x, y, top - ra]];
    for (let k = 1; k <= 8; k++) {
      const a = (Math.PI * k) / 8;
      path.push([x - ra + ra * Math.cos(a), y, top - ra + ra * Math.sin(a)]);
    }
    path.push([x - 2 * ra, y, top - ra - 0.025]);
    return merge(
      cylinder(0.024, 0.022, H - 0.004, H + 0.02, 16, 0.003),
      tube(path, r, 10),
      translate(cylinder(0.018, 0.018, 0, 0.04, 12, 0.002), [x, y - 0.075, H - 0.004]),
      rod([x, y - 0.075, H + 0.034], [x - 0.05, y - 0.085, H + 0.048], 0.005, 8),
    );
  }
  // Bridge mixer: two pillars with cross handles, a bridge and a swan spout.
  const pillars: Mesh[] = [];
  for (const sy of [-1, 1]) {
    const py = y + sy * 0.075;
    pillars.push(translate(cylinder(0.02, 0.016, H - 0.004, H + 0.08, 16, 0.003), [x, py, 0]));
    pillars.push(rod([x - 0.03, py, H + 0.095], [x + 0.03, py, H + 0.095], 0.006, 8), rod([x, py - 0.03, H + 0.095], [x, py + 0.03, H + 0.095], 0.006, 8));
    pillars.push(translate(cylinder(0.012, 0.012, H + 0.08, H + 0.1, 12, 0.002), [x, py, 0]));
  }
  const path: Vec3[] = [[x, y, H + 0.05], [x, y, top - 0.04], [x - 0.03, y, top - 0.002], [x - 0.09, y, top - 0.03], [x - 0.11, y, top - 0.07]];
  return merge(...pillars, rod([x, y - 0.075, H + 0.05], [x, y + 0.075, H + 0.05], 0.012, 12), tube(path, r, 10));
}

export const bathtubGenerator = defineGenerator<BathtubParams>({
  ids: ['bathtub'],
  sample(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): BathtubParams {
    const fam = styleFamily(style);
    const apron: BathtubParams['apron'] =
      fam === 'classic' || style.id === 'farmhouse'
        ? 'panelled'
        : fam === 'natural' || style.id === 'coastal'
          ? 'slatted'
          : style.id === 'luxury' || style.id === 'art_deco' || fam === 'industrial' || style.id === 'rustic' || style.id === 'mediterranean'
            ? 'stone'
            : 'plain';
    let apronMaterial: Material;
    if (apron === 'panelled') apronMaterial = style.cases.find((m) => m.kind === 'painted-wood') ?? random.pick(style.cases);
    else if (apron === 'slatted') apronMaterial = random.pick(style.woods);
    else if (apron === 'stone') apronMaterial = random.pick(style.stones);
    else apronMaterial = random.chance(0.6) ? SANITARY : random.pick(style.cases);
    const width = capped(random.uniform(1.5, 1.8), limits?.maxWidth, 1.4);
    const depth = capped(random.uniform(0.7, 0.8), limits?.maxDepth, 0.65);
    const height = capped(random.uniform(0.52, 0.6), limits?.maxHeight !== undefined ? limits.maxHeight - 0.2 : undefined, 0.45);
    const tap: BathtubParams['tap'] = fam === 'classic' || style.id === 'farmhouse' || style.id === 'mediterranean' ? 'bridge' : 'gooseneck';
    return {
      id,
      styleId: style.id,
      width: round4(width),
      depth: round4(depth),
      height: round4(height),
      basinDepth: round4(Math.min(height - 0.1, random.uniform(0.38, 0.44))),
      deck: round4(random.uniform(0.045, 0.07)),
      tapDeck: round4(random.uniform(0.12, 0.16)),
      tapEnd: random.chance(0.5) ? 'left' : 'right',
      apron,
      tap,
      spoutHeight: round4(tap === 'bridge' ? random.uniform(0.16, 0.2) : random.uniform(0.15, 0.22)),
      materials: { shell: SANITARY, apron: apronMaterial, backing: plain('painted-wood', '#3A3631', 0.8), metal: random.pick(style.metals) },
    };
  },
  footprint(p: BathtubParams): Footprint {
    return { width: p.width, depth: p.depth, height: p.height + p.spoutHeight + SPOUT_RADIUS, placement: 'against-wall', elevation: 0, frontClearance: 0.7 };
  },
  build(p: BathtubParams): PieceGeometry {
    const W = p.width;
    const D = p.depth;
    const H = p.height;
    const parts: PiecePart[] = [part('tub', bathtubShell(p), 'shell')];
    const apronTop = H - DECK_THICKNESS + 0.002;
    const x0 = -W / 2 + APRON_INSET;
    const x1 = W / 2 - APRON_INSET;
    const y0 = -D / 2 + APRON_INSET;
    const y1 = D / 2;
    const grain = p.materials.apron.kind === 'wood' ? 'x' : undefined;
    if (p.apron === 'slatted') {
      const slatW = 0.045;
      const gap = 0.012;
      const t = 0.018;
      parts.push(part('apron-backing', apronPanels(x0 + t, x1 - t, y0 + t, y1, 0, apronTop, 0.012, 0.002), 'backing'));
      const front: Mesh[] = [];
      const count = Math.floor((x1 - x0 + gap) / (slatW + gap));
      const span = count * slatW + (count - 1) * gap;
      for (let i = 0; i < count; i++) {
        const sx = x0 + (x1 - x0 - span) / 2 + i * (slatW + gap);
        front.push(roundedBoxBetween([sx, y0, 0.004], [sx + slatW, y0 + t, apronTop - 0.004], 0.003, 2));
      }
      const ends: Mesh[] = [];
      const endCount = Math.floor((y1 - y0 - t + gap) / (slatW + gap));
      for (const side of [-1, 1]) {
        for (let i = 0; i < endCount; i++) {
          const sy = y0 + t + 0.004 + i * (slatW + gap);
          const xa = side < 0 ? x0 : x1 - t;
          ends.push(roundedBoxBetween([xa, sy, 0.004], [xa + t, Math.min(y1, sy + slatW), apronTop - 0.004], 0.003, 2));
        }
      }
      parts.push(part('slats', merge(...front, ...ends), 'apron', 'z'));
    } else {
      const plinthH = p.apron === 'plain' ? 0.07 : 0.0;
      if (plinthH > 0) parts.push(part('plinth', apronPanels(x0 + 0.04, x1 - 0.04, y0 + 0.04, y1, 0, plinthH + 0.005, 0.015, 0.002), 'backing'));
      parts.push(part('apron', apronPanels(x0, x1, y0, y1, plinthH, apronTop, 0.02, p.apron === 'stone' ? 0.004 : 0.006), 'apron', grain));
      if (p.apron === 'panelled') {
        // Raised mouldings on the front: two or three fielded panels and a skirting.
        const n = W > 1.65 ? 3 : 2;
        const margin = 0.07;
        const pw = (x1 - x0 - margin * (n + 1)) / n;
        const ph = apronTop - 0.12 - 0.06;
        const mouldings: Mesh[] = [];
        for (let i = 0; i < n; i++) {
          const cx = x0 + margin + pw / 2 + i * (pw + margin);
          const inner = shiftPts(roundedRect(pw - 0.06, ph - 0.06, 0.004, 1), cx, 0.12 + ph / 2);
          const frame = sweepOutline(inner, [[0, 0], [0.03, 0], [0.03, 0.004], [0.02, 0.009], [0.008, 0.008], [0, 0.004]]);
          const field = slab(inner, 0, 0.005, 0.002);
          mouldings.push(translate(standUp(merge(frame, field)), [0, y0 + 0.0005, 0]));
        }
        mouldings.push(roundedBoxBetween([x0 - 0.0, y0 - 0.008, 0], [x1, y0 + 0.01, 0.09], 0.003, 2));
        parts.push(part('mouldings', merge(...mouldings), 'apron', grain));
      }
    }
    // Taps on the wide deck, a chrome drain on the basin floor.
    const basinFloor = H - p.basinDepth;
    const tapX = W / 2 - p.tapDeck / 2 + 0.01;
    const cy = -0.01;
    const drainX = W / 2 - p.tapDeck - 0.2;
    parts.push(part('taps', merge(bathTap(p, tapX, cy), translate(cylinder(0.035, 0.033, basinFloor - 0.003, basinFloor + 0.004, 20, 0.002), [drainX, cy, 0])), 'metal'));
    const mirrored = p.tapEnd === 'left' ? parts.map((q) => ({ ...q, mesh: scale(q.mesh, [-1, 1, 1]) })) : parts;
    return finish(mirrored, { ...p.materials });
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Freestanding bathtub
// ---------------------------------------------------------------------------------------------------------------

export interface FreestandingBathtubParams {
  id: string;
  styleId: string;
  form: 'oval' | 'slipper' | 'double-slipper';
  rim: 'roll' | 'thin';
  base: 'feet' | 'plinth';
  width: number;
  depth: number;
  /** Rim top at its highest. */
  height: number;
  /** Rim height at the low middle of a slipper tub. */
  lowRim: number;
  exponent: number;
  baseHeight: number;
  materials: { shell: Material; exterior: Material; feet: Material; metal: Material };
}

const ROLL = 0.022;

function tubRimHeight(p: FreestandingBathtubParams, x: number, a: number): number {
  const u = Math.max(-1, Math.min(1, x / a));
  if (p.form === 'oval') return p.height;
  const lift = p.form === 'slipper' ? Math.max(0, u) ** 2 : u * u;
  return p.lowRim + (p.height - p.lowRim) * lift;
}

interface TubFrame {
  a: number;
  b: number;
  top: Pt[];
  rimZ: number[];
  z0: number;
  outerAt: (t: number) => Pt[];
  wall: number;
  rollOut: number;
  rollH: number;
}

function tubFrame(p: FreestandingBathtubParams): TubFrame {
  const rollOut = p.rim === 'roll' ? ROLL : 0.004;
  const a = p.width / 2 - rollOut;
  const b = p.depth / 2 - rollOut;
  const top = superellipse(a, b, p.exponent, 64);
  const rimZ = top.map(([x]) => tubRimHeight(p, x, a));
  const sb = 0.78;
  const outerAt = (t: number): Pt[] => scalePts(top, sb + (1 - sb) * Math.sin((t * Math.PI) / 2), sb * 0.94 + (1 - sb * 0.94) * Math.sin((t * Math.PI) / 2));
  return { a, b, top, rimZ, z0: p.baseHeight, outerAt, wall: p.rim === 'roll' ? 0.035 : 0.02, rollOut, rollH: p.rim === 'roll' ? 0.045 : 0.012 };
}

function tubBody(p: FreestandingBathtubParams, f: TubFrame): Mesh {
  const rings: Vec3[][] = [];
  const bottom = f.outerAt(0);
  rings.push(ringAt(offsetOutline(bottom, -0.012), f.z0));
  const outerTs = [0.02, 0.12, 0.28, 0.45, 0.62, 0.78, 0.9];
  const zAt = (t: number, i: number): number => f.z0 + t * (f.rimZ[i]! - f.rollH - f.z0);
  for (const t of outerTs) rings.push(f.outerAt(t).map(([x, y], i) => [x, y, zAt(t, i)] as Vec3));
  rings.push(f.top.map(([x, y], i) => [x, y, f.rimZ[i]! - f.rollH] as Vec3));
  // The rim: a rolled lip (classic) or a thin crisp edge.
  const rimRing = (offset: number, dz: number): Vec3[] => offsetOutline(f.top, offset).map(([x, y], i) => [x, y, f.rimZ[i]! + dz] as Vec3);
  if (p.rim === 'roll') {
    rings.push(rimRing(f.rollOut, -f.rollH * 0.55), rimRing(f.rollOut * 0.85, -f.rollH * 0.2), rimRing(f.rollOut * 0.3, 0), rimRing(-f.wall * 0.5, -0.004), rimRing(-f.wall, -f.rollH * 0.5));
  } else {
    rings.push(rimRing(f.rollOut, -0.004), rimRing(f.rollOut * 0.5, 0), rimRing(-f.wall + 0.003, 0), rimRing(-f.wall, -0.006));
  }
  // The basin: down the inside to a flat floor.
  const floorZ = f.z0 + 0.05;
  const innerTs = [0.88, 0.7, 0.5, 0.3, 0.14, 0.05, 0];
  const innerTop = (i: number): number => f.rimZ[i]! - (p.rim === 'roll' ? f.rollH * 0.5 : 0.006);
  for (const t of innerTs) {
    const e = 1 - Math.sqrt(Math.max(0, 1 - (1 - t) ** 2));
    const k = 1 - 0.5 * e;
    const ring = offsetOutline(scalePts(f.top, k * (0.9 + 0.1 * t), k * (0.86 + 0.14 * t)), -f.wall);
    rings.push(ring.map(([x, y], i) => [x, y, floorZ + (innerTop(i) - floorZ) * t] as Vec3));
  }
  return loft(rings);
}

/** A painted skin over the outside wall, below the rim (classic tubs are painted outside, white inside). */
function tubSkin(p: FreestandingBathtubParams, f: TubFrame): Mesh {
  const ts = [0.04, 0.12, 0.28, 0.45, 0.62, 0.78, 0.9, 0.97];
  const zAt = (t: number, i: number): number => f.z0 + t * (f.rimZ[i]! - f.rollH - f.z0);
  const out: Vec3[][] = ts.map((t) => offsetOutline(f.outerAt(t), 0.0015).map(([x, y], i) => [x, y, zAt(t, i)] as Vec3));
  const inn: Vec3[][] = [...ts].reverse().map((t) => offsetOutline(f.outerAt(t), -0.008).map(([x, y], i) => [x, y, zAt(t, i)] as Vec3));
  return orientOutward(loft([...out, ...inn], true));
}

export const freestandingBathtubGenerator = defineGenerator<FreestandingBathtubParams>({
  ids: ['freestanding_bathtub'],
  sample(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): FreestandingBathtubParams {
    const fam = styleFamily(style);
    const classic = fam === 'classic';
    const casual = fam === 'casual';
    const form: FreestandingBathtubParams['form'] = classic ? random.pick(['slipper', 'double-slipper'] as const) : casual && random.chance(0.4) ? 'double-slipper' : 'oval';
    const rim: FreestandingBathtubParams['rim'] = classic || casual ? 'roll' : 'thin';
    // Claw-like feet for classic tubs (and most cottage ones), a recessed plinth for modern ones.
    const base: FreestandingBathtubParams['base'] = classic || (casual && random.chance(0.7)) || (fam === 'industrial' && random.chance(0.5)) ? 'feet' : 'plinth';
    const width = capped(random.uniform(1.5, 1.8), limits?.maxWidth, 1.3);
    const depth = capped(random.uniform(0.72, 0.85), limits?.maxDepth, 0.65);
    const height = capped(form === 'oval' ? random.uniform(0.56, 0.64) : random.uniform(0.7, 0.8), limits?.maxHeight, 0.5);
    let exterior: Material = SANITARY;
    if (classic || (casual && random.chance(0.5))) {
      const painted = style.cases.filter((m) => m.kind === 'painted-wood' || m.kind === 'lacquer');
      exterior = painted.length > 0 ? { ...random.pick(painted), kind: 'lacquer', roughness: 0.25 } : { ...random.pick(style.ceramics), roughness: 0.2 };
    } else if (fam === 'industrial') exterior = { kind: 'metal', color: '#232323', roughness: 0.5 };
    const shell = style.id === 'luxury' && random.chance(0.35) ? random.pick(style.stones) : SANITARY;
    return {
      id,
      styleId: style.id,
      form,
      rim,
      base,
      width: round4(width),
      depth: round4(depth),
      height: round4(height),
      lowRim: round4(form === 'oval' ? height : Math.min(height - 0.1, random.uniform(0.56, 0.6))),
      exponent: round4(rim === 'roll' ? random.uniform(2.2, 2.6) : random.uniform(2.1, 2.8)),
      baseHeight: round4(base === 'feet' ? random.uniform(0.1, 0.14) : base === 'plinth' ? random.uniform(0.05, 0.08) : 0),
      materials: { shell, exterior, feet: random.pick(style.metals), metal: random.pick(style.metals) },
    };
  },
  footprint(p: FreestandingBathtubParams): Footprint {
    return { width: p.width, depth: p.depth, height: p.height, placement: 'floor', elevation: 0, frontClearance: 0.7 };
  },
  build(p: FreestandingBathtubParams): PieceGeometry {
    const f = tubFrame(p);
    const parts: PiecePart[] = [part('tub', tubBody(p, f), 'shell')];
    if (p.materials.exterior !== p.materials.shell && p.materials.exterior.color !== p.materials.shell.color) parts.push(part('exterior', tubSkin(p, f), 'exterior'));
    const bottom = f.outerAt(0);
    if (p.base === 'feet') {
      const feet: Mesh[] = [];
      const h = p.baseHeight + 0.03;
      for (const sx of [-1, 1]) {
        for (const sy of [-1, 1]) {
          // A ball-and-claw foot: a ball on the floor, an ankle, a flared knee under the tub, leaning outward.
          const foot = lathe([[0.02, 0], [0.034, 0.012], [0.036, 0.028], [0.024, 0.045], [0.018, h * 0.6], [0.03, h * 0.85], [0.036, h]], 16);
          const leaned = rotate(rotate(foot, 'y', -sx * 0.08), 'x', sy * 0.07);
          feet.push(translate(leaned, [sx * f.a * 0.78 * 0.62, sy * f.b * 0.72 * 0.5, 0]));
        }
      }
      parts.push(part('feet', merge(...feet), 'feet'));
    } else if (p.base === 'plinth') {
      parts.push(part('plinth', slab(scalePts(bottom, 0.9, 0.88), 0, p.baseHeight + 0.01, 0.004), 'shell'));
    }
    const floorZ = f.z0 + 0.05;
    parts.push(part('drain', cylinder(0.035, 0.033, floorZ - 0.003, floorZ + 0.004, 20, 0.002), 'metal'));
    return finish(parts, { ...p.materials });
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Shower enclosure
// ---------------------------------------------------------------------------------------------------------------

export interface ShowerEnclosureParams {
  id: string;
  styleId: string;
  kind: 'enclosure' | 'walk-in';
  frame: 'frameless' | 'framed' | 'grid';
  width: number;
  depth: number;
  /** Top of the glass above the floor. */
  height: number;
  trayHeight: number;
  doorSide: 'left' | 'right';
  head: 'round' | 'square';
  headSize: number;
  materials: { glass: Material; frame: Material; tray: Material; fittings: Material };
}

const GLASS_T = 0.008;
const GLASS_SETBACK = 0.06;

export const showerEnclosureGenerator = defineGenerator<ShowerEnclosureParams>({
  ids: ['shower_enclosure'],
  sample(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): ShowerEnclosureParams {
    const fam = styleFamily(style);
    const frame: ShowerEnclosureParams['frame'] = fam === 'industrial' || (style.id === 'art_deco' && random.chance(0.5)) ? 'grid' : fam === 'sleek' || fam === 'natural' ? 'frameless' : 'framed';
    const kind: ShowerEnclosureParams['kind'] = fam === 'sleek' && random.chance(0.5) ? 'walk-in' : 'enclosure';
    const frameMetal = fam === 'industrial' || style.id === 'japandi' || style.id === 'minimalist' ? style.metals.find((m) => m.color === '#1E1E1E') ?? random.pick(style.metals) : random.pick(style.metals);
    const stoneTray = style.id === 'luxury' || style.id === 'japandi' || style.id === 'rustic' || style.id === 'mediterranean';
    const width = capped(kind === 'walk-in' ? random.uniform(1.0, 1.4) : random.uniform(0.8, 1.2), limits?.maxWidth, 0.75);
    const depth = capped(random.uniform(0.8, 1.0), limits?.maxDepth, 0.75);
    return {
      id,
      styleId: style.id,
      kind,
      frame,
      width: round4(width),
      depth: round4(depth),
      height: round4(capped(random.uniform(1.95, 2.05), limits?.maxHeight, 1.85)),
      trayHeight: round4(kind === 'walk-in' ? random.uniform(0.025, 0.035) : random.uniform(0.035, 0.05)),
      doorSide: random.chance(0.5) ? 'left' : 'right',
      head: fam === 'sleek' || fam === 'industrial' ? random.pick(['round', 'square'] as const) : 'round',
      headSize: round4(random.uniform(0.2, 0.3)),
      materials: { glass: GLASS, frame: frameMetal, tray: stoneTray ? random.pick(style.stones) : SANITARY, fittings: frameMetal },
    };
  },
  footprint(p: ShowerEnclosureParams): Footprint {
    return { width: p.width, depth: p.depth, height: p.height, placement: 'against-wall', elevation: 0, frontClearance: 0.6 };
  },
  build(p: ShowerEnclosureParams): PieceGeometry {
    const W = p.width;
    const D = p.depth;
    const z0 = p.trayHeight;
    const z1 = p.height;
    const wallY = D / 2;
    const gy = -D / 2 + GLASS_SETBACK;
    const parts: PiecePart[] = [];
    // Tray with a drain.
    parts.push(part('tray', roundedBoxBetween([-W / 2, -D / 2, 0], [W / 2, D / 2, z0], 0.008, 2), 'tray'));
    const glass: Mesh[] = [];
    const frame: Mesh[] = [];
    const pane = (xa: number, xb: number, ya: number, yb: number): void => {
      glass.push(roundedBoxBetween([xa, ya, z0 + 0.004], [xb, yb, z1 - (p.frame === 'frameless' ? 0 : 0.004)], 0.0015, 1));
    };
    const profileW = p.frame === 'frameless' ? 0.014 : 0.022;
    const edgeFrame = (xa: number, xb: number, ya: number, yb: number, alongX: boolean): void => {
      // Thin metal profiles round a pane (frameless: only the bottom channel and the wall profiles).
      const t = 0.007;
      const lo = (v: number) => v - t;
      const hi = (v: number) => v + t;
      if (alongX) {
        const y = (ya + yb) / 2;
        frame.push(roundedBoxBetween([xa, lo(y), z0], [xb, hi(y), z0 + profileW], 0.002, 1));
        if (p.frame !== 'frameless') {
          frame.push(roundedBoxBetween([xa, lo(y), z1 - profileW], [xb, hi(y), z1], 0.002, 1));
          frame.push(roundedBoxBetween([xa, lo(y), z0], [xa + profileW, hi(y), z1], 0.002, 1));
          frame.push(roundedBoxBetween([xb - profileW, lo(y), z0], [xb, hi(y), z1], 0.002, 1));
          if (p.frame === 'grid') {
            for (const zf of [0.36, 0.68]) frame.push(roundedBoxBetween([xa, lo(y), z0 + (z1 - z0) * zf - 0.01], [xb, hi(y), z0 + (z1 - z0) * zf + 0.01], 0.002, 1));
          }
        }
      } else {
        const x = (xa + xb) / 2;
        frame.push(roundedBoxBetween([lo(x), ya, z0], [hi(x), yb, z0 + profileW], 0.002, 1));
        if (p.frame !== 'frameless') {
          frame.push(roundedBoxBetween([lo(x), ya, z1 - profileW], [hi(x), yb, z1], 0.002, 1));
          frame.push(roundedBoxBetween([lo(x), ya, z0], [hi(x), ya + profileW, z1], 0.002, 1));
          if (p.frame === 'grid') {
            for (const zf of [0.36, 0.68]) frame.push(roundedBoxBetween([lo(x), ya, z0 + (z1 - z0) * zf - 0.01], [hi(x), yb, z0 + (z1 - z0) * zf + 0.01], 0.002, 1));
          }
        }
        // The wall profile where the pane meets the wall.
        frame.push(roundedBoxBetween([lo(x) - 0.004, wallY - 0.025, z0], [hi(x) + 0.004, wallY, z1], 0.002, 1));
      }
    };
    const fittings: Mesh[] = [];
    const sign = p.doorSide === 'right' ? 1 : -1;
    if (p.kind === 'enclosure') {
      const xs = -sign * W * 0.02;
      // Front: a fixed pane and a door, side panes on both ends down to the wall.
      const fixedA = sign > 0 ? -W / 2 + 0.007 : xs + 0.003;
      const fixedB = sign > 0 ? xs - 0.003 : W / 2 - 0.007;
      const doorA = sign > 0 ? xs + 0.003 : -W / 2 + 0.007;
      const doorB = sign > 0 ? W / 2 - 0.007 : xs - 0.003;
      pane(fixedA, fixedB, gy - GLASS_T / 2, gy + GLASS_T / 2);
      pane(doorA, doorB, gy - GLASS_T / 2 - 0.012, gy + GLASS_T / 2 - 0.012);
      edgeFrame(fixedA, fixedB, gy - GLASS_T / 2, gy + GLASS_T / 2, true);
      if (p.frame !== 'frameless') edgeFrame(doorA, doorB, gy - GLASS_T / 2 - 0.012, gy + GLASS_T / 2 - 0.012, true);
      for (const sx of [-1, 1]) {
        const x = sx * (W / 2 - 0.012);
        pane(x - GLASS_T / 2, x + GLASS_T / 2, gy + GLASS_T, wallY - 0.012);
        edgeFrame(x - GLASS_T / 2, x + GLASS_T / 2, gy + GLASS_T, wallY, false);
      }
      // Door handle: a vertical bar on standoffs near the door's free edge, hinges at the far end.
      const hx = sign > 0 ? doorA + 0.07 : doorB - 0.07;
      const hy = gy - GLASS_T / 2 - 0.012;
      fittings.push(tube([[hx, hy, 0.95], [hx, hy - 0.035, 0.95], [hx, hy - 0.035, 1.3], [hx, hy, 1.3]], 0.008, 8));
      const hingeX = sign > 0 ? doorB - 0.03 : doorA + 0.03;
      for (const hz of [z0 + 0.25, z1 - 0.25]) fittings.push(roundedBoxBetween([hingeX - 0.025, hy - 0.016, hz - 0.03], [hingeX + 0.025, hy + 0.014, hz + 0.03], 0.004, 2));
    } else {
      // Walk-in: one fixed screen over part of the front, held to the wall by a stabiliser bar.
      const span = W * 0.62;
      const xa = sign > 0 ? -W / 2 + 0.001 : W / 2 - span;
      const xb = xa + span - 0.001;
      pane(xa, xb, gy - GLASS_T / 2, gy + GLASS_T / 2);
      edgeFrame(xa, xb, gy - GLASS_T / 2, gy + GLASS_T / 2, true);
      const wallEnd = sign > 0 ? xa : xb;
      frame.push(roundedBoxBetween([wallEnd - 0.006, gy - 0.015, z0], [wallEnd + 0.006, gy + 0.015, z1], 0.002, 1));
      const free = sign > 0 ? xb - 0.08 : xa + 0.08;
      fittings.push(rod([free, gy, z1 - 0.06], [free, wallY, z1 - 0.06], 0.009, 10), rod([free, wallY - 0.012, z1 - 0.06], [free, wallY, z1 - 0.06], 0.022, 14));
    }
    // Shower: a riser rail on the back wall, an arm to the rain head, a hand shower and a mixer.
    const hx = -sign * W * 0.12;
    const armZ = Math.min(z1 - 0.06, 2.0);
    const headY = Math.max(gy + 0.2, wallY - 0.32);
    const railY = wallY - 0.045;
    fittings.push(tube([[hx, railY, 1.0], [hx, railY, armZ], [hx, headY + 0.03, armZ]], 0.011, 10));
    for (const bz of [1.0, armZ - 0.3]) fittings.push(rod([hx, railY, bz], [hx, wallY, bz], 0.01, 10), rod([hx, wallY - 0.006, bz], [hx, wallY, bz], 0.028, 16));
    fittings.push(rod([hx, headY, armZ - 0.015], [hx, headY, armZ + 0.001], 0.012, 10));
    const headR = p.headSize / 2;
    fittings.push(
      p.head === 'round'
        ? translate(cylinder(headR, headR, 0, 0.012, 32, 0.003), [hx, headY, armZ - 0.03])
        : roundedBoxBetween([hx - headR, headY - headR, armZ - 0.03], [hx + headR, headY + headR, armZ - 0.018], 0.004, 2),
    );
    fittings.push(translate(rotate(lathe([[0.012, 0], [0.014, 0.16], [0.03, 0.2], [0.032, 0.215], [0, 0.22]], 14), 'x', 0.15), [hx, railY - 0.03, 1.15]));
    fittings.push(rod([hx + sign * 0.25, wallY - 0.012, 1.05], [hx + sign * 0.25, wallY, 1.05], 0.035, 20), rod([hx + sign * 0.25, wallY - 0.012, 1.05], [hx + sign * 0.25, wallY - 0.06, 1.06], 0.008, 10));
    fittings.push(translate(cylinder(0.045, 0.045, z0 - 0.002, z0 + 0.002, 24), [hx * 0.3, 0.05, 0]));
    parts.push(part('glass', merge(...glass), 'glass'), part('frame', merge(...frame), 'frame'), part('fittings', merge(...fittings), 'fittings'));
    return finish(parts, { ...p.materials });
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Toilet
// ---------------------------------------------------------------------------------------------------------------

export interface ToiletParams {
  id: string;
  styleId: string;
  form: 'back-to-wall' | 'close-coupled' | 'classic';
  bowlWidth: number;
  depth: number;
  /** Top of the (closed) seat: where one sits, lid aside. */
  seatHeight: number;
  cisternWidth: number;
  cisternDepth: number;
  cisternTop: number;
  flush: 'button' | 'lever';
  materials: { ceramic: Material; seat: Material; metal: Material };
}

const SEAT_T = 0.02;
const LID_T = 0.024;
const CISTERN_LID = 0.009;

/** The bowl's plan: an egg, narrower at the front, centred on the origin, half-width a and half-length b. */
function eggOutline(a: number, b: number): Pt[] {
  return superellipse(a, b, 2.3, 48).map(([x, y]) => [y < 0 ? x * (1 - 0.16 * (-y / b)) : x, y]);
}

function toiletLayout(p: ToiletParams): { a: number; b: number; yc: number; rimZ: number; wallY: number; cisternFront: number } {
  const wallY = p.depth / 2;
  const cisternFront = wallY - p.cisternDepth;
  const b = Math.max(0.19, (cisternFront - 0.03 + p.depth / 2) / 2);
  const a = p.bowlWidth / 2 - 0.004;
  const yc = -p.depth / 2 + 0.004 + b;
  return { a, b, yc, rimZ: p.seatHeight - SEAT_T, wallY, cisternFront };
}

export const toiletGenerator = defineGenerator<ToiletParams>({
  ids: ['toilet'],
  sample(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): ToiletParams {
    const fam = styleFamily(style);
    const form: ToiletParams['form'] = fam === 'classic' || style.id === 'farmhouse' ? 'classic' : fam === 'sleek' || style.id === 'japandi' ? 'back-to-wall' : 'close-coupled';
    const woodSeat = form === 'classic' && random.chance(0.6);
    const depth = capped(random.uniform(0.64, 0.72), limits?.maxDepth, 0.58);
    return {
      id,
      styleId: style.id,
      form,
      bowlWidth: round4(capped(random.uniform(0.35, 0.39), limits?.maxWidth, 0.33)),
      depth: round4(depth),
      seatHeight: round4(random.uniform(0.4, 0.43)),
      cisternWidth: round4(capped(form === 'classic' ? random.uniform(0.4, 0.46) : random.uniform(0.34, 0.4), limits?.maxWidth, 0.32)),
      cisternDepth: round4(form === 'back-to-wall' ? random.uniform(0.14, 0.16) : random.uniform(0.16, 0.19)),
      cisternTop: round4(capped(form === 'classic' ? random.uniform(0.8, 0.86) : random.uniform(0.75, 0.82), limits?.maxHeight, 0.65)),
      flush: form === 'classic' ? 'lever' : 'button',
      materials: { ceramic: SANITARY, seat: woodSeat ? random.pick(style.woods) : { ...SANITARY, kind: 'plastic', roughness: 0.2 }, metal: random.pick(style.metals) },
    };
  },
  footprint(p: ToiletParams): Footprint {
    const l = toiletLayout(p);
    const lidOver = p.form === 'classic' ? CISTERN_LID : 0;
    return {
      width: Math.max(2 * (l.a + 0.004), p.cisternWidth + 2 * lidOver),
      depth: p.depth,
      height: Math.max(p.cisternTop + (p.flush === 'button' ? 0.004 : 0), p.seatHeight + 0.002 + LID_T),
      placement: 'against-wall',
      elevation: 0,
      frontClearance: 0.6,
    };
  },
  build(p: ToiletParams): PieceGeometry {
    const l = toiletLayout(p);
    const egg = eggOutline(l.a, l.b);
    const at = (sx: number, sy: number, dy: number): Pt[] => shiftPts(scalePts(egg, sx, sy), 0, l.yc + dy);
    const parts: PiecePart[] = [];
    const rimZ = l.rimZ;
    // Inside of the bowl (hidden under the lid, but it keeps the rim reading as a bowl from any side).
    const bowlTop: Vec3[][] = [
      ringAt(at(1, 1, 0), rimZ - 0.035),
      ringAt(offsetOutline(at(1, 1, 0), -0.004), rimZ),
      ringAt(offsetOutline(at(1, 1, 0), -0.03), rimZ),
      ringAt(offsetOutline(at(0.82, 0.82, 0.01), -0.03), rimZ - 0.07),
      ringAt(offsetOutline(at(0.5, 0.5, 0.02), -0.02), rimZ - 0.16),
      [[0, l.yc + 0.03, rimZ - 0.2]],
    ];
    if (p.form === 'back-to-wall') {
      // A skirted pan that fills down to the floor and back to the wall.
      const skirtLen = (l.wallY - (l.yc - l.b)) / 2;
      const skirt = superellipse(l.a * 0.95, skirtLen - 0.002, 3.2, 48);
      const sk = shiftPts(skirt, 0, l.yc - l.b + skirtLen + 0.002);
      parts.push(part('pan-skirt', loft([ringAt(offsetOutline(sk, -0.006), 0), ringAt(sk, 0.006), ringAt(sk, rimZ - 0.05), ringAt(offsetOutline(sk, -0.02), rimZ - 0.03)]), 'ceramic'));
      parts.push(part('bowl', loft([ringAt(at(0.97, 0.97, 0), rimZ - 0.09), ...bowlTop]), 'ceramic'));
    } else {
      // A pedestal with a waist (the trap), flaring into the bowl.
      const waist = p.form === 'classic' ? 0.42 : 0.5;
      parts.push(
        part(
          'bowl',
          loft([
            ringAt(offsetOutline(at(0.62, 0.66, 0.05), -0.006), 0),
            ringAt(at(0.62, 0.66, 0.05), 0.008),
            ringAt(at(waist + 0.04, 0.6, 0.05), 0.07),
            ringAt(at(waist, 0.56, 0.05), 0.16),
            ringAt(at(0.8, 0.84, 0.02), 0.27),
            ringAt(at(0.96, 0.97, 0.005), rimZ - 0.07),
            ...bowlTop,
          ]),
          'ceramic',
        ),
      );
      // The back of the pan that carries the cistern.
      parts.push(part('pan-back', roundedBoxBetween([-Math.min(l.a * 0.75, 0.14), l.yc + l.b * 0.3, 0.22], [Math.min(l.a * 0.75, 0.14), l.wallY - 0.01, rimZ - 0.01], 0.03, 3), 'ceramic'));
    }
    // Seat and closed lid.
    const seatOutline = offsetOutline(at(1, 1, 0), 0.004);
    parts.push(part('seat', slab(seatOutline, rimZ, p.seatHeight, 0.006), 'seat', p.materials.seat.kind === 'wood' ? 'y' : undefined));
    const lz = p.seatHeight + 0.002;
    const lidTop = lz + LID_T;
    parts.push(
      part(
        'lid',
        loft([
          ringAt(offsetOutline(at(1, 1, 0), -0.001), lz),
          ringAt(offsetOutline(at(1, 1, 0), 0.003), lz + LID_T * 0.35),
          ringAt(offsetOutline(at(0.97, 0.97, 0), 0), lz + LID_T * 0.75),
          ringAt(at(0.88, 0.88, 0.005), lidTop - 0.002),
          ringAt(at(0.7, 0.7, 0.01), lidTop),
        ]),
        'seat',
        p.materials.seat.kind === 'wood' ? 'y' : undefined,
      ),
    );
    // Cistern against the wall.
    const cw = p.cisternWidth;
    const cz0 = rimZ - 0.02;
    const cTop = p.cisternTop;
    const metalParts: Mesh[] = [];
    for (const sx of [-1, 1]) metalParts.push(rod([sx * 0.06 - 0.015, l.yc + l.b - 0.03, p.seatHeight - 0.004], [sx * 0.06 + 0.015, l.yc + l.b - 0.03, p.seatHeight - 0.004], 0.009, 10));
    if (p.form === 'classic') {
      parts.push(part('cistern', roundedBoxBetween([-cw / 2, l.cisternFront, cz0], [cw / 2, l.wallY, cTop - CISTERN_LID * 2], 0.022, 3), 'ceramic'));
      parts.push(part('cistern-lid', roundedBoxBetween([-cw / 2 - CISTERN_LID, l.cisternFront - CISTERN_LID, cTop - CISTERN_LID * 2.6], [cw / 2 + CISTERN_LID, l.wallY, cTop], 0.008, 3), 'ceramic'));
      const lx = -cw / 2 + 0.045;
      const lz2 = cTop - 0.07;
      metalParts.push(rod([lx, l.cisternFront + 0.005, lz2], [lx, l.cisternFront - 0.012, lz2], 0.014, 14), rod([lx, l.cisternFront - 0.012, lz2], [lx + 0.075, l.cisternFront - 0.016, lz2 - 0.01], 0.0045, 8));
    } else {
      parts.push(part('cistern', roundedBoxBetween([-cw / 2, l.cisternFront, cz0], [cw / 2, l.wallY, cTop], p.form === 'back-to-wall' ? 0.012 : 0.02, 3), 'ceramic'));
      metalParts.push(translate(cylinder(0.024, 0.024, cTop - 0.004, cTop + 0.004, 24, 0.001), [0, (l.cisternFront + l.wallY) / 2, 0]));
    }
    parts.push(part('fittings', merge(...metalParts), 'metal'));
    return finish(parts, { ...p.materials });
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Hanging egg chair
// ---------------------------------------------------------------------------------------------------------------

export interface HangingChairParams {
  id: string;
  styleId: string;
  /** The egg: half-width, half-height and half-length (front to back) of its ellipsoid, shell thickness. */
  rx: number;
  rz: number;
  length: number;
  shell: number;
  /** How far past the egg's middle the opening reaches at its sides and top (fractions of the half-length). */
  sideCut: number;
  hoodCut: number;
  lipCut: number;
  /** Bottom of the egg above the floor, the stand's total height, the base's radius. */
  eggBottom: number;
  height: number;
  baseRadius: number;
  materials: { basket: Material; rim: Material; stand: Material; cushion: Material; back: Material };
}

const EGG_RIM = 0.016;

/**
 * A filled cushion on an outline: flat underneath, bevelled round its edge, its top crowned, with rings across its
 * whole surface so it can be bent to follow a curved seat.
 */
function pillow(outline: Pt[], thickness: number, bevel: number, crown: number): Mesh {
  const n = outline.length;
  const cx = outline.reduce((a, q) => a + q[0], 0) / n;
  const cy = outline.reduce((a, q) => a + q[1], 0) / n;
  const inner = offsetOutline(outline, -bevel);
  const toward = (points: Pt[], k: number): Pt[] => points.map(([x, y]) => [cx + (x - cx) * k, cy + (y - cy) * k]);
  return loft([
    [[cx, cy, 0]],
    ringAt(toward(inner, 0.35), 0),
    ringAt(toward(inner, 0.7), 0),
    ringAt(inner, 0),
    ringAt(outline, bevel * 0.8),
    ringAt(outline, thickness - bevel * 0.8),
    ringAt(inner, thickness),
    ringAt(toward(inner, 0.7), thickness + crown * 0.6),
    ringAt(toward(inner, 0.35), thickness + crown * 0.92),
    [[cx, cy, thickness + crown]],
  ]);
}
const POLE_R = 0.024;

interface EggFrame {
  yBack: number;
  zc: number;
  uRim: (theta: number) => number;
  outer: (u: number, theta: number) => Vec3;
  inner: (u: number, theta: number) => Vec3;
  yHook: number;
  poleY: number;
}

function eggFrame(p: HangingChairParams): EggFrame {
  const L = p.length;
  const zc = p.eggBottom + p.rz;
  const yHook = 0;
  const yBack = yHook + L;
  // The opening reaches forward over the head (hood) and under the knees (lip), less at the sides.
  const uRim = (theta: number): number => L * (1 + p.sideCut + (p.hoodCut - p.sideCut) * Math.max(0, Math.sin(theta)) + (p.lipCut - p.sideCut) * Math.max(0, -Math.sin(theta)));
  const point = (rx: number, rz: number, l: number, u: number, theta: number): Vec3 => {
    const w = Math.sqrt(Math.max(0, 1 - ((u - L) / l) ** 2));
    return [rx * w * Math.cos(theta), yBack - u, zc + rz * w * Math.sin(theta)];
  };
  return {
    yBack,
    zc,
    uRim,
    outer: (u, theta) => point(p.rx, p.rz, L, u, theta),
    inner: (u, theta) => point(p.rx - p.shell, p.rz - p.shell, L - p.shell, u, theta),
    yHook,
    poleY: yBack + 0.08,
  };
}

const EGG_SEGMENTS = 48;

function eggRimPath(p: HangingChairParams, f: EggFrame): Vec3[] {
  const path: Vec3[] = [];
  for (let s = 0; s < EGG_SEGMENTS; s++) {
    const theta = (2 * Math.PI * s) / EGG_SEGMENTS;
    const o = f.outer(f.uRim(theta), theta);
    const i = f.inner(f.uRim(theta), theta);
    path.push([(o[0] + i[0]) / 2, (o[1] + i[1]) / 2, (o[2] + i[2]) / 2]);
  }
  return path;
}

function eggShell(p: HangingChairParams, f: EggFrame): Mesh {
  const thetas: number[] = [];
  for (let s = 0; s < EGG_SEGMENTS; s++) thetas.push((2 * Math.PI * s) / EGG_SEGMENTS);
  const rings: Vec3[][] = [[f.outer(0, 0)]];
  const n = 14;
  for (let j = 1; j <= n; j++) {
    const fr = j / n;
    rings.push(thetas.map((t) => f.outer(fr * f.uRim(t), t)));
  }
  for (let j = n; j >= 1; j--) {
    const fr = j / n;
    rings.push(thetas.map((t) => f.inner(p.shell + fr * (f.uRim(t) - p.shell), t)));
  }
  rings.push([f.inner(p.shell, 0)]);
  return orientOutward(loft(rings));
}

function eggExtents(p: HangingChairParams): { x: number; yMin: number; yMax: number } {
  const f = eggFrame(p);
  let x = p.rx;
  let yMin = Infinity;
  for (const q of eggRimPath(p, f)) {
    x = Math.max(x, Math.abs(q[0]) + EGG_RIM);
    yMin = Math.min(yMin, q[1] - EGG_RIM);
  }
  for (let s = 0; s < EGG_SEGMENTS; s++) {
    const t = (2 * Math.PI * s) / EGG_SEGMENTS;
    yMin = Math.min(yMin, f.outer(f.uRim(t), t)[1]);
  }
  return { x, yMin, yMax: f.poleY + POLE_R };
}

export const hangingChairGenerator = defineGenerator<HangingChairParams>({
  ids: ['hanging_chair'],
  sample(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): HangingChairParams {
    const fam = styleFamily(style);
    let basket = rattanOf(style, random);
    if (fam === 'industrial' || style.id === 'modern' || style.id === 'minimalist' || style.id === 'art_deco') basket = { ...basket, color: random.pick(['#2A2623', '#3A3430']) };
    else if (style.id === 'coastal' || style.id === 'scandinavian') basket = { ...basket, color: mixHex(basket.color, '#EFE8DA', 0.45) };
    const soft = softFabrics(style);
    const cushionColor = soft.length > 0 ? random.pick(soft).color : '#E9E3D6';
    const width = capped(random.uniform(0.86, 1.0), limits?.maxWidth, 0.75);
    const height = capped(random.uniform(1.9, 2.0), limits?.maxHeight, 1.75);
    const rz = random.uniform(0.5, 0.58);
    const length = random.uniform(0.36, 0.42);
    const hoodCut = random.uniform(0.3, 0.4);
    const top = height - POLE_R - (length + 0.08) / 2;
    const eggBottom = Math.max(0.22, Math.min(random.uniform(0.34, 0.42), top - 0.12 - 2 * rz));
    return {
      id,
      styleId: style.id,
      rx: round4(width / 2),
      rz: round4(rz),
      length: round4(length),
      shell: 0.028,
      sideCut: round4(random.uniform(0.0, 0.08)),
      hoodCut: round4(hoodCut),
      lipCut: round4(random.uniform(0.3, 0.38)),
      eggBottom: round4(eggBottom),
      height: round4(height),
      baseRadius: round4(random.uniform(0.42, 0.48)),
      materials: {
        basket,
        rim: { ...basket, color: mixHex(basket.color, '#2A1E12', 0.2) },
        stand: fam === 'classic' || style.id === 'luxury' ? random.pick(style.metals) : metal(random.pick(['#1E1E1E', '#2B2B2B', '#6E6A64']), 0.45),
        cushion: fabric('fabric', cushionColor, 0.92),
        back: fabric('fabric', mixHex(cushionColor, '#FFFFFF', 0.15), 0.92),
      },
    };
  },
  footprint(p: HangingChairParams): Footprint {
    const e = eggExtents(p);
    const yMin = Math.min(e.yMin, -p.baseRadius);
    const yMax = Math.max(e.yMax, p.baseRadius);
    return { width: 2 * Math.max(e.x, p.baseRadius), depth: yMax - yMin, height: p.height, placement: 'floor', elevation: 0, frontClearance: 0.6 };
  },
  build(p: HangingChairParams): PieceGeometry {
    const f = eggFrame(p);
    const parts: PiecePart[] = [];
    parts.push(part('basket', eggShell(p, f), 'basket', 'z'));
    parts.push(part('rim', closedTube(eggRimPath(p, f), EGG_RIM, [0, 1, 0], 8), 'rim', 'x'));
    // Cushions follow the inside of the shell: a seat on its floor and a round back against its back.
    const ax = p.rx - p.shell;
    const az = p.rz - p.shell;
    const ay = p.length - p.shell;
    const yCentre = f.yBack - p.length;
    const innerLow = (x: number, y: number): number => f.zc - az * Math.sqrt(Math.max(0, 1 - (x / ax) ** 2 - ((y - yCentre) / ay) ** 2));
    const seatW = ax * 1.1;
    const lipY = f.yBack - f.uRim(-Math.PI / 2);
    const seatY0 = lipY + 0.015;
    const seatY1 = yCentre + ay * 0.6;
    const seatOutline = roundedRect(seatW, seatY1 - seatY0, 0.09, 5, 0, (seatY0 + seatY1) / 2);
    const seat = deform(pillow(seatOutline, 0.09, 0.03, 0.025), ([x, y, z]) => [x, y, z + innerLow(x, y) + 0.012]);
    parts.push(part('seat-cushion', seat, 'cushion'));
    const innerBack = (x: number, z: number): number => yCentre + ay * Math.sqrt(Math.max(0, 1 - (x / ax) ** 2 - ((z - f.zc) / az) ** 2));
    const backR = ax * 0.62;
    const backZ = f.zc + az * 0.05;
    const back = deform(standUp(pillow(circlePoints(backR, 32), 0.07, 0.025, 0.03)), ([x, y, z]) => {
      const zz = z + backZ;
      return [x, y + innerBack(x, zz) - 0.012, zz];
    });
    parts.push(part('back-cushion', back, 'back'));
    // The stand: a domed base, a pole rising behind the egg and curving over into a hook, and a chain.
    const baseH = 0.05;
    parts.push(part('base', lathe([[p.baseRadius - 0.01, 0], [p.baseRadius, 0.008], [p.baseRadius * 0.9, baseH * 0.6], [p.baseRadius * 0.5, baseH], [0.06, baseH + 0.01], [0, baseH + 0.012]], 48), 'stand'));
    const rb = (f.poleY - f.yHook) / 2;
    const z1 = p.height - POLE_R - rb;
    const path: Vec3[] = [
      [0, p.baseRadius * 0.8, baseH - 0.01],
      [0, p.baseRadius * 0.8 + (f.poleY - p.baseRadius * 0.8) * 0.6, 0.55],
      [0, f.poleY, 1.0],
      [0, f.poleY, z1],
    ];
    for (let k = 1; k <= 12; k++) {
      const a = (Math.PI * k) / 12;
      path.push([0, f.yHook + rb + rb * Math.cos(a), z1 + rb * Math.sin(a)]);
    }
    path.push([0, f.yHook, z1 - 0.04]);
    parts.push(part('pole', tube(path, POLE_R, 12), 'stand'));
    const eggTop = f.zc + p.rz;
    const links: Mesh[] = [];
    const linkLen = 0.045;
    const linkCount = Math.max(1, Math.floor((z1 - 0.04 - eggTop + 0.01) / (linkLen - 0.012)));
    const link = standUp(sweepOutline(roundedRect(0.022, linkLen, 0.0109, 4), circleProfile(0, 0, 0.004, 6)));
    for (let k = 0; k < linkCount; k++) {
      const zTop = z1 - 0.04 - k * (linkLen - 0.012);
      links.push(translate(k % 2 === 0 ? link : rotate(link, 'z', Math.PI / 2), [0, f.yHook, zTop - linkLen / 2]));
    }
    links.push(translate(revolveLoop(circleProfile(0.035, eggTop + 0.004, 0.006, 6), 20), [0, f.yHook, 0]));
    parts.push(part('chain', merge(...links), 'stand'));
    return finish(parts, { ...p.materials });
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Barbecue
// ---------------------------------------------------------------------------------------------------------------

export interface BarbecueParams {
  id: string;
  styleId: string;
  kind: 'kettle' | 'gas';
  /** Kettle: bowl radius; gas: cart width, depth and side-shelf width. */
  radius: number;
  cartWidth: number;
  cartDepth: number;
  shelf: number;
  height: number;
  materials: { body: Material; frame: Material; trim: Material; handle: Material };
}

const WHEEL_R = 0.09;

/** A prism drawn in the (y, z) plane and extruded along x (a cyclic swap of axes: a rotation, so it stays outward). */
function alongX(mesh: Mesh): Mesh {
  return deform(mesh, ([a, b, c]) => [c, a, b]);
}
const WHEEL_W = 0.035;

function kettleLayout(p: BarbecueParams): { zc: number; footR: number; lidTop: number; gripZ: number } {
  const R = p.radius;
  const gripZ = p.height - 0.016;
  const lidTop = gripZ - 0.06;
  const zc = lidTop - 0.8 * R;
  return { zc, footR: R * 1.05, lidTop, gripZ };
}

export const barbecueGenerator = defineGenerator<BarbecueParams>({
  ids: ['barbecue'],
  sample(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): BarbecueParams {
    const fam = styleFamily(style);
    const gas = fam === 'sleek' || fam === 'industrial' ? random.chance(0.7) : random.chance(0.3);
    const kind: BarbecueParams['kind'] = gas && (limits?.maxWidth === undefined || limits.maxWidth >= 1.0) ? 'gas' : 'kettle';
    const enamel =
      fam === 'natural' && random.chance(0.5)
        ? random.pick(['#2F4F3A', '#3B4A5A', '#8B2E2E'])
        : style.id === 'mediterranean' || style.id === 'bohemian'
          ? random.pick(['#8B2E2E', '#1C1C1C'])
          : '#1C1C1C';
    const stainless = kind === 'gas' && fam !== 'industrial' && random.chance(0.65);
    const body: Material = stainless ? metal('#B8B8B8', 0.28, true) : { kind: 'metal', color: enamel, roughness: 0.3 };
    const radius = random.uniform(0.24, 0.29);
    const cartWidth = random.uniform(0.56, 0.7);
    const shelf = Math.max(0.12, capped(random.uniform(0.25, 0.34), limits?.maxWidth !== undefined ? (limits.maxWidth - cartWidth) / 2 : undefined, 0.12));
    return {
      id,
      styleId: style.id,
      kind,
      radius: round4(radius),
      cartWidth: round4(cartWidth),
      cartDepth: round4(random.uniform(0.5, 0.56)),
      shelf: round4(shelf),
      height: round4(kind === 'gas' ? capped(random.uniform(1.1, 1.2), limits?.maxHeight, 1.0) : capped(random.uniform(0.95, 1.05), limits?.maxHeight, 0.85)),
      materials: {
        body,
        frame: { kind: 'metal', color: '#1E1E1E', roughness: 0.5 },
        trim: metal('#B8B8B8', 0.3, true),
        handle: fam === 'natural' || fam === 'casual' || fam === 'classic' ? random.pick(style.woods) : { kind: 'plastic', color: '#1A1A1A', roughness: 0.5 },
      },
    };
  },
  footprint(p: BarbecueParams): Footprint {
    if (p.kind === 'kettle') {
      const l = kettleLayout(p);
      const R = p.radius + 0.006;
      const wheelX = l.footR * Math.cos(Math.PI / 6) + 0.03 + WHEEL_W / 2;
      return {
        width: 2 * Math.max(R, wheelX, 0.21),
        depth: Math.max(R, 0.5 * l.footR + WHEEL_R) + Math.max(R, l.footR + 0.012),
        height: p.height,
        placement: 'floor',
        elevation: 0,
        frontClearance: 0.8,
      };
    }
    return { width: p.cartWidth + 2 * p.shelf, depth: p.cartDepth + 0.046, height: p.height, placement: 'floor', elevation: 0, frontClearance: 0.8 };
  },
  build(p: BarbecueParams): PieceGeometry {
    const parts: PiecePart[] = [];
    const handleGrain = woodish(p.materials.handle) ? 'x' : undefined;
    if (p.kind === 'kettle') {
      const R = p.radius;
      const l = kettleLayout(p);
      const zc = l.zc;
      const bowlProfile: [number, number][] = [[0, zc - 0.95 * R]];
      for (let k = 1; k <= 10; k++) {
        const phi = ((Math.PI / 2) * k) / 10;
        bowlProfile.push([R * Math.sin(phi), zc - 0.95 * R * Math.cos(phi)]);
      }
      parts.push(part('bowl', lathe(bowlProfile, 40), 'body'));
      const lidProfile: [number, number][] = [[R + 0.004, zc + 0.002]];
      for (let k = 1; k <= 10; k++) {
        const phi = ((Math.PI / 2) * k) / 10;
        lidProfile.push([(R + 0.004) * Math.cos(phi), zc + 0.002 + (l.lidTop - zc - 0.002) * Math.sin(phi)]);
      }
      lidProfile[lidProfile.length - 1] = [0, l.lidTop];
      parts.push(part('lid', lathe(lidProfile, 40), 'body'));
      const trim: Mesh[] = [revolveLoop(circleProfile(R, zc, 0.006, 6), 40)];
      // Vent on the lid, the ash pan and its triangle, legs with two wheels.
      trim.push(translate(cylinder(0.05, 0.045, 0, 0.012, 20, 0.002), [0.12 * R, -0.35 * R, zc + 0.8 * R * Math.sqrt(1 - 0.1325) - 0.004]));
      const legs: Mesh[] = [];
      const footR = l.footR;
      const angles = [-Math.PI / 2, Math.PI / 6, (5 * Math.PI) / 6];
      const ashZ = 0.28;
      const legAt = (a: number, z: number, footZ: number): Vec3 => {
        const top: Vec3 = [0.55 * R * Math.cos(a), 0.55 * R * Math.sin(a), zc - 0.72 * R];
        const t = (top[2] - z) / (top[2] - footZ);
        return [top[0] + (footR * Math.cos(a) - top[0]) * t, top[1] + (footR * Math.sin(a) - top[1]) * t, z];
      };
      angles.forEach((a, i) => {
        const footZ = i === 0 ? 0 : WHEEL_R;
        const top: Vec3 = [0.55 * R * Math.cos(a), 0.55 * R * Math.sin(a), zc - 0.72 * R];
        legs.push(tube([top, [footR * Math.cos(a), footR * Math.sin(a), footZ + (i === 0 ? 0.012 : 0)]], 0.012, 10));
      });
      const ring = angles.map((a, i) => legAt(a, ashZ, i === 0 ? 0 : WHEEL_R));
      for (let i = 0; i < 3; i++) legs.push(rod(ring[i]!, ring[(i + 1) % 3]!, 0.005, 6));
      legs.push(lathe([[0, ashZ - 0.02], [0.12, ashZ - 0.015], [0.15, ashZ + 0.02], [0.145, ashZ + 0.024], [0, ashZ + 0.004]], 24));
      const wheelY = 0.5 * footR;
      const wheelX = footR * Math.cos(Math.PI / 6) + 0.03;
      legs.push(rod([-wheelX, wheelY, WHEEL_R], [wheelX, wheelY, WHEEL_R], 0.007, 8));
      const wheels: Mesh[] = [];
      for (const sx of [-1, 1]) wheels.push(rod([sx * (wheelX - WHEEL_W / 2), wheelY, WHEEL_R], [sx * (wheelX + WHEEL_W / 2), wheelY, WHEEL_R], WHEEL_R, 24));
      parts.push(part('legs', merge(...legs), 'frame'), part('wheels', merge(...wheels), 'frame'), part('trim', merge(...trim), 'trim'));
      // Lid handle: two brackets and a grip across the top.
      const grip = rod([-0.09, 0, l.gripZ], [0.09, 0, l.gripZ], 0.016, 14);
      const brackets = merge(rod([-0.07, 0, l.lidTop - 0.01], [-0.07, 0, l.gripZ], 0.006, 8), rod([0.07, 0, l.lidTop - 0.01], [0.07, 0, l.gripZ], 0.006, 8));
      parts.push(part('grip', grip, 'handle', handleGrain), part('brackets', brackets, 'trim'));
      return finish(parts, { ...p.materials });
    }
    // Gas grill: a cart on casters, a firebox with a control panel, a hooded lid and folding side shelves.
    const cw = p.cartWidth;
    const cd = p.cartDepth;
    const yf = -cd / 2;
    const cartTop = 0.8;
    const fireTop = 0.93;
    const hoodH = p.height - fireTop;
    parts.push(part('cart', roundedBoxBetween([-cw / 2 + 0.01, yf + 0.015, 0.1], [cw / 2 - 0.01, cd / 2, cartTop], 0.01, 2), 'frame'));
    const doors: Mesh[] = [];
    const handles: Mesh[] = [];
    for (const sx of [-1, 1]) {
      const xa = sx < 0 ? -cw / 2 + 0.03 : 0.004;
      const xb = sx < 0 ? -0.004 : cw / 2 - 0.03;
      doors.push(roundedBoxBetween([xa, yf, 0.14], [xb, yf + 0.02, cartTop - 0.05], 0.006, 2));
      const hx = sx < 0 ? xb - 0.04 : xa + 0.04;
      handles.push(tube([[hx, yf + 0.001, 0.45], [hx, yf - 0.025, 0.45], [hx, yf - 0.025, cartTop - 0.12], [hx, yf + 0.001, cartTop - 0.12]], 0.007, 8));
    }
    parts.push(part('doors', merge(...doors), 'body'));
    const casters: Mesh[] = [];
    for (const sx of [-1, 1]) for (const sy of [-1, 1]) casters.push(rod([sx * (cw / 2 - 0.06) - 0.015, sy * (cd / 2 - 0.07), 0.05], [sx * (cw / 2 - 0.06) + 0.015, sy * (cd / 2 - 0.07), 0.05], 0.05, 18), translate(cylinder(0.02, 0.02, 0.07, 0.105, 10), [sx * (cw / 2 - 0.06), sy * (cd / 2 - 0.07), 0]));
    parts.push(part('casters', merge(...casters), 'frame'));
    // Firebox with a sloped control panel and knobs.
    const panelSection: [number, number][] = [[yf - 0.005, cartTop], [cd / 2, cartTop], [cd / 2, fireTop], [yf + 0.06, fireTop], [yf - 0.005, cartTop + 0.02]];
    parts.push(part('firebox', orientOutward(alongX(prism(panelSection, -cw / 2, cw / 2))), 'frame'));
    const knobs: Mesh[] = [];
    const knobCount = cw > 0.62 ? 4 : 3;
    for (let k = 0; k < knobCount; k++) {
      const x = -cw / 2 + 0.08 + ((cw - 0.16) * k) / (knobCount - 1);
      knobs.push(rod([x, yf + 0.03, cartTop + 0.055], [x, yf + 0.005, cartTop + 0.045], 0.022, 16));
    }
    parts.push(part('knobs', merge(...knobs), 'trim'));
    // The hood: a half-round section across the width, end caps and a front bar handle.
    const hoodSection: [number, number][] = [];
    const hd = cd - 0.06;
    const hy0 = yf + 0.05;
    for (let k = 0; k <= 12; k++) {
      const a = (Math.PI * k) / 12;
      hoodSection.push([hy0 + hd / 2 - (hd / 2) * Math.cos(a), fireTop - 0.005 + (hoodH + 0.003) * Math.sin(a)]);
    }
    const hoodMesh = alongX(prism(hoodSection, -cw / 2 + 0.03, cw / 2 - 0.03));
    parts.push(part('hood', orientOutward(hoodMesh), 'body'));
    const capsSection = hoodSection.map(([y, z]) => [y - 0.004, z] as [number, number]);
    const caps = merge(
      ...[-1, 1].map((sx) => orientOutward(alongX(prism(capsSection.map(([y, z]) => [y, z + 0.002] as [number, number]), sx < 0 ? -cw / 2 + 0.005 : cw / 2 - 0.035, sx < 0 ? -cw / 2 + 0.035 : cw / 2 - 0.005)))),
    );
    parts.push(part('hood-caps', caps, 'frame'));
    const barZ = fireTop + hoodH * 0.35;
    handles.push(tube([[-cw / 2 + 0.08, hy0 + 0.03, barZ], [-cw / 2 + 0.08, yf - 0.035, barZ], [cw / 2 - 0.08, yf - 0.035, barZ], [cw / 2 - 0.08, hy0 + 0.03, barZ]], 0.011, 10));
    parts.push(part('handles', merge(...handles), 'trim'));
    // Side shelves on brackets.
    const shelves: Mesh[] = [];
    for (const sx of [-1, 1]) {
      const xa = sx < 0 ? -cw / 2 - p.shelf : cw / 2 - 0.01;
      const xb = sx < 0 ? -cw / 2 + 0.01 : cw / 2 + p.shelf;
      shelves.push(roundedBoxBetween([xa, yf + 0.03, fireTop - 0.03], [xb, cd / 2 - 0.03, fireTop - 0.005], 0.005, 2));
    }
    parts.push(part('shelves', merge(...shelves), p.materials.handle.kind === 'wood' ? 'handle' : 'trim', p.materials.handle.kind === 'wood' ? 'x' : undefined));
    return finish(parts, { ...p.materials });
  },
});

export const FIXTURE_GENERATORS: readonly FurnitureGenerator[] = [
  bathtubGenerator,
  freestandingBathtubGenerator,
  showerEnclosureGenerator,
  toiletGenerator,
  hangingChairGenerator,
  barbecueGenerator,
];
