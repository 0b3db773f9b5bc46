import { Random } from '../../random.js';
import { capped, defineGenerator, type Footprint, type FurnitureGenerator, type PieceGeometry, type PiecePart, type SizeLimits } from '../generator.js';
import { fabric, mixHex, type Material } from '../materials.js';
import { bounds, cylinder, deform, ellipsoid, lathe, loft, merge, prism, rod, rotate, roundedBoxBetween, standUp, translate, tube, type Mesh, type Vec3 } from '../mesh.js';
import { circleProfile, revolveLoop, ringAt, slab, sweepOutline } from '../mesh-sweep.js';
import { round4 } from '../numbers.js';
import { archOutline, circlePoints, offsetOutline, roundedRect, scalePts, shiftPts, superellipse, type Pt } from '../outline.js';
import { taperedPath, taperedStrut } from '../parts.js';
import { finish, part } from '../piece.js';
import { rattanOf, softFabrics, styleFamily } from '../style-picks.js';
import type { StyleProfile } from '../styles.js';

/**
 * Decor pieces: floor lamps, floor and bathroom mirrors, rugs and bath mats, house plants and planters, parasols,
 * laundry baskets and towel radiators. Lofts, revolved profiles and swept frames come from mesh-sweep.ts, their
 * outlines from outline.ts; what is here besides the generators is the decor's own (leaves, fitting plants into
 * their box, materials).
 */

// ---------------------------------------------------------------------------------------------------------------
// Plants
// ---------------------------------------------------------------------------------------------------------------

/**
 * A leaf as a flattened ellipsoid whose base sits at `base`: it points along `yaw` (radians from +X, counter-clockwise
 * seen from above), rises by `pitch` (radians above horizontal), folds along its midrib and droops toward its tip.
 */
export function leafMesh(base: Vec3, yaw: number, pitch: number, length: number, width: number, droop: number, fold = 0.2, thickness = 0.004, segments = 8): Mesh {
  let mesh = ellipsoid([0, length / 2, 0], [width / 2, length / 2, thickness / 2], segments);
  mesh = deform(mesh, ([x, y, z]) => {
    const t = Math.max(0, y / length);
    return [x, y, z + fold * Math.abs(x) - droop * t * t];
  });
  mesh = rotate(mesh, 'x', pitch);
  mesh = rotate(mesh, 'z', yaw - Math.PI / 2);
  return translate(mesh, base);
}

/**
 * Fits organic growth into its box: each side of X and Y is scaled about the centre line (so trunks and stems stay
 * where they grow from) to reach ±half, and Z is scaled above `z0` to reach `top`. With `shrinkOnly` the sides are
 * only pulled in where they overshoot.
 */
export function fitGrowth(meshes: Mesh[], halfWidth: number, halfDepth: number, z0: number, top: number, shrinkOnly = false): Mesh[] {
  const b = bounds(...meshes);
  const factor = (extent: number, target: number): number => {
    if (extent <= 1e-6) return 1;
    const f = target / extent;
    return shrinkOnly ? Math.min(1, f) : f;
  };
  const xp = factor(b.max[0], halfWidth);
  const xn = factor(-b.min[0], halfWidth);
  const yp = factor(b.max[1], halfDepth);
  const yn = factor(-b.min[1], halfDepth);
  const zs = b.max[2] - z0 > 1e-6 ? (top - z0) / (b.max[2] - z0) : 1;
  return meshes.map((mesh) => deform(mesh, ([x, y, z]) => [x >= 0 ? x * xp : x * xn, y >= 0 ? y * yp : y * yn, z0 + (z - z0) * zs]));
}

// ---------------------------------------------------------------------------------------------------------------
// Materials and limits
// ---------------------------------------------------------------------------------------------------------------

export const MIRROR_GLASS: Material = { kind: 'mirror', color: '#E4E9EB', roughness: 0.02 };
const SOIL: Material = { kind: 'soil', color: '#3A2A1D', roughness: 0.95, scale: 0.01 };
const BARK: Material = { kind: 'wood', color: '#6E5A48', secondary: '#463628', roughness: 0.85, scale: 0.006 };

function leafGreens(base: string, random: Random, count = 3): Material[] {
  const out: Material[] = [];
  for (let i = 0; i < count; i++) {
    const toward = i % 2 === 0 ? '#1E3518' : '#9CB86B';
    out.push({ kind: 'leaf', color: mixHex(base, toward, i === 0 ? 0 : random.uniform(0.08, 0.22)), roughness: random.uniform(0.42, 0.6) });
  }
  return out;
}

/** The tighter of two optional limits. */
export function minLimit(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}

// ---------------------------------------------------------------------------------------------------------------
// Floor lamp
// ---------------------------------------------------------------------------------------------------------------

export interface FloorLampParams {
  id: string;
  styleId: string;
  kind: 'pole' | 'arc' | 'tripod';
  /** Top of the shade (pole, tripod) or of the arc. */
  height: number;
  shade: 'drum' | 'empire' | 'dome';
  shadeBottomRadius: number;
  shadeTopRadius: number;
  shadeHeight: number;
  base: 'disc' | 'stepped' | 'block' | 'none';
  /** Disc radius, or half the block's width. */
  baseRadius: number;
  /** Half the block's depth (discs: the radius). */
  baseHalfDepth: number;
  baseHeight: number;
  poleRadius: number;
  turned: boolean;
  /** Arc: horizontal distance from the pole to the shade's axis, and how far round the arc sweeps (radians). */
  reach: number;
  sweep: number;
  /** Tripod: radius of the feet and whether the legs are wood. */
  legSpread: number;
  woodLegs: boolean;
  materials: { frame: Material; pole: Material; base: Material; shade: Material };
}

const SHADE_WALL = 0.003;
const RIM_RADIUS = 0.003;

function shadeOuter(p: FloorLampParams): number {
  return p.shadeBottomRadius - SHADE_WALL / 2 + RIM_RADIUS;
}

function lampShade(p: FloorLampParams, zb: number): { shade: Mesh; rims: Mesh } {
  const rb = p.shadeBottomRadius;
  const rt = p.shadeTopRadius;
  const h = p.shadeHeight;
  const zt = zb + h;
  const th = SHADE_WALL;
  let profile: Pt[];
  if (p.shade === 'dome') {
    const outer: Pt[] = [];
    const inner: Pt[] = [];
    for (let i = 0; i <= 10; i++) {
      const phi = ((Math.PI / 2) * i) / 10;
      outer.push([rt + (rb - rt) * Math.cos(phi), zb + h * Math.sin(phi)]);
      inner.push([rt + (rb - th - rt) * Math.cos(phi), zb + (h - th) * Math.sin(phi)]);
    }
    profile = [...outer, ...inner.reverse()];
  } else {
    // A drum or a tapered empire shade, its sides curving in a little (a stretched fabric shade).
    const outer: Pt[] = [];
    for (let i = 0; i <= 4; i++) {
      const t = i / 4;
      const bow = p.shade === 'empire' ? -0.006 * Math.sin(Math.PI * t) : 0;
      outer.push([rb + (rt - rb) * t + bow, zb + h * t]);
    }
    const inner = outer.map(([r, z]) => [r - th, z] as Pt).reverse();
    profile = [...outer, ...inner];
  }
  const shade = revolveLoop(profile, 40);
  const rims = [revolveLoop(circleProfile(rb - th / 2, zb + RIM_RADIUS, RIM_RADIUS, 6), 40)];
  if (p.shade !== 'dome') rims.push(revolveLoop(circleProfile(rt - th / 2, zt - RIM_RADIUS, RIM_RADIUS, 6), 40));
  return { shade, rims: merge(...rims) };
}

/** Three thin spokes from the pole's top to the shade's top rim, and the bulb socket. */
function spider(p: FloorLampParams, zb: number): Mesh {
  const zt = zb + p.shadeHeight;
  const r = p.shadeTopRadius - SHADE_WALL - 0.002;
  const hub: Vec3 = [0, 0, zt - 0.014];
  const spokes = [0, 1, 2].map((k) => {
    const a = Math.PI / 2 + (2 * Math.PI * k) / 3;
    return rod(hub, [r * Math.cos(a), r * Math.sin(a), zt - RIM_RADIUS], 0.0022, 6);
  });
  return merge(...spokes, cylinder(0.017, 0.017, zb + p.shadeHeight * 0.3, zb + p.shadeHeight * 0.62, 16, 0.002));
}

function arcPath(p: FloorLampParams, zStart: number, baseTop: number): { path: Vec3[]; tip: Vec3 } {
  const b = p.height - p.poleRadius - zStart;
  const a = p.reach / (1 - Math.cos(p.sweep));
  const path: Vec3[] = [[0, 0, baseTop - 0.01]];
  const steps = 18;
  for (let k = 0; k <= steps; k++) {
    const th = (p.sweep * k) / steps;
    path.push([a * (1 - Math.cos(th)), 0, zStart + b * Math.sin(th)]);
  }
  return { path, tip: path[path.length - 1]! };
}

export const floorLampGenerator = defineGenerator<FloorLampParams>({
  ids: ['floor_lamp'],
  sample(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): FloorLampParams {
    const fam = styleFamily(style);
    let kind: FloorLampParams['kind'] =
      fam === 'sleek'
        ? random.weighted<FloorLampParams['kind']>([['pole', 0.45], ['arc', 0.55]])
        : fam === 'natural'
          ? random.weighted<FloorLampParams['kind']>([['tripod', 0.6], ['pole', 0.4]])
          : fam === 'industrial'
            ? random.weighted<FloorLampParams['kind']>([['tripod', 0.5], ['pole', 0.3], ['arc', 0.2]])
            : fam === 'classic'
              ? 'pole'
              : random.weighted<FloorLampParams['kind']>([['tripod', 0.45], ['pole', 0.55]]);
    const narrow = minLimit(limits?.maxWidth, limits?.maxDepth);
    if (kind === 'arc' && narrow !== undefined && narrow < 1.5) kind = 'pole';
    const frame = random.pick(style.metals);
    const woody = fam === 'natural' || fam === 'casual';
    const soft = softFabrics(style);
    const shadeBase = soft.length > 0 ? random.pick(soft).color : '#EEE8DC';
    const darkShade = fam === 'industrial' || (fam === 'sleek' && random.chance(0.25));
    const shadeColor = darkShade ? mixHex(shadeBase, '#2A2A2A', random.uniform(0.2, 0.6)) : mixHex(shadeBase, '#F3EEE4', random.uniform(0.55, 0.85));
    const shadeMaterial: Material = { kind: 'fabric', color: shadeColor, roughness: 0.9, scale: 0.0015 };
    const shade: FloorLampParams['shade'] =
      kind === 'arc' ? 'dome' : fam === 'classic' ? 'empire' : fam === 'casual' && random.chance(0.5) ? 'empire' : 'drum';
    let rb = shade === 'dome' ? random.uniform(0.2, 0.25) : shade === 'empire' ? random.uniform(0.17, 0.22) : random.uniform(0.18, 0.23);
    if (narrow !== undefined && kind !== 'arc') rb = Math.max(0.14, Math.min(rb, narrow / 2 - 0.002));
    const rt = shade === 'dome' ? 0.03 : shade === 'empire' ? rb * random.uniform(0.55, 0.65) : rb - random.uniform(0.005, 0.015);
    const sh = shade === 'dome' ? random.uniform(0.17, 0.22) : shade === 'empire' ? random.uniform(0.26, 0.32) : random.uniform(0.26, 0.34);
    const nominal = kind === 'arc' ? random.uniform(1.85, 2.05) : kind === 'tripod' ? random.uniform(1.45, 1.7) : random.uniform(1.5, 1.75);
    const height = capped(nominal, limits?.maxHeight, 1.2);
    let base: FloorLampParams['base'] = 'none';
    let baseRadius = 0;
    let baseHalfDepth = 0;
    let baseHeight = 0;
    let baseMaterial = frame;
    if (kind === 'arc') {
      const block = style.id === 'modern' || style.id === 'art_deco' || style.id === 'luxury' || fam === 'industrial' || random.chance(0.3);
      base = block ? 'block' : 'disc';
      baseRadius = block ? random.uniform(0.13, 0.16) : random.uniform(0.18, 0.22);
      baseHalfDepth = block ? random.uniform(0.1, 0.12) : baseRadius;
      baseHeight = block ? random.uniform(0.22, 0.3) : random.uniform(0.045, 0.065);
      baseMaterial = random.pick(style.stones);
    } else if (kind === 'pole') {
      base = fam === 'classic' ? 'stepped' : 'disc';
      baseRadius = Math.min(rb, random.uniform(0.13, 0.17));
      baseHalfDepth = baseRadius;
      baseHeight = base === 'stepped' ? random.uniform(0.05, 0.06) : random.uniform(0.022, 0.036);
      baseMaterial = fam === 'sleek' && random.chance(0.5) ? random.pick(style.stones) : fam === 'natural' && random.chance(0.5) ? random.pick(style.woods) : frame;
    }
    const woodLegs = kind === 'tripod' && (woody || random.chance(0.3));
    const woodPole = kind === 'pole' && woody && random.chance(0.5);
    const pole = woodLegs || woodPole ? random.pick(style.woods) : frame;
    return {
      id,
      styleId: style.id,
      kind,
      height: round4(height),
      shade,
      shadeBottomRadius: round4(rb),
      shadeTopRadius: round4(rt),
      shadeHeight: round4(sh),
      base,
      baseRadius: round4(baseRadius),
      baseHalfDepth: round4(baseHalfDepth),
      baseHeight: round4(baseHeight),
      poleRadius: round4(kind === 'arc' ? random.uniform(0.011, 0.014) : woodPole ? random.uniform(0.014, 0.018) : random.uniform(0.009, 0.012)),
      turned: fam === 'classic' || (woodPole && random.chance(0.5)),
      reach: round4(kind === 'arc' ? random.uniform(1.0, 1.3) : 0),
      sweep: round4(kind === 'arc' ? random.uniform(0.62, 0.7) * Math.PI : 0),
      legSpread: round4(kind === 'tripod' ? random.uniform(0.24, 0.3) : 0),
      woodLegs,
      materials: { frame, pole, base: baseMaterial, shade: shadeMaterial },
    };
  },
  footprint(p: FloorLampParams): Footprint {
    const so = shadeOuter(p);
    let width: number;
    let depth: number;
    if (p.kind === 'arc') {
      width = p.reach + so + Math.max(p.baseRadius, p.poleRadius);
      depth = 2 * Math.max(p.baseHalfDepth, so);
    } else if (p.kind === 'tripod') {
      const foot = p.woodLegs ? 0.012 : 0.009;
      width = 2 * Math.max(so, p.legSpread * Math.cos(Math.PI / 6) + foot);
      depth = Math.max(so, p.legSpread + foot) + Math.max(so, p.legSpread / 2 + foot);
    } else {
      width = 2 * Math.max(so, p.baseRadius);
      depth = width;
    }
    return { width, depth, height: p.height, placement: 'floor', elevation: 0, frontClearance: 0 };
  },
  build(p: FloorLampParams): PieceGeometry {
    const parts: PiecePart[] = [];
    const poleGrain = p.materials.pole.kind === 'wood' ? 'z' : undefined;
    if (p.kind === 'arc') {
      const base =
        p.base === 'block'
          ? roundedBoxBetween([-p.baseRadius, -p.baseHalfDepth, 0], [p.baseRadius, p.baseHalfDepth, p.baseHeight], 0.01, 3)
          : cylinder(p.baseRadius, p.baseRadius * 0.96, 0, p.baseHeight, 48, 0.008);
      parts.push(part('base', base, 'base'));
      const zStart = p.baseHeight + 0.12;
      const { path, tip } = arcPath(p, zStart, p.baseHeight);
      parts.push(part('arc', tube(path, p.poleRadius, 12), 'frame'));
      const shadeTop = tip[2] - 0.045;
      const zb = shadeTop - p.shadeHeight;
      const { shade, rims } = lampShade(p, zb);
      parts.push(part('shade', translate(shade, [p.reach, 0, 0]), 'shade'));
      const socket = cylinder(0.016, 0.016, shadeTop - 0.04, tip[2] + 0.012, 16, 0.003);
      parts.push(part('fittings', translate(merge(rims, socket, cylinder(0.02, 0.02, shadeTop - 0.1, shadeTop - 0.03, 16, 0.002)), [p.reach, 0, 0]), 'frame'));
    } else {
      const zt = p.height;
      const zb = zt - p.shadeHeight;
      const { shade, rims } = lampShade(p, zb);
      parts.push(part('shade', shade, 'shade'));
      parts.push(part('fittings', merge(rims, spider(p, zb)), 'frame'));
      if (p.kind === 'tripod') {
        const hubZ = zb - 0.1;
        const legs = [0, 1, 2].map((k) => {
          const a = Math.PI / 2 + (2 * Math.PI * k) / 3;
          const foot: Vec3 = [p.legSpread * Math.cos(a), p.legSpread * Math.sin(a), 0];
          const top: Vec3 = [0.028 * Math.cos(a), 0.028 * Math.sin(a), hubZ];
          return p.woodLegs ? taperedStrut(foot, top, 0.012, 0.017) : tube([foot, top], 0.009, 10);
        });
        parts.push(part('legs', merge(...legs), 'pole', poleGrain));
        parts.push(part('stem', merge(cylinder(0.03, 0.024, hubZ - 0.05, hubZ + 0.025, 16, 0.004), cylinder(0.008, 0.008, hubZ, zt - 0.012, 10)), 'frame'));
      } else {
        const baseTop = p.baseHeight;
        const base =
          p.base === 'stepped'
            ? lathe(
                [
                  [p.baseRadius * 0.97, 0],
                  [p.baseRadius, 0.006],
                  [p.baseRadius, p.baseHeight * 0.32],
                  [p.baseRadius * 0.82, p.baseHeight * 0.4],
                  [p.baseRadius * 0.78, p.baseHeight * 0.7],
                  [p.baseRadius * 0.45, p.baseHeight * 0.8],
                  [p.baseRadius * 0.4, p.baseHeight],
                ],
                48,
              )
            : cylinder(p.baseRadius, p.baseRadius * 0.97, 0, p.baseHeight, 48, Math.min(0.008, p.baseHeight / 3));
        parts.push(part('base', base, 'base', p.materials.base.kind === 'wood' ? 'x' : undefined));
        const top = zt - 0.014;
        const length = top - baseTop;
        const r = p.poleRadius;
        const poleMesh = p.turned
          ? lathe(
              [
                [r * 2.4, baseTop - 0.004],
                [r * 2.6, baseTop + 0.03],
                [r * 1.3, baseTop + 0.07],
                [r * 2.8, baseTop + length * 0.16],
                [r * 3.2, baseTop + length * 0.24],
                [r * 1.6, baseTop + length * 0.33],
                [r * 1.1, baseTop + length * 0.38],
                [r * 2, baseTop + length * 0.4],
                [r, baseTop + length * 0.42],
                [r, baseTop + length * 0.72],
                [r * 1.8, baseTop + length * 0.73],
                [r * 1.8, baseTop + length * 0.75],
                [r * 0.8, baseTop + length * 0.76],
                [r * 0.8, top],
              ],
              16,
            )
          : cylinder(r, r, baseTop - 0.004, top, 14, 0.001);
        parts.push(part('pole', poleMesh, 'pole', poleGrain));
      }
    }
    return finish(parts, { ...p.materials });
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Mirrors (floor and bathroom)
// ---------------------------------------------------------------------------------------------------------------

export type PanelShape = 'rect' | 'rounded' | 'arch' | 'round' | 'pill';
export type FrameProfile = 'flat' | 'round' | 'moulded';

/** The outline of a panel `width` wide and `height` tall, standing on y = 0. */
export function panelOutline(shape: PanelShape, width: number, height: number): Pt[] {
  switch (shape) {
    case 'rect':
      return roundedRect(width, height, 0.002, 1, 0, height / 2);
    case 'rounded':
      return roundedRect(width, height, Math.min(width, height) * 0.18, 6, 0, height / 2);
    case 'pill':
      return roundedRect(width, height, width / 2, 12, 0, height / 2);
    case 'arch':
      return archOutline(width, height, 20);
    case 'round':
      return superellipse(width / 2, height / 2, 2, 64, 0, height / 2);
  }
}

/** A frame's section as (offset outward from the opening, z toward the viewer). */
export function frameProfile(kind: FrameProfile, fw: number, fd: number): Pt[] {
  if (kind === 'flat') return [[0, 0], [fw, 0], [fw, fd], [0, fd]];
  if (kind === 'round') {
    const points: Pt[] = [[0, 0], [fw, 0], [fw, fd * 0.45]];
    for (let k = 1; k < 8; k++) {
      const a = (Math.PI * k) / 8;
      points.push([fw / 2 + (fw / 2) * Math.cos(a), fd * 0.45 + fd * 0.55 * Math.sin(a)]);
    }
    points.push([0, fd * 0.45]);
    return points;
  }
  return [
    [0, 0],
    [fw, 0],
    [fw, fd * 0.6],
    [fw * 0.92, fd * 0.82],
    [fw * 0.75, fd],
    [fw * 0.55, fd * 0.96],
    [fw * 0.42, fd * 0.8],
    [fw * 0.28, fd * 0.86],
    [fw * 0.12, fd * 0.74],
    [0, fd * 0.55],
  ];
}

/**
 * A framed (or frameless, fw = 0) mirror panel drawn flat and stood up: `width` × `height` overall from z = 0,
 * `depth` thick, its back in the plane y = 0 and its glass facing −Y.
 */
export function mirrorPanel(shape: PanelShape, width: number, height: number, fw: number, fd: number, profile: FrameProfile): { frame?: Mesh; glass: Mesh; back: Mesh } {
  if (fw <= 0) {
    // Frameless: a bevelled mirror plate on a set-back mounting board that casts a shadow line.
    const outline = panelOutline(shape, width, height);
    const glass = slab(outline, fd - 0.006, fd, 0.0025);
    const board = slab(offsetOutline(outline, -Math.min(0.04, width * 0.08)), 0, fd - 0.006 + 0.0005, 0);
    return { glass: standUp(glass), back: standUp(board) };
  }
  const inner = shiftPts(panelOutline(shape, width - 2 * fw, height - 2 * fw), 0, fw);
  const frame = sweepOutline(inner, frameProfile(profile, fw, fd));
  const zg = Math.max(0.006, Math.min(fd * 0.45, fd - 0.008));
  const glass = prism(offsetOutline(inner, Math.min(0.006, fw * 0.4)), zg - 0.004, zg);
  const back = prism(offsetOutline(inner, fw * 0.5), 0.0008, 0.006);
  return { frame: standUp(frame), glass: standUp(glass), back: standUp(back) };
}

export interface FloorMirrorParams {
  id: string;
  styleId: string;
  kind: 'leaning' | 'cheval';
  shape: 'rect' | 'rounded' | 'arch';
  /** The mirror panel's overall size (frame included). */
  width: number;
  height: number;
  frameWidth: number;
  frameDepth: number;
  profile: FrameProfile;
  /** Radians off vertical, top toward the wall. */
  tilt: number;
  /** Cheval stand: post section, foot length, mirror bottom above the floor, turned posts. */
  postWidth: number;
  footDepth: number;
  clearance: number;
  turnedPosts: boolean;
  materials: { frame: Material; glass: Material; back: Material; post: Material; metal: Material };
}

const CHEVAL_GAP = 0.012;

function chevalLayout(p: FloorMirrorParams): { zc: number; postTop: number; mirrorHalfY: number; mirrorTop: number } {
  const c = Math.cos(p.tilt);
  const s = Math.sin(p.tilt);
  const zc = p.clearance + p.height / 2;
  return { zc, postTop: zc + p.height * 0.3, mirrorHalfY: (c * p.frameDepth) / 2 + (s * p.height) / 2, mirrorTop: zc + (c * p.height) / 2 + (s * p.frameDepth) / 2 };
}

export const floorMirrorGenerator = defineGenerator<FloorMirrorParams>({
  ids: ['floor_mirror'],
  sample(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): FloorMirrorParams {
    const fam = styleFamily(style);
    const kind: FloorMirrorParams['kind'] =
      fam === 'classic' ? (random.chance(0.4) ? 'cheval' : 'leaning') : fam === 'natural' ? (random.chance(0.35) ? 'cheval' : 'leaning') : fam === 'casual' && random.chance(0.2) ? 'cheval' : 'leaning';
    const shape = random.weighted<FloorMirrorParams['shape']>(
      fam === 'sleek'
        ? [['rect', style.id === 'art_deco' ? 0.2 : 0.5], ['rounded', 0.3], ['arch', style.id === 'art_deco' ? 0.6 : 0.2]]
        : fam === 'natural'
          ? [['rounded', 0.4], ['arch', 0.3], ['rect', 0.3]]
          : fam === 'industrial'
            ? [['rect', 0.6], ['arch', 0.4]]
            : fam === 'classic'
              ? [['arch', 0.4], ['rect', 0.6]]
              : [['arch', 0.45], ['rect', 0.35], ['rounded', 0.2]],
    );
    const metal = random.pick(style.metals);
    let frame: Material;
    let profile: FrameProfile;
    let fw: number;
    let fd: number;
    if (fam === 'sleek' || fam === 'industrial') {
      frame = metal;
      profile = 'flat';
      fw = random.uniform(0.014, 0.025);
      fd = random.uniform(0.022, 0.03);
    } else if (fam === 'classic') {
      frame = random.pick(style.metals);
      profile = 'moulded';
      fw = random.uniform(0.05, 0.08);
      fd = random.uniform(0.035, 0.045);
    } else if (fam === 'casual' && (style.id === 'bohemian' || style.id === 'coastal') && random.chance(0.55)) {
      frame = rattanOf(style, random);
      profile = 'round';
      fw = random.uniform(0.05, 0.08);
      fd = random.uniform(0.03, 0.045);
    } else {
      frame = random.pick(style.woods);
      profile = 'round';
      fw = random.uniform(0.03, 0.05);
      fd = random.uniform(0.025, 0.035);
    }
    const cheval = kind === 'cheval';
    const width = capped(cheval ? random.uniform(0.45, 0.6) : random.uniform(0.5, 0.8), limits?.maxWidth !== undefined ? limits.maxWidth - (cheval ? 0.12 : 0) : undefined, 0.35);
    const height = capped(cheval ? random.uniform(1.3, 1.5) : random.uniform(1.6, 1.9), limits?.maxHeight !== undefined ? limits.maxHeight - (cheval ? 0.3 : 0.02) : undefined, 0.9);
    const tintBronze = style.id === 'art_deco' || (style.id === 'luxury' && random.chance(0.4));
    return {
      id,
      styleId: style.id,
      kind,
      shape,
      width: round4(width),
      height: round4(height),
      frameWidth: round4(fw),
      frameDepth: round4(fd),
      profile,
      tilt: round4(cheval ? random.uniform(0.03, 0.07) : random.uniform(0.07, 0.12)),
      postWidth: round4(cheval ? random.uniform(0.032, 0.045) : 0),
      footDepth: round4(cheval ? random.uniform(0.42, 0.5) : 0),
      clearance: round4(cheval ? random.uniform(0.14, 0.2) : 0),
      turnedPosts: cheval && fam === 'classic',
      materials: {
        frame,
        glass: tintBronze ? { ...MIRROR_GLASS, color: '#D8CBB4' } : MIRROR_GLASS,
        back: { kind: 'painted-wood', color: '#3B342D', roughness: 0.8 },
        post: random.pick(style.woods),
        metal,
      },
    };
  },
  footprint(p: FloorMirrorParams): Footprint {
    const c = Math.cos(p.tilt);
    const s = Math.sin(p.tilt);
    if (p.kind === 'leaning') {
      return { width: p.width, depth: c * p.frameDepth + s * p.height, height: c * p.height + s * p.frameDepth, placement: 'against-wall', elevation: 0, frontClearance: 0.5 };
    }
    const l = chevalLayout(p);
    return {
      width: p.width + 2 * (CHEVAL_GAP + p.postWidth),
      depth: Math.max(p.footDepth, 2 * l.mirrorHalfY),
      height: Math.max(l.postTop + 1.2 * p.postWidth, l.mirrorTop),
      placement: 'floor',
      elevation: 0,
      frontClearance: 0.5,
    };
  },
  build(p: FloorMirrorParams): PieceGeometry {
    const panel = mirrorPanel(p.shape, p.width, p.height, p.frameWidth, p.frameDepth, p.profile);
    const frameGrain = p.materials.frame.kind === 'wood' || p.materials.frame.kind === 'rattan' ? 'z' : undefined;
    let meshes: { frame: Mesh; glass: Mesh; back: Mesh } = { frame: panel.frame!, glass: panel.glass, back: panel.back };
    const parts: PiecePart[] = [];
    if (p.kind === 'leaning') {
      const lean = (m: Mesh): Mesh => rotate(m, 'x', -p.tilt);
      meshes = { frame: lean(meshes.frame), glass: lean(meshes.glass), back: lean(meshes.back) };
    } else {
      const l = chevalLayout(p);
      const place = (m: Mesh): Mesh => translate(rotate(translate(m, [0, p.frameDepth / 2, -p.height / 2]), 'x', -p.tilt), [0, 0, l.zc]);
      meshes = { frame: place(meshes.frame), glass: place(meshes.glass), back: place(meshes.back) };
      const pw = p.postWidth;
      const footH = 0.035;
      const posts: Mesh[] = [];
      const feet: Mesh[] = [];
      const pivots: Mesh[] = [];
      for (const side of [-1, 1]) {
        const x = side * (p.width / 2 + CHEVAL_GAP + pw / 2);
        posts.push(
          p.turnedPosts
            ? translate(
                lathe(
                  [
                    [pw * 0.4, footH - 0.005],
                    [pw * 0.5, footH + 0.02],
                    [pw * 0.34, footH + 0.06],
                    [pw * 0.46, l.postTop * 0.3],
                    [pw * 0.3, l.postTop * 0.45],
                    [pw * 0.3, l.postTop * 0.85],
                    [pw * 0.44, l.postTop * 0.9],
                    [pw * 0.36, l.postTop],
                  ],
                  16,
                ),
                [x, 0, 0],
              )
            : roundedBoxBetween([x - pw / 2, -pw / 2, footH - 0.005], [x + pw / 2, pw / 2, l.postTop], 0.004, 2),
        );
        posts.push(ellipsoid([x, 0, l.postTop + 0.6 * pw], [pw / 2, pw / 2, 0.6 * pw], 14));
        feet.push(roundedBoxBetween([x - pw / 2, -p.footDepth / 2, 0], [x + pw / 2, p.footDepth / 2, footH], 0.008, 3));
        pivots.push(rod([side * (p.width / 2 - p.frameWidth * 0.4), 0, l.zc], [x, 0, l.zc], 0.008, 10));
      }
      parts.push(part('posts', merge(...posts), 'post', 'z'));
      parts.push(part('feet', merge(...feet), 'post', 'y'));
      parts.push(part('pivots', merge(...pivots), 'metal'));
    }
    parts.push(part('frame', meshes.frame, 'frame', frameGrain), part('glass', meshes.glass, 'glass'), part('back', meshes.back, 'back'));
    return finish(parts, { ...p.materials });
  },
});

export interface BathroomMirrorParams {
  id: string;
  styleId: string;
  shape: PanelShape;
  width: number;
  height: number;
  /** 0 for a frameless bevelled plate. */
  frameWidth: number;
  depth: number;
  profile: FrameProfile;
  elevation: number;
  materials: { frame: Material; glass: Material; back: Material };
}

export const bathroomMirrorGenerator = defineGenerator<BathroomMirrorParams>({
  ids: ['bathroom_mirror'],
  sample(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): BathroomMirrorParams {
    const fam = styleFamily(style);
    const shape = random.weighted<PanelShape>(
      fam === 'sleek'
        ? [['rounded', 0.3], ['pill', 0.25], ['rect', 0.25], ['round', 0.2]]
        : fam === 'natural'
          ? [['round', 0.45], ['rounded', 0.3], ['pill', 0.25]]
          : fam === 'industrial'
            ? [['round', 0.5], ['rect', 0.5]]
            : fam === 'classic'
              ? [['arch', 0.45], ['rect', 0.35], ['round', 0.2]]
              : [['arch', 0.35], ['round', 0.4], ['rounded', 0.25]],
    );
    const framed = fam === 'sleek' ? random.chance(0.4) : true;
    let frame: Material = random.pick(style.metals);
    let profile: FrameProfile = 'flat';
    let fw = 0;
    let depth = random.uniform(0.025, 0.035);
    if (framed) {
      if (fam === 'natural' && random.chance(0.5)) {
        frame = random.pick(style.woods);
        profile = 'round';
        fw = random.uniform(0.025, 0.04);
      } else if (fam === 'casual') {
        const rattan = style.id === 'bohemian' && random.chance(0.5);
        frame = rattan ? rattanOf(style, random) : random.chance(0.5) ? random.pick(style.woods) : frame;
        profile = 'round';
        fw = rattan ? random.uniform(0.05, 0.07) : random.uniform(0.025, 0.045);
      } else if (fam === 'classic') {
        profile = 'moulded';
        fw = random.uniform(0.04, 0.065);
        depth = random.uniform(0.03, 0.04);
      } else {
        fw = random.uniform(0.01, 0.02);
        depth = random.uniform(0.02, 0.03);
      }
    }
    let width: number;
    let height: number;
    if (shape === 'round') {
      width = random.uniform(0.5, 0.8);
      height = width;
    } else if (shape === 'arch' || shape === 'pill') {
      width = random.uniform(0.45, 0.65);
      height = random.uniform(0.8, 1.0);
    } else {
      width = random.uniform(0.6, 1.0);
      height = random.uniform(0.6, 0.9);
    }
    width = capped(width, limits?.maxWidth, 0.35);
    if (shape === 'round') height = width;
    height = capped(height, limits?.maxHeight, 0.4);
    if (shape === 'round') width = height = Math.min(width, height);
    const elevation = Math.min(random.uniform(1.0, 1.15), 2.15 - height);
    return {
      id,
      styleId: style.id,
      shape,
      width: round4(width),
      height: round4(height),
      frameWidth: round4(fw),
      depth: round4(depth),
      profile,
      elevation: round4(elevation),
      materials: { frame, glass: MIRROR_GLASS, back: { kind: 'painted-wood', color: '#4A4743', roughness: 0.7 } },
    };
  },
  footprint(p: BathroomMirrorParams): Footprint {
    return { width: p.width, depth: p.depth, height: p.height, placement: 'on-wall', elevation: p.elevation, frontClearance: 0 };
  },
  build(p: BathroomMirrorParams): PieceGeometry {
    const panel = mirrorPanel(p.shape, p.width, p.height, p.frameWidth, p.depth, p.profile);
    const parts: PiecePart[] = [part('glass', panel.glass, 'glass'), part('back', panel.back, 'back')];
    if (panel.frame) parts.push(part('frame', panel.frame, 'frame', p.materials.frame.kind === 'wood' || p.materials.frame.kind === 'rattan' ? 'z' : undefined));
    return finish(parts, { ...p.materials }, p.elevation);
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Rugs and bath mats
// ---------------------------------------------------------------------------------------------------------------

export interface RugParams {
  id: string;
  styleId: string;
  size: '160x230' | '200x300' | '240x340' | 'round';
  width: number;
  depth: number;
  thickness: number;
  cornerRadius: number;
  material: Material;
}

const RUG_SIZES: Record<Exclude<RugParams['size'], 'round'>, [number, number]> = {
  '160x230': [1.6, 2.3],
  '200x300': [2.0, 3.0],
  '240x340': [2.4, 3.4],
};

function rugOutline(round: boolean, width: number, depth: number, radius: number): Pt[] {
  return round ? superellipse(width / 2, depth / 2, 2, 72) : roundedRect(width, depth, radius, 4);
}

export const rugGenerator = defineGenerator<RugParams>({
  ids: ['rug'],
  sample(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): RugParams {
    const fam = styleFamily(style);
    const round = random.chance(style.roundness * 0.3);
    let size: RugParams['size'];
    let width: number;
    let depth: number;
    if (round) {
      size = 'round';
      width = random.uniform(1.6, 2.4);
      width = capped(width, minLimit(limits?.maxWidth, limits?.maxDepth), 1.2);
      depth = width;
    } else {
      const weights: [Exclude<RugParams['size'], 'round'>, number][] = [
        ['160x230', fam === 'classic' ? 0.2 : 0.35],
        ['200x300', 0.45],
        ['240x340', fam === 'classic' || style.id === 'luxury' ? 0.35 : 0.2],
      ];
      const fitting = weights.filter(([key]) => {
        const [w, d] = RUG_SIZES[key];
        return (limits?.maxWidth === undefined || w <= limits.maxWidth) && (limits?.maxDepth === undefined || d <= limits.maxDepth);
      });
      size = random.weighted(fitting.length > 0 ? fitting : [['160x230', 1]]);
      const [w, d] = RUG_SIZES[size];
      const k = random.uniform(0.985, 1.015);
      width = capped(w * k, limits?.maxWidth, 1.0);
      depth = capped(d * random.uniform(0.985, 1.015), limits?.maxDepth, 1.4);
    }
    return {
      id,
      styleId: style.id,
      size,
      width: round4(width),
      depth: round4(depth),
      thickness: round4(fam === 'classic' || style.id === 'bohemian' ? random.uniform(0.01, 0.015) : random.uniform(0.008, 0.013)),
      cornerRadius: round4(random.uniform(0.01, 0.03)),
      material: random.pick(style.rugs),
    };
  },
  footprint(p: RugParams): Footprint {
    return { width: p.width, depth: p.depth, height: p.thickness, placement: 'floor', elevation: 0, frontClearance: 0 };
  },
  build(p: RugParams): PieceGeometry {
    const outline = rugOutline(p.size === 'round', p.width, p.depth, p.cornerRadius);
    return finish([part('rug', slab(outline, 0, p.thickness, p.thickness * 0.35), 'rug')], { rug: p.material });
  },
});

export interface BathMatParams {
  id: string;
  styleId: string;
  kind: 'pile' | 'slatted';
  width: number;
  depth: number;
  thickness: number;
  cornerRadius: number;
  slats: number;
  material: Material;
}

export const bathMatGenerator = defineGenerator<BathMatParams>({
  ids: ['bath_mat'],
  sample(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): BathMatParams {
    const fam = styleFamily(style);
    const slatted = (fam === 'natural' && random.chance(0.5)) || (style.id === 'japandi' && random.chance(0.3)) || (style.id === 'coastal' && random.chance(0.25));
    const width = capped(slatted ? random.uniform(0.6, 0.8) : random.uniform(0.7, 0.9), limits?.maxWidth, 0.4);
    const depth = capped(slatted ? random.uniform(0.4, 0.5) : random.uniform(0.45, 0.6), limits?.maxDepth, 0.3);
    let material: Material;
    if (slatted) {
      material = style.woods.find((m) => m.color === '#8E5B30') ?? random.pick(style.woods);
    } else {
      const soft = softFabrics(style);
      const color = soft.length > 0 ? mixHex(random.pick(soft).color, '#FFFFFF', random.uniform(0.1, 0.5)) : '#EDEAE4';
      const rug = random.pick(style.rugs);
      material = { kind: 'rug', color, secondary: rug.secondary ?? mixHex(color, '#000000', 0.2), roughness: 0.97, scale: 0.003, pattern: random.chance(0.3) ? 'stripes' : 'plain' };
    }
    return {
      id,
      styleId: style.id,
      kind: slatted ? 'slatted' : 'pile',
      width: round4(width),
      depth: round4(depth),
      thickness: round4(slatted ? random.uniform(0.028, 0.035) : random.uniform(0.01, 0.018)),
      cornerRadius: round4(slatted ? 0.004 : random.uniform(0.03, 0.08)),
      slats: slatted ? random.int(6, 8) : 0,
      material,
    };
  },
  footprint(p: BathMatParams): Footprint {
    return { width: p.width, depth: p.depth, height: p.thickness, placement: 'floor', elevation: 0, frontClearance: 0 };
  },
  build(p: BathMatParams): PieceGeometry {
    if (p.kind === 'pile') {
      return finish([part('mat', slab(roundedRect(p.width, p.depth, p.cornerRadius, 6), 0, p.thickness, p.thickness * 0.4), 'mat')], { mat: p.material });
    }
    // A duckboard: slats along the width on two runners.
    const runnerH = p.thickness * 0.45;
    const gap = 0.012;
    const slatD = (p.depth - gap * (p.slats - 1)) / p.slats;
    const slats: Mesh[] = [];
    for (let i = 0; i < p.slats; i++) {
      const y0 = -p.depth / 2 + i * (slatD + gap);
      slats.push(roundedBoxBetween([-p.width / 2, y0, runnerH - 0.001], [p.width / 2, y0 + slatD, p.thickness], 0.004, 2));
    }
    const runners = [-1, 1].map((s) => roundedBoxBetween([s * p.width * 0.32 - 0.02, -p.depth / 2 + 0.02, 0], [s * p.width * 0.32 + 0.02, p.depth / 2 - 0.02, runnerH], 0.003, 2));
    return finish([part('slats', merge(...slats), 'mat', 'x'), part('runners', merge(...runners), 'mat', 'y')], { mat: p.material });
  },
});

// ---------------------------------------------------------------------------------------------------------------
// House plant
// ---------------------------------------------------------------------------------------------------------------

export interface HouseplantParams {
  id: string;
  styleId: string;
  kind: 'fiddle' | 'monstera' | 'olive';
  pot: 'cylinder' | 'tapered' | 'bowl' | 'urn' | 'basket';
  potRadius: number;
  potHeight: number;
  /** Overall height (top leaf) and spread (width = depth) of the plant. */
  height: number;
  spread: number;
  leafSeed: number;
  materials: { pot: Material; soil: Material; stem: Material; band: Material; leaves: Material[] };
}

/** Pot profile (r, z) from the outside bottom, over the rim and down the inside to the soil. */
function potProfile(p: HouseplantParams): { profile: [number, number][]; soilZ: number; innerRadius: number; outer: number } {
  const R = p.potRadius;
  const h = p.potHeight;
  const wall = p.pot === 'basket' ? 0.012 : 0.01;
  const soilZ = h - 0.035;
  let outside: [number, number][];
  let top: number;
  switch (p.pot) {
    case 'cylinder':
      outside = [[R * 0.95, 0], [R, 0.008], [R, h]];
      top = R;
      break;
    case 'tapered':
      outside = [[R * 0.74, 0], [R * 0.76, 0.008], [R * 0.98, h - 0.025], [R, h - 0.02], [R, h]];
      top = R;
      break;
    case 'bowl':
      outside = [[R * 0.55, 0], [R * 0.6, 0.01], [R * 0.9, h * 0.25], [R, h * 0.55], [R * 0.97, h * 0.8], [R * 0.9, h]];
      top = R * 0.9;
      break;
    case 'urn':
      outside = [[R * 0.62, 0], [R * 0.64, 0.03], [R * 0.45, 0.05], [R * 0.42, h * 0.22], [R * 0.7, h * 0.32], [R * 0.88, h * 0.55], [R * 0.86, h * 0.84], [R, h * 0.9], [R, h]];
      top = R;
      break;
    case 'basket':
      outside = [[R * 0.84, 0], [R * 0.86, 0.008], [R * 0.99, h]];
      top = R * 0.99;
      break;
  }
  const innerRadius = top - wall;
  return { profile: [...outside, [innerRadius, h], [innerRadius * 0.99, soilZ]], soilZ, innerRadius, outer: R };
}

function fiddleFoliage(p: HouseplantParams, random: Random, z0: number): { stems: Mesh[]; clusters: Mesh[][] } {
  const H = p.height;
  const top = z0 + (H - z0) * 0.9;
  const lean: Pt = [random.uniform(-0.04, 0.04), random.uniform(-0.04, 0.04)];
  const trunkAt = (t: number): Vec3 => [lean[0] * t * t + 0.015 * Math.sin(t * 5), lean[1] * t * t, z0 - 0.03 + (top - z0 + 0.03) * t];
  const path: Vec3[] = [];
  for (let i = 0; i <= 6; i++) path.push(trunkAt(i / 6));
  const stems: Mesh[] = [taperedPath(path, random.uniform(0.014, 0.02), 0.006)];
  const clusters: Mesh[][] = [[], [], []];
  const n = random.int(24, 34);
  const halfSpread = p.spread / 2;
  for (let i = 0; i < n; i++) {
    const f = i / (n - 1);
    const t = 0.32 + 0.68 * f;
    const at = trunkAt(Math.min(1, t));
    // The lowest, largest leaves face the four sides so the plant fills its footprint evenly.
    const yaw = (i < 4 ? (i * Math.PI) / 2 : i * 2.39996) + random.uniform(-0.3, 0.3);
    const pitch = (0.15 + 0.9 * f) * random.uniform(0.8, 1.1);
    const length = Math.min(0.32, halfSpread * 0.85) * (1.05 - 0.4 * f) * random.uniform(0.85, 1.05);
    const stalk = 0.03;
    const dir: Vec3 = [Math.cos(yaw), Math.sin(yaw), 0];
    const base: Vec3 = [at[0] + dir[0] * stalk, at[1] + dir[1] * stalk, at[2] + 0.012];
    const k = Math.min(2, Math.floor(f * 3));
    clusters[k]!.push(rod(at, base, 0.003, 6), leafMesh(base, yaw, pitch, length, length * random.uniform(0.55, 0.68), length * random.uniform(0.12, 0.25), 0.18, 0.004, 12));
  }
  return { stems, clusters };
}

function monsteraFoliage(p: HouseplantParams, random: Random, z0: number): { stems: Mesh[]; clusters: Mesh[][] } {
  const n = random.int(8, 13);
  const clusters: Mesh[][] = [[], [], []];
  const rise = p.height - z0;
  for (let i = 0; i < n; i++) {
    const yaw = (i < 4 ? (i * Math.PI) / 2 : i * 2.39996) + random.uniform(-0.25, 0.25);
    const u = i < 4 ? random.uniform(0.85, 1) : random.uniform(0.25, 1);
    const length = Math.min(0.42, p.spread * 0.38) * random.uniform(0.7, 1);
    const horizontal = u * Math.max(0.05, p.spread / 2 - length * 0.9);
    const vertical = Math.max(0.15, (rise - length * 0.15) * (1.05 - 0.45 * u) * random.uniform(0.85, 1));
    const base: Vec3 = [random.uniform(-0.03, 0.03), random.uniform(-0.03, 0.03), z0 - 0.02];
    const path: Vec3[] = [];
    for (let k = 0; k <= 4; k++) {
      const t = k / 4;
      const out = horizontal * t ** 1.6;
      path.push([base[0] + Math.cos(yaw) * out, base[1] + Math.sin(yaw) * out, base[2] + vertical * (1 - (1 - t) ** 2)]);
    }
    const tip = path[path.length - 1]!;
    const k = i % 3;
    clusters[k]!.push(
      tube(path, 0.0055, 6),
      leafMesh(tip, yaw + random.uniform(-0.3, 0.3), random.uniform(-0.15, 0.3), length, length * random.uniform(0.8, 0.92), length * 0.14, 0.1, 0.005, 14),
    );
  }
  return { stems: [], clusters };
}

function oliveFoliage(p: HouseplantParams, random: Random, z0: number): { stems: Mesh[]; clusters: Mesh[][] } {
  // A standard olive: a clear, slightly crooked trunk and a round crown of narrow silvery leaves on a few branches.
  const H = p.height;
  const rise = H - z0;
  const fork = z0 + rise * random.uniform(0.36, 0.44);
  const trunk: Vec3[] = [];
  for (let i = 0; i <= 5; i++) {
    const t = i / 5;
    trunk.push([0.025 * Math.sin(t * 4 + 1) * t, 0.02 * Math.sin(t * 3) * t, z0 - 0.03 + (fork - z0 + 0.03) * t]);
  }
  const stems: Mesh[] = [taperedPath(trunk, random.uniform(0.016, 0.024), 0.011)];
  const top = trunk[trunk.length - 1]!;
  const rh = p.spread / 2 - 0.04;
  const rv = Math.min(rh * 1.1, (H - fork) * 0.5);
  const zc = H - rv - 0.02;
  const branches = random.int(4, 6);
  const tips: Vec3[] = [];
  for (let b = 0; b < branches; b++) {
    const yaw = (2 * Math.PI * b) / branches + random.uniform(-0.35, 0.35);
    const tip: Vec3 = [Math.cos(yaw) * rh * random.uniform(0.4, 0.6), Math.sin(yaw) * rh * random.uniform(0.4, 0.6), zc + rv * random.uniform(-0.3, 0.45)];
    const mid: Vec3 = [(top[0] + tip[0]) / 2, (top[1] + tip[1]) / 2, (top[2] + tip[2]) / 2 + 0.05];
    stems.push(taperedPath([top, mid, tip], 0.009, 0.004));
    tips.push(tip);
  }
  const clusters: Mesh[][] = tips.map(() => []);
  const count = random.int(260, 320);
  for (let i = 0; i < count; i++) {
    // A point in the crown, denser toward its surface, on the nearest branch's cluster.
    const u = random.uniform(-1, 1);
    const a = random.uniform(0, 2 * Math.PI);
    const r = 0.5 + 0.5 * Math.sqrt(random.next());
    const s = Math.sqrt(1 - u * u);
    const base: Vec3 = [Math.cos(a) * s * r * rh, Math.sin(a) * s * r * rh, zc + u * r * rv];
    let nearest = 0;
    let best = Infinity;
    tips.forEach((t, k) => {
      const d = (t[0] - base[0]) ** 2 + (t[1] - base[1]) ** 2 + (t[2] - base[2]) ** 2;
      if (d < best) {
        best = d;
        nearest = k;
      }
    });
    const length = random.uniform(0.055, 0.085);
    clusters[nearest]!.push(leafMesh(base, a + random.uniform(-0.8, 0.8), random.uniform(-0.5, 0.9), length, length * random.uniform(0.17, 0.22), length * 0.12, 0.05, 0.003, 6));
  }
  return { stems, clusters };
}

export const houseplantGenerator = defineGenerator<HouseplantParams>({
  ids: ['houseplant'],
  sample(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): HouseplantParams {
    const fam = styleFamily(style);
    const kind = random.weighted<HouseplantParams['kind']>([
      ['fiddle', fam === 'natural' || fam === 'sleek' ? 0.4 : 0.3],
      ['monstera', style.id === 'bohemian' || style.id === 'coastal' ? 0.5 : 0.3],
      ['olive', style.id === 'mediterranean' || style.id === 'farmhouse' || style.id === 'rustic' ? 0.6 : 0.3],
    ]);
    // A glazed pot from the style's ceramics; cottage and boho rooms sometimes use a woven basket as a cachepot.
    const basket = (style.id === 'bohemian' || style.id === 'coastal') && random.chance(0.3);
    const pot: HouseplantParams['pot'] = basket
      ? 'basket'
      : fam === 'classic'
        ? random.pick(['urn', 'tapered'] as const)
        : fam === 'sleek'
          ? random.pick(['cylinder', 'bowl', 'tapered'] as const)
          : fam === 'industrial'
            ? 'cylinder'
            : random.pick(['tapered', 'cylinder', 'bowl'] as const);
    const potMaterial = basket ? rattanOf(style, random) : random.pick(style.ceramics);
    const greens = kind === 'olive' ? '#7C8B66' : kind === 'monstera' ? '#2E5A28' : '#3A5F2A';
    const potRadius = kind === 'monstera' ? random.uniform(0.15, 0.22) : random.uniform(0.13, 0.2);
    let height = kind === 'monstera' ? random.uniform(0.8, 1.2) : kind === 'olive' ? random.uniform(1.2, 1.7) : random.uniform(1.2, 1.75);
    let spread = kind === 'monstera' ? random.uniform(0.75, 1.05) : kind === 'olive' ? random.uniform(0.5, 0.7) : random.uniform(0.5, 0.75);
    height = capped(height, limits?.maxHeight, 0.6);
    const potHeight = Math.min(random.uniform(0.25, 0.38), height * 0.35);
    spread = capped(spread, minLimit(limits?.maxWidth, limits?.maxDepth), 2 * potRadius + 0.12);
    const r = Math.min(potRadius, spread / 2 - 0.06);
    return {
      id,
      styleId: style.id,
      kind,
      pot,
      potRadius: round4(r),
      potHeight: round4(potHeight),
      height: round4(height),
      spread: round4(spread),
      leafSeed: random.int(1, 2 ** 30),
      materials: {
        pot: potMaterial,
        soil: SOIL,
        stem: kind === 'monstera' ? { kind: 'leaf', color: '#4E7A35', roughness: 0.5 } : BARK,
        band: basket ? { ...potMaterial, color: mixHex(potMaterial.color, '#3A2A18', 0.3) } : potMaterial,
        leaves: leafGreens(greens, random),
      },
    };
  },
  footprint(p: HouseplantParams): Footprint {
    return { width: p.spread, depth: p.spread, height: p.height, placement: 'floor', elevation: 0, frontClearance: 0 };
  },
  build(p: HouseplantParams): PieceGeometry {
    const random = new Random(p.leafSeed);
    const { profile, soilZ, innerRadius } = potProfile(p);
    const parts: PiecePart[] = [part('pot', lathe(profile, 32), 'pot', p.pot === 'basket' ? 'z' : undefined)];
    if (p.pot === 'basket') {
      const bands: Mesh[] = [];
      for (let z = 0.05; z < p.potHeight - 0.03; z += 0.055) {
        const r = p.potRadius * (0.86 + (0.99 - 0.86) * (z / p.potHeight));
        bands.push(revolveLoop(circleProfile(r - 0.002, z, 0.006, 6), 32));
      }
      bands.push(revolveLoop(circleProfile(p.potRadius * 0.99 - 0.004, p.potHeight - 0.004, 0.008, 6), 32));
      parts.push(part('weave', merge(...bands), 'band', 'x'));
    }
    parts.push(
      part(
        'soil',
        lathe(
          [
            [innerRadius + 0.002, soilZ - 0.02],
            [innerRadius + 0.002, soilZ],
            [innerRadius * 0.6, soilZ + 0.01],
            [0, soilZ + 0.014],
          ],
          32,
        ),
        'soil',
      ),
    );
    const z0 = soilZ + 0.01;
    const growth = p.kind === 'fiddle' ? fiddleFoliage(p, random, z0) : p.kind === 'monstera' ? monsteraFoliage(p, random, z0) : oliveFoliage(p, random, z0);
    const clusterMeshes = growth.clusters.filter((c) => c.length > 0).map((c) => merge(...c));
    const fitted = fitGrowth([...growth.stems, ...clusterMeshes], p.spread / 2, p.spread / 2, z0, p.height);
    const materials: Record<string, Material> = { pot: p.materials.pot, soil: p.materials.soil, stem: p.materials.stem, band: p.materials.band };
    p.materials.leaves.forEach((m, i) => (materials[`leaf-${i}`] = m));
    fitted.slice(0, growth.stems.length).forEach((m, i) => parts.push(part(`stem-${i}`, m, 'stem', 'z')));
    fitted.slice(growth.stems.length).forEach((m, i) => parts.push(part(`leaves-${i}`, m, `leaf-${i % p.materials.leaves.length}`)));
    return finish(parts, materials);
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Outdoor planter
// ---------------------------------------------------------------------------------------------------------------

export interface PlanterParams {
  id: string;
  styleId: string;
  body: 'box' | 'tapered' | 'slatted' | 'footed';
  width: number;
  depth: number;
  troughHeight: number;
  /** Overall height, the plants' top. */
  height: number;
  plants: 'grass' | 'boxwood' | 'lavender';
  leafSeed: number;
  materials: { body: Material; soil: Material; foliage: Material[]; bloom: Material; feet: Material };
}

const PLANTER_LIP = 0.012;

function grassClump(random: Random, center: Vec3, reach: number, height: number, blades: number): Mesh[] {
  const out: Mesh[] = [];
  for (let i = 0; i < blades; i++) {
    const yaw = random.uniform(0, 2 * Math.PI);
    const pitch = random.uniform(0.95, 1.45);
    const length = (height / Math.sin(pitch)) * random.uniform(0.7, 1.05);
    const base: Vec3 = [center[0] + random.uniform(-reach, reach) * 0.3, center[1] + random.uniform(-reach, reach) * 0.3, center[2] - 0.01];
    out.push(leafMesh(base, yaw, pitch, length, random.uniform(0.01, 0.016), length * random.uniform(0.2, 0.45), 0.1, 0.002, 6));
  }
  return out;
}

function lavenderClump(random: Random, center: Vec3, reach: number, height: number): { stems: Mesh[]; blooms: Mesh[] } {
  const stems: Mesh[] = [];
  const blooms: Mesh[] = [];
  for (let i = 0; i < 22; i++) {
    const yaw = random.uniform(0, 2 * Math.PI);
    const lean = random.uniform(0, 0.45);
    const h = height * random.uniform(0.75, 1);
    const base: Vec3 = [center[0] + random.uniform(-0.03, 0.03), center[1] + random.uniform(-0.03, 0.03), center[2] - 0.01];
    const tip: Vec3 = [base[0] + Math.cos(yaw) * Math.sin(lean) * h * 0.7, base[1] + Math.sin(yaw) * Math.sin(lean) * h * 0.7, base[2] + h - 0.03];
    stems.push(tube([base, [(base[0] + tip[0]) / 2, (base[1] + tip[1]) / 2, (base[2] + tip[2]) / 2], tip], 0.0022, 5));
    blooms.push(translate(ellipsoid([0, 0, 0], [0.007, 0.007, 0.032], 6), [tip[0], tip[1], tip[2] + 0.026]));
  }
  for (let i = 0; i < 26; i++) {
    const yaw = random.uniform(0, 2 * Math.PI);
    const base: Vec3 = [center[0] + random.uniform(-0.04, 0.04), center[1] + random.uniform(-0.04, 0.04), center[2]];
    stems.push(leafMesh(base, yaw, random.uniform(0.3, 1.1), Math.min(reach, 0.09) * random.uniform(0.8, 1.2), 0.01, 0.01, 0.05, 0.002, 6));
  }
  return { stems, blooms };
}

function boxwoodBall(random: Random, center: Vec3, rx: number, ry: number, rz: number): Mesh {
  const phase = random.uniform(0, 6);
  const ball = ellipsoid([0, 0, 0], [1, 1, 1], 36);
  return deform(ball, ([x, y, z]) => {
    const bump = 1 + 0.045 * Math.sin(9 * x + phase) * Math.sin(8 * y - phase) + 0.035 * Math.sin(11 * z + 2 * phase) * Math.cos(7 * x);
    return [center[0] + x * rx * bump, center[1] + y * ry * bump, center[2] + z * rz * bump];
  });
}

export const planterGenerator = defineGenerator<PlanterParams>({
  ids: ['planter'],
  sample(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): PlanterParams {
    const fam = styleFamily(style);
    const body: PlanterParams['body'] =
      fam === 'sleek' ? 'box' : fam === 'natural' ? 'slatted' : fam === 'industrial' ? 'box' : fam === 'classic' ? 'footed' : random.pick(['tapered', 'slatted'] as const);
    let material: Material;
    if (body === 'slatted') material = random.pick(style.woods);
    else if (body === 'tapered') material = random.pick(style.ceramics);
    else if (fam === 'industrial') material = random.chance(0.5) ? { kind: 'metal', color: '#7A4A2A', roughness: 0.85 } : random.pick(style.stones);
    else if (style.id === 'modern' && random.chance(0.4)) material = random.pick(style.metals);
    else material = random.pick(style.stones);
    const plants = random.weighted<PlanterParams['plants']>([
      ['grass', fam === 'sleek' || fam === 'natural' ? 0.5 : 0.3],
      ['boxwood', fam === 'classic' ? 0.6 : 0.3],
      ['lavender', style.id === 'mediterranean' || style.id === 'farmhouse' || style.id === 'coastal' || style.id === 'parisian' ? 0.6 : 0.2],
    ]);
    const width = capped(random.uniform(0.6, 1.2), limits?.maxWidth, 0.4);
    const depth = capped(random.uniform(0.3, 0.45), limits?.maxDepth, 0.25);
    const trough = random.uniform(0.35, 0.5);
    const height = capped(trough + (plants === 'boxwood' ? Math.min(depth, random.uniform(0.3, 0.4)) : random.uniform(0.25, 0.45)), limits?.maxHeight, trough + 0.1);
    const base = plants === 'lavender' ? '#7F8F72' : plants === 'boxwood' ? '#3F5E2C' : '#7A8C4E';
    return {
      id,
      styleId: style.id,
      body,
      width: round4(width),
      depth: round4(depth),
      troughHeight: round4(Math.min(trough, height - 0.1)),
      height: round4(height),
      plants,
      leafSeed: random.int(1, 2 ** 30),
      materials: {
        body: material,
        soil: SOIL,
        foliage: leafGreens(base, random),
        bloom: { kind: 'leaf', color: random.pick(['#7B6BA8', '#8A78B8', '#6E5C9C']), roughness: 0.7 },
        feet: random.pick(style.metals),
      },
    };
  },
  footprint(p: PlanterParams): Footprint {
    return { width: p.width, depth: p.depth, height: p.height, placement: 'floor', elevation: 0, frontClearance: 0 };
  },
  build(p: PlanterParams): PieceGeometry {
    const random = new Random(p.leafSeed);
    const parts: PiecePart[] = [];
    const h = p.troughHeight;
    const soilZ = h - 0.04;
    const wall = 0.022;
    let innerW = p.width - 2 * wall;
    let innerD = p.depth - 2 * wall;
    if (p.body === 'slatted') {
      const pw = 0.045;
      const board = 0.018;
      const posts: Mesh[] = [];
      for (const sx of [-1, 1]) for (const sy of [-1, 1]) posts.push(roundedBoxBetween([sx > 0 ? p.width / 2 - pw : -p.width / 2, sy > 0 ? p.depth / 2 - pw : -p.depth / 2, 0], [sx > 0 ? p.width / 2 : -p.width / 2 + pw, sy > 0 ? p.depth / 2 : -p.depth / 2 + pw, h], 0.004, 2));
      const rows = Math.max(3, Math.round((h - 0.03) / 0.1));
      const boardH = (h - 0.03 - 0.008 * (rows - 1)) / rows;
      const along: Mesh[] = [];
      const across: Mesh[] = [];
      for (let i = 0; i < rows; i++) {
        const z0 = 0.03 + i * (boardH + 0.008);
        for (const sy of [-1, 1]) {
          const y1 = sy * (p.depth / 2 - 0.004);
          along.push(roundedBoxBetween([-p.width / 2 + pw - 0.002, Math.min(y1, y1 - sy * board), z0], [p.width / 2 - pw + 0.002, Math.max(y1, y1 - sy * board), z0 + boardH], 0.003, 2));
        }
        for (const sx of [-1, 1]) {
          const x1 = sx * (p.width / 2 - 0.004);
          across.push(roundedBoxBetween([Math.min(x1, x1 - sx * board), -p.depth / 2 + pw - 0.002, z0], [Math.max(x1, x1 - sx * board), p.depth / 2 - pw + 0.002, z0 + boardH], 0.003, 2));
        }
      }
      const cap = (x0: number, x1: number, y0: number, y1: number): Mesh => roundedBoxBetween([x0, y0, h - 0.002], [x1, y1, h + 0.02], 0.004, 2);
      const capsX = merge(cap(-p.width / 2, p.width / 2, -p.depth / 2, -p.depth / 2 + pw), cap(-p.width / 2, p.width / 2, p.depth / 2 - pw, p.depth / 2));
      const capsY = merge(cap(-p.width / 2, -p.width / 2 + pw, -p.depth / 2 + pw - 0.001, p.depth / 2 - pw + 0.001), cap(p.width / 2 - pw, p.width / 2, -p.depth / 2 + pw - 0.001, p.depth / 2 - pw + 0.001));
      parts.push(part('posts', merge(...posts), 'body', 'z'), part('boards-front', merge(...along, capsX), 'body', 'x'), part('boards-side', merge(...across, capsY), 'body', 'y'));
      innerW = p.width - 2 * pw;
      innerD = p.depth - 2 * pw;
      parts.push(part('soil', slab(roundedRect(innerW + 0.01, innerD + 0.01, 0.01, 2), 0.05, soilZ + 0.01, 0.004), 'soil'));
    } else {
      const lip = p.body === 'footed' ? PLANTER_LIP : 0;
      const footH = p.body === 'footed' ? 0.05 : 0;
      const w = p.width - 2 * lip;
      const d = p.depth - 2 * lip;
      const r = Math.min(0.05, d / 4);
      const outline = roundedRect(w, d, r, 4);
      const b = 0.006;
      const bottom = p.body === 'tapered' ? scalePts(outline, 0.86, 0.86) : outline;
      const rings: Vec3[][] = [
        ringAt(offsetOutline(bottom, -b), footH),
        ringAt(bottom, footH + b),
        ringAt(outline, h - b),
        ringAt(offsetOutline(outline, -b), h),
        ringAt(offsetOutline(outline, -wall), h),
        ringAt(offsetOutline(p.body === 'tapered' ? scalePts(outline, 0.97, 0.97) : outline, -wall), soilZ),
      ];
      parts.push(part('trough', loft(rings), 'body'));
      parts.push(part('soil', slab(offsetOutline(outline, -wall + 0.002), soilZ - 0.02, soilZ + 0.012, 0.004), 'soil'));
      if (p.body === 'footed') {
        parts.push(part('rim', sweepOutline(outline, [[-0.01, h - 0.045], [lip, h - 0.04], [lip, h - 0.012], [lip * 0.5, h], [-0.01, h]]), 'body'));
        parts.push(part('plinth', sweepOutline(bottom, [[-0.01, footH], [lip, footH], [lip, footH + 0.04], [-0.01, footH + 0.06]]), 'body'));
        const feet: Mesh[] = [];
        for (const sx of [-1, 1]) for (const sy of [-1, 1]) feet.push(translate(lathe([[0.02, 0], [0.032, 0.015], [0.035, 0.03], [0.026, footH + 0.004]], 16), [sx * (w / 2 - 0.05), sy * (d / 2 - 0.05), 0]));
        parts.push(part('feet', merge(...feet), 'body'));
      }
      innerW = w - 2 * wall;
      innerD = d - 2 * wall;
    }
    // Plants along the trough.
    const z0 = soilZ + 0.01;
    const rise = p.height - z0;
    const clumps = Math.max(2, Math.round(innerW / (p.plants === 'boxwood' ? Math.max(0.28, innerD) : 0.22)));
    const spacing = innerW / clumps;
    const foliage: Mesh[][] = [[], [], []];
    const blooms: Mesh[] = [];
    for (let c = 0; c < clumps; c++) {
      const center: Vec3 = [-innerW / 2 + spacing * (c + 0.5), random.uniform(-0.02, 0.02), z0];
      const k = c % 3;
      if (p.plants === 'grass') foliage[k]!.push(...grassClump(random, center, Math.min(spacing, innerD) / 2, rise, 30));
      else if (p.plants === 'lavender') {
        const l = lavenderClump(random, center, Math.min(spacing, innerD) / 2, rise);
        foliage[k]!.push(...l.stems);
        blooms.push(...l.blooms);
      } else {
        const rx = Math.min(spacing * 0.55, rise * 0.55);
        const ry = Math.min(innerD / 2 + 0.02, rise * 0.55);
        foliage[k]!.push(boxwoodBall(random, [center[0], center[1], z0 + rise / 2 - 0.01], rx, ry, rise / 2 + 0.01));
      }
    }
    const groups = foliage.filter((g) => g.length > 0).map((g) => merge(...g));
    const fitted = fitGrowth(blooms.length > 0 ? [...groups, merge(...blooms)] : groups, p.width / 2, p.depth / 2, z0, p.height, true);
    const materials: Record<string, Material> = { body: p.materials.body, soil: p.materials.soil, bloom: p.materials.bloom, feet: p.materials.feet };
    p.materials.foliage.forEach((m, i) => (materials[`leaf-${i}`] = m));
    groups.forEach((_, i) => parts.push(part(`foliage-${i}`, fitted[i]!, `leaf-${i % p.materials.foliage.length}`)));
    if (blooms.length > 0) parts.push(part('blooms', fitted[fitted.length - 1]!, 'bloom'));
    return finish(parts, materials);
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Parasol
// ---------------------------------------------------------------------------------------------------------------

export interface ParasolParams {
  id: string;
  styleId: string;
  canopy: 'round' | 'square';
  /** Diameter (round) or side (square) of the canopy. */
  size: number;
  height: number;
  rise: number;
  ribs: number;
  valance: boolean;
  poleRadius: number;
  base: 'disc' | 'slab' | 'cross';
  baseSize: number;
  materials: { canopy: Material; pole: Material; base: Material; ribs: Material };
}

const CANOPY_THICKNESS = 0.006;
const FINIAL = 0.07;

export const parasolGenerator = defineGenerator<ParasolParams>({
  ids: ['parasol'],
  sample(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): ParasolParams {
    const fam = styleFamily(style);
    const canopy: ParasolParams['canopy'] = fam === 'sleek' || fam === 'industrial' ? (random.chance(0.5) ? 'square' : 'round') : random.chance(0.2) ? 'square' : 'round';
    const woodPole = fam === 'natural' || fam === 'casual' || fam === 'classic' ? random.chance(0.75) : false;
    const soft = softFabrics(style);
    const tone = soft.length > 0 ? random.pick(soft).color : '#EDE6D6';
    const canopyColor = random.chance(0.6) ? mixHex(tone, '#EDE6D6', random.uniform(0.3, 0.7)) : tone;
    const narrow = minLimit(limits?.maxWidth, limits?.maxDepth);
    const size = capped(canopy === 'round' ? random.uniform(2.0, 3.0) : random.uniform(2.0, 2.5), narrow, 1.6);
    const base: ParasolParams['base'] = fam === 'industrial' ? 'cross' : fam === 'sleek' ? random.pick(['slab', 'cross'] as const) : 'disc';
    const metal = random.pick(style.metals);
    return {
      id,
      styleId: style.id,
      canopy,
      size: round4(size),
      height: round4(capped(random.uniform(2.3, 2.6), limits?.maxHeight, 2.05)),
      rise: round4(random.uniform(0.28, 0.42) * (size / 2.5)),
      ribs: canopy === 'square' ? 8 : random.pick([6, 8]),
      valance: fam === 'classic' || style.id === 'coastal' || style.id === 'mediterranean' ? random.chance(0.7) : false,
      poleRadius: round4(woodPole ? random.uniform(0.022, 0.026) : random.uniform(0.018, 0.022)),
      base,
      baseSize: round4(base === 'cross' ? random.uniform(0.8, 0.95) : base === 'slab' ? random.uniform(0.45, 0.55) : random.uniform(0.22, 0.28)),
      materials: {
        canopy: fabric('fabric', canopyColor, 0.9),
        pole: woodPole ? random.pick(style.woods) : metal,
        base: base === 'cross' ? metal : random.pick(style.stones),
        ribs: woodPole ? random.pick(style.woods) : metal,
      },
    };
  },
  footprint(p: ParasolParams): Footprint {
    return { width: p.size, depth: p.size, height: p.height, placement: 'floor', elevation: 0, frontClearance: 0 };
  },
  build(p: ParasolParams): PieceGeometry {
    const R = p.size / 2;
    const apex = p.height - FINIAL;
    const rim = apex - p.rise;
    const th = CANOPY_THICKNESS;
    const under = (f: number): number => apex - th - p.rise * f ** 1.25;
    const fractions = [0.04, 0.2, 0.4, 0.6, 0.8, 1];
    const square = p.canopy === 'square';
    const outline = (f: number): Pt[] => (square ? roundedRect(p.size * f, p.size * f, 0.03 * f, 3) : circlePoints(R * f, p.ribs * 6));
    const rings: Vec3[][] = [[[0, 0, apex - th]]];
    for (const f of fractions) rings.push(ringAt(outline(f), f === 1 ? rim : under(f)));
    for (const f of [...fractions].reverse()) rings.push(ringAt(outline(f), (f === 1 ? rim : under(f)) + th));
    rings.push([[0, 0, apex]]);
    const ribCount = square ? 8 : p.ribs;
    const ribPhase = square ? Math.PI / 4 : 0;
    const sag = 0.035 * (p.size / 2.5);
    const scallop = (mesh: Mesh): Mesh =>
      deform(mesh, ([x, y, z]) => {
        const r = Math.hypot(x, y);
        const a = Math.atan2(y, x) - ribPhase;
        const k = Math.min(1, r / (square ? R * Math.SQRT2 : R));
        return [x, y, z - sag * k * k * 0.5 * (1 - Math.cos(ribCount * a))];
      });
    const parts: PiecePart[] = [part('canopy', scallop(loft(rings)), 'canopy')];
    if (p.valance) {
      const vh = 0.1;
      parts.push(part('valance', scallop(sweepOutline(outline(1), [[-0.004, rim - vh], [0, rim - vh], [0, rim + th * 0.5], [-0.004, rim + th * 0.5]])), 'canopy'));
    }
    // Ribs under the canopy (to the corners and edge middles of a square one), struts from the runner, the pole.
    const ribMeshes: Mesh[] = [];
    const runnerZ = rim - 0.45;
    for (let k = 0; k < ribCount; k++) {
      const a = ribPhase + (2 * Math.PI * k) / ribCount;
      const reach = square && k % 2 === 0 ? R * Math.SQRT2 : R;
      const ribAt = (f: number): Vec3 => [Math.cos(a) * reach * f, Math.sin(a) * reach * f, under(Math.min(1, f)) - 0.009];
      ribMeshes.push(scallop(tube([ribAt(0.06), ribAt(0.35), ribAt(0.65), ribAt(0.97)], 0.0065, 6)));
      const mid = ribAt(0.55);
      ribMeshes.push(rod([Math.cos(a) * (p.poleRadius + 0.02), Math.sin(a) * (p.poleRadius + 0.02), runnerZ], [mid[0], mid[1], mid[2] - 0.004], 0.0055, 6));
    }
    parts.push(part('ribs', merge(...ribMeshes), 'ribs', p.materials.ribs.kind === 'wood' ? 'z' : undefined));
    const baseTop = p.base === 'cross' ? 0.05 : p.base === 'slab' ? 0.09 : 0.1;
    const pole = merge(
      cylinder(p.poleRadius, p.poleRadius, baseTop - 0.01, apex - 0.01, 16, 0.002),
      cylinder(p.poleRadius + 0.018, p.poleRadius + 0.018, runnerZ - 0.05, runnerZ + 0.04, 16, 0.005),
      lathe([[0.018, apex - 0.012], [0.03, apex + 0.01], [0.03, apex + 0.03], [0.012, p.height - 0.012], [0.008, p.height - 0.003], [0, p.height]], 16),
    );
    parts.push(part('pole', pole, 'pole', p.materials.pole.kind === 'wood' ? 'z' : undefined));
    let base: Mesh;
    if (p.base === 'cross') {
      const half = p.baseSize / 2;
      base = merge(
        roundedBoxBetween([-half, -0.03, 0], [half, 0.03, 0.05], 0.006, 2),
        roundedBoxBetween([-0.03, -half, 0], [0.03, half, 0.05], 0.006, 2),
        cylinder(p.poleRadius + 0.015, p.poleRadius + 0.012, 0.04, 0.25, 16, 0.004),
      );
    } else if (p.base === 'slab') {
      const half = p.baseSize / 2;
      base = merge(roundedBoxBetween([-half, -half, 0], [half, half, baseTop], 0.012, 3), cylinder(p.poleRadius + 0.015, p.poleRadius + 0.012, baseTop - 0.01, baseTop + 0.2, 16, 0.004));
    } else {
      base = merge(
        lathe([[p.baseSize * 0.97, 0], [p.baseSize, 0.012], [p.baseSize * 0.92, baseTop * 0.8], [p.baseSize * 0.55, baseTop], [0.05, baseTop + 0.03], [0.05, baseTop + 0.05], [0, baseTop + 0.05]], 32),
        cylinder(p.poleRadius + 0.012, p.poleRadius + 0.01, baseTop, baseTop + 0.2, 16, 0.004),
      );
    }
    parts.push(part('base', base, 'base'));
    return finish(parts, { ...p.materials });
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Laundry basket
// ---------------------------------------------------------------------------------------------------------------

export interface LaundryBasketParams {
  id: string;
  styleId: string;
  kind: 'rattan-lidded' | 'rattan-open' | 'fabric';
  shape: 'oval' | 'round' | 'rect';
  width: number;
  depth: number;
  /** Overall height (lid knob or handles included). */
  height: number;
  materials: { body: Material; trim: Material; handles: Material };
}

const BASKET_ROLL = 0.011;
const BAG_CUFF = 0.008;

function basketOutline(p: LaundryBasketParams, a: number, b: number): Pt[] {
  return superellipse(a, b, p.shape === 'rect' ? 3.2 : 2, 48);
}

export const laundryBasketGenerator = defineGenerator<LaundryBasketParams>({
  ids: ['laundry_basket'],
  sample(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): LaundryBasketParams {
    const fam = styleFamily(style);
    const rattan = fam === 'casual' || fam === 'classic' ? random.chance(0.85) : fam === 'natural' ? random.chance(0.5) : random.chance(0.15);
    const kind: LaundryBasketParams['kind'] = rattan ? (random.chance(0.6) ? 'rattan-lidded' : 'rattan-open') : 'fabric';
    const shape = random.weighted<LaundryBasketParams['shape']>([['oval', 0.4], ['round', 0.3], ['rect', fam === 'sleek' || fam === 'industrial' ? 0.5 : 0.3]]);
    let width = capped(random.uniform(0.38, 0.52), limits?.maxWidth, 0.3);
    let depth = shape === 'round' ? width : random.uniform(0.3, 0.4);
    depth = capped(Math.min(depth, width), limits?.maxDepth, 0.25);
    if (shape === 'round') width = depth = Math.min(width, depth);
    const height = capped(random.uniform(0.5, 0.65), limits?.maxHeight, 0.35);
    let body: Material;
    if (rattan) {
      body = rattanOf(style, random);
      if (fam === 'classic' || style.id === 'rustic') body = { ...body, color: mixHex(body.color, '#4A3322', 0.3) };
    } else {
      const soft = softFabrics(style);
      const color = soft.length > 0 ? random.pick(soft).color : '#D8D2C6';
      body = fabric('fabric', fam === 'industrial' ? mixHex(color, '#5A5A58', 0.4) : color, 0.93);
    }
    const trim: Material = rattan ? { ...body, color: mixHex(body.color, '#3A2A18', 0.25) } : fabric('fabric', mixHex(body.color, '#FFFFFF', 0.2), 0.93);
    const handles: Material = rattan ? trim : random.chance(0.5) ? { kind: 'leather', color: random.pick(['#7A4A2C', '#3A2A20', '#A0704A']), roughness: 0.5, scale: 0.01 } : { kind: 'fabric', color: '#D9CDB6', roughness: 0.95, scale: 0.003 };
    return { id, styleId: style.id, kind, shape, width: round4(width), depth: round4(depth), height: round4(height), materials: { body, trim, handles } };
  },
  footprint(p: LaundryBasketParams): Footprint {
    return { width: p.width, depth: p.depth, height: p.height, placement: 'floor', elevation: 0, frontClearance: 0 };
  },
  build(p: LaundryBasketParams): PieceGeometry {
    const parts: PiecePart[] = [];
    if (p.kind === 'fabric') {
      // A soft bag: slightly sagging walls with a few wrinkles, a folded cuff, two strap handles on the long sides.
      const rimZ = p.height - 0.065;
      const a = p.width / 2 - BAG_CUFF;
      const b = p.depth / 2 - BAG_CUFF;
      const top = basketOutline(p, a, b);
      const wall = 0.004;
      const levels = [0.02, 0.2, 0.45, 0.7, 0.9, 1];
      const outer = levels.map((t) =>
        scalePts(top, 0.97 + 0.03 * t).map((pt, i) => {
          const w = 1 - 0.035 * Math.sin(Math.PI * t) * (1 + 0.5 * Math.sin(i * 0.9 + t * 7));
          return [pt[0] * w, pt[1] * w] as Pt;
        }),
      );
      const rings: Vec3[][] = [ringAt(offsetOutline(outer[0]!, -0.012), 0)];
      outer.forEach((ring, i) => rings.push(ringAt(ring, levels[i]! * rimZ)));
      for (let i = outer.length - 1; i >= 0; i--) rings.push(ringAt(offsetOutline(outer[i]!, -wall), Math.max(0.016, levels[i]! * rimZ)));
      parts.push(part('bag', loft(rings), 'body'));
      parts.push(part('cuff', sweepOutline(top, [[-wall - 0.002, rimZ - 0.085], [BAG_CUFF, rimZ - 0.08], [BAG_CUFF, rimZ - 0.006], [0, rimZ + 0.004], [-wall - 0.002, rimZ + 0.002]]), 'trim'));
      const handles: Mesh[] = [];
      for (const sy of [-1, 1]) {
        const y = sy * (b + BAG_CUFF * 0.4);
        const path: Vec3[] = [];
        for (let k = 0; k <= 8; k++) {
          const t = k / 8;
          path.push([-0.07 + 0.14 * t, y, rimZ - 0.05 + 0.11 * Math.sin(Math.PI * t) - 0.0001]);
        }
        handles.push(tube(path, 0.0055, 8));
      }
      parts.push(part('handles', merge(...handles), 'handles'));
      return finish(parts, { ...p.materials });
    }
    const lidded = p.kind === 'rattan-lidded';
    const bodyTop = lidded ? p.height - 0.07 : p.height;
    const a = p.width / 2 - BASKET_ROLL;
    const b = p.depth / 2 - BASKET_ROLL;
    const top = basketOutline(p, a, b);
    const foot = scalePts(top, 0.86);
    const rings: Vec3[][] = [ringAt(offsetOutline(foot, -0.01), 0), ringAt(foot, 0.01), ringAt(top, bodyTop - 0.01), ringAt(offsetOutline(top, -0.012), bodyTop - 0.004), ringAt(offsetOutline(scalePts(top, 0.88), -0.012), 0.03)];
    parts.push(part('body', loft(rings), 'body', 'z'));
    const bands: Mesh[] = [];
    for (let z = 0.06; z < bodyTop - 0.05; z += 0.06) {
      const k = 0.86 + 0.14 * ((z - 0.01) / (bodyTop - 0.02));
      bands.push(sweepOutline(scalePts(top, k), circleProfile(-0.002, z, 0.0055, 6)));
    }
    bands.push(sweepOutline(top, circleProfile(BASKET_ROLL - 0.011, bodyTop - 0.01, 0.011, 8)));
    parts.push(part('weave', merge(...bands), 'trim', 'x'));
    if (lidded) {
      const z0 = bodyTop - 0.012;
      const lid = loft([
        ringAt(offsetOutline(top, 0.002), z0),
        ringAt(offsetOutline(top, 0.004), z0 + 0.016),
        ringAt(scalePts(top, 0.9), z0 + 0.028),
        ringAt(scalePts(top, 0.6), z0 + 0.036),
        ringAt(scalePts(top, 0.2), z0 + 0.04),
      ]);
      parts.push(part('lid', lid, 'body', 'x'));
      const knobTop = p.height;
      parts.push(part('knob', lathe([[0.012, z0 + 0.036], [0.014, knobTop - 0.022], [0.022, knobTop - 0.012], [0.016, knobTop - 0.002], [0, knobTop]], 16), 'handles'));
    }
    return finish(parts, { ...p.materials });
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Towel radiator
// ---------------------------------------------------------------------------------------------------------------

export interface TowelRadiatorParams {
  id: string;
  styleId: string;
  bars: 'round' | 'flat';
  curved: boolean;
  width: number;
  height: number;
  /** From the wall to the front of the rails. */
  depth: number;
  railRadius: number;
  barRadius: number;
  finials: boolean;
  /** Heights of the bars above the radiator's bottom. */
  barHeights: number[];
  elevation: number;
  material: Material;
}

function radiatorLayout(p: TowelRadiatorParams): { railX: number; railY: number; maxR: number; bow: number } {
  const finialR = p.finials ? p.railRadius * 1.35 : 0;
  const maxR = Math.max(p.railRadius, finialR);
  const bow = p.curved ? 0.028 : 0;
  return { railX: p.width / 2 - maxR, railY: 0, maxR, bow };
}

export const towelRadiatorGenerator = defineGenerator<TowelRadiatorParams>({
  ids: ['towel_radiator'],
  sample(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): TowelRadiatorParams {
    const fam = styleFamily(style);
    const bars: TowelRadiatorParams['bars'] = fam === 'sleek' && random.chance(0.55) ? 'flat' : 'round';
    const curved = bars === 'round' && (fam === 'sleek' || fam === 'natural') && random.chance(0.35);
    const white = (style.id === 'scandinavian' || style.id === 'farmhouse' || style.id === 'coastal' || style.id === 'minimalist') && random.chance(0.5);
    const material: Material = white ? { kind: 'metal', color: '#F2F2F0', roughness: 0.35 } : random.pick(style.metals);
    const width = capped(random.uniform(0.45, 0.6), limits?.maxWidth, 0.35);
    const height = capped(random.uniform(0.8, 1.4), limits?.maxHeight !== undefined ? limits.maxHeight - 0.15 : undefined, 0.5);
    const railRadius = fam === 'classic' || fam === 'industrial' ? random.uniform(0.014, 0.017) : random.uniform(0.011, 0.014);
    const barRadius = Math.min(railRadius * 0.8, random.uniform(0.009, 0.011));
    // Ladder bars in groups, with wider gaps between groups for folded towels.
    const barHeights: number[] = [];
    const pitch = random.uniform(0.045, 0.06);
    const group = random.int(3, 5);
    const gap = random.uniform(0.1, 0.16);
    let z = 0.05;
    let inGroup = 0;
    while (z < height - 0.04) {
      barHeights.push(round4(z));
      inGroup++;
      if (inGroup === group) {
        inGroup = 0;
        z += gap;
      } else z += pitch;
    }
    return {
      id,
      styleId: style.id,
      bars,
      curved,
      width: round4(width),
      height: round4(height),
      depth: round4(random.uniform(0.08, 0.12)),
      railRadius: round4(railRadius),
      barRadius: round4(barRadius),
      finials: fam === 'classic',
      barHeights,
      elevation: round4(random.uniform(0.13, 0.17)),
      material,
    };
  },
  footprint(p: TowelRadiatorParams): Footprint {
    const l = radiatorLayout(p);
    const top = p.height + (p.finials ? p.railRadius * 1.35 * 2 : 0);
    const depth = Math.max(p.depth, p.depth - p.railRadius + l.bow + p.barRadius);
    return { width: p.width, depth, height: top, placement: 'on-wall', elevation: p.elevation, frontClearance: 0 };
  },
  build(p: TowelRadiatorParams): PieceGeometry {
    const l = radiatorLayout(p);
    const rr = p.railRadius;
    // Wall at y = 0, rails' fronts at y = −depth.
    const y = -(p.depth - rr);
    const meshes: Mesh[] = [];
    for (const sx of [-1, 1]) {
      const x = sx * l.railX;
      meshes.push(translate(cylinder(rr, rr, 0, p.height, 16, 0.004), [x, y, 0]));
      if (p.finials) meshes.push(ellipsoid([x, y, p.height + rr * 1.35], [rr * 1.35, rr * 1.35, rr * 1.35], 14));
      for (const zf of [0.12, 0.88]) {
        const z = p.height * zf;
        meshes.push(rod([x, y, z], [x, -0.012, z], rr * 0.55, 10), rod([x, -0.014, z], [x, 0, z], rr, 14));
      }
    }
    const x0 = -l.railX;
    const x1 = l.railX;
    for (const z of p.barHeights) {
      if (p.bars === 'flat') {
        meshes.push(roundedBoxBetween([x0, y - 0.004, z - 0.011], [x1, y + 0.004, z + 0.011], 0.003, 2));
      } else if (p.curved) {
        const path: Vec3[] = [];
        for (let k = 0; k <= 8; k++) {
          const t = k / 8;
          path.push([x0 + (x1 - x0) * t, y - l.bow * Math.sin(Math.PI * t), z]);
        }
        meshes.push(tube(path, p.barRadius, 10));
      } else {
        meshes.push(rod([x0, y, z], [x1, y, z], p.barRadius, 12));
      }
    }
    return finish([part('radiator', merge(...meshes), 'metal')], { metal: p.material }, p.elevation);
  },
});

export const DECOR_GENERATORS: readonly FurnitureGenerator[] = [
  floorLampGenerator,
  floorMirrorGenerator,
  rugGenerator,
  bathMatGenerator,
  houseplantGenerator,
  planterGenerator,
  parasolGenerator,
  laundryBasketGenerator,
  towelRadiatorGenerator,
  bathroomMirrorGenerator,
];
