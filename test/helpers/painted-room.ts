import { srgbToLinear, byteOfLinear } from '../../src/vision/colour.js';
import type { PinholeCamera } from '../../src/vision/geometry/camera.js';
import type { Mat3, Vec3 } from '../../src/vision/geometry/vec3.js';
import type { RawImage } from '../../src/vision/raw-image.js';

/**
 * A box room rendered like a photo for the refresh tests: painted walls lit unevenly (brighter toward the window,
 * falling off with distance and height), a white ceiling, a floor of boards, a window with a white frame on the front
 * wall showing a bright view. 2 × 2 supersampled, with a little noise. Returns the truth of every pixel.
 */
export interface PaintedRoom {
  image: RawImage;
  camera: PinholeCamera;
  box: { left: number; right: number; front: number; floor: number; ceiling: number };
  /** Face index per pixel (FACE_LABELS order: 0 floor, 1 ceiling, 2 left, 3 front, 4 right), from the pixel centre. */
  labels: Uint8Array;
  /** 1 where any sample of the pixel saw the window's glass or frame. */
  window: Uint8Array;
  /** 1 where every sample of the pixel saw painted wall. */
  wall: Uint8Array;
  /** 1 where every sample of the pixel saw the same face (no edge between two faces crosses it). */
  pure: Uint8Array;
  /** The wall's albedo, linear RGB. */
  paint: [number, number, number];
  /** The light on the wall at each pixel (its luminance over the paint's), 0 off the walls. */
  light: Float32Array;
  /** With `furnished`: 1 where any sample of the pixel saw the sofa, the rug or an object on the floor. */
  furniture: Uint8Array;
}

/**
 * `furnished`: a sofa-like block in nearly the walls' colour stands before the front wall, a striped rug lies on the
 * floor and a few small dark objects stand on it and on the boards.
 */
export interface PaintedRoomOptions {
  furnished?: boolean;
  /**
   * The front wall left of the window (u < BLOTCHES_TO) in blotches of a cool white the walls' paint look refuses (old
   * paint showing through): a repaint would cover the rest of the face and leave them in their old paint.
   */
  oldWhiteBlotches?: boolean;
}

/** Where the front wall’s blotched part ends (metres along the wall), and the old white’s albedo. */
export const BLOTCHES_TO = -0.75;
const OLD_WHITE: [number, number, number] = [0.8, 0.82, 0.86];

/** The sofa (x, y, z ranges in metres, z above the floor), the rug on the floor, and small objects (x, y, side). */
const SOFA = { x0: -1.9, x1: 0.3, y0: 4.15, y1: 5, z1: 0.85 };
const RUG = { x0: -1.3, x1: 1.2, y0: 2.6, y1: 4.0 };
const OBJECTS: [number, number, number][] = [[-0.6, 3.2, 0.22], [0.5, 3.5, 0.18], [1.5, 3.0, 0.2], [-1.6, 2.4, 0.16]];

const PAINT: [number, number, number] = [0.62, 0.55, 0.44];
const CEILING: [number, number, number] = [0.8, 0.8, 0.79];
const BOARD: [number, number, number] = [0.24, 0.13, 0.06];
const SEAM: [number, number, number] = [0.09, 0.05, 0.025];
const FRAME: [number, number, number] = [0.85, 0.85, 0.85];
/** The window on the front wall (x from u0 to u1, heights above the floor z0 to z1, metres) and its frame's width. */
export const WINDOW = { u0: -0.6, u1: 0.8, z0: 0.9, z1: 2.2, frame: 0.07 };

export function paintedRoom(width = 480, height = 360, yawDeg = 18, pitchDeg = -7, options: PaintedRoomOptions = {}): PaintedRoom {
  const d = Math.PI / 180;
  const [yaw, pitch] = [yawDeg * d, pitchDeg * d];
  const f: Vec3 = [Math.sin(yaw) * Math.cos(pitch), Math.cos(yaw) * Math.cos(pitch), Math.sin(pitch)];
  const r: Vec3 = [Math.cos(yaw), -Math.sin(yaw), 0];
  const up: Vec3 = [r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0]];
  const rotation: Mat3 = [r[0], r[1], r[2], -up[0], -up[1], -up[2], f[0], f[1], f[2]];
  const camera: PinholeCamera = { width, height, focal: width / 2 / Math.tan(35 * d), cx: width / 2, cy: height / 2, rotation };
  const box = { left: -2.2, right: 2.4, front: 5, floor: -1.5, ceiling: 1.15 };
  const data = new Uint8Array(width * height * 3);
  const labels = new Uint8Array(width * height);
  const window = new Uint8Array(width * height);
  const wall = new Uint8Array(width * height);
  const pure = new Uint8Array(width * height).fill(1);
  const light = new Float32Array(width * height);
  const furniture = new Uint8Array(width * height);
  let noise = 987654321;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      const sum = [0, 0, 0];
      let walls = 0;
      let lightSum = 0;
      for (let s = 0; s < 4; s++) {
        const cx = (x + 0.25 + 0.5 * (s % 2) - camera.cx) / camera.focal;
        const cy = (y + 0.25 + 0.5 * (s >> 1) - camera.cy) / camera.focal;
        const ray: Vec3 = [rotation[0] * cx + rotation[3] * cy + rotation[6], rotation[1] * cx + rotation[4] * cy + rotation[7], rotation[2] * cx + rotation[5] * cy + rotation[8]];
        const hit = cast(box, ray);
        if (s === 0) labels[p] = hit.face;
        else if (hit.face !== labels[p]) pure[p] = 0;
        let colour: [number, number, number];
        const z = hit.point[2] - box.floor;
        const thing = options.furnished ? furnishing(ray, box.floor, hit) : undefined;
        if (thing) {
          furniture[p] = 1;
          colour = thing;
        } else if (hit.face === 0) {
          const seam = hit.point[0] / 0.15 - Math.floor(hit.point[0] / 0.15) < 0.06;
          const base = seam ? SEAM : BOARD;
          const e = 0.9 + 0.25 * Math.exp(-((hit.point[1] - 4) ** 2) / 2);
          colour = [base[0] * e, base[1] * e, base[2] * e];
        } else if (hit.face === 1) {
          colour = CEILING.map((c) => c * 0.75) as [number, number, number];
        } else {
          const u = hit.face === 3 ? hit.point[0] : hit.point[1];
          const inWindow = hit.face === 3 && u > WINDOW.u0 - WINDOW.frame && u < WINDOW.u1 + WINDOW.frame && z > WINDOW.z0 - WINDOW.frame && z < WINDOW.z1 + WINDOW.frame;
          if (inWindow) {
            window[p] = 1;
            const glass = u > WINDOW.u0 && u < WINDOW.u1 && z > WINDOW.z0 && z < WINDOW.z1;
            colour = glass ? [0.55 + 0.2 * (z - WINDOW.z0), 0.75, 0.95] : FRAME;
          } else {
            // Light from the window: strongest on the front wall near it, falling off along the side walls and upward.
            const toWindow = Math.hypot(hit.point[0] - 0.1, hit.point[1] - box.front, z - 1.5);
            const e = 0.35 + 0.85 * Math.exp(-(toWindow * toWindow) / 9) - 0.08 * (z / 2.65);
            // Old white left in blotches of 30 cm the size of the paint look's local light: each stands out from it.
            const blotch = options.oldWhiteBlotches && hit.face === 3 && u < BLOTCHES_TO && stipple(Math.floor(u / 0.3), Math.floor(z / 0.3)) < 0.5;
            const base = blotch ? OLD_WHITE : PAINT;
            colour = [base[0] * e, base[1] * e, base[2] * e];
            walls++;
            lightSum += e;
          }
        }
        for (let c = 0; c < 3; c++) sum[c]! += colour[c]!;
        if (thing) continue;
      }
      if (walls === 4) {
        wall[p] = 1;
        light[p] = lightSum / 4;
      }
      for (let c = 0; c < 3; c++) {
        noise = (noise * 1103515245 + 12345) & 0x7fffffff;
        data[p * 3 + c] = Math.max(0, Math.min(255, byteOfLinear(sum[c]! / 4) + ((noise >> 8) % 3) - 1));
      }
    }
  }
  return { image: { data, width, height, channels: 3 }, camera, box, labels, window, wall, pure, paint: PAINT, light, furniture };
}

/** The colour of the sofa, rug or object the ray meets before the room's surface `hit`, if any. */
function furnishing(d: Vec3, floor: number, hit: { face: number; point: Vec3 }): [number, number, number] | undefined {
  const along = Math.hypot(...hit.point);
  const length = Math.hypot(...d);
  const near = (t: number) => t > 0 && t * length < along - 1e-6;
  // Axis-aligned boxes standing on the floor: the nearest face the ray enters.
  const boxes: { x0: number; x1: number; y0: number; y1: number; z1: number; colour: (face: string, p: Vec3) => [number, number, number] }[] = [
    { ...SOFA, colour: (face) => (face === 'top' ? [PAINT[0] * 0.95, PAINT[1] * 0.95, PAINT[2] * 0.93] : [PAINT[0] * 0.7, PAINT[1] * 0.7, PAINT[2] * 0.68]) },
    ...OBJECTS.map(([x, y, side]) => ({ x0: x - side / 2, x1: x + side / 2, y0: y - side / 2, y1: y + side / 2, z1: side, colour: () => [0.05, 0.05, 0.06] as [number, number, number] })),
  ];
  let best = Infinity;
  let colour: [number, number, number] | undefined;
  for (const b of boxes) {
    let t0 = -Infinity;
    let t1 = Infinity;
    let entered = '';
    for (const [axis, lo, hi, name] of [[0, b.x0, b.x1, 'side'], [1, b.y0, b.y1, 'front'], [2, floor, floor + b.z1, 'top']] as const) {
      if (Math.abs(d[axis]) < 1e-12) {
        if (0 < lo || 0 > hi) t0 = Infinity;
        continue;
      }
      const a = (lo - 0) / d[axis];
      const c = (hi - 0) / d[axis];
      const enter = Math.min(a, c);
      if (enter > t0) {
        t0 = enter;
        entered = name;
      }
      t1 = Math.min(t1, Math.max(a, c));
    }
    if (t0 <= t1 && near(t0) && t0 < best) {
      best = t0;
      const p: Vec3 = [d[0] * t0, d[1] * t0, d[2] * t0];
      colour = b.colour(entered, p);
    }
  }
  if (colour) return colour;
  // The rug: red and cream stripes across it, on the floor.
  if (hit.face === 0 && hit.point[0] > RUG.x0 && hit.point[0] < RUG.x1 && hit.point[1] > RUG.y0 && hit.point[1] < RUG.y1) {
    return Math.floor((hit.point[1] - RUG.y0) / 0.2) % 2 === 0 ? [0.42, 0.06, 0.05] : [0.6, 0.5, 0.34];
  }
  return undefined;
}

function cast(box: PaintedRoom['box'], d: Vec3): { face: number; point: Vec3 } {
  let t = Infinity;
  let face = 3;
  const test = (value: number, f: number) => {
    if (value > 0 && value < t) {
      t = value;
      face = f;
    }
  };
  if (d[2] < 0) test(box.floor / d[2], 0);
  if (d[2] > 0) test(box.ceiling / d[2], 1);
  if (d[0] < 0) test(box.left / d[0], 2);
  if (d[0] > 0) test(box.right / d[0], 4);
  if (d[1] > 0) test(box.front / d[1], 3);
  return { face, point: [d[0] * t, d[1] * t, d[2] * t] };
}

/** A fixed pseudo-random value in [0, 1) per integer cell. */
function stipple(i: number, j: number): number {
  let h = (Math.imul(i, 73856093) ^ Math.imul(j, 19349663)) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177) >>> 0;
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** Linear light of an 8-bit sRGB code. */
export function linear(code: number): number {
  return srgbToLinear(code / 255);
}
