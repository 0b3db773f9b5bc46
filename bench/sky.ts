/**
 * `npm run bench:sky`: sky segmentation against skies outlined by hand (bench/data/sky-masks.json), the classifier's
 * verdict on every photo of the shared set, timings at native size and at 12 MP, and a contact sheet
 * (photo | detected sky with the hand outline | replaced sky) in docs/images/sky-contact-sheet.jpg; and on the exterior
 * photos of ../shared/testdata/exteriors, what sky_fix alone changes inside hand boxes of sky and of things that are not
 * sky (enhanced vs enhanced + sky_fix), with a contact sheet in docs/images/sky-exteriors-contact-sheet.jpg.
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
import { LINEAR_OF_BYTE, labOfLinearRgb, type Lab } from '../src/vision/colour.js';
import { enhancePhoto } from '../src/vision/enhance/enhance.js';
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
  const exteriors = await exteriorBoxes();
  await writeExteriorSheet(exteriors.sheet);
  writeSection('bench-sky', report(rows, verdicts, exteriorReport(exteriors.rows)));
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

function report(rows: Row[], verdicts: string[], exteriors: string[]): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(2);
  return [
    '## Sky segmentation and replacement (`npm run bench:sky`)',
    '',
    machineLine(),
    'Skies outlined by hand in `bench/data/sky-masks.json` (crowns of bare trees marked ignore, see its notes). IoU of',
    '"matte ≥ 0.5" against the outline over the scored pixels. Detect = working-copy segmentation, classification and',
    'full-resolution matte; replace = the whole `replaceSky` (for blue skies the replacement is forced, so that the',
    'composite is timed too). 12 MP = the photo enlarged with Lanczos to about 12 megapixels. The IoU and the magenta',
    'panel are those of the sky walked from the top and grown beside it: the sky replaceSky adds through a bare crown',
    '(outdoor_grey_sky_branches_06, whose crowns the outline ignores) is seen in the result panel only.',
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
    '',
    '### What sky_fix alone changes on exterior photos',
    '',
    'The 16 photos of `../shared/testdata/exteriors` (boxes in its `boxes.json`: boxes wholly in sky, boxes wholly on',
    'things that are not sky: walls, siding, garage doors, road markings, snow, windows), each scaled to 2,048 px on its',
    'longer side, enhanced, then enhanced + sky_fix; the two are compared. Per photo the worst not_sky box: median shift',
    'of CIE b* (negative = toward blue), mean luma gradient after over before, median change of L*; the not_sky-box',
    'pixels whose bytes changed at all; and the share of sky-box pixels whose bytes changed. sky_fix lifts nothing',
    '(docs/api.md), so the L* target is 0. The bench adds not_sky boxes of its own to the shared ones',
    '(`bench/data/sky-exterior-boxes.json`, 11 boxes on 4 photos), drawn where a mask of this work, or of the version',
    'before it, took something for sky that no shared box covered: the cream pilasters, concrete tower face, glass',
    'facade and white banner at the top border of grey_street_road_markings_04 (the version before one-sky painted them',
    'blue: worst Δb* −19.7, 39,799 of their pixels changed), the lamp post and glass tower of',
    'grey_street_crosswalk_haze_05, the hazy tower and horizon block of grey_street_glass_facade_haze_08, the mill',
    'tower of grey_snow_roofs_mill_06. They are known failure places, not a sample.',
    '',
    'These photos are all we have: the skyline rule and its thresholds were tuned while looking at them (and at the',
    'exterior photos of the rooms set above), so the figures are not those of unseen photos. Issue 15 moved or added,',
    'looking at them: the walk from the top no longer steps over thin dark lines (a parapet over a wall of the sky\'s white',
    'is the same line as a wire; but see the third round below); one sky, 0.06 (a separate piece whose colour is off the',
    'main sky\'s by more is dropped: the pieces dropped here are 0.10–0.39 off, the pieces of one sky seen on both sides of',
    'the crown of grey_bare_tree_branches_07 0.013–0.019); sky beside and below what stopped the walk, grown sideways and',
    'down, kept only where it joins the walked sky side by side without a step of more than 0.012 (same sky: 0.006 at most',
    'here; a drawn wall 6 levels darker than the sky: 0.024), through 3 pixels of clearance (a second guard: the first',
    'version of this growth, with neither, carried a 3-pixel leak at a roof junction of grey_white_apartments_white_sky_03',
    'across its wall) and stopped by soft steps of 0.045 over 3 pixels (the hazy rooflines of',
    'grey_street_glass_facade_haze_08 measure 0.06 and more); and the classifier\'s exception for an overcast sky outshone',
    'on average by snow or a sunlit wall (its brightest 5 % must outshine 95 % of the rest, and its skyline be crisp:',
    'median step ≥ 0.17, set between 0.121 on the interiors and 0.226 on these exteriors; the brightness margins are thin,',
    '0.020–0.025, and blue_mint_tower_12, a pale blue sky the white balance turned grey, is refused by 0.021). The two',
    'refusals kept their thresholds: `sky_below_skyline`, median step under the sky\'s end < 0.1, between 0.071 on',
    'outdoor_grey_sky_branches_06 and 0.117 on grey_fog_glass_tower_10, the lowest of the others; `hazy_skyline`, weak',
    'steps over > 10 % of the width, between 0.077 on grey_street_glass_facade_haze_08 (its grown sky ends on hazy blocks',
    'on the horizon) and 0.136 on grey_fog_glass_tower_10. What the second round of issue 15 added before either',
    'refusal, also while looking at these photos: the sky through a bare crown (a veil: what the floods reached below',
    'the walk, >= 25 % textured, 0.82 in the crown of grey_bare_tree_branches_07 and 0.34 around the drawn tree of the',
    'tests; the brightest pixel near three quarters of it within 0.04 luma of the open sky, 0.029 in that crown and 0.031',
    'in its centre\'s pockets, against 0.07 and 0.12 on the pale facades of grey_street_crosswalk_haze_05 that the flood',
    'also reaches; open sky >= 10 % of the frame, 0.17 there, where the two leafy canopies of the rooms set with 0.01 and',
    '0.02 took a blue cast on their leaves; pockets cut off by straight limbs within 10 working pixels of the veil, the',
    'limbs there being 7-9 thick; declined when one sky drops more than 5 % of the whole, 0.7 % there and 29 % on',
    'exterior_grey_sky_house_02 enlarged to 12 MP, whose sky would have stayed white on one side of the house); and',
    'the first consistent soft edge under a hazy sky (a soft step >= 0.025 over 3',
    'pixels, the fogged top of grey_fog_glass_tower_10 measuring 0.03-0.05 and its fog 1 level in 10 rows; the sky\'s',
    'colour within 0.06 above it; running on across 2 % of the width with <= 4 rows between columns, the tower\'s top',
    'corner falling 3 a column). A third round added one more step before `sky_below_skyline`, for',
    'grey_street_crosswalk_haze_05, whose walk stopped at the wires across its whole sky. When a grey sky goes on below',
    'the walk and is no veil, the walk now steps over thin lines, from the one sky only: a line of at most 10 rows down',
    'a column (there the wires take 1-3 working pixels, the signal arm 5-8, the street sign 14) with 3 open pixels',
    'below it. What it lands on is kept only when the sky just below the line has the colour of the sky just above it',
    '(mean step <= 0.018: 0.011 at most on the pieces kept there, a wall 6 levels off the sky 0.024), and when no sky',
    'lies beside it across a thin line (0 rows on every piece kept there; a wall of the sky\'s own white under a',
    'parapet has the sky beside it all the way down its corners). From where it lands it grows sideways and down,',
    'through 2 pixels of clearance, within 0.03 of the sky\'s colour: the sky under the street sign, reached past the',
    'sign\'s end, is within 0.017. The whole must again be a grey sky that ends at a clear skyline, judged below the',
    'wires. The wires keep their own pixels; the matte gives their edge pixels their share of sky, as for twigs.',
    'grey_street_crosswalk_haze_05 is now replaced, with 0 of its not_sky-box pixels changed. Small pieces of old sky',
    'stay next to the wires and the arm, where a piece was too narrow or off in colour (seen on the contact sheet). No',
    'other photo here takes the step: only a sky declined as going on below its skyline does. In the rooms set,',
    'exterior_grey_sky_house_02 takes it and stays declined (its bare crowns are no wires: median step 0.063 after the',
    'step). A fourth round closed a hole in the crown step, found with a drawn scene, not on these photos: a street',
    'canyon with wires across its whole sky over a wall of the sky\'s own white with two storeys of windows, behind a',
    'parapet with a gap. Wires and windows made what the floods reached below the walk 30 % textured, with the sky\'s',
    'colour between the window frames, so it passed for a crown and 75 % of the wall was painted; a plain wall, or one',
    'with siding, beside a drawn crown was painted the same way. Colour cannot tell such a wall from sky; its structure',
    'can. A crown\'s twigs run every way and the sky between them steps at every pixel; a facade is straight edges along',
    'rows and columns, with panels framed by straight sides. So the crown step is now declined when what it would add',
    'holds either. First, cells of 24 working pixels whose edges run along rows and columns both, or along 3 parallel',
    'lines (window frames, siding), covering more than 1.5 % of the frame: the bare crowns here 0-0.28 %, the drawn',
    'tree of the tests 0.84 %, the facades the floods reach on these photos 2.25-7.1 %. Second, a piece or smooth panel',
    'with more than 0.6 of its sides on straight runs of 12 pixels along a row or column: the crowns 0.20-0.47, the',
    'drawn tree 0.53, the walls 0.61-0.98. The drawn canyon is now replaced beyond the wires with its wall untouched. A',
    'crown with such a wall beside it, reached through the gap, is now declined: a miss, not a painted wall. No photo',
    'of either set changes verdict (grey_bare_tree_branches_07: 0 % and 0.31; outdoor_grey_sky_branches_06: 0 % and',
    '0.29). A photo left alone keeps',
    'its grey sky: its sky-box share is 0 and counts as a miss against the 95 % target. The sky boxes of',
    'grey_bare_tree_branches_07 lie in branch-free sky only: what is left of the old sky in its crown (thin white rims',
    'along some limbs, a few small pockets) is seen on the contact sheet, not in the figures. Contact sheet',
    '`docs/images/sky-exteriors-contact-sheet.jpg` (input | enhanced | enhanced + sky_fix).',
    '',
    ...exteriors,
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

const EXTERIORS = path.resolve(ROOT, '../shared/testdata/exteriors');
const EXTERIOR_SHEET = path.join(ROOT, 'docs/images/sky-exteriors-contact-sheet.jpg');
/** not_sky boxes the bench adds to the shared ones, where masks took something for sky that no shared box covered. */
const EXTRA_BOXES = path.join(ROOT, 'bench/data/sky-exterior-boxes.json');
/** The exteriors are analysed at this longer side (the largest is 24 MP); boxes are scaled with them. */
const EXTERIOR_LONG_SIDE = 2048;
type Box = [number, number, number, number];

interface ExteriorRow {
  file: string;
  sky: string;
  reason: string;
  /** Per not_sky box: median Δb*, texture after/before, median ΔL*. */
  boxes: { db: number; texture: number; dl: number }[];
  /** not_sky-box pixels whose bytes changed, of how many. */
  notSkyChanged: number;
  notSkyTotal: number;
  /** Share of sky-box pixels whose bytes changed. */
  skyChanged: number;
}

/**
 * What sky_fix alone does to each exterior photo: the photo enhanced, then enhanced + sky_fix, compared in the
 * boxes of boxes.json (not_sky: Δb*, texture kept, ΔL*; sky: share of pixels changed).
 */
async function exteriorBoxes(): Promise<{ rows: ExteriorRow[]; sheet: Buffer[] }> {
  const boxes = JSON.parse(fs.readFileSync(path.join(EXTERIORS, 'boxes.json'), 'utf8')) as Record<string, { sky: Box[]; not_sky: Box[] }>;
  const extra = (JSON.parse(fs.readFileSync(EXTRA_BOXES, 'utf8')) as { photos: Record<string, { not_sky: Box[] }> }).photos;
  for (const [file, added] of Object.entries(extra)) boxes[file]!.not_sky.push(...added.not_sky);
  const manifest = fs.readFileSync(path.join(EXTERIORS, 'MANIFEST.csv'), 'utf8').trim().split('\n').slice(1);
  const rows: ExteriorRow[] = [];
  const sheet: Buffer[] = [];
  for (const line of manifest) {
    const [file, skyKind] = line.split(',') as [string, string];
    const { image: full } = await decodeImage(fs.readFileSync(path.join(EXTERIORS, file)), PHOTO_LIMITS);
    const scale = Math.min(1, EXTERIOR_LONG_SIDE / Math.max(full.width, full.height));
    const image = scale < 1 ? await resized(full, scale) : full;
    const enhanced = enhancePhoto(image).image;
    const fixed = replaceSky(enhanced, loadCatalog().defaultSky);
    const scaleBox = (box: Box): Box => box.map((v) => Math.round(v * scale)) as Box;
    const entry = boxes[file]!;
    const notSky = entry.not_sky.map(scaleBox);
    rows.push({
      file,
      sky: skyKind,
      reason: fixed.report.reason,
      boxes: notSky.map((box) => boxChange(enhanced, fixed.image, box)),
      notSkyChanged: Math.round(changedShare(enhanced, fixed.image, notSky) * boxPixels(notSky)),
      notSkyTotal: boxPixels(notSky),
      skyChanged: changedShare(enhanced, fixed.image, entry.sky.map(scaleBox)),
    });
    sheet.push(await threePanels(image, enhanced, fixed.image, `${file} — ${skyKind} sky: ${fixed.report.reason}`));
    console.log(`${file}: ${fixed.report.reason}`);
  }
  return { rows, sheet };
}

async function resized(image: RawImage, scale: number): Promise<RawImage> {
  const width = Math.round(image.width * scale);
  const height = Math.round(image.height * scale);
  const data = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels as 3 } })
    .resize(width, height, { kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  return { data: new Uint8Array(data), width, height, channels: image.channels };
}

function labAt(image: RawImage, i: number, out: Lab): Lab {
  const o = i * image.channels;
  return labOfLinearRgb(LINEAR_OF_BYTE[image.data[o]!]!, LINEAR_OF_BYTE[image.data[o + 1]!]!, LINEAR_OF_BYTE[image.data[o + 2]!]!, out);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)]!;
}

/** Median Δb* and ΔL* (after − before) and mean gradient after over before, inside one box. */
function boxChange(before: RawImage, after: RawImage, [x0, y0, x1, y1]: Box): { db: number; texture: number; dl: number } {
  const db: number[] = [];
  const dl: number[] = [];
  const a: Lab = { lightness: 0, a: 0, b: 0 };
  const b: Lab = { lightness: 0, a: 0, b: 0 };
  let gradientBefore = 0;
  let gradientAfter = 0;
  const { width } = before;
  const luma = (image: RawImage, i: number) => image.data[i * image.channels]! * 0.299 + image.data[i * image.channels + 1]! * 0.587 + image.data[i * image.channels + 2]! * 0.114;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = y * width + x;
      labAt(before, i, a);
      labAt(after, i, b);
      db.push(b.b - a.b);
      dl.push(b.lightness - a.lightness);
      if (x + 1 < x1 && y + 1 < y1) {
        gradientBefore += Math.abs(luma(before, i + 1) - luma(before, i)) + Math.abs(luma(before, i + width) - luma(before, i));
        gradientAfter += Math.abs(luma(after, i + 1) - luma(after, i)) + Math.abs(luma(after, i + width) - luma(after, i));
      }
    }
  }
  return { db: median(db), dl: median(dl), texture: gradientBefore > 0 ? gradientAfter / gradientBefore : 1 };
}

function boxPixels(boxes: Box[]): number {
  return boxes.reduce((sum, [x0, y0, x1, y1]) => sum + (x1 - x0) * (y1 - y0), 0);
}

function changedShare(before: RawImage, after: RawImage, boxes: Box[]): number {
  let changed = 0;
  let total = 0;
  for (const [x0, y0, x1, y1] of boxes) {
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const o = (y * before.width + x) * before.channels;
        total++;
        if (before.data[o] !== after.data[o] || before.data[o + 1] !== after.data[o + 1] || before.data[o + 2] !== after.data[o + 2]) changed++;
      }
    }
  }
  return total > 0 ? changed / total : 0;
}

/** input | enhanced | enhanced + sky_fix, one row with a caption. */
async function threePanels(input: RawImage, enhanced: RawImage, fixed: RawImage, caption: string): Promise<Buffer> {
  const rowHeight = 300;
  const panelWidth = Math.round((input.width * rowHeight) / input.height);
  const panel = (image: RawImage) =>
    sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels as 3 } })
      .removeAlpha()
      .resize(panelWidth, rowHeight, { kernel: 'lanczos3' })
      .png()
      .toBuffer();
  const gap = 6;
  const captionHeight = 22;
  const text = `<svg ${svgSize(3 * panelWidth + 2 * gap, captionHeight)}><text x="4" y="16" font-family="sans-serif" font-size="14" fill="#eee">${escapeXml(caption)}</text></svg>`;
  const panels = [await panel(input), await panel(enhanced), await panel(fixed)];
  return sharp({ create: { width: 3 * panelWidth + 2 * gap, height: rowHeight + captionHeight, channels: 3, background: '#202020' } })
    .composite([{ input: Buffer.from(text), left: 0, top: 0 }, ...panels.map((input, k) => ({ input, left: k * (panelWidth + gap), top: captionHeight }))])
    .png()
    .toBuffer();
}

async function writeExteriorSheet(rows: Buffer[]): Promise<void> {
  const metas = await Promise.all(rows.map((row) => sharp(row).metadata()));
  const width = Math.max(...metas.map((m) => m.width!));
  const layers: OverlayOptions[] = [];
  let top = 0;
  for (let k = 0; k < rows.length; k++) {
    layers.push({ input: rows[k]!, left: 0, top });
    top += metas[k]!.height! + 8;
  }
  await sharp({ create: { width, height: top - 8, channels: 3, background: '#202020' } })
    .composite(layers)
    .jpeg({ quality: 78, mozjpeg: true })
    .toFile(EXTERIOR_SHEET);
}

function exteriorReport(rows: ExteriorRow[]): string[] {
  const pass = (ok: boolean) => (ok ? 'pass' : '**miss**');
  const lines = rows.map((row) => {
    const worstDb = Math.min(...row.boxes.map((box) => box.db));
    const worstTexture = Math.min(...row.boxes.map((box) => box.texture));
    const worstDl = Math.max(...row.boxes.map((box) => Math.abs(box.dl)));
    const skyOk = row.sky === 'grey' ? row.skyChanged >= 0.95 : row.skyChanged === 0;
    return (
      `| ${row.file} | ${row.sky} | ${row.reason} | ${worstDb.toFixed(2)} ${pass(worstDb > -3)} | ${worstTexture.toFixed(3)} ${pass(worstTexture >= 0.9)} ` +
      `| ${worstDl.toFixed(2)} ${pass(worstDl <= 0)} | ${row.notSkyChanged} of ${row.notSkyTotal.toLocaleString('en-GB')} ${pass(row.notSkyChanged === 0)} ` +
      `| ${(100 * row.skyChanged).toFixed(1)} % ${pass(skyOk)} |`
    );
  });
  return [
    '| Photo | Sky | sky_fix | Worst not_sky median Δb* (> −3) | Worst texture after/before (≥ 0.9) | Worst \\|median ΔL*\\| (0: no lift) | not_sky-box pixels changed (0) | Sky-box pixels changed (grey ≥ 95 %, blue 0) |',
    '|---|---|---|---:|---:|---:|---:|---:|',
    ...lines,
  ];
}

await main();
