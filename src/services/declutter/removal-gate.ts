import { intersectionArea, area, pixelBounds, type Box } from '../../vision/box.js';
import { dilateSquare } from '../../vision/mask-morphology.js';
import {
  checkGrid,
  holeShape,
  markRegion,
  measureFill,
  poolAny,
  poolWindow,
  windowMargin,
  type CheckGrid,
  type FillMeasure,
  type HoleShape,
  type HoleWindow,
  type LocalConsistency,
} from '../../vision/declutter/fill-check.js';
import type { RegionMask } from '../../vision/declutter/region-mask.js';
import type { RawImage } from '../../vision/raw-image.js';
import { CEILING } from '../../vision/geometry/room-box.js';
import { layoutLabels, type RoomAnalysis } from '../geometry/analyze-room.js';
import { isFixture } from './detect-objects.js';

/**
 * The automatic declutter's self-check: an object goes only when its removal can be shown to be clean. Objects that
 * touch are judged together (a dining set goes whole or stays whole); a group is kept, pixel for pixel, when it holds
 * a fixture of the property (a sink, an oven, a microwave), when its mask does not cover its detections, when it
 * stands in front of a window or door, when it hangs on the ceiling or above eye level, when its hole is a speck
 * (switches, vents) or too large for the surface around it, or, after the fill, when its border runs into something
 * that stays, when the fill's colour or texture does not continue the visible
 * ring of the same surface, or when its border shows a seam. docs/decisions/0010-declutter-gate.md has the
 * measurements behind every threshold.
 */

/** Why an object stayed. */
export type KeepReason = 'partly_occluded' | 'incomplete_mask' | 'fixture' | 'too_small' | 'too_large' | 'fill_inconsistent' | 'seam';

/** Something the automatic mode may remove: a detection or floor clutter, with the pixels a removal would fill. */
export interface RemovalCandidate {
  label: string;
  source: string;
  score?: number;
  box: Box;
  /** The pixels to fill (object, contact shadow, margin). */
  mask: RegionMask;
  /** False for clutter, whose box is drawn around its mask rather than found by a detector. */
  detected: boolean;
}

export interface GateThresholds {
  /** A detection's mask must span at least this share of its box's width and of its height… */
  minSpan: number;
  /** …and cover at least this share of its box. */
  minBoxCover: number;
  /** Largest share of a detection's box on a window or door (the mask stops there: the rest would stay). */
  maxOpeningShare: number;
  /**
   * Smallest hole, as a share of the photo: below it a "cup" or "kite" alone is most often a light switch, a floor
   * vent or a spotlight, which belong to the property.
   */
  minHoleShare: number;
  /** Largest hole, as a share of the photo. */
  maxHoleShare: number;
  /** Largest hole depth (distance from its deepest cell to the nearest known one), share of the photo's shorter side. */
  maxRelativeDepth: number;
  /** Largest share of a surface of the layout (known plus hole) that the hole may take. */
  maxSurfaceShare: number;
  /** Largest share of the hole on the layout's ceiling (above it: lamps, spotlights, rosettes, detectors). */
  maxCeilingShare: number;
  /**
   * A group whose lowest pixel lies above the horizon (eye level) by more than this share of the photo's height hangs
   * on a wall or the ceiling: spotlights, rosettes, wall clocks, built-in cabinets.
   */
  mountedAbove: number;
  /** Largest share of the cells just outside the hole that are not their surface (see FillMeasure.touchingShare). */
  maxTouchingShare: number;
  /** Largest share of the hole on surfaces with no visible ring to compare with. */
  maxUnmatchedShare: number;
  /** Least share of the border's positions where fill and outside could both be sampled. */
  minBorderMeasured: number;
  /** Largest colour distance between fill and ring on a whole surface (in the ring's standard deviations). */
  maxColourDistance: number;
  /** A tile of the fill is off-colour beyond this distance from the ring near it… */
  tileColourDistance: number;
  /** …and at most this share of the fill may be off-colour. */
  maxOffColourShare: number;
  /** Ring texture (mean gradient of L* per cell) from which a surface counts as textured… */
  texturedRing: number;
  /** …where a tile whose gradient energy is below this share of its ring's is a smear… */
  smearRatio: number;
  /** …and at most this share of the fill may be smeared. */
  maxSmearShare: number;
  /** Largest share of the border's samples with a step beyond the seam limit (see fill-check's SEAM_STEP_*). */
  maxSeamShare: number;
  /** Largest ratio of the border's mean step to the control contours' (floored at SEAM_RATIO_FLOOR). */
  maxSeamRatio: number;
}

/** Chosen on the shared furnished photos and the bench's known-answer holes: docs/decisions/0010. */
export const DEFAULT_GATE: GateThresholds = {
  minSpan: 0.8,
  minBoxCover: 0.3,
  maxOpeningShare: 0.05,
  minHoleShare: 0.001,
  maxHoleShare: 0.03,
  maxRelativeDepth: 0.06,
  maxSurfaceShare: 0.15,
  maxCeilingShare: 0.5,
  mountedAbove: 0.02,
  maxTouchingShare: 0.1,
  maxUnmatchedShare: 0.25,
  minBorderMeasured: 0.5,
  maxColourDistance: 1.5,
  tileColourDistance: 1.5,
  maxOffColourShare: 0.12,
  texturedRing: 3,
  smearRatio: 0.5,
  maxSmearShare: 0.3,
  maxSeamShare: 0.1,
  maxSeamRatio: 2,
};

/** Least control step, ΔE, the border's mean step is compared with: the sensor noise of a plain wall. */
const SEAM_RATIO_FLOOR = 0.25;

/** One group of touching objects and what the gate measured and decided for it. */
export interface GroupVerdict {
  members: number[];
  /** Undefined when the group is removed. */
  reason?: KeepReason;
  /** Which check decided, in words (for benchmarks and logs). */
  detail?: string;
  shape: HoleShape;
  /** Per member (detections only): span of the mask over the box, its cover of the box, share of the box on openings. */
  coverage: { spanX: number; spanY: number; cover: number; openings: number }[];
  /** Largest share of a layout surface that the hole takes; 0 without a trusted layout. */
  surfaceShare: number;
  /** After the fill (groups that reached it). */
  fill?: FillMeasure;
}

export interface GateContext {
  analysis: RoomAnalysis;
  /** Whether the layout is trusted (its surfaces label the checks). */
  layoutTrusted: boolean;
  /** Full-image, 1 on windows and doors. */
  openings: Uint8Array;
  thresholds?: Partial<GateThresholds>;
}

/**
 * The candidates linked into groups: objects whose masks come within `gap` photo pixels of each other, or whose boxes
 * overlap by a quarter of the smaller. Masks are compared on the check grid (cells any of their pixels fall in), with
 * the gap rounded up to whole cells plus one, so that two groups never come closer than `gap` pixels.
 */
export function groupCandidates(candidates: readonly RemovalCandidate[], gap: number, image: Pick<RawImage, 'width' | 'height'>, grid: Pick<CheckGrid, 'width' | 'height'>): number[][] {
  const cellGap = Math.ceil(gap / Math.min(image.width / grid.width, image.height / grid.height)) + 1;
  // Each candidate's cells, and the same grown by the gap, over the window of its cells grown by the gap.
  const cells = candidates.map((c) => {
    const window = poolWindow(c.mask, image.width, image.height, grid, cellGap);
    const own = Uint8Array.from(window.share, (v) => (v > 0 ? 1 : 0));
    return { window, own, grown: dilateSquare(own, window.width, window.height, cellGap) };
  });
  const parent = candidates.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let i = 0; i < candidates.length; i++) {
    for (let j = i + 1; j < candidates.length; j++) {
      if (find(i) === find(j)) continue;
      const a = candidates[i]!;
      const b = candidates[j]!;
      const boxOverlap = intersectionArea(a.box, b.box) >= 0.25 * Math.min(area(a.box), area(b.box));
      if (boxOverlap || cellsMeet(cells[i]!, cells[j]!)) parent[find(i)] = find(j);
    }
  }
  const groups = new Map<number, number[]>();
  candidates.forEach((_, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), i]));
  return [...groups.values()];
}

/** Whether a cell of `b` lies in `a`'s grown cells. */
function cellsMeet(a: { window: HoleWindow; grown: Uint8Array }, b: { window: HoleWindow; own: Uint8Array }): boolean {
  const x0 = Math.max(a.window.x, b.window.x);
  const y0 = Math.max(a.window.y, b.window.y);
  const x1 = Math.min(a.window.x + a.window.width, b.window.x + b.window.width);
  const y1 = Math.min(a.window.y + a.window.height, b.window.y + b.window.height);
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if (b.own[(y - b.window.y) * b.window.width + x - b.window.x] && a.grown[(y - a.window.y) * a.window.width + x - a.window.x]) return true;
    }
  }
  return false;
}

/** The union of the members' masks as one region. */
export function unionRegion(masks: readonly RegionMask[], pad = 0, imageWidth = Infinity, imageHeight = Infinity): RegionMask {
  const x0 = Math.max(0, Math.min(...masks.map((m) => m.x)) - pad);
  const y0 = Math.max(0, Math.min(...masks.map((m) => m.y)) - pad);
  const x1 = Math.min(imageWidth, Math.max(...masks.map((m) => m.x + m.width)) + pad);
  const y1 = Math.min(imageHeight, Math.max(...masks.map((m) => m.y + m.height)) + pad);
  const width = Math.max(0, x1 - x0);
  const height = Math.max(0, y1 - y0);
  const data = new Uint8Array(width * height);
  for (const m of masks) {
    for (let y = 0; y < m.height; y++) {
      for (let x = 0; x < m.width; x++) if (m.data[y * m.width + x]) data[(m.y + y - y0) * width + (m.x + x - x0)] = 1;
    }
  }
  return { x: x0, y: y0, width, height, data };
}

/** How much of its box a detection's mask spans and covers, and how much of the box lies on openings. */
function boxCoverage(candidate: RemovalCandidate, openings: Uint8Array, imageWidth: number, imageHeight: number) {
  const bounds = pixelBounds(candidate.box, imageWidth, imageHeight);
  if (!bounds) return { spanX: 0, spanY: 0, cover: 0, openings: 0 };
  const [x0, y0, x1, y1] = bounds;
  const { mask } = candidate;
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  let covered = 0;
  let onOpenings = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if (openings[y * imageWidth + x]) onOpenings++;
      const mx = x - mask.x, my = y - mask.y;
      if (mx < 0 || my < 0 || mx >= mask.width || my >= mask.height || !mask.data[my * mask.width + mx]) continue;
      covered++;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  }
  const boxArea = (x1 - x0) * (y1 - y0);
  if (covered === 0) return { spanX: 0, spanY: 0, cover: 0, openings: onOpenings / boxArea };
  return { spanX: (maxX - minX + 1) / (x1 - x0), spanY: (maxY - minY + 1) / (y1 - y0), cover: covered / boxArea, openings: onOpenings / boxArea };
}

/** What the gate needs of the photo, computed once. */
export interface GateGrid {
  grid: CheckGrid;
  /** Surface per cell when the layout is trusted. */
  labels?: Uint8Array;
  /** Cells on any candidate's mask or on an opening: never ring. */
  blocked: Uint8Array;
  /** Cells per surface label that are not blocked (the visible part of each surface). */
  visible: Map<number, number>;
}

export function gateGrid(image: RawImage, candidates: readonly RemovalCandidate[], context: GateContext): GateGrid {
  const grid = checkGrid(image);
  const blocked = poolAny(context.openings, image.width, image.height, grid);
  for (const c of candidates) markRegion(blocked, c.mask, image.width, image.height, grid);
  const labels = context.layoutTrusted ? layoutLabels(context.analysis, grid.width, grid.height) : undefined;
  const visible = new Map<number, number>();
  if (labels) for (let i = 0; i < blocked.length; i++) if (!blocked[i]) visible.set(labels[i]!, (visible.get(labels[i]!) ?? 0) + 1);
  return { grid, blocked, visible, ...(labels ? { labels } : {}) };
}

/** A group's hole on the check grid, with the margin its checks read. */
export function groupHole(region: RegionMask, image: Pick<RawImage, 'width' | 'height'>, gate: GateGrid): HoleWindow {
  let pixels = 0;
  for (let i = 0; i < region.data.length; i++) pixels += region.data[i]!;
  const cellArea = (image.width / gate.grid.width) * (image.height / gate.grid.height);
  return poolWindow(region, image.width, image.height, gate.grid, windowMargin(pixels / cellArea));
}

/** The checks that need no fill: no fixture, whole masks, no opening in front, a hole the surface around can pay for. */
export function checkBeforeFill(
  image: RawImage,
  candidates: readonly RemovalCandidate[],
  members: number[],
  hole: HoleWindow,
  gate: GateGrid,
  context: GateContext,
): GroupVerdict {
  const t = { ...DEFAULT_GATE, ...context.thresholds };
  const shape = holeShape(hole, gate.grid);
  const coverage = members.filter((m) => candidates[m]!.detected).map((m) => boxCoverage(candidates[m]!, context.openings, image.width, image.height));
  const surfaceShare = gate.labels ? largestSurfaceShare(hole, gate) : 0;
  const verdict: GroupVerdict = { members, shape, coverage, surfaceShare };
  const fail = (reason: KeepReason, detail: string): GroupVerdict => ({ ...verdict, reason, detail });
  const fixture = members.map((m) => candidates[m]!).find((c) => isFixture(c.label));
  if (fixture) return fail('fixture', `a ${fixture.label} belongs to the property`);
  for (const c of coverage) {
    if (c.openings > t.maxOpeningShare) return fail('partly_occluded', `box ${percent(c.openings)} on a window or door`);
  }
  for (const c of coverage) {
    if (c.spanX < t.minSpan || c.spanY < t.minSpan) return fail('incomplete_mask', `mask spans ${percent(c.spanX)} × ${percent(c.spanY)} of its box`);
    if (c.cover < t.minBoxCover) return fail('incomplete_mask', `mask covers ${percent(c.cover)} of its box`);
  }
  const onCeiling = ceilingShare(hole, gate);
  if (onCeiling > t.maxCeilingShare) return fail('fixture', `${percent(onCeiling)} of it on the ceiling`);
  const height = heightAboveHorizon(members.map((m) => candidates[m]!.mask), context.analysis);
  if (height > t.mountedAbove * image.height) return fail('fixture', `all of it ${percent(height / image.height)} of the photo above eye level`);
  if (shape.share < t.minHoleShare) return fail('too_small', `hole ${(100 * shape.share).toFixed(2)} % of the photo`);
  if (shape.share > t.maxHoleShare) return fail('too_large', `hole ${percent(shape.share)} of the photo`);
  if (shape.relativeDepth > t.maxRelativeDepth) return fail('too_large', `hole ${percent(shape.relativeDepth)} deep`);
  if (surfaceShare > t.maxSurfaceShare) return fail('too_large', `hole takes ${percent(surfaceShare)} of its surface`);
  return verdict;
}

/** The fill's consistency with its surroundings and its seam. */
export function checkAfterFill(
  original: CheckGrid,
  filled: CheckGrid,
  verdict: GroupVerdict,
  hole: HoleWindow,
  gate: GateGrid,
  thresholds: Partial<GateThresholds> = {},
): GroupVerdict {
  const t = { ...DEFAULT_GATE, ...thresholds };
  const fill = measureFill(original, filled, hole, gate.blocked, gate.labels);
  const judged: GroupVerdict = { ...verdict, fill };
  const fail = (reason: KeepReason, detail: string): GroupVerdict => ({ ...judged, reason, detail });
  const { seam } = fill;
  if (fill.unmatchedShare > t.maxUnmatchedShare) return fail('partly_occluded', `${percent(fill.unmatchedShare)} of the hole has no visible surface around it`);
  if (seam.positions === 0 || seam.samples < t.minBorderMeasured * seam.positions) {
    return fail('partly_occluded', `${percent(seam.positions ? seam.samples / seam.positions : 0)} of the border lies on visible surface`);
  }
  if (fill.touchingShare > t.maxTouchingShare) return fail('partly_occluded', `${percent(fill.touchingShare)} of the border runs into something else`);
  for (const s of fill.surfaces) {
    if (s.colourDistance > t.maxColourDistance) return fail('fill_inconsistent', `colour ${s.colourDistance.toFixed(2)} σ from its surface`);
  }
  const tileCells = fill.tiles.reduce((sum, tile) => sum + tile.cells, 0);
  const shareOf = (bad: (tile: LocalConsistency) => boolean) =>
    tileCells > 0 ? fill.tiles.filter(bad).reduce((sum, tile) => sum + tile.cells, 0) / tileCells : 0;
  const offColour = shareOf((tile) => tile.colourDistance > t.tileColourDistance);
  if (offColour > t.maxOffColourShare) return fail('fill_inconsistent', `${percent(offColour)} of the fill off its surface's colour`);
  const smeared = shareOf((tile) => tile.ringTexture >= t.texturedRing && tile.textureRatio < t.smearRatio);
  if (smeared > t.maxSmearShare) return fail('fill_inconsistent', `${percent(smeared)} of the fill smoother than its textured surface`);
  if (seam.share > t.maxSeamShare) return fail('seam', `${percent(seam.share)} of the border steps`);
  const ratio = seam.border / Math.max(SEAM_RATIO_FLOOR, seam.control);
  if (ratio > t.maxSeamRatio) return fail('seam', `border steps ${ratio.toFixed(1)}× those beside it`);
  return judged;
}

/** Of the surfaces the hole lies on (each ≥ 10 % of it), the largest share of the surface (visible + hole) it takes. */
function largestSurfaceShare(hole: HoleWindow, gate: GateGrid): number {
  const labels = gate.labels!;
  const inHole = new Map<number, number>();
  let holeTotal = 0;
  for (let y = 0; y < hole.height; y++) {
    for (let x = 0; x < hole.width; x++) {
      if (hole.share[y * hole.width + x]! < 0.5) continue;
      const label = labels[(hole.y + y) * gate.grid.width + hole.x + x]!;
      inHole.set(label, (inHole.get(label) ?? 0) + 1);
      holeTotal++;
    }
  }
  let largest = 0;
  for (const [label, count] of inHole) {
    if (count < 0.1 * holeTotal) continue;
    largest = Math.max(largest, count / (count + (gate.visible.get(label) ?? 0)));
  }
  return largest;
}

/**
 * How far the lowest pixel of the masks lies above the horizon, in photo pixels (negative below it): the horizon is
 * the camera's eye level, and what is wholly above it hangs on a wall or the ceiling.
 */
function heightAboveHorizon(masks: readonly RegionMask[], analysis: RoomAnalysis): number {
  const { a, b, c } = analysis.horizon;
  if (!(Math.abs(b) > 1e-9)) return -Infinity;
  let lowest = -Infinity;
  for (const m of masks) {
    for (let y = m.height - 1; y >= 0; y--) {
      for (let x = 0; x < m.width; x++) {
        if (!m.data[y * m.width + x]) continue;
        // Signed height of this pixel above the horizon (image y grows downward).
        const horizonY = -(a * (m.x + x + 0.5) + c) / b;
        lowest = Math.max(lowest, m.y + y + 0.5 - horizonY);
      }
    }
  }
  return -lowest;
}

/** Share of the hole's cells on the layout's ceiling: what is up there (lamps, spotlights, rosettes) belongs to the room. */
function ceilingShare(hole: HoleWindow, gate: GateGrid): number {
  if (!gate.labels) return 0;
  let all = 0, ceiling = 0;
  for (let y = 0; y < hole.height; y++) {
    for (let x = 0; x < hole.width; x++) {
      if (hole.share[y * hole.width + x]! < 0.5) continue;
      all++;
      if (gate.labels[(hole.y + y) * gate.grid.width + hole.x + x] === CEILING) ceiling++;
    }
  }
  return all > 0 ? ceiling / all : 0;
}

function percent(share: number): string {
  return `${Math.round(100 * share)} %`;
}
