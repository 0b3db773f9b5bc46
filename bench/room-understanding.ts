/**
 * npm run bench:room-understanding — the room-understanding networks on real photos, as the operations run them: the
 * layout and boundaries of models/room-layout.onnx beside what models/room-understanding.onnx sees.
 *
 * Layout pixel error on the photos whose layout was drawn by hand (bench/data/photo-layouts.json; walls matched
 * one-to-one by overlap, as bench:geometry scores them), three ways in one run:
 *   lines    the classical analysis (M-LSD + LSD lines, orientation map swept from them, box fit): `roomcraft analyze`
 *   network  the same box fit scored against the network's layout map instead of the orientation map
 *   raw      the network's layout map itself, no box
 * the network's inference time on a 12 MP photo (resize included), and, with `--renders DIR` (rooms of the Blender room
 * renderer, a different renderer from the one the network was trained on: `npm run render:rooms -- --seed 7 --count 16
 * --width 384 --height 288 --out DIR`), visible-class IoU, layout pixel error and boundary F-score against their exact
 * labels. Writes its section of docs/benchmarks.md and
 * docs/images/room-understanding-photos.jpg (photo | network: what is seen | network: layout | box fit on the
 * network | drawn). The held-out render figures come from the training log (docs/models/room-understanding.md).
 * `--network FILE` scores another ONNX file of the same network (a training run's output) instead of the committed one,
 * printing its figures and leaving docs/ alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { loadConfig } from '../src/config/config.js';
import { decodeImage } from '../src/repositories/image-codec.js';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import { createDetectorSession } from '../src/repositories/models/detector-session.js';
import { openTrainedModel } from '../src/repositories/models/trained-models.js';
import { analyzeRoom, layoutLabels, type AnalyzeRoomOptions, type RoomAnalysis } from '../src/services/geometry/analyze-room.js';
import { lsdLineSource, mlsdLineSource, MLSD_MODEL } from '../src/services/geometry/line-sources.js';
import { pairedNetworkSource, ROOM_LAYOUT_MODEL, ROOM_NETWORK_MODEL, roomNetworkSource } from '../src/services/geometry/room-network.js';
import { analyzeWithSecondOpinion } from '../src/services/operations/line-source-choice.js';
import { roomLayoutDoubt } from '../src/services/staging/stage-room.js';
import { VISIBLE_CLASSES, type RoomSegmentation } from '../src/vision/geometry/room-segmentation.js';
import { resizeToLongSide } from '../src/vision/geometry/resample.js';
import { fillPolygon } from '../src/vision/polygon-mask.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { CEILING, drawnClasses, FLOOR, layoutError, matchOpenings, MIN_OPENING_SHARE, type DrawnLayout, type Polygon } from './layout-scoring.js';
import { machineLine, writeSection } from './report.js';
import { PHOTO_LIMITS, ROOT, TWELVE_MEGAPIXELS, layoutPhotoPath } from './shared-photos.js';
import { mean, median } from './statistics.js';
import { parseArgs } from 'node:util';

const LAYOUTS = path.join(ROOT, 'bench/data/photo-layouts.json');
const SHEET = path.join(ROOT, 'docs/images/room-understanding-photos.jpg');
const OPENINGS_SHEET = path.join(ROOT, 'docs/images/room-understanding-openings.jpg');
const SCORE_SIZE = 640;
const PANEL_HEIGHT = 220;

// floor, ceiling, left, front, right (and back for the box fit)
const LAYOUT_RGB = [[60, 140, 255], [255, 210, 60], [255, 70, 70], [70, 210, 70], [210, 70, 255], [70, 230, 230]];
// floor, ceiling, wall, window, door, furniture, rug, art, clutter
const VISIBLE_RGB = [[60, 140, 255], [255, 210, 60], [200, 200, 200], [70, 230, 230], [255, 140, 0], [220, 50, 50], [150, 80, 200], [50, 180, 80], [250, 100, 200]];

/** Nearest-neighbour resample of a label map. */
function resampleLabels(labels: Uint8Array, w: number, h: number, outW: number, outH: number): Uint8Array {
  const out = new Uint8Array(outW * outH);
  for (let y = 0; y < outH; y++) {
    const sy = Math.min(h - 1, Math.floor(((y + 0.5) / outH) * h));
    for (let x = 0; x < outW; x++) out[y * outW + x] = labels[sy * w + Math.min(w - 1, Math.floor(((x + 0.5) / outW) * w))]!;
  }
  return out;
}

/** Network layout (floor, ceiling, left, front, right) → scoring ids (FLOOR, CEILING, walls 3…). */
function rawClasses(seg: RoomSegmentation, w: number, h: number): Uint8Array {
  const labels = resampleLabels(seg.layout, seg.width, seg.height, w, h);
  return labels.map((c) => (c === 0 ? FLOOR : c === 1 ? CEILING : c + 1));
}

async function tint(image: RawImage, labels: Uint8Array, lw: number, lh: number, palette: number[][]): Promise<Buffer> {
  const height = PANEL_HEIGHT;
  const width = Math.round((image.width / image.height) * height);
  const small = resizeToLongSide(image, Math.max(width, height));
  const base = await sharp(Buffer.from(small.data), { raw: { width: small.width, height: small.height, channels: 3 } }).resize(width, height).raw().toBuffer();
  const map = resampleLabels(labels, lw, lh, width, height);
  const out = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    const c = palette[map[i]!] ?? [0, 0, 0];
    for (let k = 0; k < 3; k++) out[i * 3 + k] = Math.round(base[i * 3 + k]! * 0.45 + c[k]! * 0.55);
  }
  return sharp(out, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

/** Truth labels of the room renderer (labels.png) → the network's visible classes; furniture boxes are furniture. */
const RENDER_VISIBLE = [255, 0, 1, 2, 2, 2, 2, 3, 4, 5];
const RENDER_CLASSES = ['floor', 'ceiling', 'wall', 'window', 'door', 'furniture'];

async function greyPng(file: string): Promise<{ data: Uint8Array; width: number; height: number }> {
  const { data, info } = await sharp(file).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Pixels where a 4-neighbour has another label. */
function boundaryOf(labels: Uint8Array, w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const v = labels[y * w + x]!;
      if ((x + 1 < w && labels[y * w + x + 1] !== v) || (y + 1 < h && labels[(y + 1) * w + x] !== v)) out[y * w + x] = 1;
    }
  }
  return out;
}

/** Share of `a`'s pixels within `tolerance` pixels of a pixel of `b`. */
function matchedShare(a: Uint8Array, b: Uint8Array, w: number, h: number, tolerance: number): number {
  let total = 0;
  let hit = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!a[y * w + x]) continue;
      total++;
      search: for (let dy = -tolerance; dy <= tolerance; dy++) {
        for (let dx = -tolerance; dx <= tolerance; dx++) {
          const yy = y + dy;
          const xx = x + dx;
          if (yy >= 0 && yy < h && xx >= 0 && xx < w && b[yy * w + xx]) {
            hit++;
            break search;
          }
        }
      }
    }
  }
  return total ? hit / total : 1;
}

/** Openings found against the render's exact ones: found at IoU ≥ 0.5 and ≥ 0.3, and how many of those found match. */
interface OpeningTally {
  found50: number;
  found30: number;
  predicted: number;
  matched: number;
}

interface RenderFigures {
  rooms: number;
  iou: Record<string, number>;
  miou: number;
  layoutError: number;
  boundaryF: number;
  /** Visible truth openings of at least MIN_OPENING_SHARE of the image, and what each analysis made of them. */
  openings: number;
  lines: OpeningTally;
  combined: OpeningTally;
}

/** The room analysis the bench runs on every image: M-LSD lines for the layout, LSD's for the vanishing points. */
type Analyse = (image: RawImage, extra?: Pick<AnalyzeRoomOptions, 'segmentation' | 'networkUse'>) => Promise<RoomAnalysis>;

function tallyOpenings(tally: OpeningTally, targets: Polygon[], analysis: RoomAnalysis, w: number, h: number): void {
  const predicted = analysis.openings.map((o) => o.polygon.map(([x, y]) => [(x * w) / analysis.image.width, (y * h) / analysis.image.height] as [number, number]));
  const { bestIoU, predictedMatched } = matchOpenings(targets, predicted, w, h);
  tally.found50 += bestIoU.filter((v) => v >= 0.5).length;
  tally.found30 += bestIoU.filter((v) => v >= 0.3).length;
  tally.predicted += predicted.length;
  tally.matched += predictedMatched;
}

async function scoreRenders(dir: string, segmentation: ReturnType<typeof roomNetworkSource>, analyse: Analyse): Promise<RenderFigures> {
  const rooms = fs.readdirSync(dir).filter((d) => fs.existsSync(path.join(dir, d, 'beauty.png'))).sort();
  const inter = new Array<number>(RENDER_CLASSES.length).fill(0);
  const union = new Array<number>(RENDER_CLASSES.length).fill(0);
  const errors: number[] = [];
  const fscores: number[] = [];
  let openings = 0;
  const lines: OpeningTally = { found50: 0, found30: 0, predicted: 0, matched: 0 };
  const combined: OpeningTally = { ...lines };
  for (const room of rooms) {
    const { image } = await decodeImage(fs.readFileSync(path.join(dir, room, 'beauty.png')), PHOTO_LIMITS);
    const seg = await segmentation(image);
    const truth = JSON.parse(fs.readFileSync(path.join(dir, room, 'truth.json'), 'utf8')) as { openings: { visible: boolean; area: number; polygon: Polygon }[] };
    const targets = truth.openings.filter((o) => o.visible && o.area >= MIN_OPENING_SHARE * image.width * image.height && o.polygon.length >= 3).map((o) => o.polygon);
    openings += targets.length;
    tallyOpenings(lines, targets, await analyse(image), image.width, image.height);
    tallyOpenings(combined, targets, await analyse(image, { segmentation, networkUse: ['openings'] }), image.width, image.height);
    const labels = await greyPng(path.join(dir, room, 'labels.png'));
    const layout = await greyPng(path.join(dir, room, 'layout.png'));
    const w = seg.width;
    const h = seg.height;
    const truthVisible = resampleLabels(labels.data, labels.width, labels.height, w, h);
    const truthLayout = resampleLabels(layout.data, layout.width, layout.height, w, h);
    for (let i = 0; i < w * h; i++) {
      const t = RENDER_VISIBLE[truthVisible[i]!] ?? 255;
      const p = Math.min(5, seg.visible[i]!);
      for (let c = 0; c < RENDER_CLASSES.length; c++) {
        const inT = t === c;
        const inP = p === c;
        if (inT && inP) inter[c]!++;
        if (inT || inP) union[c]!++;
      }
    }
    // layout.png: 1 floor, 2 ceiling, 3–6 walls — the scoring ids already.
    errors.push(layoutError(rawClasses(seg, w, h), truthLayout).error);
    const truthEdges = boundaryOf(truthLayout, w, h);
    const predicted = Uint8Array.from(seg.edges, (p) => (p > 0.5 ? 1 : 0));
    const precision = matchedShare(predicted, truthEdges, w, h, 2);
    const recall = matchedShare(truthEdges, predicted, w, h, 2);
    fscores.push(precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0);
  }
  const iou = Object.fromEntries(RENDER_CLASSES.map((c, k) => [c, union[k]! ? inter[k]! / union[k]! : NaN]));
  return { rooms: rooms.length, iou, miou: mean(Object.values(iou).filter((v) => !Number.isNaN(v))), layoutError: median(errors), boundaryF: median(fscores), openings, lines, combined };
}

/** Panels side by side, 4 px apart, on black. */
async function sheetRow(panels: Buffer[]): Promise<Buffer> {
  const metas = await Promise.all(panels.map((p) => sharp(p).metadata()));
  const rowWidth = metas.reduce((n, m) => n + m.width! + 4, 0);
  let left = 0;
  return sharp({ create: { width: rowWidth, height: PANEL_HEIGHT + 4, channels: 3, background: '#000' } })
    .composite(panels.map((input, k) => ({ input, left: (left += k ? metas[k - 1]!.width! + 4 : 0), top: 2 })))
    .png()
    .toBuffer();
}

/** Rows one under another, as a JPEG. */
async function writeSheet(rows: Buffer[], file: string): Promise<void> {
  const width = Math.max(...(await Promise.all(rows.map((b) => sharp(b).metadata()))).map((m) => m.width!));
  await sharp({ create: { width, height: rows.length * (PANEL_HEIGHT + 4), channels: 3, background: '#000' } })
    .composite(rows.map((input, k) => ({ input, left: 0, top: k * (PANEL_HEIGHT + 4) })))
    .jpeg({ quality: 82 })
    .toFile(file);
}

/** The photo, dimmed, with openings outlined (photo pixels): windows cyan, doors orange. */
async function outlined(image: RawImage, openings: readonly { kind: string; polygon: readonly (readonly [number, number])[] }[]): Promise<Buffer> {
  const base = await tint(image, new Uint8Array(1).fill(255), 1, 1, LAYOUT_RGB);
  const { width, height } = await sharp(base).metadata();
  const s = height! / image.height;
  const shapes = openings
    .map((o) => `<polygon points="${o.polygon.map(([x, y]) => `${(x * s).toFixed(1)},${(y * s).toFixed(1)}`).join(' ')}" fill="none" stroke="${o.kind === 'window' ? '#00e5ff' : '#ff9600'}" stroke-width="2"/>`)
    .join('');
  return sharp(base)
    .composite([{ input: Buffer.from(`<svg width="${width}" height="${height}">${shapes}</svg>`), left: 0, top: 0 }])
    .png()
    .toBuffer();
}

/** What one photo's drawn windows and doors say of the analysis's openings and of the network's window and door pixels. */
interface OpeningScore {
  file: string;
  windows: number;
  doors: number;
  /** Per drawn opening (windows first, then doors): best IoU of an opening the analysis found. */
  analysisIoU: number[];
  analysisFound: number;
  analysisMatched: number;
  /** The same for the analysis whose openings the network's window and door pixels add to (networkUse openings). */
  combinedIoU: number[];
  combinedFound: number;
  combinedMatched: number;
  /** Per drawn opening: share of its pixels the network calls window or door. */
  networkCover: number[];
  /** The network's window and door pixels, and how many of them lie in a drawn opening. */
  networkPixels: number;
  networkInside: number;
}

const WINDOW = VISIBLE_CLASSES.indexOf('window');
const DOOR = VISIBLE_CLASSES.indexOf('door');

function scoreOpenings(drawn: DrawnLayout, analysis: RoomAnalysis, combined: RoomAnalysis, seg: RoomSegmentation, image: RawImage, w: number, h: number): OpeningScore {
  const drawnScale = w / drawn.width;
  const scaled = (polygon: Polygon, s: number) => polygon.map(([x, y]) => [x * s, y * s] as [number, number]);
  const visibleArea = (polygon: Polygon) => {
    const mask = new Uint8Array(w * h);
    fillPolygon(mask, w, h, polygon);
    return mask.reduce((n, v) => n + v, 0);
  };
  const targets = (drawn.openings ?? [])
    .map((o) => ({ kind: o.kind, polygon: scaled(o.polygon, drawnScale) }))
    .filter((o) => visibleArea(o.polygon) >= MIN_OPENING_SHARE * w * h)
    .sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'window' ? -1 : 1));
  const match = (a: RoomAnalysis) => {
    const predicted = a.openings.map((o) => scaled(o.polygon as Polygon, w / image.width));
    return { ...matchOpenings(targets.map((o) => o.polygon), predicted, w, h), found: predicted.length };
  };
  const lines = match(analysis);
  const both = match(combined);
  const network = resampleLabels(seg.visible, seg.width, seg.height, w, h);
  const inAny = new Uint8Array(w * h);
  const networkCover = targets.map((o) => {
    const mask = new Uint8Array(w * h);
    fillPolygon(mask, w, h, o.polygon);
    let pixels = 0;
    let covered = 0;
    for (let i = 0; i < mask.length; i++) {
      if (!mask[i]) continue;
      inAny[i] = 1;
      pixels++;
      if (network[i] === WINDOW || network[i] === DOOR) covered++;
    }
    return pixels ? covered / pixels : 0;
  });
  let networkPixels = 0;
  let networkInside = 0;
  for (let i = 0; i < network.length; i++) {
    if (network[i] !== WINDOW && network[i] !== DOOR) continue;
    networkPixels++;
    if (inAny[i]) networkInside++;
  }
  return {
    file: drawn.file,
    windows: targets.filter((o) => o.kind === 'window').length,
    doors: targets.filter((o) => o.kind === 'door').length,
    analysisIoU: lines.bestIoU,
    analysisFound: lines.found,
    analysisMatched: lines.predictedMatched,
    combinedIoU: both.bestIoU,
    combinedFound: both.found,
    combinedMatched: both.predictedMatched,
    networkCover,
    networkPixels,
    networkInside,
  };
}

/** The openings' section of the report: totals over the photos, then one line per photo. */
function openingsReport(scores: OpeningScore[]): string[] {
  if (scores.length === 0) return [];
  const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(0)} %` : '–');
  const sum = (f: (s: OpeningScore) => number) => scores.reduce((n, s) => n + f(s), 0);
  const windows = sum((s) => s.windows);
  const doors = sum((s) => s.doors);
  const count = (f: (s: OpeningScore) => number[], least: number, kind?: 'window' | 'door') =>
    sum((s) => f(s).filter((v, k) => v >= least && (kind === undefined || (kind === 'window') === k < s.windows)).length);
  const found = (least: number, kind?: 'window' | 'door') => count((s) => s.analysisIoU, least, kind);
  const foundBoth = (least: number, kind?: 'window' | 'door') => count((s) => s.combinedIoU, least, kind);
  const covered = (kind?: 'window' | 'door') => count((s) => s.networkCover, 0.5, kind);
  return [
    '',
    `Windows and doors drawn by hand on ${scores.length} of the photos (bench/data/photo-layouts.json \`openings\`: the hole's rectangle`,
    `on its wall, whole behind furniture; doorways, passages and glazed doors reaching the floor are doors; openings under`,
    `${(100 * MIN_OPENING_SHARE).toFixed(1)} % of the photo are not scored): ${windows} windows and ${doors} doors. **Analysis**: the openings \`roomcraft analyze\``,
    'finds (what furnish, the refresh and the declutter keep clear), matched as on the rendered rooms of bench:geometry: a',
    'drawn opening is found by one whose polygon overlaps it with IoU ≥ 0.5 (lenient: ≥ 0.3), of either kind; precision is',
    'the share of found openings matching a drawn one at IoU ≥ 0.3. **Analysis + network openings**: the same analysis with',
    "`networkUse: ['openings']`: each rectangle of the network's window and door pixels on a wall of the lines' layout",
    '(vision/geometry/openings.ts networkOpenings) joins the openings the lines frame unless one of those overlaps it; its',
    'thresholds (a region of 0.5 % of the image filling 60 % of its rectangle; a door within 0.08 camera heights of the',
    'floor) were set before any photo was scored and not changed after. **Network**: a drawn opening is covered when the',
    'network calls at least half of its pixels window or door; precision is the share of its window and door pixels inside',
    'a drawn opening. Contact sheet (drawn | the lines\' openings | with the network\'s added; windows cyan, doors orange):',
    '[docs/images/room-understanding-openings.jpg](images/room-understanding-openings.jpg).',
    '',
    '| | Found IoU ≥ 0.5 / ≥ 0.3 | Windows (≥ 0.3) | Doors (≥ 0.3) | Precision |',
    '|---|---|---|---|---|',
    `| analysis (lines) | ${found(0.5)} / ${found(0.3)} of ${windows + doors} (${pct(found(0.3), windows + doors)}) | ${found(0.3, 'window')} of ${windows} | ${found(0.3, 'door')} of ${doors} | ${pct(sum((s) => s.analysisMatched), sum((s) => s.analysisFound))} (${sum((s) => s.analysisMatched)} of ${sum((s) => s.analysisFound)}) |`,
    `| analysis + network openings | ${foundBoth(0.5)} / ${foundBoth(0.3)} of ${windows + doors} (${pct(foundBoth(0.3), windows + doors)}) | ${foundBoth(0.3, 'window')} of ${windows} | ${foundBoth(0.3, 'door')} of ${doors} | ${pct(sum((s) => s.combinedMatched), sum((s) => s.combinedFound))} (${sum((s) => s.combinedMatched)} of ${sum((s) => s.combinedFound)}) |`,
    `| network (pixels) | ${covered()} covered of ${windows + doors} (${pct(covered(), windows + doors)}) | ${covered('window')} of ${windows} | ${covered('door')} of ${doors} | ${pct(sum((s) => s.networkInside), sum((s) => s.networkPixels))} of its pixels |`,
    '',
    '| Photo | Drawn | Analysis: best IoU per drawn opening (windows, then doors); found | + network openings: the same | Network: share covered per drawn opening; pixel precision |',
    '|---|---|---|---|---|',
    ...scores.map(
      (s) =>
        `| ${s.file} | ${s.windows} W, ${s.doors} D | ${s.analysisIoU.map((v) => v.toFixed(2)).join(', ') || '–'}; ${s.analysisFound} found | ${s.combinedIoU.map((v) => v.toFixed(2)).join(', ') || '–'}; ${s.combinedFound} found | ${s.networkCover.map((v) => v.toFixed(2)).join(', ') || '–'}; ${pct(s.networkInside, s.networkPixels)} |`,
    ),
  ];
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { renders: { type: 'string' }, network: { type: 'string' } } });
  // A candidate network (a training run's ONNX file) is scored without touching docs/: its sheets go to the temp folder.
  const candidate = values.network;
  const sheets = candidate
    ? { photos: path.join(os.tmpdir(), 'room-understanding-photos.jpg'), openings: path.join(os.tmpdir(), 'room-understanding-openings.jpg') }
    : { photos: SHEET, openings: OPENINGS_SHEET };
  const config = loadConfig(process.env);
  const registry = ModelRegistry.load();
  const runtime = new ModelRuntime(new ModelStore(config.models.cacheDir, registry), registry, { intraOpNumThreads: Math.min(2, os.availableParallelism()) });
  if (!(await runtime.isInstalled(MLSD_MODEL))) throw new Error(`${MLSD_MODEL} is not installed: run ./bin/roomcraft models install`);
  const lines = mlsdLineSource(await runtime.detectorSession(MLSD_MODEL), { inputSize: 512 });
  const vanishingPointLines = lsdLineSource();
  const sessionOptions = { intraOpNumThreads: Math.min(2, os.availableParallelism()) };
  const network = candidate ? await createDetectorSession(fs.readFileSync(candidate), sessionOptions) : await openTrainedModel(ROOM_NETWORK_MODEL, sessionOptions);
  // As the operations run it: the layout network's layout beside what the first network sees (a candidate alone).
  const layoutNetwork = candidate ? undefined : await openTrainedModel(ROOM_LAYOUT_MODEL, sessionOptions);
  const segmentation = layoutNetwork ? pairedNetworkSource(network, layoutNetwork) : roomNetworkSource(network);
  const analyse: Analyse = (image, extra = {}) => analyzeRoom(image, lines, { vanishingPointLines, lineSourceName: `${MLSD_MODEL}+lsd`, ...extra });

  const layouts = JSON.parse(fs.readFileSync(LAYOUTS, 'utf8')) as DrawnLayout[];
  const rows: { file: string; lines: number; fitted: number; network: number; movedToMap: boolean; raw: number; contradiction: number; staging: number; stagingFrom: string }[] = [];
  const openingScores: OpeningScore[] = [];
  const openingSheet: Buffer[] = [];
  const sheet: Buffer[] = [];
  for (const drawn of layouts) {
    const { image } = await decodeImage(fs.readFileSync(layoutPhotoPath(drawn)), PHOTO_LIMITS);
    const s = SCORE_SIZE / Math.max(image.width, image.height);
    const w = Math.round(image.width * s);
    const h = Math.round(image.height * s);
    const truth = drawnClasses(drawn, w, h);
    const classical = await analyzeRoom(image, lines, { vanishingPointLines, lineSourceName: `${MLSD_MODEL}+lsd` });
    let seg: RoomSegmentation | undefined;
    const learned = await analyzeRoom(image, lines, {
      vanishingPointLines,
      lineSourceName: `${MLSD_MODEL}+lsd`,
      segmentation: async (working) => (seg = await segmentation(working)),
      fitToMap: true,
    });
    // The same fit without moving its box onto a sure map afterwards (docs/decisions/0026), to compare in one run: what
    // the refresh and the redesign build on.
    const fittedOnly = await analyzeRoom(image, lines, { vanishingPointLines, lineSourceName: `${MLSD_MODEL}+lsd`, segmentation: async () => seg! });
    const score = (labels: Uint8Array) => layoutError(labels, truth).error;
    const boxClasses = (a: typeof classical) => layoutLabels(a, w, h).map((f) => f + 1);
    // What the whole-room stagings build on: the lines' layout, the network's where the staging's checks refuse theirs.
    const staging = await analyzeWithSecondOpinion(image, { layout: lines, vanishingPoints: vanishingPointLines, roomNetwork: segmentation }, roomLayoutDoubt, undefined, { fitToMap: true });
    const row = {
      file: drawn.file,
      lines: score(boxClasses(classical)),
      fitted: score(boxClasses(fittedOnly)),
      network: score(boxClasses(learned)),
      movedToMap: learned.layout.fittedToMap !== undefined,
      raw: score(rawClasses(seg!, w, h)),
      // How far the network's map and the lines' box disagree (networkContradicts refuses the lines' box past 20 %).
      contradiction: layoutError(boxClasses(classical), rawClasses(seg!, w, h)).error,
      staging: score(boxClasses(staging.analysis)),
      stagingFrom: staging.analysis.layout.evidence === 'network' ? 'network' : roomLayoutDoubt(staging.analysis) ? 'lines, refused' : 'lines',
    };
    rows.push(row);
    if (drawn.openings) {
      const combined = await analyse(image, { segmentation, networkUse: ['openings'] });
      openingScores.push(scoreOpenings(drawn, classical, combined, seg!, image, w, h));
      const toPhoto = image.width / drawn.width;
      openingSheet.push(
        await sheetRow([
          await outlined(image, drawn.openings.map((o) => ({ kind: o.kind, polygon: o.polygon.map(([x, y]) => [x * toPhoto, y * toPhoto] as [number, number]) }))),
          await outlined(image, classical.openings),
          await outlined(image, combined.openings),
        ]),
      );
    }
    console.log(`${drawn.file}: lines ${(row.lines * 100).toFixed(1)} %, network box ${(row.network * 100).toFixed(1)} %, network raw ${(row.raw * 100).toFixed(1)} %, staging ${(row.staging * 100).toFixed(1)} % (${row.stagingFrom})`);
    const boxMap = layoutLabels(learned, w, h);
    const panels = [
      await tint(image, new Uint8Array(w * h).fill(255), w, h, LAYOUT_RGB),
      await tint(image, seg!.visible, seg!.width, seg!.height, VISIBLE_RGB),
      await tint(image, seg!.layout, seg!.width, seg!.height, LAYOUT_RGB),
      await tint(image, boxMap, w, h, LAYOUT_RGB),
      await tint(image, truth.map((c) => (c === 0 ? 255 : c - 1)), w, h, LAYOUT_RGB),
    ];
    sheet.push(await sheetRow(panels));
  }

  // Inference time at 12 MP: the photo reduced to the network's size, the network, the decoding.
  const { image: photo } = await decodeImage(fs.readFileSync(layoutPhotoPath(layouts[1]!)), PHOTO_LIMITS);
  const factor = Math.sqrt(TWELVE_MEGAPIXELS / (photo.width * photo.height));
  const bigBuffer = await sharp(Buffer.from(photo.data), { raw: { width: photo.width, height: photo.height, channels: photo.channels } })
    .resize(Math.round(photo.width * factor), Math.round(photo.height * factor))
    .raw()
    .toBuffer({ resolveWithObject: true });
  const big: RawImage = { data: bigBuffer.data, width: bigBuffer.info.width, height: bigBuffer.info.height, channels: 3 };
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await segmentation(big);
    times.push(performance.now() - t0);
  }
  const renders = values.renders ? await scoreRenders(values.renders, segmentation, analyse) : undefined;
  await network.close();
  await layoutNetwork?.close();
  await runtime.close();

  await writeSheet(sheet, sheets.photos);
  if (openingSheet.length) await writeSheet(openingSheet, sheets.openings);

  const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
  const built = rows.filter((r) => !r.stagingFrom.endsWith('refused'));
  const linesWrong = rows.filter((r) => r.lines > 0.2);
  const linesRight = rows.filter((r) => r.lines <= 0.2);
  const md = [
    '## Room understanding: the network on real photos (`npm run bench:room-understanding`)',
    '',
    machineLine(),
    '',
    'The networks as the operations run them: the layout and boundaries of models/room-layout.onnx (the room-understanding',
    'network trained further on a GPU, docs/decisions/0020) beside what models/room-understanding.onnx sees (windows, doors,',
    'standing furniture). "The network" below is that pair.',
    '',
    `Layout pixel error on the ${rows.length} photos with a hand-drawn layout (walls matched one-to-one by overlap). **lines**: the`,
    'classical analysis (`roomcraft analyze` before the network); **network fit**: the same box fit scored against the',
    "network's layout map instead of the lines' orientation map; **network box**: that box as the analysis gives it, moved onto",
    "the network's map where the network is sure of its map (mean winning probability at least 0.9) and the fit strays from it",
    "on at least 5 % of its confident pixels (marked *; docs/decisions/0026); **network raw**: the network's layout map alone;",
    "**staging**: what the whole-room stagings build on (analyzeWithSecondOpinion, docs/decisions/0021): the network box where it is",
    "found with a confidence of at least 0.6 and passes the staging's own checks (confidence under 0.3, or under 8 % floor on a photo",
    "looking down, refuse); else the lines' layout, which the staging refuses where it fails the same checks or where the network's",
    "layout map contradicts it on more than 20 % of the photo (refused; services/geometry/layout-trust.ts networkContradicts). **lines vs",
    "map**: that disagreement, the lines' box against the network's map, walls matched by overlap. Contact sheet",
    `(photo | what the network sees | its layout | the box fitted to it | drawn): [docs/images/room-understanding-photos.jpg](images/room-understanding-photos.jpg).`,
    '',
    '| Photo | lines | network fit | network box | network raw | lines vs map | staging (from) |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.file} | ${pct(r.lines)} | ${pct(r.fitted)} | ${pct(r.network)}${r.movedToMap ? ' *' : ''} | ${pct(r.raw)} | ${pct(r.contradiction)} | ${pct(r.staging)} (${r.stagingFrom}) |`),
    `| **median** | **${pct(median(rows.map((r) => r.lines)))}** | **${pct(median(rows.map((r) => r.fitted)))}** | **${pct(median(rows.map((r) => r.network)))}** | **${pct(median(rows.map((r) => r.raw)))}** | | **${pct(median(rows.map((r) => r.staging)))}** |`,
    `| worst | ${pct(Math.max(...rows.map((r) => r.lines)))} | ${pct(Math.max(...rows.map((r) => r.fitted)))} | ${pct(Math.max(...rows.map((r) => r.network)))} | ${pct(Math.max(...rows.map((r) => r.raw)))} | | ${pct(Math.max(...rows.map((r) => r.staging)))} |`,
    `| photos over 20 % | ${rows.filter((r) => r.lines > 0.2).length} | ${rows.filter((r) => r.fitted > 0.2).length} | ${rows.filter((r) => r.network > 0.2).length} | ${rows.filter((r) => r.raw > 0.2).length} | | ${rows.filter((r) => r.staging > 0.2).length} |`,
    `| over 20 % and built on (not refused) | | | | | | ${built.filter((r) => r.staging > 0.2).length} of ${built.length} (worst ${pct(Math.max(0, ...built.map((r) => r.staging)))}; median ${pct(median(built.map((r) => r.staging)))}) |`,
    '',
    `The lines' layout against the network's map, as a test of the lines' layout (over 20 % wrong against the drawing): ${linesWrong.length} such layouts, ${linesWrong.filter((r) => r.contradiction > 0.2).length} contradicted on more than 20 %; ${linesRight.filter((r) => r.contradiction > 0.2).length} of the ${linesRight.length} right ones contradicted too (the rule applies only where the network's own box was set aside).`,
    '',
    'Targets (issue 14): median under 10 %, no photo over 20 %. Every interior photo of ../shared/testdata/rooms and',
    '../shared/testdata/empty-rooms has a drawn layout except furnished_bedroom_pano360_11.png, an equirectangular panorama:',
    'it has no perspective box to draw, and the analysis is not meant for it.',
    ...openingsReport(openingScores),
    '',
    `Network inference on a ${big.width}×${big.height} photo (both networks: reduction to their input, runs, decoding; 2 threads): median ${median(times).toFixed(0)} ms of 5.`,
  ].join('\n');
  // The held-out renders have a section of their own: a run without --renders leaves their last figures in place.
  const rendersMd = renders
    ? [
      machineLine(),
      '',
      `Held-out rooms of the other renderer (tools/room-renderer, Blender, seed 7, ${renders.rooms} rooms at 384 × 288; box furniture): visible-class`,
      `mIoU ${renders.miou.toFixed(3)} (${Object.entries(renders.iou).map(([c, v]) => `${c} ${v.toFixed(2)}`).join(', ')}; rug, art and clutter predictions count as furniture),`,
      `layout pixel error ${pct(renders.layoutError)} (median, walls matched by overlap), boundary F-score ${renders.boundaryF.toFixed(3)} (median; edge probability > 0.5, 2 px tolerance).`,
      `Their ${renders.openings} windows and doors (in view, at least ${(100 * MIN_OPENING_SHARE).toFixed(1)} % of the image), matched as on the photos: analysis found ${renders.lines.found50} / ${renders.lines.found30} (IoU ≥ 0.5 / ≥ 0.3),`,
      `precision ${pct(renders.lines.predicted ? renders.lines.matched / renders.lines.predicted : 0)} (${renders.lines.matched} of ${renders.lines.predicted}); analysis + network openings ${renders.combined.found50} / ${renders.combined.found30}, precision ${pct(renders.combined.predicted ? renders.combined.matched / renders.combined.predicted : 0)} (${renders.combined.matched} of ${renders.combined.predicted}).`,
    ].join('\n')
    : undefined;
  if (candidate) console.log(`${candidate} scored; docs/ left as it was, sheets in ${sheets.photos} and ${sheets.openings}`);
  else {
    writeSection('room-understanding', md);
    if (rendersMd) writeSection('room-understanding-renders', rendersMd);
  }
  console.log(md);
  if (rendersMd) console.log(rendersMd);
}

await main();
