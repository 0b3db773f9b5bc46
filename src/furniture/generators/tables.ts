import type { Random } from '../../random.js';
import { capped, defineGenerator, type Footprint, type FurnitureGenerator, type PieceGeometry, type PiecePart, type SizeLimits } from '../generator.js';
import { metal, plain, type Material } from '../materials.js';
import { deform, lathe, merge, roundedBoxBetween, tube, type Mesh, type Vec3 } from '../mesh.js';
import { ellipse, roundedRectangle } from '../outline.js';
import { floorLeg, handle, isMetalLeg, plinthBase, sledBase, type LegSpot } from '../parts.js';
import { woodGrain } from '../piece.js';
import { outdoorTeak, powderCoated } from '../style-picks.js';
import type { HandleKind, LegKind, StyleProfile } from '../styles.js';

/**
 * Tables: coffee, side, dining, kitchen and console tables, desks, and the garden's dining and coffee tables. One
 * parameter shape for all of them (a top, a base, optional apron, shelf and drawers); each catalog id samples it in
 * its own real-world ranges, and the style picks the leg kind, the top's shape and material, and the finishes.
 */

type TopShape = 'rect' | 'round' | 'oval';
type TopKind = 'board' | 'stone' | 'glass' | 'slats';
type BaseKind = 'legs' | 'pedestal' | 'trestle' | 'panels' | 'sled' | 'plinth';
type PedestalProfile = 'column' | 'tulip' | 'turned';

export interface TableParams {
  id: string;
  styleId: string;
  width: number;
  depth: number;
  height: number;
  placement: Footprint['placement'];
  frontClearance: number;
  shape: TopShape;
  /** Plan radius of a rectangular top's corners, metres. */
  corner: number;
  top: TopKind;
  topThickness: number;
  /** Radius of the top's rounded edges, metres. */
  edge: number;
  /** Number of slats of a slatted top (and shelf). */
  slats: number;
  base: BaseKind;
  leg: LegKind;
  legCount: 3 | 4;
  legThickness: number;
  /** Distance of the leg centres in from the top's edge, metres. */
  legInset: number;
  pedestal: PedestalProfile;
  /** Apron (rails under the top) height, 0 without. */
  apron: number;
  /** Height of the lower shelf's upper face, 0 without. */
  shelf: number;
  /** A pedestal of drawers under one end of a desk (side −1 left, 1 right). */
  drawerUnit: { side: -1 | 1; width: number; drawers: number } | null;
  /** Drawers set in the front apron (desks, consoles). */
  apronDrawers: number;
  handle: HandleKind;
  materials: { top: Material; base: Material; frame: Material; shelf: Material; case: Material; handle: Material };
}

// ---------------------------------------------------------------------------------------------------------------
// Geometry helpers (closed meshes) for table tops, slatted tops and round aprons.

/**
 * A plate cut from a convex counter-clockwise outline (a table top, a shelf, a slat) between z0 and z1 whose rim is
 * rounded with radius `edge`: a quarter circle at the bottom and at the top, so light runs around the edge.
 */
function roundedSlab(outline: [number, number][], z0: number, z1: number, edge: number, steps = 3): Mesh {
  const n = outline.length;
  const r = Math.max(0, Math.min(edge, (z1 - z0) * 0.45));
  const normals = outline.map((p, i) => {
    const prev = outline[(i + n - 1) % n]!;
    const next = outline[(i + 1) % n]!;
    const e1 = unit2(p[0] - prev[0], p[1] - prev[1]);
    const e2 = unit2(next[0] - p[0], next[1] - p[1]);
    const n1: [number, number] = [e1[1], -e1[0]];
    const n2: [number, number] = [e2[1], -e2[0]];
    // Mitred offset: moving every edge by the same distance moves the vertex by (n1 + n2) / (1 + n1·n2).
    const k = Math.max(0.2, 1 + n1[0] * n2[0] + n1[1] * n2[1]);
    return [(n1[0] + n2[0]) / k, (n1[1] + n2[1]) / k] as [number, number];
  });
  const profile: [number, number][] = [];
  if (r <= 0) profile.push([0, z0], [0, z1]);
  else {
    for (let i = 0; i <= steps; i++) {
      const phi = -Math.PI / 2 + ((Math.PI / 2) * i) / steps;
      profile.push([-r + r * Math.cos(phi), z0 + r + r * Math.sin(phi)]);
    }
    for (let i = 0; i <= steps; i++) {
      const phi = ((Math.PI / 2) * i) / steps;
      profile.push([-r + r * Math.cos(phi), z1 - r + r * Math.sin(phi)]);
    }
  }
  const vertices: Vec3[] = [];
  for (const [u, z] of profile) {
    for (let i = 0; i < n; i++) vertices.push([outline[i]![0] + normals[i]![0] * u, outline[i]![1] + normals[i]![1] * u, z]);
  }
  const cx = outline.reduce((s, p) => s + p[0], 0) / n;
  const cy = outline.reduce((s, p) => s + p[1], 0) / n;
  const bottom = vertices.length;
  vertices.push([cx, cy, z0], [cx, cy, z1]);
  const faces: number[][] = [];
  for (let k = 0; k + 1 < profile.length; k++) {
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      faces.push([k * n + i, k * n + j, (k + 1) * n + j, (k + 1) * n + i]);
    }
  }
  const last = (profile.length - 1) * n;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    faces.push([bottom, j, i]);
    faces.push([bottom + 1, last + i, last + j]);
  }
  return { vertices, faces };
}

/** An elliptical band (a round apron) of semi-axes a, b through its middle, `thickness` wide, from z0 to z1. */
function ellipticBand(a: number, b: number, thickness: number, z0: number, z1: number, segments = 40): Mesh {
  const vertices: Vec3[] = [];
  for (let s = 0; s < segments; s++) {
    const t = (2 * Math.PI * s) / segments;
    const px = a * Math.cos(t);
    const py = b * Math.sin(t);
    const nrm = unit2(Math.cos(t) / a, Math.sin(t) / b);
    const h = thickness / 2;
    vertices.push([px - nrm[0] * h, py - nrm[1] * h, z0], [px + nrm[0] * h, py + nrm[1] * h, z0], [px + nrm[0] * h, py + nrm[1] * h, z1], [px - nrm[0] * h, py - nrm[1] * h, z1]);
  }
  const faces: number[][] = [];
  for (let s = 0; s < segments; s++) {
    const t = (s + 1) % segments;
    for (let k = 0; k < 4; k++) {
      const k1 = (k + 1) % 4;
      faces.push([s * 4 + k, t * 4 + k, t * 4 + k1, s * 4 + k1]);
    }
  }
  return { vertices, faces };
}

/** The part of an ellipse (semi-axes a, b) between y0 and y1, as a convex outline: one slat of a round slatted top. */
function ellipseStrip(a: number, b: number, y0: number, y1: number, segments = 6): [number, number][] {
  const t0 = Math.asin(Math.max(-0.999, Math.min(0.999, y0 / b)));
  const t1 = Math.asin(Math.max(-0.999, Math.min(0.999, y1 / b)));
  const points: [number, number][] = [];
  for (let i = 0; i <= segments; i++) {
    const t = t0 + ((t1 - t0) * i) / segments;
    points.push([a * Math.cos(t), b * Math.sin(t)]);
  }
  for (let i = 0; i <= segments; i++) {
    const t = Math.PI - t1 + ((t1 - t0) * i) / segments;
    points.push([a * Math.cos(t), b * Math.sin(t)]);
  }
  return points;
}

function unit2(x: number, y: number): [number, number] {
  const l = Math.hypot(x, y);
  return l > 0 ? [x / l, y / l] : [1, 0];
}


// ---------------------------------------------------------------------------------------------------------------
// Build

function topOutline(p: TableParams, inset = 0): [number, number][] {
  const w = p.width - 2 * inset;
  const d = p.depth - 2 * inset;
  return p.shape === 'rect' ? roundedRectangle(w, d, Math.max(0, p.corner - inset), 5) : ellipse(w, d, 48);
}

/** Slats across the width (boards run along X), filling the outline between z0 and z1. */
function slatBoards(p: TableParams, w: number, d: number, z0: number, z1: number, count: number): Mesh {
  const gap = 0.008;
  const slatDepth = (d - gap * (count - 1)) / count;
  const boards: Mesh[] = [];
  const edge = Math.min(0.004, (z1 - z0) * 0.4);
  for (let i = 0; i < count; i++) {
    const y0 = -d / 2 + i * (slatDepth + gap);
    const y1 = y0 + slatDepth;
    if (p.shape === 'rect') boards.push(roundedBoxBetween([-w / 2, y0, z0], [w / 2, y1, z1], edge, 2));
    else boards.push(roundedSlab(ellipseStrip(w / 2, d / 2, y0, y1, 6), z0, z1, edge, 2));
  }
  return merge(...boards);
}

function legSpots(p: TableParams): LegSpot[] {
  const spots: LegSpot[] = [];
  if (p.shape === 'rect') {
    for (const sx of [-1, 1]) {
      for (const sy of [-1, 1]) spots.push({ x: sx * (p.width / 2 - p.legInset), y: sy * (p.depth / 2 - p.legInset), outward: [sx * Math.SQRT1_2, sy * Math.SQRT1_2] });
    }
    return spots;
  }
  const a = p.width / 2 - p.legInset;
  const b = p.depth / 2 - p.legInset;
  for (let k = 0; k < p.legCount; k++) {
    const t = p.legCount === 4 ? Math.PI / 4 + (k * Math.PI) / 2 : Math.PI / 2 + (k * 2 * Math.PI) / 3;
    spots.push({ x: a * Math.cos(t), y: b * Math.sin(t), outward: [Math.cos(t), Math.sin(t)] });
  }
  return spots;
}

/** Rails between the leg centres under a rectangular top (or a band through them under a round one). */
function apronMesh(p: TableParams, z0: number, z1: number, thickness: number): Mesh {
  if (p.shape !== 'rect') return ellipticBand(p.width / 2 - p.legInset, p.depth / 2 - p.legInset, thickness, z0, z1);
  const hx = p.width / 2 - p.legInset;
  const hy = p.depth / 2 - p.legInset;
  const h = thickness / 2;
  return merge(
    roundedBoxBetween([-hx, -hy - h, z0], [hx, -hy + h, z1], 0.002, 1),
    roundedBoxBetween([-hx, hy - h, z0], [hx, hy + h, z1], 0.002, 1),
    roundedBoxBetween([-hx - h, -hy + h, z0], [-hx + h, hy - h, z1], 0.002, 1),
    roundedBoxBetween([hx - h, -hy + h, z0], [hx + h, hy - h, z1], 0.002, 1),
  );
}

function pedestalMesh(p: TableParams, under: number): Mesh {
  const minHalf = Math.min(p.width, p.depth) / 2;
  const double = p.shape !== 'round' && p.width > 1.5 * p.depth;
  const foot = Math.min(double ? p.depth * 0.38 : minHalf * 0.72, 0.34);
  const col = Math.max(0.035, Math.min(0.09, foot * 0.3));
  const h = under + 0.001;
  let profile: [number, number][];
  if (p.pedestal === 'tulip') {
    profile = [[foot, 0], [foot * 0.97, h * 0.016], [foot * 0.55, h * 0.07], [col * 1.4, h * 0.22], [col, h * 0.45], [col * 1.15, h * 0.8], [col * 2.6, h * 0.985], [col * 2.7, h]];
  } else if (p.pedestal === 'turned') {
    profile = [[foot, 0], [foot, h * 0.05], [foot * 0.8, h * 0.07], [col * 1.6, h * 0.12], [col * 1.1, h * 0.2], [col * 1.6, h * 0.32], [col * 1.7, h * 0.42], [col * 0.9, h * 0.55], [col * 1.3, h * 0.7], [col, h * 0.86], [col * 1.4, h * 0.92], [col * 2.2, h * 0.96], [col * 2.2, h]];
  } else {
    profile = [[foot, 0], [foot, 0.02], [foot * 0.96, 0.03], [col * 1.25, 0.045], [col, 0.07], [col, h - 0.05], [col * 2.2, h - 0.02], [col * 2.2, h]];
  }
  const column = lathe(profile, 28);
  if (!double) {
    const sx = p.shape === 'oval' ? Math.min(1.6, p.width / p.depth) : 1;
    return deform(column, ([x, y, z]) => [x * sx, y, z]);
  }
  const offset = p.width * 0.24;
  const beam = roundedBoxBetween([-offset, -col * 1.2, h - 0.08], [offset, col * 1.2, h], 0.004, 2);
  return merge(
    deform(column, ([x, y, z]) => [x - offset, y, z]),
    deform(column, ([x, y, z]) => [x + offset, y, z]),
    beam,
  );
}

function trestleParts(p: TableParams, under: number): PiecePart[] {
  const end = Math.min(0.32, p.width * 0.16);
  const hy = p.depth / 2 - 0.08;
  const ends: Mesh[] = [];
  const posts: Mesh[] = [];
  for (const sx of [-1, 1]) {
    const x = sx * (p.width / 2 - end);
    ends.push(roundedBoxBetween([x - 0.045, -hy, 0], [x + 0.045, hy, 0.075], 0.008, 2));
    ends.push(roundedBoxBetween([x - 0.04, -hy + 0.06, under - 0.06], [x + 0.04, hy - 0.06, under + 0.001], 0.006, 2));
    posts.push(roundedBoxBetween([x - 0.04, -0.075, 0.07], [x + 0.04, 0.075, under - 0.055], 0.008, 2));
  }
  const reach = p.width / 2 - end;
  const stretcher = roundedBoxBetween([-reach, -0.03, 0.24], [reach, 0.03, 0.34], 0.006, 2);
  return [
    { name: 'trestle-feet', mesh: merge(...ends), material: 'base', ...woodGrain(p.materials.base, 'y') },
    { name: 'trestle-posts', mesh: merge(...posts), material: 'base', ...woodGrain(p.materials.base, 'z') },
    { name: 'stretcher', mesh: stretcher, material: 'base', ...woodGrain(p.materials.base, 'x') },
  ];
}

function buildTable(p: TableParams): PieceGeometry {
  const parts: PiecePart[] = [];
  const used = new Set<keyof TableParams['materials']>(['top']);
  const under = p.height - p.topThickness;
  const m = p.materials;

  // Top.
  if (p.top === 'slats') parts.push({ name: 'top', mesh: slatBoards(p, p.width, p.depth, under, p.height, p.slats), material: 'top', ...woodGrain(m.top, 'x') });
  else parts.push({ name: 'top', mesh: roundedSlab(topOutline(p), under, p.height, p.edge, 3), material: 'top', ...woodGrain(m.top, 'x') });

  // Base.
  const spots = legSpots(p);
  if (p.base === 'legs' || p.drawerUnit) {
    const legs = p.drawerUnit ? spots.filter((s) => Math.sign(s.x) !== p.drawerUnit!.side) : spots;
    if (p.base === 'panels' && p.drawerUnit) {
      const x = -p.drawerUnit.side * (p.width / 2 - p.legInset);
      parts.push({ name: 'panel', mesh: roundedBoxBetween([x - 0.025, -p.depth / 2 + p.legInset, 0], [x + 0.025, p.depth / 2 - p.legInset, under + 0.001], 0.004, 2), material: 'base', ...woodGrain(m.base, 'z') });
    } else {
      parts.push({ name: 'legs', mesh: merge(...legs.map((s) => floorLeg(p.leg, s, under + 0.001, p.legThickness))), material: 'base', ...woodGrain(m.base, 'z') });
    }
    used.add('base');
  } else if (p.base === 'pedestal') {
    parts.push({ name: 'pedestal', mesh: pedestalMesh(p, under), material: 'base', ...woodGrain(m.base, 'z') });
    used.add('base');
  } else if (p.base === 'trestle') {
    parts.push(...trestleParts(p, under));
    used.add('base');
  } else if (p.base === 'panels') {
    const hy = p.depth / 2 - p.legInset;
    const panels: Mesh[] = [];
    for (const sx of [-1, 1]) {
      const x = sx * (p.width / 2 - p.legInset);
      panels.push(roundedBoxBetween([x - 0.025, -hy, 0], [x + 0.025, hy, under + 0.001], Math.max(0.003, p.edge), 2));
    }
    parts.push({ name: 'panels', mesh: merge(...panels), material: 'base', ...woodGrain(m.base, 'z') });
    if (p.id === 'desk' || p.id === 'console_table') {
      const x = p.width / 2 - p.legInset - 0.02;
      parts.push({ name: 'back-rail', mesh: roundedBoxBetween([-x, hy - 0.04, under - (p.id === 'desk' ? 0.32 : 0.1)], [x, hy - 0.02, under + 0.001], 0.003, 2), material: 'base', ...woodGrain(m.base, 'x') });
    }
    used.add('base');
  } else if (p.base === 'sled') {
    const r = 0.012;
    const sw = (p.shape === 'rect' ? p.width / 2 - p.legInset : (p.width / 2) * 0.55) * 2;
    const sd = (p.shape === 'rect' ? p.depth / 2 - p.legInset : (p.depth / 2) * 0.6) * 2;
    const top = under - r;
    const cross = (y: number): Mesh => tube([[-sw / 2, y, top], [sw / 2, y, top]], r, 8);
    parts.push({ name: 'sled', mesh: merge(sledBase(sw, sd, top, r), cross(-sd / 2), cross(sd / 2)), material: 'base' });
    used.add('base');
  } else {
    // Plinth: a recessed block under the top.
    const recess = Math.min(p.width, p.depth) * 0.18;
    const mesh = p.shape === 'rect' ? plinthBase(p.width, p.depth, under + 0.001, recess) : roundedSlab(ellipse(p.width - 2 * recess, p.depth - 2 * recess, 40), 0, under + 0.001, 0.004, 2);
    parts.push({ name: 'plinth', mesh, material: 'base', ...woodGrain(m.base, 'z') });
    used.add('base');
  }

  // Apron, with drawers in its front rail.
  if (p.apron > 0) {
    parts.push({ name: 'apron', mesh: apronMesh(p, under - p.apron, under + 0.001, 0.022), material: 'frame', ...woodGrain(m.frame, 'x') });
    used.add('frame');
    if (p.apronDrawers > 0 && p.shape === 'rect') {
      const faceY = -(p.depth / 2 - p.legInset) - 0.011;
      const span = p.width - 2 * p.legInset - p.legThickness - 0.04;
      const dw = Math.min(0.55, (span - 0.03 * (p.apronDrawers - 1)) / p.apronDrawers);
      const fronts: Mesh[] = [];
      const handles: Mesh[] = [];
      for (let i = 0; i < p.apronDrawers; i++) {
        const cx = (i - (p.apronDrawers - 1) / 2) * (dw + 0.03);
        const z0 = under - p.apron + 0.006;
        const z1 = under - 0.006;
        fronts.push(roundedBoxBetween([cx - dw / 2, faceY - 0.012, z0], [cx + dw / 2, faceY + 0.002, z1], 0.003, 2));
        const hm = handle(p.handle, cx, (z0 + z1) / 2, faceY - 0.012, Math.min(0.14, dw * 0.4));
        if (hm) handles.push(hm);
      }
      parts.push({ name: 'drawer-fronts', mesh: merge(...fronts), material: 'frame', ...woodGrain(m.frame, 'x') });
      if (handles.length > 0) {
        parts.push({ name: 'handles', mesh: merge(...handles), material: 'handle' });
        used.add('handle');
      }
    }
  }

  // Lower shelf between the legs.
  if (p.shelf > 0) {
    const hx = p.width / 2 - p.legInset;
    const hy = p.depth / 2 - p.legInset;
    const z1 = p.shelf;
    const z0 = z1 - (p.top === 'glass' ? 0.01 : 0.02);
    let mesh: Mesh;
    if (p.top === 'slats') mesh = slatBoards(p, hx * 2, hy * 2, z0, z1, Math.max(3, Math.round((hy * 2) / 0.09)));
    else if (p.shape === 'rect') mesh = roundedSlab(roundedRectangle(hx * 2, hy * 2, Math.max(0, p.corner - p.legInset), 4), z0, z1, Math.min(p.edge, 0.004), 2);
    else mesh = roundedSlab(ellipse(hx * 2, hy * 2, 40), z0, z1, Math.min(p.edge, 0.004), 2);
    parts.push({ name: 'shelf', mesh, material: 'shelf', ...woodGrain(m.shelf, 'x') });
    used.add('shelf');
  }

  // A pedestal of drawers under one end of a desk.
  if (p.drawerUnit) {
    const u = p.drawerUnit;
    const outer = u.side * (p.width / 2 - 0.02);
    const inner = u.side * (p.width / 2 - 0.02 - u.width);
    const x0 = Math.min(outer, inner);
    const x1 = Math.max(outer, inner);
    const faceY = -p.depth / 2 + 0.05;
    const plinth = 0.05;
    parts.push({
      name: 'drawer-unit',
      mesh: merge(roundedBoxBetween([x0, faceY, plinth], [x1, p.depth / 2 - 0.02, under + 0.001], Math.max(0.003, p.edge), 2), roundedBoxBetween([x0 + 0.02, faceY + 0.03, 0], [x1 - 0.02, p.depth / 2 - 0.05, plinth + 0.002], 0.002, 1)),
      material: 'case',
      ...woodGrain(m.case, 'z'),
    });
    const fronts: Mesh[] = [];
    const handles: Mesh[] = [];
    const gap = 0.004;
    const zTop = under - 0.012;
    const zBottom = plinth + 0.012;
    const fh = (zTop - zBottom - gap * (u.drawers - 1)) / u.drawers;
    for (let i = 0; i < u.drawers; i++) {
      const z1 = zTop - i * (fh + gap);
      const z0 = z1 - fh;
      fronts.push(roundedBoxBetween([x0 + 0.006, faceY - 0.018, z0], [x1 - 0.006, faceY + 0.002, z1], 0.003, 2));
      const zHandle = p.handle === 'bar' || p.handle === 'cup' ? z1 - Math.min(0.05, fh / 2) : (z0 + z1) / 2;
      const hm = handle(p.handle, (x0 + x1) / 2, zHandle, faceY - 0.018, Math.min(0.16, u.width * 0.45));
      if (hm) handles.push(hm);
    }
    parts.push({ name: 'drawer-fronts', mesh: merge(...fronts), material: 'case', ...woodGrain(m.case, 'x') });
    used.add('case');
    if (handles.length > 0) {
      parts.push({ name: 'handles', mesh: merge(...handles), material: 'handle' });
      used.add('handle');
    }
    // A modesty rail at the back, from the unit to the far legs.
    const far = -u.side * (p.width / 2 - p.legInset);
    const hy = p.depth / 2 - p.legInset;
    parts.push({
      name: 'back-rail',
      mesh: roundedBoxBetween([Math.min(far, inner), hy - 0.011, under - 0.1], [Math.max(far, inner), hy + 0.011, under + 0.001], 0.002, 1),
      material: 'base',
      ...woodGrain(m.base, 'x'),
    });
  }

  const materials: Record<string, Material> = {};
  for (const key of used) materials[key] = m[key];
  return { parts, materials };
}

function tableFootprint(p: TableParams): Footprint {
  return { width: p.width, depth: p.depth, height: p.height, placement: p.placement, elevation: 0, frontClearance: p.frontClearance };
}

// ---------------------------------------------------------------------------------------------------------------
// Sampling

/** How much a style likes stone and glass tops (others: wood). */
const STONE_TOPS: Record<string, number> = {
  luxury: 0.5, art_deco: 0.5, modern: 0.3, contemporary: 0.35, parisian: 0.3, traditional: 0.15, mediterranean: 0.25,
  minimalist: 0.25, industrial: 0.2, japandi: 0.15, bohemian: 0.15, coastal: 0.1, mid_century_modern: 0.1,
};
const GLASS_TOPS: Record<string, number> = { modern: 0.25, luxury: 0.2, art_deco: 0.2, contemporary: 0.15, minimalist: 0.15, industrial: 0.1, mid_century_modern: 0.1 };
/** Chunky tops and legs (rustic timber), slim ones (modern lines), or in between. */
const CHUNKY = new Set(['rustic', 'farmhouse', 'industrial', 'japandi']);
const SLIM = new Set(['modern', 'minimalist', 'contemporary', 'art_deco', 'luxury']);
/** Chance that a desk has a pedestal of drawers. */
const DESK_UNITS: Record<string, number> = {
  traditional: 0.8, farmhouse: 0.7, parisian: 0.6, rustic: 0.7, industrial: 0.6, mid_century_modern: 0.7, luxury: 0.6, art_deco: 0.7,
  coastal: 0.5, mediterranean: 0.6, bohemian: 0.4, scandinavian: 0.35, japandi: 0.3, modern: 0.35, contemporary: 0.35, minimalist: 0.2,
};
/** Chance that a garden table is a metal frame rather than solid teak. */
const METAL_OUTDOOR: Record<string, number> = {
  industrial: 0.85, modern: 0.7, minimalist: 0.6, art_deco: 0.6, luxury: 0.5, contemporary: 0.5, parisian: 0.65, mediterranean: 0.5,
};

/** Powder-coated aluminium or steel of outdoor frames. */
const GLASS_TINTS: Record<string, string> = { luxury: '#CDBB9C', art_deco: '#B9A888', modern: '#A3AAA8' };

interface TableSpec {
  height: readonly [number, number];
  /** Rectangular width and depth ranges. */
  rect: readonly [number, number, number, number];
  round: readonly [number, number] | null;
  /**
   * The smallest round top (diameter, m) it is made in, taken only when a limit rules out `round`'s range: a drum
   * coffee table before one armchair. `round[0]` where absent.
   */
  compactRound?: number;
  oval: readonly [number, number, number, number] | null;
  roundScale: number;
  placement: Footprint['placement'];
  frontClearance: number;
  stoneScale: number;
  glassScale: number;
  shelfChance: number;
  /** Thickness scale of legs (low tables have slimmer legs). */
  legScale: number;
}

const SPECS: Record<string, TableSpec> = {
  coffee_table: { height: [0.4, 0.45], rect: [1.0, 1.3, 0.55, 0.7], round: [0.8, 1.0], compactRound: 0.5, oval: [1.05, 1.3, 0.6, 0.75], roundScale: 1, placement: 'floor', frontClearance: 0.35, stoneScale: 1, glassScale: 1, shelfChance: 0.4, legScale: 0.85 },
  side_table: { height: [0.5, 0.6], rect: [0.4, 0.52, 0.4, 0.52], round: [0.4, 0.55], oval: null, roundScale: 1.2, placement: 'floor', frontClearance: 0.2, stoneScale: 1, glassScale: 0.6, shelfChance: 0.45, legScale: 0.75 },
  dining_table: { height: [0.73, 0.77], rect: [1.6, 2.2, 0.85, 1.0], round: [1.1, 1.3], oval: [1.8, 2.2, 1.0, 1.1], roundScale: 0.8, placement: 'floor', frontClearance: 0.75, stoneScale: 0.6, glassScale: 0.5, shelfChance: 0, legScale: 1 },
  kitchen_table: { height: [0.73, 0.77], rect: [1.0, 1.4, 0.7, 0.85], round: [0.9, 1.1], oval: null, roundScale: 0.8, placement: 'floor', frontClearance: 0.7, stoneScale: 0.4, glassScale: 0.3, shelfChance: 0, legScale: 0.95 },
  console_table: { height: [0.75, 0.85], rect: [1.0, 1.4, 0.3, 0.42], round: null, oval: null, roundScale: 0, placement: 'against-wall', frontClearance: 0.4, stoneScale: 0.8, glassScale: 0.5, shelfChance: 0.65, legScale: 0.85 },
  desk: { height: [0.72, 0.76], rect: [1.2, 1.6, 0.6, 0.75], round: null, oval: null, roundScale: 0, placement: 'against-wall', frontClearance: 0.7, stoneScale: 0, glassScale: 0.3, shelfChance: 0, legScale: 0.95 },
  garden_table: { height: [0.72, 0.76], rect: [1.4, 1.9, 0.8, 1.0], round: [1.0, 1.2], oval: null, roundScale: 0.5, placement: 'floor', frontClearance: 0.7, stoneScale: 0, glassScale: 0, shelfChance: 0, legScale: 1 },
  outdoor_coffee_table: { height: [0.36, 0.42], rect: [0.8, 1.2, 0.5, 0.7], round: [0.7, 0.9], oval: null, roundScale: 0.6, placement: 'floor', frontClearance: 0.35, stoneScale: 0.5, glassScale: 0, shelfChance: 0.4, legScale: 0.85 },
};

function legThickness(kind: LegKind, style: StyleProfile, random: Random, scaleBy: number): number {
  const chunky = CHUNKY.has(style.id) ? 1.2 : 1;
  const base: Record<LegKind, readonly [number, number]> = {
    tapered: [0.045, 0.06], splayed: [0.045, 0.058], turned: [0.06, 0.08], block: [0.05, 0.075], hairpin: [0.055, 0.065],
    'metal-square': [0.07, 0.1], cabriole: [0.06, 0.075], bun: [0.08, 0.1], sled: [0.05, 0.06], plinth: [0.06, 0.08],
  };
  const [lo, hi] = base[kind];
  return random.uniform(lo, hi) * scaleBy * (kind === 'block' ? chunky : 1);
}

/** Extra inset so a leg's lean, knee or rods stay under the top. */
function legReach(kind: LegKind, thickness: number): number {
  switch (kind) {
    case 'splayed':
      return 0.06 + thickness * 0.5;
    case 'cabriole':
      return thickness * 0.8 + 0.01;
    case 'hairpin':
      return 0.05;
    default:
      return thickness / 2 + 0.005;
  }
}

function glassMaterial(style: StyleProfile): Material {
  return plain('glass', GLASS_TINTS[style.id] ?? '#DDE6E3', 0.03);
}

function sampleTable(id: string, style: StyleProfile, random: Random, limits: SizeLimits | undefined): TableParams {
  const spec = SPECS[id];
  if (!spec) throw new Error(`no table generator for ${id}`);
  const outdoor = id === 'garden_table' || id === 'outdoor_coffee_table';

  // Shape and size.
  const roundChance = Math.min(0.9, style.roundness * spec.roundScale);
  let shape: TopShape = 'rect';
  if ((spec.round || spec.oval) && random.chance(roundChance)) shape = spec.oval && (!spec.round || random.chance(0.45)) ? 'oval' : 'round';
  // A narrow space takes the smaller shape that still has a real size: a round table where a long one cannot fit.
  const maxWidth = limits?.maxWidth;
  const smallestRound = spec.round ? (spec.compactRound ?? spec.round[0]) : Infinity;
  if (maxWidth !== undefined) {
    if (shape === 'oval' && spec.oval && maxWidth < spec.oval[0]) shape = spec.round ? 'round' : 'rect';
    // A table made in a compact round size (the coffee table's drum) always has one small enough to take.
    if (shape === 'rect' && spec.round && maxWidth < spec.rect[0] && (spec.compactRound !== undefined || maxWidth >= spec.round[0])) shape = 'round';
  }
  let width: number;
  let depth: number;
  if (shape === 'round' && spec.round) {
    width = random.uniform(spec.round[0], spec.round[1]);
    width = Math.min(capped(width, limits?.maxWidth, smallestRound), capped(width, limits?.maxDepth, smallestRound));
    depth = width;
  } else {
    const r = shape === 'oval' && spec.oval ? spec.oval : spec.rect;
    width = capped(random.uniform(r[0], r[1]), limits?.maxWidth, r[0]);
    depth = capped(random.uniform(r[2], Math.max(r[2], Math.min(r[3], id === 'side_table' ? width : width * 0.75))), limits?.maxDepth, r[2]);
  }
  const height = capped(random.uniform(spec.height[0], spec.height[1]), limits?.maxHeight, spec.height[0]);

  // Top.
  const woodMaterial = random.pick(style.woods);
  let top: TopKind = 'board';
  let topMaterial: Material = woodMaterial;
  let outdoorMetal = false;
  let powderCoat: Material = metal('#2E302F', 0.55);
  if (outdoor) {
    outdoorMetal = random.chance(METAL_OUTDOOR[style.id] ?? 0.2);
    top = 'slats';
    topMaterial = outdoorTeak(style, random);
    powderCoat = powderCoated(style, random);
    if (outdoorMetal && random.chance(0.45)) topMaterial = powderCoat;
    if (id === 'outdoor_coffee_table' && random.chance((STONE_TOPS[style.id] ?? 0.05) * spec.stoneScale)) {
      top = 'stone';
      topMaterial = random.pick(style.stones);
      outdoorMetal = true;
    }
  } else {
    const stone = (STONE_TOPS[style.id] ?? 0.05) * spec.stoneScale;
    const glass = (GLASS_TOPS[style.id] ?? 0) * spec.glassScale;
    top = random.weighted<TopKind>([['board', Math.max(0.2, 1 - stone - glass)], ['stone', stone], ['glass', glass]]);
    if (top === 'stone') topMaterial = random.pick(style.stones);
    if (top === 'glass') topMaterial = glassMaterial(style);
    if (id === 'desk' && top === 'board' && random.chance(0.35)) topMaterial = random.pick(style.cases);
  }
  if (top === 'slats' && shape === 'oval') shape = 'rect';
  const chunky = CHUNKY.has(style.id);
  const slim = SLIM.has(style.id);
  let topThickness: number;
  if (top === 'glass') topThickness = random.uniform(0.01, 0.013);
  else if (top === 'stone') topThickness = random.uniform(0.02, 0.032);
  else if (top === 'slats') topThickness = random.uniform(0.022, 0.03);
  else topThickness = chunky ? random.uniform(0.04, 0.06) : slim ? random.uniform(0.02, 0.03) : random.uniform(0.026, 0.04);
  if (id === 'side_table') topThickness = Math.min(topThickness, 0.035);
  const edge = Math.min(topThickness * 0.45, Math.max(0.002, style.edge * random.uniform(0.9, 1.6)));
  const corner = shape === 'rect' ? (top === 'glass' ? random.uniform(0, 0.01) : random.uniform(0, 0.012) + style.roundness * random.uniform(0, 0.06)) : 0;

  // Base.
  let legKind = random.pick(style.legs);
  if (legKind === 'bun') legKind = 'turned';
  if (outdoor) legKind = outdoorMetal ? (style.legs.includes('hairpin') && id === 'outdoor_coffee_table' ? 'hairpin' : 'metal-square') : 'block';
  let base: BaseKind = 'legs';
  if (legKind === 'sled') base = 'sled';
  if (legKind === 'plinth') {
    if (id === 'coffee_table' || id === 'side_table') base = 'plinth';
    else base = shape === 'rect' ? 'panels' : 'pedestal';
    legKind = 'block';
  }
  if (base === 'legs' && (id === 'dining_table' || id === 'kitchen_table')) {
    const rusticStyle = style.id === 'rustic' || style.id === 'farmhouse';
    if (shape === 'rect' && rusticStyle && width >= 1.3 && random.chance(0.5)) base = 'trestle';
    else if (shape !== 'rect' && random.chance(rusticStyle ? 0.6 : 0.5)) base = 'pedestal';
  }
  if (base === 'legs' && id === 'side_table' && shape === 'round' && (legKind === 'block' || legKind === 'metal-square') && random.chance(0.4)) base = 'pedestal';
  if (base === 'sled' && (id === 'desk' || top === 'slats')) base = 'legs';
  if (base === 'sled' || base === 'legs') {
    if (legKind === 'sled') legKind = 'metal-square';
  }
  const legCount: 3 | 4 = shape === 'round' && id === 'side_table' && (legKind === 'splayed' || legKind === 'tapered' || legKind === 'hairpin') && random.chance(0.6) ? 3 : 4;
  const thickness = legThickness(legKind, style, random, spec.legScale);
  let legInset: number;
  if (shape === 'rect') legInset = legReach(legKind, thickness) + (outdoor ? random.uniform(0.03, 0.06) : random.uniform(0.015, 0.06));
  else legInset = legReach(legKind, thickness) + Math.min(width, depth) * random.uniform(0.1, 0.16);
  if (base === 'panels') legInset = random.uniform(0.03, 0.08);
  const pedestal: PedestalProfile = style.legs.includes('turned') ? 'turned' : style.legs.includes('splayed') || style.roundness >= 0.6 ? 'tulip' : 'column';

  // Apron, shelf, drawers.
  const traditionalApron = style.id === 'traditional' || style.id === 'farmhouse';
  const woodLegs = !isMetalLeg(legKind);
  let apron = 0;
  if (base === 'legs') {
    if (top === 'glass' || top === 'slats') apron = random.uniform(0.04, 0.06);
    else if (id === 'dining_table' || id === 'kitchen_table') {
      if (traditionalApron) apron = random.uniform(0.08, 0.12);
      else if (woodLegs && random.chance(0.4)) apron = random.uniform(0.06, 0.09);
      else if (!woodLegs && random.chance(0.3)) apron = random.uniform(0.04, 0.05);
    } else if (id === 'console_table' || id === 'desk') {
      if (traditionalApron || (woodLegs && random.chance(0.6))) apron = random.uniform(0.07, 0.11);
      else if (random.chance(0.3)) apron = random.uniform(0.04, 0.05);
    } else if (traditionalApron || (woodLegs && random.chance(0.3))) apron = random.uniform(0.05, 0.08);
  }
  const handleKind = random.pick(style.handles);
  let drawerUnit: TableParams['drawerUnit'] = null;
  if (id === 'desk' && (base === 'legs' || base === 'panels') && random.chance(DESK_UNITS[style.id] ?? 0.4)) {
    drawerUnit = { side: random.chance(0.5) ? -1 : 1, width: random.uniform(0.38, 0.45), drawers: random.int(2, 3) };
    if (base === 'panels') legInset = random.uniform(0.03, 0.06);
    apron = 0;
  }
  let apronDrawers = 0;
  if (apron >= 0.07 && handleKind !== 'none' && shape === 'rect' && !drawerUnit) {
    if (id === 'desk') apronDrawers = random.chance(0.7) ? 1 : 0;
    if (id === 'console_table' && random.chance(0.5)) apronDrawers = width > 1.15 ? 2 : 1;
    if (apronDrawers > 0) legInset = Math.max(legInset, 0.06);
  }
  let shelf = 0;
  if ((base === 'legs' || (base === 'panels' && id === 'console_table')) && random.chance(spec.shelfChance)) {
    shelf = Math.min(height * 0.4, random.uniform(0.1, 0.18));
  }
  const slats = top === 'slats' ? Math.max(4, Math.round(depth / random.uniform(0.08, 0.11))) : 0;

  // Finishes: metal legs in the style's metal, wood ones in the top's wood (or the style's).
  const metalFinish = random.pick(style.metals);
  const legWood = topMaterial.kind === 'wood' ? topMaterial : woodMaterial;
  let baseMaterial: Material = isMetalLeg(legKind) || base === 'sled' ? metalFinish : legWood;
  if (base === 'pedestal' && (slim || style.id === 'industrial') && random.chance(0.6)) baseMaterial = metalFinish;
  if (base === 'plinth') baseMaterial = random.chance(0.35) ? random.pick(style.stones) : random.pick(style.cases);
  if (base === 'panels' && random.chance(0.4)) baseMaterial = random.pick(style.cases);
  if (outdoor) baseMaterial = outdoorMetal ? powderCoat : topMaterial;
  const frame: Material = top === 'glass' || (outdoorMetal && top === 'slats') || (!woodLegs && apron < 0.06) ? baseMaterial : legWood;
  const shelfMaterial: Material = top === 'glass' ? topMaterial : top === 'slats' ? topMaterial : legWood;

  return {
    id,
    styleId: style.id,
    width,
    depth,
    height,
    placement: spec.placement,
    frontClearance: spec.frontClearance,
    shape,
    corner,
    top,
    topThickness,
    edge,
    slats,
    base,
    leg: legKind,
    legCount,
    legThickness: thickness,
    legInset,
    pedestal,
    apron,
    shelf,
    drawerUnit,
    apronDrawers,
    handle: handleKind,
    materials: { top: topMaterial, base: baseMaterial, frame, shelf: shelfMaterial, case: random.pick(style.cases), handle: metalFinish },
  };
}

function tableGenerator(ids: readonly string[]): FurnitureGenerator<TableParams> {
  return defineGenerator<TableParams>({
    ids,
    sample: (id, style, random, limits) => sampleTable(id, style, random, limits),
    footprint: tableFootprint,
    build: buildTable,
  });
}

export const TABLE_GENERATORS: readonly FurnitureGenerator<TableParams>[] = [
  tableGenerator(['coffee_table', 'side_table', 'console_table']),
  tableGenerator(['dining_table', 'kitchen_table']),
  tableGenerator(['desk']),
  tableGenerator(['garden_table', 'outdoor_coffee_table']),
];
