/**
 * The automatic declutter's self-check (src/services/declutter/removal-gate.ts) on the shared photos: every furnished
 * photo and every empty room, each run once through detection and masks, then filled twice: as before the gate
 * (every candidate but the fixtures filled at once) and gated (only what passes the checks).
 *
 *   node --import tsx bench/declutter-gate.ts [--only NAME,NAME] [--no-sheet]
 *
 * Per photo: objects found, removed, kept (with their reasons), whether the photo came back unchanged, the pixels
 * changed outside the removed objects' masks and seams (must be 0) and inside the kept ones (must be 0), and times.
 * Photos over 12 MP (the empty rooms are up to 36 MP) are reduced to 12 MP first, the size every time budget is stated
 * for. Writes the `declutter-gate` part of docs/benchmarks.md (inside the declutter section) and
 * docs/images/declutter-gate-contact-sheet.jpg (before | before the gate | gated).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { decodeImage } from '../src/repositories/image-codec.js';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import { isFixture, OBJECT_MODEL_NAMES, type ObjectDetectors } from '../src/services/declutter/detect-objects.js';
import { DEFAULT_GATE, type GateThresholds, type KeepReason } from '../src/services/declutter/removal-gate.js';
import { findCandidates, removeCandidates, type AutomaticResult } from '../src/services/declutter/remove-automatic.js';
import { lsdLineSource, mlsdLineSource, MLSD_INPUT_SIZE, MLSD_MODEL } from '../src/services/geometry/line-sources.js';
import type { DeclutterLines } from '../src/services/declutter/declutter-photo.js';
import { paintRegionMask } from '../src/vision/declutter/region-mask.js';
import { dilateSquare } from '../src/vision/mask-morphology.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { machineLine, writeSection } from './report.js';
import { PHOTO_LIMITS, PHOTOS, readManifest, ROOT, TWELVE_MEGAPIXELS } from './shared-photos.js';
import { resizeToTwelveMegapixels } from './twelve-megapixels.js';

const EMPTY_ROOMS = path.resolve(ROOT, '../shared/testdata/empty-rooms');
const SHEET = path.join(ROOT, 'docs/images/declutter-gate-contact-sheet.jpg');
const BENCHMARKS = path.join(ROOT, 'docs/benchmarks.md');
const PANEL_WIDTH = 640;
const PANEL_HEIGHT = 360;
const GAP = 6;
const CAPTION = 22;
/** The gate opened wide: every candidate passes, which is the automatic mode as it was before the gate. */
const UNGATED: GateThresholds = {
  ...DEFAULT_GATE,
  minSpan: 0,
  minBoxCover: 0,
  maxOpeningShare: 1,
  minHoleShare: 0,
  maxHoleShare: 1,
  maxRelativeDepth: 1,
  maxSurfaceShare: 1,
  maxCeilingShare: 1,
  mountedAbove: Infinity,
  maxTouchingShare: 1,
  maxUnmatchedShare: 1,
  minBorderMeasured: 0,
  maxColourDistance: Infinity,
  maxOffColourShare: 1,
  maxSmearShare: 1,
  maxSeamShare: 1,
  maxSeamRatio: Infinity,
};

interface Row {
  file: string;
  kind: 'furnished' | 'empty';
  size: string;
  found: number;
  removed: string[];
  kept: Partial<Record<KeepReason, number>>;
  unchanged?: string;
  /** Pixels that differ from the input outside the removed masks and their seams, and inside the kept objects' masks. */
  changedOutside: number;
  changedKept: number;
  ungatedShare: number;
  gatedShare: number;
  /** Seconds: analysis + detection + masks; the gated check and fill; the ungated fill. */
  candidatesSeconds: number;
  gatedSeconds: number;
  ungatedSeconds: number;
  load: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: 'string' }, 'no-sheet': { type: 'boolean', default: false } } });
  const only = values.only ? new Set(values.only.split(',')) : undefined;
  const photos = [
    ...readManifest().filter((f) => f.startsWith('furnished_')).map((f) => ({ file: f, dir: PHOTOS, kind: 'furnished' as const })),
    ...readManifest().filter((f) => f.startsWith('empty_')).map((f) => ({ file: f, dir: PHOTOS, kind: 'empty' as const })),
    ...fs
      .readFileSync(path.join(EMPTY_ROOMS, 'MANIFEST.csv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.slice(0, line.indexOf(',')))
      .sort()
      .map((f) => ({ file: f, dir: EMPTY_ROOMS, kind: 'empty' as const })),
  ].filter((p) => !only || only.has(p.file));

  const registry = ModelRegistry.load();
  const runtime = new ModelRuntime(new ModelStore(path.join(ROOT, 'data/models'), registry), registry);
  const lines: DeclutterLines = { layout: mlsdLineSource(await runtime.detectorSession(MLSD_MODEL), { inputSize: MLSD_INPUT_SIZE }), vanishingPoints: lsdLineSource() };
  const optional = async (name: string) => ((await runtime.isInstalled(name)) ? await runtime.detectorSession(name) : undefined);
  const nanodet = await optional(OBJECT_MODEL_NAMES.nanodet);
  const objectron = await optional(OBJECT_MODEL_NAMES.objectron);
  const detectors: ObjectDetectors = { centernet: await runtime.detectorSession(OBJECT_MODEL_NAMES.centernet), ...(nanodet ? { nanodet } : {}), ...(objectron ? { objectron } : {}) };

  const rows: Row[] = [];
  const sheetRows: Buffer[] = [];
  for (const photo of photos) {
    const image = await loadPhoto(path.join(photo.dir, photo.file));
    const started = performance.now();
    const found = await findCandidates(image, lines, detectors);
    const candidatesSeconds = (performance.now() - started) / 1000;
    const options = { openings: found.openings, layoutTrusted: found.layoutTrusted, timings: found.timings };
    const gatedStarted = performance.now();
    const gated = await removeCandidates(image, found.analysis, found.candidates, options);
    const gatedSeconds = (performance.now() - gatedStarted) / 1000;
    const ungatedStarted = performance.now();
    // The gate keeps the fixtures of the property whatever its thresholds: left out of the fill before the gate too,
    // which is then the automatic mode as it was with today's removable classes (a microwave was removable then).
    const removable = found.candidates.filter((c) => !isFixture(c.label));
    const ungated = await removeCandidates(image, found.analysis, removable, { ...options, gate: UNGATED });
    const ungatedSeconds = (performance.now() - ungatedStarted) / 1000;
    const kept: Partial<Record<KeepReason, number>> = {};
    for (const k of gated.kept) kept[k.reason] = (kept[k.reason] ?? 0) + 1;
    const row: Row = {
      file: photo.file,
      kind: photo.kind,
      size: `${image.width}×${image.height}`,
      found: found.candidates.length,
      removed: gated.removed.map((r) => r.label),
      kept,
      ...(gated.unchanged ? { unchanged: gated.unchanged } : {}),
      ...untouched(image, gated),
      ungatedShare: ungated.report.filledShare,
      gatedShare: gated.report.filledShare,
      candidatesSeconds,
      gatedSeconds,
      ungatedSeconds,
      load: os.loadavg()[0]!,
    };
    rows.push(row);
    console.log(
      `${photo.file} ${row.size}: found ${row.found}, removed ${row.removed.length} (${row.removed.join(', ')}), kept ${formatKept(kept)}, ${row.unchanged ? `unchanged (${row.unchanged})` : 'changed'}; changed pixels outside ${row.changedOutside}, in kept ${row.changedKept}; ${candidatesSeconds.toFixed(1)} s + gated ${gatedSeconds.toFixed(1)} s (ungated fill ${ungatedSeconds.toFixed(1)} s)`,
    );
    for (const g of gated.groups) {
      console.log(`  ${g.members.map((m) => found.candidates[m]!.label).join('+')}: ${g.reason ?? 'removed'}${g.detail ? ` (${g.detail})` : ''}`);
    }
    if (!values['no-sheet']) sheetRows.push(await sheetRow(photo.file, row, image, ungated.image, gated.image));
  }
  await runtime.close();
  if (!values['no-sheet'] && !only) await writeSheet(sheetRows);
  if (!only) writeGateSection(report(rows));
}

/** The photo as the service decodes it, reduced to 12 MP when larger. */
async function loadPhoto(file: string): Promise<RawImage> {
  const { image } = await decodeImage(fs.readFileSync(file), PHOTO_LIMITS);
  return image.width * image.height <= TWELVE_MEGAPIXELS * 1.02 ? image : resizeToTwelveMegapixels(image);
}

/** Pixels that changed where nothing was removed (outside the removed masks grown by the 2-pixel seam) and inside kept masks. */
function untouched(image: RawImage, result: AutomaticResult): { changedOutside: number; changedKept: number } {
  const { width, height, channels } = image;
  const allowed = dilateSquare(result.hole, width, height, 2);
  const kept = new Uint8Array(width * height);
  for (const g of result.groups) if (g.reason) for (const m of g.members) paintRegionMask(kept, width, result.candidates[m]!.mask);
  let changedOutside = 0;
  let changedKept = 0;
  for (let i = 0; i < width * height; i++) {
    let same = true;
    for (let c = 0; c < channels; c++) same &&= image.data[i * channels + c] === result.image.data[i * channels + c];
    if (same) continue;
    if (!allowed[i]) changedOutside++;
    if (kept[i]) changedKept++;
  }
  return { changedOutside, changedKept };
}

function formatKept(kept: Partial<Record<KeepReason, number>>): string {
  const parts = Object.entries(kept).map(([reason, count]) => `${count} ${reason}`);
  return parts.length > 0 ? parts.join(', ') : '0';
}

async function panel(image: RawImage): Promise<Buffer> {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .removeAlpha()
    .resize(PANEL_WIDTH, PANEL_HEIGHT, { fit: 'contain', background: '#000' })
    .png()
    .toBuffer();
}

async function sheetRow(file: string, row: Row, before: RawImage, ungated: RawImage, gated: RawImage): Promise<Buffer> {
  const width = 3 * PANEL_WIDTH + 2 * GAP;
  const text = `${file}: found ${row.found}, removed ${row.removed.length}, kept ${formatKept(row.kept)}${row.unchanged ? `, unchanged (${row.unchanged})` : ''}`;
  const caption = `<svg width="${width}" height="${CAPTION}"><text x="4" y="16" font-size="15" font-family="sans-serif" fill="#fff">${escapeXml(text)}</text></svg>`;
  const panels = await Promise.all([before, ungated, gated].map(panel));
  return sharp({ create: { width, height: CAPTION + PANEL_HEIGHT, channels: 3, background: '#000' } })
    .composite([{ input: Buffer.from(caption), left: 0, top: 0 }, ...panels.map((input, i) => ({ input, left: i * (PANEL_WIDTH + GAP), top: CAPTION }))])
    .png()
    .toBuffer();
}

async function writeSheet(rows: Buffer[]): Promise<void> {
  const width = 3 * PANEL_WIDTH + 2 * GAP;
  const header = 26;
  const names = ['before', 'automatic before the gate', 'automatic, gated'];
  const svg = `<svg width="${width}" height="${header}">${names.map((name, i) => `<text x="${i * (PANEL_WIDTH + GAP) + 4}" y="19" font-size="17" font-family="sans-serif" fill="#ff0">${name}</text>`).join('')}</svg>`;
  const rowHeight = CAPTION + PANEL_HEIGHT + GAP;
  const sheet = await sharp({ create: { width, height: header + rows.length * rowHeight, channels: 3, background: '#000' } })
    .composite([{ input: Buffer.from(svg), left: 0, top: 0 }, ...rows.map((input, i) => ({ input, left: 0, top: header + i * rowHeight }))])
    .png()
    .toBuffer();
  fs.mkdirSync(path.dirname(SHEET), { recursive: true });
  fs.writeFileSync(SHEET, await sharp(sheet).jpeg({ quality: 85 }).toBuffer());
  console.log(`wrote ${path.relative(ROOT, SHEET)}`);
}

function report(rows: readonly Row[]): string {
  const cores = os.cpus().length;
  const table = rows.map(
    (r) =>
      `| ${r.file} | ${r.size} | ${r.found} | ${r.removed.length > 0 ? r.removed.join(', ') : '–'} | ${formatKept(r.kept)} | ${r.unchanged ?? 'no'} | ${percent(r.ungatedShare)} | ${percent(r.gatedShare)} | ${r.changedOutside} / ${r.changedKept} | ${r.candidatesSeconds.toFixed(1)} + ${r.gatedSeconds.toFixed(1)} | ${(r.candidatesSeconds + r.ungatedSeconds).toFixed(1)} |`,
  );
  const furnished = rows.filter((r) => r.kind === 'furnished');
  const empty = rows.filter((r) => r.kind === 'empty');
  const twelve = rows.find((r) => r.file === 'furnished_living_cluttered_01.jpg');
  const count = (list: readonly Row[], pick: (r: Row) => boolean) => list.filter(pick).length;
  return `### E. The self-check of the automatic mode (\`node --import tsx bench/declutter-gate.ts\`)

${machineLine()} Load average ${Math.max(...rows.map((r) => r.load)).toFixed(1)} at most on ${cores} cores during the run (other work
shared the machine: times are upper bounds).

Every furnished photo and every empty room of the shared photos (\`testdata/rooms\` and \`testdata/empty-rooms\`; photos
over 12 MP reduced to 12 MP), run once through the room analysis, the detectors and the masks, then filled twice from
the same candidates: **before the gate** (every candidate but the fixtures of the property filled at once, the
automatic mode as it was with today's removable classes) and **gated**
(\`removeCandidates\` with the thresholds of \`DEFAULT_GATE\`, docs/decisions/0010). Found: detections and floor clutter.
Kept: objects left in place, by reason. Changed pixels: pixels that differ from the input outside the removed masks
and their 2-pixel seams / inside the kept objects' masks (both must be 0). Time: analysis + detection + masks, then
the gate with its fill; the last column is the automatic mode before the gate (one fill of all but the fixtures).

| Photo | Size | Found | Removed | Kept | Unchanged | Filled before the gate | Filled, gated | Changed pixels outside / kept | Time s | Before the gate s |
|---|---|---:|---|---|---|---:|---:|---:|---:|---:|
${table.join('\n')}

Furnished photos: ${count(furnished, (r) => r.removed.length > 0)} of ${furnished.length} changed, ${count(furnished, (r) => !!r.unchanged)} returned unchanged; ${furnished.reduce((s, r) => s + r.found, 0)} objects found, ${furnished.reduce((s, r) => s + r.removed.length, 0)} removed.
Empty rooms: ${count(empty, (r) => r.removed.length > 0)} of ${empty.length} changed (before the gate: ${count(empty, (r) => r.ungatedShare > 0)}); ${empty.reduce((s, r) => s + r.found, 0)} detections found (false ones, and the fixtures of the property), ${empty.reduce((s, r) => s + r.removed.length, 0)} removed.
Pixels changed outside what was removed, over all photos: ${rows.reduce((s, r) => s + r.changedOutside, 0)}; inside kept objects: ${rows.reduce((s, r) => s + r.changedKept, 0)}.${
    twelve
      ? `\nAutomatic mode at 12 MP (\`furnished_living_cluttered_01.jpg\`): ${(twelve.candidatesSeconds + twelve.gatedSeconds).toFixed(1)} s gated (${twelve.candidatesSeconds.toFixed(1)} s analysis, detection and masks, ${twelve.gatedSeconds.toFixed(1)} s gate${twelve.removed.length > 0 ? ' and fill' : ', no fill: nothing passed the checks before it'}), ${(twelve.candidatesSeconds + twelve.ungatedSeconds).toFixed(1)} s before the gate; target < 60 s, ${twelve.candidatesSeconds + twelve.gatedSeconds < 60 ? '**pass**' : '**fail**'}.`
      : ''
  }

Contact sheet (before | before the gate | gated): [docs/images/declutter-gate-contact-sheet.jpg](images/declutter-gate-contact-sheet.jpg).`;
}

/**
 * Writes the part between `<!-- declutter-gate:start -->` and `<!-- declutter-gate:end -->`, which sits just before the
 * end of the declutter section (bench/declutter.ts rewrites that section around it; the part is added when missing).
 */
function writeGateSection(markdown: string): void {
  const start = '<!-- declutter-gate:start -->';
  const end = '<!-- declutter-gate:end -->';
  const current = fs.readFileSync(BENCHMARKS, 'utf8');
  if (!current.includes(start)) {
    if (!current.includes('<!-- declutter:end -->')) {
      writeSection('declutter-gate', markdown);
      return;
    }
    fs.writeFileSync(BENCHMARKS, current.replace('<!-- declutter:end -->', `${start}\n${end}\n<!-- declutter:end -->`));
  }
  writeSection('declutter-gate', markdown);
}

function percent(share: number): string {
  const value = 100 * share;
  return `${value < 10 && value !== 0 ? value.toFixed(1) : value.toFixed(0)} %`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

await main();
