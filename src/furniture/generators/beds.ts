import type { Random } from '../../random.js';
import { capped, defineGenerator, type FurnitureGenerator, type PieceGeometry, type PiecePart, type SizeLimits } from '../generator.js';
import { fabric, mixHex, plain, type Material } from '../materials.js';
import { bounds, cylinder, deform, ellipsoid, merge, rotate, roundedBoxBetween, translate, tube, type Mesh, type Vec3 } from '../mesh.js';
import { cushion, floorLeg, isMetalLeg, plinthBase, tuftButtons } from '../parts.js';
import { woodGrain } from '../piece.js';
import { outdoorTeak, powderCoated } from '../style-picks.js';
import type { LegKind, StyleProfile } from '../styles.js';
import { bedThrow, sampleBedThrow, type ThrowParams } from '../throws.js';

/**
 * Beds and other pieces to lie on: double and single beds (frame, headboard, mattress, a duvet draped over most of
 * it with its top edge folded back, pillows, and in some styles often a throw folded across the foot: throws.ts),
 * bunk beds, baby cots and sun loungers. The bed's foot is its front (−Y); the headboard stands at the back (+Y),
 * against the wall.
 */

// ---------------------------------------------------------------------------------------------------------------
// Soft shapes

/**
 * A pillow lying flat, centred on the origin: a rounded-square plan whose thickness fills out in the middle and
 * thins to a seam at the rim (a superellipsoid), `width` along X, `length` along Y, `thickness` along Z.
 */
function pillowShape(width: number, length: number, thickness: number): Mesh {
  const pow = (v: number, e: number): number => Math.sign(v) * Math.abs(v) ** e;
  return deform(ellipsoid([0, 0, 0], [1, 1, 1], 24), ([x, y, z]) => [(width / 2) * pow(x, 0.5), (length / 2) * pow(y, 0.5), (thickness / 2) * pow(z, 0.6)]);
}

/** Half extents (along Y and Z) of a pillow of `length` and `thickness` tilted up by `tilt` from lying flat. */
function tiltedHalf(length: number, thickness: number, tilt: number): [number, number] {
  return [(length / 2) * Math.cos(tilt) + (thickness / 2) * Math.sin(tilt), (length / 2) * Math.sin(tilt) + (thickness / 2) * Math.cos(tilt)];
}

/** A pillow leaning back toward +Y by `tilt`, its back at `backY`, resting on `restZ`. */
function placedPillow(x: number, backY: number, restZ: number, width: number, length: number, thickness: number, tilt: number): Mesh {
  const [hy, hz] = tiltedHalf(length, thickness, tilt);
  return translate(rotate(pillowShape(width, length, thickness), 'x', tilt), [x, backY - hy, restZ + hz]);
}

interface Cover {
  x0: number;
  x1: number;
  /** Foot end (−Y) and head end of the cover. */
  y0: number;
  y1: number;
  bottom: number;
  top: number;
  amp: number;
  phase: number;
}

/** How a duvet hangs: gentle rumples on top, an uneven hem, sides and foot flaring out toward the hem. */
function drape(c: Cover, flare: number): (v: Vec3) => Vec3 {
  const cx = (c.x0 + c.x1) / 2;
  const hx = (c.x1 - c.x0) / 2;
  return ([x, y, z]) => {
    const up = Math.max(0, Math.min(1, (z - c.bottom) / (c.top - c.bottom)));
    const u = (x - cx) / hx;
    const v = (y - c.y0) / (c.y1 - c.y0);
    const across = Math.min(1, u * u);
    // Filled in the middle, thinner toward the edges, with soft folds running across and along it.
    const fill = up * up * (c.top - c.bottom) * 0.12 * (1 - across);
    const rumple = c.amp * up * up * (0.5 * Math.sin(v * 9 + c.phase) + 0.3 * Math.sin(u * 6 + v * 5 + c.phase * 1.7) + 0.2 * Math.sin(u * 11 - v * 7 + c.phase * 0.6)) * (1 - 0.4 * across);
    const hem = up < 0.25 ? ((0.25 - up) / 0.25) * 0.012 * Math.sin(v * 14 + u * 3 + c.phase) : 0;
    const out = (1 - up) * flare;
    const foot = Math.max(0, 1 - Math.max(0, v)) ** 4;
    return [x + out * Math.max(-1.05, Math.min(1.05, u)) ** 3, y - out * foot, z + fill + rumple + hem];
  };
}

/** The duvet, and the band of its top edge folded back (in the sheet's colour). */
function duvetParts(c: Cover, turnDown: number): { duvet: Mesh; fold: Mesh } {
  const duvet = deform(roundedBoxBetween([c.x0, c.y0, c.bottom], [c.x1, c.y1, c.top], Math.min(0.06, (c.top - c.bottom) / 3), 3, [8, 12, 3]), drape(c, 0.012));
  const fold = deform(
    roundedBoxBetween([c.x0 - 0.005, c.y1 - turnDown, c.bottom + 0.02], [c.x1 + 0.005, c.y1 + 0.012, c.top + 0.014], 0.012, 2, [8, 2, 3]),
    drape(c, 0.012),
  );
  return { duvet, fold };
}

const SHEETS = ['#F6F4EF', '#FFFFFF', '#EFEAE0', '#F2F0EA'];

function linen(color: string): Material {
  return fabric('fabric', color, 0.93);
}

interface Bedding {
  sheet: Material;
  duvet: Material;
  accentA: Material;
  accentB: Material;
}

function sampleBedding(style: StyleProfile, random: Random): Bedding {
  const sheet = linen(random.pick(SHEETS));
  const tone = random.weighted<'accent' | 'upholstery' | 'white'>([['accent', 0.5], ['upholstery', 0.3], ['white', 0.2]]);
  const duvetColor =
    tone === 'accent' ? mixHex(random.pick(style.accents).color, '#FFFFFF', random.uniform(0.35, 0.8)) : tone === 'upholstery' ? mixHex(random.pick(style.upholstery).color, '#FFFFFF', random.uniform(0.2, 0.6)) : sheet.color;
  const a = random.pick(style.accents);
  const others = style.accents.filter((m) => m.color !== a.color);
  const b = others.length > 0 ? random.pick(others) : a;
  return { sheet, duvet: linen(duvetColor), accentA: a, accentB: b };
}

// ---------------------------------------------------------------------------------------------------------------
// Double and single beds

type Headboard = 'plain' | 'channel' | 'tufted' | 'slatted' | 'panel' | 'low';

export interface BedParams {
  id: string;
  styleId: string;
  width: number;
  depth: number;
  /** Top of the headboard. */
  height: number;
  mattressWidth: number;
  mattressLength: number;
  mattressThickness: number;
  frame: 'upholstered' | 'wood' | 'platform';
  headboard: Headboard;
  headboardThickness: number;
  /** Frame beyond the mattress at each side and at the foot (the platform's overhang). */
  side: number;
  foot: number;
  /** Top of the side rails or upholstered base (for a platform: its upper face). */
  railTop: number;
  railHeight: number;
  mattressBottom: number;
  leg: LegKind;
  legHeight: number;
  legThickness: number;
  post: 'block' | 'turned';
  /** Top of a footboard, 0 without. */
  footboard: number;
  /** Radius of upholstered edges; `edge` for wood. */
  softness: number;
  edge: number;
  slatPitch: number;
  raisedPanel: boolean;
  duvet: { drop: number; puff: number; turnDown: number; headGap: number; amp: number; phase: number };
  pillows: { sleeping: number; width: number; length: number; thickness: number; tilt: number; decorative: number; decoSize: number; decoThickness: number; decoTilt: number };
  materials: { frame: Material; upholstery: Material; legs: Material; sheet: Material; duvet: Material; accentA: Material; accentB: Material };
  /** A throw folded across the foot of the duvet (throws.ts), drawn from its own stream; absent without one. */
  throwBlanket?: ThrowParams;
}

/** Headboards each style makes, with weights. */
const HEADBOARDS: Record<string, readonly (readonly [Headboard, number])[]> = {
  modern: [['plain', 0.45], ['channel', 0.35], ['low', 0.2]],
  contemporary: [['plain', 0.45], ['channel', 0.45], ['panel', 0.1]],
  scandinavian: [['slatted', 0.5], ['panel', 0.3], ['plain', 0.2]],
  minimalist: [['low', 0.65], ['plain', 0.35]],
  industrial: [['tufted', 0.7], ['panel', 0.3]],
  japandi: [['low', 0.7], ['slatted', 0.3]],
  mid_century_modern: [['tufted', 0.7], ['panel', 0.3]],
  bohemian: [['slatted', 0.4], ['plain', 0.3], ['panel', 0.3]],
  farmhouse: [['panel', 0.6], ['plain', 0.4]],
  coastal: [['panel', 0.4], ['slatted', 0.3], ['plain', 0.3]],
  traditional: [['tufted', 0.75], ['panel', 0.25]],
  luxury: [['tufted', 0.75], ['channel', 0.25]],
  art_deco: [['tufted', 0.7], ['channel', 0.3]],
  rustic: [['panel', 0.55], ['slatted', 0.45]],
  mediterranean: [['panel', 0.4], ['plain', 0.4], ['slatted', 0.2]],
  parisian: [['tufted', 0.75], ['panel', 0.25]],
};

const MATTRESS_WIDTHS: Record<string, readonly (readonly [number, number])[]> = {
  luxury: [[1.8, 0.5], [1.6, 0.4], [1.4, 0.1]],
  contemporary: [[1.8, 0.45], [1.6, 0.4], [1.4, 0.15]],
  modern: [[1.8, 0.4], [1.6, 0.45], [1.4, 0.15]],
  art_deco: [[1.8, 0.4], [1.6, 0.45], [1.4, 0.15]],
};
const DEFAULT_WIDTHS: readonly (readonly [number, number])[] = [[1.6, 0.5], [1.4, 0.3], [1.8, 0.2]];

const TURNED = new Set(['traditional', 'farmhouse', 'parisian', 'coastal', 'mediterranean', 'bohemian']);

/** Inset of a bed leg from the frame's corner so a leaning or bowed leg stays under it. */
function cornerInset(kind: LegKind, thickness: number): number {
  if (kind === 'splayed') return thickness / 2 + 0.035;
  if (kind === 'cabriole') return thickness * 0.8 + 0.01;
  if (kind === 'hairpin') return 0.05;
  return thickness / 2 + 0.004;
}

function sampleBed(id: string, style: StyleProfile, random: Random, limits: SizeLimits | undefined): BedParams {
  const single = id === 'single_bed';
  // The throw has a stream of its own: drawing it leaves every other parameter of a seed as it was.
  const throwBlanket = sampleBedThrow(style, random.fork('throw'));
  const headboard = random.weighted<Headboard>(HEADBOARDS[style.id] ?? [['plain', 0.5], ['panel', 0.5]]);
  const frame: BedParams['frame'] = headboard === 'low' ? 'platform' : headboard === 'slatted' || headboard === 'panel' ? 'wood' : 'upholstered';

  // Frame beyond the mattress.
  const headboardThickness = frame === 'upholstered' ? random.uniform(0.08, 0.14) : frame === 'wood' ? random.uniform(0.05, 0.075) : random.uniform(0.035, 0.06);
  const side = frame === 'upholstered' ? random.uniform(0.05, 0.1) : frame === 'wood' ? random.uniform(0.035, 0.05) : random.uniform(0.08, 0.16);
  const foot = frame === 'platform' ? side * random.uniform(0.8, 1.2) : side;

  // Mattress: 90 × 190/200 single, 140/160/180 × 200 double, the largest the limits allow.
  let mattressWidth = 0.9;
  let mattressLength = 2.0;
  if (single) {
    mattressLength = random.chance(0.5) ? 1.9 : 2.0;
    if (limits?.maxDepth !== undefined && mattressLength + foot + headboardThickness + 0.02 > limits.maxDepth) mattressLength = 1.9;
  } else {
    mattressWidth = random.weighted(MATTRESS_WIDTHS[style.id] ?? DEFAULT_WIDTHS);
    const maxWidth = limits?.maxWidth;
    if (maxWidth !== undefined) mattressWidth = [1.8, 1.6, 1.4].find((w) => w <= mattressWidth && w + 2 * side <= maxWidth) ?? 1.4;
  }
  const mattressThickness = random.uniform(0.2, 0.26);
  const width = mattressWidth + 2 * side;
  const depth = headboardThickness + 0.02 + mattressLength + foot;

  // Heights.
  let leg = random.pick(style.legs);
  if (leg === 'sled') leg = 'metal-square';
  let legHeight = Math.max(0.04, Math.min(0.16, random.uniform(style.legHeight[0], style.legHeight[1])));
  let legThickness = random.uniform(0.05, 0.07);
  if (leg === 'metal-square') legThickness = random.uniform(0.08, 0.11);
  if (leg === 'bun') legThickness = random.uniform(0.08, 0.1);
  if (leg === 'hairpin') legHeight = Math.max(legHeight, 0.12);
  let railHeight = 0;
  let railTop: number;
  let mattressBottom: number;
  if (frame === 'upholstered') {
    railTop = legHeight + random.uniform(0.2, 0.3);
    mattressBottom = railTop - random.uniform(0.05, 0.09);
  } else if (frame === 'wood') {
    railHeight = random.uniform(0.14, 0.2);
    legHeight = Math.max(legHeight, 0.1);
    railTop = legHeight + railHeight;
    mattressBottom = railTop - railHeight * random.uniform(0.4, 0.55);
  } else {
    legHeight = random.uniform(0.07, 0.12);
    railHeight = random.uniform(0.04, 0.07);
    railTop = legHeight + railHeight;
    mattressBottom = railTop;
    leg = 'plinth';
  }
  const mattressTop = mattressBottom + mattressThickness;
  const nominal = single ? 0.9 : 1.0;
  let height: number;
  if (frame === 'platform') height = mattressTop + random.uniform(0.28, 0.42);
  else if (headboard === 'tufted' || headboard === 'channel') height = nominal + random.uniform(0.05, style.id === 'luxury' || style.id === 'art_deco' ? 0.4 : 0.25);
  else height = nominal + random.uniform(-0.08, 0.15);
  height = capped(height, limits?.maxHeight, mattressTop + 0.25);

  // Bedding.
  const turnDown = random.uniform(0.22, 0.32);
  const pillowsSleeping = single ? 1 : 2;
  const pillowWidth = Math.min(random.uniform(0.6, 0.72), mattressWidth / pillowsSleeping - 0.03);
  const pillowLength = random.uniform(0.42, 0.52);
  const pillowThickness = random.uniform(0.13, 0.18);
  let decorative = single ? random.int(0, 1) : random.int(0, 2);
  if (style.id === 'minimalist' || style.id === 'japandi') decorative = Math.min(decorative, 1);
  const decoSize = random.uniform(0.4, 0.5);
  const decoThickness = random.uniform(0.12, 0.16);
  // Lean the pillows back, less where the headboard is low, so they stay under its top.
  const sink = 0.015;
  let tilt = random.uniform(0.3, 0.6);
  while (tilt > 0.05 && mattressTop - sink + 2 * tiltedHalf(pillowLength, pillowThickness, tilt)[1] > height - 0.03) tilt -= 0.05;
  let decoTilt = random.uniform(0.9, 1.25);
  while (decoTilt > 0.05 && mattressTop - 0.01 + 2 * tiltedHalf(decoSize, decoThickness, decoTilt)[1] > height - 0.03) decoTilt -= 0.05;
  const [sleepHalfY] = tiltedHalf(pillowLength, pillowThickness, tilt);

  const bedding = sampleBedding(style, random);
  const woodMaterial = random.chance(frame === 'wood' ? 0.45 : 0.25) ? random.pick(style.cases) : random.pick(style.woods);
  const upholstery = random.pick(style.upholstery);
  const legMaterial = isMetalLeg(leg) ? random.pick(style.metals) : frame === 'upholstered' ? random.pick(style.woods) : woodMaterial;
  const footboardChance = frame === 'wood' && (style.id === 'traditional' || style.id === 'farmhouse' || style.id === 'rustic' || style.id === 'parisian' || style.id === 'coastal') ? 0.5 : 0;

  return {
    id,
    styleId: style.id,
    width,
    depth,
    height,
    mattressWidth,
    mattressLength,
    mattressThickness,
    frame,
    headboard,
    headboardThickness,
    side,
    foot,
    railTop,
    railHeight,
    mattressBottom,
    leg,
    legHeight,
    legThickness,
    post: frame === 'wood' && TURNED.has(style.id) && random.chance(0.6) ? 'turned' : 'block',
    footboard: random.chance(footboardChance) ? Math.min(height - 0.15, mattressTop + random.uniform(0.05, 0.2)) : 0,
    softness: Math.min(style.softness, headboardThickness * 0.4),
    edge: Math.max(0.003, style.edge),
    slatPitch: random.uniform(0.08, 0.12),
    raisedPanel: style.id === 'traditional' || style.id === 'farmhouse' || style.id === 'parisian' || style.id === 'rustic' || random.chance(0.2),
    duvet: {
      drop: random.uniform(0.14, 0.28),
      puff: random.uniform(0.035, 0.06),
      turnDown,
      headGap: 2 * sleepHalfY + random.uniform(0.0, 0.18),
      amp: random.uniform(0.012, 0.022),
      phase: random.uniform(0, Math.PI * 2),
    },
    pillows: { sleeping: pillowsSleeping, width: pillowWidth, length: pillowLength, thickness: pillowThickness, tilt, decorative, decoSize, decoThickness, decoTilt },
    materials: { frame: woodMaterial, upholstery, legs: legMaterial, sheet: bedding.sheet, duvet: bedding.duvet, accentA: bedding.accentA, accentB: bedding.accentB },
    ...(throwBlanket ? { throwBlanket } : {}),
  };
}

/** Mattress, duvet with its folded edge, and pillows for a mattress at (x0..x1, y0..y1, bottom..top); head at y1. */
function beddingParts(
  x0: number,
  x1: number,
  y0: number,
  y1: number,
  bottom: number,
  top: number,
  hemLimit: number,
  headY: number,
  duvet: BedParams['duvet'],
  pillows: BedParams['pillows'],
  prefix = '',
): PiecePart[] {
  const mw = x1 - x0;
  const cx = (x0 + x1) / 2;
  const parts: PiecePart[] = [];
  parts.push({ name: `${prefix}mattress`, mesh: roundedBoxBetween([x0, y0, bottom], [x1, y1, top], Math.min(0.05, (top - bottom) * 0.3), 4), material: 'sheet' });
  const cover: Cover = {
    x0: x0 - 0.02,
    x1: x1 + 0.02,
    y0: y0 - 0.02,
    y1: y1 - duvet.headGap,
    bottom: Math.max(hemLimit + 0.012, top - duvet.drop),
    top: top + duvet.puff,
    amp: duvet.amp,
    phase: duvet.phase,
  };
  const { duvet: duvetMesh, fold } = duvetParts(cover, duvet.turnDown);
  parts.push({ name: `${prefix}duvet`, mesh: duvetMesh, material: 'duvet', grain: 'y' });
  parts.push({ name: `${prefix}duvet-fold`, mesh: fold, material: 'sheet', grain: 'x' });
  const sleeping: Mesh[] = [];
  for (let i = 0; i < pillows.sleeping; i++) {
    const x = pillows.sleeping === 1 ? cx : cx + (i === 0 ? -1 : 1) * (mw / 4);
    sleeping.push(placedPillow(x, headY - 0.012, top - 0.015, pillows.width, pillows.length, pillows.thickness, pillows.tilt));
  }
  parts.push({ name: `${prefix}pillows`, mesh: merge(...sleeping), material: 'sheet' });
  if (pillows.decorative > 0) {
    const [hy] = tiltedHalf(pillows.length, pillows.thickness, pillows.tilt);
    const front = headY - 0.012 - 2 * hy + 0.05;
    for (let i = 0; i < pillows.decorative; i++) {
      const x = pillows.decorative === 1 ? cx : cx + (i === 0 ? -1 : 1) * Math.min(mw / 4, pillows.decoSize * 0.55);
      parts.push({ name: `${prefix}cushion-${i + 1}`, mesh: placedPillow(x, front, top - 0.01, pillows.decoSize, pillows.decoSize, pillows.decoThickness, pillows.decoTilt), material: i === 0 ? 'accentA' : 'accentB' });
    }
  }
  return parts;
}

function buildBed(p: BedParams): PieceGeometry {
  const parts: PiecePart[] = [];
  const W = p.width;
  const D = p.depth;
  const hbFront = D / 2 - p.headboardThickness;
  const mattressHead = hbFront - 0.01;
  const mattressFoot = mattressHead - p.mattressLength;
  const top = p.mattressBottom + p.mattressThickness;
  const m = p.materials;
  const used = new Set<keyof BedParams['materials']>(['sheet', 'duvet']);

  if (p.frame === 'upholstered') {
    const baseBottom = p.legHeight;
    if (p.leg === 'plinth') {
      parts.push({ name: 'plinth', mesh: plinthBase(W, D, baseBottom + 0.005, 0.06), material: 'legs', ...woodGrain(m.legs, 'x') });
    } else {
      const inset = cornerInset(p.leg, p.legThickness);
      const spots = [-1, 1].flatMap((sx) => [-1, 1].map((sy) => ({ x: sx * (W / 2 - inset), y: sy * (D / 2 - inset), outward: [sx * Math.SQRT1_2, sy * Math.SQRT1_2] as [number, number] })));
      parts.push({ name: 'legs', mesh: merge(...spots.map((s) => floorLeg(p.leg, s, baseBottom + 0.005, p.legThickness))), material: 'legs', ...woodGrain(m.legs, 'z') });
    }
    used.add('legs');
    parts.push({ name: 'base', mesh: roundedBoxBetween([-W / 2, -D / 2, baseBottom], [W / 2, hbFront + 0.005, p.railTop], Math.min(p.softness * 0.8, 0.04), 3), material: 'upholstery' });
    const hb0: Vec3 = [-W / 2, hbFront, baseBottom];
    const hb1: Vec3 = [W / 2, D / 2, p.height];
    if (p.headboard === 'channel') {
      const count = Math.max(4, Math.round(W / 0.2));
      const cw = W / count;
      const channels: Mesh[] = [];
      for (let i = 0; i < count; i++) {
        const x0 = -W / 2 + i * cw + cw * 0.02;
        const x1 = x0 + cw * 0.96;
        channels.push(cushion([x0, hbFront, baseBottom], [x1, D / 2 - 0.003, p.height], Math.min(cw * 0.3, p.headboardThickness * 0.45, 0.05), 0));
      }
      parts.push({ name: 'headboard', mesh: merge(...channels), material: 'upholstery', grain: 'z' });
    } else {
      if (p.headboard === 'tufted') {
        // Buttons pulled into the padding: each sits in a dimple of the headboard's face.
        const z0 = top + 0.08;
        const z1 = p.height - 0.06;
        const x0 = -W / 2 + 0.08;
        const x1 = W / 2 - 0.08;
        const cols = Math.max(3, Math.round((x1 - x0) / 0.17));
        const rows = Math.max(2, Math.round((z1 - z0) / 0.15));
        const dents: [number, number][] = [];
        for (let i = 0; i < cols; i++) {
          for (let j = 0; j < rows; j++) dents.push([x0 + ((x1 - x0) * (i + 0.5 + (j % 2) * 0.5 - 0.25)) / cols, z0 + ((z1 - z0) * (j + 0.5)) / rows]);
        }
        const depth = 0.012;
        const face = p.headboardThickness * 0.5;
        const panel = deform(roundedBoxBetween(hb0, hb1, Math.max(0.01, p.softness), 3, [cols * 3, 1, rows * 3 + 3]), ([x, y, z]) => {
          const front = Math.max(0, 1 - (y - hbFront) / face);
          let pull = 0;
          for (const [dx, dz] of dents) pull = Math.max(pull, Math.exp(-((x - dx) ** 2 + (z - dz) ** 2) / 0.0012));
          return [x, y + front * depth * pull, z];
        });
        parts.push({ name: 'headboard', mesh: panel, material: 'upholstery' });
        parts.push({ name: 'tufting', mesh: tuftButtons(x0, x1, z0, z1, hbFront + depth * 0.7, cols, rows), material: 'upholstery' });
      } else {
        parts.push({ name: 'headboard', mesh: roundedBoxBetween(hb0, hb1, Math.max(0.01, p.softness), 4), material: 'upholstery' });
      }
    }
    used.add('upholstery');
  } else if (p.frame === 'wood') {
    const ps = p.headboardThickness;
    // Head posts, rails, foot legs (or foot posts under a footboard).
    const post = (x: number, y: number, h: number): Mesh =>
      p.post === 'turned' ? floorLeg('turned', { x, y }, h, ps * 1.1) : roundedBoxBetween([x - ps / 2, y - ps / 2, 0], [x + ps / 2, y + ps / 2, h], Math.max(0.004, p.edge), 2);
    const headPosts = [post(-W / 2 + ps / 2, D / 2 - ps / 2, p.height), post(W / 2 - ps / 2, D / 2 - ps / 2, p.height)];
    parts.push({ name: 'posts', mesh: merge(...headPosts, ...(p.footboard > 0 ? [post(-W / 2 + ps / 2, -D / 2 + ps / 2, p.footboard), post(W / 2 - ps / 2, -D / 2 + ps / 2, p.footboard)] : [])), material: 'frame', ...woodGrain(m.frame, 'z') });
    const rail0 = p.railTop - p.railHeight;
    const rt = p.side;
    parts.push({
      name: 'side-rails',
      mesh: merge(roundedBoxBetween([-W / 2, -D / 2, rail0], [-W / 2 + rt, hbFront + 0.005, p.railTop], p.edge, 2), roundedBoxBetween([W / 2 - rt, -D / 2, rail0], [W / 2, hbFront + 0.005, p.railTop], p.edge, 2)),
      material: 'frame',
      ...woodGrain(m.frame, 'y'),
    });
    parts.push({ name: 'foot-rail', mesh: roundedBoxBetween([-W / 2 + rt - 0.002, -D / 2, rail0], [W / 2 - rt + 0.002, -D / 2 + p.foot, p.railTop], p.edge, 2), material: 'frame', ...woodGrain(m.frame, 'x') });
    if (p.footboard === 0) {
      const inset = cornerInset(p.leg, p.legThickness);
      const spots = [-1, 1].map((sx) => ({ x: sx * (W / 2 - inset), y: -D / 2 + inset, outward: [sx * Math.SQRT1_2, -Math.SQRT1_2] as [number, number] }));
      parts.push({ name: 'legs', mesh: merge(...spots.map((s) => floorLeg(p.leg, s, rail0 + 0.005, p.legThickness))), material: 'legs', ...woodGrain(m.legs, 'z') });
      used.add('legs');
    } else {
      const fy = -D / 2 + ps / 2;
      parts.push({
        name: 'footboard',
        mesh: merge(roundedBoxBetween([-W / 2 + ps - 0.003, fy - 0.012, rail0], [W / 2 - ps + 0.003, fy + 0.012, p.footboard - 0.05], 0.004, 2), roundedBoxBetween([-W / 2 + ps - 0.003, fy - ps * 0.35, p.footboard - 0.06], [W / 2 - ps + 0.003, fy + ps * 0.35, p.footboard - 0.01], 0.006, 2)),
        material: 'frame',
        ...woodGrain(m.frame, 'x'),
      });
    }
    // Between the head posts: a cap rail, and slats or a panel.
    const hy = D / 2 - ps / 2;
    const inner = W / 2 - ps + 0.003;
    const capTop = p.height - 0.01;
    const cap0 = p.height - 0.07;
    parts.push({ name: 'headboard-rails', mesh: merge(roundedBoxBetween([-inner, hy - ps * 0.4, cap0], [inner, hy + ps * 0.4, capTop], 0.006, 2), roundedBoxBetween([-inner, hy - 0.015, rail0], [inner, hy + 0.015, p.railTop], 0.004, 2)), material: 'frame', ...woodGrain(m.frame, 'x') });
    if (p.headboard === 'slatted') {
      const span = 2 * inner - 0.006;
      const count = Math.max(4, Math.round(span / p.slatPitch));
      const sw = Math.min(0.06, (span / count) * 0.55);
      const slats: Mesh[] = [];
      for (let i = 0; i < count; i++) {
        const x = -span / 2 + ((i + 0.5) * span) / count;
        slats.push(roundedBoxBetween([x - sw / 2, hy - 0.01, p.railTop - 0.005], [x + sw / 2, hy + 0.01, cap0 + 0.005], 0.003, 2));
      }
      parts.push({ name: 'headboard-slats', mesh: merge(...slats), material: 'frame', ...woodGrain(m.frame, 'z') });
    } else {
      const panel: Mesh[] = [roundedBoxBetween([-inner, hy - 0.011, p.railTop - 0.005], [inner, hy + 0.011, cap0 + 0.005], 0.003, 2)];
      if (p.raisedPanel && inner > 0.25) {
        const fz0 = Math.max(p.railTop + 0.06, top + 0.04);
        const fz1 = cap0 - 0.07;
        if (fz1 - fz0 > 0.12) panel.push(roundedBoxBetween([-inner + 0.07, hy - 0.024, fz0], [inner - 0.07, hy, fz1], 0.008, 2));
      }
      parts.push({ name: 'headboard-panel', mesh: merge(...panel), material: 'frame', ...woodGrain(m.frame, 'x') });
    }
  } else {
    // Platform on a recessed plinth, a low headboard behind it.
    parts.push({ name: 'plinth', mesh: translate(plinthBase(W, D - p.headboardThickness, p.legHeight + 0.003, Math.min(0.12, p.side + 0.05)), [0, -p.headboardThickness / 2, 0]), material: 'frame', ...woodGrain(m.frame, 'x') });
    parts.push({ name: 'platform', mesh: roundedBoxBetween([-W / 2, -D / 2, p.legHeight], [W / 2, hbFront + 0.003, p.railTop], Math.max(0.004, p.edge * 1.5), 3), material: 'frame', ...woodGrain(m.frame, 'x') });
    parts.push({ name: 'headboard', mesh: roundedBoxBetween([-W / 2, hbFront, 0], [W / 2, D / 2, p.height], Math.max(0.004, p.edge * 1.5), 3), material: 'frame', ...woodGrain(m.frame, 'x') });
  }
  if (p.frame !== 'upholstered') used.add('frame');

  parts.push(...beddingParts(-p.mattressWidth / 2, p.mattressWidth / 2, mattressFoot, mattressHead, p.mattressBottom, top, p.railTop, hbFront, p.duvet, p.pillows));
  if (p.pillows.decorative > 0) used.add('accentA');
  if (p.pillows.decorative > 1) used.add('accentB');
  const materials: Record<string, Material> = {};
  for (const key of used) materials[key] = m[key];
  if (p.throwBlanket) {
    const duvet = parts.find((q) => q.name === 'duvet')!.mesh;
    const mattress = parts.find((q) => q.name === 'mattress')!.mesh;
    // Its ends stay above the duvet's hem and the frame.
    const hem = Math.max(p.railTop + 0.012, top - p.duvet.drop);
    const band = bedThrow(p.throwBlanket, { solids: [duvet, mattress], seats: [duvet], obstacles: [], footY: bounds(duvet).min[1], top, lowest: Math.max(hem, p.railTop) + 0.03, halfWidth: W / 2 });
    if (band) {
      parts.push({ name: 'throw', mesh: band, material: 'throw', grain: 'x' });
      materials.throw = p.throwBlanket.material;
    }
  }
  return { parts, materials };
}

const bedGenerator = defineGenerator<BedParams>({
  ids: ['double_bed', 'single_bed'],
  sample: sampleBed,
  footprint: (p) => ({ width: p.width, depth: p.depth, height: p.height, placement: 'against-wall', elevation: 0, frontClearance: 0.6 }),
  build: buildBed,
});

// ---------------------------------------------------------------------------------------------------------------
// Bunk bed

export interface BunkParams {
  id: string;
  styleId: string;
  width: number;
  depth: number;
  height: number;
  mattressLength: number;
  mattressThickness: number;
  frame: 'wood' | 'metal';
  post: number;
  railHeight: number;
  lowerDeck: number;
  upperDeck: number;
  ladderSide: -1 | 1;
  ladderWidth: number;
  edge: number;
  duvets: [BedParams['duvet'], BedParams['duvet']];
  pillows: BedParams['pillows'];
  materials: { frame: Material; sheet: Material; duvet: Material; accentA: Material; accentB: Material };
}

const MATTRESS_SINGLE = 0.9;

function sampleBunk(id: string, style: StyleProfile, random: Random, limits: SizeLimits | undefined): BunkParams {
  const frame: BunkParams['frame'] = isMetalLeg(random.pick(style.legs)) ? 'metal' : 'wood';
  const post = frame === 'wood' ? random.uniform(0.06, 0.08) : random.uniform(0.038, 0.05);
  const mattressLength = limits?.maxDepth !== undefined && limits.maxDepth < 2.1 ? 1.9 : random.chance(0.5) ? 1.9 : 2.0;
  const mattressThickness = random.uniform(0.12, 0.16);
  const rail = frame === 'wood' ? Math.min(post * 0.6, 0.03) : post;
  const width = MATTRESS_SINGLE + post + rail + 0.012;
  const depth = mattressLength + post + rail + 0.012;
  const height = capped(random.uniform(1.55, 1.75), limits?.maxHeight, 1.45);
  const guard = random.uniform(0.3, 0.36);
  const upperDeck = height - guard;
  const lowerDeck = random.uniform(0.26, 0.34);
  const bedding = sampleBedding(style, random);
  const duvet = (): BedParams['duvet'] => ({ drop: random.uniform(0.1, 0.16), puff: random.uniform(0.03, 0.05), turnDown: random.uniform(0.2, 0.28), headGap: 0.42, amp: random.uniform(0.01, 0.018), phase: random.uniform(0, Math.PI * 2) });
  const frameMaterial = frame === 'metal' ? random.pick(style.metals) : random.chance(0.5) ? random.pick(style.cases) : random.pick(style.woods);
  return {
    id,
    styleId: style.id,
    width,
    depth,
    height,
    mattressLength,
    mattressThickness,
    frame,
    post,
    railHeight: random.uniform(0.1, 0.14),
    lowerDeck,
    upperDeck,
    ladderSide: random.chance(0.5) ? -1 : 1,
    ladderWidth: random.uniform(0.3, 0.36),
    edge: Math.max(0.003, style.edge),
    duvets: [duvet(), duvet()],
    pillows: { sleeping: 1, width: random.uniform(0.5, 0.6), length: random.uniform(0.36, 0.42), thickness: random.uniform(0.1, 0.13), tilt: random.uniform(0.15, 0.3), decorative: 0, decoSize: 0.4, decoThickness: 0.12, decoTilt: 1 },
    materials: { frame: frameMaterial, sheet: bedding.sheet, duvet: bedding.duvet, accentA: bedding.accentA, accentB: bedding.accentB },
  };
}

function buildBunk(p: BunkParams): PieceGeometry {
  const W = p.width;
  const D = p.depth;
  const ps = p.post;
  const metalFrame = p.frame === 'metal';
  const r = ps / 2;
  const px = W / 2 - r;
  const py = D / 2 - r;
  const frameParts: Mesh[] = [];
  const railsX: Mesh[] = [];
  const railsY: Mesh[] = [];
  const posts: Mesh[] = [];
  // A rail between two points at the same height: a board (wood) or a tube (metal).
  const bar = (a: Vec3, b: Vec3, h: number, t: number): Mesh => {
    if (metalFrame) return tube([a, b], Math.min(t, h) * 0.5, 10);
    const min: Vec3 = [Math.min(a[0], b[0]) - (a[0] === b[0] ? t / 2 : 0), Math.min(a[1], b[1]) - (a[1] === b[1] ? t / 2 : 0), a[2] - h / 2];
    const max: Vec3 = [Math.max(a[0], b[0]) + (a[0] === b[0] ? t / 2 : 0), Math.max(a[1], b[1]) + (a[1] === b[1] ? t / 2 : 0), a[2] + h / 2];
    return roundedBoxBetween(min, max, Math.min(p.edge, t / 3), 1);
  };
  for (const sx of [-1, 1]) {
    for (const sy of [-1, 1]) {
      posts.push(metalFrame ? cylinder(r, r, 0, p.height, 14, 0.004) : roundedBoxBetween([-r, -r, 0], [r, r, p.height], Math.max(0.004, p.edge), 2));
      posts[posts.length - 1] = translate(posts[posts.length - 1]!, [sx * px, sy * py, 0]);
    }
  }
  const railT = metalFrame ? ps * 0.8 : Math.min(ps * 0.6, 0.03);
  const railH = metalFrame ? ps * 0.8 : p.railHeight;
  for (const deck of [p.lowerDeck, p.upperDeck]) {
    const z = deck - railH / 2;
    for (const sx of [-1, 1]) railsY.push(bar([sx * px, -py, z], [sx * px, py, z], railH, railT));
    for (const sy of [-1, 1]) railsX.push(bar([-px, sy * py, z], [px, sy * py, z], railH, railT));
  }
  // Head end: a board low down and a guard up top. Foot end: low board, and a guard beside the ladder opening.
  const panel = (y: number, x0: number, x1: number, z0: number, z1: number): Mesh => {
    if (!metalFrame) return roundedBoxBetween([x0, y - 0.011, z0], [x1, y + 0.011, z1], 0.004, 2);
    const bars: Mesh[] = [];
    const n = Math.max(2, Math.round((z1 - z0) / 0.1));
    for (let i = 0; i < n; i++) {
      const z = z0 + ((z1 - z0) * (i + 0.5)) / n;
      bars.push(tube([[x0, y, z], [x1, y, z]], 0.011, 8));
    }
    return merge(...bars);
  };
  const ladderInner = p.ladderSide * (px - r - p.ladderWidth);
  const guardX0 = p.ladderSide > 0 ? -px + r - 0.003 : ladderInner;
  const guardX1 = p.ladderSide > 0 ? ladderInner : px - r + 0.003;
  frameParts.push(
    panel(py, -px + r - 0.003, px - r + 0.003, p.lowerDeck - 0.005, p.lowerDeck + 0.3),
    panel(py, -px + r - 0.003, px - r + 0.003, p.upperDeck - 0.005, p.height - 0.03),
    panel(-py, -px + r - 0.003, px - r + 0.003, p.lowerDeck - 0.005, p.lowerDeck + 0.18),
    panel(-py, guardX0, guardX1, p.upperDeck - 0.005, p.height - 0.03),
  );
  // Guard rails along both long sides of the top bunk.
  const guards: Mesh[] = [];
  for (const sx of [-1, 1]) {
    for (const z of [p.upperDeck + (p.height - p.upperDeck) * 0.5, p.height - 0.04]) guards.push(bar([sx * px, -py, z], [sx * px, py, z], metalFrame ? 0.025 : 0.05, metalFrame ? 0.025 : 0.028));
  }
  // Ladder against the foot end.
  const ly = -D / 2 + 0.02;
  const lx0 = p.ladderSide * (px - r - 0.02);
  const lx1 = ladderInner + p.ladderSide * 0.02;
  const ladderTop = p.upperDeck + 0.24;
  const ladder: Mesh[] = [];
  for (const x of [lx0, lx1]) ladder.push(metalFrame ? translate(cylinder(0.016, 0.016, 0, ladderTop, 12, 0.003), [x, ly, 0]) : roundedBoxBetween([x - 0.02, ly - 0.02, 0], [x + 0.02, ly + 0.02, ladderTop], 0.004, 2));
  const rungs = Math.max(3, Math.floor((p.upperDeck - 0.15) / 0.27));
  for (let i = 1; i <= rungs; i++) {
    const z = (p.upperDeck * i) / (rungs + 1) + 0.02;
    ladder.push(tube([[Math.min(lx0, lx1), ly, z], [Math.max(lx0, lx1), ly, z]], 0.015, 10));
  }
  const parts: PiecePart[] = [
    { name: 'posts', mesh: merge(...posts), material: 'frame', ...woodGrain(p.materials.frame, 'z') },
    { name: 'side-rails', mesh: merge(...railsY, ...guards), material: 'frame', ...woodGrain(p.materials.frame, 'y') },
    { name: 'end-rails', mesh: merge(...railsX, ...frameParts), material: 'frame', ...woodGrain(p.materials.frame, 'x') },
    { name: 'ladder', mesh: merge(...ladder), material: 'frame', ...woodGrain(p.materials.frame, 'z') },
  ];
  const mw = MATTRESS_SINGLE;
  const headY = py - railT / 2 - 0.005;
  const footY = headY - p.mattressLength;
  for (const [level, deck] of [['lower', p.lowerDeck], ['upper', p.upperDeck]] as const) {
    const bottom = deck - railH * 0.5;
    parts.push({ name: `${level}-deck`, mesh: roundedBoxBetween([-mw / 2, footY, bottom - 0.018], [mw / 2, headY, bottom], 0.003, 1), material: 'frame', ...woodGrain(p.materials.frame, 'x') });
    const duvet = level === 'lower' ? p.duvets[0] : p.duvets[1];
    parts.push(...beddingParts(-mw / 2, mw / 2, footY, headY, bottom, bottom + p.mattressThickness, deck, headY, duvet, p.pillows, `${level}-`));
  }
  return { parts, materials: { frame: p.materials.frame, sheet: p.materials.sheet, duvet: p.materials.duvet } };
}

const bunkGenerator = defineGenerator<BunkParams>({
  ids: ['bunk_bed'],
  sample: sampleBunk,
  footprint: (p) => ({ width: p.width, depth: p.depth, height: p.height, placement: 'against-wall', elevation: 0, frontClearance: 0.7 }),
  build: buildBunk,
});

// ---------------------------------------------------------------------------------------------------------------
// Baby cot

export interface CotParams {
  id: string;
  styleId: string;
  width: number;
  depth: number;
  height: number;
  post: number;
  slat: 'round' | 'square';
  slatSize: number;
  slatPitch: number;
  /** Bottom of the slatted sides. */
  sideBottom: number;
  mattressBottom: number;
  mattressThickness: number;
  panelEnds: boolean;
  edge: number;
  blanket: { length: number; thickness: number; phase: number };
  materials: { frame: Material; sheet: Material; blanket: Material };
}

const COT_MATTRESS: [number, number] = [0.6, 1.2];

function sampleCot(id: string, style: StyleProfile, random: Random, limits: SizeLimits | undefined): CotParams {
  const post = random.uniform(0.04, 0.052);
  const width = COT_MATTRESS[0] + 2 * post + 0.012;
  const depth = COT_MATTRESS[1] + 2 * post + 0.012;
  const height = capped(random.uniform(0.85, 0.95), limits?.maxHeight, 0.8);
  const round = TURNED.has(style.id) || style.legs.includes('turned') ? random.chance(0.7) : random.chance(0.2);
  const white = random.chance(0.45);
  return {
    id,
    styleId: style.id,
    width,
    depth,
    height,
    post,
    slat: round ? 'round' : 'square',
    slatSize: random.uniform(0.022, 0.028),
    slatPitch: random.uniform(0.062, 0.07),
    sideBottom: random.uniform(0.13, 0.2),
    mattressBottom: random.uniform(0.26, 0.42),
    mattressThickness: random.uniform(0.08, 0.12),
    panelEnds: random.chance(style.id === 'traditional' || style.id === 'farmhouse' || style.id === 'parisian' ? 0.6 : 0.25),
    edge: Math.max(0.003, style.edge),
    blanket: { length: random.uniform(0.25, 0.4), thickness: random.uniform(0.025, 0.04), phase: random.uniform(0, Math.PI * 2) },
    materials: {
      frame: white ? plain('painted-wood', '#F3F1EC', 0.5) : random.pick(style.cases),
      sheet: linen(random.pick(SHEETS)),
      blanket: linen(mixHex(random.pick(style.accents).color, '#FFFFFF', random.uniform(0.3, 0.7))),
    },
  };
}

function buildCot(p: CotParams): PieceGeometry {
  const W = p.width;
  const D = p.depth;
  const ps = p.post;
  const px = W / 2 - ps / 2;
  const py = D / 2 - ps / 2;
  const posts: Mesh[] = [];
  for (const sx of [-1, 1]) {
    for (const sy of [-1, 1]) posts.push(roundedBoxBetween([sx * px - ps / 2, sy * py - ps / 2, 0], [sx * px + ps / 2, sy * py + ps / 2, p.height], Math.max(0.005, p.edge * 1.5), 2));
  }
  const railH = 0.04;
  const railT = Math.max(0.028, p.slatSize + 0.006);
  const top0 = p.height - 0.01 - railH;
  const top1 = p.height - 0.01;
  const b0 = p.sideBottom;
  const b1 = p.sideBottom + railH;
  const railsY: Mesh[] = [];
  const railsX: Mesh[] = [];
  for (const sx of [-1, 1]) {
    for (const [z0, z1] of [[top0, top1], [b0, b1]] as const) railsY.push(roundedBoxBetween([sx * px - railT / 2, -py, z0], [sx * px + railT / 2, py, z1], 0.006, 2));
  }
  for (const sy of [-1, 1]) {
    for (const [z0, z1] of [[top0, top1], [b0, b1]] as const) railsX.push(roundedBoxBetween([-px, sy * py - railT / 2, z0], [px, sy * py + railT / 2, z1], 0.006, 2));
  }
  const slats: Mesh[] = [];
  const slat = (x: number, y: number): Mesh => {
    const s = p.slatSize;
    if (p.slat === 'round') return translate(cylinder(s / 2, s / 2, b1 - 0.003, top0 + 0.003, 10), [x, y, 0]);
    return roundedBoxBetween([x - s / 2, y - s / 2, b1 - 0.003], [x + s / 2, y + s / 2, top0 + 0.003], 0.004, 1);
  };
  const spread = (length: number): number[] => {
    const n = Math.max(2, Math.floor(length / p.slatPitch));
    return Array.from({ length: n }, (_, i) => -length / 2 + ((i + 0.5) * length) / n);
  };
  for (const sx of [-1, 1]) for (const y of spread(2 * py - ps)) slats.push(slat(sx * px, y));
  const ends: Mesh[] = [];
  for (const sy of [-1, 1]) {
    if (p.panelEnds) ends.push(roundedBoxBetween([-px + ps / 2 - 0.003, sy * py - 0.01, b1 - 0.003], [px - ps / 2 + 0.003, sy * py + 0.01, top0 + 0.003], 0.004, 2));
    else for (const x of spread(2 * px - ps)) slats.push(slat(x, sy * py));
  }
  const frameGrain = woodGrain(p.materials.frame, 'z');
  const parts: PiecePart[] = [
    { name: 'posts', mesh: merge(...posts), material: 'frame', ...frameGrain },
    { name: 'side-rails', mesh: merge(...railsY), material: 'frame', ...woodGrain(p.materials.frame, 'y') },
    { name: 'end-rails', mesh: merge(...railsX, ...ends), material: 'frame', ...woodGrain(p.materials.frame, 'x') },
    { name: 'slats', mesh: merge(...slats), material: 'frame', ...frameGrain },
  ];
  const mx = COT_MATTRESS[0] / 2;
  const my = COT_MATTRESS[1] / 2;
  const mTop = p.mattressBottom + p.mattressThickness;
  parts.push({ name: 'base', mesh: roundedBoxBetween([-mx - 0.004, -my - 0.004, p.mattressBottom - 0.018], [mx + 0.004, my + 0.004, p.mattressBottom], 0.003, 1), material: 'frame', ...woodGrain(p.materials.frame, 'y') });
  parts.push({ name: 'mattress', mesh: roundedBoxBetween([-mx, -my, p.mattressBottom], [mx, my, mTop], 0.025, 3), material: 'sheet' });
  // A blanket folded at the foot.
  const b = p.blanket;
  const cover: Cover = { x0: -mx + 0.02, x1: mx - 0.02, y0: -my + 0.03, y1: -my + 0.03 + b.length, bottom: mTop - 0.005, top: mTop + b.thickness, amp: 0.005, phase: b.phase };
  parts.push({ name: 'blanket', mesh: deform(roundedBoxBetween([cover.x0, cover.y0, cover.bottom], [cover.x1, cover.y1, cover.top], 0.012, 2, [6, 6, 2]), drape(cover, 0.004)), material: 'blanket', grain: 'x' });
  return { parts, materials: { ...p.materials } };
}

const cotGenerator = defineGenerator<CotParams>({
  ids: ['baby_cot'],
  sample: sampleCot,
  footprint: (p) => ({ width: p.width, depth: p.depth, height: p.height, placement: 'against-wall', elevation: 0, frontClearance: 0.6 }),
  build: buildCot,
});

// ---------------------------------------------------------------------------------------------------------------
// Sun lounger

export interface LoungerParams {
  id: string;
  styleId: string;
  width: number;
  length: number;
  frame: 'wood' | 'metal';
  /** Top of the seat slats. */
  deck: number;
  railHeight: number;
  railThickness: number;
  slatThickness: number;
  slatPitch: number;
  backLength: number;
  /** How far the back is raised, radians. */
  backAngle: number;
  cushion: number;
  softness: number;
  wheels: boolean;
  legThickness: number;
  materials: { frame: Material; slats: Material; cushion: Material };
}

function sampleLounger(id: string, style: StyleProfile, random: Random, limits: SizeLimits | undefined): LoungerParams {
  const metalChance: Record<string, number> = { industrial: 0.8, modern: 0.65, minimalist: 0.6, art_deco: 0.6, luxury: 0.5, contemporary: 0.5, parisian: 0.5 };
  const frame: LoungerParams['frame'] = random.chance(metalChance[style.id] ?? 0.2) ? 'metal' : 'wood';
  const teak = outdoorTeak(style, random);
  const coat = powderCoated(style, random);
  const p: LoungerParams = {
    id,
    styleId: style.id,
    width: capped(random.uniform(0.62, 0.76), limits?.maxWidth, 0.55),
    length: capped(random.uniform(1.9, 2.02), limits?.maxDepth, 1.8),
    frame,
    deck: random.uniform(0.3, 0.38),
    railHeight: frame === 'wood' ? random.uniform(0.07, 0.1) : 0.03,
    railThickness: frame === 'wood' ? random.uniform(0.03, 0.04) : 0.03,
    slatThickness: random.uniform(0.018, 0.024),
    slatPitch: random.uniform(0.07, 0.095),
    backLength: random.uniform(0.68, 0.8),
    backAngle: random.uniform(0.3, 0.95),
    cushion: random.uniform(0.035, 0.06),
    softness: Math.min(0.02, style.softness * 0.5),
    wheels: frame === 'wood' && random.chance(0.5),
    legThickness: random.uniform(0.05, 0.065),
    materials: { frame: frame === 'wood' ? teak : coat, slats: frame === 'wood' || random.chance(0.5) ? teak : coat, cushion: fabric('fabric', random.pick(style.upholstery).color, 0.9) },
  };
  // Lower the back until the piece fits under a height limit.
  while (limits?.maxHeight !== undefined && p.backAngle > 0.2 && loungerHeight(p) > limits.maxHeight) p.backAngle -= 0.05;
  return p;
}

function loungerHinge(p: LoungerParams): number {
  return p.length / 2 - p.backLength - 0.01;
}

/** The raised back: rails, slats and cushion, built flat around the hinge and turned up by the back angle. */
function loungerBack(p: LoungerParams): { frame: Mesh; slats: Mesh; cushion: Mesh } {
  const inner = p.width / 2 - p.railThickness;
  const bl = p.backLength;
  const st = p.slatThickness;
  const place = (mesh: Mesh): Mesh => translate(rotate(mesh, 'x', p.backAngle), [0, loungerHinge(p), p.deck - st]);
  const rails: Mesh[] = [];
  for (const sx of [-1, 1]) {
    if (p.frame === 'metal') rails.push(tube([[sx * (inner - 0.014), 0.01, -0.016], [sx * (inner - 0.014), bl, -0.016]], 0.014, 10));
    else rails.push(roundedBoxBetween([sx > 0 ? inner - 0.028 : -inner, 0, -0.05], [sx > 0 ? inner : -inner + 0.028, bl, 0.001], 0.004, 2));
  }
  const slats: Mesh[] = [];
  const n = Math.max(4, Math.round(bl / p.slatPitch));
  const sd = bl / n - 0.01;
  for (let i = 0; i < n; i++) {
    const y0 = (i * bl) / n + 0.005;
    slats.push(roundedBoxBetween([-inner, y0, 0], [inner, y0 + sd, st], 0.004, 1));
  }
  const cw = p.width / 2 - 0.03;
  const pad = cushion([-cw, 0.02, st - 0.004], [cw, bl - 0.03, st + p.cushion], Math.min(p.cushion * 0.45, 0.02), 0.004);
  return { frame: place(merge(...rails)), slats: place(merge(...slats)), cushion: place(pad) };
}

function loungerHeight(p: LoungerParams): number {
  const back = loungerBack(p);
  return Math.max(p.deck + p.cushion, bounds(back.cushion).max[2], bounds(back.frame).max[2], bounds(back.slats).max[2]);
}

function buildLounger(p: LoungerParams): PieceGeometry {
  const W = p.width;
  const L = p.length;
  const st = p.slatThickness;
  const hinge = loungerHinge(p);
  const railTop = p.deck - st;
  const rail0 = railTop - p.railHeight;
  const frame: Mesh[] = [];
  const legs: Mesh[] = [];
  const rt = p.railThickness;
  if (p.frame === 'wood') {
    for (const sx of [-1, 1]) frame.push(roundedBoxBetween([sx > 0 ? W / 2 - rt : -W / 2, -L / 2, rail0], [sx > 0 ? W / 2 : -W / 2 + rt, L / 2, railTop + 0.001], 0.005, 2));
    for (const sy of [-1, 1]) frame.push(roundedBoxBetween([-W / 2 + rt - 0.002, sy > 0 ? L / 2 - rt : -L / 2, rail0], [W / 2 - rt + 0.002, sy > 0 ? L / 2 : -L / 2 + rt, railTop + 0.001], 0.005, 2));
    const lt = p.legThickness;
    for (const sx of [-1, 1]) {
      const x = sx * (W / 2 - rt - lt / 2);
      legs.push(roundedBoxBetween([x - lt / 2, -L / 2 + 0.06, 0], [x + lt / 2, -L / 2 + 0.06 + lt, rail0 + 0.005], 0.005, 2));
      if (!p.wheels) legs.push(roundedBoxBetween([x - lt / 2, L / 2 - 0.12 - lt, 0], [x + lt / 2, L / 2 - 0.12, rail0 + 0.005], 0.005, 2));
    }
  } else {
    const r = 0.015;
    const z = railTop - r;
    frame.push(
      tube([[-W / 2 + r, -L / 2 + r, z], [W / 2 - r, -L / 2 + r, z], [W / 2 - r, L / 2 - r, z], [-W / 2 + r, L / 2 - r, z], [-W / 2 + r, -L / 2 + 2 * r, z]], r, 10),
    );
    for (const sx of [-1, 1]) {
      for (const y of [-L / 2 + 0.1, L / 2 - 0.14]) legs.push(translate(cylinder(0.014, 0.014, 0, z, 12, 0.003), [sx * (W / 2 - 0.035), y, 0]));
    }
  }
  // Seat slats across the frame, up to the hinge.
  const seat: Mesh[] = [];
  const y0 = -L / 2 + 0.01;
  const n = Math.max(6, Math.round((hinge - y0) / p.slatPitch));
  const sd = (hinge - y0) / n - 0.01;
  for (let i = 0; i < n; i++) {
    const ya = y0 + ((hinge - y0) * i) / n;
    seat.push(roundedBoxBetween([-W / 2 + 0.004, ya, railTop], [W / 2 - 0.004, ya + sd, p.deck], 0.004, 1));
  }
  const back = loungerBack(p);
  // Props under the raised back, from its rails down to the frame.
  const props: Mesh[] = [];
  const inner = W / 2 - rt - (p.frame === 'wood' ? 0.01 : 0.04);
  const s = p.backLength * 0.55;
  const py = hinge + s * Math.cos(p.backAngle) + 0.04 * Math.sin(p.backAngle);
  const pz = railTop + s * Math.sin(p.backAngle) - 0.04 * Math.cos(p.backAngle);
  for (const sx of [-1, 1]) props.push(tube([[sx * inner, py, Math.max(pz, railTop - 0.02)], [sx * inner, Math.min(L / 2 - 0.06, py + 0.08), rail0 + 0.01]], 0.011, 8));
  const parts: PiecePart[] = [
    { name: 'frame', mesh: merge(...frame), material: 'frame', ...woodGrain(p.materials.frame, 'y') },
    { name: 'legs', mesh: merge(...legs), material: 'frame', ...woodGrain(p.materials.frame, 'z') },
    { name: 'seat-slats', mesh: merge(...seat), material: 'slats', ...woodGrain(p.materials.slats, 'x') },
    { name: 'back-frame', mesh: merge(back.frame, ...props), material: 'frame', ...woodGrain(p.materials.frame, 'y') },
    { name: 'back-slats', mesh: back.slats, material: 'slats', ...woodGrain(p.materials.slats, 'x') },
    { name: 'seat-cushion', mesh: cushion([-W / 2 + 0.03, -L / 2 + 0.035, p.deck - 0.004], [W / 2 - 0.03, hinge - 0.01, p.deck + p.cushion], Math.min(p.cushion * 0.45, 0.02), 0.004), material: 'cushion', grain: 'y' },
    { name: 'back-cushion', mesh: back.cushion, material: 'cushion', grain: 'y' },
  ];
  if (p.wheels) {
    // Wheels under the side rails at the head end, to roll it into the sun.
    const wr = rail0 / 2 + 0.003;
    const wheels: Mesh[] = [];
    for (const sx of [-1, 1]) {
      const wheel = rotate(cylinder(wr, wr, -0.014, 0.014, 20, 0.005), 'y', Math.PI / 2);
      wheels.push(translate(wheel, [sx * (W / 2 - rt / 2), L / 2 - wr - 0.03, wr]));
    }
    parts.push({ name: 'wheels', mesh: merge(...wheels), material: 'frame', ...woodGrain(p.materials.frame, 'x') });
  }
  return { parts, materials: { ...p.materials } };
}

const loungerGenerator = defineGenerator<LoungerParams>({
  ids: ['sun_lounger'],
  sample: sampleLounger,
  footprint: (p) => ({ width: p.width, depth: p.length, height: loungerHeight(p), placement: 'floor', elevation: 0, frontClearance: 0.5 }),
  build: buildLounger,
});

export const BED_GENERATORS: readonly (FurnitureGenerator<BedParams> | FurnitureGenerator<BunkParams> | FurnitureGenerator<CotParams> | FurnitureGenerator<LoungerParams>)[] = [
  bedGenerator,
  bunkGenerator,
  cotGenerator,
  loungerGenerator,
];
