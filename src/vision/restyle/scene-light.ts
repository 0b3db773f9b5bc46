import { LINEAR_OF_BYTE, LUMINANCE_WEIGHTS } from '../colour.js';
import type { ColourPlanes } from '../colour-planes.js';
import { DEFAULT_WHITE_BALANCE, estimateWhiteBalance } from '../enhance/white-balance.js';
import { buildPreview } from '../enhance/preview.js';
import type { RawImage } from '../raw-image.js';

/**
 * The photo's light as a restyled surface must reproduce it: its colour, from the scene's white and grey surfaces
 * (the enhancer's white-balance estimate, trusted as far as its own confidence goes), and its level where it meets the
 * room's white surfaces, so that a surface's albedo can be told from the light falling on it.
 */
export interface SceneLight {
  /** Colour of the light, linear RGB scaled to luminance 1. */
  cast: [number, number, number];
  /** Linear luminance of the room's white surfaces: a surface this bright is taken for white paint. */
  whiteLevel: number;
  /** How far the colour estimate is trusted (0–1); the cast is already faded by it toward neutral. */
  castConfidence: number;
}

/** Albedo (luminance) of white paint: what a surface as bright as the room's white surfaces is taken to be. */
export const WHITE_ALBEDO = 0.85;
/** A cell within this (log chromaticity, once the cast is removed) of neutral is a white or grey surface. */
const NEUTRAL_RADIUS = 0.12;
/** Cells this close to clipping say nothing about the level (a lamp, a window's glare). */
const CLIPPED = 0.97;
/** Fewer neutral cells than this share of the reference and the reference's brightest part stands in. */
const MIN_NEUTRAL_SHARE = 0.02;

/**
 * `reference` (cells of `planes`, 1 = use) is where white surfaces are looked for: the walls and the ceiling, never
 * windows (the view's light is another light) or the floor (its own colour is what the floor changes).
 */
export function estimateSceneLight(image: RawImage, planes: ColourPlanes, reference: Uint8Array): SceneLight {
  const balance = estimateWhiteBalance(buildPreview(image, 250_000), DEFAULT_WHITE_BALANCE);
  const confidence = balance.confidence;
  const raw = balance.illuminant.map((v) => v ** confidence) as [number, number, number];
  const rawLuminance = LUMINANCE_WEIGHTS[0] * raw[0] + LUMINANCE_WEIGHTS[1] * raw[1] + LUMINANCE_WEIGHTS[2] * raw[2];
  const cast = raw.map((v) => v / rawLuminance) as [number, number, number];

  const neutral: number[] = [];
  const all: number[] = [];
  for (let i = 0; i < reference.length; i++) {
    if (!reference[i]) continue;
    const r = LINEAR_OF_BYTE[Math.round(planes.r[i]! * 255)]!;
    const g = LINEAR_OF_BYTE[Math.round(planes.g[i]! * 255)]!;
    const b = LINEAR_OF_BYTE[Math.round(planes.b[i]! * 255)]!;
    if (Math.max(planes.r[i]!, planes.g[i]!, planes.b[i]!) >= CLIPPED) continue;
    const luminance = LUMINANCE_WEIGHTS[0] * r + LUMINANCE_WEIGHTS[1] * g + LUMINANCE_WEIGHTS[2] * b;
    if (luminance < 0.01) continue;
    all.push(luminance);
    const redShift = Math.log((r + 0.005) / (g + 0.005) / (cast[0] / cast[1]));
    const blueShift = Math.log((b + 0.005) / (g + 0.005) / (cast[2] / cast[1]));
    if (Math.hypot(redShift, blueShift) <= NEUTRAL_RADIUS) neutral.push(luminance);
  }
  let whiteLevel: number;
  if (neutral.length >= Math.max(20, MIN_NEUTRAL_SHARE * all.length)) whiteLevel = quantile(neutral, 0.5);
  else if (all.length > 0) whiteLevel = quantile(all, 0.9);
  else whiteLevel = 0.5;
  return { cast, whiteLevel: Math.max(0.02, whiteLevel), castConfidence: confidence };
}

/** The albedo (luminance) of a surface whose typical luminance is `luminance`, judged against the white surfaces. */
export function albedoOf(luminance: number, light: SceneLight): number {
  return WHITE_ALBEDO * Math.min(1, luminance / light.whiteLevel);
}

function quantile(values: number[], q: number): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
