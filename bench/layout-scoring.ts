/** Scoring a room layout against one drawn by hand (bench/data/photo-layouts.json): shared by the geometry benches. */
import fs from 'node:fs';
import path from 'node:path';
import { fillPolygon } from '../src/vision/polygon-mask.js';
import { layoutDisagreement } from '../src/vision/geometry/layout-agreement.js';

export type Point = [number, number];
export type Polygon = Point[];

/** Face classes used for scoring: 0 unscored, 1 floor, 2 ceiling, 3.. walls (distinct ids, names not trusted). */
export const UNSCORED = 0;
export const FLOOR = 1;
export const CEILING = 2;

export interface DrawnLayout {
  file: string;
  /** The folder of the photo: "empty-rooms" for ../shared/testdata/empty-rooms; absent for ../shared/testdata/rooms. */
  set?: 'empty-rooms';
  width: number;
  height: number;
  faces: Partial<Record<'floor' | 'ceiling' | 'wall-left' | 'wall-front' | 'wall-right' | 'wall-back', Polygon[]>>;
  ignore?: Polygon[];
  verticals?: [Point, Point][];
  /**
   * The windows and doors, where drawn (absent: not drawn; empty: none in view): each the hole's rectangle on its wall
   * (the frame's outer edge, trim and casing being wall), whole behind whatever stands before it, as the room
   * renderer's `openings[].polygon` is. Doorways, passages and glazed doors reaching the floor are doors.
   */
  openings?: DrawnOpening[];
  notes?: string;
}

export interface DrawnOpening {
  kind: 'window' | 'door';
  polygon: Polygon;
  note?: string;
}

/** Openings smaller than this share of the image are not scored (the room renderer's benches count the same). */
export const MIN_OPENING_SHARE = 0.005;

/** Fills the polygon (even-odd, sampled at pixel centres) into `map` with `value`, in a w × h grid scaled by `s`. */
export function fillScaledPolygon(map: Uint8Array, w: number, h: number, polygon: Polygon, value: number, s = 1): void {
  fillPolygon(map, w, h, polygon.map(([x, y]) => [x * s, y * s] as const), value);
}

/**
 * 1 on the windows and doors drawn by hand on the photo named `file` (bench/data/photo-layouts.json), at width ×
 * height (the drawing scaled to that width); all 0 where none were drawn.
 */
export function drawnOpeningsMask(file: string, width: number, height: number): Uint8Array {
  drawnLayouts ??= JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'data/photo-layouts.json'), 'utf8')) as DrawnLayout[];
  const mask = new Uint8Array(width * height);
  const layout = drawnLayouts.find((l) => l.file === file);
  for (const opening of layout?.openings ?? []) fillScaledPolygon(mask, width, height, opening.polygon, 1, width / layout!.width);
  return mask;
}

let drawnLayouts: DrawnLayout[] | undefined;

/**
 * Share of the scored pixels whose class differs, walls matched one-to-one by overlap. `predicted` and `truth` use
 * FLOOR, CEILING and wall ids ≥ 3 (any ids: the names are not compared); truth UNSCORED pixels are skipped.
 */
export function layoutError(predicted: Uint8Array, truth: Uint8Array): { error: number; scored: number } {
  // The shared measure counts in room-box's face ids (floor 0, ceiling 1, walls above): one less than these.
  const scored = truth.map((t) => (t === UNSCORED ? 0 : 1));
  const count = scored.reduce((n, v) => n + v, 0);
  return { error: layoutDisagreement(predicted.map((p) => p - 1), truth.map((t) => t - 1), scored), scored: count };
}

const FACE_IDS: Record<string, number> = { floor: FLOOR, ceiling: CEILING, 'wall-left': 3, 'wall-front': 4, 'wall-right': 5, 'wall-back': 6 };

export function drawnClasses(layout: DrawnLayout, w: number, h: number): Uint8Array {
  const s = w / layout.width;
  const map = new Uint8Array(w * h);
  for (const [face, polygons] of Object.entries(layout.faces)) {
    for (const polygon of polygons ?? []) fillScaledPolygon(map, w, h, polygon, FACE_IDS[face]!, s);
  }
  for (const polygon of layout.ignore ?? []) fillScaledPolygon(map, w, h, polygon, UNSCORED, s);
  return map;
}

/** Intersection over union of two polygons rasterised at pixel centres in a w × h grid. */
export function polygonIoU(a: Polygon, b: Polygon, w: number, h: number): number {
  const ma = new Uint8Array(w * h);
  const mb = new Uint8Array(w * h);
  fillPolygon(ma, w, h, a);
  fillPolygon(mb, w, h, b);
  let inter = 0;
  let union = 0;
  for (let i = 0; i < ma.length; i++) {
    if (ma[i]! & mb[i]!) inter++;
    if (ma[i]! | mb[i]!) union++;
  }
  return union ? inter / union : 0;
}

export interface OpeningMatch {
  /** Per target opening, the best IoU of any predicted opening (of either kind). */
  bestIoU: number[];
  /** Predicted openings overlapping some target with IoU ≥ 0.3. */
  predictedMatched: number;
}

/** Target openings against predicted ones, polygons in the same w × h grid: how the geometry benches score openings. */
export function matchOpenings(targets: Polygon[], predicted: Polygon[], w: number, h: number): OpeningMatch {
  const ious = targets.map((t) => predicted.map((p) => polygonIoU(t, p, w, h)));
  return {
    bestIoU: ious.map((row) => Math.max(0, ...row)),
    predictedMatched: predicted.filter((_, k) => ious.some((row) => row[k]! >= 0.3)).length,
  };
}
