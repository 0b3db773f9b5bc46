import { LINEAR_OF_BYTE, LUMINANCE_WEIGHTS } from '../vision/colour.js';
import { layoutLabelMap, FLOOR, CEILING } from '../vision/geometry/room-box.js';
import type { RawImage } from '../vision/raw-image.js';
import type { Vec3 } from '../vision/geometry/vec3.js';
import type { RenderLight } from '../repositories/blender/render-scene.js';
import { pointInPolygon } from '../vision/polygon-mask.js';
import { wallNormal, type RoomModel, type RoomOpening } from './room-model.js';

/**
 * Albedo assumed for the walls of a listing photo (white and off-white paint reflect 0.7–0.85): the white card
 * against which the photo's light is measured. A dark feature wall reads as a dimmer light; docs/decisions/0011 says
 * what that costs.
 */
export const WALL_ALBEDO = 0.8;
/** The part of the light on the room's surfaces that comes from everywhere (bounced light) rather than the lights. */
export const DIFFUSE_SHARE = 0.5;
/** Linear values above this are clipped highlights, useless for measuring light. */
const CLIPPED = 0.93;
/**
 * An opening at least this much brighter than a white wall of the photo shows daylight (a view the camera's exposure
 * for the room blows out or nearly so).
 */
export const DAYLIGHT_BRIGHTNESS = 1.3;
/**
 * An opening with at least this share of its pixels clipped shows daylight however bright the walls are: a blown-out
 * window in a white room measures as bright as its walls.
 */
export const BLOWN_OUT_SHARE = 0.5;
/**
 * A view varies: foliage, buildings, sky and the window's own bars make its luminance's standard deviation at least
 * this share of its mean. Closed doors, cupboard fronts and plain wall the geometry took for an opening stay under it.
 */
export const VIEW_VARIATION = 0.2;
/**
 * Below this share of a white wall's brightness, what varies in an opening is the sensor's noise on a dark surface (a
 * night window, a dark cupboard), not a view.
 */
export const MIN_VIEW_BRIGHTNESS = 0.25;
/** Side of the grid the photo is sampled on for the light measurement. */
const SAMPLE_GRID = 96;

/** An area light of the render scene, and which opening it stands for (`fill`: the camera's side of the room). */
export type LightSource = Extract<RenderLight, { kind: 'area' }> & { from: string };

export interface LightEstimate {
  lights: LightSource[];
  ambient: { color: Vec3; strength: number };
  /** Linear luminance of a white surface in the photo (the photo's irradiance), for the surfaces' albedo. */
  whiteLevel: number;
  /** Wall pixels and the luminance a white surface would have there: what Blender's calibration matches. */
  calibration: { x: number; y: number; target: number }[];
  /**
   * Every opening of the room, in order, named as its light would be: what it shows (absent when none of its pixels is
   * in the photo) and whether it lights the room.
   */
  openings: { from: string; view?: OpeningView; lit: boolean }[];
}

/**
 * The photo's light as the renderer needs it: every window, French door or door the geometry found that shows
 * daylight (showsDaylight) becomes an area light on its rectangle, coloured by the view through it, brighter where its
 * pixels are clipped; a broad fill stands for the light from the camera's side of the room (the windows behind the
 * photographer); a dim ambient for the rest.
 * Their relative strengths come from what the openings show; the absolute level is fitted by the renderer so that a
 * white wall renders as bright as the photo's walls imply (white-card calibration on WALL_ALBEDO).
 */
export function estimateLight(photo: RawImage, room: RoomModel): LightEstimate {
  const { width, height } = photo;
  const gw = Math.min(SAMPLE_GRID, width);
  const gh = Math.max(1, Math.round((gw * height) / width));
  const labels = layoutLabelMap(room.camera, { ...room.box, back: -Infinity }, gw, gh);
  const calibration: LightEstimate['calibration'] = [];
  const wallChroma: Vec3 = [0, 0, 0];
  for (let gy = 0; gy < gh; gy++) {
    for (let gx = 0; gx < gw; gx++) {
      const face = labels[gy * gw + gx]!;
      if (face === FLOOR || face === CEILING) continue;
      const x = ((gx + 0.5) * width) / gw;
      const y = ((gy + 0.5) * height) / gh;
      if (room.openings.some((o) => pointInPolygon(o.polygon, x, y))) continue;
      const rgb = linearAt(photo, Math.floor(x), Math.floor(y));
      if (Math.max(...rgb) >= CLIPPED) continue;
      const luminance = lum(rgb);
      if (luminance <= 1e-4) continue;
      calibration.push({ x, y, target: luminance / WALL_ALBEDO });
      for (let c = 0; c < 3; c++) wallChroma[c] = wallChroma[c]! + rgb[c]! / luminance;
    }
  }
  const whiteLevel = calibration.length > 0 ? medianOf(calibration.map((s) => s.target)) : 0.6;
  // Walls are often tinted paint (an orange accent wall is not orange light): a fifth of their colour is kept.
  const neutral: Vec3 = calibration.length > 0 ? normalizeColour(wallChroma, 0.2) : [1, 1, 1];

  const lights: LightSource[] = [];
  const openings: LightEstimate['openings'] = room.openings.map((opening, index) => {
    const from = `${opening.kind}-${index}`;
    const seen = openingLight(photo, room, opening, whiteLevel);
    if (seen?.light) lights.push({ ...seen.light, from });
    return { from, ...(seen ? { view: seen.view } : {}), lit: seen?.light !== undefined };
  });
  // The photographer's side: a broad soft light behind and above the camera, as bright as the windows together
  // when the photo shows some, the only light otherwise.
  const windowPower = lights.reduce((sum, l) => sum + l.power, 0);
  lights.push({
    kind: 'area',
    center: [0, -1.2, (room.box.ceiling + room.box.floor) / 2 + 0.3],
    direction: [0, 1, 0],
    up: [0, 0, 1],
    width: Math.max(2, room.box.right - room.box.left),
    height: Math.max(1.5, room.box.ceiling - room.box.floor - 0.3),
    color: neutral,
    power: windowPower > 0 ? windowPower * 0.6 : 400,
    glossy: false,
    from: 'fill',
  });
  // Interiors are lit mostly by light that has bounced: a world light gives the diffuse share, so that a piece casts
  // the soft, partial shadow real rooms show rather than the near-black one of a few direct lights (measured on the
  // known-answer scenes, docs/benchmarks.md). The lights' power spread over the room's surfaces is their mean
  // irradiance; a uniform world of strength s gives about π·s/2 on a wall or the floor (half its dome hidden).
  const power = lights.reduce((sum, l) => sum + l.power, 0);
  const roomWidth = room.box.right - room.box.left;
  const roomDepth = room.box.front + 1;
  const roomHeight = room.box.ceiling - room.box.floor;
  const surfaces = 2 * roomWidth * roomDepth + 2 * roomHeight * (roomWidth + roomDepth);
  const directIrradiance = power / Math.max(surfaces, 1);
  const ambientStrength = (DIFFUSE_SHARE / (1 - DIFFUSE_SHARE)) * directIrradiance / (Math.PI / 2);
  return { lights, ambient: { color: neutral, strength: ambientStrength }, whiteLevel, calibration, openings };
}

/** What an opening shows, and the light it becomes where it shows daylight; undefined when it is not in the photo. */
function openingLight(photo: RawImage, room: RoomModel, opening: RoomOpening, whiteLevel: number): { view: OpeningView; light?: Omit<LightSource, 'from'> } | undefined {
  const xs = opening.polygon.map((p) => p[0]);
  const ys = opening.polygon.map((p) => p[1]);
  const x0 = Math.max(0, Math.floor(Math.min(...xs)));
  const x1 = Math.min(photo.width, Math.ceil(Math.max(...xs)));
  const y0 = Math.max(0, Math.floor(Math.min(...ys)));
  const y1 = Math.min(photo.height, Math.ceil(Math.max(...ys)));
  const step = Math.max(1, Math.floor(Math.sqrt(((x1 - x0) * (y1 - y0)) / 4000)));
  const sum: Vec3 = [0, 0, 0];
  let squares = 0;
  let count = 0;
  let clipped = 0;
  // One sample per step × step cell, at a phase that moves from cell to cell in both directions, so that blinds or
  // bars with the step's period, upright or level, are not sampled at one phase only and read as plain.
  for (let row = 0; y0 + row * step < y1; row++) {
    for (let column = 0; x0 + column * step < x1; column++) {
      const x = x0 + column * step + (row % step);
      const y = y0 + row * step + (column % step);
      if (x >= x1 || y >= y1 || !pointInPolygon(opening.polygon, x + 0.5, y + 0.5)) continue;
      const rgb = linearAt(photo, x, y);
      for (let c = 0; c < 3; c++) sum[c] = sum[c]! + rgb[c]!;
      squares += lum(rgb) ** 2;
      if (Math.max(...rgb) >= CLIPPED) clipped++;
      count++;
    }
  }
  if (count === 0) return undefined;
  const mean: Vec3 = [sum[0] / count, sum[1] / count, sum[2] / count];
  const luminance = lum(mean);
  const brightness = luminance / Math.max(whiteLevel, 1e-3);
  const view: OpeningView = {
    brightness,
    variation: Math.sqrt(Math.max(0, squares / count - luminance ** 2)) / Math.max(luminance, 1e-6),
    clippedShare: clipped / count,
  };
  if (!showsDaylight(opening.kind, view)) return { view };
  const widthM = opening.u1 - opening.u0;
  const heightM = opening.top - opening.bottom;
  if (!(widthM > 0.1 && heightM > 0.1)) return { view };
  const u = (opening.u0 + opening.u1) / 2;
  const z = room.box.floor + (opening.bottom + opening.top) / 2;
  const inward = wallNormal(opening.wall);
  // Just inside the wall plane, so the shadow-catching wall does not hide it.
  const inset = 0.02;
  const center: Vec3 =
    opening.wall === 'wall-front' ? [u, room.box.front - inset, z] : opening.wall === 'wall-left' ? [room.box.left + inset, u, z] : [room.box.right - inset, u, z];
  // Clipped pixels hide how bright the view is: they count as four times white.
  const boost = 1 + 3 * view.clippedShare;
  return {
    view,
    light: {
      kind: 'area',
      center,
      direction: inward,
      up: [0, 0, 1],
      width: widthM,
      height: heightM,
      color: normalizeColour(mean, 0.5),
      power: 300 * widthM * heightM * Math.max(0.5, brightness) * boost,
    },
  };
}

/** What an opening shows, measured on its pixels (linear light). */
export interface OpeningView {
  /** Mean luminance over a white wall's (the photo's white level). */
  brightness: number;
  /** Standard deviation of the luminance over its mean. */
  variation: number;
  /** Share of the pixels with a clipped channel. */
  clippedShare: number;
}

/**
 * Whether an opening lights the room: it must show daylight, by being at least 30 % brighter than a white wall, by
 * being mostly blown out, or (a window or French door, not a door) by varying as a view does. A door no brighter than
 * a wall leads to another room; a window as plain as a wall and no brighter is a closed door, a cupboard's front or plain wall that
 * the geometry took for a window, and a light there would cast every piece's shadow away from it, across the room. On
 * the shared empty rooms this turns off 12 of the 76 windows and French doors the stagings' analyses found: 8 on closet
 * doors, a white door or plain wall, 4 parts of windows whose whole rectangles stay lights (docs/benchmarks.md,
 * "Which openings light a staging").
 */
export function showsDaylight(kind: RoomOpening['kind'], view: OpeningView): boolean {
  if (view.brightness >= DAYLIGHT_BRIGHTNESS || view.clippedShare >= BLOWN_OUT_SHARE) return true;
  return kind !== 'door' && view.brightness >= MIN_VIEW_BRIGHTNESS && view.variation >= VIEW_VARIATION;
}

function linearAt(photo: RawImage, x: number, y: number): Vec3 {
  const i = (y * photo.width + x) * photo.channels;
  if (photo.channels < 3) {
    const v = LINEAR_OF_BYTE[photo.data[i]!]!;
    return [v, v, v];
  }
  return [LINEAR_OF_BYTE[photo.data[i]!]!, LINEAR_OF_BYTE[photo.data[i + 1]!]!, LINEAR_OF_BYTE[photo.data[i + 2]!]!];
}

function lum(rgb: Readonly<Vec3>): number {
  return LUMINANCE_WEIGHTS[0] * rgb[0] + LUMINANCE_WEIGHTS[1] * rgb[1] + LUMINANCE_WEIGHTS[2] * rgb[2];
}

/** A colour scaled to luminance 1 with `saturation` of its chroma kept: light colour from what is not quite neutral. */
function normalizeColour(rgb: Readonly<Vec3>, saturation: number): Vec3 {
  const l = lum(rgb);
  if (!(l > 0)) return [1, 1, 1];
  return [1 - saturation + (saturation * rgb[0]) / l, 1 - saturation + (saturation * rgb[1]) / l, 1 - saturation + (saturation * rgb[2]) / l];
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
