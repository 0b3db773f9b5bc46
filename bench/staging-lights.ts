/**
 * npm run bench:staging-lights — which openings light the stagings (staging/light-estimate.ts showsDaylight), on
 * every empty room photo of the shared sets reduced to 1024 px, analysed as the whole-room stagings analyse them
 * (analyzeWithSecondOpinion with the room network). Per photo: every window, French door and door the analysis found,
 * what it shows (brightness over a white wall, variation, clipped share) and whether it became a light, beside what
 * the rule before showsDaylight lit (every window and French door; doors brighter than a white wall by 30 %). The
 * thresholds were set on the empty rooms; the furnished photos of ../shared/testdata/rooms (not the panorama) are
 * counted apart, as photos the rule was not tuned on. Contact sheet (openings outlined: green a light, red not a light, with their index as in the job's `lights`) in
 * docs/images/staging-lights.jpg, for a person to judge what each opening is.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { loadConfig } from '../src/config/config.js';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import { analyzeWithSecondOpinion, chooseLineSources } from '../src/services/operations/line-source-choice.js';
import { roomLayoutDoubt } from '../src/services/staging/stage-room.js';
import { DAYLIGHT_BRIGHTNESS, estimateLight } from '../src/staging/light-estimate.js';
import { roomFromLines } from '../src/staging/room-from-lines.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { sheetRow, writeSheet } from './contact-sheet.js';
import { machineLine, writeSection } from './report.js';
import { emptyRoomPhotos, PHOTOS, readPhoto, ROOT } from './shared-photos.js';

const SHEET = path.join(ROOT, 'docs/images/staging-lights.jpg');

/** Openings and lights over one set of photos. */
interface Tally {
  found: number;
  windows: number;
  litBefore: number;
  litNow: number;
  turnedOff: string[];
  turnedOn: string[];
}

const summary = (t: Tally) =>
  `Openings found: ${t.found} (${t.windows} windows and French doors). Lights before: ${t.litBefore}; now: ${t.litNow}. Turned off: ${t.turnedOff.length} (${t.turnedOff.join(', ') || 'none'}). Turned on: ${t.turnedOn.length} (${t.turnedOn.join(', ') || 'none'}).`;

/** The photo with each opening's outline and index drawn on it. */
async function outlined(image: RawImage, openings: { polygon: [number, number][]; lit: boolean; label: string }[]): Promise<RawImage> {
  const shapes = openings.map((o) => {
    const points = o.polygon.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
    const [x, y] = o.polygon[3]!;
    const colour = o.lit ? '#0f0' : '#f00';
    return `<polygon points="${points}" fill="none" stroke="${colour}" stroke-width="3"/><text x="${Math.max(2, x + 4).toFixed(0)}" y="${Math.max(14, y + 16).toFixed(0)}" font-family="sans-serif" font-size="16" fill="${colour}">${o.label}</text>`;
  });
  const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${image.width}" height="${image.height}">${shapes.join('')}</svg>`);
  const { data, info } = await sharp(Buffer.from(image.data), { raw: { width: image.width, height: image.height, channels: 3 } })
    .composite([{ input: svg, left: 0, top: 0 }])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 };
}

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const registry = ModelRegistry.load();
  const runtime = new ModelRuntime(new ModelStore(config.models.cacheDir, registry), registry, { intraOpNumThreads: 2 });
  const lines = await chooseLineSources(runtime, { roomNetwork: true });
  const rows: string[] = [];
  const tiles: Buffer[] = [];
  const furnished = fs.readdirSync(PHOTOS).filter((f) => f.startsWith('furnished_') && !f.includes('pano')).map((f) => path.join(PHOTOS, f)).sort();
  const sets = { empty: emptyRoomPhotos(), furnished };
  const tallies: Record<keyof typeof sets, Tally> = {
    empty: { found: 0, windows: 0, litBefore: 0, litNow: 0, turnedOff: [], turnedOn: [] },
    furnished: { found: 0, windows: 0, litBefore: 0, litNow: 0, turnedOff: [], turnedOn: [] },
  };
  for (const [set, files] of Object.entries(sets) as [keyof typeof sets, string[]][]) {
    const tally = tallies[set];
    for (const file of files) {
      const image = await readPhoto(file, 1024);
      const { analysis } = await analyzeWithSecondOpinion(image, lines, roomLayoutDoubt, undefined, { fitToMap: true });
      const room = roomFromLines(analysis, false);
      const light = estimateLight(image, room);
      const name = path.basename(file);
      const cells: string[] = [];
      const shapes: { polygon: [number, number][]; lit: boolean; label: string }[] = [];
      for (const [index, opening] of room.openings.entries()) {
        const seen = light.openings[index]!;
        if (!seen.view) {
          cells.push(`${seen.from} not in the photo`);
          continue;
        }
        // The rule before: every window and French door, doors brighter than a white wall by 30 %; then as now a
        // light also needs a rectangle of more than 0.1 m each way.
        const sized = opening.u1 - opening.u0 > 0.1 && opening.top - opening.bottom > 0.1;
        const before = (opening.kind !== 'door' || seen.view.brightness >= DAYLIGHT_BRIGHTNESS) && sized;
        tally.found++;
        if (opening.kind !== 'door') tally.windows++;
        if (before) tally.litBefore++;
        if (seen.lit) tally.litNow++;
        if (before && !seen.lit) tally.turnedOff.push(`${name} ${seen.from}`);
        if (!before && seen.lit) tally.turnedOn.push(`${name} ${seen.from}`);
        const { brightness, variation, clippedShare } = seen.view;
        cells.push(`${seen.from} ${brightness.toFixed(2)} / ${variation.toFixed(2)} / ${clippedShare.toFixed(2)}${seen.lit ? '' : ' **off**'}${before && !seen.lit ? ' (lit before)' : ''}${!before && seen.lit ? ' (not lit before)' : ''}`);
        shapes.push({ polygon: opening.polygon, lit: seen.lit, label: String(index) });
      }
      rows.push(`| ${name} | ${room.openings.length} | ${cells.join('; ') || '–'} |`);
      console.log(rows[rows.length - 1]);
      tiles.push(await sheetRow([await outlined(image, shapes)], `${name}: ${shapes.filter((s) => s.lit).length} of ${shapes.length} openings a light (green), red not`, 360));
    }
  }
  await runtime.close();
  await writeSheet(tiles, SHEET);
  const md = [
    '## Which openings light a staging (`npm run bench:staging-lights`)',
    '',
    machineLine(),
    '',
    "Every empty room photo of the shared sets (18), and apart the furnished photos of ../shared/testdata/rooms but the panorama (7), which the",
    'thresholds were not set on, at 1024 px, analysed as the whole-room stagings analyse them; each window, French door and door',
    'the analysis found, with what it shows: brightness (its mean linear luminance over a white wall of the photo), variation (the standard',
    "deviation of its luminance over the mean) and the share of its pixels clipped. It lights the staging where it shows daylight",
    '(showsDaylight, docs/decisions/0011): brightness at least 1.3, or at least half of it clipped, or, a window or French door, brightness at',
    'least 0.25 and variation at least 0.2. Before, every window and French door was a light, and doors brighter than 1.3.',
    'Contact sheet (green a light, red not; the index is the one in the staging job\'s `lights`):',
    '[docs/images/staging-lights.jpg](images/staging-lights.jpg).',
    '',
    `Empty rooms (the thresholds set on them): ${summary(tallies.empty)}`,
    '',
    `Furnished photos (not tuned on): ${summary(tallies.furnished)}`,
    '',
    '| Photo | Openings | Each: brightness / variation / clipped share |',
    '|---|---:|---|',
    ...rows,
  ].join('\n');
  writeSection('staging-lights', md);
  console.log(md);
}

await main();
