/**
 * Before/after metrics, timings and a contact sheet of the automatic enhancement on the shared room photos.
 * Run: npm run bench:enhance-tone (node --import tsx bench/enhance-tone.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { decodeImage } from '../src/repositories/image-codec.js';
import { enhancePhoto, type EnhanceReport } from '../src/vision/enhance/enhance.js';
import { comparePhotos, type PhotoMetrics } from '../src/vision/enhance/photo-metrics.js';
import { judge } from './enhance-judge.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { machineLine, writeSection } from './report.js';
import { PHOTO_LIMITS, PHOTOS, ROOT, readManifest } from './shared-photos.js';

const CONTACT_SHEET = path.join(ROOT, 'docs/images/enhance-contact-sheet.jpg');
const LARGE_PHOTO = 'furnished_living_cluttered_01.jpg';
const LARGE_RUNS = 3;
const THUMB_WIDTH = 400;
const THUMB_HEIGHT = 300;
const LABEL_HEIGHT = 22;
const PAIRS_PER_ROW = 2;

interface Row {
  file: string;
  megapixels: number;
  before: PhotoMetrics;
  after: PhotoMetrics;
  /** Median wall-clock time of the runs, and the CPU time of the same run (what other jobs on the machine do not inflate). */
  milliseconds: number;
  cpuMilliseconds: number;
  report: EnhanceReport;
  problems: string[];
}

async function main(): Promise<void> {
  const files = readManifest();
  const rows: Row[] = [];
  const thumbs: { label: string; before: Buffer; after: Buffer }[] = [];
  for (const file of files) {
    const { image } = await decodeImage(fs.readFileSync(path.join(PHOTOS, file)), PHOTO_LIMITS);
    const runs: { milliseconds: number; cpuMilliseconds: number }[] = [];
    let result: ReturnType<typeof enhancePhoto> | undefined;
    for (let run = 0; run < (file === LARGE_PHOTO ? LARGE_RUNS : 1); run++) {
      const start = performance.now();
      const cpu = process.cpuUsage();
      result = enhancePhoto(image);
      const used = process.cpuUsage(cpu);
      runs.push({ milliseconds: performance.now() - start, cpuMilliseconds: (used.user + used.system) / 1000 });
    }
    const { milliseconds, cpuMilliseconds } = runs.sort((a, b) => a.milliseconds - b.milliseconds)[Math.floor(runs.length / 2)]!;
    const { before, after } = comparePhotos(image, result!.image);
    const row: Row = {
      file,
      megapixels: (image.width * image.height) / 1e6,
      before,
      after,
      milliseconds,
      cpuMilliseconds,
      report: result!.report,
      problems: judge(before, after),
    };
    rows.push(row);
    thumbs.push({ label: file, before: await thumbnail(image), after: await thumbnail(result!.image) });
    console.log(`${file}: ${Math.round(milliseconds)} ms, ${row.problems.length === 0 ? 'ok' : row.problems.join('; ')}`);
    console.log(`  ${describeReport(row.report)}`);
  }
  await writeContactSheet(thumbs);
  const markdown = renderMarkdown(rows);
  writeSection('bench-enhance-tone', markdown);
  console.log(`\n${markdown}`);
  const failures = rows.filter((row) => row.problems.length > 0);
  if (failures.length > 0) {
    console.error(`\n${failures.length} image(s) worse beyond tolerance`);
    process.exitCode = 1;
  }
}

/** One line of what the enhancement estimated, to read next to the check. */
function describeReport({ whiteBalance: wb, tone, sharpen }: EnhanceReport): string {
  const balance = wb
    ? `white balance: temperature ${wb.temperature.toFixed(3)}, tint ${wb.tint.toFixed(3)}, ` +
      `support ${wb.greyPixel.support.toFixed(2)}, gains ${wb.gains.map((gain) => gain.toFixed(3)).join('/')}`
    : 'greyscale';
  const exposure =
    `median ${tone.medianLuminance.toFixed(3)}, bright ${tone.brightLuminance.toFixed(3)}, ` +
    `exposure ${tone.exposureStops.toFixed(2)} EV, contrast ${tone.contrast.toFixed(2)}, highlights ${tone.highlightCompression.toFixed(2)}`;
  return `${balance}; ${exposure}; noise σ ${sharpen.noiseSigma.toFixed(2)}`;
}

async function thumbnail(image: RawImage): Promise<Buffer> {
  const { width, height, channels } = image;
  const pixels = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  return sharp(pixels, { raw: { width, height, channels } })
    .resize(THUMB_WIDTH, THUMB_HEIGHT, { fit: 'contain', background: '#202020' })
    .flatten({ background: '#202020' })
    .png()
    .toBuffer();
}

/** Rows of before | after pairs, each pair under its file name, as one JPEG a person can look through. */
async function writeContactSheet(thumbs: { label: string; before: Buffer; after: Buffer }[]): Promise<void> {
  const pairWidth = 2 * THUMB_WIDTH;
  const cellHeight = LABEL_HEIGHT + THUMB_HEIGHT;
  const rows = Math.ceil(thumbs.length / PAIRS_PER_ROW);
  const layers: OverlayOptions[] = [];
  thumbs.forEach((thumb, index) => {
    const left = (index % PAIRS_PER_ROW) * (pairWidth + 8);
    const top = Math.floor(index / PAIRS_PER_ROW) * cellHeight;
    const label =
      `<svg width="${pairWidth}" height="${LABEL_HEIGHT}">` +
      `<text x="4" y="16" font-family="DejaVu Sans" font-size="14" fill="#eee">${thumb.label}   before | after</text></svg>`;
    layers.push({ input: Buffer.from(label), left, top });
    layers.push({ input: thumb.before, left, top: top + LABEL_HEIGHT });
    layers.push({ input: thumb.after, left: left + THUMB_WIDTH, top: top + LABEL_HEIGHT });
  });
  fs.mkdirSync(path.dirname(CONTACT_SHEET), { recursive: true });
  await sharp({
    create: { width: PAIRS_PER_ROW * (pairWidth + 8) - 8, height: rows * cellHeight, channels: 3, background: '#000' },
  })
    .composite(layers)
    .jpeg({ quality: 80 })
    .toFile(CONTACT_SHEET);
}

function renderMarkdown(rows: Row[]): string {
  const large = rows.find((row) => row.file === LARGE_PHOTO);
  const percent = (value: number) => `${(100 * value).toFixed(2)}`;
  const pair = (before: number, after: number, format: (value: number) => string) => `${format(before)} → ${format(after)}`;
  const lines = [
    '## Automatic enhancement: tone and colour (`npm run bench:enhance-tone`)',
    '',
    machineLine(),
    `Every photo of \`shared/testdata/rooms\` through \`enhancePhoto\` with its defaults, on the main thread (one core).`,
    'Mean L*: CIE lightness. Clipped: % of pixels with a channel ≥ 254. Crushed: % with Rec. 709 luma ≤ 2.',
    'Cast: C*ab of the mean a*, b* (each scaled to L* = 50) over the pixels near-neutral in the original (C*ab < 15,',
    '15 ≤ L* ≤ 95), before and after.',
    'M: Hasler–Süsstrunk colourfulness.',
    'Timings are indicative: a shared 2-core machine with other jobs running, which inflates the wall-clock time (ms);',
    'the CPU time of the run is the steadier figure.',
    '',
    '| Photo | MP | Mean L* | Clipped % | Crushed % | Cast | M | ms | CPU ms | CPU ms/MP | Check |',
    '|---|---:|---|---|---|---|---|---:|---:|---:|---|',
    ...rows.map((row) =>
      [
        `\`${row.file}\``,
        row.megapixels.toFixed(1),
        pair(row.before.meanLightness, row.after.meanLightness, (v) => v.toFixed(1)),
        pair(row.before.clippedHighlights, row.after.clippedHighlights, percent),
        pair(row.before.crushedShadows, row.after.crushedShadows, percent),
        pair(row.before.colourCast, row.after.colourCast, (v) => v.toFixed(1)),
        pair(row.before.colourfulness, row.after.colourfulness, (v) => v.toFixed(1)),
        Math.round(row.milliseconds),
        Math.round(row.cpuMilliseconds),
        Math.round(row.cpuMilliseconds / row.megapixels),
        row.problems.length === 0 ? 'ok' : row.problems.join(', '),
      ].join(' | ').replace(/^/, '| ').concat(' |'),
    ),
    '',
    `12 MP case: \`${LARGE_PHOTO}\` (4032 × 3024), median of ${LARGE_RUNS} runs: ` +
      `${Math.round(large?.milliseconds ?? Number.NaN)} ms wall clock, ${Math.round(large?.cpuMilliseconds ?? Number.NaN)} ms CPU ` +
      '(budget 10 000 ms; the pipeline is single-threaded, so the CPU time is what an idle core would take).',
    '',
    'Tolerances ("worse" fails the check): mean L* down by more than 1 (unless above 75 before), or up by more than 1 to end',
    'above 75; clipped or crushed share up by more than max(0.1 % of pixels, 10 % of before); cast up by more than 1 C*ab;',
    'colourfulness per unit of mean L* down more than 15 % (unless the cast dropped by more than 1) or up more than 20 %',
    '(M grows with brightness alone, and counts a cast as colour).',
    'Must improve: mean L* below 45 gains at least 3; a cast above 4 C*ab drops at least 10 %.',
    'Contact sheet (before | after): [docs/images/enhance-contact-sheet.jpg](images/enhance-contact-sheet.jpg).',
  ];
  return lines.join('\n');
}

await main();
