import type { Random } from '../../random.js';
import { capped, defineGenerator, type FurnitureGenerator, type Footprint, type PieceGeometry, type PiecePart, type SizeLimits } from '../generator.js';
import { fabric, mixHex, plain, type Material } from '../materials.js';
import { bevelledSide, cylinder, deform, lathe, merge, rod, rotate, roundedBoxBetween, shearY, translate, tube, type Mesh, type Vec3 } from '../mesh.js';
import { filletedTubeLoop, sweptBoard } from '../mesh-sweep.js';
import { clamp, clamp01, mm } from '../numbers.js';
import { arcLine, bowLine } from '../outline.js';
import { cushion, legReach, sledBase, standingLeg, taperedStrut, throwPillow, tuftButtons, uprightCushion } from '../parts.js';
import { part } from '../piece.js';
import type { LegKind, StyleProfile } from '../styles.js';
import { TEAK, WOODEN_LEGS, legMaterial, outdoorFabric, outdoorFrameMaterial, pickOutdoorFrame } from './seating.js';

/**
 * Chairs: dining, kitchen and garden side chairs; office and gaming swivel chairs on a five-star base; bar stools.
 * Real sizes (seat 0.44–0.48 m for dining and kitchen chairs, 0.63–0.78 m for bar stools), the style's leg kind,
 * a back of the style's kind, and the style's materials.
 */

const RATTAN_CANE = plain('rattan', '#C9A66B', 0.7);

// ---------------------------------------------------------------------------------------------------------------
// Dining, kitchen and garden chairs
// ---------------------------------------------------------------------------------------------------------------

export type ChairBack = 'slats' | 'spindles' | 'solid' | 'upholstered' | 'cane';
export type ChairSeat = 'wood' | 'upholstered' | 'slatted' | 'metal' | 'woven';

export interface ChairParams {
  id: string;
  styleId: string;
  kind: 'dining' | 'kitchen' | 'garden';
  /** Seat width at the front, overall depth (seat front to the top of the reclined back), height to the back's top. */
  width: number;
  depth: number;
  height: number;
  /** Top of the seat (of its pad or upholstery where there is one). */
  seatHeight: number;
  seatThickness: number;
  /** How much narrower the seat is at the back (fraction of its width). */
  seatTaper: number;
  seatKind: ChairSeat;
  pad: boolean;
  padThickness: number;
  legKind: LegKind;
  legThickness: number;
  postSize: number;
  roundPosts: boolean;
  backKind: ChairBack;
  /** Slats or spindles. */
  backCount: number;
  /** Height of a solid panel or top rail. */
  backPanelHeight: number;
  /** How far the back leans, metres per metre above the seat. */
  recline: number;
  /** How far the back bows back at its middle. */
  bow: number;
  /** Upholstered backs: wrapped round the posts (luxury) or framed between them, its top arched by `arch`. */
  wrapPosts: boolean;
  arch: number;
  tufted: boolean;
  apron: boolean;
  stretchers: boolean;
  softness: number;
  sag: number;
  materials: { frame: Material; seat: Material; upholstery: Material; cane: Material };
}

const CHAIR_BACKS: Record<string, readonly (readonly [ChairBack, number])[]> = {
  modern: [['solid', 3], ['slats', 1], ['upholstered', 1]],
  contemporary: [['solid', 2], ['upholstered', 2], ['slats', 1]],
  scandinavian: [['slats', 3], ['spindles', 2]],
  minimalist: [['solid', 3], ['slats', 2]],
  industrial: [['solid', 3], ['slats', 2]],
  japandi: [['slats', 3], ['cane', 1]],
  mid_century_modern: [['solid', 2], ['slats', 2]],
  bohemian: [['cane', 2], ['spindles', 2]],
  farmhouse: [['spindles', 3], ['slats', 1]],
  coastal: [['slats', 2], ['cane', 2]],
  traditional: [['spindles', 3], ['slats', 1], ['upholstered', 1]],
  luxury: [['upholstered', 1]],
  art_deco: [['upholstered', 1]],
  rustic: [['slats', 2], ['spindles', 2]],
  mediterranean: [['spindles', 2], ['cane', 2]],
  parisian: [['upholstered', 3], ['cane', 1]],
};

/** Chairs have no plinth, and a bun foot is a turned leg on a chair. */
function chairLegKind(kind: LegKind): LegKind {
  if (kind === 'plinth') return 'block';
  if (kind === 'bun') return 'turned';
  return kind;
}

const CHAIR_LEG_THICKNESS: Record<LegKind, readonly [number, number]> = {
  tapered: [0.032, 0.042],
  splayed: [0.032, 0.04],
  turned: [0.036, 0.045],
  bun: [0.036, 0.045],
  cabriole: [0.034, 0.042],
  block: [0.034, 0.045],
  'metal-square': [0.06, 0.08],
  hairpin: [0.05, 0.06],
  sled: [0.009, 0.011],
  plinth: [0.034, 0.045],
};

function sampleChair(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): ChairParams {
  const kind = id === 'dining_chair' ? 'dining' : id === 'kitchen_chair' ? 'kitchen' : id === 'garden_chair' ? 'garden' : undefined;
  if (!kind) throw new Error(`side chairs do not build ${id}`);
  const r = random;
  let width = kind === 'dining' ? r.uniform(0.42, 0.5) : kind === 'kitchen' ? r.uniform(0.4, 0.46) : r.uniform(0.46, 0.56);
  let depth = kind === 'dining' ? r.uniform(0.5, 0.58) : kind === 'kitchen' ? r.uniform(0.47, 0.54) : r.uniform(0.52, 0.6);
  const seatHeight = kind === 'garden' ? r.uniform(0.43, 0.46) : kind === 'kitchen' ? r.uniform(0.44, 0.47) : r.uniform(0.44, 0.48);
  let height = kind === 'dining' ? r.uniform(0.8, 0.95) : kind === 'kitchen' ? r.uniform(0.78, 0.9) : r.uniform(0.8, 0.92);
  width = capped(width, limits?.maxWidth, 0.38);
  depth = capped(depth, limits?.maxDepth, 0.45);
  height = capped(height, limits?.maxHeight, seatHeight + 0.3);

  let legKind: LegKind;
  let backKind: ChairBack;
  let seatKind: ChairSeat;
  let frame: Material;
  let cane: Material = RATTAN_CANE;
  let pad: boolean;
  if (kind === 'garden') {
    const outdoor = pickOutdoorFrame(style, r);
    if (outdoor === 'teak') {
      legKind = 'block';
      backKind = 'slats';
      seatKind = 'slatted';
      frame = outdoorFrameMaterial('teak', style, r);
    } else if (outdoor === 'aluminium') {
      legKind = 'metal-square';
      backKind = 'slats';
      seatKind = 'slatted';
      frame = outdoorFrameMaterial('aluminium', style, r);
    } else {
      legKind = 'tapered';
      backKind = 'cane';
      seatKind = 'woven';
      frame = r.chance(0.6) ? TEAK : r.pick(style.woods);
      cane = outdoorFrameMaterial('rattan', style, r);
    }
    pad = r.chance(0.4);
  } else {
    legKind = chairLegKind(r.pick(style.legs));
    backKind = r.weighted(CHAIR_BACKS[style.id] ?? [['slats', 1]]);
    const painted = style.cases.filter((m) => m.kind === 'painted-wood');
    frame = WOODEN_LEGS.has(legKind) && painted.length > 0 && r.chance(0.3) ? r.pick(painted) : legMaterial(legKind, style, r);
    const metalFrame = !WOODEN_LEGS.has(legKind);
    if (backKind === 'upholstered') seatKind = 'upholstered';
    else if (metalFrame && backKind === 'solid' && style.id === 'industrial' && r.chance(0.6)) seatKind = 'metal';
    else if (backKind === 'cane' && r.chance(0.5)) seatKind = 'woven';
    else seatKind = 'wood';
    pad = seatKind === 'wood' && r.chance(0.35);
    const styledCane = [...style.cases, ...style.accents].filter((m) => m.kind === 'rattan');
    if (styledCane.length > 0) cane = r.pick(styledCane);
  }
  const [t0, t1] = CHAIR_LEG_THICKNESS[legKind];
  const legThickness = r.uniform(t0, t1);
  const metalLegs = !WOODEN_LEGS.has(legKind);
  const seatThickness =
    seatKind === 'upholstered' ? r.uniform(0.07, 0.1) : seatKind === 'metal' ? 0.012 : seatKind === 'woven' ? r.uniform(0.035, 0.045) : backKind === 'spindles' ? r.uniform(0.035, 0.045) : r.uniform(0.02, 0.032);
  const postSize = metalLegs ? r.uniform(0.018, 0.024) : clamp(legThickness * r.uniform(0.8, 0.95), 0.026, 0.04);
  const roundPosts = legKind === 'turned' || legKind === 'splayed' || legKind === 'cabriole' || legKind === 'hairpin' || legKind === 'sled' || backKind === 'spindles';
  const upholstery = kind === 'garden' ? outdoorFabric(r.pick(style.upholstery)) : r.pick(pad ? [...style.upholstery, ...style.accents] : style.upholstery);
  const seat = seatKind === 'upholstered' ? upholstery : seatKind === 'metal' || metalLegs ? (seatKind === 'slatted' || seatKind === 'metal' ? frame : r.pick(style.woods)) : frame;
  return {
    id,
    styleId: style.id,
    kind,
    width: mm(width),
    depth: mm(depth),
    height: mm(height),
    seatHeight: mm(seatHeight),
    seatThickness: mm(seatThickness),
    seatTaper: kind === 'garden' || seatKind === 'metal' ? 0 : mm(r.uniform(0.03, 0.1)),
    seatKind,
    pad,
    padThickness: mm(r.uniform(0.03, 0.045)),
    legKind,
    legThickness: mm(legThickness),
    postSize: mm(postSize),
    roundPosts,
    backKind,
    backCount: backKind === 'spindles' ? r.int(4, 7) : backKind === 'slats' ? r.int(2, 4) : 1,
    backPanelHeight: mm(backKind === 'solid' ? r.uniform(0.16, 0.28) : r.uniform(0.055, 0.085)),
    recline: mm(r.uniform(0.08, 0.15)),
    bow: mm(backKind === 'upholstered' ? r.uniform(0.0, 0.012) : r.uniform(0.01, 0.03)),
    wrapPosts: backKind === 'upholstered' && style.id !== 'parisian' && style.id !== 'traditional',
    arch: mm(backKind === 'upholstered' && (style.id === 'parisian' || style.id === 'traditional') ? r.uniform(0.03, 0.06) : 0),
    tufted: backKind === 'upholstered' && style.tufted && r.chance(0.6),
    apron: seatKind !== 'metal' && legKind !== 'sled' && legKind !== 'hairpin',
    stretchers: (legKind === 'turned' || legKind === 'block' || legKind === 'tapered') && (['farmhouse', 'traditional', 'rustic', 'mediterranean', 'coastal'].includes(style.id) || r.chance(0.25)),
    softness: clamp(style.softness * r.uniform(0.6, 0.9), 0.012, 0.04),
    sag: style.sag * r.uniform(0.4, 0.8),
    materials: { frame, seat, upholstery, cane },
  };
}

interface ChairLayout {
  /** Underside and top of the seat board (the board top is under the pad). */
  zs: number;
  boardTop: number;
  /** Post centres (x = ±xr, y = yp at seat level) and how far the back reaches behind them. */
  xr: number;
  yp: number;
  backReach: number;
  xf: number;
  yf: number;
  slope: number;
  seatBack: number;
}

function chairLayout(p: ChairParams): ChairLayout {
  const padT = p.pad ? p.padThickness : 0;
  const boardTop = p.seatHeight - padT;
  const zs = boardTop - p.seatThickness;
  const ph = p.postSize / 2;
  const reach = p.legKind === 'sled' ? p.legThickness : legReach(p.legKind, zs, p.legThickness);
  // How far the back reaches behind the post centres: the posts, or a bowed rail (half its thickness behind the bow).
  const railHalf: Record<ChairBack, number> = { slats: 0.01, spindles: 0.014, cane: 0.011, solid: -ph - 0.002, upholstered: -Infinity };
  const backReach = Math.max(ph, p.bow + railHalf[p.backKind]);
  // The back may not lean less than a splayed rear foot reaches behind the post.
  const slope = Math.max(p.recline, (reach - backReach + 0.004) / (p.height - zs));
  const yp = p.depth / 2 - backReach - (p.height - zs) * slope;
  const backHalf = (p.width / 2) * (1 - p.seatTaper);
  const xr = backHalf - Math.max(reach, ph) - 0.006;
  return {
    zs,
    boardTop,
    xr,
    yp,
    backReach,
    xf: p.width / 2 - reach - 0.008,
    yf: -p.depth / 2 + reach + 0.008,
    slope,
    seatBack: yp + ph,
  };
}

function buildChair(p: ChairParams): PieceGeometry {
  const L = chairLayout(p);
  const W = p.width;
  const D = p.depth;
  const SH = p.seatHeight;
  const ph = p.postSize / 2;
  const parts: PiecePart[] = [];
  const y0 = -D / 2;
  const y1 = L.seatBack;
  const taper = (m: Mesh): Mesh => deform(m, ([x, y, z]) => [x * (1 - p.seatTaper * clamp01((y - y0) / (y1 - y0))), y, z]);
  const woodFrame = p.materials.frame.kind === 'wood' || p.materials.frame.kind === 'painted-wood';
  const frameGrain = woodFrame ? ('z' as const) : undefined;

  // Seat.
  if (p.seatKind === 'upholstered') {
    parts.push(part('seat', taper(cushion([-W / 2, y0, L.zs], [W / 2, y1, SH], p.softness, p.sag)), 'upholstery'));
  } else if (p.seatKind === 'slatted') {
    const boards: Mesh[] = [];
    const n = Math.max(4, Math.round((y1 - y0) / 0.085));
    const pitch = (y1 - y0) / n;
    for (let k = 0; k < n; k++) {
      boards.push(roundedBoxBetween([-W / 2, y0 + k * pitch, L.zs], [W / 2, y0 + (k + 1) * pitch - 0.008, L.boardTop], 0.004, 2));
    }
    parts.push(part('seat', merge(...boards), 'seat', woodFrame ? 'x' : undefined));
  } else {
    const edge = p.seatKind === 'metal' ? 0.004 : Math.min(0.012, p.seatThickness * 0.35);
    const board = roundedBoxBetween([-W / 2, y0, L.zs], [W / 2, y1, L.boardTop], edge, 3);
    parts.push(part('seat', taper(board), p.seatKind === 'woven' ? 'cane' : 'seat', p.seatKind === 'wood' ? 'x' : undefined));
  }
  if (p.pad) {
    parts.push(part('seat-pad', taper(cushion([-W / 2 + 0.02, y0 + 0.015, L.boardTop - 0.002], [W / 2 - 0.02, y1 - ph * 2 - 0.01, SH], 0.015, p.sag)), 'upholstery'));
  }

  // Legs.
  const legTop = L.zs + 0.002;
  const legMeshes: Mesh[] = [];
  if (p.legKind === 'sled') {
    const rr = p.legThickness;
    const yFront = y0 + rr + 0.02;
    const depth = L.yp - yFront;
    legMeshes.push(translate(sledBase(2 * L.xr, depth, legTop, rr), [0, yFront + depth / 2, 0]));
  } else {
    for (const sx of [-1, 1]) {
      legMeshes.push(standingLeg(p.legKind, { x: sx * L.xf, y: L.yf, outward: [sx / Math.SQRT2, -1 / Math.SQRT2] }, legTop, p.legThickness));
      legMeshes.push(standingLeg(p.legKind, { x: sx * L.xr, y: L.yp, outward: [sx / Math.SQRT2, 1 / Math.SQRT2] }, legTop, p.legThickness));
    }
  }
  parts.push(part('legs', merge(...legMeshes), 'frame', frameGrain));

  // Apron rails under the seat and low stretchers: across (grain along X) and along the sides (along Y).
  const across: Mesh[] = [];
  const along: Mesh[] = [];
  if (p.apron) {
    const ah = woodFrame ? 0.06 : 0.03;
    const at = woodFrame ? 0.02 : 0.012;
    const za = L.zs - ah;
    across.push(sweptBoard([[-L.xf, L.yf], [L.xf, L.yf]], at, za, L.zs + 0.001));
    across.push(sweptBoard([[-L.xr, L.yp], [L.xr, L.yp]], at, za, L.zs + 0.001));
    for (const sx of [-1, 1]) along.push(sweptBoard([[sx * L.xf, L.yf], [sx * L.xr, L.yp]], at, za, L.zs + 0.001));
  }
  if (p.stretchers) {
    const rr = woodFrame ? 0.009 : 0.007;
    const zst = clamp(L.zs * 0.35, 0.12, 0.18);
    for (const sx of [-1, 1]) along.push(rod([sx * L.xf, L.yf, zst], [sx * L.xr, L.yp, zst], rr));
    const ym = (L.yf + L.yp) / 2;
    const xm = (L.xf + L.xr) / 2;
    across.push(rod([-xm, ym, zst + 0.03], [xm, ym, zst + 0.03], rr));
  }
  if (across.length > 0) parts.push(part('rails', merge(...across), 'frame', woodFrame ? 'x' : undefined));
  if (along.length > 0) parts.push(part('side-rails', merge(...along), 'frame', woodFrame ? 'y' : undefined));

  // The back, built upright around the posts and then reclined.
  const back = chairBack(p, L);
  for (const piece of back) parts.push({ ...piece, mesh: shearY(piece.mesh, L.zs, L.slope) });

  const materials: Record<string, Material> = { frame: p.materials.frame };
  const used = new Set(parts.map((q) => q.material));
  if (used.has('seat')) materials.seat = p.materials.seat;
  if (used.has('upholstery')) materials.upholstery = p.materials.upholstery;
  if (used.has('cane')) materials.cane = p.materials.cane;
  return { parts, materials };
}

function chairBack(p: ChairParams, L: ChairLayout): PiecePart[] {
  const H = p.height;
  const SH = p.seatHeight;
  const ph = p.postSize / 2;
  const xr = L.xr;
  const yp = L.yp;
  const woodFrame = p.materials.frame.kind === 'wood' || p.materials.frame.kind === 'painted-wood';
  const out: PiecePart[] = [];
  const postTop = p.backKind === 'solid' ? H - 0.012 : H;
  const post = (x: number, top: number): Mesh =>
    p.roundPosts
      ? translate(cylinder(ph * 0.85, ph, L.zs - 0.03, top, 12, 0.003), [x, yp, 0])
      : roundedBoxBetween([x - ph, yp - ph, L.zs - 0.03], [x + ph, yp + ph, top], 0.004, 2);
  const wrapped = p.backKind === 'upholstered' && p.wrapPosts;
  out.push(part('posts', merge(post(-xr, wrapped ? H - 0.02 : postTop), post(xr, wrapped ? H - 0.02 : postTop)), 'frame', woodFrame ? 'z' : undefined));
  const railGrain = woodFrame ? ('x' as const) : undefined;
  const zLow = SH + (H - SH) * 0.38;
  switch (p.backKind) {
    case 'slats': {
      const hr = p.backPanelHeight;
      const boards: Mesh[] = [sweptBoard(bowLine(xr + ph, xr, yp, p.bow), 0.02, H - hr, H)];
      const n = p.backCount - 1;
      const slatH = 0.045;
      const span = H - hr - 0.03 - zLow;
      for (let k = 0; k < n; k++) {
        const z0 = zLow + (n === 1 ? span * 0.35 : (span - slatH) * (k / Math.max(1, n - 1)));
        boards.push(sweptBoard(bowLine(xr, xr, yp, p.bow), 0.018, z0, z0 + slatH));
      }
      out.push(part('back-slats', merge(...boards), 'frame', railGrain));
      break;
    }
    case 'spindles': {
      const hr = p.backPanelHeight;
      out.push(part('top-rail', sweptBoard(bowLine(xr + ph + 0.01, xr, yp, p.bow), 0.028, H - hr, H), 'frame', railGrain));
      const spindles: Mesh[] = [];
      const rs = 0.0085;
      const z0 = L.boardTop - 0.01;
      const len = H - hr + 0.012 - z0;
      for (let i = 0; i < p.backCount; i++) {
        const x = -xr + (2 * xr * (i + 1)) / (p.backCount + 1);
        const y = yp + p.bow * (1 - (x / xr) ** 2);
        const turned = lathe([[rs * 0.8, 0], [rs, len * 0.18], [rs * 1.3, len * 0.42], [rs * 0.95, len * 0.7], [rs * 0.8, len]], 10);
        spindles.push(translate(turned, [x, y, z0]));
      }
      out.push(part('spindles', merge(...spindles), 'frame', woodFrame ? 'z' : undefined));
      break;
    }
    case 'solid': {
      const thick = 0.016;
      const line = bowLine(xr + ph, xr, yp - ph - thick / 2 - 0.002, p.bow);
      out.push(part('back-panel', sweptBoard(line, thick, H - p.backPanelHeight, H), p.seatKind === 'metal' ? 'frame' : 'seat', railGrain));
      break;
    }
    case 'cane': {
      const hr = p.backPanelHeight;
      out.push(part('back-rails', merge(sweptBoard(bowLine(xr + ph, xr, yp, p.bow), 0.022, H - hr, H), sweptBoard(bowLine(xr, xr, yp, p.bow), 0.022, zLow - 0.035, zLow)), 'frame', railGrain));
      out.push(part('back-cane', sweptBoard(bowLine(xr, xr, yp, p.bow), 0.01, zLow - 0.005, H - hr + 0.005), 'cane', 'z'));
      break;
    }
    case 'upholstered': {
      const puff = p.tufted ? 0.006 : clamp(p.softness * 0.5, 0.006, 0.018);
      const radius = clamp(p.softness, 0.01, 0.03);
      let x0: number;
      let x1: number;
      let z0: number;
      let z1: number;
      let thick: number;
      let backY: number;
      if (p.wrapPosts) {
        x0 = -xr - ph - 0.004;
        x1 = xr + ph + 0.004;
        z0 = L.boardTop + 0.05;
        z1 = H;
        thick = 2 * ph + 0.03;
        backY = yp + ph;
      } else {
        x0 = -xr + ph * 0.5;
        x1 = xr - ph * 0.5;
        z0 = SH + 0.1;
        z1 = H - 0.015 - p.arch;
        thick = 0.05;
        backY = yp + ph * 0.5;
      }
      let pad = uprightCushion(x0, x1, z0, z1, thick, radius, puff);
      if (p.arch > 0) {
        const zm = (z0 + z1) / 2;
        const half = (x1 - x0) / 2;
        pad = deform(pad, ([x, y, z]) => [x, y, z + p.arch * (1 - (x / half) ** 2) * clamp01((z - zm) / (z1 - zm))]);
      }
      pad = translate(pad, [0, backY, 0]);
      out.push(part('back-pad', pad, 'upholstery'));
      if (p.tufted) {
        const cols = Math.max(2, Math.round((x1 - x0) / 0.11));
        const rows = Math.max(2, Math.round((z1 - z0) / 0.12));
        out.push(part('tufting', tuftButtons(x0 + 0.04, x1 - 0.04, z0 + 0.05, z1 - 0.05, backY - thick - puff * 0.7, cols, rows), 'upholstery'));
      }
      break;
    }
  }
  return out;
}

function chairFootprint(p: ChairParams): Footprint {
  return { width: p.width, depth: p.depth, height: p.height, placement: 'floor', elevation: 0, frontClearance: p.kind === 'kitchen' ? 0.4 : 0.45 };
}

export const sideChairs = defineGenerator<ChairParams>({
  ids: ['dining_chair', 'kitchen_chair', 'garden_chair'],
  sample: sampleChair,
  footprint: chairFootprint,
  build: buildChair,
});

// ---------------------------------------------------------------------------------------------------------------
// Office and gaming chairs
// ---------------------------------------------------------------------------------------------------------------

export interface SwivelParams {
  id: string;
  styleId: string;
  kind: 'office' | 'gaming';
  seatHeight: number;
  seatWidth: number;
  seatDepth: number;
  seatThickness: number;
  /** Top of the backrest. */
  height: number;
  backWidth: number;
  backThickness: number;
  backBottom: number;
  backKind: 'padded' | 'mesh' | 'racing';
  recline: number;
  lumbar: number;
  curve: number;
  starRadius: number;
  wheelRadius: number;
  armrests: boolean;
  armHeight: number;
  pillows: boolean;
  materials: { upholstery: Material; accent: Material; base: Material; plastic: Material; mesh: Material };
}

function sampleSwivel(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): SwivelParams {
  const kind = id === 'office_chair' ? 'office' : id === 'gaming_chair' ? 'gaming' : undefined;
  if (!kind) throw new Error(`swivel chairs do not build ${id}`);
  const r = random;
  const gaming = kind === 'gaming';
  const seatHeight = gaming ? r.uniform(0.46, 0.52) : r.uniform(0.44, 0.52);
  let height = gaming ? r.uniform(1.25, 1.38) : r.uniform(0.95, 1.15);
  height = capped(height, limits?.maxHeight, seatHeight + 0.4);
  const seatWidth = gaming ? r.uniform(0.52, 0.56) : r.uniform(0.47, 0.52);
  const modernish = ['modern', 'contemporary', 'minimalist', 'industrial', 'scandinavian', 'japandi'].includes(style.id);
  const backKind = gaming ? 'racing' : modernish && r.chance(0.55) ? 'mesh' : 'padded';
  const upholsteryBase = r.pick(style.upholstery);
  const accentBase = r.pick(style.accents);
  const upholstery: Material = gaming ? { kind: 'leather', color: mixHex(upholsteryBase.color, '#111111', 0.65), roughness: 0.45, scale: 0.01 } : upholsteryBase;
  const accent: Material = gaming ? { kind: 'leather', color: accentBase.color, roughness: 0.45, scale: 0.01 } : accentBase;
  const light = ['scandinavian', 'minimalist', 'coastal', 'japandi'].includes(style.id) && r.chance(0.5);
  // A star of 0.30–0.36 m radius; armrests widen the chair up to about 0.65 m.
  const starRadius = capped(gaming ? r.uniform(0.33, 0.36) : r.uniform(0.3, 0.34), limits?.maxWidth === undefined ? undefined : limits.maxWidth / 2 - 0.04, 0.27);
  return {
    id,
    styleId: style.id,
    kind,
    seatHeight: mm(seatHeight),
    seatWidth: mm(seatWidth),
    seatDepth: mm(gaming ? r.uniform(0.5, 0.54) : r.uniform(0.46, 0.5)),
    seatThickness: mm(gaming ? r.uniform(0.08, 0.1) : r.uniform(0.065, 0.085)),
    height: mm(height),
    backWidth: mm(gaming ? r.uniform(0.52, 0.56) : r.uniform(0.44, 0.5)),
    backThickness: mm(gaming ? r.uniform(0.1, 0.13) : backKind === 'mesh' ? 0.026 : r.uniform(0.055, 0.075)),
    backBottom: mm(seatHeight + (gaming ? r.uniform(0.02, 0.05) : r.uniform(0.06, 0.1))),
    backKind,
    recline: mm(gaming ? r.uniform(0.14, 0.2) : r.uniform(0.1, 0.17)),
    lumbar: mm(backKind === 'racing' ? 0 : r.uniform(0.015, 0.03)),
    curve: mm(backKind === 'racing' ? 0.01 : r.uniform(0.02, 0.04)),
    starRadius: mm(starRadius),
    wheelRadius: mm(gaming ? r.uniform(0.03, 0.035) : r.uniform(0.025, 0.03)),
    armrests: gaming || r.chance(0.85),
    armHeight: mm(seatHeight + r.uniform(0.2, 0.25)),
    pillows: gaming && r.chance(0.7),
    materials: {
      upholstery,
      accent,
      base: r.chance(0.5) ? r.pick(style.metals) : plain('plastic', light ? '#E4E4E2' : '#1E1E1E', 0.45),
      plastic: plain('plastic', light ? '#E4E4E2' : '#1E1E1E', 0.45),
      mesh: fabric('fabric', light ? '#BDBAB4' : '#2A2A2A', 0.8),
    },
  };
}

interface SwivelLayout {
  seatY0: number;
  seatY1: number;
  backFaceY: number;
  armY: number;
  armOuter: number;
  xMax: number;
  yMin: number;
  yMax: number;
  tipBottom: number;
  armThickness: number;
  drop: number;
}

const STAR_ARMS = 5;
const starAngle = (k: number): number => Math.PI / 2 + (2 * Math.PI * k) / STAR_ARMS;

function swivelLayout(p: SwivelParams): SwivelLayout {
  const seatCy = -0.03;
  const seatY0 = seatCy - p.seatDepth / 2;
  const seatY1 = seatCy + p.seatDepth / 2;
  const backFaceY = seatY1 - 0.03 + p.backThickness;
  const armOuter = p.armrests ? (p.kind === 'gaming' ? p.seatWidth / 2 + 0.055 : p.seatWidth / 2 + 0.065) : 0;
  // The star's outline seen from above: arm tips and twin wheels at the end of each arm.
  const R = p.starRadius;
  const rw = p.wheelRadius;
  const Rw = R - 0.012;
  const local: [number, number][] = [
    [R, 0.016],
    [R, -0.016],
    [Rw + rw, 0.024],
    [Rw + rw, -0.024],
    [Rw - rw, 0.024],
    [Rw - rw, -0.024],
  ];
  let sx = 0;
  let sy0 = 0;
  let sy1 = 0;
  for (let k = 0; k < STAR_ARMS; k++) {
    const a = starAngle(k);
    for (const [x, y] of local) {
      const wx = x * Math.cos(a) - y * Math.sin(a);
      const wy = x * Math.sin(a) + y * Math.cos(a);
      sx = Math.max(sx, Math.abs(wx));
      sy0 = Math.min(sy0, wy);
      sy1 = Math.max(sy1, wy);
    }
  }
  // The back's top edge is rounded: its rearmost point is where the rounding starts.
  const topRound = p.backKind === 'racing' ? 0.035 : p.backKind === 'mesh' ? 0.013 : 0.025;
  const backTop = backFaceY + (p.height - topRound - p.seatHeight) * p.recline;
  return {
    seatY0,
    seatY1,
    backFaceY,
    armY: seatCy + 0.03,
    armOuter,
    xMax: Math.max(sx, p.seatWidth / 2, armOuter, p.backWidth / 2),
    yMin: Math.min(sy0, seatY0),
    yMax: Math.max(sy1, backTop),
    tipBottom: 2 * rw + 0.02,
    armThickness: 0.035,
    drop: 0.02,
  };
}

function buildSwivel(p: SwivelParams): PieceGeometry {
  const L = swivelLayout(p);
  const SH = p.seatHeight;
  const H = p.height;
  const st = p.seatThickness;
  const parts: PiecePart[] = [];
  const gaming = p.kind === 'gaming';

  // Five-star base with twin-wheel casters.
  const R = p.starRadius;
  const rw = p.wheelRadius;
  const Rw = R - 0.012;
  const tipZ = L.tipBottom + L.armThickness / 2;
  const rootZ = tipZ + L.drop;
  const arms: Mesh[] = [];
  const wheels: Mesh[] = [];
  const hoods: Mesh[] = [];
  const armMesh = deform(roundedBoxBetween([0.02, -0.024, rootZ - L.armThickness / 2], [R, 0.024, rootZ + L.armThickness / 2], 0.008, 2, [4, 1, 1]), ([x, y, z]) => {
    const s = clamp01(x / R);
    return [x, y * (1 - 0.33 * s), z - L.drop * s];
  });
  const wheel = (y: number): Mesh => translate(rotate(cylinder(rw, rw, -0.007, 0.007, 16, 0.003), 'x', Math.PI / 2), [Rw, y, rw]);
  const hood = merge(
    roundedBoxBetween([Rw - rw * 0.7, -0.0095, rw * 0.7], [Rw + rw * 0.7, 0.0095, 2 * rw + 0.008], 0.006, 2),
    cylinder(0.007, 0.007, 2 * rw + 0.004, L.tipBottom + 0.006, 10),
  );
  for (let k = 0; k < STAR_ARMS; k++) {
    const a = starAngle(k);
    arms.push(rotate(armMesh, 'z', a));
    wheels.push(rotate(merge(wheel(0.017), wheel(-0.017)), 'z', a));
    hoods.push(rotate(hood, 'z', a));
  }
  const hubTop = rootZ + 0.03;
  parts.push(part('star-base', merge(cylinder(0.045, 0.04, rootZ - 0.03, hubTop, 20, 0.006), ...arms), 'base'));
  parts.push(part('casters', merge(...wheels, ...hoods), 'plastic'));

  // Gas column under the seat mechanism.
  const mechBottom = SH - st - 0.02 - 0.05;
  const shroudTop = hubTop + Math.min(0.13, (mechBottom - hubTop) * 0.6);
  parts.push(part('gas-column', merge(cylinder(0.026, 0.024, hubTop - 0.005, shroudTop, 16, 0.003), cylinder(0.014, 0.014, shroudTop - 0.01, mechBottom + 0.005, 12)), 'plastic'));
  parts.push(part('column-chrome', cylinder(0.0145, 0.0145, shroudTop + 0.002, mechBottom - 0.002, 12), 'base'));
  const mech = roundedBoxBetween([-0.11, -0.12, mechBottom], [0.11, 0.1, SH - st - 0.015], 0.01, 2);
  const pan = roundedBoxBetween([-p.seatWidth / 2 + 0.015, L.seatY0 + 0.015, SH - st - 0.022], [p.seatWidth / 2 - 0.015, L.seatY1 - 0.015, SH - st + 0.01], 0.008, 2);
  parts.push(part('seat-shell', merge(mech, pan), 'plastic'));

  // Seat.
  const sw = p.seatWidth;
  if (gaming) {
    parts.push(part('seat', cushion([-sw / 2 + 0.08, L.seatY0, SH - st], [sw / 2 - 0.08, L.seatY1, SH], 0.03, 0.01), 'upholstery'));
    const bolster = (sx: number): Mesh => {
      const box = roundedBoxBetween([sx > 0 ? sw / 2 - 0.095 : -sw / 2, L.seatY0 + 0.01, SH - st], [sx > 0 ? sw / 2 : -sw / 2 + 0.095, L.seatY1, SH + 0.04], 0.03, 3);
      // The bolster slopes down towards the front.
      return deform(box, ([x, y, z]) => [x, y, z - 0.035 * clamp01((L.seatY0 + 0.2 - y) / 0.2) * clamp01((z - (SH - st)) / (st + 0.04))]);
    };
    parts.push(part('seat-bolsters', merge(bolster(-1), bolster(1)), 'accent'));
  } else {
    const seat = cushion([-sw / 2, L.seatY0, SH - st], [sw / 2, L.seatY1, SH], 0.035, 0.008);
    // Waterfall front edge: rounds down over the knees.
    const waterfall = deform(seat, ([x, y, z]) => [x, y, z - 0.025 * clamp01((L.seatY0 + 0.07 - y) / 0.07) ** 2 * clamp01((z - (SH - st)) / st)]);
    parts.push(part('seat', waterfall, 'upholstery'));
  }

  // Backrest.
  const bw = p.backWidth;
  const bt = p.backThickness;
  const zb0 = p.backBottom;
  const yBF = L.backFaceY;
  const zl = SH + 0.2;
  const lumbarCurve = (m: Mesh): Mesh =>
    deform(m, ([x, y, z]) => [x, y - p.lumbar * Math.exp(-(((z - zl) / 0.09) ** 2)) - p.curve * (x / (bw / 2)) ** 2, z]);
  const widthAt = (z: number): number => {
    const t = clamp01((z - zb0) / (H - zb0));
    if (!gaming) return 0.86 + 0.14 * t;
    if (t < 0.3) return 0.88;
    if (t < 0.55) return 0.88 + (0.12 * (t - 0.3)) / 0.25;
    if (t < 0.76) return 1;
    if (t < 0.84) return 1 - (0.4 * (t - 0.76)) / 0.08;
    return 0.6;
  };
  const shape = (m: Mesh): Mesh => shearY(lumbarCurve(deform(m, ([x, y, z]) => [x * widthAt(z), y, z])), SH, p.recline);
  const backParts: PiecePart[] = [];
  if (p.backKind === 'mesh') {
    const rt = 0.013;
    const y = yBF - rt;
    const loop = filletedTubeLoop(
      [
        [-bw / 2 + rt, y, zb0 + rt],
        [bw / 2 - rt, y, zb0 + rt],
        [bw / 2 - rt, y, H - rt],
        [-bw / 2 + rt, y, H - rt],
      ],
      rt,
      0.06,
    );
    backParts.push(part('back-frame', loop, 'plastic'));
    backParts.push(part('back-mesh', roundedBoxBetween([-bw / 2 + rt, y - 0.003, zb0 + rt], [bw / 2 - rt, y + 0.003, H - rt], 0.002, 1, [6, 1, 8]), 'mesh'));
  } else {
    const panel = roundedBoxBetween([-bw / 2, yBF - bt, zb0], [bw / 2, yBF, H], gaming ? 0.035 : 0.025, 3, [6, 1, gaming ? 16 : 8]);
    backParts.push(part('back', panel, 'upholstery'));
    if (gaming) {
      const z1 = zb0 + (H - zb0) * 0.72;
      const wing = (sx: number): Mesh =>
        roundedBoxBetween([sx > 0 ? bw * 0.49 - 0.075 : -bw * 0.49, yBF - bt - 0.065, zb0 + 0.04], [sx > 0 ? bw * 0.49 : -bw * 0.49 + 0.075, yBF - bt + 0.03, z1], 0.028, 3);
      backParts.push(part('back-wings', merge(wing(-1), wing(1)), 'accent'));
      const stripe = (sx: number): Mesh => roundedBoxBetween([sx * bw * 0.2 - 0.013, yBF - bt - 0.004, zb0 + 0.12], [sx * bw * 0.2 + 0.013, yBF - bt + 0.01, z1], 0.004, 1);
      backParts.push(part('back-stripes', merge(stripe(-1), stripe(1)), 'accent'));
      if (p.pillows) {
        const neck = translate(throwPillow(0.26, 0.07, 0.14), [0, yBF - bt - 0.03, zb0 + (H - zb0) * 0.87]);
        const lumbarPillow = translate(throwPillow(0.32, 0.08, 0.19), [0, yBF - bt - 0.035, SH + 0.17]);
        backParts.push(part('pillows', merge(neck, lumbarPillow), 'upholstery'));
      }
    }
  }
  for (const q of backParts) parts.push({ ...q, mesh: shape(q.mesh) });
  // The spine joining the seat to the backrest.
  const spine = shearY(
    merge(
      roundedBoxBetween([-0.03, L.seatY1 - 0.12, SH - st - 0.05], [0.03, yBF - 0.012, SH - st - 0.015], 0.006, 2),
      roundedBoxBetween([-0.03, yBF - 0.032, SH - st - 0.05], [0.03, yBF - 0.008, zb0 + 0.14], 0.006, 2),
    ),
    SH,
    p.recline,
  );
  parts.push(part('back-spine', spine, 'plastic'));

  // Armrests.
  if (p.armrests) {
    const armParts: Mesh[] = [];
    const pads: Mesh[] = [];
    for (const sx of [-1, 1]) {
      const x = sx * (L.armOuter - (gaming ? 0.045 : 0.04));
      if (gaming) {
        armParts.push(roundedBoxBetween([x - 0.025, L.armY - 0.04, SH - st - 0.04], [x + 0.025, L.armY + 0.035, p.armHeight - 0.02], 0.008, 2));
        armParts.push(roundedBoxBetween([Math.min(x, sx * (sw / 2 - 0.1)), L.armY - 0.03, SH - st - 0.05], [Math.max(x, sx * (sw / 2 - 0.1)), L.armY + 0.03, SH - st - 0.02], 0.006, 2));
      } else {
        armParts.push(rod([sx * (sw / 2 - 0.08), L.armY, SH - st - 0.03], [x, L.armY, SH - st - 0.03], 0.012));
        armParts.push(rod([x, L.armY, SH - st - 0.042], [x, L.armY, p.armHeight - 0.02], 0.012));
      }
      const half = gaming ? 0.045 : 0.04;
      pads.push(roundedBoxBetween([x - half, L.armY - 0.13, p.armHeight - 0.028], [x + half, L.armY + 0.13, p.armHeight], 0.012, 2));
    }
    parts.push(part('armrests', merge(...armParts), gaming ? 'plastic' : 'base'), part('arm-pads', merge(...pads), 'plastic'));
  }

  const shift = -(L.yMin + L.yMax) / 2;
  const moved = parts.map((q) => ({ ...q, mesh: translate(q.mesh, [0, shift, 0]) }));
  const materials: Record<string, Material> = { upholstery: p.materials.upholstery, base: p.materials.base, plastic: p.materials.plastic };
  if (gaming) materials.accent = p.materials.accent;
  if (p.backKind === 'mesh') materials.mesh = p.materials.mesh;
  return { parts: moved, materials };
}

function swivelFootprint(p: SwivelParams): Footprint {
  const L = swivelLayout(p);
  return { width: 2 * L.xMax, depth: L.yMax - L.yMin, height: p.height, placement: 'floor', elevation: 0, frontClearance: 0.6 };
}

export const swivelChairs = defineGenerator<SwivelParams>({
  ids: ['office_chair', 'gaming_chair'],
  sample: sampleSwivel,
  footprint: swivelFootprint,
  build: buildSwivel,
});

// ---------------------------------------------------------------------------------------------------------------
// Bar stools
// ---------------------------------------------------------------------------------------------------------------

export interface BarStoolParams {
  id: string;
  styleId: string;
  /** Counter (0.63–0.68 m) or bar (0.73–0.78 m) seat height. */
  seatHeight: number;
  seatShape: 'round' | 'square';
  /** Diameter or side. */
  seatSize: number;
  seatThickness: number;
  seatKind: 'wood' | 'upholstered' | 'metal';
  base: 'legs' | 'pedestal' | 'sled';
  legKind: LegKind;
  legThickness: number;
  /** How far each foot steps out beyond the top of its leg, along X and Y. */
  splay: number;
  footrestHeight: number;
  back: boolean;
  backHeight: number;
  materials: { frame: Material; seat: Material };
}

function sampleBarStool(id: string, style: StyleProfile, random: Random, limits?: SizeLimits): BarStoolParams {
  if (id !== 'bar_stool') throw new Error(`bar stools do not build ${id}`);
  const r = random;
  const styleLeg = r.pick(style.legs);
  let base: BarStoolParams['base'] = styleLeg === 'plinth' ? 'pedestal' : styleLeg === 'sled' ? 'sled' : 'legs';
  if (base === 'legs' && ['modern', 'contemporary', 'luxury', 'art_deco'].includes(style.id) && r.chance(0.25)) base = 'pedestal';
  const legKind: LegKind = styleLeg === 'bun' || styleLeg === 'cabriole' ? 'turned' : styleLeg === 'plinth' || styleLeg === 'sled' ? 'metal-square' : styleLeg;
  const counter = r.chance(0.45);
  let seatHeight = counter ? r.uniform(0.63, 0.68) : r.uniform(0.73, 0.78);
  const back = r.chance(0.35);
  const backHeight = r.uniform(0.18, 0.28);
  if (limits?.maxHeight !== undefined) seatHeight = capped(seatHeight, limits.maxHeight - (back ? backHeight : 0), 0.6);
  const square = legKind === 'block' && base === 'legs' && r.chance(0.6);
  const metalFrame = base !== 'legs' || !WOODEN_LEGS.has(legKind);
  const upholstered = style.upholstery.length > 0 && r.chance(['luxury', 'art_deco', 'parisian', 'contemporary', 'traditional'].includes(style.id) ? 0.75 : 0.3);
  const seatKind: BarStoolParams['seatKind'] = upholstered ? 'upholstered' : metalFrame && style.id === 'industrial' && r.chance(0.5) ? 'metal' : 'wood';
  const frame = metalFrame ? r.pick(style.metals) : legMaterial(legKind, style, r);
  const seat = seatKind === 'upholstered' ? r.pick(style.upholstery) : seatKind === 'metal' ? frame : metalFrame ? r.pick(style.woods) : frame;
  let seatSize = square ? r.uniform(0.34, 0.4) : r.uniform(0.34, 0.42);
  if (limits?.maxWidth !== undefined) seatSize = capped(seatSize, limits.maxWidth, 0.3);
  const thickness = legKind === 'hairpin' ? 0.012 : legKind === 'metal-square' ? r.uniform(0.05, 0.07) : legKind === 'turned' ? r.uniform(0.04, 0.048) : r.uniform(0.032, 0.042);
  return {
    id,
    styleId: style.id,
    seatHeight: mm(seatHeight),
    seatShape: square ? 'square' : 'round',
    seatSize: mm(seatSize),
    seatThickness: mm(seatKind === 'upholstered' ? r.uniform(0.06, 0.085) : seatKind === 'metal' ? 0.02 : r.uniform(0.03, 0.045)),
    seatKind,
    base,
    legKind,
    legThickness: mm(thickness),
    splay: mm(base === 'legs' && (legKind === 'splayed' || legKind === 'hairpin') ? r.uniform(0.035, 0.06) : 0),
    footrestHeight: mm(seatHeight - r.uniform(0.4, 0.46)),
    back,
    backHeight: mm(backHeight),
    materials: { frame, seat },
  };
}

interface StoolLayout {
  underside: number;
  top: number;
  foot: number;
  half: number;
  ringRadius: number;
  baseRadius: number;
}

function stoolLayout(p: BarStoolParams): StoolLayout {
  const seatHalf = p.seatSize / 2;
  const underside = p.seatHeight - p.seatThickness;
  const top = seatHalf * (p.seatShape === 'round' ? 0.6 : 0.78);
  const foot = top + p.splay;
  const t = p.legThickness;
  let half = seatHalf;
  let ringRadius = 0;
  let baseRadius = 0;
  if (p.base === 'pedestal') {
    baseRadius = clamp(seatHalf + 0.02, 0.19, 0.23);
    ringRadius = 0.16;
    half = Math.max(half, baseRadius, ringRadius + 0.009);
  } else if (p.base === 'sled') {
    half = Math.max(half, top + 0.012);
  } else {
    const reach = p.splay > 0 ? (p.legKind === 'hairpin' ? 0.009 : t * 0.32) + 0.002 : legReach(p.legKind, underside, t);
    half = Math.max(half, foot + reach);
    if (p.splay > 0 && !WOODEN_LEGS.has(p.legKind)) {
      const o = foot + (top - foot) * (p.footrestHeight / underside);
      ringRadius = o * Math.SQRT2;
      half = Math.max(half, ringRadius + 0.009);
    }
  }
  return { underside, top, foot, half, ringRadius, baseRadius };
}

function buildBarStool(p: BarStoolParams): PieceGeometry {
  const L = stoolLayout(p);
  const SH = p.seatHeight;
  const zu = L.underside;
  const zf = p.footrestHeight;
  const parts: PiecePart[] = [];
  const woodFrame = p.materials.frame.kind === 'wood' || p.materials.frame.kind === 'painted-wood';
  const seatHalf = p.seatSize / 2;

  // Seat.
  if (p.seatShape === 'round') {
    const R = seatHalf;
    const e = Math.min(0.012, p.seatThickness * 0.3);
    if (p.seatKind === 'upholstered') {
      const puff = 0.012;
      const rim = SH - puff;
      const padded = lathe(
        [
          [R - 0.015, zu + 0.018],
          [R - 0.003, zu + 0.024],
          [R, zu + 0.04],
          [R, rim - 0.018],
          [R - 0.01, rim - 0.002],
          [R * 0.75, rim + puff * 0.65],
          [R * 0.4, rim + puff * 0.95],
          [0, SH],
        ],
        32,
      );
      parts.push(part('seat', padded, 'seat'));
      parts.push(part('seat-base', cylinder(R - 0.02, R - 0.015, zu, zu + 0.022, 32, 0.004), 'frame', woodFrame ? 'x' : undefined));
    } else {
      const dish = p.seatKind === 'metal' ? 0.004 : 0.007;
      // A bevelled disc whose top is dished toward the middle.
      const disc = lathe([...bevelledSide(R, R, zu, SH, e), [R * 0.6, SH - dish * 0.8], [0, SH - dish]], 32);
      parts.push(part('seat', disc, 'seat', p.seatKind === 'wood' ? 'x' : undefined));
    }
  } else {
    const S = p.seatSize;
    if (p.seatKind === 'upholstered') {
      parts.push(part('seat', cushion([-S / 2, -S / 2, zu + 0.018], [S / 2, S / 2, SH], 0.025, 0.006), 'seat'));
      parts.push(part('seat-base', roundedBoxBetween([-S / 2 + 0.015, -S / 2 + 0.015, zu], [S / 2 - 0.015, S / 2 - 0.015, zu + 0.022], 0.004, 2), 'frame', woodFrame ? 'x' : undefined));
    } else {
      parts.push(part('seat', roundedBoxBetween([-S / 2, -S / 2, zu], [S / 2, S / 2, SH], Math.min(0.01, p.seatThickness * 0.3), 3), 'seat', p.seatKind === 'wood' ? 'x' : undefined));
    }
  }

  // Base and footrest.
  const frame: Mesh[] = [];
  const footrest: Mesh[] = [];
  const legTop = zu + 0.003;
  if (p.base === 'pedestal') {
    const rb = L.baseRadius;
    frame.push(lathe([[rb - 0.012, 0], [rb, 0.008], [rb * 0.97, 0.02], [0.06, 0.034], [0.035, 0.05], [0.035, 0.06]], 32));
    frame.push(cylinder(0.025, 0.025, 0.055, zu - 0.01, 16));
    frame.push(cylinder(0.09, 0.09, zu - 0.016, zu + 0.002, 24, 0.003));
    frame.push(cylinder(0.032, 0.03, 0.055, 0.055 + Math.min(0.2, zf - 0.1), 16, 0.003));
    const ring = arcLine(0, 0, L.ringRadius, 0, 2 * Math.PI, 32).map(([x, y]) => [x, y, zf] as Vec3);
    ring[ring.length - 1] = [ring[0]![0], ring[0]![1], zf];
    footrest.push(tube(ring, 0.009, 10));
    footrest.push(rod([-L.ringRadius, 0, zf], [L.ringRadius, 0, zf], 0.007), rod([0, -L.ringRadius, zf], [0, L.ringRadius, zf], 0.007));
  } else if (p.base === 'sled') {
    const rr = 0.012;
    frame.push(sledBase(2 * L.top, 2 * L.top, legTop, rr));
    frame.push(rod([-L.top, -L.top, zu - 0.02], [L.top, -L.top, zu - 0.02], 0.01), rod([-L.top, L.top, zu - 0.02], [L.top, L.top, zu - 0.02], 0.01));
    footrest.push(rod([-L.top, -L.top, zf], [L.top, -L.top, zf], 0.011));
  } else {
    const t = p.legThickness;
    for (const sx of [-1, 1]) {
      for (const sy of [-1, 1]) {
        const top: Vec3 = [sx * L.top, sy * L.top, legTop];
        if (p.splay > 0) {
          const footAt: Vec3 = [sx * L.foot, sy * L.foot, 0];
          frame.push(p.legKind === 'hairpin' ? taperedStrut(footAt, top, 0.009, 0.009) : taperedStrut(footAt, top, t * 0.32, t / 2));
        } else {
          frame.push(standingLeg(p.legKind, { x: top[0], y: top[1], outward: [sx / Math.SQRT2, sy / Math.SQRT2] }, legTop, t));
        }
      }
    }
    const o = L.foot + (L.top - L.foot) * (zf / zu);
    if (L.ringRadius > 0) {
      const ring = arcLine(0, 0, L.ringRadius, Math.PI / 4, Math.PI / 4 + 2 * Math.PI, 32).map(([x, y]) => [x, y, zf] as Vec3);
      ring[ring.length - 1] = [ring[0]![0], ring[0]![1], zf];
      footrest.push(tube(ring, 0.009, 10));
    } else {
      const rr = woodFrame ? 0.011 : 0.009;
      footrest.push(
        rod([-o, -o, zf], [o, -o, zf], rr),
        rod([-o, o, zf], [o, o, zf], rr),
        rod([-o, -o, zf + 0.05], [-o, o, zf + 0.05], rr),
        rod([o, -o, zf + 0.05], [o, o, zf + 0.05], rr),
      );
    }
    if (!woodFrame) {
      // A metal frame carries the seat on a square of flat bar.
      const a = L.top;
      frame.push(
        rod([-a, -a, zu - 0.012], [a, -a, zu - 0.012], 0.008),
        rod([-a, a, zu - 0.012], [a, a, zu - 0.012], 0.008),
        rod([-a, -a, zu - 0.012], [-a, a, zu - 0.012], 0.008),
        rod([a, -a, zu - 0.012], [a, a, zu - 0.012], 0.008),
      );
    }
  }
  parts.push(part('base', merge(...frame), 'frame', woodFrame ? 'z' : undefined));
  parts.push(part('footrest', merge(...footrest), 'frame', woodFrame ? 'x' : undefined));

  // Low back: a curved band on two uprights.
  if (p.back) {
    const zTop = SH + p.backHeight;
    const band = 0.07;
    const th = 0.018;
    const uprights: Mesh[] = [];
    let bandMesh: Mesh;
    if (p.seatShape === 'round') {
      const rb = seatHalf - 0.02;
      bandMesh = sweptBoard(arcLine(0, 0, rb, Math.PI * 0.22, Math.PI * 0.78, 14), th, zTop - band, zTop);
      for (const a of [Math.PI * 0.33, Math.PI * 0.67]) uprights.push(rod([rb * Math.cos(a), rb * Math.sin(a), SH - 0.02], [rb * Math.cos(a), rb * Math.sin(a), zTop - band + 0.01], 0.01));
    } else {
      const S = p.seatSize;
      const yEnds = S / 2 - 0.035;
      bandMesh = sweptBoard(bowLine(S / 2 - 0.03, S / 2 - 0.03, yEnds, 0.015), th, zTop - band, zTop);
      for (const sx of [-1, 1]) uprights.push(rod([sx * (S / 2 - 0.06), yEnds + 0.015 * (1 - ((S / 2 - 0.06) / (S / 2 - 0.03)) ** 2), SH - 0.02], [sx * (S / 2 - 0.06), yEnds + 0.005, zTop - band + 0.01], 0.01));
    }
    parts.push(part('back', merge(bandMesh, ...uprights), p.seatKind === 'upholstered' ? 'frame' : 'seat', woodFrame ? 'x' : undefined));
  }
  const materials: Record<string, Material> = { frame: p.materials.frame, seat: p.materials.seat };
  return { parts, materials };
}

/** A tube along a closed path (first point repeated at the end): its two caps meet inside it. */
function barStoolFootprint(p: BarStoolParams): Footprint {
  const L = stoolLayout(p);
  return { width: 2 * L.half, depth: 2 * L.half, height: p.back ? p.seatHeight + p.backHeight : p.seatHeight, placement: 'floor', elevation: 0, frontClearance: 0.35 };
}

export const barStools = defineGenerator<BarStoolParams>({
  ids: ['bar_stool'],
  sample: sampleBarStool,
  footprint: barStoolFootprint,
  build: buildBarStool,
});

export const CHAIR_GENERATORS: FurnitureGenerator[] = [sideChairs, swivelChairs, barStools];
