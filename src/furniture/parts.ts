import type { HandleKind, LegKind } from './styles.js';
import { clamp } from './numbers.js';
import { bounds, cylinder, deform, ellipsoid, lathe, merge, roundedBox, roundedBoxBetween, rotate, translate, tube, type Mesh, type Vec3 } from './mesh.js';

/**
 * Parts that pieces of several families share: legs of each style's kind and the bases they make, drawer and door
 * handles, cushions and pillows. Every mesh is closed and in the piece's frame (metres, Z up).
 */

/** Where a leg stands and how tall it is (from the floor to the underside of what it carries). */
export interface LegSpot {
  x: number;
  y: number;
  /** Unit vector on the floor pointing away from the piece's centre (splayed and cabriole legs lean out along it). */
  outward?: [number, number];
}

/**
 * One leg of a kind, from z = 0 to `height`; `thickness` is its widest section. Plinth and sled are not single legs
 * (see plinthBase and sledBase); asked here they give a block.
 */
export function leg(kind: LegKind, spot: LegSpot, height: number, thickness: number): Mesh {
  const { x, y } = spot;
  const out = spot.outward ?? [0, 0];
  const t = thickness;
  switch (kind) {
    case 'tapered':
      return translate(cylinder(t * 0.32, t / 2, 0, height, 14, 0.002), [x, y, 0]);
    case 'splayed': {
      // Leans out by about 10° at the floor: the top sits under the piece, the foot steps outward.
      const lean = Math.min(height * 0.18, 0.06);
      const top: Vec3 = [x, y, height];
      const foot: Vec3 = [x + out[0] * lean, y + out[1] * lean, 0.0];
      return taperedStrut(foot, top, t * 0.3, t / 2);
    }
    case 'turned':
      return translate(
        lathe(
          [
            [t * 0.3, 0],
            [t * 0.38, height * 0.05],
            [t * 0.3, height * 0.12],
            [t * 0.45, height * 0.3],
            [t * 0.28, height * 0.5],
            [t * 0.4, height * 0.62],
            [t * 0.5, height * 0.75],
            [t * 0.5, height],
          ],
          16,
        ),
        [x, y, 0],
      );
    case 'bun':
      return translate(lathe([[t * 0.35, 0], [t * 0.55, height * 0.3], [t * 0.6, height * 0.55], [t * 0.45, height * 0.85], [t * 0.4, height]], 16), [x, y, 0]);
    case 'cabriole': {
      // An S-curved leg: the knee bows outward, the ankle tucks in, the foot turns out again.
      const path: Vec3[] = [];
      for (let i = 0; i <= 8; i++) {
        const s = i / 8;
        const bow = 0.35 * Math.sin(Math.PI * s * 1.2) * (1 - s) - 0.12 * Math.sin(Math.PI * s);
        path.push([x + out[0] * bow * t * 2, y + out[1] * bow * t * 2, height * (1 - s)]);
      }
      path.reverse();
      return taperedPath(path, t * 0.28, t * 0.5);
    }
    case 'hairpin': {
      // Two rods meeting at the foot: a V seen from the side.
      const spread = Math.min(0.09, height * 0.35);
      const r = Math.max(0.005, t * 0.12);
      const a: Vec3 = [x - out[1] * spread * 0.5, y + out[0] * spread * 0.5, height];
      const b: Vec3 = [x + out[1] * spread * 0.5, y - out[0] * spread * 0.5, height];
      // Two straight rods capped at the foot (a mitred joint at so sharp a V would reach far below the floor).
      const foot: Vec3 = [x, y, r];
      return merge(tube([a, foot], r, 8), tube([b, foot], r, 8));
    }
    case 'metal-square':
      return roundedBoxBetween([x - t * 0.22, y - t * 0.22, 0], [x + t * 0.22, y + t * 0.22, height], 0.002, 1);
    case 'block':
    case 'plinth':
    case 'sled':
      return roundedBoxBetween([x - t / 2, y - t / 2, 0], [x + t / 2, y + t / 2, height], Math.min(0.004, t / 6), 2);
  }
}

/** A leg from `foot` to `top` whose round section narrows from `topRadius` to `footRadius`. */
export function taperedStrut(foot: Vec3, top: Vec3, footRadius: number, topRadius: number): Mesh {
  const d: Vec3 = [top[0] - foot[0], top[1] - foot[1], top[2] - foot[2]];
  const length = Math.hypot(d[0], d[1], d[2]);
  let mesh = cylinder(footRadius, topRadius, 0, length, 14, 0.002);
  // Tilt the Z-up cylinder onto the strut's direction: about Y by the lean in X, then about X by the lean in Y.
  const tiltY = Math.atan2(d[0], d[2]);
  const tiltX = -Math.atan2(d[1], Math.hypot(d[0], d[2]));
  mesh = rotate(rotate(mesh, 'x', tiltX), 'y', tiltY);
  return translate(mesh, foot);
}

/** A round section swept along a path whose radius goes from `startRadius` to `endRadius`. */
export function taperedPath(path: Vec3[], startRadius: number, endRadius: number): Mesh {
  const base = tube(path, 1, 12);
  // Rings are laid out path point by path point (12 vertices each): scale each ring about its centre.
  const vertices = base.vertices.map((v, i) => {
    const k = Math.min(path.length - 1, Math.floor(i / 12));
    const r = startRadius + ((endRadius - startRadius) * k) / Math.max(1, path.length - 1);
    const c = path[k]!;
    return [c[0] + (v[0] - c[0]) * r, c[1] + (v[1] - c[1]) * r, c[2] + (v[2] - c[2]) * r] as Vec3;
  });
  return { vertices, faces: base.faces };
}

/** Four legs at the corners of a rectangle inset by `inset`, each leaning outward from the centre. */
export function fourLegs(kind: LegKind, width: number, depth: number, inset: number, height: number, thickness: number): Mesh {
  const spots: LegSpot[] = [];
  for (const sx of [-1, 1]) {
    for (const sy of [-1, 1]) {
      const o: [number, number] = [sx / Math.SQRT2, sy / Math.SQRT2];
      spots.push({ x: sx * (width / 2 - inset), y: sy * (depth / 2 - inset), outward: o });
    }
  }
  return merge(...spots.map((spot) => leg(kind, spot, height, thickness)));
}

/**
 * How far a leg from leg() reaches beyond its spot along X or Y when it leans out along a diagonal: the
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
 * A leg standing on the floor, as the seating families use it: the hairpin's two rods meet at so sharp a V that
 * tube()'s mitre at the foot spikes centimetres under the floor (or, for a wider V, leaves the foot floating); the
 * hairpin is set down on the floor and what would go under it is flattened onto it (a small flat foot). Other kinds
 * are leg()'s own; floorLeg clips every kind instead.
 */
export function standingLeg(kind: LegKind, spot: LegSpot, height: number, thickness: number): Mesh {
  const mesh = leg(kind, spot, height, thickness);
  if (kind !== 'hairpin') return mesh;
  const lift = Math.max(0, bounds(mesh).min[2]);
  return deform(mesh, ([x, y, z]) => [x, y, Math.max(0, z - lift)]);
}

/**
 * A leg of any kind clipped between the floor and `height` (tables and beds): some leg shapes overshoot
 * by a few millimetres (a cabriole's knee above its top, a tilted strut's bevel below the floor), which would poke
 * through a glass top or leave the piece's bounds off its footprint.
 */
export function floorLeg(kind: LegKind, spot: LegSpot, height: number, thickness: number): Mesh {
  return deform(leg(kind, spot, height, thickness), ([x, y, z]) => [x, y, Math.min(height, Math.max(0, z))]);
}

const METAL_LEGS: readonly LegKind[] = ['metal-square', 'hairpin', 'sled'];

/** Whether a leg or base kind is made of metal (its material then comes from the style's metals). */
export function isMetalLeg(kind: LegKind): boolean {
  return METAL_LEGS.includes(kind);
}

/** A recessed plinth under a carcass (minimalist and contemporary storage and sofas). */
export function plinthBase(width: number, depth: number, height: number, recess: number): Mesh {
  return roundedBoxBetween([-width / 2 + recess, -depth / 2 + recess, 0], [width / 2 - recess, depth / 2 - recess, height], 0.003, 2);
}

/** Two metal sled runners along the depth (industrial): each a closed loop of tube. */
export function sledBase(width: number, depth: number, height: number, radius: number): Mesh {
  const runner = (x: number): Mesh =>
    tube(
      [
        [x, -depth / 2, height],
        [x, -depth / 2, radius],
        [x, depth / 2, radius],
        [x, depth / 2, height],
      ],
      radius,
      8,
    );
  return merge(runner(-width / 2), runner(width / 2));
}

/**
 * A handle on a front face that lies in the plane y = `frontY` (facing −Y), centred at (x, z). Bars span `length`;
 * knobs, rings and cup pulls ignore it. `none` gives nothing (push-to-open fronts). Bars and cup pulls lie across
 * the front, or stand upright when `vertical` (tall doors); knobs and rings look the same either way.
 */
export function handle(kind: HandleKind, x: number, z: number, frontY: number, length = 0.12, vertical = false): Mesh | undefined {
  if (vertical && (kind === 'bar' || kind === 'cup')) return translate(rotate(handle(kind, 0, 0, frontY, length)!, 'y', Math.PI / 2), [x, 0, z]);
  switch (kind) {
    case 'none':
      return undefined;
    case 'bar': {
      const r = 0.006;
      const standoff = 0.025;
      return tube(
        [
          [x - length / 2, frontY, z],
          [x - length / 2, frontY - standoff, z],
          [x + length / 2, frontY - standoff, z],
          [x + length / 2, frontY, z],
        ],
        r,
        8,
      );
    }
    case 'knob':
      return translate(rotate(lathe([[0.006, 0], [0.007, 0.012], [0.016, 0.02], [0.014, 0.028], [0, 0.03]], 14), 'x', Math.PI / 2), [x, frontY + 0.001, z]);
    case 'ring': {
      const path: Vec3[] = [];
      for (let i = 0; i <= 12; i++) {
        const a = (Math.PI * 2 * i) / 12;
        path.push([x + 0.022 * Math.sin(a), frontY - 0.012, z - 0.022 + 0.022 * Math.cos(a)]);
      }
      return merge(tube(path.slice(0, 12), 0.003, 6), translate(rotate(cylinder(0.008, 0.006, 0, 0.012, 10), 'x', Math.PI / 2), [x, frontY + 0.001, z]));
    }
    case 'cup':
      return roundedBoxBetween([x - length * 0.35, frontY - 0.018, z - 0.012], [x + length * 0.35, frontY + 0.002, z + 0.012], 0.006, 2);
  }
}

/**
 * A filled cushion inside [min, max]: rounded edges, sides that bulge as filled fabric does, and a top that sinks by
 * `sag` in the middle of each of its `dips` sitting places (a bench cushion has one per seat; a negative sag puffs it
 * up instead). The box is subdivided so that the sag shows, and the bulge and puff are kept inside [min, max].
 */
export function cushion(min: Vec3, max: Vec3, radius: number, sag: number, dips = 1): Mesh {
  const cx = (min[0] + max[0]) / 2;
  const cy = (min[1] + max[1]) / 2;
  // The sides bulge by 4 % at mid-height: start 4 % smaller so the filled shape stays inside the box.
  const hx = (max[0] - min[0]) / 2 / 1.04;
  const hy = (max[1] - min[1]) / 2 / 1.04;
  const top = max[2] - Math.max(0, -sag);
  const cz = (min[2] + top) / 2;
  const hz = (top - min[2]) / 2;
  const r = Math.max(0, Math.min(radius, hx * 0.9, hy * 0.9, hz * 0.95));
  const block = roundedBoxBetween([cx - hx, cy - hy, min[2]], [cx + hx, cy + hy, top], r, 4, [4 * dips, 4, 2]);
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
  const lying = cushion([x0, z0, 0], [x1, z1, thickness], radius, -puff, dips);
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

/** Slightly raised boxes for the seams of a tufted surface would cost polygons; buttons read the same: a grid of them. */
export function tuftButtons(x0: number, x1: number, z0: number, z1: number, y: number, columns: number, rows: number): Mesh {
  const buttons: Mesh[] = [];
  for (let i = 0; i < columns; i++) {
    for (let j = 0; j < rows; j++) {
      const x = x0 + ((x1 - x0) * (i + 0.5 + (j % 2) * 0.5 - 0.25)) / columns;
      const z = z0 + ((z1 - z0) * (j + 0.5)) / rows;
      buttons.push(roundedBox([x, y, z], [0.018, 0.01, 0.018], 0.004, 2));
    }
  }
  return merge(...buttons);
}
