/**
 * `npm run bench:declutter`: object removal (issue 6) against known answers, the automatic mode against hand-drawn
 * furniture boxes, its times at 12 MP, and a contact sheet.
 *
 *   node --import tsx bench/declutter.ts [--renders DIR] [--part holes,renders,automatic,large] [--holes-only] [--skip-shiftmap]
 *
 * A. Known-answer holes (bench/data/declutter-holes.json): 22 object-shaped holes placed by hand over plain floor and
 *    wall of the shared photos, so the photo's own pixels are the answer. Before any method sees the photo the hole's
 *    pixels are painted mid-grey: neither a fill nor the room analysis nor the object detectors can read the answer
 *    (a grey silhouette stands where an object would). Methods:
 *    - ours: the product's masked mode, `removeMasked` with the object detectors (objects that stay are never copied);
 *    - ours without planes: `fillPhoto` on the same analysis with `minPlaneConfidence: Infinity` (plain PatchMatch
 *      in image space) and the same avoided object masks: the ablation of the room's planes;
 *    - OpenCV's Telea and Navier-Stokes (radius 5) and xphoto's ShiftMap, by bench/declutter-baselines.py.
 *    Scores (bench/declutter-metrics.ts): PSNR and SSIM inside the hole, texture ratio, edge continuity (only holes
 *    crossed by a straight edge of the answer count). "Object copied": from the fill's sources (`reportSources`),
 *    the share of a hole's pixels copied from inside a hand-drawn furniture box of the photo
 *    (bench/data/furniture-boxes.json) or a detected object's box.
 * B. Rendered furnished/empty pairs (tools/room-renderer, `--renders DIR`, default /tmp/rooms-declutter): hole = the
 *    furniture pixels of labels.png (class 9) dilated by 2 px, input = beauty.png, answer = empty.png. Ours is
 *    `removeMasked` without detectors (a render holds no COCO object to keep), the others as in A.
 * C. Automatic mode (`removeAutomatically`) on the furnished photos with drawn boxes: how much of the drawn objects
 *    the candidates' masks cover (before the self-check), and how many candidates the self-check let go.
 * D. Times at 12 MP (furnished_living_cluttered_01.jpg, 4032 × 3024): masked mode with 15 % of the photo masked,
 *    automatic mode; both from the decoded photo to the filled one.
 * L. Large holes (issue 15; bench/data/declutter-large-holes.json): on 10 photos of ../shared/testdata/empty-rooms
 *    reduced to 1600 px, two ellipses each, one over the floor and one over a wall, 20–35 % of the image's width wide;
 *    the reduced photo's pixels are the answer, methods and scores as in A (texture ratio also over the hole's core,
 *    its deeper half), and the pixels changed outside the hole and its seam (must be 0). Its own contact sheet:
 *    docs/images/declutter-large-contact-sheet.jpg (input with hole | ours | Telea | answer), and a side-by-side of
 *    small (A) and large holes when both ran.
 * Contact sheet: docs/images/declutter-contact-sheet.jpg.
 *
 * Part E, the automatic mode's self-check on every shared furnished photo and empty room, is bench/declutter-gate.ts;
 * its part of the section is carried over as it is.
 *
 * Writes the `declutter` section of docs/benchmarks.md. `--part` runs only the parts named (holes = A, renders = B,
 * automatic = C and D, large = L; default all): the other parts' subsections are carried over from the current
 * section as they are, and the section says which parts this run measured. `--part holes,large` gives the
 * side-by-side of small and large holes in one run; `--part large` the large holes alone. `--holes-only` is
 * `--part holes`; `--skip-shiftmap` is for quick iterations (the section then says it is partial).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { decodeImage } from '../src/repositories/image-codec.js';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import { fillPhoto, removeMasked, type DeclutterLines } from '../src/services/declutter/declutter-photo.js';
import { OBJECT_MODEL_NAMES, type ObjectDetectors } from '../src/services/declutter/detect-objects.js';
import { removeAutomatically } from '../src/services/declutter/remove-automatic.js';
import { objectMasks } from '../src/vision/declutter/object-mask.js';
import { paintRegionMask } from '../src/vision/declutter/region-mask.js';
import { lsdLineSource, mlsdLineSource, MLSD_INPUT_SIZE, MLSD_MODEL } from '../src/services/geometry/line-sources.js';
import { splitAlpha, greyToRgb } from '../src/vision/channels.js';
import type { FillSources } from '../src/vision/inpaint/inpaint.js';
import { polygonMask, type Polygon } from '../src/vision/polygon-mask.js';
import { pixelBounds, type Box } from '../src/vision/box.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { edgeContinuity, holeBoundingBox, holePsnr, holeSsim, textureRatio, type BoundingBox } from './declutter-metrics.js';
import { machineLine, writeSection } from './report.js';
import { ROOT, PHOTOS, PHOTO_LIMITS, EMPTY_ROOM_PHOTOS } from './shared-photos.js';
import { holeDepth } from '../src/vision/inpaint/patch-match.js';
import { dilateSquare } from '../src/vision/mask-morphology.js';

const HOLES = path.join(ROOT, 'bench/data/declutter-holes.json');
const FURNITURE = path.join(ROOT, 'bench/data/furniture-boxes.json');
const BASELINES = path.join(ROOT, 'bench/declutter-baselines.py');
const PYTHON = '/usr/bin/python3';
const CONTACT_SHEET = path.join(ROOT, 'docs/images/declutter-contact-sheet.jpg');
const LARGE_HOLES = path.join(ROOT, 'bench/data/declutter-large-holes.json');
const LARGE_CONTACT_SHEET = path.join(ROOT, 'docs/images/declutter-large-contact-sheet.jpg');
/** Width of the seam outside the hole the fill may blend (InpaintOptions.seam's default). */
const FILL_SEAM = 2;
const DEFAULT_RENDERS = '/tmp/rooms-declutter';
const RENDER_COMMAND = 'npm run render:rooms -- --seed 2 --count 12 --out /tmp/rooms-declutter --samples 16';
const WORK_DIR = path.join(os.tmpdir(), `roomcraft-bench-declutter-${process.pid}`);
const TWELVE_MP_PHOTO = 'furnished_living_cluttered_01.jpg';
const FURNITURE_CLASS = 9;
const FURNITURE_DILATION = 2;
/** Grey painted into a known-answer hole before any method sees the photo. */
const HOLE_GREY = 128;
const TWELVE_MP_MASK_SHARE = 0.15;
/** Holes and render pairs on the contact sheet. */
const SHEET_HOLES = [
  'c01-wall-corner-plant',
  'c01-floor-box-rugedge',
  'b02-floor-box-tiles',
  'm03-wall-box-brick',
  'd05-wall-plant-skirting',
  's06-wall-lamp-stripes',
  'p11-floor-box-boards',
  'e02-floor-sofa',
  'w03-wall-lamp-jamb',
];
const SHEET_RENDERS = 3;
const SHEET_PANEL_HEIGHT = 220;
const SHEET_PANEL_WIDTH = Math.round((SHEET_PANEL_HEIGHT * 4) / 3);
const SHEET_MAX_BYTES = 1_000_000;
/** Object-copy target: no hole takes more than this share of its pixels from inside an object's box. */
const MAX_OBJECT_SOURCE_SHARE = 0.02;
const AUTOMATIC_TARGET = 0.9;

const METHODS = ['ours', 'no-planes', 'telea', 'ns', 'shiftmap'] as const;
type Method = (typeof METHODS)[number];
type Baseline = 'telea' | 'ns' | 'shiftmap';
const METHOD_NAMES: Record<Method, string> = {
  ours: 'ours (masked mode)',
  'no-planes': 'ours without planes',
  telea: 'Telea',
  ns: 'Navier-Stokes',
  shiftmap: 'ShiftMap',
};

interface HoleSpec {
  id: string;
  file: string;
  width: number;
  height: number;
  surface: string;
  shape: string;
  crosses: string[];
  areaShare: number;
  polygon: [number, number][];
}

interface FurniturePhoto {
  file: string;
  width: number;
  height: number;
  objects: { label: string; box: [number, number, number, number] }[];
}

interface Scores {
  psnr: number;
  ssim: number;
  texture: number;
  edge: number;
  segments: number;
  ms: number;
}

/** One known-answer case (a photo hole or a render pair) and every method's scores on it. */
interface CaseResult {
  id: string;
  holeShare: number;
  scores: Partial<Record<Method, Scores>>;
  /** Ours: time of the whole masked mode (analysis, detection, fill) and its parts, ms. */
  ours: { totalMs: number; analysisMs: number; detectionMs: number; fillMs: number; planeGuided: boolean; layoutConfidence: number };
  /**
   * Ours, photo holes only: share of the fill's sources inside an object box (any box / boxes apart from the hole), and
   * on an object's own pixels (the boxes apart from the hole refined by objectMask: a loose box also holds the floor
   * and wall around its object, which the fill may rightly copy).
   */
  objectSources?: { any: number; apart: number; pixels: number };
}

/** A case ready for the methods: what they get, what the answer is, and where the baselines' files are. */
interface PreparedCase {
  id: string;
  input: RawImage;
  answer: RawImage;
  hole: Uint8Array;
  dir: string;
}

interface AutomaticRow {
  file: string;
  boxes: number;
  coveredShare: number;
  halfCoveredBoxes: number;
  /** Candidates (detections and clutter) and how many of them the self-check let go. */
  found: number;
  removed: number;
  holeShare: number;
  outsideBoxesShare: number;
  /** Covered share were every reported box removed whole: what the detections allow, whatever the masks. */
  reportedBoxesShare: number;
  seconds: number;
  /** os.loadavg() (1 min) right after the run. */
  load: number;
}

interface Models {
  lines: DeclutterLines;
  detectors: ObjectDetectors;
  /** The object detectors opened, for the report. */
  detectorNames: string[];
  close(): Promise<void>;
}

const PARTS = ['holes', 'renders', 'automatic', 'large'] as const;
type Part = (typeof PARTS)[number];
const PART_LETTERS: Record<Part, string[]> = { holes: ['A'], renders: ['B'], automatic: ['C', 'D'], large: ['L'] };

interface Options {
  renders: string;
  parts: ReadonlySet<Part>;
  skipShiftmap: boolean;
}

/**
 * The baselines need Debian's OpenCV for /usr/bin/python3: installed here when missing and we are root (as on a fresh
 * CI machine), otherwise the command to run is printed.
 */
function ensureOpenCv(): void {
  const check = spawnSync(PYTHON, ['-c', 'import cv2; cv2.xphoto']);
  if (check.status === 0) return;
  if (process.getuid?.() !== 0) throw new Error('OpenCV for python3 is missing: apt-get install -y python3-opencv');
  console.log('installing python3-opencv (apt-get)');
  const install = spawnSync('sh', ['-c', 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y python3-opencv'], { stdio: 'inherit' });
  if (install.status !== 0) throw new Error('apt-get install python3-opencv failed');
}

async function main(): Promise<void> {
  const options = parseOptions();
  ensureOpenCv();
  const baselines: Baseline[] = options.skipShiftmap ? ['telea', 'ns'] : ['telea', 'ns', 'shiftmap'];
  const holes = (JSON.parse(fs.readFileSync(HOLES, 'utf8')) as { holes: HoleSpec[] }).holes;
  const furniture = (JSON.parse(fs.readFileSync(FURNITURE, 'utf8')) as { photos: FurniturePhoto[] }).photos;
  const models = await openModels();
  fs.rmSync(WORK_DIR, { recursive: true, force: true });
  const sheetRows: Buffer[] = [];
  const { parts } = options;

  let holeResults: CaseResult[] = [];
  if (parts.has('holes')) {
    console.log(`A. ${holes.length} known-answer holes`);
    holeResults = await benchmarkHoles(holes, furniture, models, baselines, sheetRows);
    console.log(methodSummary(holeResults));
  }

  const renders = parts.has('renders') ? await benchmarkRenders(options.renders, models, baselines, sheetRows) : { results: [], missing: false, empty: [] };
  if (renders.results.length > 0) console.log(methodSummary(renders.results));

  const automatic = parts.has('automatic') ? await benchmarkAutomatic(furniture, models) : [];
  const twelve = parts.has('automatic') ? await benchmarkTwelveMegapixels(models, automatic) : undefined;

  const large = parts.has('large') ? await benchmarkLargeHoles(models, baselines) : undefined;
  if (large) console.log(methodSummary(large.results));

  // The sheet of A and B is rewritten only when both ran (a sheet of A's rows alone would drop B's).
  if (parts.has('holes') && parts.has('renders')) await writeContactSheet(sheetRows);
  // The self-check's part (bench/declutter-gate.ts) sits inside this section: carried over as it is.
  writeSection('declutter', `${report({ options, baselines, detectors: models.detectorNames, holes, holeResults, renders, automatic, twelve, large })}\n\n${gatePart()}`);
  await models.close();
  fs.rmSync(WORK_DIR, { recursive: true, force: true });
  console.log(`wrote docs/benchmarks.md (declutter)${large ? ` and ${path.relative(ROOT, LARGE_CONTACT_SHEET)}` : ''}`);
}

/** The current declutter section's subsection `### X.` (up to the next subsection, sheet note or the gate's part), or nothing. */
function carriedSubsection(letter: string): string {
  const file = path.join(ROOT, 'docs/benchmarks.md');
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const section = /<!-- declutter:start -->([\s\S]*?)<!-- declutter:end -->/.exec(current)?.[1] ?? '';
  const found = new RegExp(`^### ${letter}\\. [\\s\\S]*?(?=^### |^Contact sheet|^<!-- declutter-gate|(?![\\s\\S]))`, 'm').exec(section);
  return found ? found[0].trim() : '';
}

/** The `declutter-gate` part of docs/benchmarks.md with its markers, or nothing. */
function gatePart(): string {
  const file = path.join(ROOT, 'docs/benchmarks.md');
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  return /<!-- declutter-gate:start -->[\s\S]*?<!-- declutter-gate:end -->/.exec(current)?.[0] ?? '';
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      renders: { type: 'string', default: DEFAULT_RENDERS },
      part: { type: 'string' },
      'holes-only': { type: 'boolean', default: false },
      'skip-shiftmap': { type: 'boolean', default: false },
    },
  });
  const named = values['holes-only'] ? ['holes'] : (values.part?.split(',').map((p) => p.trim()) ?? [...PARTS]);
  for (const part of named) if (!(PARTS as readonly string[]).includes(part)) throw new Error(`--part: ${part} is none of ${PARTS.join(', ')}`);
  return { renders: values.renders, parts: new Set(named as Part[]), skipShiftmap: values['skip-shiftmap'] };
}

/** The models as the service's declutter opens them: M-LSD + LSD for the room; CenterNet, NanoDet and Objectron for objects. */
async function openModels(): Promise<Models> {
  const registry = ModelRegistry.load();
  const runtime = new ModelRuntime(new ModelStore(path.join(ROOT, 'data/models'), registry), registry);
  for (const name of [MLSD_MODEL, OBJECT_MODEL_NAMES.centernet]) {
    if (!(await runtime.isInstalled(name))) throw new Error(`model ${name} is not installed: run ./bin/roomcraft models install`);
  }
  // NanoDet and Objectron are optional to the service: used when installed, as there.
  const optional = async (name: string) => ((await runtime.isInstalled(name)) ? await runtime.detectorSession(name) : undefined);
  const nanodet = await optional(OBJECT_MODEL_NAMES.nanodet);
  const objectron = await optional(OBJECT_MODEL_NAMES.objectron);
  return {
    lines: { layout: mlsdLineSource(await runtime.detectorSession(MLSD_MODEL), { inputSize: MLSD_INPUT_SIZE }), vanishingPoints: lsdLineSource() },
    detectors: { centernet: await runtime.detectorSession(OBJECT_MODEL_NAMES.centernet), ...(nanodet ? { nanodet } : {}), ...(objectron ? { objectron } : {}) },
    detectorNames: ['CenterNet', ...(nanodet ? ['NanoDet'] : []), ...(objectron ? ['Objectron'] : [])],
    close: () => runtime.close(),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// A. Known-answer holes on the photos.

async function benchmarkHoles(
  holes: readonly HoleSpec[],
  furniture: readonly FurniturePhoto[],
  models: Models,
  baselines: readonly Baseline[],
  sheetRows: Buffer[],
): Promise<CaseResult[]> {
  const prepared = new Map<string, Omit<PreparedCase, 'input' | 'answer' | 'hole'>>();
  for (const [file, group] of groupBy(holes, (hole) => hole.file)) {
    const answer = await loadPhoto(file);
    for (const spec of group) {
      if (answer.width !== spec.width || answer.height !== spec.height) {
        throw new Error(`${spec.id}: drawn on ${spec.width}×${spec.height}, photo is ${answer.width}×${answer.height}`);
      }
      const hole = polygonMask(answer.width, answer.height, [spec.polygon]);
      const dir = await writeBaselineInputs(spec.id, withHolePainted(answer, hole), hole);
      prepared.set(spec.id, { id: spec.id, dir });
    }
  }
  await runBaselines([...prepared.values()].map((c) => c.dir), baselines);

  const results: CaseResult[] = [];
  for (const [file, group] of groupBy(holes, (hole) => hole.file)) {
    const answer = await loadPhoto(file);
    const drawn = furniture.find((photo) => photo.file === file)?.objects.map(({ box: [x, y, width, height] }) => ({ x, y, width, height })) ?? [];
    for (const spec of group) {
      const hole = polygonMask(answer.width, answer.height, [spec.polygon]);
      const known: PreparedCase = { ...prepared.get(spec.id)!, input: withHolePainted(answer, hole), answer, hole };
      const { result, outputs } = await benchmarkCase(known, models, baselines, { detectors: true, objectBoxes: drawn });
      results.push(result);
      console.log(caseLine(result));
      if (SHEET_HOLES.includes(spec.id)) sheetRows.push(await sheetRow(spec.id, answer, known.hole, outputs));
    }
  }
  return results;
}

// ---------------------------------------------------------------------------------------------------------------
// L. Large holes (issue 15): two ellipses of 20–35 % of the width per photo, one on the floor, one on a wall.

interface LargeEllipse {
  surface: string;
  /** Centre, fractions of the image's width and height. */
  cx: number;
  cy: number;
  /** Width (of the image's width) and height (of its height). */
  w: number;
  h: number;
}

interface LargeCaseSpec {
  id: string;
  file: string;
  ellipses: LargeEllipse[];
}

interface LargeResult extends CaseResult {
  /** Texture ratio of each method over the hole's core (its pixels deeper than half the hole's largest depth). */
  coreTexture: Partial<Record<Method, number>>;
  /** Pixels ours changed outside the hole and its seam (the do-no-harm rule: must be 0). */
  changedOutside: number;
  widths: number[];
}

interface LargeHoles {
  longSide: number;
  results: LargeResult[];
}

async function benchmarkLargeHoles(models: Models, baselines: readonly Baseline[]): Promise<LargeHoles> {
  const spec = JSON.parse(fs.readFileSync(LARGE_HOLES, 'utf8')) as { longSide: number; cases: LargeCaseSpec[] };
  console.log(`L. ${spec.cases.length} photos with two large holes each (${spec.longSide} px)`);
  const prepared = new Map<string, Omit<PreparedCase, 'dir'>>();
  const dirs = new Map<string, string>();
  for (const c of spec.cases) {
    const answer = await loadReduced(path.join(EMPTY_ROOM_PHOTOS, c.file), spec.longSide);
    const hole = ellipseMask(answer.width, answer.height, c.ellipses);
    const input = withHolePainted(answer, hole);
    prepared.set(c.id, { id: `L-${c.id}`, input, answer, hole });
    dirs.set(c.id, await writeBaselineInputs(`L-${c.id}`, input, hole));
  }
  await runBaselines([...dirs.values()], baselines);
  const results: LargeResult[] = [];
  const rows: Buffer[] = [];
  for (const c of spec.cases) {
    const known = { ...prepared.get(c.id)!, dir: dirs.get(c.id)! };
    const { result, outputs } = await benchmarkCase(known, models, baselines, { detectors: true, objectBoxes: [] });
    const core = holeCore(known.hole, known.answer.width, known.answer.height);
    const coreTexture: Partial<Record<Method, number>> = {};
    for (const method of METHODS) if (outputs[method]) coreTexture[method] = textureRatio(known.answer, outputs[method]!, core);
    const large: LargeResult = {
      ...result,
      coreTexture,
      changedOutside: changedOutside(known.input, outputs.ours!, known.hole, FILL_SEAM),
      widths: c.ellipses.map((e) => e.w),
    };
    results.push(large);
    console.log(`${caseLine(result)}, core texture ${coreTexture.ours?.toFixed(2)}, changed outside ${large.changedOutside}`);
    rows.push(...(await largeSheetRows(c, known, outputs)));
  }
  await writeLargeContactSheet(rows);
  return { longSide: spec.longSide, results };
}

/** A shared photo, EXIF orientation applied, reduced to `longSide` px on its longer side (never enlarged), as RGB. */
async function loadReduced(file: string, longSide: number): Promise<RawImage> {
  const { data, info } = await sharp(file, { limitInputPixels: PHOTO_LIMITS.maxInputPixels })
    .rotate()
    .resize({ width: longSide, height: longSide, fit: 'inside', withoutEnlargement: true, kernel: 'lanczos3' })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, channels: 3 };
}

function ellipseMask(width: number, height: number, ellipses: readonly LargeEllipse[]): Uint8Array {
  const mask = new Uint8Array(width * height);
  for (const e of ellipses) {
    const cx = e.cx * width;
    const cy = e.cy * height;
    const rx = (e.w * width) / 2;
    const ry = (e.h * height) / 2;
    for (let y = Math.max(0, Math.floor(cy - ry)); y < Math.min(height, Math.ceil(cy + ry)); y++) {
      for (let x = Math.max(0, Math.floor(cx - rx)); x < Math.min(width, Math.ceil(cx + rx)); x++) {
        if (((x + 0.5 - cx) / rx) ** 2 + ((y + 0.5 - cy) / ry) ** 2 < 1) mask[y * width + x] = 1;
      }
    }
  }
  return mask;
}

/** The hole's pixels deeper than half its largest depth (chessboard distance to the nearest known pixel). */
function holeCore(hole: Uint8Array, width: number, height: number): Uint8Array {
  const depth = holeDepth(hole, width, height);
  let deepest = 0;
  for (const d of depth) deepest = Math.max(deepest, d);
  return Uint8Array.from(depth, (d) => (d > deepest / 2 ? 1 : 0));
}

/** Pixels of `output` that differ from `input` farther than `seam` pixels (chessboard) from the hole. */
function changedOutside(input: RawImage, output: RawImage, hole: Uint8Array, seam: number): number {
  const allowed = dilateSquare(hole, input.width, input.height, seam);
  let changed = 0;
  for (let p = 0; p < hole.length; p++) {
    if (allowed[p]) continue;
    for (let c = 0; c < 3; c++) {
      if (input.data[3 * p + c] !== output.data[3 * p + c]) {
        changed++;
        break;
      }
    }
  }
  return changed;
}

const LARGE_SHEET_COLUMNS = ['input, hole grey', 'ours', 'Telea', 'answer'] as const;
const LARGE_PANEL_WIDTH = 320;
const LARGE_PANEL_HEIGHT = 200;
/** The sheet's width (a function: the label and gap widths are declared with the other sheet's, further down). */
function largeSheetWidth(): number {
  return SHEET_LABEL_WIDTH + LARGE_SHEET_COLUMNS.length * (LARGE_PANEL_WIDTH + SHEET_GAP) - SHEET_GAP;
}

/**
 * The sheet's rows of one photo, one per ellipse: the ellipse's bounding box with a margin of a quarter of its size
 * on each side, scaled into the panels; input with the grey hole | ours | Telea | answer.
 */
async function largeSheetRows(c: LargeCaseSpec, known: PreparedCase, outputs: Partial<Record<Method, RawImage>>): Promise<Buffer[]> {
  const { width, height } = known.answer;
  const rows: Buffer[] = [];
  for (const e of c.ellipses) {
    const w = e.w * width * 1.5;
    const h = e.h * height * 1.5;
    const left = Math.max(0, Math.round(e.cx * width - w / 2));
    const top = Math.max(0, Math.round(e.cy * height - h / 2));
    const crop = { left, top, width: Math.min(width, Math.round(e.cx * width + w / 2)) - left, height: Math.min(height, Math.round(e.cy * height + h / 2)) - top };
    const panels = [known.input, outputs.ours, outputs.telea, known.answer];
    const buffers = await Promise.all(
      panels.map((panel) =>
        panel
          ? sharp(panel.data, { raw: { width, height, channels: 3 } })
              .extract(crop)
              .resize({ width: LARGE_PANEL_WIDTH, height: LARGE_PANEL_HEIGHT, fit: 'contain', background: '#202020', kernel: 'lanczos3' })
              .png()
              .toBuffer()
          : emptyPanel(),
      ),
    );
    const label = `<svg width="${SHEET_LABEL_WIDTH}" height="${LARGE_PANEL_HEIGHT}"><text x="4" y="20" font-size="14" font-family="sans-serif" fill="#fff">${c.id} ${e.surface}</text><text x="4" y="38" font-size="12" font-family="sans-serif" fill="#bbb">${Math.round(100 * e.w)} % of the width</text></svg>`;
    rows.push(
      await sharp({ create: { width: largeSheetWidth(), height: LARGE_PANEL_HEIGHT, channels: 3, background: '#202020' } })
        .composite([{ input: Buffer.from(label), left: 0, top: 0 }, ...buffers.map((input, i) => ({ input, left: SHEET_LABEL_WIDTH + i * (LARGE_PANEL_WIDTH + SHEET_GAP), top: 0 }))])
        .png()
        .toBuffer(),
    );
  }
  return rows;
}

async function writeLargeContactSheet(rows: Buffer[]): Promise<void> {
  if (rows.length === 0) return;
  const width = largeSheetWidth();
  const header = 24;
  const names = `<svg width="${width}" height="${header}">${LARGE_SHEET_COLUMNS.map(
    (name, i) => `<text x="${SHEET_LABEL_WIDTH + i * (LARGE_PANEL_WIDTH + SHEET_GAP) + 4}" y="17" font-size="15" font-family="sans-serif" fill="#fff">${name}</text>`,
  ).join('')}</svg>`;
  const height = header + rows.length * (LARGE_PANEL_HEIGHT + SHEET_GAP) - SHEET_GAP;
  const sheet = await sharp({ create: { width, height, channels: 3, background: '#000' } })
    .composite([{ input: Buffer.from(names), left: 0, top: 0 }, ...rows.map((input, i) => ({ input, left: 0, top: header + i * (LARGE_PANEL_HEIGHT + SHEET_GAP) }))])
    .png()
    .toBuffer();
  for (let quality = 82; ; quality -= 6) {
    const jpeg = await sharp(sheet).jpeg({ quality, mozjpeg: true }).toBuffer();
    if (jpeg.length <= SHEET_MAX_BYTES || quality <= 40) {
      fs.writeFileSync(LARGE_CONTACT_SHEET, jpeg);
      return;
    }
  }
}

/** Medians of texture ratio and PSNR and the mean edge continuity per method, for the side-by-side table. */
interface Figures {
  texture: Partial<Record<Method, number>>;
  psnr: Partial<Record<Method, number>>;
  edge: Partial<Record<Method, number>>;
  cases: number;
}

function figuresOf(rows: readonly CaseResult[]): Figures {
  const figures: Figures = { texture: {}, psnr: {}, edge: {}, cases: rows.length };
  for (const method of METHODS) {
    const scores = rows.flatMap((r) => r.scores[method] ?? []);
    if (scores.length === 0) continue;
    figures.texture[method] = median(scores.map((s) => s.texture));
    figures.psnr[method] = median(scores.map((s) => s.psnr));
    figures.edge[method] = mean(scores.filter((s) => s.segments > 0).map((s) => s.edge));
  }
  return figures;
}

/** The same figures read back from A's summary table in the current section (when A is carried over). */
function carriedFigures(): Figures | undefined {
  const text = carriedSubsection('A');
  const cases = /^(\d+) holes drawn by hand/m.exec(text);
  if (!cases) return undefined;
  const figures: Figures = { texture: {}, psnr: {}, edge: {}, cases: Number(cases[1]) };
  for (const method of METHODS) {
    const row = new RegExp(`^\\| ${METHOD_NAMES[method]} \\| ([\\d.]+) \\| [\\d.]+ \\| ([\\d.]+) \\| ([\\d.–]+)`, 'm').exec(text);
    if (!row) continue;
    figures.psnr[method] = Number(row[1]);
    figures.texture[method] = Number(row[2]);
    figures.edge[method] = row[3] === '–' ? Number.NaN : Number(row[3]);
  }
  return figures.psnr.ours === undefined ? undefined : figures;
}

function largeSection(large: LargeHoles, smallResults: readonly CaseResult[], baselines: readonly Baseline[]): string {
  const { results } = large;
  const holes = results.reduce((n, r) => n + r.widths.length, 0);
  const widths = results.flatMap((r) => r.widths);
  const verdict = (ok: boolean): string => (ok ? '**pass**' : '**fail**');
  const small = smallResults.length > 0 ? figuresOf(smallResults) : carriedFigures();
  const sideRow = (name: string, f: Figures): string => {
    const texture = f.texture.ours!;
    const psnr = f.psnr.ours!;
    const telea = f.psnr.telea!;
    const edgeOk = baselines.every((m) => f.edge.ours! > f.edge[m]!);
    return `| ${name} | ${texture.toFixed(2)} ${verdict(texture >= 0.8 && texture <= 1.2)} | ${f.texture.telea!.toFixed(2)} | ${psnr.toFixed(2)} | ${telea.toFixed(2)} | ${signed(psnr - telea)} ${verdict(psnr >= telea - 1)} | ${(['ours', ...baselines] as Method[])
      .map((m) => (f.edge[m] === undefined ? '–' : f.edge[m]!.toFixed(2)))
      .join(' / ')} ${verdict(edgeOk)} |`;
  };
  const changed = results.reduce((n, r) => n + r.changedOutside, 0);
  const sources = results.flatMap((r) => r.objectSources ?? []);
  const table = results.map(
    (r) =>
      `| ${r.id} | ${percent(r.holeShare)} | ${METHODS.map((m) => (r.scores[m] ? `${r.scores[m]!.psnr.toFixed(1)} / ${r.scores[m]!.texture.toFixed(2)} / ${r.coreTexture[m]!.toFixed(2)} / ${formatEdge(r.scores[m]!)}` : '–')).join(' | ')} | ${(r.ours.totalMs / 1000).toFixed(1)} | ${r.changedOutside} |`,
  );
  return `### L. Large holes (issue 15)

${results.length} photos of \`../shared/testdata/empty-rooms\` reduced to ${large.longSide} px on their longer side, each with two elliptic
holes (\`bench/data/declutter-large-holes.json\`): one over the floor, one over a wall, ${percent(Math.min(...widths))}–${percent(Math.max(...widths))} of the image's width
wide (${holes} holes, together ${percent(median(results.map((r) => r.holeShare)))} of the image in the median). The reduced photo's pixels are the answer;
every method gets it with the holes painted grey, as in A. "Core": the texture ratio over the hole's deeper half
(pixels farther from the rim than half the hole's largest depth), where a smear shows first.

${methodSummary(results)}

${oursTimeSplit(results)}

Small (A) and large holes side by side, ours against the targets (texture ratio 0.8–1.2; PSNR at most 1 dB below
Telea's; edge continuity above every baseline's; medians, edge continuity means):

| Holes | Texture ours | Texture Telea | PSNR ours | PSNR Telea | Δ PSNR | Edge continuity ours / ${baselines.map((m) => METHOD_NAMES[m]).join(' / ')} |
|---|---:|---:|---:|---:|---:|---:|
${small ? `${sideRow(`small (A, ${small.cases})`, small)}\n` : ''}${sideRow(`large (L, ${holes} in ${results.length} photos)`, figuresOf(results))}
${smallResults.length > 0 ? '' : small ? '\nThe small holes\' row is read from A as it stands (carried over: not re-measured in this run).\n' : '\nA was not run with this part and has no figures to read (`--part holes,large` gives both rows).\n'}
Do no harm: pixels ours changed outside the holes and their ${FILL_SEAM}-px seam, over all ${results.length} photos: ${changed} (${verdict(changed === 0)}).
Objects: share of a fill copied from inside a detected object's box, max ${percent(Math.max(0, ...sources.map((s) => s.any)))}, from those objects' own pixels max
${percent(Math.max(0, ...sources.map((s) => s.pixels)))} (empty rooms: few objects are detected).

Per photo: PSNR dB / texture ratio / core texture ratio / edge continuity; time of ours (whole masked mode) in s;
pixels changed outside the holes and their seam.

| Photo | Holes | Ours | Without planes | Telea | Navier-Stokes | ShiftMap | Ours s | Outside |
|---|---:|---|---|---|---|---|---:|---:|
${table.join('\n')}

Contact sheet (${LARGE_SHEET_COLUMNS.join(' | ')}): [docs/images/declutter-large-contact-sheet.jpg](images/declutter-large-contact-sheet.jpg).`;
}

/** The photo as the service decodes it (EXIF orientation applied), as RGB. */
async function loadPhoto(file: string): Promise<RawImage> {
  const { image } = await decodeImage(fs.readFileSync(path.join(PHOTOS, file)), PHOTO_LIMITS);
  return toRgb(image);
}

function toRgb(image: RawImage): RawImage {
  const { colour } = splitAlpha(image);
  return colour.channels === 1 ? greyToRgb(colour) : colour;
}

/** A copy with the hole's pixels mid-grey: what every method is given, so that none can read the answer. */
function withHolePainted(image: RawImage, hole: Uint8Array): RawImage {
  const data = Uint8Array.from(image.data);
  for (let p = 0; p < hole.length; p++) if (hole[p]) data.fill(HOLE_GREY, p * 3, p * 3 + 3);
  return { ...image, data };
}

/**
 * Runs ours and the ablation on one case, reads the baselines' results, and scores all against the answer.
 * `objectBoxes` (with the detected ones added) are the boxes the fill's sources are checked against.
 */
async function benchmarkCase(
  known: PreparedCase,
  models: Models,
  baselines: readonly Baseline[],
  { detectors, objectBoxes }: { detectors: boolean; objectBoxes?: readonly Box[] },
): Promise<{ result: CaseResult; outputs: Partial<Record<Method, RawImage>> }> {
  const { input, answer, hole } = known;
  const started = performance.now();
  const ours = await removeMasked(input, hole, models.lines, { ...(detectors ? { detectors: models.detectors } : {}), fill: { reportSources: true } });
  const totalMs = performance.now() - started;
  const avoid = ours.avoidMask;
  const avoidedBoxes = ours.avoided.map((object) => object.box);
  const ablationStarted = performance.now();
  const ablation = await fillPhoto(input, hole, ours.analysis, { ...(avoid ? { avoid } : {}), minPlaneConfidence: Number.POSITIVE_INFINITY });
  const ablationMs = performance.now() - ablationStarted;

  const outputs: Partial<Record<Method, RawImage>> = { ours: ours.image, 'no-planes': ablation.image };
  const times: Partial<Record<Method, number>> = { ours: totalMs, 'no-planes': ablationMs };
  const baselineTimes = JSON.parse(fs.readFileSync(path.join(known.dir, 'report.json'), 'utf8')) as { ms: Record<string, number> };
  for (const method of baselines) {
    outputs[method] = await readRgb(path.join(known.dir, `${method}.png`));
    times[method] = baselineTimes.ms[method]!;
  }
  const scores: Partial<Record<Method, Scores>> = {};
  for (const method of METHODS) {
    const output = outputs[method];
    if (output) scores[method] = score(answer, output, hole, times[method]!);
  }
  let holePixels = 0;
  for (let p = 0; p < hole.length; p++) holePixels += hole[p]!;
  const result: CaseResult = {
    id: known.id,
    holeShare: holePixels / hole.length,
    scores,
    ours: {
      totalMs,
      analysisMs: ours.report.milliseconds.analysis,
      detectionMs: ours.report.milliseconds.detection ?? 0,
      fillMs: ours.report.milliseconds.fill,
      planeGuided: ours.report.planeGuided,
      layoutConfidence: ours.report.layoutConfidence,
    },
    ...(objectBoxes && ours.sources ? { objectSources: objectSourceShares(ours.sources, [...objectBoxes, ...avoidedBoxes], input, hole) } : {}),
  };
  return { result, outputs };
}

function score(answer: RawImage, filled: RawImage, hole: Uint8Array, ms: number): Scores {
  const edge = edgeContinuity(answer, filled, hole);
  return {
    psnr: holePsnr(answer, filled, hole),
    ssim: holeSsim(answer, filled, hole),
    texture: textureRatio(answer, filled, hole),
    edge: edge.score,
    segments: edge.segments,
    ms,
  };
}

/**
 * Of the hole pixels the fill copied (finest level), the share whose source lies inside any of `boxes`, and inside
 * any box that does not itself overlap the hole (a hole drawn on a rug rightly copies from the rug's box).
 */
function objectSourceShares(sources: FillSources, boxes: readonly Box[], image: RawImage, hole: Uint8Array): { any: number; apart: number; pixels: number } {
  const { width, height } = image;
  const bounds = boxes.flatMap((box) => {
    const found = pixelBounds(box, width, height);
    return found ? [found] : [];
  });
  const overlapsHole = bounds.map(([x0, y0, x1, y1]) => {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (hole[y * width + x]) return true;
    return false;
  });
  const apartBoxes = bounds.flatMap(([x0, y0, x1, y1], k) => (overlapsHole[k] ? [] : [{ x: x0, y: y0, width: x1 - x0, height: y1 - y0 }]));
  // An object's own pixels: its refined mask inside its drawn box (the refinement's ring, margin and shadow are not the object).
  const objectPixels = new Uint8Array(width * height);
  for (const box of apartBoxes) {
    const mask = objectMasks(image, [box], {}, { shadow: false });
    for (let y = box.y; y < box.y + box.height; y++) {
      for (let x = box.x; x < box.x + box.width; x++) if (mask[y * width + x]) objectPixels[y * width + x] = 1;
    }
  }
  let copied = 0;
  let any = 0;
  let apart = 0;
  let pixels = 0;
  for (let i = 0; i < sources.x.length; i++) {
    const x = sources.x[i]!;
    const y = sources.y[i]!;
    if (Number.isNaN(x) || Number.isNaN(y)) continue;
    copied++;
    const inside = bounds.map(([x0, y0, x1, y1]) => x >= x0 && x < x1 && y >= y0 && y < y1);
    if (inside.some(Boolean)) any++;
    if (inside.some((within, k) => within && !overlapsHole[k])) apart++;
    if (objectPixels[Math.min(height - 1, Math.floor(y)) * width + Math.min(width - 1, Math.floor(x))]) pixels++;
  }
  return copied === 0 ? { any: 0, apart: 0, pixels: 0 } : { any: any / copied, apart: apart / copied, pixels: pixels / copied };
}

function caseLine(result: CaseResult): string {
  const cells = METHODS.flatMap((method) => {
    const s = result.scores[method];
    return s ? [`${method} ${s.psnr.toFixed(1)} dB ${s.ssim.toFixed(3)} tex ${s.texture.toFixed(2)} edge ${formatEdge(s)} ${(s.ms / 1000).toFixed(1)} s`] : [];
  });
  const sources = result.objectSources ? `, from objects ${percent(result.objectSources.any)} (apart ${percent(result.objectSources.apart)})` : '';
  return `${result.id}: ${cells.join(' | ')}${sources}, planes ${result.ours.planeGuided ? 'yes' : 'no'} (${result.ours.layoutConfidence})`;
}

// ---------------------------------------------------------------------------------------------------------------
// The OpenCV baselines, one Python process for every case.

/** Writes what the baselines read (input and mask PNG) into the case's work folder. */
async function writeBaselineInputs(id: string, input: RawImage, hole: Uint8Array): Promise<string> {
  const dir = path.join(WORK_DIR, id);
  fs.mkdirSync(dir, { recursive: true });
  await sharp(input.data, { raw: { width: input.width, height: input.height, channels: 3 } }).png({ compressionLevel: 1 }).toFile(path.join(dir, 'input.png'));
  const mask = Uint8Array.from(hole, (v) => (v ? 255 : 0));
  await sharp(mask, { raw: { width: input.width, height: input.height, channels: 1 } }).png({ compressionLevel: 1 }).toFile(path.join(dir, 'mask.png'));
  return dir;
}

/** Runs bench/declutter-baselines.py over the folders; each gets telea.png, ns.png, shiftmap.png and report.json. */
async function runBaselines(dirs: readonly string[], methods: readonly Baseline[]): Promise<void> {
  if (dirs.length === 0) return;
  const jobs = dirs.map((dir) => ({ image: path.join(dir, 'input.png'), mask: path.join(dir, 'mask.png'), out: dir }));
  console.log(`baselines (${methods.join(', ')}) on ${dirs.length} cases…`);
  const child = spawn(PYTHON, [BASELINES, '--jobs', '--methods', methods.join(',')], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(JSON.stringify(jobs));
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline).trim();
      pending = pending.slice(newline + 1);
      if (!line) continue;
      const report = JSON.parse(line) as { image: string; ms: Record<string, number> };
      fs.writeFileSync(path.join(path.dirname(report.image), 'report.json'), line);
      console.log(`  ${path.basename(path.dirname(report.image))}: ${Object.entries(report.ms).map(([m, ms]) => `${m} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);
    }
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`${BASELINES} exited with ${code}`);
}

async function readRgb(file: string): Promise<RawImage> {
  const { data, info } = await sharp(file).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, channels: 3 };
}

// ---------------------------------------------------------------------------------------------------------------
// B. Rendered furnished/empty pairs.

async function benchmarkRenders(
  dir: string,
  models: Models,
  baselines: readonly Baseline[],
  sheetRows: Buffer[],
): Promise<{ results: CaseResult[]; missing: boolean; empty: string[] }> {
  const rooms = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((name) => /^room-\d+$/.test(name) && ['beauty.png', 'empty.png', 'labels.png'].every((f) => fs.existsSync(path.join(dir, name, f))))
        .sort()
    : [];
  if (rooms.length === 0) {
    console.warn(`B. no renders in ${dir}: make them with \`${RENDER_COMMAND}\``);
    return { results: [], missing: true, empty: [] };
  }
  console.log(`B. ${rooms.length} render pairs in ${dir}`);
  const loadPair = async (room: string): Promise<Omit<PreparedCase, 'dir'>> => {
    const input = await readRgb(path.join(dir, room, 'beauty.png'));
    const answer = await readRgb(path.join(dir, room, 'empty.png'));
    return { id: room, input, answer, hole: await furnitureHole(path.join(dir, room, 'labels.png')) };
  };
  const dirs = new Map<string, string>();
  const empty: string[] = [];
  for (const room of rooms) {
    const pair = await loadPair(room);
    if (pair.hole.includes(1)) dirs.set(room, await writeBaselineInputs(room, pair.input, pair.hole));
    else empty.push(room);
  }
  await runBaselines([...dirs.values()], baselines);
  const results: CaseResult[] = [];
  for (const [index, room] of [...dirs.keys()].entries()) {
    const pair = await loadPair(room);
    const { result, outputs } = await benchmarkCase({ ...pair, dir: dirs.get(room)! }, models, baselines, { detectors: false });
    results.push(result);
    console.log(caseLine(result));
    if (index < SHEET_RENDERS) sheetRows.push(await sheetRow(room, pair.input, pair.hole, { ...outputs, answer: pair.answer }));
  }
  return { results, missing: false, empty };
}

/** Furniture pixels of a render's label map, dilated by FURNITURE_DILATION px (a disc). */
async function furnitureHole(labelsFile: string): Promise<Uint8Array> {
  const { data, info } = await sharp(labelsFile).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const furniture = Uint8Array.from(data, (v) => (v === FURNITURE_CLASS ? 1 : 0));
  return dilateDisc(furniture, info.width, info.height, FURNITURE_DILATION);
}

function dilateDisc(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const out = new Uint8Array(mask.length);
  const offsets: [number, number][] = [];
  for (let dy = -radius; dy <= radius; dy++) for (let dx = -radius; dx <= radius; dx++) if (dx * dx + dy * dy <= radius * radius) offsets.push([dx, dy]);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!mask[y * width + x]) continue;
      for (const [dx, dy] of offsets) {
        const xx = x + dx;
        const yy = y + dy;
        if (xx >= 0 && yy >= 0 && xx < width && yy < height) out[yy * width + xx] = 1;
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// C. Automatic mode against the drawn furniture boxes.

async function benchmarkAutomatic(furniture: readonly FurniturePhoto[], models: Models): Promise<AutomaticRow[]> {
  console.log(`C. automatic mode on ${furniture.length} furnished photos`);
  const rows: AutomaticRow[] = [];
  for (const photo of furniture) {
    const image = await loadPhoto(photo.file);
    const started = performance.now();
    const result = await removeAutomatically(image, models.lines, models.detectors);
    const seconds = (performance.now() - started) / 1000;
    const load = os.loadavg()[0]!;
    // What the detections and masks reach, before the self-check keeps what it cannot remove cleanly (part E).
    const candidateMask = new Uint8Array(image.width * image.height);
    for (const candidate of result.candidates) paintRegionMask(candidateMask, image.width, candidate.mask);
    const reportedBoxes = new Uint8Array(image.width * image.height);
    for (const { box } of result.candidates) {
      const [x0, y0, x1, y1] = pixelBounds(box, image.width, image.height) ?? [0, 0, 0, 0];
      for (let y = y0; y < y1; y++) reportedBoxes.fill(1, y * image.width + x0, y * image.width + x1);
    }
    const row = {
      file: photo.file,
      ...boxCoverage(candidateMask, photo, image.width, image.height),
      reportedBoxesShare: boxCoverage(reportedBoxes, photo, image.width, image.height).coveredShare,
      found: result.candidates.length,
      removed: result.removed.length,
      seconds,
      load,
    };
    rows.push(row);
    console.log(
      `${photo.file}: drawn pixels covered ${percent(row.coveredShare)}, boxes ≥ half ${row.halfCoveredBoxes}/${row.boxes}, found ${row.found}, removed after the self-check ${row.removed}, mask ${percent(row.holeShare)} of the photo (${percent(row.outsideBoxesShare)} outside every box), ${seconds.toFixed(1)} s`,
    );
  }
  return rows;
}

/** How much of the drawn boxes the removal mask covers: over their union, box by box, and what it takes outside them. */
function boxCoverage(
  hole: Uint8Array,
  photo: FurniturePhoto,
  width: number,
  height: number,
): Omit<AutomaticRow, 'file' | 'found' | 'removed' | 'reportedBoxesShare' | 'seconds' | 'load'> {
  const union = new Uint8Array(width * height);
  let halfCoveredBoxes = 0;
  for (const { box: [bx, by, bw, bh] } of photo.objects) {
    const bounds = pixelBounds({ x: bx, y: by, width: bw, height: bh }, width, height);
    if (!bounds) continue;
    const [x0, y0, x1, y1] = bounds;
    let covered = 0;
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        union[y * width + x] = 1;
        covered += hole[y * width + x] ? 1 : 0;
      }
    }
    if (covered >= 0.5 * (x1 - x0) * (y1 - y0)) halfCoveredBoxes++;
  }
  let inUnion = 0;
  let coveredInUnion = 0;
  let holePixels = 0;
  let outside = 0;
  for (let p = 0; p < union.length; p++) {
    inUnion += union[p]!;
    if (hole[p]) {
      holePixels++;
      if (union[p]) coveredInUnion++;
      else outside++;
    }
  }
  return {
    boxes: photo.objects.length,
    coveredShare: coveredInUnion / inUnion,
    halfCoveredBoxes,
    holeShare: holePixels / hole.length,
    outsideBoxesShare: holePixels === 0 ? 0 : outside / holePixels,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// D. Times at 12 MP.

interface TwelveMegapixels {
  size: string;
  maskShare: number;
  masked: { seconds: number; load: number; analysisMs: number; detectionMs: number; fillMs: number };
  automatic?: { seconds: number; load: number };
}

async function benchmarkTwelveMegapixels(models: Models, automatic: readonly AutomaticRow[]): Promise<TwelveMegapixels> {
  const image = await loadPhoto(TWELVE_MP_PHOTO);
  const hole = objectBlobMask(image.width, image.height, TWELVE_MP_MASK_SHARE);
  let holePixels = 0;
  for (let p = 0; p < hole.length; p++) holePixels += hole[p]!;
  const started = performance.now();
  const masked = await removeMasked(image, hole, models.lines, { detectors: models.detectors });
  const seconds = (performance.now() - started) / 1000;
  const load = os.loadavg()[0]!;
  console.log(`D. 12 MP masked mode (${percent(holePixels / hole.length)} masked): ${seconds.toFixed(1)} s (load ${load.toFixed(2)})`);
  const auto = automatic.find((row) => row.file === TWELVE_MP_PHOTO);
  return {
    size: `${image.width}×${image.height}`,
    maskShare: holePixels / hole.length,
    masked: { seconds, load, analysisMs: masked.report.milliseconds.analysis, detectionMs: masked.report.milliseconds.detection ?? 0, fillMs: masked.report.milliseconds.fill },
    ...(auto ? { automatic: { seconds: auto.seconds, load: auto.load } } : {}),
  };
}

/**
 * A deterministic mask of object-shaped blobs over the photo's lower half (a sofa, an armchair, a round table, a
 * floor lamp), scaled about their centres until they cover `share` of the photo.
 */
function objectBlobMask(width: number, height: number, share: number): Uint8Array {
  // Silhouettes in fractions of the photo, around their centres.
  const sofa: [number, number][] = [[-0.16, 0.08], [0.16, 0.08], [0.16, -0.02], [0.13, -0.02], [0.13, -0.09], [-0.13, -0.09], [-0.13, -0.02], [-0.16, -0.02]];
  const armchair: [number, number][] = [[-0.07, 0.07], [0.07, 0.07], [0.07, -0.01], [0.05, -0.01], [0.05, -0.08], [-0.05, -0.08], [-0.05, -0.01], [-0.07, -0.01]];
  const table = ellipse(0.08, 0.035, 24);
  const lamp: [number, number][] = [[-0.015, 0.1], [0.015, 0.1], [0.006, 0.09], [0.006, -0.04], [0.035, -0.04], [0.02, -0.1], [-0.02, -0.1], [-0.035, -0.04], [-0.006, -0.04], [-0.006, 0.09]];
  const placed: [[number, number][], number, number][] = [
    [sofa, 0.3, 0.72],
    [armchair, 0.7, 0.66],
    [table, 0.52, 0.86],
    [lamp, 0.9, 0.78],
  ];
  const maskAt = (scale: number): Uint8Array =>
    polygonMask(
      width,
      height,
      placed.map(([shape, cx, cy]): Polygon => shape.map(([x, y]) => [(cx + x * scale) * width, (cy + y * scale) * height] as const)),
    );
  let [low, high] = [0.5, 3];
  for (let step = 0; step < 20; step++) {
    const middle = (low + high) / 2;
    if (maskShare(maskAt(middle)) < share) low = middle;
    else high = middle;
  }
  return maskAt(high);
}

function ellipse(rx: number, ry: number, points: number): [number, number][] {
  return Array.from({ length: points }, (_, k) => [rx * Math.cos((2 * Math.PI * k) / points), ry * Math.sin((2 * Math.PI * k) / points)] as [number, number]);
}

function maskShare(mask: Uint8Array): number {
  let sum = 0;
  for (let p = 0; p < mask.length; p++) sum += mask[p]!;
  return sum / mask.length;
}

// ---------------------------------------------------------------------------------------------------------------
// E. The contact sheet.

const SHEET_COLUMNS = ['input, hole outlined', 'mask', 'Telea', 'ShiftMap', 'ours', 'answer'] as const;
const SHEET_LABEL_WIDTH = 150;
const SHEET_GAP = 6;
const SHEET_WIDTH = SHEET_LABEL_WIDTH + SHEET_COLUMNS.length * (SHEET_PANEL_WIDTH + SHEET_GAP) - SHEET_GAP;

/**
 * One row of the sheet: every panel the crop around the hole (its bounding box and a margin), scaled to
 * SHEET_PANEL_HEIGHT. `shown` is what the first panel shows (the photo with its answer for holes, the furnished
 * render for pairs); `outputs.answer`, when given, is the answer (renders), else `shown` is.
 */
async function sheetRow(id: string, shown: RawImage, hole: Uint8Array, outputs: Partial<Record<Method | 'answer', RawImage>>): Promise<Buffer> {
  const bbox = holeBoundingBox(hole, shown.width, shown.height)!;
  const crop = cropAround(bbox, shown.width, shown.height);
  const outline = outlined(shown, hole, crop);
  const maskImage: RawImage = { data: Uint8Array.from(hole, (v) => (v ? 255 : 0)), width: shown.width, height: shown.height, channels: 1 };
  const panels = [outline, maskImage, outputs.telea, outputs.shiftmap, outputs.ours, outputs.answer ?? shown];
  const buffers = await Promise.all(panels.map((panel) => (panel ? panelOf(panel, crop) : emptyPanel())));
  const placed = buffers.map((input, i) => ({ input, left: SHEET_LABEL_WIDTH + i * (SHEET_PANEL_WIDTH + SHEET_GAP), top: 0 }));
  const label = `<svg width="${SHEET_LABEL_WIDTH}" height="${SHEET_PANEL_HEIGHT}">${wrap(id, 18)
    .map((line, i) => `<text x="4" y="${20 + i * 18}" font-size="14" font-family="sans-serif" fill="#fff">${line}</text>`)
    .join('')}</svg>`;
  return sharp({ create: { width: SHEET_WIDTH, height: SHEET_PANEL_HEIGHT, channels: 3, background: '#202020' } })
    .composite([{ input: Buffer.from(label), left: 0, top: 0 }, ...placed])
    .png()
    .toBuffer();
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const part of text.split(/(?<=-)/)) {
    if (line.length + part.length > width && line) {
      lines.push(line);
      line = '';
    }
    line += part;
  }
  return [...lines, line];
}

interface Crop {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The hole's bounding box with a margin of 40 % of its longer side (at least 16 px), widened or heightened to the
 * panels' 4:3 and moved inside the image (cut where the image is too small).
 */
function cropAround(box: BoundingBox, width: number, height: number): Crop {
  const margin = Math.max(16, Math.round(0.4 * Math.max(box.x1 - box.x0, box.y1 - box.y0)));
  let cropWidth = box.x1 - box.x0 + 2 * margin;
  let cropHeight = box.y1 - box.y0 + 2 * margin;
  if (cropWidth * 3 < cropHeight * 4) cropWidth = Math.round((cropHeight * 4) / 3);
  else cropHeight = Math.round((cropWidth * 3) / 4);
  cropWidth = Math.min(width, cropWidth);
  cropHeight = Math.min(height, cropHeight);
  const centre = (from: number, to: number, size: number, limit: number): number => Math.min(limit - size, Math.max(0, Math.round((from + to - size) / 2)));
  return { left: centre(box.x0, box.x1, cropWidth, width), top: centre(box.y0, box.y1, cropHeight, height), width: cropWidth, height: cropHeight };
}

/** The image with the hole's outline drawn in red, thick enough to stay visible at the sheet's scale. */
function outlined(image: RawImage, hole: Uint8Array, crop: Crop): RawImage {
  const { width, height } = image;
  const data = Uint8Array.from(image.data);
  const thickness = Math.max(1, Math.round(crop.height / SHEET_PANEL_HEIGHT));
  const inHole = (x: number, y: number): boolean => x >= 0 && y >= 0 && x < width && y < height && hole[y * width + x] === 1;
  for (let y = crop.top; y < crop.top + crop.height; y++) {
    for (let x = crop.left; x < crop.left + crop.width; x++) {
      if (!inHole(x, y) || (inHole(x - 1, y) && inHole(x + 1, y) && inHole(x, y - 1) && inHole(x, y + 1))) continue;
      for (let dy = -thickness + 1; dy < thickness; dy++) {
        for (let dx = -thickness + 1; dx < thickness; dx++) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx >= 0 && yy >= 0 && xx < width && yy < height) data.set([255, 40, 40], (yy * width + xx) * 3);
        }
      }
    }
  }
  return { ...image, data };
}

async function panelOf(image: RawImage, crop: Crop): Promise<Buffer> {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .extract(crop)
    .resize({ width: SHEET_PANEL_WIDTH, height: SHEET_PANEL_HEIGHT, fit: 'contain', background: '#202020', kernel: 'lanczos3' })
    .toColourspace('srgb')
    .png()
    .toBuffer();
}

/** The panel of a method that did not run (ShiftMap skipped). */
async function emptyPanel(): Promise<Buffer> {
  return sharp({ create: { width: SHEET_PANEL_WIDTH, height: SHEET_PANEL_HEIGHT, channels: 3, background: '#404040' } }).png().toBuffer();
}

/** Rows stacked under a header naming the columns, as a JPEG under ~1 MB. */
async function writeContactSheet(rows: Buffer[]): Promise<void> {
  if (rows.length === 0) return;
  const width = SHEET_WIDTH;
  const header = 24;
  const names = `<svg width="${width}" height="${header}">${SHEET_COLUMNS.map(
    (name, i) => `<text x="${SHEET_LABEL_WIDTH + i * (SHEET_PANEL_WIDTH + SHEET_GAP) + 4}" y="17" font-size="15" font-family="sans-serif" fill="#fff">${name}</text>`,
  ).join('')}</svg>`;
  const placed = rows.map((input, i) => ({ input, left: 0, top: header + i * (SHEET_PANEL_HEIGHT + SHEET_GAP) }));
  const height = header + rows.length * (SHEET_PANEL_HEIGHT + SHEET_GAP) - SHEET_GAP;
  const sheet = await sharp({ create: { width, height, channels: 3, background: '#000' } })
    .composite([{ input: Buffer.from(names), left: 0, top: 0 }, ...placed])
    .png()
    .toBuffer();
  fs.mkdirSync(path.dirname(CONTACT_SHEET), { recursive: true });
  for (let quality = 82; ; quality -= 6) {
    const jpeg = await sharp(sheet).jpeg({ quality, mozjpeg: true }).toBuffer();
    if (jpeg.length <= SHEET_MAX_BYTES || quality <= 40) {
      fs.writeFileSync(CONTACT_SHEET, jpeg);
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The section.

interface ReportInput {
  options: Options;
  baselines: readonly Baseline[];
  detectors: readonly string[];
  holes: readonly HoleSpec[];
  holeResults: readonly CaseResult[];
  renders: { results: CaseResult[]; missing: boolean; empty: string[] };
  automatic: readonly AutomaticRow[];
  twelve: TwelveMegapixels | undefined;
  large: LargeHoles | undefined;
}

function report(input: ReportInput): string {
  const { options, baselines, detectors, holeResults, renders, automatic, twelve, large } = input;
  const partial = options.skipShiftmap ? ['`--skip-shiftmap`'] : [];
  const ran = PARTS.filter((part) => options.parts.has(part)).flatMap((part) => PART_LETTERS[part]);
  const carried = PARTS.filter((part) => !options.parts.has(part)).flatMap((part) => PART_LETTERS[part]);
  const carry = (part: Part, text: () => string): string => (options.parts.has(part) ? text() : PART_LETTERS[part].map(carriedSubsection).filter(Boolean).join('\n\n'));
  const withPlanes = holeResults.filter((r) => r.ours.planeGuided).length;
  const sections = [
    `## Declutter: object removal (\`npm run bench:declutter\`)

${machineLine()}${partial.length > 0 ? `\n**Partial run** (${partial.join(', ')}): not the committed figures.` : ''}${carried.length > 0 ? `\nThis run measured part${ran.length > 1 ? 's' : ''} ${ran.join(', ')} (\`--part\`); ${carried.join(', ')} ${carried.length > 1 ? 'are' : 'is'} carried over from the run before, on its own date.` : ''}
Methods: **ours** = the product's masked mode (\`removeMasked\`: room analysis with M-LSD + LSD, the objects
${detectors.join(' + ')} find kept out of the sources unless the hole reaches into their box, plane-guided PatchMatch fill); **without planes** = \`fillPhoto\` on the same analysis
and avoided object masks with \`minPlaneConfidence: Infinity\` (plain PatchMatch); **Telea**, **Navier-Stokes** (OpenCV
\`cv2.inpaint\`, radius 5) and **ShiftMap** (\`cv2.xphoto\`), run by \`bench/declutter-baselines.py\`. Scores from
\`bench/declutter-metrics.ts\`: PSNR and SSIM inside the hole, texture ratio (mean gradient inside the hole, fill ÷
answer: 1 = as busy as the truth, → 0 smeared), edge continuity (share of the answer's straight edges across the hole
that the fill carries through on their line; only cases crossed by such an edge count, n given). Time: ours is the
whole masked mode (analysis + detection + fill), without planes the fill alone, the baselines the OpenCV call alone.`,
    carry('holes', () => `### A. Known-answer holes on the photos

${holeResults.length} holes drawn by hand over plain floor and wall (\`bench/data/declutter-holes.json\`): the photo's
own pixels are the answer. Every method gets the photo with the hole painted grey, so neither the fills nor the room
analysis nor the detectors can read the answer. The room's planes guided our fill on ${withPlanes} of ${holeResults.length} holes (layout
confidence ≥ 0.3); on the others ours and the ablation are the same fill.

${methodSummary(holeResults)}

${oursTimeSplit(holeResults)}

${holeTargets(holeResults, baselines)}

Per hole: PSNR dB / SSIM / texture ratio / edge continuity (– where no straight edge crosses the hole); time in ms
of ours / without planes / Telea / Navier-Stokes / ShiftMap; "objects": share of our fill copied from inside a drawn furniture box or a detected object's box (any
box / boxes that do not overlap the hole / those boxes' object pixels).

${perHoleTable(holeResults)}`),
    carry('renders', () => rendersSection(renders, options)),
    carry('automatic', () => [automaticSection(automatic, options), twelveSection(twelve, options)].filter(Boolean).join('\n\n')),
    carry('large', () => (large ? largeSection(large, holeResults, baselines) : '')),
    `Contact sheet (${SHEET_COLUMNS.join(' | ')}; for the photo holes the first and last columns show the original
photo, whose pixels inside the outline are the answer; for the render pairs the first shows the furnished render and the
last the empty one): [docs/images/declutter-contact-sheet.jpg](images/declutter-contact-sheet.jpg).`,
  ];
  return sections.filter(Boolean).join('\n\n');
}

/** Per method: medians of PSNR, SSIM, texture ratio and time; the mean edge continuity over cases with segments. */
function methodSummary(results: readonly CaseResult[]): string {
  const rows = METHODS.flatMap((method) => {
    const scores = results.flatMap((r) => r.scores[method] ?? []);
    if (scores.length === 0) return [];
    const edges = scores.filter((s) => s.segments > 0);
    return [
      `| ${METHOD_NAMES[method]} | ${median(scores.map((s) => s.psnr)).toFixed(2)} | ${median(scores.map((s) => s.ssim)).toFixed(3)} | ${median(scores.map((s) => s.texture)).toFixed(2)} | ${edges.length > 0 ? mean(edges.map((s) => s.edge)).toFixed(2) : '–'} (n ${edges.length}) | ${median(scores.map((s) => s.ms)).toFixed(0)} | ${Math.max(...scores.map((s) => s.ms)).toFixed(0)} |`,
    ];
  });
  return `| Method | PSNR dB (median) | SSIM (median) | Texture ratio (median) | Edge continuity (mean) | Time ms (median) | Time ms (max) |
|---|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}`;
}

/** Where ours' time goes, medians over the cases. */
function oursTimeSplit(results: readonly CaseResult[]): string {
  const seconds = (pick: (r: CaseResult) => number): string => (median(results.map(pick)) / 1000).toFixed(2);
  return `Ours' time (medians): analysis ${seconds((r) => r.ours.analysisMs)} s, detection ${seconds((r) => r.ours.detectionMs)} s, fill ${seconds((r) => r.ours.fillMs)} s.`;
}

function holeTargets(results: readonly CaseResult[], baselines: readonly Baseline[]): string {
  const all = (method: Method): Scores[] => results.flatMap((r) => r.scores[method] ?? []);
  const verdict = (ok: boolean): string => (ok ? '**pass**' : '**fail**');
  const texture = median(all('ours').map((s) => s.texture));
  const psnr = median(all('ours').map((s) => s.psnr));
  const telea = median(all('telea').map((s) => s.psnr));
  const edgeOf = (method: Method): number => mean(all(method).filter((s) => s.segments > 0).map((s) => s.edge));
  const edges = baselines.map((method) => `${METHOD_NAMES[method]} ${edgeOf(method).toFixed(2)}`);
  const edgeOk = baselines.every((method) => edgeOf('ours') > edgeOf(method));
  const sources = results.flatMap((r) => r.objectSources ?? []);
  const worstAny = Math.max(...sources.map((s) => s.any));
  const worstApart = Math.max(...sources.map((s) => s.apart));
  const worstPixels = Math.max(...sources.map((s) => s.pixels));
  const worstId = results.find((r) => r.objectSources?.pixels === worstPixels)?.id ?? '';
  return `Targets (ours):

- Texture ratio between 0.8 and 1.2 (median): ${texture.toFixed(2)}, ${verdict(texture >= 0.8 && texture <= 1.2)}.
- PSNR no more than 1 dB below Telea's (medians): ${psnr.toFixed(2)} dB vs ${telea.toFixed(2)} dB (${signed(psnr - telea)} dB), ${verdict(psnr >= telea - 1)}.
- Edge continuity better than every baseline (means): ours ${edgeOf('ours').toFixed(2)} vs ${edges.join(', ')}${baselines.includes('shiftmap') ? '' : ' (ShiftMap skipped)'}, ${verdict(edgeOk)}.
- No object copied into a hole: share of a hole's fill copied from inside a drawn furniture box or a detected object's
  box, max ${percent(worstAny)}, mean ${percent(mean(sources.map((s) => s.any)))} over ${sources.length} holes; counting only boxes that do not overlap the hole
  (a hole on a rug rightly copies from the rug; loose boxes reach over the plain surface next to their object): max
  ${percent(worstApart)}, mean ${percent(mean(sources.map((s) => s.apart)))}. Those boxes refined to their objects' own pixels
  (objectMask without shadow, inside the box): max ${percent(worstPixels)}${worstPixels > 0 ? ` (${worstId})` : ''},
  mean ${percent(mean(sources.map((s) => s.pixels)))}. Target (ours; the issue sets none): at most
  ${percent(MAX_OBJECT_SOURCE_SHARE)} of any hole copied from an object's pixels apart from it, ${verdict(worstPixels <= MAX_OBJECT_SOURCE_SHARE)}.`;
}

function perHoleTable(results: readonly CaseResult[]): string {
  const cell = (s: Scores | undefined): string => (s ? `${s.psnr.toFixed(1)} / ${s.ssim.toFixed(2)} / ${s.texture.toFixed(2)} / ${formatEdge(s)}` : '–');
  const rows = results.map(
    (r) =>
      `| ${r.id} | ${percent(r.holeShare)} | ${METHODS.map((m) => cell(r.scores[m])).join(' | ')} | ${METHODS.map((m) => (r.scores[m] ? r.scores[m]!.ms.toFixed(0) : '–')).join(' / ')} | ${r.ours.planeGuided ? 'yes' : 'no'} | ${r.objectSources ? `${percent(r.objectSources.any)} / ${percent(r.objectSources.apart)} / ${percent(r.objectSources.pixels)}` : '–'} |`,
  );
  return `| Hole | Area | Ours | Without planes | Telea | Navier-Stokes | ShiftMap | Time ms | Planes | Objects |
|---|---:|---|---|---|---|---|---:|---|---:|
${rows.join('\n')}`;
}

function rendersSection(renders: ReportInput['renders'], options: Options): string {
  if (!options.parts.has('renders')) return '';
  if (renders.missing) {
    return `### B. Rendered furnished/empty pairs

No renders in \`${options.renders}\`: make them with \`${RENDER_COMMAND}\` (Blender, a few minutes) and run the bench again.`;
  }
  const results = renders.results;
  const texture = median(results.flatMap((r) => r.scores.ours ?? []).map((s) => s.texture));
  return `### B. Rendered furnished/empty pairs

${results.length} rooms of the room renderer in \`${options.renders}\` (\`${RENDER_COMMAND}\`${renders.empty.length > 0 ? `; ${renders.empty.join(', ')} hold no furniture and are left out` : ''}): the hole is every furniture pixel
of \`labels.png\` (class ${FURNITURE_CLASS}) dilated by ${FURNITURE_DILATION} px (median ${percent(median(results.map((r) => r.holeShare)))} of the image), the input \`beauty.png\`, the answer
\`empty.png\` (furniture shadows and light bounced off the furniture lie outside the hole and stay). Ours is
\`removeMasked\` without detectors: a render holds no COCO object to keep. Planes guided our fill on
${results.filter((r) => r.ours.planeGuided).length} of ${results.length} rooms.

${methodSummary(results)}

${oursTimeSplit(results)} Ours' texture ratio (median) ${texture.toFixed(2)}. Per room (PSNR dB of ours / without planes / Telea / Navier-Stokes / ShiftMap):
${results.map((r) => `${r.id} ${METHODS.map((m) => (r.scores[m] ? r.scores[m]!.psnr.toFixed(1) : '–')).join(' / ')}`).join('; ')}.`;
}

function automaticSection(rows: readonly AutomaticRow[], options: Options): string {
  if (!options.parts.has('automatic') || rows.length === 0) return '';
  const meanShare = mean(rows.map((r) => r.coveredShare));
  const halves = rows.reduce((sum, r) => sum + r.halfCoveredBoxes, 0);
  const boxes = rows.reduce((sum, r) => sum + r.boxes, 0);
  const lines = rows.map(
    (r) =>
      `| ${r.file} | ${r.boxes} | ${percent(r.coveredShare)} | ${r.halfCoveredBoxes}/${r.boxes} | ${r.found} | ${r.removed} | ${percent(r.reportedBoxesShare)} | ${percent(r.holeShare)} | ${percent(r.outsideBoxesShare)} | ${r.seconds.toFixed(1)} |`,
  );
  return `### C. Automatic mode on the furnished photos

\`removeAutomatically\` on the ${rows.length} photos with hand-drawn boxes of removable objects
(\`bench/data/furniture-boxes.json\`, rugs, wall art and people included). The mask here is every candidate's
(detections and clutter) before the self-check; "removed" counts what the self-check then let go (part E). Covered:
the share of the drawn boxes' pixels (their union) inside the mask; a box is "half covered" when the mask holds at least half of its
pixels (boxes are loose around their objects, so a perfect mask covers less than all of a box). Outside: the share
of the mask that lies outside every drawn box (removed wall or floor). Reported boxes whole: the drawn-box pixels
covered were every reported box (detections and clutter) removed whole, a ceiling that better masks cannot pass;
only finding more objects can (docs/decisions/0008).

| Photo | Boxes | Box pixels covered | Boxes ≥ half covered | Objects found | Removed after the self-check | Reported boxes whole | Mask (of photo) | Mask outside boxes | Time s |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${lines.join('\n')}

Drawn-box pixels covered: mean over the photos ${percent(meanShare)} (target ${percent(AUTOMATIC_TARGET)}, ${meanShare >= AUTOMATIC_TARGET ? '**pass**' : '**fail**'}); boxes at least half
covered: ${halves}/${boxes} (${percent(halves / boxes)}); reported boxes removed whole would cover ${percent(mean(rows.map((r) => r.reportedBoxesShare)))}.`;
}

function twelveSection(twelve: TwelveMegapixels | undefined, options: Options): string {
  if (!options.parts.has('automatic') || !twelve) return '';
  const { masked, automatic } = twelve;
  const cores = os.cpus().length;
  return `### D. Times at 12 MP

\`${TWELVE_MP_PHOTO}\` (${twelve.size}), from the decoded photo to the filled one, models already loaded, ONNX
Runtime with its default threads (as a service worker opens it).

- Masked mode, ${percent(twelve.maskShare)} of the photo masked (four object-shaped blobs over its lower half): ${masked.seconds.toFixed(1)} s
  (analysis ${(masked.analysisMs / 1000).toFixed(1)} s, detection ${(masked.detectionMs / 1000).toFixed(1)} s, fill ${(masked.fillMs / 1000).toFixed(1)} s); target < 30 s, ${masked.seconds < 30 ? '**pass**' : '**fail**'}. Load average ${masked.load.toFixed(2)} on ${cores} cores.
- Automatic mode: ${automatic ? `${automatic.seconds.toFixed(1)} s (the run of part C); target < 60 s, ${automatic.seconds < 60 ? '**pass**' : '**fail**'}. Load average ${automatic.load.toFixed(2)} on ${cores} cores.` : 'not run.'}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Small helpers.

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/** Median of the finite values (an exact fill's infinite PSNR counts as larger than every other). */
function median(values: readonly number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function mean(values: readonly number[]): number {
  const kept = values.filter((v) => !Number.isNaN(v));
  return kept.length === 0 ? Number.NaN : kept.reduce((sum, v) => sum + v, 0) / kept.length;
}

function percent(share: number): string {
  const value = 100 * share;
  return `${value < 10 && value !== 0 ? value.toFixed(1) : value.toFixed(0)} %`;
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)}`;
}

function formatEdge(s: Scores): string {
  return s.segments > 0 ? s.edge.toFixed(2) : '–';
}

await main();
