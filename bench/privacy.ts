/**
 * `npm run bench:privacy`: face and licence-plate detection against boxes drawn by hand (bench/data/privacy-boxes.json)
 * on every photo of the shared set, the time of `applyPrivacy` per photo and at 12 MP (alone, and after the
 * enhancer's tone and sky stages), and a contact sheet (detections and hand boxes | blurred result) in
 * docs/images/privacy-contact-sheet.jpg.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { loadCatalog } from '../src/catalog/catalog.js';
import { decodeImage } from '../src/repositories/image-codec.js';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import { applyPrivacy } from '../src/services/privacy/apply-privacy.js';
import { PRIVACY_MODEL_NAMES, type PrivacyModels } from '../src/services/privacy/detect-private-regions.js';
import { enhancePhoto } from '../src/vision/enhance/enhance.js';
import { coverage, intersectionOverUnion, type Box } from '../src/vision/box.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { replaceSky } from '../src/vision/sky/replace-sky.js';
import { machineLine, writeSection } from './report.js';
import { ROOT, PHOTOS, PHOTO_LIMITS } from './shared-photos.js';
import { resizeToTwelveMegapixels } from './twelve-megapixels.js';

const BOXES = path.join(ROOT, 'bench/data/privacy-boxes.json');
const CONTACT_SHEET = path.join(ROOT, 'docs/images/privacy-contact-sheet.jpg');
/** Scored sizes: smaller faces and plates are listed in the hand boxes but count as ignore regions. */
const MIN_FACE_HEIGHT = 24;
const MIN_PLATE_WIDTH = 40;
const SHEET_PANEL_HEIGHT = 300;

type Rect = [number, number, number, number];

interface HandBoxes {
  file: string;
  width: number;
  height: number;
  faces: Rect[];
  plates: Rect[];
  ignore?: { box: Rect; why: string }[];
}

interface Score {
  scored: number;
  found: number;
  falsePositives: number;
  missed: Box[];
  wrong: Box[];
}

interface Row {
  file: string;
  size: string;
  faces: Score;
  plates: Score;
  seconds: number;
}

async function main(): Promise<void> {
  const { photos } = JSON.parse(fs.readFileSync(BOXES, 'utf8')) as { photos: HandBoxes[] };
  const registry = ModelRegistry.load();
  const runtime = new ModelRuntime(new ModelStore(path.join(ROOT, 'data/models'), registry), registry);
  const models: PrivacyModels = {
    faces: await runtime.detectorSession(PRIVACY_MODEL_NAMES.faces),
    vehicles: await runtime.detectorSession(PRIVACY_MODEL_NAMES.vehicles),
    text: await runtime.detectorSession(PRIVACY_MODEL_NAMES.text),
  };
  await applyPrivacy((await load(photos[0]!.file)).image, models); // untimed: the first run pays for warming up

  const rows: Row[] = [];
  const sheet: Buffer[] = [];
  for (const photo of photos) {
    const { image, bytes } = await load(photo.file);
    if (image.width !== photo.width || image.height !== photo.height) {
      throw new Error(`${photo.file}: boxes drawn on ${photo.width}×${photo.height}, photo is ${image.width}×${image.height}`);
    }
    const start = performance.now();
    const result = await applyPrivacy(image, models);
    const seconds = (performance.now() - start) / 1000;
    const detected = (kind: 'face' | 'plate'): Box[] => result.report.boxes.filter((box) => box.kind === kind);
    const ignore = (photo.ignore ?? []).map((region) => toBox(region.box));
    const faces = score(detected('face'), photo.faces.map(toBox), (box) => box.height >= MIN_FACE_HEIGHT, ignore);
    const plates = score(detected('plate'), photo.plates.map(toBox), (box) => box.width >= MIN_PLATE_WIDTH, ignore);
    rows.push({ file: photo.file, size: `${image.width}×${image.height}`, faces, plates, seconds });
    console.log(`${photo.file}: faces ${faces.found}/${faces.scored} (+${faces.falsePositives}), plates ${plates.found}/${plates.scored} (+${plates.falsePositives}), ${seconds.toFixed(2)} s`);
    if (photo.faces.length + photo.plates.length + result.report.boxes.length > 0) {
      sheet.push(await sheetRow(bytes, photo, result.report.boxes, result.image));
    }
  }

  // The street photo enlarged to about 12 MP: the set's busiest for both detectors.
  const large = await resizeToTwelveMegapixels((await load('exterior_blue_sky_street_07.jpg')).image);
  const privacyStart = performance.now();
  const largeResult = await applyPrivacy(large, models);
  const privacy12 = (performance.now() - privacyStart) / 1000;
  const chainStart = performance.now();
  const toned = enhancePhoto(large).image;
  const skied = replaceSky(toned, loadCatalog().defaultSky).image;
  await applyPrivacy(skied, models);
  const chain12 = (performance.now() - chainStart) / 1000;
  console.log(`12 MP (${large.width}×${large.height}): privacy ${privacy12.toFixed(1)} s, tone + sky + privacy ${chain12.toFixed(1)} s`);

  await writeContactSheet(sheet);
  writeSection('bench-privacy', report(rows, { privacy12, chain12, size: `${large.width}×${large.height}`, found: largeResult.report }));
  await runtime.close();
  console.log(`wrote docs/benchmarks.md (bench-privacy) and ${path.relative(ROOT, CONTACT_SHEET)}`);
}

async function load(file: string): Promise<{ image: RawImage; bytes: Buffer }> {
  const bytes = fs.readFileSync(path.join(PHOTOS, file));
  return { image: (await decodeImage(bytes, PHOTO_LIMITS)).image, bytes };
}

function toBox([x, y, width, height]: Rect): Box {
  return { x, y, width, height };
}

/** Whether a detection stands for a hand box: they overlap by IoU ≥ 0.3, or either covers half the other. */
function matches(detection: Box, truth: Box): boolean {
  return intersectionOverUnion(detection, truth) >= 0.3 || coverage(truth, detection) >= 0.5 || coverage(detection, truth) >= 0.5;
}

/**
 * Recall over the hand boxes that pass `scored`; a detection is a false positive when it stands for no hand box
 * (scored or not) and lies mostly outside every ignore region.
 */
function score(detections: readonly Box[], truths: readonly Box[], scored: (box: Box) => boolean, ignore: readonly Box[]): Score {
  const counted = truths.filter(scored);
  const missed = counted.filter((truth) => !detections.some((detection) => matches(detection, truth)));
  const wrong = detections.filter(
    (detection) => !truths.some((truth) => matches(detection, truth)) && !ignore.some((region) => coverage(detection, region) >= 0.5),
  );
  return { scored: counted.length, found: counted.length - missed.length, falsePositives: wrong.length, missed, wrong };
}

/**
 * Left: the photo with hand boxes (green; ignore regions grey) and detections (faces red, plates cyan). Middle: the
 * result. Right, when the boxes would be too small to judge at the sheet's scale: the result around them, enlarged.
 */
async function sheetRow(bytes: Buffer, photo: HandBoxes, detections: readonly (Box & { kind: string })[], blurred: RawImage): Promise<Buffer> {
  const line = Math.max(2, photo.width / 250);
  const rect = (box: Box, colour: string, dash = ''): string =>
    `<rect x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" fill="none" stroke="${colour}" stroke-width="${line}" ${dash}/>`;
  const svg = `<svg width="${photo.width}" height="${photo.height}">${[
    ...(photo.ignore ?? []).map((region) => rect(toBox(region.box), '#bbbbbb', `stroke-dasharray="${line * 3}"`)),
    ...[...photo.faces, ...photo.plates].map((box) => rect(toBox(box), '#33ff33')),
    ...detections.map((box) => rect(box, box.kind === 'face' ? '#ff3030' : '#30e0ff', `stroke-dasharray="${line * 2}"`)),
  ].join('')}</svg>`;
  const annotated = await sharp(bytes).rotate().composite([{ input: Buffer.from(svg) }]).png().toBuffer();
  const result = sharp(blurred.data, { raw: { width: blurred.width, height: blurred.height, channels: blurred.channels } });
  const panels = [
    await sharp(annotated).resize({ height: SHEET_PANEL_HEIGHT }).png().toBuffer(),
    await result.clone().resize({ height: SHEET_PANEL_HEIGHT }).png().toBuffer(),
  ];
  const boxes = [...photo.faces.map(toBox), ...photo.plates.map(toBox), ...detections];
  const scale = SHEET_PANEL_HEIGHT / photo.height;
  if (boxes.length > 0 && Math.min(...boxes.map((box) => box.height)) * scale < 20) {
    const detail = detailWindow(detections.length > 0 ? detections : boxes, photo);
    panels.push(await result.clone().extract(detail).resize({ height: SHEET_PANEL_HEIGHT }).png().toBuffer());
  }
  const widths = await Promise.all(panels.map(async (panel) => (await sharp(panel).metadata()).width ?? 0));
  const total = widths.reduce((sum, width) => sum + width + 8, -8);
  const caption = `<svg width="${total}" height="22"><text x="4" y="16" font-size="15" fill="#fff">${photo.file}</text></svg>`;
  let left = 0;
  const placed = panels.map((input, i) => {
    const at = { input, left, top: 22 };
    left += widths[i]! + 8;
    return at;
  });
  return sharp({ create: { width: total, height: SHEET_PANEL_HEIGHT + 22, channels: 3, background: '#202020' } })
    .composite([{ input: Buffer.from(caption), left: 0, top: 0 }, ...placed])
    .png()
    .toBuffer();
}

/** The smallest box (detected ones first: they show the blur) and its surroundings: 12 times its height, inside the photo. */
function detailWindow(boxes: readonly Box[], photo: HandBoxes): { left: number; top: number; width: number; height: number } {
  const smallest = boxes.reduce((a, b) => (b.height < a.height ? b : a));
  const height = Math.min(photo.height, Math.max(60, Math.round(smallest.height * 12)));
  const width = Math.min(photo.width, Math.round(height * 1.5));
  const left = Math.min(Math.max(0, Math.round(smallest.x + smallest.width / 2 - width / 2)), photo.width - width);
  const top = Math.min(Math.max(0, Math.round(smallest.y + smallest.height / 2 - height / 2)), photo.height - height);
  return { left, top, width, height };
}

/** Rows packed two to a line where they fit in 1800 px, then stacked. */
async function writeContactSheet(rows: Buffer[]): Promise<void> {
  const sheetWidth = 1800;
  const placed: { input: Buffer; left: number; top: number }[] = [];
  let [left, top, lineHeight] = [0, 0, 0];
  for (const row of rows) {
    const { width = 0, height = 0 } = await sharp(row).metadata();
    if (left > 0 && left + width > sheetWidth) [left, top, lineHeight] = [0, top + lineHeight + 8, 0];
    placed.push({ input: row, left, top });
    left += width + 8;
    lineHeight = Math.max(lineHeight, height);
  }
  const height = top + lineHeight;
  fs.mkdirSync(path.dirname(CONTACT_SHEET), { recursive: true });
  await sharp({ create: { width: sheetWidth, height, channels: 3, background: '#000' } }).composite(placed).jpeg({ quality: 78, mozjpeg: true }).toFile(CONTACT_SHEET);
}

function report(rows: Row[], large: { privacy12: number; chain12: number; size: string; found: { faces: number; plates: number } }): string {
  const total = (pick: (row: Row) => Score, key: 'scored' | 'found' | 'falsePositives'): number => rows.reduce((sum, row) => sum + pick(row)[key], 0);
  const percent = (found: number, scored: number): string => (scored === 0 ? '–' : `${((100 * found) / scored).toFixed(0)} %`);
  const faceRecall = `${total((r) => r.faces, 'found')}/${total((r) => r.faces, 'scored')}`;
  const plateRecall = `${total((r) => r.plates, 'found')}/${total((r) => r.plates, 'scored')}`;
  const seconds = rows.map((row) => row.seconds).sort((a, b) => a - b);
  const listed = (pick: (row: Row) => Box[], kind: string): string[] =>
    rows.flatMap((row) => pick(row).map((box) => `${row.file} ${kind} [${[box.x, box.y, box.width, box.height].map(Math.round).join(', ')}]`));
  const missed = [...listed((row) => row.faces.missed, 'face'), ...listed((row) => row.plates.missed, 'plate')];
  const wrong = [...listed((row) => row.faces.wrong, 'face'), ...listed((row) => row.plates.wrong, 'plate')];
  const lines = rows
    .filter((row) => row.faces.scored + row.plates.scored + row.faces.falsePositives + row.plates.falsePositives > 0)
    .map((row) => `| ${row.file} | ${row.size} | ${row.faces.found}/${row.faces.scored} | ${row.faces.falsePositives} | ${row.plates.found}/${row.plates.scored} | ${row.plates.falsePositives} | ${row.seconds.toFixed(2)} |`);
  return `## Privacy: faces and licence plates (\`npm run bench:privacy\`)

${machineLine()}
Hand-drawn boxes in \`bench/data/privacy-boxes.json\` (see its notes); scored: faces at least ${MIN_FACE_HEIGHT} px tall, plates at
least ${MIN_PLATE_WIDTH} px wide. A detection finds a box when IoU ≥ 0.3 or one covers half of the other; a false positive
finds no hand box of any size and lies mostly outside the ignore regions. Time: the whole \`applyPrivacy\` (detection
and blur), one thread.

| Photo | Size | Faces found | Face FP | Plates found | Plate FP | Time s |
|---|---|---:|---:|---:|---:|---:|
${lines.join('\n')}

All ${rows.length} photos: face recall ${faceRecall} (${percent(total((r) => r.faces, 'found'), total((r) => r.faces, 'scored'))}, target ≥ 95 %), plate recall
${plateRecall} (${percent(total((r) => r.plates, 'found'), total((r) => r.plates, 'scored'))}, target ≥ 85 %); false positives per photo: faces
${(total((r) => r.faces, 'falsePositives') / rows.length).toFixed(2)}, plates ${(total((r) => r.plates, 'falsePositives') / rows.length).toFixed(2)}. Time per photo: median ${seconds[Math.floor(seconds.length / 2)]!.toFixed(2)} s, max ${seconds.at(-1)!.toFixed(2)} s.
Photos not in the table have no hand box and no detection.
Missed: ${missed.join('; ') || 'none'}. False positives: ${wrong.join('; ') || 'none'}.

12 MP: \`exterior_blue_sky_street_07.jpg\` enlarged with Lanczos to ${large.size} (${large.found.faces} faces, ${large.found.plates} plates
blurred): \`applyPrivacy\` ${large.privacy12.toFixed(1)} s; tone, sky replacement and privacy one after the other
${large.chain12.toFixed(1)} s (budget 30 s).
Contact sheet (hand boxes green, ignore grey, faces red, plates cyan | result | the smallest boxes enlarged): [docs/images/privacy-contact-sheet.jpg](images/privacy-contact-sheet.jpg).
`;
}

await main();
