/**
 * Renders a seeded set of rooms with Blender and writes their ground truth.
 *
 *   node --import tsx tools/room-renderer/render-rooms.ts --seed 1 --count 12 --out /tmp/rooms
 *
 * Per room, in OUT/room-NNNN/: spec.json, truth.json (from the spec, in TypeScript), beauty.png, empty.png,
 * labels.png, layout.png and blender.json (from Blender), check.json (Blender's projection and label maps compared
 * with the truth), overlay.png and labels-preview.png (visual checks). OUT/index.json sums the set up.
 * README.md documents the options and every field of truth.json.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Vec2, type Vec3, pointInPolygon, projectSegment, projectWorldPoint } from './geometry.js';
import { type LabelComparison, castLabels, compareLabels } from './labels.js';
import { readLabelMap, writeLabelPreview, writeOverlay } from './overlay.js';
import { DEFAULT_GENERATOR_OPTIONS, ROOM_SHAPES, type RoomShape, type RoomSpec, cameraOf, generateRoomSpec } from './spec.js';
import { FILES, type Truth, computeTruth } from './truth.js';

const SCRIPT = path.join(import.meta.dirname, 'room_scene.py');
export const INSTALL_COMMAND = 'apt-get install -y blender';

/** A render passes its check when Blender's projection is this close to the truth's (pixels)… */
export const MAX_PROJECTION_ERROR_PX = 0.01;
/**
 * …and at most this fraction of the pixels of each label map differ from the ray-cast map, all on label boundaries,
 * every one with its centre within MAX_MISMATCH_EDGE_DISTANCE_PX of an edge of the truth.
 */
export const MAX_LABEL_MISMATCH = 1e-4;
export const MAX_MISMATCH_EDGE_DISTANCE_PX = 0.01;

function segmentDistance(p: Vec2, a: Vec2, b: Vec2): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

export interface Options {
  seed: number;
  count: number;
  start: number;
  out: string;
  width: number;
  height: number;
  samples: number;
  /** The shapes drawn (generateRoomSpec's `shapes`). */
  shapes: RoomShape[];
  threads: number;
  blender: string;
  install: boolean;
  specsOnly: boolean;
  recheck: boolean;
  verify: boolean;
  overlay: boolean;
}

const USAGE = `usage: render-rooms --seed S --count N --out DIR [options]
  --start I        first room index (default 0); room i of seed S is the same whatever the count
  --width W        image width (default ${DEFAULT_GENERATOR_OPTIONS.width})
  --height H       image height (default ${DEFAULT_GENERATOR_OPTIONS.height})
  --samples N      Cycles samples per pixel for beauty/empty (default ${DEFAULT_GENERATOR_OPTIONS.samples})
  --shapes LIST    room shapes, comma-separated, each room one of them with equal chance: box, l (default box)
  --threads N      Blender render threads (default 0: all cores)
  --blender PATH   Blender executable (default: blender on PATH)
  --install        if Blender is missing, run apt-get update && ${INSTALL_COMMAND} (as root)
  --specs-only     write spec.json and truth.json only, without Blender
  --recheck        do not render: rewrite truth.json and redo the checks and overlays of renders already in DIR
  --no-verify      skip comparing Blender's projection and label maps with the truth
  --no-overlay     skip overlay.png and labels-preview.png`;

export function parseArgs(argv: string[]): Options {
  const o: Options = {
    seed: Number.NaN,
    count: Number.NaN,
    start: 0,
    out: '',
    width: DEFAULT_GENERATOR_OPTIONS.width,
    height: DEFAULT_GENERATOR_OPTIONS.height,
    samples: DEFAULT_GENERATOR_OPTIONS.samples,
    shapes: ['box'],
    threads: 0,
    blender: 'blender',
    install: false,
    specsOnly: false,
    recheck: false,
    verify: true,
    overlay: true,
  };
  const integer = (name: string, value: string | undefined, min: number): number => {
    const n = Number(value);
    if (value === undefined || !Number.isInteger(n) || n < min) throw new Error(`${name} needs an integer ≥ ${min}, got ${value}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string | undefined => argv[++i];
    switch (arg) {
      case '--seed':
        o.seed = integer(arg, value(), 0);
        if (o.seed > 0xffffffff) throw new Error('--seed must fit in 32 bits');
        break;
      case '--count':
        o.count = integer(arg, value(), 1);
        break;
      case '--start':
        o.start = integer(arg, value(), 0);
        break;
      case '--out':
        o.out = value() ?? '';
        break;
      case '--width':
        o.width = integer(arg, value(), 16);
        break;
      case '--height':
        o.height = integer(arg, value(), 16);
        break;
      case '--samples':
        o.samples = integer(arg, value(), 1);
        break;
      case '--shapes': {
        const list = (value() ?? '').split(',').filter(Boolean);
        const unknown = list.filter((shape) => !(ROOM_SHAPES as readonly string[]).includes(shape));
        if (list.length === 0 || unknown.length > 0) throw new Error(`--shapes takes a comma-separated list of ${ROOM_SHAPES.join(', ')}, got ${list.join(',') || 'nothing'}`);
        o.shapes = list as RoomShape[];
        break;
      }
      case '--threads':
        o.threads = integer(arg, value(), 0);
        break;
      case '--blender':
        o.blender = value() ?? '';
        break;
      case '--install':
        o.install = true;
        break;
      case '--specs-only':
        o.specsOnly = true;
        break;
      case '--recheck':
        o.recheck = true;
        break;
      case '--no-verify':
        o.verify = false;
        break;
      case '--no-overlay':
        o.overlay = false;
        break;
      case '--help':
      case '-h':
        throw new Error(USAGE);
      default:
        throw new Error(`unknown option ${arg}\n${USAGE}`);
    }
  }
  if (Number.isNaN(o.seed) || Number.isNaN(o.count) || !o.out) throw new Error(`--seed, --count and --out are required\n${USAGE}`);
  return o;
}

/** The Blender executable: a path, or a name looked up on PATH; null when not found. */
export function findExecutable(name: string, envPath = process.env.PATH ?? ''): string | null {
  const candidates = name.includes('/') ? [name] : envPath.split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, name));
  for (const candidate of candidates) {
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

function ensureBlender(options: Options): string {
  let blender = findExecutable(options.blender);
  if (!blender && options.install) {
    if (process.getuid?.() !== 0) {
      process.stderr.write(`Blender is missing and --install needs root. Install it with:\n${INSTALL_COMMAND}\n`);
      process.exit(2);
    }
    process.stderr.write(`Blender is missing: running apt-get update && ${INSTALL_COMMAND}\n`);
    const r = spawnSync('sh', ['-c', `apt-get update && DEBIAN_FRONTEND=noninteractive ${INSTALL_COMMAND}`], { stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 2);
    blender = findExecutable(options.blender);
  }
  if (!blender) {
    process.stderr.write(`Blender (${options.blender}) was not found on PATH. Install it with:\n${INSTALL_COMMAND}\n(or pass --install to run it as root)\n`);
    process.exit(2);
  }
  return blender;
}

interface BlenderReport {
  blenderVersion: string;
  camera: { fx: number; rotationWorldToCamera: number[][]; lens: number; sensorWidth: number; sensorFit: string };
  points: { id: string; pixel: Vec2; depth: number }[];
  timings: Record<string, number>;
  /** CPU seconds of all Blender threads per pass (missing in reports of older scripts). */
  cpuSeconds?: Record<string, number>;
  samples: number;
}

export interface Check {
  passed: boolean;
  projection: { points: number; maxPixelError: number; meanPixelError: number; maxDepthError: number; maxRotationError: number; fxBlender: number; fxTruth: number };
  labels: LabelComparison;
  layout: LabelComparison;
  /**
   * Over the mismatched pixels of both maps: the largest distance (pixels) from the pixel centre to the nearest edge
   * of the truth (surface and opening polygons, furniture box edges; with blocks, the blocks' face polygons and the
   * visible room edges instead of the surfaces). Blender computes in 32-bit floats, so a pixel
   * centre within about 1e-3 px of an edge can fall on either side.
   */
  maxMismatchEdgeDistance: number;
  /** Pixels per class in labels.png. */
  classPixels: Record<string, number>;
  /** Per opening: pixel centres inside its truth polygon, and the fraction of them labelled as the opening in labels.png (furniture occludes the rest). */
  openings: { id: string; pixels: number; visibleFraction: number }[];
}

/** Compares Blender's outputs in `dir` with the truth. */
export async function checkRender(spec: RoomSpec, truth: Truth, dir: string): Promise<Check> {
  const report = JSON.parse(fs.readFileSync(path.join(dir, FILES.blender), 'utf8')) as BlenderReport;
  const camera = cameraOf(spec);
  let maxPixelError = 0;
  let sumPixelError = 0;
  let maxDepthError = 0;
  let n = 0;
  for (const p of report.points) {
    const world = spec.checkPoints.find((c) => c.id === p.id)!.world;
    const mine = projectWorldPoint(camera, world);
    maxDepthError = Math.max(maxDepthError, Math.abs(mine.depth - p.depth));
    // Behind the camera Blender's frame coordinates are not a projection; far outside the image (points just in front
    // of the camera's plane) 32-bit floats in Blender make errors grow with the distance from the centre.
    const [u, v] = mine.pixel;
    const { width, height } = spec.image;
    if (mine.depth <= 0 || u < -width || u > 2 * width || v < -height || v > 2 * height) continue;
    const e = Math.hypot(mine.pixel[0] - p.pixel[0], mine.pixel[1] - p.pixel[1]);
    maxPixelError = Math.max(maxPixelError, e);
    sumPixelError += e;
    n++;
  }
  let maxRotationError = 0;
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) maxRotationError = Math.max(maxRotationError, Math.abs(report.camera.rotationWorldToCamera[r]![c]! - camera.R[r]![c]!));
  }

  const labels = await readLabelMap(path.join(dir, FILES.labels));
  const layout = await readLabelMap(path.join(dir, FILES.layout));
  const castFull = castLabels(spec, { layout: false });
  const castLayout = castLabels(spec, { layout: true });
  const labelsCmp = compareLabels(castFull, labels);
  const layoutCmp = compareLabels(castLayout, layout);

  const classPixels: Record<string, number> = {};
  for (const v of labels.data) classPixels[v] = (classPixels[v] ?? 0) + 1;

  const openings = truth.openings.map((o) => {
    let pixels = 0;
    let seen = 0;
    if (o.polygon.length > 0) {
      const us = o.polygon.map((p) => p[0]);
      const vs = o.polygon.map((p) => p[1]);
      for (let j = Math.max(0, Math.floor(Math.min(...vs))); j < Math.min(labels.height, Math.ceil(Math.max(...vs))); j++) {
        for (let i = Math.max(0, Math.floor(Math.min(...us))); i < Math.min(labels.width, Math.ceil(Math.max(...us))); i++) {
          if (!pointInPolygon([i + 0.5, j + 0.5], o.polygon)) continue;
          pixels++;
          if (labels.data[j * labels.width + i] === o.classId) seen++;
        }
      }
    }
    return { id: o.id, pixels, visibleFraction: pixels > 0 ? seen / pixels : 0 };
  });

  // Where the label maps change class: the surfaces' outlines in a box room; in a room with blocks the visible parts of
  // its edges and the blocks' outlines (a box face's outline there runs behind the block too).
  const edges: [Vec2, Vec2][] = [];
  const outlines = truth.blocks ? truth.blocks.flatMap((b) => b.faces.map((f) => f.polygon)) : truth.surfaces.map((s) => s.polygon);
  for (const poly of [...outlines, ...truth.openings.map((o) => o.polygon)]) {
    for (let i = 0; i < poly.length; i++) edges.push([poly[i]!, poly[(i + 1) % poly.length]!]);
  }
  if (truth.blocks) for (const e of truth.edges) if (e.segment) edges.push(e.segment);
  for (const item of spec.furniture) {
    for (const b of item.boxes) {
      const corner = (i: number): Vec3 => [i & 1 ? b.max[0] : b.min[0], i & 2 ? b.max[1] : b.min[1], i & 4 ? b.max[2] : b.min[2]];
      for (let i = 0; i < 8; i++) {
        for (const bit of [1, 2, 4]) {
          if (i & bit) continue;
          const seg = projectSegment(camera, corner(i), corner(i | bit));
          if (seg) edges.push(seg);
        }
      }
    }
  }
  let maxMismatchEdgeDistance = 0;
  for (const [i, j] of [...labelsCmp.mismatchedPixels, ...layoutCmp.mismatchedPixels]) {
    let d = Number.POSITIVE_INFINITY;
    for (const [a, b] of edges) d = Math.min(d, segmentDistance([i + 0.5, j + 0.5], a, b));
    maxMismatchEdgeDistance = Math.max(maxMismatchEdgeDistance, d);
  }

  const labelOk = (c: LabelComparison): boolean => c.fraction <= MAX_LABEL_MISMATCH && c.mismatchedOnBoundaries === c.mismatched;
  const check: Check = {
    passed:
      maxPixelError <= MAX_PROJECTION_ERROR_PX &&
      labelOk(labelsCmp) &&
      labelOk(layoutCmp) &&
      maxMismatchEdgeDistance <= MAX_MISMATCH_EDGE_DISTANCE_PX,
    projection: {
      points: n,
      maxPixelError,
      meanPixelError: n > 0 ? sumPixelError / n : 0,
      maxDepthError,
      maxRotationError,
      fxBlender: report.camera.fx,
      fxTruth: camera.intrinsics.fx,
    },
    labels: labelsCmp,
    layout: layoutCmp,
    maxMismatchEdgeDistance,
    classPixels,
    openings,
  };
  return check;
}

function runBlender(blender: string, specPath: string, dir: string, threads: number): { seconds: number; ok: boolean } {
  const log = fs.openSync(path.join(dir, 'blender.log'), 'w');
  const t0 = performance.now();
  const args = ['-b', '--factory-startup', '-noaudio', '--python-exit-code', '1', '--python', SCRIPT, '--', '--spec', specPath, '--out', dir];
  if (threads > 0) args.push('--threads', String(threads));
  const r = spawnSync(blender, args, { stdio: ['ignore', log, log] });
  fs.closeSync(log);
  return { seconds: (performance.now() - t0) / 1000, ok: r.status === 0 && fs.existsSync(path.join(dir, FILES.blender)) };
}

async function main(): Promise<void> {
  let options: Options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(2);
  }
  const blender = options.specsOnly || options.recheck ? '' : ensureBlender(options);
  fs.mkdirSync(options.out, { recursive: true });
  // --recheck keeps the render times of the index it replaces.
  const previousSeconds = new Map<string, number>();
  const indexPath = path.join(options.out, 'index.json');
  if (options.recheck && fs.existsSync(indexPath)) {
    const previous = JSON.parse(fs.readFileSync(indexPath, 'utf8')) as { renders?: { id: string; seconds?: number }[] };
    for (const r of previous.renders ?? []) if (typeof r.seconds === 'number') previousSeconds.set(r.id, r.seconds);
  }
  const summary: Record<string, unknown>[] = [];
  let failures = 0;
  for (let index = options.start; index < options.start + options.count; index++) {
    const spec = generateRoomSpec(options.seed, index, { width: options.width, height: options.height, samples: options.samples, shapes: options.shapes });
    const truth = computeTruth(spec);
    const dir = path.join(options.out, spec.id);
    fs.mkdirSync(dir, { recursive: true });
    const specPath = path.join(dir, FILES.spec);
    fs.writeFileSync(specPath, `${JSON.stringify(spec, null, 1)}\n`);
    fs.writeFileSync(path.join(dir, FILES.truth), `${JSON.stringify(truth, null, 1)}\n`);
    if (options.specsOnly) {
      summary.push({ id: spec.id });
      continue;
    }
    const run = options.recheck
      ? { seconds: previousSeconds.get(spec.id) ?? Number.NaN, ok: fs.existsSync(path.join(dir, FILES.blender)) }
      : runBlender(blender, specPath, dir, options.threads);
    if (!run.ok) {
      failures++;
      process.stderr.write(`${spec.id}: Blender failed; see ${path.join(dir, 'blender.log')}\n`);
      summary.push({ id: spec.id, seconds: run.seconds, error: 'blender failed' });
      continue;
    }
    const report = JSON.parse(fs.readFileSync(path.join(dir, FILES.blender), 'utf8')) as BlenderReport;
    const cpu = report.cpuSeconds ? Object.values(report.cpuSeconds).reduce((a, b) => a + b, 0) : null;
    const entry: Record<string, unknown> = {
      id: spec.id,
      seconds: Number(run.seconds.toFixed(2)),
      blender: report.timings,
      blenderCpuSeconds: report.cpuSeconds ?? null,
    };
    let line = `${spec.id}  ${run.seconds.toFixed(1)} s (beauty ${report.timings.beauty?.toFixed(1)} s, empty ${report.timings.empty?.toFixed(1)} s${cpu === null ? '' : `; ${cpu.toFixed(1)} CPU s`})`;
    if (options.verify) {
      const check = await checkRender(spec, truth, dir);
      fs.writeFileSync(path.join(dir, FILES.check), `${JSON.stringify(check, null, 1)}\n`);
      entry.check = {
        passed: check.passed,
        maxPixelError: check.projection.maxPixelError,
        labelMismatches: check.labels.mismatched,
        layoutMismatches: check.layout.mismatched,
        maxMismatchEdgeDistance: check.maxMismatchEdgeDistance,
      };
      line += `  projection ≤ ${check.projection.maxPixelError.toExponential(1)} px  labels ${check.labels.mismatched}/${check.labels.pixels} px off  layout ${check.layout.mismatched} px off${check.labels.mismatched + check.layout.mismatched > 0 ? ` (centres ≤ ${check.maxMismatchEdgeDistance.toExponential(1)} px from an edge)` : ''}  ${check.passed ? 'ok' : 'FAILED'}`;
      if (!check.passed) failures++;
      if (options.overlay) {
        const labels = await readLabelMap(path.join(dir, FILES.labels));
        const layout = await readLabelMap(path.join(dir, FILES.layout));
        await writeLabelPreview(labels, layout, castLabels(spec, { layout: false }), castLabels(spec, { layout: true }), path.join(dir, FILES.labelsPreview));
      }
    }
    if (options.overlay) await writeOverlay(path.join(dir, FILES.beauty), truth, path.join(dir, FILES.overlay), report.points);
    process.stdout.write(`${line}\n`);
    summary.push(entry);
  }
  const seconds = summary.map((s) => s.seconds).filter((s): s is number => typeof s === 'number' && Number.isFinite(s));
  const index = {
    seed: options.seed,
    start: options.start,
    count: options.count,
    image: { width: options.width, height: options.height },
    samples: options.samples,
    shapes: options.shapes,
    meanSecondsPerRender: seconds.length > 0 ? Number((seconds.reduce((a, b) => a + b, 0) / seconds.length).toFixed(2)) : null,
    cpus: os.cpus().length,
    loadAverage: os.loadavg(),
    renders: summary,
  };
  fs.writeFileSync(indexPath, `${JSON.stringify(index, null, 1)}\n`);
  if (index.meanSecondsPerRender !== null) process.stdout.write(`mean ${index.meanSecondsPerRender} s per render (Blender start, beauty, empty, labels, layout)\n`);
  if (failures > 0) {
    process.stderr.write(`${failures} render(s) failed their check\n`);
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main();
}
