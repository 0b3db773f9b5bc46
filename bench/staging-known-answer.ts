/**
 * The staging engine against known answers: our furniture rendered into rendered rooms whose camera, light and
 * geometry are exact, compared with the same piece rendered IN the room by the room's own renderer.
 *
 *   node --import tsx bench/staging-known-answer.ts [--rooms N] [--seed S] [--out DIR] [--no-write]
 *       [--width W --height H] [--samples N] [--ours-samples N] [--threads N] [--sheet-rooms N] [--metrics-only]
 *
 * Defaults: 30 rooms, seed 1, DIR /tmp/staging-ka, 480 × 360, 32 samples for the room renders and ours. The rooms of
 * tools/room-renderer's seed S are taken in order; one where the piece of the turn has no pose (below) is skipped
 * and the next room gets that piece, until N rooms are measured. --metrics-only recomputes the figures and the report
 * from what DIR holds (no rendering, no furnishPiece). Per room:
 *
 * 1. The spec and truth come from the room renderer's TypeScript API; `empty.png` (the room without its furniture
 *    boxes) from room_scene.py's `empty` pass, at `--samples` (default 32). Reused when already in DIR.
 * 2. One piece: the ids rotate through PIECE_IDS, the styles through STYLES (a style per round of ids); the piece's
 *    seed is fixed by the room. Its pose is drawn in the room renderer's world: the footprint's centre inside the
 *    room, every footprint corner at least WALL_CLEARANCE_M from every wall, the whole box in view (every corner at
 *    least EDGE_PX inside the frame; failing that, the footprint in view and the top allowed out of it), the
 *    footprint at least MIN_CAMERA_DISTANCE_M from the camera (horizontally); the yaw is relative to the wall the
 *    camera faces (0: the piece's front toward the camera's side of the room, as furnishPiece's `at.yaw`).
 * 3. The truth: tools/room-renderer/furnished_truth.py builds the same room with room_scene.py's own code, adds the
 *    piece with furniture_scene.py's own meshes and materials, and renders `truth.png` with the TRUE camera and
 *    lights (same samples and noise seed as empty.png, so pixels the piece does not touch are empty.png's) and the
 *    exact `piece-mask.png`. Reused when the piece and pose are unchanged.
 * 4. Ours: furnishPiece on empty.png with `at` = the true image point of the footprint's centre and the yaw; the
 *    geometry analysis (line sources as the service chooses them) supplies camera and floor, so our estimate of the
 *    camera is what places and sizes the piece. Our piece mask is the rendered pieces pass's alpha > 0.5 (captured
 *    from the renderer: furnishPiece does not return it).
 * 5. Baseline: the scene furnishPiece rendered (our camera, pose and piece) with a default light instead of the
 *    estimated one — one sun from behind and above the camera (3 W/m², 2°) and a uniform white world (0.25) — no
 *    shadow catchers, no calibration, no photo, pasted over empty.png with its alpha (linear light, no grain).
 * 6. Naive paste: the same piece and default light seen by NAIVE_CAMERA (level, 65°, 1.5 m: no estimate of the photo's
 *    camera), the footprint's centre where that camera's ray through the image point meets its floor (naiveScene).
 *
 * Figures per room, for ours, the baseline and the naive paste against the truth:
 * - IoU of the piece masks.
 * - Scale error: |1 − h/h*| and |1 − w/w*| of the masks' bounding boxes.
 * - Contact error: per column holding both masks, the lowest row of each; the median |difference| in pixels (the
 *   bounding boxes' bottoms when no column holds both).
 * - Colour: CIEDE2000 (bench/ciede2000.ts) between the image and truth.png, median over the pixels inside both masks,
 *   each image first averaged over a 5 × 5 window inside both masks (render noise and grain are not colour).
 * - Shadow: mean |luma − luma*| (8-bit sRGB levels, Rec. 709 weights) over the ring around the piece where the truth
 *   differs from empty.png by more than 2 levels: the truth mask's box grown by half its larger side (≥ 16 px), less
 *   the three piece masks grown by 2 px (their anti-aliased edges); luma averaged over a 5 × 5 window off the masks
 *   first (the truth's path-tracing noise would otherwise fill the ring).
 * Medians and means over the rooms where furnishPiece placed the piece; rooms it could not are counted.
 *
 * Writes DIR/results.json, the `staging-known-answer` section of docs/benchmarks.md and
 * docs/images/staging-known-answer.jpg (rows: empty | truth | ours | baseline) unless --no-write.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp, { type OverlayOptions } from 'sharp';
import { loadConfig } from '../src/config/config.js';
import { samplePiece } from '../src/furniture/library.js';
import { BlenderRenderer } from '../src/repositories/blender/blender-renderer.js';
import type { RenderPasses, RenderPiece, RenderScene } from '../src/repositories/blender/render-scene.js';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import { chooseLineSources } from '../src/services/operations/line-source-choice.js';
import { DEFAULT_CAMERA_HEIGHT_M } from '../src/services/geometry/analyze-room.js';
import { furnishPiece } from '../src/services/staging/furnish-piece.js';
import type { FurnitureRenderer } from '../src/services/staging/furniture-renderer.js';
import { labOfLinearRgb, LINEAR_OF_BYTE, type Lab } from '../src/vision/colour.js';
import { compositeRenderedLayer } from '../src/vision/differential-composite.js';
import { maskBounds } from '../src/vision/mask-morphology.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { projectWorldPoint, type Vec3 } from '../tools/room-renderer/geometry.js';
import { cameraOf, generateRoomSpec, mulberry32, WALL_BEARING, WALL_IDS, wallLabel, type RoomSpec } from '../tools/room-renderer/spec.js';
import { computeTruth } from '../tools/room-renderer/truth.js';
import { ciede2000 } from './ciede2000.js';
import { machineLine, writeSection } from './report.js';
import { ROOT } from './shared-photos.js';
import { mean, median } from './statistics.js';

const ROOM_SCENE = path.join(ROOT, 'tools/room-renderer/room_scene.py');
export const FURNISHED_TRUTH = path.join(ROOT, 'tools/room-renderer/furnished_truth.py');
const SHEET = path.join(ROOT, 'docs/images/staging-known-answer.jpg');

export const PIECE_IDS = ['sofa_3_seater', 'double_bed', 'dining_table', 'armchair', 'sideboard', 'wardrobe'] as const;
export const STYLES = ['scandinavian', 'industrial', 'traditional'] as const;
/** Request yaws (radians, relative to the wall the camera faces) drawn per room. */
const YAWS = [0, 0, Math.PI / 2, -Math.PI / 2, 0.35, -0.35];
/** Free floor between the footprint and every wall. */
const WALL_CLEARANCE_M = 0.2;
/** Horizontal distance from the camera to the nearest point of the footprint. */
const MIN_CAMERA_DISTANCE_M = 0.8;
/** Every box corner at least this far inside the frame. */
const EDGE_PX = 6;
/** The piece's image at least this share of the image height. */
const MIN_IMAGE_HEIGHT_SHARE = 0.12;
const POSE_TRIES = 4000;
/** A pixel of the shadow ring counts where truth and empty differ by more than this (8-bit luma levels). */
const RING_THRESHOLD = 2;
/** Radius of the masked box filter the colour and shadow figures average over (a 5 × 5 window). */
export const SMOOTH_RADIUS = 2;
const DEFAULT_LIGHT: Pick<RenderScene, 'lights' | 'ambient'> = {
  lights: [{ kind: 'sun', toward: normalize([-0.35, -0.6, 0.72]), angle: 2, color: [1, 1, 1], strength: 3 }],
  ambient: { color: [1, 1, 1], strength: 0.25 },
};

/**
 * The scene of the naive paste: our piece (mesh, materials and turn in our room frame, whose y axis is the normal of
 * the wall ahead) seen by NAIVE_CAMERA, its footprint's centre where that camera's ray through the given image point
 * meets the floor, under the default light, without shadow catchers. Undefined when the point lies on or above that
 * camera's horizon (no floor there): the naive paste then shows nothing.
 */
function naiveScene(scene: RenderScene, pixel: [number, number]): RenderScene | undefined {
  const { width, height } = scene;
  const focal = Math.max(width, height) / 2 / Math.tan((NAIVE_CAMERA.fovDeg * Math.PI) / 360);
  const [dx, dy] = [(pixel[0] - width / 2) / focal, (pixel[1] - height / 2) / focal];
  if (dy < 1e-3) return undefined;
  const distance = NAIVE_CAMERA.height / dy;
  const { calibration: _calibration, photo: _photo, region: _region, ...rest } = scene;
  return {
    ...rest,
    camera: { focal, cx: width / 2, cy: height / 2, rotation: [1, 0, 0, 0, 0, -1, 0, 1, 0], position: [0, 0, 0] },
    pieces: scene.pieces.map((piece) => {
      const m = piece.matrix;
      return { ...piece, matrix: [m[0]!, m[1]!, m[2]!, dx * distance, m[4]!, m[5]!, m[6]!, distance, m[8]!, m[9]!, m[10]!, -NAIVE_CAMERA.height, 0, 0, 0, 1] };
    }),
    surfaces: [],
    ...DEFAULT_LIGHT,
  };
}

/**
 * The naive paste's camera: what a compositor with no estimate of the photo's camera assumes — level (no pitch or
 * roll), looking straight at the wall ahead, the analysis's own fallback field of view (65° across the longer side)
 * and the camera-height prior.
 */
const NAIVE_CAMERA = { fovDeg: 65, height: DEFAULT_CAMERA_HEIGHT_M } as const;

export interface Options {
  rooms: number;
  seed: number;
  out: string;
  width: number;
  height: number;
  samples: number;
  oursSamples: number;
  threads: number;
  sheetRooms: number;
  write: boolean;
  metricsOnly: boolean;
}

interface Pose {
  furnitureId: string;
  styleId: string;
  seed: number;
  /** Request yaw, radians, relative to the wall the camera faces. */
  yaw: number;
  /** Footprint centre in the room renderer's world (z = 0) and the yaw there. */
  world: [number, number];
  worldYaw: number;
  frontWall: string;
  /** The true image point of the footprint's centre. */
  pixel: [number, number];
  wholeInView: boolean;
}

interface Figures {
  iou: number;
  heightError: number;
  widthError: number;
  contactPx: number;
  colourDE: number;
  shadowLuma: number;
}

interface RoomResult {
  id: string;
  pose: Pose;
  placed: boolean;
  error?: string;
  ours?: Figures;
  baseline?: Figures;
  /** The naive paste: default light AND a default camera (NAIVE_CAMERA), the piece put where that camera sees the point. */
  naive?: Figures;
  ringPixels?: number;
  truthPixels?: number;
  geometryConfidence?: number;
  seconds: { empty: number; truth: number; ours: number; baseline: number; total: number };
}

/** The command line of this bench and of its whole-room sibling; they differ only in their default folder. */
export function parseOptions(defaultOut = '/tmp/staging-ka'): Options {
  const { values } = parseArgs({
    options: {
      rooms: { type: 'string', default: '30' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string', default: defaultOut },
      width: { type: 'string', default: '480' },
      height: { type: 'string', default: '360' },
      samples: { type: 'string', default: '32' },
      'ours-samples': { type: 'string', default: '32' },
      threads: { type: 'string', default: '0' },
      'sheet-rooms': { type: 'string', default: '8' },
      'no-write': { type: 'boolean', default: false },
      'metrics-only': { type: 'boolean', default: false },
    },
  });
  const int = (name: string, v: string | undefined, min: number): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} needs an integer ≥ ${min}, got ${v}`);
    return n;
  };
  return {
    rooms: int('rooms', values.rooms, 1),
    seed: int('seed', values.seed, 0),
    out: path.resolve(values.out!),
    width: int('width', values.width, 64),
    height: int('height', values.height, 48),
    samples: int('samples', values.samples, 1),
    oursSamples: int('ours-samples', values['ours-samples'], 1),
    threads: int('threads', values.threads, 0),
    sheetRooms: int('sheet-rooms', values['sheet-rooms'], 0),
    write: !values['no-write'],
    metricsOnly: values['metrics-only']!,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Small helpers

function normalize(v: Vec3): Vec3 {
  const n = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / n, v[1] / n, v[2] / n];
}

export function runBlender(blender: string, args: string[], log: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const fd = fs.openSync(log, 'w');
    const t0 = performance.now();
    const child = spawn(blender, ['-b', '--factory-startup', '-noaudio', '--python-exit-code', '1', ...args], { stdio: ['ignore', fd, fd] });
    child.on('error', (e) => {
      fs.closeSync(fd);
      reject(e);
    });
    child.on('close', (code) => {
      fs.closeSync(fd);
      if (code === 0) resolve((performance.now() - t0) / 1000);
      else reject(new Error(`Blender exited with ${code}; see ${log}`));
    });
  });
}

export async function readRgb(file: string): Promise<RawImage> {
  const { data, info } = await sharp(file).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, channels: 3 };
}

export async function readMask(file: string): Promise<{ mask: Uint8Array; width: number; height: number }> {
  const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
  const mask = new Uint8Array(info.width * info.height);
  for (let p = 0; p < mask.length; p++) mask[p] = data[p * info.channels]! >= 128 ? 1 : 0;
  return { mask, width: info.width, height: info.height };
}

export async function writeRgb(image: RawImage, file: string): Promise<void> {
  await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } }).png().toFile(file);
}

export async function writeMask(mask: Uint8Array, width: number, height: number, file: string): Promise<void> {
  await sharp(Buffer.from(mask.map((v) => (v ? 255 : 0))), { raw: { width, height, channels: 1 } }).png().toFile(file);
}

/** A region's pieces pass, alpha > 0.5, as a photo-sized mask. */
export function alphaMask(passes: RenderPasses, region: { x0: number; y0: number }, width: number, height: number): Uint8Array {
  const mask = new Uint8Array(width * height);
  for (let ly = 0; ly < passes.height; ly++) {
    for (let lx = 0; lx < passes.width; lx++) {
      const x = region.x0 + lx;
      const y = region.y0 + ly;
      if (x < 0 || y < 0 || x >= width || y >= height) continue;
      if (passes.pieces[(ly * passes.width + lx) * 4 + 3]! > 0.5) mask[y * width + x] = 1;
    }
  }
  return mask;
}

/**
 * The furniture renderer, keeping every scene and its passes (furnishPiece and stageRoom return neither): a whole
 * room may be rendered as several rectangles, one render each.
 */
export class CapturingRenderer implements FurnitureRenderer {
  readonly renders: { scene: RenderScene; passes: RenderPasses }[] = [];
  get last(): { scene: RenderScene; passes: RenderPasses } | undefined {
    return this.renders.at(-1);
  }
  constructor(private readonly inner: FurnitureRenderer) {}
  available(): ReturnType<FurnitureRenderer['available']> {
    return this.inner.available();
  }
  async render(scene: RenderScene, options: { photo?: RawImage; signal?: AbortSignal }): Promise<RenderPasses> {
    const passes = await this.inner.render(scene, options);
    this.renders.push({ scene, passes });
    return passes;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The pose of the piece in the room renderer's world

/** The wall the camera faces (its label is `front`) and the world yaw that turns a piece's front away from it. */
export function frontFrame(spec: RoomSpec): { wall: string; yaw0: number } {
  const wall = WALL_IDS.find((w) => wallLabel(w, spec.camera.yawDeg) === 'front')!;
  // The piece frame's +Y (its back) along the front wall's outward normal, bearing b: a rotation by −b about Z.
  return { wall, yaw0: (-WALL_BEARING[wall] * Math.PI) / 180 };
}

function boxCorners(center: [number, number], yaw: number, fp: { width: number; depth: number; height: number; elevation: number }): Vec3[] {
  const c = Math.cos(yaw);
  const s = Math.sin(yaw);
  const out: Vec3[] = [];
  for (const z of [fp.elevation, fp.elevation + fp.height]) {
    for (const [lx, ly] of [
      [-fp.width / 2, -fp.depth / 2],
      [fp.width / 2, -fp.depth / 2],
      [fp.width / 2, fp.depth / 2],
      [-fp.width / 2, fp.depth / 2],
    ] as const) {
      out.push([center[0] + c * lx - s * ly, center[1] + s * lx + c * ly, z]);
    }
  }
  return out;
}

function choosePose(spec: RoomSpec, index: number, slot: number, seed: number): Pose | null {
  const furnitureId = PIECE_IDS[slot % PIECE_IDS.length]!;
  const styleId = STYLES[Math.floor(slot / PIECE_IDS.length) % STYLES.length]!;
  const pieceSeed = (seed * 1000 + index) % 2147483647;
  const fp = samplePiece(furnitureId, styleId, pieceSeed).footprint;
  const random = mulberry32((seed * 7919 + index * 104729 + 17) >>> 0);
  const camera = cameraOf(spec);
  const { width: W, depth: D } = spec.room;
  const { width: iw, height: ih } = spec.image;
  const { wall, yaw0 } = frontFrame(spec);
  const firstYaw = Math.floor(random() * YAWS.length);
  const cam = spec.camera.position;
  const c = WALL_CLEARANCE_M;
  for (const strict of [true, false]) {
    for (let k = 0; k < YAWS.length; k++) {
      const yaw = YAWS[(firstYaw + k) % YAWS.length]!;
      const worldYaw = yaw0 + yaw;
      for (let t = 0; t < POSE_TRIES / YAWS.length; t++) {
        const x = c + random() * (W - 2 * c);
        const y = c + random() * (D - 2 * c);
        const corners = boxCorners([x, y], worldYaw, fp);
        const base = corners.slice(0, 4);
        if (base.some((p) => p[0] < c || p[0] > W - c || p[1] < c || p[1] > D - c)) continue;
        if (footprintDistance(base, [cam[0], cam[1]]) < MIN_CAMERA_DISTANCE_M) continue;
        const projected = corners.map((p) => projectWorldPoint(camera, p));
        if (projected.some((p) => p.depth < 0.3)) continue;
        const inside = (p: { pixel: [number, number] }) => p.pixel[0] >= EDGE_PX && p.pixel[0] <= iw - EDGE_PX && p.pixel[1] >= EDGE_PX && p.pixel[1] <= ih - EDGE_PX;
        const top = projected.slice(4);
        if (!projected.slice(0, 4).every(inside)) continue;
        if (strict && !top.every(inside)) continue;
        if (!strict && !top.every((p) => p.pixel[0] >= 0 && p.pixel[0] <= iw && p.pixel[1] <= ih - EDGE_PX)) continue;
        const vs = projected.map((p) => Math.min(ih, Math.max(0, p.pixel[1])));
        if (Math.max(...vs) - Math.min(...vs) < MIN_IMAGE_HEIGHT_SHARE * ih) continue;
        const centre = projectWorldPoint(camera, [x, y, 0]).pixel;
        return {
          furnitureId,
          styleId,
          seed: pieceSeed,
          yaw,
          world: [x, y],
          worldYaw,
          frontWall: wall,
          pixel: [centre[0], centre[1]],
          wholeInView: strict,
        };
      }
    }
  }
  return null;
}

/** Horizontal distance from a point to a convex quadrilateral (0 inside). */
function footprintDistance(base: Vec3[], p: [number, number]): number {
  let inside = true;
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < base.length; i++) {
    const a = base[i]!;
    const b = base[(i + 1) % base.length]!;
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const cross = dx * (p[1] - a[1]) - dy * (p[0] - a[0]);
    if (cross < 0) inside = false;
    const len2 = dx * dx + dy * dy;
    const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
    best = Math.min(best, Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy));
  }
  return inside ? 0 : best;
}

function truthPieces(pose: Pose): RenderPiece[] {
  const piece = samplePiece(pose.furnitureId, pose.styleId, pose.seed);
  const geometry = piece.build();
  const c = Math.cos(pose.worldYaw);
  const s = Math.sin(pose.worldYaw);
  return [
    {
      name: piece.id,
      matrix: [c, -s, 0, pose.world[0], s, c, 0, pose.world[1], 0, 0, 1, 0, 0, 0, 0, 1],
      parts: geometry.parts.map((part) => ({
        name: part.name,
        vertices: part.mesh.vertices.flat(),
        faces: part.mesh.faces,
        material: part.material,
        ...(part.grain ? { grain: part.grain } : {}),
      })),
      materials: geometry.materials,
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Figures

function luma(image: RawImage, p: number): number {
  const i = p * image.channels;
  return 0.2126 * image.data[i]! + 0.7152 * image.data[i + 1]! + 0.0722 * image.data[i + 2]!;
}

function dilate(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  let current = mask;
  for (let r = 0; r < radius; r++) {
    const next = new Uint8Array(current);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (current[y * width + x]) continue;
        if ((x > 0 && current[y * width + x - 1]) || (x < width - 1 && current[y * width + x + 1]) || (y > 0 && current[(y - 1) * width + x]) || (y < height - 1 && current[(y + 1) * width + x])) {
          next[y * width + x] = 1;
        }
      }
    }
    current = next;
  }
  return current;
}

interface TruthData {
  empty: RawImage;
  truth: RawImage;
  mask: Uint8Array;
}

/** The shadow ring: pixels near the truth piece, off every piece mask, where the truth differs from the empty room. */
/**
 * Per pixel, the mean of `channels` values over the valid pixels of the (2r + 1)² window around it (NaN with none):
 * a box filter that never mixes in what lies outside the mask. Integral images, so any radius costs the same.
 */
export function maskedBoxMean(values: Float32Array, channels: number, valid: Uint8Array, width: number, height: number, radius: number): Float32Array {
  const stride = width + 1;
  const sums = new Float64Array(stride * (height + 1) * (channels + 1));
  const at = (x: number, y: number, c: number) => (y * stride + x) * (channels + 1) + c;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      for (let c = 0; c <= channels; c++) {
        const v = valid[p] ? (c === channels ? 1 : values[p * channels + c]!) : 0;
        sums[at(x + 1, y + 1, c)] = v + sums[at(x, y + 1, c)]! + sums[at(x + 1, y, c)]! - sums[at(x, y, c)]!;
      }
    }
  }
  const out = new Float32Array(width * height * channels).fill(Number.NaN);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - radius);
    const y1 = Math.min(height, y + radius + 1);
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - radius);
      const x1 = Math.min(width, x + radius + 1);
      const box = (c: number) => sums[at(x1, y1, c)]! - sums[at(x0, y1, c)]! - sums[at(x1, y0, c)]! + sums[at(x0, y0, c)]!;
      const n = box(channels);
      if (n < 0.5) continue;
      for (let c = 0; c < channels; c++) out[(y * width + x) * channels + c] = box(c) / n;
    }
  }
  return out;
}

function lumaPlane(image: RawImage): Float32Array {
  const out = new Float32Array(image.width * image.height);
  for (let p = 0; p < out.length; p++) out[p] = luma(image, p);
  return out;
}

export function linearPlane(image: RawImage): Float32Array {
  const out = new Float32Array(image.width * image.height * 3);
  for (let p = 0; p < image.width * image.height; p++) {
    for (let c = 0; c < 3; c++) out[p * 3 + c] = LINEAR_OF_BYTE[image.data[p * image.channels + c]!]!;
  }
  return out;
}

/** The shadow ring and the smoothed luma of the truth there, shared by ours and the baseline. */
interface Ring {
  pixels: Uint8Array;
  /** Pixels off every piece mask (grown by 2 px): what the smoothing averages over. */
  valid: Uint8Array;
  truthLuma: Float32Array;
  count: number;
}

/**
 * The ring around the piece where the truth's shadows and bounce change the room: the truth mask's box grown by half
 * its larger side (≥ 16 px), off every piece mask grown by 2 px, where the truth's luma differs from the empty
 * room's by more than RING_THRESHOLD levels. Luma is averaged over SMOOTH_RADIUS first, off the piece masks: the
 * renders' path-tracing noise would otherwise fill the ring with single pixels (the noise of indirect light that
 * the piece now blocks) and dominate the figure.
 */
function shadowRing(t: TruthData, masks: Uint8Array[]): Ring {
  const { width, height } = t.truth;
  const pixels = new Uint8Array(width * height);
  const union = new Uint8Array(width * height);
  for (const m of masks) for (let p = 0; p < union.length; p++) union[p] = union[p]! | m[p]!;
  const excluded = dilate(union, width, height, 2);
  const valid = excluded.map((v) => (v ? 0 : 1));
  const truthLuma = maskedBoxMean(lumaPlane(t.truth), 1, valid, width, height, SMOOTH_RADIUS);
  const emptyLuma = maskedBoxMean(lumaPlane(t.empty), 1, valid, width, height, SMOOTH_RADIUS);
  const box = maskBounds(t.mask, width, height);
  let count = 0;
  if (box) {
    const grow = Math.max(16, Math.round(0.5 * Math.max(box.x1 - box.x0, box.y1 - box.y0)));
    for (let y = Math.max(0, box.y0 - grow); y < Math.min(height, box.y1 + grow); y++) {
      for (let x = Math.max(0, box.x0 - grow); x < Math.min(width, box.x1 + grow); x++) {
        const p = y * width + x;
        if (!valid[p]) continue;
        if (Math.abs(truthLuma[p]! - emptyLuma[p]!) > RING_THRESHOLD) {
          pixels[p] = 1;
          count++;
        }
      }
    }
  }
  return { pixels, valid, truthLuma, count };
}

function figures(t: TruthData, image: RawImage, mask: Uint8Array, ring: Ring): Figures {
  const { width, height } = image;
  let inter = 0;
  let union = 0;
  const both = new Uint8Array(mask.length);
  for (let p = 0; p < mask.length; p++) {
    if (mask[p] && t.mask[p]) {
      inter++;
      both[p] = 1;
    }
    if (mask[p] || t.mask[p]) union++;
  }
  const a = maskBounds(mask, width, height);
  const b = maskBounds(t.mask, width, height)!;
  const heightError = a ? Math.abs(1 - (a.y1 - a.y0) / (b.y1 - b.y0)) : 1;
  const widthError = a ? Math.abs(1 - (a.x1 - a.x0) / (b.x1 - b.x0)) : 1;
  // Contact: the lowest row of each mask per column.
  const diffs: number[] = [];
  for (let x = 0; x < width; x++) {
    let ours = -1;
    let truth = -1;
    for (let y = height - 1; y >= 0 && (ours < 0 || truth < 0); y--) {
      if (ours < 0 && mask[y * width + x]) ours = y;
      if (truth < 0 && t.mask[y * width + x]) truth = y;
    }
    if (ours >= 0 && truth >= 0) diffs.push(Math.abs(ours - truth));
  }
  const contactPx = diffs.length > 0 ? median(diffs) : a ? Math.abs(a.y1 - b.y1) : height;
  // Colour: both images averaged over SMOOTH_RADIUS inside both masks (the truth's render noise and our grain are
  // not colour), then CIEDE2000 per pixel.
  const ownColour = maskedBoxMean(linearPlane(image), 3, both, width, height, SMOOTH_RADIUS);
  const truthColour = maskedBoxMean(linearPlane(t.truth), 3, both, width, height, SMOOTH_RADIUS);
  const des: number[] = [];
  const p1: Lab = { lightness: 0, a: 0, b: 0 };
  const p2: Lab = { lightness: 0, a: 0, b: 0 };
  for (let p = 0; p < mask.length; p++) {
    if (!both[p]) continue;
    labOfLinearRgb(ownColour[p * 3]!, ownColour[p * 3 + 1]!, ownColour[p * 3 + 2]!, p1);
    labOfLinearRgb(truthColour[p * 3]!, truthColour[p * 3 + 1]!, truthColour[p * 3 + 2]!, p2);
    des.push(ciede2000(p1, p2));
  }
  const ownLuma = maskedBoxMean(lumaPlane(image), 1, ring.valid, width, height, SMOOTH_RADIUS);
  let shadowSum = 0;
  for (let p = 0; p < ring.pixels.length; p++) if (ring.pixels[p]) shadowSum += Math.abs(ownLuma[p]! - ring.truthLuma[p]!);
  return {
    iou: union > 0 ? inter / union : 0,
    heightError,
    widthError,
    contactPx,
    colourDE: des.length > 0 ? median(des) : Number.NaN,
    shadowLuma: ring.count > 0 ? shadowSum / ring.count : Number.NaN,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// One room

export function roomSpec(options: Options, index: number): RoomSpec {
  return generateRoomSpec(options.seed, index, { width: options.width, height: options.height, samples: options.samples });
}

export async function ensureEmpty(options: Options, blender: string, spec: RoomSpec): Promise<{ dir: string; seconds: number }> {
  const dir = path.join(options.out, spec.id);
  fs.mkdirSync(dir, { recursive: true });
  const specPath = path.join(dir, 'spec.json');
  const specText = `${JSON.stringify(spec, null, 1)}\n`;
  const same = fs.existsSync(specPath) && fs.readFileSync(specPath, 'utf8') === specText;
  if (!same) {
    fs.writeFileSync(specPath, specText);
    fs.writeFileSync(path.join(dir, 'truth.json'), `${JSON.stringify(computeTruth(spec), null, 1)}\n`);
    fs.rmSync(path.join(dir, 'empty.png'), { force: true });
  }
  if (fs.existsSync(path.join(dir, 'empty.png'))) return { dir, seconds: 0 };
  const args = ['--python', ROOM_SCENE, '--', '--spec', specPath, '--out', dir, '--passes', 'empty'];
  if (options.threads > 0) args.push('--threads', String(options.threads));
  const seconds = await runBlender(blender, args, path.join(dir, 'empty.log'));
  return { dir, seconds };
}

async function ensureTruth(options: Options, blender: string, dir: string, pose: Pose): Promise<number> {
  const posePath = path.join(dir, 'ka-pose.json');
  const poseText = `${JSON.stringify(pose, null, 1)}\n`;
  const reuse =
    fs.existsSync(posePath) && fs.readFileSync(posePath, 'utf8') === poseText && fs.existsSync(path.join(dir, 'truth.png')) && fs.existsSync(path.join(dir, 'piece-mask.png'));
  if (reuse) return 0;
  const piecesPath = path.join(dir, 'ka-pieces.json');
  fs.writeFileSync(piecesPath, JSON.stringify({ pieces: truthPieces(pose) }));
  const args = ['-P', FURNISHED_TRUTH, '--', '--room', dir, '--pieces', piecesPath, '--passes', 'truth,mask'];
  if (options.threads > 0) args.push('--threads', String(options.threads));
  const seconds = await runBlender(blender, args, path.join(dir, 'furnished-truth.log'));
  fs.writeFileSync(posePath, poseText);
  return seconds;
}

async function runRoom(
  options: Options,
  blender: string,
  spec: RoomSpec,
  pose: Pose,
  deps: { lines: Awaited<ReturnType<typeof chooseLineSources>> | undefined; renderer: BlenderRenderer },
): Promise<RoomResult> {
  const t0 = performance.now();
  const { dir, seconds: emptySeconds } = await ensureEmpty(options, blender, spec);
  const seconds = { empty: emptySeconds, truth: 0, ours: 0, baseline: 0, total: 0 };
  seconds.truth = await ensureTruth(options, blender, dir, pose);
  const empty = await readRgb(path.join(dir, 'empty.png'));
  const t: TruthData = { empty, truth: await readRgb(path.join(dir, 'truth.png')), mask: (await readMask(path.join(dir, 'piece-mask.png'))).mask };
  const { width, height } = empty;

  let ours: RawImage;
  let oursMask: Uint8Array;
  let base: RawImage;
  let baseMask: Uint8Array;
  let naiveImage: RawImage | undefined;
  let naiveMask: Uint8Array | undefined;
  let geometryConfidence: number | undefined;
  const metaPath = path.join(dir, 'ka-ours.json');
  if (options.metricsOnly) {
    if (!fs.existsSync(metaPath)) return { id: spec.id, pose, placed: false, error: 'no earlier run of ours in DIR', seconds };
    const meta = JSON.parse(fs.readFileSync(metaPath, 'utf8')) as { placed: boolean; error?: string; geometryConfidence?: number };
    if (!meta.placed) return { id: spec.id, pose, placed: false, ...(meta.error ? { error: meta.error } : {}), seconds };
    geometryConfidence = meta.geometryConfidence;
    ours = await readRgb(path.join(dir, 'ours.png'));
    oursMask = (await readMask(path.join(dir, 'ours-mask.png'))).mask;
    base = await readRgb(path.join(dir, 'baseline.png'));
    baseMask = (await readMask(path.join(dir, 'baseline-mask.png'))).mask;
    if (fs.existsSync(path.join(dir, 'naive.png'))) {
      naiveImage = await readRgb(path.join(dir, 'naive.png'));
      naiveMask = (await readMask(path.join(dir, 'naive-mask.png'))).mask;
    }
  } else {
    const capturing = new CapturingRenderer(deps.renderer);
    const t1 = performance.now();
    let furnished;
    try {
      furnished = await furnishPiece(
        empty,
        { furnitureId: pose.furnitureId, styleId: pose.styleId, seed: pose.seed, preserveWindows: false, at: { x: pose.pixel[0], y: pose.pixel[1], yaw: pose.yaw } },
        { lines: deps.lines!, renderer: capturing, quality: { samples: options.oursSamples, threads: 0 } },
      );
    } catch (error) {
      const message = (error as Error).message;
      fs.writeFileSync(metaPath, JSON.stringify({ placed: false, error: message }));
      seconds.ours = (performance.now() - t1) / 1000;
      seconds.total = (performance.now() - t0) / 1000;
      return { id: spec.id, pose, placed: false, error: message, seconds };
    }
    seconds.ours = (performance.now() - t1) / 1000;
    const staging = (furnished.result as { staging: { geometryConfidence: number } }).staging;
    geometryConfidence = staging.geometryConfidence;
    const { scene, passes } = capturing.last!;
    const region = scene.region ?? { x0: 0, y0: 0, x1: width, y1: height };
    ours = furnished.image;
    oursMask = alphaMask(passes, region, width, height);

    const t2 = performance.now();
    const { calibration: _calibration, photo: _photo, ...rest } = scene;
    const baselineScene: RenderScene = { ...rest, surfaces: [], ...DEFAULT_LIGHT };
    const basePasses = await deps.renderer.render(baselineScene, {});
    const ones = new Float32Array(basePasses.width * basePasses.height * 3).fill(1);
    base = compositeRenderedLayer(empty, { x0: region.x0, y0: region.y0, width: basePasses.width, height: basePasses.height, pieces: basePasses.pieces, shadow: ones }, { grain: 0, seed: pose.seed }).image;
    baseMask = alphaMask(basePasses, region, width, height);
    const naive = naiveScene(scene, pose.pixel);
    const naivePasses = naive ? await deps.renderer.render(naive, {}) : undefined;
    naiveImage = naivePasses
      ? compositeRenderedLayer(empty, { x0: 0, y0: 0, width, height, pieces: naivePasses.pieces, shadow: new Float32Array(width * height * 3).fill(1) }, { grain: 0, seed: pose.seed }).image
      : empty;
    naiveMask = naivePasses ? alphaMask(naivePasses, { x0: 0, y0: 0 }, width, height) : new Uint8Array(width * height);
    seconds.baseline = (performance.now() - t2) / 1000;
    await writeRgb(naiveImage, path.join(dir, 'naive.png'));
    await writeMask(naiveMask, width, height, path.join(dir, 'naive-mask.png'));
    await writeRgb(ours, path.join(dir, 'ours.png'));
    await writeMask(oursMask, width, height, path.join(dir, 'ours-mask.png'));
    await writeRgb(base, path.join(dir, 'baseline.png'));
    await writeMask(baseMask, width, height, path.join(dir, 'baseline-mask.png'));
    fs.writeFileSync(metaPath, JSON.stringify({ placed: true, geometryConfidence, staging }, null, 1));
  }

  const ring = shadowRing(t, [t.mask, oursMask, baseMask]);
  const ringPixels = ring.count;
  await writeMask(ring.pixels, width, height, path.join(dir, 'ring.png'));
  let truthPixels = 0;
  for (const v of t.mask) truthPixels += v;
  seconds.total = (performance.now() - t0) / 1000;
  return {
    id: spec.id,
    pose,
    placed: true,
    ours: figures(t, ours, oursMask, ring),
    baseline: figures(t, base, baseMask, ring),
    ...(naiveImage && naiveMask ? { naive: figures(t, naiveImage, naiveMask, ring) } : {}),
    ringPixels,
    truthPixels,
    ...(geometryConfidence !== undefined ? { geometryConfidence } : {}),
    seconds,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Report

const FIGURES: { key: keyof Figures; label: string; unit: string; digits: number; higherIsBetter: boolean }[] = [
  { key: 'iou', label: 'Silhouette IoU', unit: '', digits: 3, higherIsBetter: true },
  { key: 'heightError', label: 'Scale error, height: abs(1 − h/h*)', unit: '', digits: 3, higherIsBetter: false },
  { key: 'widthError', label: 'Scale error, width: abs(1 − w/w*)', unit: '', digits: 3, higherIsBetter: false },
  { key: 'contactPx', label: 'Contact line error (median per column)', unit: ' px', digits: 1, higherIsBetter: false },
  { key: 'colourDE', label: 'Colour ΔE2000 (median over the piece)', unit: '', digits: 2, higherIsBetter: false },
  { key: 'shadowLuma', label: 'Shadow ring luma error (mean)', unit: ' levels', digits: 2, higherIsBetter: false },
];

function summarize(results: RoomResult[]): { rows: string[]; verdicts: { label: string; against: string; beats: boolean; ties: boolean }[] } {
  const placed = results.filter((r) => r.placed && r.ours && r.baseline);
  const withNaive = placed.some((r) => r.naive);
  const rows: string[] = [];
  const verdicts: { label: string; against: string; beats: boolean; ties: boolean }[] = [];
  for (const f of FIGURES) {
    const fmt = (v: number) => (Number.isFinite(v) ? v.toFixed(f.digits) : '–');
    // Each comparison over the rooms where the figure exists on both sides (colour needs the piece to show).
    const compare = (name: string, pick: (r: RoomResult) => Figures | undefined) => {
      const perRoom = placed.filter((r) => pick(r) && Number.isFinite(r.ours![f.key]) && Number.isFinite(pick(r)![f.key]));
      const ours = perRoom.map((r) => r.ours![f.key]);
      const other = perRoom.map((r) => pick(r)![f.key]);
      const [om, m] = [median(ours), median(other)];
      const better = f.higherIsBetter ? om > m : om < m;
      const tie = Math.abs(om - m) < 0.5 * 10 ** -f.digits;
      const wins = perRoom.filter((r) => (f.higherIsBetter ? r.ours![f.key] > pick(r)![f.key] : r.ours![f.key] < pick(r)![f.key])).length;
      const losses = perRoom.filter((r) => (f.higherIsBetter ? r.ours![f.key] < pick(r)![f.key] : r.ours![f.key] > pick(r)![f.key])).length;
      verdicts.push({ label: f.label, against: name, beats: better && !tie, ties: tie });
      return {
        ours: `${fmt(om)}${f.unit} (${fmt(mean(ours))})`,
        other: `${fmt(m)}${f.unit} (${fmt(mean(other))})`,
        rooms: perRoom.length,
        verdict: `${wins} / ${losses} / ${perRoom.length - wins - losses}, ${tie ? 'tie' : better ? 'ours' : name}`,
      };
    };
    const light = compare('baseline', (r) => r.baseline);
    const naive = withNaive ? compare('naive paste', (r) => r.naive) : undefined;
    rows.push(
      naive
        ? `| ${f.label} | ${light.ours} | ${light.other} | ${naive.other} | ${light.rooms} / ${naive.rooms} | ${light.verdict} | ${naive.verdict} |`
        : `| ${f.label} | ${light.ours} | ${light.other} | ${light.rooms} | ${light.verdict} |`,
    );
  }
  return { rows, verdicts };
}

async function contactSheet(results: RoomResult[], options: Options, file: string): Promise<void> {
  const chosen = results.filter((r) => r.placed && r.ours).slice(0, options.sheetRooms);
  if (chosen.length === 0) return;
  const cw = 320;
  const ch = Math.round((cw * options.height) / options.width);
  const caption = 20;
  const header = 24;
  const columns = ['empty', 'truth', 'ours', 'baseline'];
  const files = ['empty.png', 'truth.png', 'ours.png', 'baseline.png'];
  const composites: OverlayOptions[] = [];
  const headerSvg = `<svg width="${cw * 4}" height="${header}">${columns.map((c, i) => `<text x="${i * cw + 6}" y="17" font-size="15" font-family="sans-serif" fill="#222">${c}</text>`).join('')}</svg>`;
  composites.push({ input: Buffer.from(headerSvg), left: 0, top: 0 });
  for (const [row, r] of chosen.entries()) {
    const top = header + row * (ch + caption);
    const text = `${r.id}: ${r.pose!.furnitureId} (${r.pose!.styleId}), IoU ${r.ours!.iou.toFixed(2)}, ΔE ours ${r.ours!.colourDE.toFixed(1)} / baseline ${r.baseline!.colourDE.toFixed(1)}, shadow ${r.ours!.shadowLuma.toFixed(1)} / ${r.baseline!.shadowLuma.toFixed(1)} levels`;
    composites.push({ input: Buffer.from(`<svg width="${cw * 4}" height="${caption}"><text x="6" y="15" font-size="13" font-family="sans-serif" fill="#222">${text}</text></svg>`), left: 0, top });
    for (const [i, f] of files.entries()) {
      composites.push({ input: await sharp(path.join(options.out, r.id, f)).resize(cw, ch).png().toBuffer(), left: i * cw, top: top + caption });
    }
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await sharp({ create: { width: cw * 4, height: header + chosen.length * (ch + caption), channels: 3, background: '#ffffff' } })
    .composite(composites)
    .jpeg({ quality: 86 })
    .toFile(file);
}

async function main(): Promise<void> {
  const options = parseOptions();
  const config = loadConfig(process.env);
  const blender = config.staging.blender;
  const renderer = new BlenderRenderer({ executable: blender });
  const available = await renderer.available();
  if (!available.ok) throw new Error(`Blender is needed: ${available.reason}`);
  fs.mkdirSync(options.out, { recursive: true });
  let runtime: ModelRuntime | undefined;
  let lines: Awaited<ReturnType<typeof chooseLineSources>> | undefined;
  if (!options.metricsOnly) {
    const registry = ModelRegistry.load();
    runtime = new ModelRuntime(new ModelStore(config.models.cacheDir, registry), registry, { intraOpNumThreads: Math.max(1, Math.min(4, os.availableParallelism())) });
    lines = await chooseLineSources(runtime);
  }
  const started = performance.now();
  // --metrics-only keeps the line sources and the time of the run that rendered and furnished.
  const resultsPath = path.join(options.out, 'results.json');
  const previous =
    options.metricsOnly && fs.existsSync(resultsPath)
      ? (JSON.parse(fs.readFileSync(resultsPath, 'utf8')) as { lineSource?: string; minutes?: number; results?: RoomResult[] })
      : {};
  const previousSeconds = new Map((previous.results ?? []).map((r) => [r.id, r.seconds]));
  const lineSource = lines?.name ?? previous.lineSource ?? 'unknown';
  const results: RoomResult[] = [];
  const skipped: string[] = [];
  const harnessFailures: string[] = [];
  // Rooms in order; one where the piece of the turn has no pose in view clear of the walls (a narrow strip of floor
  // in view) is skipped and the next room gets that piece.
  for (let index = 0; results.length + harnessFailures.length < options.rooms && index < options.rooms * 4; index++) {
    const spec = roomSpec(options, index);
    const pose = choosePose(spec, index, results.length, options.seed);
    if (!pose) {
      skipped.push(`${spec.id} (${PIECE_IDS[results.length % PIECE_IDS.length]})`);
      console.log(`${spec.id} skipped: no pose for ${PIECE_IDS[results.length % PIECE_IDS.length]} in view clear of the walls`);
      continue;
    }
    let result: RoomResult;
    try {
      result = await runRoom(options, blender, spec, pose, { lines, renderer });
    } catch (error) {
      // A failure of the harness (Blender failed on the empty room or the truth), not of furnishPiece: the room is
      // left out and named in the report.
      console.error(`${spec.id}: ${(error as Error).stack}`);
      harnessFailures.push(`${spec.id} (${(error as Error).message})`);
      continue;
    }
    if (options.metricsOnly) result.seconds = previousSeconds.get(result.id) ?? result.seconds;
    results.push(result);
    const s = result.seconds;
    const f = (x: Figures | undefined) =>
      x ? `IoU ${x.iou.toFixed(3)} h ${x.heightError.toFixed(3)} w ${x.widthError.toFixed(3)} contact ${x.contactPx.toFixed(1)} ΔE ${x.colourDE.toFixed(2)} shadow ${x.shadowLuma.toFixed(2)}` : '';
    console.log(
      `${result.id} ${result.pose ? `${result.pose.furnitureId}/${result.pose.styleId} yaw ${result.pose.yaw.toFixed(2)}` : '-'}  ${result.placed ? `ours: ${f(result.ours)} | baseline: ${f(result.baseline)}` : `NOT PLACED: ${result.error}`}  [empty ${s.empty.toFixed(0)} s, truth ${s.truth.toFixed(0)} s, ours ${s.ours.toFixed(0)} s, baseline ${s.baseline.toFixed(0)} s]`,
    );
    fs.writeFileSync(path.join(options.out, 'results.json'), `${JSON.stringify({ options, lineSource, skipped, harnessFailures, results }, null, 1)}\n`);
  }
  const minutes = options.metricsOnly && previous.minutes !== undefined ? previous.minutes : (performance.now() - started) / 60000;
  await runtime?.close();
  fs.writeFileSync(resultsPath, `${JSON.stringify({ options, lineSource, minutes, skipped, harnessFailures, results }, null, 1)}\n`);
  const oursSeconds = median(results.filter((r) => r.placed).map((r) => r.seconds.ours).filter((v) => v > 0));

  const placed = results.filter((r) => r.placed);
  const { rows, verdicts } = summarize(results);
  const withNaive = placed.some((r) => r.naive);
  const table = (
    withNaive
      ? ['| Figure (median over rooms; mean in brackets) | Ours | Baseline: default light | Naive paste: default light and camera | Rooms (baseline / naive) | Rooms ours better / worse / equal, vs the baseline | … vs the naive paste |', '|---|---|---|---|---|---|---|']
      : ['| Figure (median over rooms; mean in brackets) | Ours | Baseline | Rooms | Rooms ours better / worse / equal, better |', '|---|---|---|---|---|']
  )
    .concat(rows)
    .join('\n');
  console.log(`\n${placed.length} of ${results.length} rooms placed; ${minutes.toFixed(1)} min\n${table}`);
  const notPlaced = results.filter((r) => !r.placed).map((r) => `${r.id} (${r.error})`);
  // The medians over the placed rooms alone would flatter a change that places fewer pieces.
  const withMisses = {
    iou: median(results.map((r) => (r.placed && r.ours ? r.ours.iou : 0))),
    heightError: median(results.map((r) => (r.placed && r.ours ? r.ours.heightError : 1))),
  };
  const naiveVerdicts = verdicts.filter((v) => v.against === 'naive paste');
  const lightVerdicts = verdicts.filter((v) => v.against === 'baseline');
  const describe = (list: typeof verdicts) => list.filter((v) => !v.beats).map((v) => `${v.label} (${v.ties ? 'tie' : `${v.against} better`})`);
  // Where the geometry differs, our shadow-catching walls (the estimated room) hide part of the piece.
  const cut = placed.filter((r) => r.ours && r.baseline && r.ours.iou < r.baseline.iou - 0.005);
  const hidden = cut.filter((r) => r.ours!.iou === 0 && r.ours!.heightError === 1);
  if (!options.write) return;
  const sheetRelative = 'images/staging-known-answer.jpg';
  await contactSheet(results, options, SHEET);
  writeSection(
    'staging-known-answer',
    `### Staging against known answers (node --import tsx bench/staging-known-answer.ts)

${machineLine()}

${results.length} rendered rooms (tools/room-renderer, seed ${options.seed}, ${options.width} × ${options.height}, ${options.samples} samples), each with one
piece (${PIECE_IDS.join(', ')} in turn; ${STYLES.join(', ')}) at a drawn pose inside the room, its footprint
${WALL_CLEARANCE_M} m clear of the walls and ${MIN_CAMERA_DISTANCE_M} m from the camera, the whole piece in view where it fits${skipped.length > 0 ? ` (${skipped.length} rooms of the seed were skipped for lack of such a pose for the piece of the turn — most show only a narrow strip of floor; DIR/results.json names them)` : ''}. The **truth** is the same piece rendered in the room by the room's own scene (tools/room-renderer/furnished_truth.py:
room_scene.py's room, camera, sun, sky and fill light, furniture_scene.py's meshes and materials, the exact piece mask).
**Ours** is \`furnishPiece\` on the empty render, told only the image point of the footprint's centre and the yaw:
the camera, floor and light are its own estimates (line sources ${lineSource}, ${options.oursSamples} samples). The **baseline** renders the same
scene (our camera, pose and piece) under a default light — one sun from behind and above the camera, 3 W/m², and a
white world at 0.25 — with no shadow catcher and no calibration, pasted over the empty render with its alpha. The
baseline shares our geometry, so IoU, scale and contact can only differ where our shadow-catching room surfaces
hide part of the piece; it isolates what the light estimate and differential compositing add. The **naive paste**
is the issue's naive baseline whole: the same piece under the same default light, pasted in without any estimate of
the photo — a level camera (no pitch or roll) facing the wall ahead, ${NAIVE_CAMERA.fovDeg}° across the longer side, ${NAIVE_CAMERA.height} m high, the
piece's footprint centre where that camera's ray through the same image point meets its floor (a point on or above
its horizon gives no floor: nothing is pasted, a miss).

${table}

Placed in ${placed.length} of ${results.length} rooms${notPlaced.length > 0 ? ` (not placed: ${notPlaced.join('; ')})` : ''}; figures over the placed rooms.${notPlaced.length > 0 ? ` Counting every room not placed as a miss (IoU 0, scale error 1), over all ${placed.length + notPlaced.length}: silhouette IoU ${withMisses.iou.toFixed(3)}, scale error (height) ${withMisses.heightError.toFixed(3)} (medians).` : ''}${harnessFailures.length > 0 ? ` Left out because the harness failed: ${harnessFailures.join('; ')}.` : ''}
${withNaive ? (naiveVerdicts.every((v) => v.beats) ? 'Ours beats the naive paste on every figure.' : `Ours does not beat the naive paste on: ${describe(naiveVerdicts).join('; ')}.`) : ''}
${lightVerdicts.every((v) => v.beats) ? 'Ours beats the default-light baseline on every figure.' : `Against the default-light baseline, which shares our camera and pose: ${describe(lightVerdicts).join('; ')}.`}
${cut.length > 0 ? `In ${cut.length} rooms (${cut.map((r) => r.id).join(', ')}) the room surfaces furnishPiece renders as shadow catchers — its estimate of the walls — hide part of our piece${hidden.length > 0 ? ` (all of it in ${hidden.map((r) => r.id).join(', ')}: nothing is drawn, yet the call succeeds)` : ''}; that is all that separates the geometry figures of ours and the baseline.` : ''}
A piece that does not show at all counts as IoU 0, scale error 1 and a contact error of the image height, and has no
colour figure. Scale error compares the masks' bounding boxes; contact is the median over columns of the difference of the masks'
lowest rows; colour is the median CIEDE2000 over pixels inside both masks (both images averaged over a 5 × 5
window inside both masks: render noise and grain are not colour); the shadow ring is the truth mask's box grown by
half its larger side, less the piece masks, where the truth differs from the empty render by more than
${RING_THRESHOLD} levels (mean absolute luma difference, 8-bit, luma averaged over a 5 × 5 window off the masks). Rows of [docs/${sheetRelative}](${sheetRelative}): empty | truth | ours | baseline.
The run took ${minutes.toFixed(0)} min (renders of the empty rooms and truths included unless reused); furnishPiece took
${Number.isFinite(oursSeconds) ? oursSeconds.toFixed(0) : '–'} s per room (median: analysis, calibration and render on this shared 2-core machine).`,
  );
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('staging-known-answer.ts')) {
  await main();
}
