import type { Random } from '../../random.js';
import { capped, defineGenerator, type FurnitureGenerator, type Footprint, type PieceGeometry, type PiecePart } from '../generator.js';
import { fabric, metal, mixHex, plain, wood, type Material } from '../materials.js';
import { bounds, cylinder, deform, merge, mirrorX, rod, rotate, roundedBoxBetween, translate, type Mesh, type Vec3 } from '../mesh.js';
import { filletedTubeLoop } from '../mesh-sweep.js';
import { clamp, clamp01, mm } from '../numbers.js';
import { cushion, legReach, plinthBase, sledBase, standingLeg, throwPillow, tuftButtons, uprightCushion, type LegSpot } from '../parts.js';
import { part } from '../piece.js';
import type { ArmKind, LegKind, StyleProfile } from '../styles.js';
import { armThrow, backCornerThrow, sampleSeatThrow, type ThrowParams } from '../throws.js';

/**
 * Upholstered and outdoor seating: sofas (two and three seats, the L-shaped corner sofa with its chaise), armchairs,
 * and the weatherproof garden sofa and armchair. The style drives the arm and leg kinds, the seat and back heights,
 * the cushion softness and sag, tufting, and every material; the seed picks among the style's options.
 *
 * Cushions, pillows and legs come from parts.ts, bent boards and tube frames from mesh-sweep.ts, the throw some
 * sofas and armchairs carry over an arm or a back corner from throws.ts. The material choices exported here (wooden
 * legs, outdoor frames and fabrics, teak) are the seating family's own, and chairs.ts shares them.
 */

// ---------------------------------------------------------------------------------------------------------------
// Helpers shared with chairs.ts
// ---------------------------------------------------------------------------------------------------------------

/** 0 below 0, 1 above 1, and an S-curve between (smoothstep). */
function smooth(t: number): number {
  const s = clamp01(t);
  return s * s * (3 - 2 * s);
}

/** Leg kinds made of wood; the others take one of the style's metals. */
export const WOODEN_LEGS: ReadonlySet<LegKind> = new Set<LegKind>(['tapered', 'splayed', 'turned', 'bun', 'cabriole', 'block']);

/** Wooden legs from the style's woods, metal ones from its metals. */
export function legMaterial(kind: LegKind, style: StyleProfile, random: Random): Material {
  return WOODEN_LEGS.has(kind) ? random.pick(style.woods) : random.pick(style.metals);
}

/** Weatherproof woven fabric in a colour of the style (outdoor cushions are solution-dyed acrylic, never velvet). */
export function outdoorFabric(material: Material): Material {
  return fabric('fabric', material.color, 0.9);
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
  /** A throw over an arm or a back corner (throws.ts), drawn from its own stream; absent without one. */
  throwBlanket?: ThrowParams;
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
  // The throw has a stream of its own: drawing it leaves every other parameter of a seed as it was.
  const throwRandom = random.fork('throw');
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
  const throwBlanket = sampleSeatThrow(style, throwRandom, { pillows, cushionedBack: backKind === 'cushions', armchair: kind === 'armchair' });

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
    ...(throwBlanket ? { throwBlanket } : {}),
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
      const box = roundedBoxBetween([ox - aw, y0, z0], [ox, y1, zTop], clamp(softness * 0.6, 0.01, aw * 0.3), 3, [1, 2, 2]);
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
      const box = roundedBoxBetween([ox - aw, y0, z0], [ox, y1, zTop], rad, 4, [1, 8, 2]);
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
  const armSolids: { left: Mesh[]; right: Mesh[] } = { left: [leftArm], right: [rightArm] };
  if (p.armCap) {
    const board = (y0: number): Mesh => roundedBoxBetween([W / 2 - aw, y0, p.armHeight - cap - 0.004], [W / 2, yb - p.backThickness * 0.5, p.armHeight], 0.004, 2);
    const leftCap = mirrorX(board(yMainFront));
    const rightCap = board(corner ? -Dt / 2 : yMainFront);
    parts.push(part('arm-caps', merge(leftCap, rightCap), 'cap', 'y'));
    armSolids.left.push(leftCap);
    armSolids.right.push(rightCap);
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
  let back = roundedBoxBetween([bx0, yFront0, LH], [bx1, yb, H], backRadius, 3, p.backKind === 'tufted' ? [p.tuftColumns * 4, 2, p.tuftRows * 5] : [2, 1, 2], );
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
    parts.push(part(`seat-cushion-${i + 1}`, cushion([x0, yMainFront + 0.004, deck], [x1, seatBack, SH], seatRadius, p.sag, p.bench ? p.seats : 1), 'upholstery'));
  });
  if (corner) {
    parts.push(part('chaise-cushion', cushion([W / 2 - Cw + gap, -Dt / 2 + 0.004, deck], [W / 2 - aw, seatBack, SH], seatRadius, p.sag * 1.3), 'upholstery'));
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
  const blanket = p.throwBlanket && sofaThrow(p.throwBlanket, parts, armSolids, { W, SH, H, aw, backFront });
  if (blanket) {
    parts.push(part('throw', blanket, 'throw', p.throwBlanket!.placement === 'arm' ? 'y' : 'x'));
    materials.throw = p.throwBlanket!.material;
  }
  const flipped = corner && p.chaiseSide < 0 ? parts.map((q) => ({ ...q, mesh: mirrorX(q.mesh) })) : parts;
  return { parts: flipped, materials };
}

/**
 * The sofa's throw (throws.ts), built for the right arm or corner on meshes mirrored to put the chosen side there,
 * and mirrored back; undefined when its place has no room for it.
 */
function sofaThrow(
  t: ThrowParams,
  parts: PiecePart[],
  arms: { left: Mesh[]; right: Mesh[] },
  s: { W: number; SH: number; H: number; aw: number; backFront: (z: number) => number },
): Mesh | undefined {
  const toRight = (m: Mesh): Mesh => (t.side < 0 ? mirrorX(m) : m);
  const isSeat = (name: string): boolean => name.startsWith('seat-cushion') || name === 'chaise-cushion';
  const seats = parts.filter((q) => isSeat(q.name)).map((q) => toRight(q.mesh));
  let mesh: Mesh | undefined;
  if (t.placement === 'arm') {
    const obstacles = parts.filter((q) => !isSeat(q.name) && !q.name.startsWith('arm-')).map((q) => toRight(q.mesh));
    const solids = (t.side < 0 ? arms.left : arms.right).map(toRight);
    mesh = armThrow(t, { solids, seats, obstacles, seatTop: s.SH, outerX: s.W / 2, maxZ: s.H });
  } else {
    // The back cushion in the corner is the one reaching furthest toward the arm.
    const cushions = parts.filter((q) => q.name.startsWith('back-cushion')).map((q) => toRight(q.mesh));
    if (cushions.length === 0) return undefined;
    const corner = cushions.reduce((a, b) => (bounds(b).max[0] > bounds(a).max[0] ? b : a));
    const obstacles = parts.filter((q) => !isSeat(q.name) && !q.name.startsWith('back') && !q.name.startsWith('arm-')).map((q) => toRight(q.mesh));
    mesh = backCornerThrow(t, {
      solids: [corner],
      seats,
      obstacles,
      seatTop: s.SH,
      armInnerX: s.W / 2 - s.aw,
      cushionX0: bounds(corner).min[0],
      backFront: s.backFront,
      maxZ: s.H,
    });
  }
  return mesh && toRight(mesh);
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
        filletedTubeLoop(
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
      filletedTubeLoop(
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
      rod([-xb, -D / 2 + 0.09, deck - rt], [xb, -D / 2 + 0.09, deck - rt], rt * 0.8),
      rod([-xb, D / 2 - 0.12, deck - rt], [xb, D / 2 - 0.12, deck - rt], rt * 0.8),
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
    parts.push(part(`seat-cushion-${i + 1}`, cushion([x0, seatFront, deck], [x0 + seatW, backAt(deck) + 0.005, SH], rad, p.sag), 'cushion'));
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
