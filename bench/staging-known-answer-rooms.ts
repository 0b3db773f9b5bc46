/**
 * Whole rooms staged against known answers: stageRoom furnishes a rendered empty room with its own arrangement, and
 * the room renderer renders the same pieces, at the poses our image shows them, in the true room with the true
 * camera and light. The single-piece version (bench/staging-known-answer.ts) draws the pose and tells furnishPiece;
 * here our pipeline chooses the arrangement and the truth follows it.
 *
 *   node --import tsx bench/staging-known-answer-rooms.ts [--rooms N] [--seed S] [--out DIR] [--no-write]
 *       [--width W --height H] [--samples N] [--ours-samples N] [--threads N] [--sheet-rooms N] [--metrics-only]
 *
 * Defaults: 30 rooms, seed 1, DIR /tmp/staging-ka-rooms, 480 × 360, 32 samples for the room renders and ours. The
 * first N rooms of tools/room-renderer's seed S, in order. --metrics-only recomputes the figures and the report from
 * what DIR holds (no rendering, no stageRoom). Per room:
 *
 * 1. `empty.png`: room_scene.py's `empty` pass of the room renderer's spec (the single-piece bench's ensureEmpty).
 * 2. Ours: stageRoom on empty.png as ROOM_TYPES[i mod 3] in STYLES[⌊i / 3⌋ mod 3] (nine pairs in nine rooms), the
 *    seed fixed by the room, with decor, annealing and windows kept (smart-staging-v2's settings). The render scene
 *    it hands Blender is captured: it holds our camera, every piece's mesh and materials, and its matrix in our world.
 *    Our piece mask is the pieces pass's alpha > 0.5.
 * 3. The pieces in the TRUE room, each by the image point ours shows it at: a floor-standing piece by its footprint's
 *    centre (projected with our camera, then the true camera's ray met with the true floor); a wall-mounted piece (its
 *    lowest point above the floor: art, radiators) by the centre of its back (the true ray met with the true walls,
 *    WALL_GAP_M inside them, as our planner hangs it). Yaw: ours relative to our front wall, the same relative to the
 *    true wall that corresponds to our front wall (`matchedFrontWall`); a wall-mounted piece turns its back to the
 *    wall it lands on. The meshes are the captured ones, so the truth renders exactly our pieces.
 * 4. The truth: tools/room-renderer/furnished_truth.py with all mapped pieces (truth.png, piece-mask.png), the same
 *    samples and noise seed as empty.png. Reused when the pieces JSON is unchanged.
 *
 * Figures per staged room: silhouette IoU of the union of all pieces (truth piece-mask vs ours); colour CIEDE2000,
 * median over the pixels inside both masks (each image first averaged over a 5 × 5 window inside both masks, as the
 * single-piece bench does); the number of pieces; the pixels changed outside our change mask (must be 0). Medians
 * and means over the staged rooms. There is no baseline: the truth follows our arrangement, so a baseline would
 * measure only what the single-piece bench already does. Rooms where stageRoom refuses (no room for the programme,
 * an unsure layout) are counted and named, not failures.
 *
 * Writes DIR/results.json, the `staging-known-answer-rooms` section of docs/benchmarks.md and
 * docs/images/staging-known-answer-rooms.jpg (rows: empty | truth | ours) unless --no-write.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { loadConfig } from '../src/config/config.js';
import { AppError } from '../src/errors.js';
import { BlenderRenderer } from '../src/repositories/blender/blender-renderer.js';
import type { RenderPiece, RenderScene } from '../src/repositories/blender/render-scene.js';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import { chooseLineSources, type ChosenLines } from '../src/services/operations/line-source-choice.js';
import type { FurnishedPhoto } from '../src/services/staging/furnish-piece.js';
import { stageRoom } from '../src/services/staging/stage-room.js';
import { WALL_GAP_M } from '../src/staging/placement-rules.js';
import { labOfLinearRgb, type Lab } from '../src/vision/colour.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { mulMatVec, pixelRay, transpose, type Vec3 } from '../tools/room-renderer/geometry.js';
import { cameraOf, WALL_BEARING, WALL_IDS, type RoomSpec, type WallId } from '../tools/room-renderer/spec.js';
import { ciede2000 } from './ciede2000.js';
import { machineLine, writeSection } from './report.js';
import { ROOT } from './shared-photos.js';
import {
  alphaMask,
  CapturingRenderer,
  ensureEmpty,
  frontFrame,
  FURNISHED_TRUTH,
  linearPlane,
  maskedBoxMean,
  readMask,
  readRgb,
  roomSpec,
  runBlender,
  SMOOTH_RADIUS,
  STYLES,
  writeMask,
  writeRgb,
  type Options,
  parseOptions,
} from './staging-known-answer.js';
import { mean, median } from './statistics.js';

const SHEET = path.join(ROOT, 'docs/images/staging-known-answer-rooms.jpg');
export const ROOM_TYPES = ['living_room', 'bedroom', 'dining_room'] as const;
/** A piece whose lowest point is this far above the floor hangs on a wall (the generators' `on-wall` pieces). */
const WALL_MOUNTED_ELEVATION_M = 0.05;
/** A mapped piece reaching further than this through a true wall counts as cut by it (the wall hides that part). */
const INTO_WALL_M = 0.1;

type Mount = 'floor' | 'wall';

/** One of our pieces as the truth places it. */
interface MappedPiece {
  name: string;
  mount: Mount;
  /** Why it has no place in the true room (its image point meets no true floor or wall); absent when mapped. */
  unmapped?: string;
  /** How far it reaches through the true walls, metres (0 inside the room). */
  intoWallM?: number;
  /** The true wall a wall-mounted piece hangs on. */
  wall?: WallId;
}

/** Our front wall against the truth's: which true wall it is, and how far our camera's heading to it is off. */
interface FrontWall {
  /** The true wall matched to our front wall. */
  matched: WallId;
  /** The wall the true camera faces (the single-piece bench's frontFrame). */
  labelled: string;
  /** |our camera heading relative to our front wall − the true one relative to the matched wall|, degrees. */
  headingErrorDeg: number;
}

/** The camera's height above the floor, metres: ours sets the scale every mapped piece is drawn at. */
interface CameraHeight {
  ours: number;
  truth: number;
}

interface Figures {
  iou: number;
  colourDE: number;
  oursPixels: number;
  truthPixels: number;
  /** Pixels of ours that differ from empty.png outside the change mask stageRoom returned (must be 0). */
  changedOutsideMask: number;
}

interface RoomResult {
  id: string;
  roomType: string;
  styleId: string;
  seed: number;
  staged: boolean;
  /** stageRoom's refusal (no room for the programme, or an unsure layout): counted, not a failure. */
  refused?: string;
  /** Any other error of stageRoom. */
  error?: string;
  pieces?: MappedPiece[];
  front?: FrontWall;
  cameraHeight?: CameraHeight;
  geometryConfidence?: number;
  figures?: Figures;
  seconds: { empty: number; ours: number; truth: number; total: number };
}

/** What the run of ours leaves in the room folder, so that --metrics-only can report without stageRoom. */
interface OursMeta extends Pick<RoomResult, 'staged' | 'refused' | 'error' | 'pieces' | 'front' | 'cameraHeight' | 'geometryConfidence'> {
  seconds?: number;
}

/** The room type, style and seed of the i-th room: every pair of type and style once in nine rooms. */
function roomRequest(options: Options, index: number): { roomType: string; styleId: string; seed: number } {
  return {
    roomType: ROOM_TYPES[index % ROOM_TYPES.length]!,
    styleId: STYLES[Math.floor(index / ROOM_TYPES.length) % STYLES.length]!,
    seed: (options.seed * 1000 + index) % 2147483647,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Small geometry

const wrapDeg = (deg: number): number => ((((deg + 180) % 360) + 360) % 360) - 180;

/** A point through a row-major 4 × 4 matrix. */
function transformPoint(m: readonly number[], p: Vec3): Vec3 {
  return [m[0]! * p[0] + m[1]! * p[1] + m[2]! * p[2] + m[3]!, m[4]! * p[0] + m[5]! * p[1] + m[6]! * p[2] + m[7]!, m[8]! * p[0] + m[9]! * p[1] + m[10]! * p[2] + m[11]!];
}

/** A piece's frame to the room: a turn by `yaw` about Z, then the translation. */
function yawMatrix(yaw: number, t: Vec3): number[] {
  const c = Math.cos(yaw);
  const s = Math.sin(yaw);
  return [c, -s, 0, t[0], s, c, 0, t[1], 0, 0, 1, t[2], 0, 0, 0, 1];
}

/** The bounding box of a piece's meshes in its own frame. */
function pieceBounds(piece: RenderPiece): { min: Vec3; max: Vec3 } {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const part of piece.parts) {
    for (let i = 0; i < part.vertices.length; i += 3) {
      for (let a = 0; a < 3; a++) {
        min[a] = Math.min(min[a]!, part.vertices[i + a]!);
        max[a] = Math.max(max[a]!, part.vertices[i + a]!);
      }
    }
  }
  return { min, max };
}

/** Our camera's pixel of a point of our world (undefined behind it). */
function ourPixel(camera: RenderScene['camera'], p: Vec3): [number, number] | undefined {
  const r = camera.rotation;
  const d: Vec3 = [p[0] - camera.position[0], p[1] - camera.position[1], p[2] - camera.position[2]];
  const z = r[6]! * d[0] + r[7]! * d[1] + r[8]! * d[2];
  if (z <= 1e-6) return undefined;
  return [camera.cx + (camera.focal * (r[0]! * d[0] + r[1]! * d[1] + r[2]! * d[2])) / z, camera.cy + (camera.focal * (r[3]! * d[0] + r[4]! * d[1] + r[5]! * d[2])) / z];
}

/** The true camera's ray through a pixel: its centre and world direction. */
function trueRay(spec: RoomSpec, pixel: [number, number]): { origin: Vec3; direction: Vec3 } {
  const camera = cameraOf(spec);
  return { origin: camera.C, direction: mulMatVec(transpose(camera.R), pixelRay(camera.intrinsics, pixel[0], pixel[1])) };
}

/** Where a true ray meets the true floor (z = 0), or undefined at or above the horizon. */
function floorHit(ray: { origin: Vec3; direction: Vec3 }): Vec3 | undefined {
  if (ray.direction[2] >= -1e-9) return undefined;
  const t = -ray.origin[2] / ray.direction[2];
  return [ray.origin[0] + t * ray.direction[0], ray.origin[1] + t * ray.direction[1], 0];
}

/**
 * Where a true ray leaves the room through a wall, the walls moved `inset` metres inwards: the first of the four
 * planes it crosses (the camera is inside the room), or undefined when it leaves through the floor or ceiling first.
 */
function wallHit(room: RoomSpec['room'], ray: { origin: Vec3; direction: Vec3 }, inset: number): { point: Vec3; wall: WallId } | undefined {
  let best: { t: number; wall: WallId } | undefined;
  for (const wall of WALL_IDS) {
    const axis = wall === 'east' || wall === 'west' ? 0 : 1;
    const value = wall === 'north' ? room.depth - inset : wall === 'east' ? room.width - inset : inset;
    const t = (value - ray.origin[axis]!) / ray.direction[axis]!;
    if (t > 0 && Number.isFinite(t) && (!best || t < best.t)) best = { t, wall };
  }
  if (!best) return undefined;
  const t = best.t;
  const point: Vec3 = [ray.origin[0] + t * ray.direction[0], ray.origin[1] + t * ray.direction[1], ray.origin[2] + t * ray.direction[2]];
  return point[2] > 0 && point[2] < room.height ? { point, wall: best.wall } : undefined;
}

/** How far a piece's box at a true pose reaches through the true walls, metres (0 inside the room). */
function intoWall(room: RoomSpec['room'], bounds: { min: Vec3; max: Vec3 }, matrix: number[]): number {
  let worst = 0;
  for (const x of [bounds.min[0], bounds.max[0]]) {
    for (const y of [bounds.min[1], bounds.max[1]]) {
      const [wx, wy] = transformPoint(matrix, [x, y, 0]);
      worst = Math.max(worst, -wx, wx - room.width, -wy, wy - room.depth);
    }
  }
  return worst;
}

// ---------------------------------------------------------------------------------------------------------------
// From our world to the true room

/**
 * The true wall that is our front wall: the one whose bearing, seen from the true camera, is nearest to our front
 * wall's seen from ours. It is the wall the true camera faces (frontFrame) unless the view looks into a corner and
 * our analysis took the other wall for the front one; then turning pieces relative to frontFrame's wall would turn
 * every piece by a quarter.
 */
function matchedFrontWall(spec: RoomSpec, camera: RenderScene['camera']): FrontWall {
  // Rows of the world-to-camera rotation are the camera's axes in the world; the third is its forward direction.
  // Our front wall's outward normal is +Y, bearing 0, so the forward direction's bearing is the heading to it.
  const r = camera.rotation;
  const ours = (Math.atan2(r[6]!, r[7]!) * 180) / Math.PI;
  let matched: WallId = WALL_IDS[0]!;
  let error = Infinity;
  for (const wall of WALL_IDS) {
    const e = Math.abs(wrapDeg(spec.camera.yawDeg - WALL_BEARING[wall] - ours));
    if (e < error) [matched, error] = [wall, e];
  }
  return { matched, labelled: frontFrame(spec).wall, headingErrorDeg: error };
}

/** The world yaw that turns a piece's back (+Y of its frame) to face a true wall's outward normal. */
function wallYaw(wall: WallId): number {
  return (-WALL_BEARING[wall] * Math.PI) / 180;
}

/** One captured piece in the true room, at the image point ours shows it at (see the header, step 3). */
function mapPiece(spec: RoomSpec, camera: RenderScene['camera'], front: FrontWall, piece: RenderPiece): { mapped: MappedPiece; truth?: RenderPiece } {
  const bounds = pieceBounds(piece);
  const mount: Mount = bounds.min[2] > WALL_MOUNTED_ELEVATION_M ? 'wall' : 'floor';
  const m = piece.matrix;
  const ourYaw = Math.atan2(m[4]!, m[0]!);
  if (mount === 'floor') {
    // The frame's origin is the footprint's centre on our floor.
    const pixel = ourPixel(camera, transformPoint(m, [0, 0, 0]));
    const hit = pixel && floorHit(trueRay(spec, pixel));
    if (!hit) return { mapped: { name: piece.name, mount, unmapped: pixel ? 'its footprint centre is above the true horizon' : 'its footprint centre is behind our camera' } };
    const matrix = yawMatrix(wallYaw(front.matched) + ourYaw, hit);
    return { mapped: { name: piece.name, mount, intoWallM: round3(intoWall(spec.room, bounds, matrix)) }, truth: { ...piece, matrix } };
  }
  const back: Vec3 = [(bounds.min[0] + bounds.max[0]) / 2, bounds.max[1], (bounds.min[2] + bounds.max[2]) / 2];
  const pixel = ourPixel(camera, transformPoint(m, back));
  const hit = pixel && wallHit(spec.room, trueRay(spec, pixel), WALL_GAP_M);
  if (!hit) return { mapped: { name: piece.name, mount, unmapped: pixel ? 'its back centre meets no true wall' : 'its back centre is behind our camera' } };
  // Back to the wall it lands on; the frame's origin where that puts it, so that the back centre is the hit point.
  const yaw = wallYaw(hit.wall);
  const offset = transformPoint(yawMatrix(yaw, [0, 0, 0]), back);
  const matrix = yawMatrix(yaw, [hit.point[0] - offset[0], hit.point[1] - offset[1], hit.point[2] - offset[2]]);
  return { mapped: { name: piece.name, mount, wall: hit.wall, intoWallM: round3(intoWall(spec.room, bounds, matrix)) }, truth: { ...piece, matrix } };
}

const round3 = (v: number): number => Math.round(v * 1000) / 1000;

/** Our camera's height above our floor (the floor catcher's plane) and the true one. */
function cameraHeights(spec: RoomSpec, scene: RenderScene): CameraHeight {
  const floor = scene.surfaces.find((s) => s.name === 'floor');
  return { ours: round3(floor ? scene.camera.position[2] - floor.polygon[0]![2] : Number.NaN), truth: spec.camera.position[2] };
}

// ---------------------------------------------------------------------------------------------------------------
// Ours and the truth

/** stageRoom on the empty room, with the scene it rendered and its piece mask (stageRoom returns neither). */
async function stageOurs(
  empty: RawImage,
  request: { roomType: string; styleId: string; seed: number },
  deps: { lines: ChosenLines; renderer: BlenderRenderer; samples: number },
): Promise<{ photo: FurnishedPhoto; scene: RenderScene; mask: Uint8Array }> {
  const capturing = new CapturingRenderer(deps.renderer);
  const photo = await stageRoom(
    empty,
    { roomId: request.roomType, styleId: request.styleId, seed: request.seed, preserveWindows: true, decor: true, anneal: true, windowsChosen: false },
    { lines: deps.lines, renderer: capturing, quality: { samples: deps.samples, threads: 0 } },
  );
  // Every rectangle's scene holds every piece; the mask is the union of the rectangles' pieces.
  const mask = new Uint8Array(empty.width * empty.height);
  for (const { scene, passes } of capturing.renders) {
    // A scene rendered smaller than the photo (above stageRoom's render size cap) has passes on another grid.
    if (scene.width !== empty.width || scene.height !== empty.height) throw new Error(`rendered at ${scene.width} × ${scene.height}, not the photo's size`);
    const region = scene.region ?? { x0: 0, y0: 0, x1: empty.width, y1: empty.height };
    alphaMask(passes, region, empty.width, empty.height).forEach((v, p) => (mask[p] ||= v));
  }
  return { photo, scene: capturing.renders[0]!.scene, mask };
}

/** furnished_truth.py with the mapped pieces; reused when the pieces JSON is what rendered the truth in DIR. */
async function ensureRoomTruth(options: Options, blender: string, dir: string, pieces: RenderPiece[]): Promise<number> {
  const piecesPath = path.join(dir, 'ka-rooms-pieces.json');
  const text = JSON.stringify({ pieces });
  const reuse =
    fs.existsSync(piecesPath) && fs.readFileSync(piecesPath, 'utf8') === text && fs.existsSync(path.join(dir, 'truth.png')) && fs.existsSync(path.join(dir, 'piece-mask.png'));
  if (reuse) return 0;
  // The pieces file is written only after the truth rendered, so that a failed render is never taken for a done one.
  const pending = `${piecesPath}.pending`;
  fs.writeFileSync(pending, text);
  const args = ['-P', FURNISHED_TRUTH, '--', '--room', dir, '--pieces', pending, '--passes', 'truth,mask'];
  if (options.threads > 0) args.push('--threads', String(options.threads));
  const seconds = await runBlender(blender, args, path.join(dir, 'furnished-truth.log'));
  fs.renameSync(pending, piecesPath);
  return seconds;
}

// ---------------------------------------------------------------------------------------------------------------
// Figures

function silhouetteIoU(a: Uint8Array, b: Uint8Array): number {
  let inter = 0;
  let union = 0;
  for (let p = 0; p < a.length; p++) {
    if (a[p] && b[p]) inter++;
    if (a[p] || b[p]) union++;
  }
  return union > 0 ? inter / union : 0;
}

/**
 * Median CIEDE2000 between ours and the truth over the pixels inside both masks, both images averaged over a 5 × 5
 * window inside both masks first (the truth's render noise and our grain are not colour); NaN when they share none.
 */
function colourDifference(image: RawImage, mask: Uint8Array, truth: RawImage, truthMask: Uint8Array): number {
  const { width, height } = image;
  const both = mask.map((v, p) => (v && truthMask[p] ? 1 : 0));
  const ours = maskedBoxMean(linearPlane(image), 3, both, width, height, SMOOTH_RADIUS);
  const theirs = maskedBoxMean(linearPlane(truth), 3, both, width, height, SMOOTH_RADIUS);
  const des: number[] = [];
  const p1: Lab = { lightness: 0, a: 0, b: 0 };
  const p2: Lab = { lightness: 0, a: 0, b: 0 };
  for (let p = 0; p < both.length; p++) {
    if (!both[p]) continue;
    labOfLinearRgb(ours[p * 3]!, ours[p * 3 + 1]!, ours[p * 3 + 2]!, p1);
    labOfLinearRgb(theirs[p * 3]!, theirs[p * 3 + 1]!, theirs[p * 3 + 2]!, p2);
    des.push(ciede2000(p1, p2));
  }
  return median(des);
}

/** Pixels where ours differs from the empty room although the change mask says they were left alone. */
function changedOutsideMask(empty: RawImage, image: RawImage, changeMask: Uint8Array): number {
  let count = 0;
  for (let p = 0; p < changeMask.length; p++) {
    if (changeMask[p]) continue;
    for (let c = 0; c < 3; c++) {
      if (image.data[p * image.channels + c] !== empty.data[p * empty.channels + c]) {
        count++;
        break;
      }
    }
  }
  return count;
}

function countOn(mask: Uint8Array): number {
  let n = 0;
  for (const v of mask) n += v ? 1 : 0;
  return n;
}

// ---------------------------------------------------------------------------------------------------------------
// One room

const OURS_META = 'ka-rooms-ours.json';

/** Stages the room, maps its pieces into the true room and writes ours, its masks and what the report needs. */
async function runOurs(
  spec: RoomSpec,
  dir: string,
  empty: RawImage,
  request: { roomType: string; styleId: string; seed: number },
  deps: { lines: ChosenLines; renderer: BlenderRenderer; samples: number },
): Promise<{ meta: OursMeta; truthPieces: RenderPiece[] }> {
  const t0 = performance.now();
  let staged;
  try {
    staged = await stageOurs(empty, request, deps);
  } catch (error) {
    const message = (error as Error).message;
    const refusal = error instanceof AppError && (error.code === 'no_room_for_furniture' || error.code === 'layout_uncertain');
    const meta: OursMeta = { staged: false, ...(refusal ? { refused: message } : { error: message }), seconds: (performance.now() - t0) / 1000 };
    return { meta, truthPieces: [] };
  }
  const seconds = (performance.now() - t0) / 1000;
  const { photo, scene, mask } = staged;
  const front = matchedFrontWall(spec, scene.camera);
  const mappings = scene.pieces.map((piece) => mapPiece(spec, scene.camera, front, piece));
  await writeRgb(photo.image, path.join(dir, 'ours.png'));
  await writeMask(mask, empty.width, empty.height, path.join(dir, 'ours-mask.png'));
  await writeMask(photo.changeMask, empty.width, empty.height, path.join(dir, 'change-mask.png'));
  // Our scene without the meshes (camera, surfaces, lights, each piece's matrix): to trace any piece's mapping.
  const { pieces: ourPieces, ...rest } = scene;
  const poses = ourPieces.map(({ name, matrix }) => ({ name, matrix }));
  fs.writeFileSync(path.join(dir, 'ka-rooms-ours-scene.json'), JSON.stringify({ ...rest, pieces: poses }, null, 1));
  const staging = (photo.result as { staging: { geometryConfidence: number } }).staging;
  const meta: OursMeta = {
    staged: true,
    pieces: mappings.map((m) => m.mapped),
    front,
    cameraHeight: cameraHeights(spec, scene),
    geometryConfidence: staging.geometryConfidence,
    seconds,
  };
  return { meta, truthPieces: mappings.flatMap((m) => (m.truth ? [m.truth] : [])) };
}

async function runRoom(
  options: Options,
  blender: string,
  index: number,
  deps: { lines: ChosenLines | undefined; renderer: BlenderRenderer },
): Promise<RoomResult> {
  const t0 = performance.now();
  const spec = roomSpec(options, index);
  const request = roomRequest(options, index);
  const { dir, seconds: emptySeconds } = await ensureEmpty(options, blender, spec);
  const seconds = { empty: emptySeconds, ours: 0, truth: 0, total: 0 };
  const base = { id: spec.id, roomType: request.roomType, styleId: request.styleId, seed: request.seed };
  const empty = await readRgb(path.join(dir, 'empty.png'));
  const metaPath = path.join(dir, OURS_META);

  let meta: OursMeta;
  if (options.metricsOnly) {
    if (!fs.existsSync(metaPath)) return { ...base, staged: false, error: 'no earlier run of ours in DIR', seconds };
    meta = JSON.parse(fs.readFileSync(metaPath, 'utf8')) as OursMeta;
  } else {
    const ours = await runOurs(spec, dir, empty, request, { lines: deps.lines!, renderer: deps.renderer, samples: options.oursSamples });
    meta = ours.meta;
    fs.writeFileSync(metaPath, JSON.stringify(meta, null, 1));
    // No piece in the true room leaves furnished_truth.py nothing to render: a failure of the mapping, not of ours.
    if (meta.staged && ours.truthPieces.length === 0) throw new Error('no piece could be mapped into the true room');
    if (meta.staged) seconds.truth = await ensureRoomTruth(options, blender, dir, ours.truthPieces);
  }
  seconds.ours = meta.seconds ?? 0;
  if (!meta.staged) {
    seconds.total = (performance.now() - t0) / 1000;
    return { ...base, staged: false, ...(meta.refused ? { refused: meta.refused } : {}), ...(meta.error ? { error: meta.error } : {}), seconds };
  }

  const truth = await readRgb(path.join(dir, 'truth.png'));
  const truthMask = (await readMask(path.join(dir, 'piece-mask.png'))).mask;
  const ours = await readRgb(path.join(dir, 'ours.png'));
  const oursMask = (await readMask(path.join(dir, 'ours-mask.png'))).mask;
  const changeMask = (await readMask(path.join(dir, 'change-mask.png'))).mask;
  seconds.total = (performance.now() - t0) / 1000;
  return {
    ...base,
    staged: true,
    pieces: meta.pieces!,
    front: meta.front!,
    cameraHeight: meta.cameraHeight!,
    ...(meta.geometryConfidence !== undefined ? { geometryConfidence: meta.geometryConfidence } : {}),
    figures: {
      iou: silhouetteIoU(oursMask, truthMask),
      colourDE: colourDifference(ours, oursMask, truth, truthMask),
      oursPixels: countOn(oursMask),
      truthPixels: countOn(truthMask),
      changedOutsideMask: changedOutsideMask(empty, ours, changeMask),
    },
    seconds,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Report

interface Summary {
  staged: RoomResult[];
  rows: string[];
  unmapped: string[];
  cut: string[];
  frontMismatch: string[];
  changedOutside: number;
}

function summarize(results: RoomResult[]): Summary {
  const staged = results.filter((r) => r.staged && r.figures);
  const fmt = (v: number, digits: number) => (Number.isFinite(v) ? v.toFixed(digits) : '–');
  const row = (label: string, values: number[], digits: number) => `| ${label} | ${fmt(median(values), digits)} | ${fmt(mean(values), digits)} | ${values.length} |`;
  const colour = staged.map((r) => r.figures!.colourDE).filter(Number.isFinite);
  const rows = [
    row('Silhouette IoU, all pieces', staged.map((r) => r.figures!.iou), 3),
    row('Colour ΔE2000 (median over the pixels inside both masks)', colour, 2),
    row('Pieces staged', staged.map((r) => r.pieces!.length), 1),
    row('Pieces mapped into the true room', staged.map((r) => r.pieces!.filter((p) => !p.unmapped).length), 1),
    row('Our piece pixels / truth piece pixels', staged.map((r) => r.figures!.oursPixels / Math.max(1, r.figures!.truthPixels)), 2),
    row('Our camera heading to the front wall, error (degrees)', staged.map((r) => r.front!.headingErrorDeg), 1),
    row('Our camera height / true camera height', staged.map((r) => r.cameraHeight!.ours / r.cameraHeight!.truth), 2),
    row('Pixels changed outside the change mask', staged.map((r) => r.figures!.changedOutsideMask), 0),
  ];
  const named = (test: (p: MappedPiece) => boolean, what: (p: MappedPiece) => string) =>
    staged.flatMap((r) => r.pieces!.filter(test).map((p) => `${r.id} ${p.name} (${what(p)})`));
  return {
    staged,
    rows,
    unmapped: named((p) => p.unmapped !== undefined, (p) => p.unmapped!),
    cut: named((p) => (p.intoWallM ?? 0) > INTO_WALL_M, (p) => `${p.intoWallM!.toFixed(2)} m`),
    frontMismatch: staged.filter((r) => r.front!.matched !== r.front!.labelled).map((r) => `${r.id} (${r.front!.matched} for ${r.front!.labelled})`),
    changedOutside: staged.reduce((s, r) => s + r.figures!.changedOutsideMask, 0),
  };
}

async function contactSheet(results: RoomResult[], options: Options, file: string): Promise<void> {
  const chosen = results.filter((r) => r.staged && r.figures).slice(0, options.sheetRooms);
  if (chosen.length === 0) return;
  const cw = 320;
  const ch = Math.round((cw * options.height) / options.width);
  const caption = 20;
  const header = 24;
  const columns = ['empty', 'truth', 'ours'];
  const composites: OverlayOptions[] = [];
  const headerSvg = `<svg width="${cw * 3}" height="${header}">${columns.map((c, i) => `<text x="${i * cw + 6}" y="17" font-size="15" font-family="sans-serif" fill="#222">${c}</text>`).join('')}</svg>`;
  composites.push({ input: Buffer.from(headerSvg), left: 0, top: 0 });
  for (const [row, r] of chosen.entries()) {
    const top = header + row * (ch + caption);
    const text = `${r.id}: ${r.roomType} (${r.styleId}), ${r.pieces!.length} pieces, IoU ${r.figures!.iou.toFixed(2)}, ΔE ${r.figures!.colourDE.toFixed(1)}`;
    composites.push({ input: Buffer.from(`<svg width="${cw * 3}" height="${caption}"><text x="6" y="15" font-size="13" font-family="sans-serif" fill="#222">${text}</text></svg>`), left: 0, top });
    for (const [i, c] of columns.entries()) {
      composites.push({ input: await sharp(path.join(options.out, r.id, `${c}.png`)).resize(cw, ch).png().toBuffer(), left: i * cw, top: top + caption });
    }
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await sharp({ create: { width: cw * 3, height: header + chosen.length * (ch + caption), channels: 3, background: '#ffffff' } })
    .composite(composites)
    .jpeg({ quality: 86 })
    .toFile(file);
}

function reportSection(results: RoomResult[], summary: Summary, options: Options, lineSource: string, minutes: number, harnessFailures: string[]): string {
  const { staged } = summary;
  const refused = results.filter((r) => r.refused).map((r) => `${r.id} (${r.roomType}: ${r.refused})`);
  const failed = results.filter((r) => !r.staged && !r.refused).map((r) => `${r.id} (${r.roomType}: ${r.error})`);
  const table = ['| Figure, over the staged rooms | Median | Mean | Rooms |', '|---|---|---|---|', ...summary.rows].join('\n');
  const oursSeconds = median(staged.map((r) => r.seconds.ours).filter((v) => v > 0));
  const truthSeconds = median(staged.map((r) => r.seconds.truth).filter((v) => v > 0));
  const pieceCount = staged.reduce((s, r) => s + r.pieces!.length, 0);
  const notes = [
    `Pixels changed outside the change mask stageRoom returned: ${summary.changedOutside} in all.`,
    summary.unmapped.length > 0
      ? `Pieces left out of the truth (their image point meets no true floor or wall; they still count in our mask): ${summary.unmapped.join('; ')}.`
      : 'Every piece was mapped into the true room.',
    summary.cut.length > 0
      ? `Pieces reaching more than ${INTO_WALL_M} m through a true wall (the wall hides that part in the truth): ${summary.cut.join('; ')}. A piece gets there where its image point lies past the true wall's foot, or where our scale differs and a piece against our wall, put at its footprint centre's image point, no longer fits before the true one.`
      : '',
    summary.frontMismatch.length > 0
      ? `Rooms whose front wall in our analysis is another wall than the one the true camera faces (yaws turned relative to the matched one): ${summary.frontMismatch.join('; ')}.`
      : '',
  ].filter((line) => line !== '');
  const truthTime = Number.isFinite(truthSeconds) ? `the truth ${truthSeconds.toFixed(0)} s` : `the truths were reused from ${options.out}`;
  return `### Whole rooms staged against known answers (node --import tsx bench/staging-known-answer-rooms.ts)

${machineLine()}

${results.length} rendered rooms (tools/room-renderer, seed ${options.seed}, ${options.width} × ${options.height}, ${options.samples} samples). **Ours** is
\`stageRoom\` on the empty render as ${ROOM_TYPES.join(', ')} in turn, in ${STYLES.join(', ')} (a style per round of room types),
with decor, annealing and windows kept (smart-staging-v2's settings; line sources ${lineSource}, ${options.oursSamples} samples asked): our
pipeline chooses the whole arrangement from its own estimate of the camera, room and light. The **truth** renders the
same pieces (the meshes and materials of the scene ours rendered) in the true room with the true camera and light
(tools/room-renderer/furnished_truth.py), each at the place our image shows it: a floor-standing piece where the true
camera's ray through our image of its footprint's centre meets the true floor, a wall-mounted one where the ray through
the centre of its back meets the true walls (${WALL_GAP_M} m inside them, as our planner hangs it); turned as ours relative to the
front wall (wall pieces: back to the wall they land on). So the figures measure how well our geometry, scale and light
render an arrangement into the room — not whether the arrangement is good. There is no baseline: the truth follows
our own arrangement, and the single-piece bench (staging-known-answer) already compares the light against a default one.

${table}

Staged ${staged.length} of ${results.length} rooms (${pieceCount} pieces).${refused.length > 0 ? ` Refused by stageRoom (no room for the programme, or an unsure layout; counted, not failures): ${refused.join('; ')}.` : ''}${failed.length > 0 ? ` Failed: ${failed.join('; ')}.` : ''}${harnessFailures.length > 0 ? ` Left out because the harness failed: ${harnessFailures.join('; ')}.` : ''}
${notes.join('\n')}
Our camera's height over the true one is the scale ours draws the room at: above 1, our room is larger than the true
one, so the truth's pieces, put where our image shows them, stand nearer the camera and look larger than ours.
IoU is over the union of all pieces (the truth's exact piece mask against our pieces pass, alpha > 0.5); colour is the
median CIEDE2000 over the pixels inside both masks, both images averaged over a 5 × 5 window inside both masks (render
noise and grain are not colour). Rows of [docs/images/staging-known-answer-rooms.jpg](images/staging-known-answer-rooms.jpg): empty | truth | ours.
The run took ${minutes.toFixed(0)} min (renders of the empty rooms and truths included unless reused); stageRoom took
${Number.isFinite(oursSeconds) ? oursSeconds.toFixed(0) : '–'} s per room and ${truthTime} (medians, on this shared 2-core machine).`;
}

async function main(): Promise<void> {
  const options = parseOptions('/tmp/staging-ka-rooms');
  const config = loadConfig(process.env);
  const blender = config.staging.blender;
  const renderer = new BlenderRenderer({ executable: blender });
  const available = await renderer.available();
  if (!available.ok) throw new Error(`Blender is needed: ${available.reason}`);
  fs.mkdirSync(options.out, { recursive: true });
  let runtime: ModelRuntime | undefined;
  let lines: ChosenLines | undefined;
  if (!options.metricsOnly) {
    const registry = ModelRegistry.load();
    runtime = new ModelRuntime(new ModelStore(config.models.cacheDir, registry), registry, { intraOpNumThreads: Math.max(1, Math.min(4, os.availableParallelism())) });
    lines = await chooseLineSources(runtime);
  }
  const started = performance.now();
  // --metrics-only keeps the line sources and the time of the run that rendered and staged.
  const resultsPath = path.join(options.out, 'results.json');
  const previous =
    options.metricsOnly && fs.existsSync(resultsPath)
      ? (JSON.parse(fs.readFileSync(resultsPath, 'utf8')) as { lineSource?: string; minutes?: number; results?: RoomResult[] })
      : {};
  const previousSeconds = new Map((previous.results ?? []).map((r) => [r.id, r.seconds]));
  const lineSource = lines?.name ?? previous.lineSource ?? 'unknown';
  const results: RoomResult[] = [];
  const harnessFailures: string[] = [];
  for (let index = 0; index < options.rooms; index++) {
    let result: RoomResult;
    try {
      result = await runRoom(options, blender, index, { lines, renderer });
    } catch (error) {
      // A failure of the harness (Blender on the empty room or the truth, or no piece mapped), not of stageRoom.
      console.error(`room ${index}: ${(error as Error).stack}`);
      harnessFailures.push(`${roomSpec(options, index).id} (${(error as Error).message})`);
      continue;
    }
    if (options.metricsOnly) result.seconds = previousSeconds.get(result.id) ?? result.seconds;
    results.push(result);
    const s = result.seconds;
    const f = result.figures;
    const outcome = f
      ? `${result.pieces!.length} pieces (${result.pieces!.filter((p) => p.unmapped).length} unmapped), IoU ${f.iou.toFixed(3)}, ΔE ${f.colourDE.toFixed(2)}, changed outside mask ${f.changedOutsideMask}, heading error ${result.front!.headingErrorDeg.toFixed(1)}°, camera height ${result.cameraHeight!.ours.toFixed(2)} m (true ${result.cameraHeight!.truth.toFixed(2)} m)`
      : result.refused
        ? `REFUSED: ${result.refused}`
        : `FAILED: ${result.error}`;
    console.log(`${result.id} ${result.roomType}/${result.styleId}  ${outcome}  [empty ${s.empty.toFixed(0)} s, ours ${s.ours.toFixed(0)} s, truth ${s.truth.toFixed(0)} s, total ${s.total.toFixed(0)} s]`);
    fs.writeFileSync(resultsPath, `${JSON.stringify({ options, lineSource, harnessFailures, results }, null, 1)}\n`);
  }
  const minutes = options.metricsOnly && previous.minutes !== undefined ? previous.minutes : (performance.now() - started) / 60000;
  await runtime?.close();
  fs.writeFileSync(resultsPath, `${JSON.stringify({ options, lineSource, minutes, harnessFailures, results }, null, 1)}\n`);
  const summary = summarize(results);
  console.log(`\n${summary.staged.length} of ${results.length} rooms staged; ${minutes.toFixed(1)} min\n${['| Figure | Median | Mean | Rooms |', ...summary.rows].join('\n')}`);
  if (summary.unmapped.length > 0) console.log(`unmapped: ${summary.unmapped.join('; ')}`);
  if (summary.cut.length > 0) console.log(`through a true wall: ${summary.cut.join('; ')}`);
  if (summary.frontMismatch.length > 0) console.log(`front wall matched differently: ${summary.frontMismatch.join('; ')}`);
  if (!options.write) return;
  await contactSheet(results, options, SHEET);
  writeSection('staging-known-answer-rooms', reportSection(results, summary, options, lineSource, minutes, harnessFailures));
}

await main();
