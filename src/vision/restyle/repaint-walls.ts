import { boxMean } from '../box-filter.js';
import { LINEAR_OF_BYTE, LUMINANCE_WEIGHTS } from '../colour.js';
import { bilinearSampler, type ColourPlanes } from '../colour-planes.js';
import type { RawImage } from '../raw-image.js';
import type { SceneLight } from './scene-light.js';
import { blendSurface, type WorkingPlane } from './surface-matte.js';

/**
 * New paint on the walls, keeping the photo's light. The photo's wall is its old paint's albedo times the light
 * falling on it; the light is the photo's luminance over the old albedo (one albedo for the walls' paint, judged
 * against the room's white surfaces: see SceneLight), split into a smooth, edge-aware shading and the fine texture
 * (the luminance's ratio to that shading: the paint's grain, the photo's noise). The new wall is
 *
 *   new paint × the scene's light colour × the local tint of the light × shading / old albedo × texture
 *
 * in linear light: shadows, sun patches and the falloff from the windows stay where they were, the new colour is seen
 * under the photo's light (a white paint in a warm-lit room looks warm, as the room's white ceiling does), and the
 * ratio of new to old luminance is smooth.
 */
export interface WallPaint {
  /** The new paint's albedo, linear RGB. */
  paint: readonly [number, number, number];
  light: SceneLight;
  /** The old paint's luminance albedo. */
  oldAlbedo: number;
}

/** The texture ratio is kept within these bounds: a speck the mask let through must not print as a blot. */
const TEXTURE_RANGE = [0.5, 2] as const;
/** The local tint of the light is kept within this (log chromaticity): more is a coloured object, not light. */
const MAX_TINT = 0.1;

export function repaintWalls(
  image: RawImage,
  matte: WorkingPlane,
  shading: WorkingPlane,
  tint: LightTint,
  wall: WallPaint,
): { image: RawImage; changeMask: Uint8Array; changedPixels: number } {
  const { width, height } = image;
  const shade = bilinearSampler([shading.values], shading.width, shading.height, width, height);
  const tints = bilinearSampler([tint.red, tint.blue], tint.width, tint.height, width, height);
  const sampled = new Float64Array(3);
  const [cr, cg, cb] = wall.light.cast;
  const gain = 1 / Math.max(0.02, wall.oldAlbedo);
  return blendSurface(image, matte, (x, y, photo, out) => {
    shade(x, y, sampled, 0);
    tints(x, y, sampled, 1);
    const luminance = LUMINANCE_WEIGHTS[0] * photo[0]! + LUMINANCE_WEIGHTS[1] * photo[1]! + LUMINANCE_WEIGHTS[2] * photo[2]!;
    const smooth = Math.max(1e-4, sampled[0]!);
    const texture = Math.min(TEXTURE_RANGE[1], Math.max(TEXTURE_RANGE[0], luminance / smooth));
    const red = cr * Math.exp(sampled[1]!);
    const blue = cb * Math.exp(sampled[2]!);
    // The tint moves the light's colour, not its level.
    const level = 1 / (LUMINANCE_WEIGHTS[0] * red + LUMINANCE_WEIGHTS[1] * cg + LUMINANCE_WEIGHTS[2] * blue);
    const light = smooth * texture * gain * level;
    out[0] = wall.paint[0] * red * light;
    out[1] = wall.paint[1] * cg * light;
    out[2] = wall.paint[2] * blue * light;
  });
}

/** How the light's colour over the surface differs from place to place, log R/G and log B/G against its median. */
export interface LightTint {
  width: number;
  height: number;
  red: Float32Array;
  blue: Float32Array;
}

/**
 * The local tint of the light on the surface: its cells' log chromaticity, averaged over `radius` cells of the surface
 * alone, less the surface's median. A paint is one colour, so what varies is the light (warm sun, blue shade);
 * the variation is bounded so that an object the mask let through cannot colour the new paint.
 */
export function lightTint(planes: ColourPlanes, mask: Uint8Array, radius: number): LightTint {
  const { width, height } = planes;
  const n = width * height;
  const red = new Float32Array(n);
  const blue = new Float32Array(n);
  const weight = new Float32Array(n);
  const reds: number[] = [];
  const blues: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!mask[i]) continue;
    const r = LINEAR_OF_BYTE[Math.round(planes.r[i]! * 255)]! + 0.005;
    const g = LINEAR_OF_BYTE[Math.round(planes.g[i]! * 255)]! + 0.005;
    const b = LINEAR_OF_BYTE[Math.round(planes.b[i]! * 255)]! + 0.005;
    red[i] = Math.log(r / g);
    blue[i] = Math.log(b / g);
    weight[i] = 1;
    reds.push(red[i]!);
    blues.push(blue[i]!);
  }
  if (reds.length === 0) return { width, height, red: new Float32Array(n), blue: new Float32Array(n) };
  const medianRed = median(reds);
  const medianBlue = median(blues);
  const count = boxMean(weight, width, height, radius);
  const smoothRed = boxMean(red, width, height, radius);
  const smoothBlue = boxMean(blue, width, height, radius);
  for (let i = 0; i < n; i++) {
    const c = count[i]!;
    red[i] = c > 1e-3 ? clamp(smoothRed[i]! / c - medianRed, MAX_TINT) : 0;
    blue[i] = c > 1e-3 ? clamp(smoothBlue[i]! / c - medianBlue, MAX_TINT) : 0;
  }
  return { width, height, red, blue };
}

function clamp(value: number, limit: number): number {
  return Math.max(-limit, Math.min(limit, value));
}

function median(values: number[]): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.floor(sorted.length / 2)]!;
}
