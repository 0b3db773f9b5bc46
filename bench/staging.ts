/**
 * The staging engine (POST /v1/furnish with furnitureId) measured: parts run one after the other, each writing its
 * own part of docs/benchmarks.md.
 *
 *   node --import tsx bench/staging.ts [--part catalog,photos,noise,time] [--only NAME,NAME]
 *
 * - catalog: every furniture id rendered alone in three contrasting styles on a neutral floor →
 *   docs/images/furniture-catalog.jpg (a person must recognise each piece and its style at a glance).
 * - photos: every empty room of ../shared/testdata/rooms and ../shared/testdata/empty-rooms with three pieces each (a
 *   sofa, a bed, a dining table, two styles), preserveWindows on, at 1280 px on the longer side → counts of pixels
 *   changed outside the change mask, window and door pixels changed, pieces through walls, pieces that could not be
 *   placed; docs/images/staging-photos.jpg (input | sofa | bed | dining table).
 * - noise: one frame's furniture region at the service's samples against a 1,024-sample reference.
 * - time: a 2 MP and a 12 MP photo with one piece, wall time and peak memory.
 * The known-answer scenes are bench/staging-known-answer.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { loadConfig } from '../src/config/config.js';
import { furnitureIds, samplePiece } from '../src/furniture/library.js';
import { BlenderRenderer } from '../src/repositories/blender/blender-renderer.js';
import type { RenderPasses, RenderScene } from '../src/repositories/blender/render-scene.js';
import type { FurnitureRenderer } from '../src/services/staging/furniture-renderer.js';
import { decodeImage } from '../src/repositories/image-codec.js';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import { analyzeRoom } from '../src/services/geometry/analyze-room.js';
import { chooseLineSources, type ChosenLines } from '../src/services/operations/line-source-choice.js';
import { furnishPiece } from '../src/services/staging/furnish-piece.js';
import { MAX_RENDER_PIXELS, renderedLayer } from '../src/services/staging/render-pieces.js';
import { compositeRenderedLayer } from '../src/vision/differential-composite.js';
import { byteOfLinear } from '../src/vision/colour.js';
import { polygonMask } from '../src/vision/polygon-mask.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { machineLine, writeSection } from './report.js';
import { EMPTY_ROOM_PHOTOS, emptyRoomPhotos, PHOTO_LIMITS, PHOTOS, readPhoto, ROOT } from './shared-photos.js';

const IMAGES = path.join(ROOT, 'docs/images');
const CATALOG_STYLES = ['scandinavian', 'industrial', 'traditional'] as const;
/** Style pairs the photo part rotates through: two contrasting styles per photo. */
const STYLE_PAIRS = [
  ['scandinavian', 'industrial'],
  ['modern', 'bohemian'],
  ['japandi', 'traditional'],
  ['mid_century_modern', 'coastal'],
  ['minimalist', 'art_deco'],
  ['farmhouse', 'luxury'],
] as const;
const PHOTO_LONG_SIDE = 1024;
/** The empty room the noise and time parts stage: one whose layout the geometry analysis gets right. */
const REFERENCE_PHOTO = path.join(EMPTY_ROOM_PHOTOS, 'empty_living_01.jpg');
const PHOTO_SAMPLES = 48;

const config = loadConfig(process.env);
const renderer = new BlenderRenderer({ executable: config.staging.blender });

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { part: { type: 'string', default: 'catalog,photos,noise,time' }, only: { type: 'string' } } });
  const parts = new Set(values.part!.split(','));
  const available = await renderer.available();
  if (!available.ok) throw new Error(`Blender is needed: ${available.reason}`);
  const only = values.only ? new Set(values.only.split(',')) : undefined;
  fs.mkdirSync(IMAGES, { recursive: true });
  if (parts.has('catalog')) await catalogPart(only);
  const lines = parts.has('photos') || parts.has('noise') || parts.has('time') ? await lineSources() : undefined;
  if (parts.has('photos')) await photosPart(lines!, only);
  if (parts.has('noise')) await noisePart(lines!);
  if (parts.has('time')) await timePart(lines!);
}

async function lineSources(): Promise<ChosenLines> {
  const registry = ModelRegistry.load();
  const threads = Math.max(1, Math.min(4, os.availableParallelism()));
  const runtime = new ModelRuntime(new ModelStore(config.models.cacheDir, registry), registry, { intraOpNumThreads: threads });
  return chooseLineSources(runtime);
}

// ---------------------------------------------------------------------------------------------------------------
// Catalog sheet

const CELL_WIDTH = 720;
const CELL_HEIGHT = 300;
const CAPTION = 24;
/** Enough to recognise a piece and its materials; the noise figure is measured at the service's samples. */
const CATALOG_SAMPLES = 24;

async function catalogPart(only: Set<string> | undefined): Promise<void> {
  const ids = furnitureIds().filter((id) => !only || only.has(id));
  const cells: Buffer[] = [];
  const started = performance.now();
  for (const id of ids) {
    const t0 = performance.now();
    cells.push(await catalogCell(id));
    console.log(`catalog ${id}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const columns = 3;
  const rows = Math.ceil(cells.length / columns);
  const width = columns * CELL_WIDTH;
  const height = rows * (CELL_HEIGHT + CAPTION);
  const sheet = await sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .composite(cells.map((input, i) => ({ input, left: (i % columns) * CELL_WIDTH, top: Math.floor(i / columns) * (CELL_HEIGHT + CAPTION) })))
    .jpeg({ quality: 88 })
    .toBuffer();
  fs.writeFileSync(only ? path.join(os.tmpdir(), 'furniture-catalog-only.jpg') : path.join(IMAGES, 'furniture-catalog.jpg'), sheet);
  const seconds = (performance.now() - started) / 1000;
  console.log(`catalog: ${ids.length} ids in ${seconds.toFixed(0)} s`);
  if (!only) {
    writeSection(
      'staging-catalog',
      `### Furniture catalog (npm run bench:staging -- --part catalog)

${machineLine()}

Every one of the ${ids.length} furniture ids built by its generator and rendered alone in three contrasting styles
(${CATALOG_STYLES.join(', ')}; seed 1) on a neutral floor with a wall behind, one area light and its shadows:
[docs/images/furniture-catalog.jpg](images/furniture-catalog.jpg). ${ids.length} renders (${CELL_WIDTH}×${CELL_HEIGHT}, ${CATALOG_SAMPLES} samples) took
${seconds.toFixed(0)} s in all.`,
    );
  }
}

/** Three styles of one id side by side, seen from the front and a little above, on a pale floor. */
async function catalogCell(id: string): Promise<Buffer> {
  const pieces = CATALOG_STYLES.map((style) => samplePiece(id, style, 1));
  const gap = 0.35;
  const widths = pieces.map((p) => Math.max(p.footprint.width, p.footprint.depth * 0.8));
  const total = widths.reduce((s, w) => s + w, 0) + gap * (pieces.length - 1);
  const tallest = Math.max(...pieces.map((p) => p.footprint.elevation + p.footprint.height));
  const deepest = Math.max(...pieces.map((p) => p.footprint.depth));
  // A 35° field of view across the width, framing the row with a margin; the camera looks at its middle from above.
  const hfov = (35 * Math.PI) / 180;
  const aspect = CELL_HEIGHT / CELL_WIDTH;
  const distance = Math.max((total * 1.15) / 2 / Math.tan(hfov / 2), (tallest * 1.3) / 2 / (Math.tan(hfov / 2) * aspect)) + deepest / 2;
  const target: [number, number, number] = [0, 0, tallest * 0.45];
  const elevation = (18 * Math.PI) / 180;
  const position: [number, number, number] = [0, -distance * Math.cos(elevation), target[2] + distance * Math.sin(elevation)];
  const forward = normalize([target[0] - position[0], target[1] - position[1], target[2] - position[2]]);
  const right = normalize(cross(forward, [0, 0, 1]));
  const down = cross(forward, right);
  const focal = CELL_WIDTH / 2 / Math.tan(hfov / 2);
  let x = -total / 2;
  const placed = pieces.map((piece, i) => {
    const cx = x + widths[i]! / 2;
    x += widths[i]! + gap;
    const wallPiece = piece.footprint.placement !== 'floor';
    // Pieces stand with their backs on one line (a wall line for wall pieces), fronts toward the camera.
    const y = wallPiece ? deepest / 2 - piece.footprint.depth / 2 : 0;
    const geometry = piece.build();
    return {
      name: `${id}-${piece.styleId}`,
      matrix: [1, 0, 0, cx, 0, 1, 0, y, 0, 0, 1, 0, 0, 0, 0, 1],
      parts: geometry.parts.map((part) => ({ name: part.name, vertices: part.mesh.vertices.flat(), faces: part.mesh.faces, material: part.material, ...(part.grain ? { grain: part.grain } : {}) })),
      materials: geometry.materials,
    };
  });
  const back = deepest / 2 + 0.08;
  const scene: RenderScene = {
    width: CELL_WIDTH,
    height: CELL_HEIGHT,
    samples: CATALOG_SAMPLES,
    threads: 0,
    seed: 1,
    camera: { focal, cx: CELL_WIDTH / 2, cy: CELL_HEIGHT / 2, rotation: [...right, ...down, ...forward], position },
    surfaces: [
      { name: 'floor', role: 'catcher', polygon: [[-20, -20, 0], [20, -20, 0], [20, back, 0], [-20, back, 0]] },
      { name: 'wall', role: 'catcher', polygon: [[-20, back, 0], [20, back, 0], [20, back, 10], [-20, back, 10]] },
    ],
    lights: [
      { kind: 'area', center: [-2.5, -3, 3.2], direction: normalize([2.5, 3, -2.8]), up: [0, 0, 1], width: 3, height: 3, color: [1, 0.97, 0.92], power: 2200, glossy: false },
      { kind: 'area', center: [3, -2, 1.8], direction: normalize([-3, 2, -1]), up: [0, 0, 1], width: 2, height: 2, color: [0.92, 0.96, 1], power: 500, glossy: false },
    ],
    ambient: { color: [1, 1, 1], strength: 0.35 },
    pieces: placed,
  };
  // Exposure as a photographer would set it: a white wall behind the pieces renders at 85 % (white-card calibration;
  // the calibration render hides the pieces, so points behind them count too).
  const wallPoints: { x: number; y: number; target: number }[] = [];
  for (let i = 0; i <= 8; i++) {
    for (const height of [0.4, 0.8, 1.1]) {
      const [u, v] = project(scene, [-total / 2 + (total * i) / 8, back, tallest * height]);
      if (u > 0 && u < CELL_WIDTH && v > 0 && v < CELL_HEIGHT) wallPoints.push({ x: u, y: v, target: 0.85 });
    }
  }
  if (wallPoints.length > 0) scene.calibration = { samples: wallPoints };
  const passes = await renderer.render(scene, {});
  const backdrop: RawImage = { data: new Uint8Array(CELL_WIDTH * CELL_HEIGHT * 3), width: CELL_WIDTH, height: CELL_HEIGHT, channels: 3 };
  // A pale floor below the wall line's image and a slightly darker wall above it.
  const wallLine = project(scene, [0, back, 0])[1];
  for (let py = 0; py < CELL_HEIGHT; py++) {
    const value = py < wallLine ? 226 : 212;
    backdrop.data.fill(value, py * CELL_WIDTH * 3, (py + 1) * CELL_WIDTH * 3);
  }
  const composite = compositeRenderedLayer(backdrop, { x0: 0, y0: 0, width: passes.width, height: passes.height, pieces: passes.pieces, shadow: passes.shadow }, { grain: 0, seed: 1 });
  const caption = `<svg width="${CELL_WIDTH}" height="${CAPTION}"><text x="6" y="17" font-size="15" font-family="sans-serif" fill="#222">${id} — ${CATALOG_STYLES.join(' · ')}</text></svg>`;
  return sharp({ create: { width: CELL_WIDTH, height: CELL_HEIGHT + CAPTION, channels: 3, background: '#ffffff' } })
    .composite([
      { input: Buffer.from(caption), left: 0, top: 0 },
      { input: await sharp(composite.image.data, { raw: { width: CELL_WIDTH, height: CELL_HEIGHT, channels: 3 } }).png().toBuffer(), left: 0, top: CAPTION },
    ])
    .png()
    .toBuffer();
}

function project(scene: RenderScene, p: [number, number, number]): [number, number] {
  const r = scene.camera.rotation;
  const d = [p[0] - scene.camera.position[0], p[1] - scene.camera.position[1], p[2] - scene.camera.position[2]];
  const x = r[0]! * d[0]! + r[1]! * d[1]! + r[2]! * d[2]!;
  const y = r[3]! * d[0]! + r[4]! * d[1]! + r[5]! * d[2]!;
  const z = r[6]! * d[0]! + r[7]! * d[1]! + r[8]! * d[2]!;
  return [scene.camera.cx + (scene.camera.focal * x) / z, scene.camera.cy + (scene.camera.focal * y) / z];
}

// ---------------------------------------------------------------------------------------------------------------
// Real photos

interface PhotoRow {
  file: string;
  pieces: {
    furnitureId: string;
    styleId: string;
    placed: boolean;
    reason?: string;
    seconds: number;
    changedOutsideMask: number;
    openingPixelsChanged: number;
    throughWalls: boolean;
    changedShare: number;
  }[];
}

async function photosPart(lines: ChosenLines, only: Set<string> | undefined): Promise<void> {
  const files = emptyRoomPhotos().filter((f) => !only || only.has(path.basename(f)));
  const rows: PhotoRow[] = [];
  const sheetRows: Buffer[] = [];
  for (const [index, file] of files.entries()) {
    const image = await readPhoto(file, PHOTO_LONG_SIDE);
    const [styleA, styleB] = STYLE_PAIRS[index % STYLE_PAIRS.length]!;
    const analysis = await analyzeRoom(image, lines.layout, { ...(lines.vanishingPoints ? { vanishingPointLines: lines.vanishingPoints } : {}) });
    const openings = polygonMask(image.width, image.height, analysis.openings.map((o) => o.polygon));
    const row: PhotoRow = { file: path.basename(file), pieces: [] };
    const panels: RawImage[] = [image];
    for (const [furnitureId, styleId] of [['sofa_3_seater', styleA], ['double_bed', styleB], ['dining_table', styleA]] as const) {
      const started = performance.now();
      try {
        const furnished = await furnishPiece(image, { furnitureId, styleId, seed: 7 + index, preserveWindows: true }, { lines, renderer, quality: { samples: PHOTO_SAMPLES, threads: 0 } });
        let outside = 0;
        let inOpenings = 0;
        let changed = 0;
        for (let p = 0; p < image.width * image.height; p++) {
          const differs = image.data[p * 3] !== furnished.image.data[p * 3] || image.data[p * 3 + 1] !== furnished.image.data[p * 3 + 1] || image.data[p * 3 + 2] !== furnished.image.data[p * 3 + 2];
          if (differs && !furnished.changeMask[p]) outside++;
          if (differs && openings[p]) inOpenings++;
          if (furnished.changeMask[p]) changed++;
        }
        const piece = (furnished.result.staging as { pieces: { box3d: number[][] }[] }).pieces[0]!;
        const { left, right, front } = analysis.layout.box;
        const throughWalls = piece.box3d.some(([x, y]) => x! < left - 1e-3 || x! > right + 1e-3 || y! > front + 1e-3);
        row.pieces.push({ furnitureId, styleId, placed: true, seconds: (performance.now() - started) / 1000, changedOutsideMask: outside, openingPixelsChanged: inOpenings, throughWalls, changedShare: changed / (image.width * image.height) });
        panels.push(furnished.image);
      } catch (error) {
        row.pieces.push({ furnitureId, styleId, placed: false, reason: (error as Error).message, seconds: (performance.now() - started) / 1000, changedOutsideMask: 0, openingPixelsChanged: 0, throughWalls: false, changedShare: 0 });
        panels.push(image);
      }
      const last = row.pieces[row.pieces.length - 1]!;
      console.log(`${row.file} ${furnitureId}/${styleId}: ${last.placed ? `placed in ${last.seconds.toFixed(1)} s, ${(100 * last.changedShare).toFixed(1)} % changed, outside mask ${last.changedOutsideMask}, openings ${last.openingPixelsChanged}` : `not placed: ${last.reason}`}`);
    }
    rows.push(row);
    sheetRows.push(await photoSheetRow(row, panels));
  }
  const sheetWidth = 4 * 400 + 3 * 6;
  const rowHeights = await Promise.all(sheetRows.map((row) => sharp(row).metadata().then((m) => m.height!)));
  const tops = rowHeights.map((_, i) => rowHeights.slice(0, i).reduce((s, h) => s + h, 0));
  const sheet = await sharp({ create: { width: sheetWidth, height: rowHeights.reduce((s, h) => s + h, 0), channels: 3, background: '#000' } })
    .composite(sheetRows.map((input, i) => ({ input, left: 0, top: tops[i]! })))
    .jpeg({ quality: 85 })
    .toBuffer();
  fs.writeFileSync(only ? path.join(os.tmpdir(), 'staging-photos-only.jpg') : path.join(IMAGES, 'staging-photos.jpg'), sheet);
  if (only) return;
  const all = rows.flatMap((r) => r.pieces);
  const placed = all.filter((p) => p.placed);
  const table = rows
    .map((r) => `| ${r.file} | ${r.pieces.map((p) => (p.placed ? `${p.styleId}: ${(100 * p.changedShare).toFixed(1)} %, ${p.seconds.toFixed(0)} s` : `not placed (${p.reason?.split(':')[0]})`)).join(' | ')} |`)
    .join('\n');
  writeSection(
    'staging-photos',
    `### Real empty rooms (npm run bench:staging -- --part photos)

${machineLine()}

Every empty room photo of the shared sets (${rows.length}), reduced to ${PHOTO_LONG_SIDE} px on the longer side, ${PHOTO_SAMPLES} samples,
\`preserveWindows: true\`, three pieces each: a three-seater sofa and a dining table in one style, a double bed in
another. Contact sheet (input | sofa | bed | dining table):
[docs/images/staging-photos.jpg](images/staging-photos.jpg).

| Measure | Result |
|---|---|
| Pieces placed | ${placed.length} of ${all.length} (the others answered 400 no_room_for_furniture with the reason) |
| Pixels changed outside the change mask | ${placed.reduce((s, p) => s + p.changedOutsideMask, 0)} (target 0) |
| Window and door pixels changed (preserveWindows) | ${placed.reduce((s, p) => s + p.openingPixelsChanged, 0)} (target 0; openings as the geometry analysis found them) |
| Pieces through walls (of the analysed room box) | ${placed.filter((p) => p.throughWalls).length} (target 0) |
| Floating pieces | not measurable without a true floor here: every piece stands on the analysed floor plane by construction; a wrong floor estimate shows as a misplaced piece on the sheet (judged by eye below) |
| Median time per piece (analysis + render + composite) | ${median(placed.map((p) => p.seconds)).toFixed(1)} s |

| Photo | Sofa | Bed | Dining table |
|---|---|---|---|
${table}`,
  );
}

async function photoSheetRow(row: PhotoRow, panels: RawImage[]): Promise<Buffer> {
  const panelWidth = 400;
  const first = panels[0]!;
  const panelHeight = Math.round((first.height * panelWidth) / first.width);
  const caption = 20;
  const resized = await Promise.all(
    panels.map((p) => sharp(p.data, { raw: { width: p.width, height: p.height, channels: p.channels } }).resize(panelWidth, panelHeight).png().toBuffer()),
  );
  const labels = ['input', ...row.pieces.map((p) => (p.placed ? `${p.furnitureId} · ${p.styleId}` : `${p.furnitureId}: not placed`))];
  const svg = `<svg width="${4 * panelWidth + 18}" height="${caption}">${labels.map((l, i) => `<text x="${i * (panelWidth + 6) + 4}" y="15" font-size="13" font-family="sans-serif" fill="#ff0">${i === 0 ? row.file : l}</text>`).join('')}</svg>`;
  return sharp({ create: { width: 4 * panelWidth + 18, height: panelHeight + caption, channels: 3, background: '#000' } })
    .composite([{ input: Buffer.from(svg), left: 0, top: 0 }, ...resized.map((input, i) => ({ input, left: i * (panelWidth + 6), top: caption }))])
    .png()
    .toBuffer();
}

// ---------------------------------------------------------------------------------------------------------------
// Noise against a high-sample reference

async function noisePart(lines: ChosenLines): Promise<void> {
  const file = REFERENCE_PHOTO;
  const image = await readPhoto(file, 1024);
  const request = { furnitureId: 'sofa_3_seater', styleId: 'scandinavian', seed: 3, preserveWindows: false };
  // The same frame four times: at the service's samples, at the 128 of the service before the denoiser (the same
  // sampler seed), and twice at 1,024 samples on every pixel (adaptive sampling off, two other seeds) as the reference. Two references: their mean is the reference, and their
  // difference measures what noise the reference itself still has.
  const ours = new CapturingRenderer();
  await furnishPiece(image, request, { lines, renderer: ours, quality: { samples: config.staging.samples, threads: 0 } });
  // The service before the denoiser: 128 samples, composited as rendered.
  const previous = new CapturingRenderer();
  await furnishPiece(image, request, { lines, renderer: previous, quality: { samples: PREVIOUS_SAMPLES, threads: 0 } });
  const references = [];
  for (const seed of REFERENCE_SEEDS) {
    const reference = new CapturingRenderer(seed, 0);
    await furnishPiece(image, request, { lines, renderer: reference, quality: { samples: REFERENCE_SAMPLES, threads: 0 } });
    references.push(reference.last!);
  }
  const raw = ours.last!;
  const scene = ours.scene!;
  const region = scene.region!;
  // What the service composites: the same passes denoised (the photo is under MAX_RENDER_PIXELS: rendered at scale 1).
  const served = renderedLayer(raw, { scale: 1, offsetY: 0, x0: region.x0, y0: region.y0, width: raw.width, height: raw.height }, region);
  const [a, b] = references as [RenderPasses, RenderPasses];
  const mean = new Float32Array(a.pieces.length);
  for (let i = 0; i < mean.length; i++) mean[i] = (a.pieces[i]! + b.pieces[i]!) / 2;
  const old = previous.last!;
  const covered = (i: number) => raw.pieces[i * 4 + 3]! >= 0.99 && old.pieces[i * 4 + 3]! >= 0.99 && a.pieces[i * 4 + 3]! >= 0.99 && b.pieces[i * 4 + 3]! >= 0.99;
  const earlier = difference(old.pieces, mean, covered);
  const before = difference(raw.pieces, mean, covered);
  const after = difference(served.pieces, mean, covered);
  // The mean of two references has half the variance of one: its noise is the sd of their difference over 2.
  const referenceNoise = difference(a.pieces, b.pieces, covered).sd / 2;
  const truth = (sd: number) => Math.sqrt(Math.max(0, sd * sd - referenceNoise * referenceNoise));
  console.log(`noise: ${PREVIOUS_SAMPLES} samples raw ${earlier.sd.toFixed(2)}; raw sd ${before.sd.toFixed(2)}, denoised ${after.sd.toFixed(2)} levels over ${after.count / 3} pixels; reference noise ${referenceNoise.toFixed(2)}; fireflies ${before.fireflies} → ${after.fireflies}; ${raw.seconds.toFixed(1)} s render`);
  writeSection(
    'staging-noise',
    `### Render noise (npm run bench:staging -- --part noise)

${machineLine()}

A Scandinavian three-seater in ${path.basename(file)} (1024 px on the longer side), the furniture's fully covered pixels at
the service's ${config.staging.samples} samples (adaptive, render ${raw.seconds.toFixed(1)} s) against a reference of the same frame: the mean of two
${REFERENCE_SAMPLES}-sample renders with adaptive sampling off (sampler seeds ${REFERENCE_SEEDS.join(' and ')}), in 8-bit sRGB levels over ${after.count / 3} pixels.
The reference still has noise of its own, **${referenceNoise.toFixed(2)}** levels (half the sd of the two renders' difference); "against
the truth" removes it (√(sd² − ${referenceNoise.toFixed(2)}²)).

| Furniture layer | sd of the difference (target < 2) | against the truth | mean | channel samples off by > 20 levels (target 0) |
|---|---|---|---|---|
| ${PREVIOUS_SAMPLES} samples as rendered (the service until 2026-11-26, render ${old.seconds.toFixed(1)} s) | ${earlier.sd.toFixed(2)} | ${truth(earlier.sd).toFixed(2)} | ${earlier.mean.toFixed(2)} | ${earlier.fireflies} of ${earlier.count} |
| ${config.staging.samples} samples as rendered | ${before.sd.toFixed(2)} | ${truth(before.sd).toFixed(2)} | ${before.mean.toFixed(2)} | ${before.fireflies} of ${before.count} |
| ${config.staging.samples} samples denoised, as the service composites it | **${after.sd.toFixed(2)}** | **${truth(after.sd).toFixed(2)}** | ${after.mean.toFixed(2)} | **${after.fireflies}** of ${after.count} |

The denoiser is src/vision/feature-denoise.ts (docs/decisions/0011): a two-pass cross-bilateral filter of the light
(colour / albedo) guided by Cycles' albedo, normal and depth passes, fitted linearly around each pixel.`,
  );
}

const REFERENCE_SAMPLES = 1024;
const PREVIOUS_SAMPLES = 128;
const REFERENCE_SEEDS = [99, 77] as const;

/** The difference of two premultiplied layers in 8-bit sRGB levels over the pixels `covered` selects. */
function difference(a: Float32Array, b: Float32Array, covered: (i: number) => boolean): { sd: number; mean: number; fireflies: number; count: number } {
  const diffs: number[] = [];
  let fireflies = 0;
  for (let i = 0; i < a.length / 4; i++) {
    if (!covered(i)) continue;
    for (let c = 0; c < 3; c++) {
      const d = byteOfLinear(a[i * 4 + c]!) - byteOfLinear(b[i * 4 + c]!);
      diffs.push(d);
      if (Math.abs(d) > 20) fireflies++;
    }
  }
  const mean = diffs.reduce((s, d) => s + d, 0) / diffs.length;
  const sd = Math.sqrt(diffs.reduce((s, d) => s + (d - mean) ** 2, 0) / diffs.length);
  return { sd, mean, fireflies, count: diffs.length };
}

/** The Blender renderer, keeping the passes of its last render, with the sampler seed forced when one is given. */
class CapturingRenderer implements FurnitureRenderer {
  last: RenderPasses | undefined;
  scene: RenderScene | undefined;

  constructor(
    private readonly seed?: number,
    private readonly adaptiveThreshold?: number,
  ) {}

  available(): ReturnType<FurnitureRenderer['available']> {
    return renderer.available();
  }

  async render(scene: RenderScene, options: Parameters<FurnitureRenderer['render']>[1]): Promise<RenderPasses> {
    this.scene = {
      ...scene,
      ...(this.seed === undefined ? {} : { seed: this.seed }),
      ...(this.adaptiveThreshold === undefined ? {} : { adaptiveThreshold: this.adaptiveThreshold }),
    };
    this.last = await renderer.render(this.scene, options);
    return this.last;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Time and memory at 2 MP and 12 MP

async function timePart(lines: ChosenLines): Promise<void> {
  const file = REFERENCE_PHOTO;
  const original = await decodeImage(fs.readFileSync(file), PHOTO_LIMITS);
  const rows: string[] = [];
  for (const megapixels of [2, 12]) {
    const scale = Math.sqrt((megapixels * 1e6) / (original.image.width * original.image.height));
    const { data, info } = await sharp(original.image.data, { raw: { width: original.image.width, height: original.image.height, channels: original.image.channels } })
      .resize(Math.round(original.image.width * scale), Math.round(original.image.height * scale))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const image: RawImage = { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, channels: 3 };
    const started = performance.now();
    const furnished = await furnishPiece(image, { furnitureId: 'sofa_3_seater', styleId: 'modern', seed: 5, preserveWindows: false }, { lines, renderer, quality: { samples: config.staging.samples, threads: 0 } });
    const seconds = (performance.now() - started) / 1000;
    const staging = furnished.result.staging as { renderSeconds: number; renderPeakMemoryMiB: number; changedPixels: number; renderScale: number };
    const nodeRss = process.memoryUsage().rss / 2 ** 20;
    console.log(`${megapixels} MP: ${seconds.toFixed(1)} s (render ${staging.renderSeconds.toFixed(1)} s), Blender peak ${staging.renderPeakMemoryMiB} MiB, node RSS ${nodeRss.toFixed(0)} MiB`);
    const budget = megapixels === 2 ? 60 : 180;
    rows.push(`| ${info.width}×${info.height} (${megapixels} MP) | ${seconds.toFixed(1)} s (budget ${budget} s: ${seconds < budget ? 'pass' : 'MISSED'}) | ${staging.renderSeconds.toFixed(1)} s | ${staging.renderScale.toFixed(2)} | ${(100 * staging.changedPixels / (info.width * info.height)).toFixed(1)} % | ${staging.renderPeakMemoryMiB} MiB | ${nodeRss.toFixed(0)} MiB |`);
  }
  writeSection(
    'staging-time',
    `### Time and memory (npm run bench:staging -- --part time)

${machineLine()} Load average at the start: ${os.loadavg().map((l) => l.toFixed(1)).join(', ')}.

One modern three-seater sofa into ${path.basename(file)} resized, ${config.staging.samples} samples, end to end
(geometry analysis, placement, mesh, Blender render of the changed region, denoising, resampling, composite). Render
scale: the render's pixels per photo pixel along a side (a photo over ${(MAX_RENDER_PIXELS / 1e6).toFixed(0)} MP is rendered as one of ${(MAX_RENDER_PIXELS / 1e6).toFixed(0)} MP and resampled up).

| Photo | Total | Blender (start to exit) | Render scale | Pixels changed | Blender peak memory | Node RSS after |
|---|---|---|---|---|---|---|
${rows.join('\n')}`,
  );
}

function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function normalize(v: [number, number, number]): [number, number, number] {
  const l = Math.hypot(...v);
  return [v[0] / l, v[1] / l, v[2] / l];
}

function cross(a: [number, number, number], b: [number, number, number]): [number, number, number] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

await main();
