import { boxMean } from '../box-filter.js';
import { LINEAR_OF_BYTE, LUMINANCE_WEIGHTS } from '../colour.js';
import { bilinearSampler, type ColourPlanes } from '../colour-planes.js';
import { robustQuadraticSurface } from '../declutter/floor-appearance.js';
import type { FloorPlane, PinholeCamera } from '../geometry/camera.js';
import type { RawImage } from '../raw-image.js';
import type { FloorSampler } from './floor-materials.js';
import { WHITE_ALBEDO, type SceneLight } from './scene-light.js';
import { blendSurface, type WorkingPlane } from './surface-matte.js';

/**
 * A new floor laid on the floor's plane and lit by the photo's light. Each pixel is mapped to the floor point it sees
 * (world metres, from the camera and the floor plane) and the material is sampled there with the pixel's footprint,
 * so boards and tiles keep their size and converge to the vanishing points. The light is the photo's floor luminance
 * smoothed over about a board's length on the floor (the old boards and their grain must not print through; broad
 * shadows, the falloff from a window and the shadows at the foot of furniture stay), with what rises above the floor's
 * smooth lighting trend (reflections of windows in a glossy floor, glare) halved in log units, over the old floor's
 * albedo. The old texture is not kept: the photo's noise is given back as grain instead.
 */
export interface FloorRelay {
  camera: PinholeCamera;
  plane: FloorPlane;
  sampler: FloorSampler;
  light: SceneLight;
  /** The old floor's luminance albedo. */
  oldAlbedo: number;
  /** The photo's noise, 8-bit levels, and the grain's seed. */
  grain: { sigma: number; seed: number };
}

/** Floor distance over which the photo's floor luminance is averaged into light, metres. */
const LIGHT_SPAN = 0.35;
/** Radii (working cells) of the averages the span is interpolated between. */
const LIGHT_RADII = [2, 6, 18, 54] as const;
const SMALLEST_RADIUS = LIGHT_RADII[0];
const LARGEST_RADIUS = LIGHT_RADII[LIGHT_RADII.length - 1]!;
/** Share of the light above the knee (the white surfaces' light) that is kept on the new floor. */
const ABOVE_KNEE = 0.3;
/** Share (log units) of the rise above the floor's lighting trend that is kept: reflections and glare damped. */
const HIGHLIGHT_KEPT = 0.5;

export function relayFloor(image: RawImage, matte: WorkingPlane, shading: WorkingPlane, floor: FloorRelay): { image: RawImage; changeMask: Uint8Array; changedPixels: number } {
  const { width, height } = image;
  const shade = bilinearSampler([shading.values], shading.width, shading.height, width, height);
  const mapping = floorMapping(floor.camera, floor.plane);
  const here = new Float64Array(2);
  const right = new Float64Array(2);
  const below = new Float64Array(2);
  const sampled = new Float64Array(1);
  const albedo = new Float64Array(3);
  const [cr, cg, cb] = floor.light.cast;
  const gain = 1 / Math.max(0.02, floor.oldAlbedo);
  // The light that makes the room's white surfaces look white: light beyond it on the floor (glare, a reflection the
  // damping left, a dark old floor's highlights under a pale new one) is compressed instead of burning out.
  const knee = floor.light.whiteLevel / WHITE_ALBEDO;
  return blendSurface(
    image,
    matte,
    (x, y, _photo, out) => {
      const px = x + 0.5;
      const py = y + 0.5;
      if (!mapping(px, py, here) || !mapping(px + 1, py, right) || !mapping(px, py + 1, below)) {
        // At or above the horizon: no floor there to lay (a matte that reaches it is a layout's mistake).
        out[0] = _photo[0]!;
        out[1] = _photo[1]!;
        out[2] = _photo[2]!;
        return;
      }
      const footprint = Math.max(Math.hypot(right[0]! - here[0]!, right[1]! - here[1]!), Math.hypot(below[0]! - here[0]!, below[1]! - here[1]!));
      floor.sampler(here[0]!, here[1]!, footprint, albedo);
      shade(x, y, sampled, 0);
      const raw = Math.max(0, sampled[0]!) * gain;
      const light = raw <= knee ? raw : knee + (raw - knee) * ABOVE_KNEE;
      out[0] = albedo[0]! * cr * light;
      out[1] = albedo[1]! * cg * light;
      out[2] = albedo[2]! * cb * light;
    },
    floor.grain,
  );
}

/**
 * Maps a photo point to the world floor point it sees (X right, Y forward, metres, the camera above the origin), or
 * returns false at or above the horizon.
 */
export function floorMapping(camera: PinholeCamera, plane: FloorPlane): (x: number, y: number, out: Float64Array) => boolean {
  const r = camera.rotation;
  const [nx, ny, nz] = plane.normal;
  return (x, y, out) => {
    const dx = (x - camera.cx) / camera.focal;
    const dy = (y - camera.cy) / camera.focal;
    const along = nx * dx + ny * dy + nz;
    // Rays within a hair of the horizon meet the floor kilometres away: no floor to speak of.
    if (along <= 1e-3) return false;
    const t = plane.distance / along;
    const cx = dx * t;
    const cy = dy * t;
    const cz = t;
    out[0] = r[0] * cx + r[3] * cy + r[6] * cz;
    out[1] = r[1] * cx + r[4] * cy + r[7] * cz;
    return true;
  };
}

/**
 * The light on the floor at the working size (linear luminance), over the floor cells of `mask`: averages of the
 * floor's own cells at a few radii, picked per cell by how many cells LIGHT_SPAN covers there, then the highlights
 * damped against a robust quadratic trend. `scale` is photo pixels per working cell.
 */
export function floorShading(planes: ColourPlanes, mask: Uint8Array, camera: PinholeCamera, plane: FloorPlane, scale: number): WorkingPlane {
  const { width, height } = planes;
  const n = width * height;
  const luminance = new Float32Array(n);
  const weight = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (!mask[i]) continue;
    weight[i] = 1;
    luminance[i] =
      LUMINANCE_WEIGHTS[0] * LINEAR_OF_BYTE[Math.round(planes.r[i]! * 255)]! +
      LUMINANCE_WEIGHTS[1] * LINEAR_OF_BYTE[Math.round(planes.g[i]! * 255)]! +
      LUMINANCE_WEIGHTS[2] * LINEAR_OF_BYTE[Math.round(planes.b[i]! * 255)]!;
  }
  const levels = LIGHT_RADII.map((radius) => {
    const sum = boxMean(boxMean(luminance, width, height, radius), width, height, radius);
    const count = boxMean(boxMean(weight, width, height, radius), width, height, radius);
    return { sum, count };
  });
  const mapping = floorMapping(camera, plane);
  const a = new Float64Array(2);
  const b = new Float64Array(2);
  const values = new Float32Array(n);
  const logs = new Float32Array(n);
  const cells: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!mask[i]) continue;
      const px = (x + 0.5) * scale;
      const py = (y + 0.5) * scale;
      let radius: number = LARGEST_RADIUS;
      if (mapping(px, py, a) && mapping(px, py + scale, b)) {
        const metresPerCell = Math.max(1e-4, Math.hypot(b[0]! - a[0]!, b[1]! - a[1]!));
        // A box of radius r averages 2r + 1 cells; two passes reach about as far again.
        radius = LIGHT_SPAN / metresPerCell / 2;
      }
      // The radii grow threefold: the position between them is a base-3 logarithm.
      const position = Math.log(Math.min(Math.max(radius, SMALLEST_RADIUS), LARGEST_RADIUS) / SMALLEST_RADIUS) / Math.log(3);
      const low = Math.min(LIGHT_RADII.length - 2, Math.floor(position));
      const t = position - low;
      const mean = (k: number) => (levels[k]!.count[i]! > 1e-6 ? levels[k]!.sum[i]! / levels[k]!.count[i]! : luminance[i]!);
      values[i] = mean(low) * (1 - t) + mean(low + 1) * t;
      logs[i] = Math.log(values[i]! + 1e-3);
      cells.push(i);
    }
  }
  if (cells.length === 0) return { width, height, values };
  const trend = robustQuadraticSurface(logs, width, height, Int32Array.from(cells));
  for (const i of cells) {
    const rise = logs[i]! - trend[i]!;
    if (rise > 0) values[i] = Math.exp(trend[i]! + HIGHLIGHT_KEPT * rise) - 1e-3;
  }
  // Cells off the floor take the light of the floor beside them, for the matte's outer ramp.
  const filledSum = boxMean(Float32Array.from(values, (v, i) => v * weight[i]!), width, height, 2);
  const filledCount = boxMean(weight, width, height, 2);
  for (let i = 0; i < n; i++) if (!mask[i] && filledCount[i]! > 1e-6) values[i] = filledSum[i]! / filledCount[i]!;
  return { width, height, values };
}
