/**
 * `npm run bench:sky`: sky segmentation against skies outlined by hand (bench/data/sky-masks.json), the classifier's
 * verdict on every photo of the shared set, timings at native size and at 12 MP, and a contact sheet
 * (photo | detected sky with the hand outline | replaced sky) in docs/images/sky-contact-sheet.jpg.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { loadCatalog } from '../src/catalog/catalog.js';
import { decodeImage } from '../src/repositories/image-codec.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { detectSky } from '../src/vision/sky/detect-sky.js';
import { replaceSky } from '../src/vision/sky/replace-sky.js';
import { computeSkyMatte } from '../src/vision/sky/sky-matte.js';
import { machineLine, writeSection } from './report.js';
import { ROOT, PHOTOS, PHOTO_LIMITS } from './shared-photos.js';
import { resizeToTwelveMegapixels } from './twelve-megapixels.js';

const MASKS = path.join(ROOT, 'bench/data/sky-masks.json');
const CONTACT_SHEET = path.join(ROOT, 'docs/images/sky-contact-sheet.jpg');
const SHEET_ROW_HEIGHT = 360;
/** Classifier thresholds that let any detected sky through as grey. */
const ACCEPT_ANY_SKY = { blueBlueness: Number.POSITIVE_INFINITY, minGreyLuma: 0, greyBrightnessMargin: -1, maxStraightBorder: 1 };

type Polygon = [number, number][];

interface OutlinedSky {
  file: string;
  width: number;
  height: number;
  /** Sky. */
  polygons: Polygon[];
  /** Foreground inside the sky polygons (traced branches). */
  foreground?: Polygon[];
  /** Not scored: crowns of bare trees, where a hand outline cannot follow the twigs. */
  ignore?: Polygon[];
  notes: string;
}

/** Label of each pixel of a hand outline. */
const SKY = 1;
const FOREGROUND = 0;
const IGNORED = 2;

interface Row {
  file: string;
  size: string;
  verdict: string;
  iou: number;
  ignoredShare: number;
  detectMs: number;
  replaceMs: number;
  replace12Ms: number;
  size12: string;
}

async function main(): Promise<void> {
  const outlines = JSON.parse(fs.readFileSync(MASKS, 'utf8')) as OutlinedSky[];
  const sky = loadCatalog().defaultSky;
  const rows: Row[] = [];
  const sheetRows: SheetRow[] = [];
  await warmUp(outlines[0]!);
  for (const outline of outlines) {
    const { image } = await decodeImage(fs.readFileSync(path.join(PHOTOS, outline.file)), PHOTO_LIMITS);
    if (image.width !== outline.width || image.height !== outline.height) {
      throw new Error(`${outline.file}: outline is ${outline.width}×${outline.height}, photo ${image.width}×${image.height}`);
    }
    const truth = await rasterizeOutline(outline);

    const detectStart = performance.now();
    const detection = detectSky(image);
    const matte = computeSkyMatte(image, detection.planes, detection.segmentation);
    const detectMs = performance.now() - detectStart;
    const { iou, ignoredShare } = scoreMatte(matte, truth);

    // Blue skies are left alone by design; forcing the replacement shows what the matte does on their roof lines.
    const force = detection.classification.verdict === 'blue' ? { classifier: ACCEPT_ANY_SKY } : {};
    const replaceStart = performance.now();
    const replaced = replaceSky(image, sky, force);
    const replaceMs = performance.now() - replaceStart;

    const large = await resizeToTwelveMegapixels(image);
    const largeStart = performance.now();
    replaceSky(large, sky, force);
    const replace12Ms = performance.now() - largeStart;

    rows.push({
      file: outline.file,
      size: `${image.width}×${image.height}`,
      verdict: detection.classification.verdict,
      iou,
      ignoredShare,
      detectMs,
      replaceMs,
      replace12Ms,
      size12: `${large.width}×${large.height}`,
    });
    const caption = `${outline.file} — ${detection.classification.verdict}, IoU ${iou.toFixed(3)}${
      detection.classification.verdict === 'blue' ? ' — replacement forced (left alone by default: already blue)' : ''
    }`;
    sheetRows.push({ caption, panels: await sheetPanels(image, matte, outline, replaced.image) });
    console.log(`${outline.file}: ${detection.classification.verdict}, IoU ${iou.toFixed(3)}, 12 MP ${replace12Ms.toFixed(0)} ms`);
  }

  const verdicts = await verdictsOnSharedSet();
  await writeContactSheet(sheetRows);
  writeSection('bench-sky', report(rows, verdicts));
  console.log(`wrote docs/benchmarks.md (bench-sky) and ${path.relative(ROOT, CONTACT_SHEET)}`);
}

/** One untimed run, so that the first timed photo does not pay for compiling the code. */
async function warmUp(outline: OutlinedSky): Promise<void> {
  const { image } = await decodeImage(fs.readFileSync(path.join(PHOTOS, outline.file)), PHOTO_LIMITS);
  replaceSky(image, loadCatalog().defaultSky);
}

/** Sky, foreground and ignored pixels of a hand outline, drawn by librsvg through sharp. */
async function rasterizeOutline(outline: OutlinedSky): Promise<Uint8Array> {
  const layer = async (polygons: Polygon[] | undefined): Promise<Uint8Array> => {
    const paths = (polygons ?? []).map((polygon) => `<path d="${svgPath(polygon, 1)}" fill="#fff"/>`).join('');
    const background = '<rect width="100%" height="100%" fill="#000"/>';
    const svg = `<svg ${svgSize(outline.width, outline.height)}>${background}${paths}</svg>`;
    const { data } = await sharp(Buffer.from(svg)).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    return data;
  };
  const [skyLayer, foregroundLayer, ignoredLayer] = await Promise.all([
    layer(outline.polygons),
    layer(outline.foreground),
    layer(outline.ignore),
  ]);
  const labels = new Uint8Array(outline.width * outline.height);
  for (let i = 0; i < labels.length; i++) {
    // Traced limbs are scored even inside an ignored crown; antialiased polygon edges count from half coverage.
    if (foregroundLayer[i]! >= 128) labels[i] = FOREGROUND;
    else if (ignoredLayer[i]! >= 128) labels[i] = IGNORED;
    else labels[i] = skyLayer[i]! >= 128 ? SKY : FOREGROUND;
  }
  return labels;
}

/** Intersection over union of "matte ≥ 0.5" and the outlined sky, over the pixels that are not ignored. */
function scoreMatte(matte: Float32Array, truth: Uint8Array): { iou: number; ignoredShare: number } {
  let intersection = 0;
  let union = 0;
  let ignored = 0;
  for (let i = 0; i < truth.length; i++) {
    if (truth[i] === IGNORED) {
      ignored++;
      continue;
    }
    const predicted = matte[i]! >= 0.5;
    const actual = truth[i] === SKY;
    if (predicted && actual) intersection++;
    if (predicted || actual) union++;
  }
  return { iou: union > 0 ? intersection / union : 1, ignoredShare: ignored / truth.length };
}

async function verdictsOnSharedSet(): Promise<string[]> {
  const lines: string[] = [];
  const files = fs.readdirSync(PHOTOS).filter((file) => /\.(jpe?g|png|webp)$/i.test(file)).sort();
  for (const file of files) {
    const { image } = await decodeImage(fs.readFileSync(path.join(PHOTOS, file)), PHOTO_LIMITS);
    const { report } = replaceSky(image, loadCatalog().defaultSky);
    lines.push(`| ${file} | ${report.reason} | ${report.verdict ?? '—'} | ${report.skyFraction.toFixed(2)} | ${report.because} |`);
  }
  return lines;
}

interface SheetRow {
  caption: string;
  panels: Buffer;
}

/** photo | detected sky (magenta, by matte) with the hand outline (yellow) | replaced, scaled to one height. */
async function sheetPanels(image: RawImage, matte: Float32Array, outline: OutlinedSky, replaced: RawImage): Promise<Buffer> {
  const { width, height } = image;
  const rgb = (source: RawImage) =>
    sharp(source.data, { raw: { width, height, channels: source.channels } })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer();
  const photo = await rgb(image);
  const tinted = Buffer.from(photo);
  for (let i = 0; i < matte.length; i++) {
    const alpha = 0.65 * matte[i]!;
    tinted[i * 3] = Math.round(tinted[i * 3]! * (1 - alpha) + 255 * alpha);
    tinted[i * 3 + 1] = Math.round(tinted[i * 3 + 1]! * (1 - alpha));
    tinted[i * 3 + 2] = Math.round(tinted[i * 3 + 2]! * (1 - alpha) + 255 * alpha);
  }
  const scale = SHEET_ROW_HEIGHT / height;
  const panelWidth = Math.round(width * scale);
  const outlinePaths = [...outline.polygons, ...(outline.foreground ?? [])]
    .map((polygon) => `<path d="${svgPath(polygon, scale)}" fill="none" stroke="#ff0" stroke-width="1.2"/>`)
    .join('');
  const outlineSvg = Buffer.from(`<svg ${svgSize(panelWidth, SHEET_ROW_HEIGHT)}>${outlinePaths}</svg>`);
  const panel = (pixels: Buffer) =>
    sharp(pixels, { raw: { width, height, channels: 3 } }).resize(panelWidth, SHEET_ROW_HEIGHT, { kernel: 'lanczos3' }).png().toBuffer();
  const overlay = await sharp(await panel(tinted)).composite([{ input: outlineSvg }]).png().toBuffer();
  const panels = [await panel(photo), overlay, await panel(await rgb(replaced))];
  const gap = 6;
  return sharp({ create: { width: 3 * panelWidth + 2 * gap, height: SHEET_ROW_HEIGHT, channels: 3, background: '#202020' } })
    .composite(panels.map((input, k) => ({ input, left: k * (panelWidth + gap), top: 0 })))
    .png()
    .toBuffer();
}

async function writeContactSheet(rows: SheetRow[]): Promise<void> {
  const widths = await Promise.all(rows.map(async (row) => (await sharp(row.panels).metadata()).width));
  const width = Math.max(...widths);
  const captionHeight = 24;
  const gap = 10;
  const layers: OverlayOptions[] = [];
  let top = 0;
  for (const row of rows) {
    const text = `<text x="4" y="17" font-family="sans-serif" font-size="15" fill="#eee">${escapeXml(row.caption)}</text>`;
    const caption = `<svg ${svgSize(width, captionHeight)}>${text}</svg>`;
    layers.push({ input: Buffer.from(caption), left: 0, top }, { input: row.panels, left: 0, top: top + captionHeight });
    top += captionHeight + SHEET_ROW_HEIGHT + gap;
  }
  const height = top - gap;
  fs.mkdirSync(path.dirname(CONTACT_SHEET), { recursive: true });
  await sharp({ create: { width, height, channels: 3, background: '#202020' } })
    .composite(layers)
    .jpeg({ quality: 80, mozjpeg: true })
    .toFile(CONTACT_SHEET);
}

function report(rows: Row[], verdicts: string[]): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(2);
  return [
    '## Sky segmentation and replacement (`npm run bench:sky`)',
    '',
    machineLine(),
    'Skies outlined by hand in `bench/data/sky-masks.json` (crowns of bare trees marked ignore, see its notes). IoU of',
    '"matte ≥ 0.5" against the outline over the scored pixels. Detect = working-copy segmentation, classification and',
    'full-resolution matte; replace = the whole `replaceSky` (for blue skies the replacement is forced, so that the',
    'composite is timed too). 12 MP = the photo enlarged with Lanczos to about 12 megapixels.',
    '',
    '| Photo | Size | Verdict | IoU | Ignored | Detect s | Replace s | Replace s at 12 MP |',
    '|---|---|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.file} | ${row.size} | ${row.verdict} | ${row.iou.toFixed(3)} | ${(100 * row.ignoredShare).toFixed(0)} % ` +
        `| ${seconds(row.detectMs)} | ${seconds(row.replaceMs)} | ${seconds(row.replace12Ms)} (${row.size12}) |`,
    ),
    '',
    'Targets: IoU ≥ 0.9 on the outlined photos; `replaceSky` well under 10 s at 12 MP.',
    'For photos left alone, the sky-like share is that of the candidate region the classifier turned down.',
    '',
    `What \`replaceSky\` does with every photo of the shared set (default options):`,
    '',
    '| Photo | Result | Verdict | Sky-like share | Because |',
    '|---|---|---|---:|---|',
    ...verdicts,
    '',
    'Contact sheet: `docs/images/sky-contact-sheet.jpg` (photo | detected sky in magenta with the hand outline in yellow | result).',
  ].join('\n');
}

function svgPath(polygon: Polygon, scale: number): string {
  return `M${polygon.map(([x, y]) => `${(x * scale).toFixed(1)},${(y * scale).toFixed(1)}`).join('L')}Z`;
}

function svgSize(width: number, height: number): string {
  return `xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

await main();
