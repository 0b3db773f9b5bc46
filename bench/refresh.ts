/**
 * npm run bench:refresh — POST /v1/refresh's engine (services/refresh/refresh-photo.ts, the service's models) on the
 * shared photos: every empty room of ../shared/testdata/empty-rooms and the empty and furnished rooms of
 * ../shared/testdata/rooms, reduced to --long-side px. Each photo gets its walls repainted in two colours and its floor
 * relaid in two materials, as the service runs it: walls on the lines' layout and, beside it, with the room networks' box
 * first (refreshPhoto handed lines with the networks: at 0.6, showing the floor); floors with the networks' box first
 * and checked against the floor the networks see (docs/decisions/0025). Per photo and request:
 *  - the outcome (changed, or unchanged with the reason);
 *  - pixels changed outside the returned change mask (target 0) and window or door pixels changed (target 0; the
 *    openings the geometry analysis found, and those drawn by hand in bench/data/photo-layouts.json);
 *  - walls: the repainted walls' colour against the target under the photo's light, CIEDE2000 between the mean
 *    colours (the paint × the light's colour × the photo's luminance over the old paint's albedo, as the engine
 *    models it) and its median per pixel; and the mean colour with the light's colour divided out against the paint
 *    at the same luminance (hue and chroma kept through the light's local tint, the texture and the gamut);
 *  - walls: the high-frequency residual of output luminance over input luminance on the repainted walls (the ratio
 *    less its 9 × 9 local mean, RMS, over the mean ratio): near 0 when the photo's shading is kept.
 * Writes the contact sheet docs/images/refresh-contact-sheet.jpg (input | walls | floor, one colour and one material
 * per photo in turn), prints the table and writes it into docs/benchmarks.md (section bench-refresh).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import { OBJECT_MODEL_NAMES, type ObjectDetectors } from '../src/services/declutter/detect-objects.js';
import { chooseLineSources, withoutRoomNetwork, type ChosenLines } from '../src/services/operations/line-source-choice.js';
import { PAINT_COLOURS } from '../src/services/operations/refresh.js';
import { refreshPhoto, type RefreshRequest } from '../src/services/refresh/refresh-photo.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { floorMaterial } from '../src/catalog/floor-materials.js';
import { sheetRow, writeSheet } from './contact-sheet.js';
import { drawnOpeningsMask } from './layout-scoring.js';
import { machineLine, writeSection } from './report.js';
import { EMPTY_ROOM_PHOTOS, PHOTOS, readPhoto, ROOT } from './shared-photos.js';
import { median } from './statistics.js';
import { measureRepaintedWalls } from './wall-paint.js';

const SHEET = path.join(ROOT, 'docs/images/refresh-contact-sheet.jpg');
const COLOURS = ['terracotta', 'deep blue'] as const;
const MATERIALS = ['parquet', 'tile'] as const;

interface Outcome {
  request: string;
  changed: boolean;
  reason?: string;
  outsideMask: number;
  /** Changed pixels of the windows and doors the refresh kept out, and of those drawn by hand. */
  openingPixels: number;
  drawnOpeningPixels: number;
  deltaE?: number;
  deltaEPixels?: number;
  /** The mean repainted colour with the light's colour divided out, against the paint at the same luminance. */
  deltaEBalanced?: number;
  residual?: number;
  /** Floors: the share of the floor the network sees that the relaid floor would leave, where the check ran. */
  floorLeft?: number;
  /** The share of the relaid floor's edge along which the floor seen goes on (floorSeen.openEdgeShare). */
  floorOpenEdge?: number;
  /** Whose box the refresh built on (the job's `layout.evidence`). */
  layout?: string;
  seconds: number;
}

async function measure(image: RawImage, request: RefreshRequest, lines: ChosenLines, detectors: ObjectDetectors | undefined, drawn: Uint8Array): Promise<{ outcome: Outcome; output: RawImage }> {
  const started = performance.now();
  const done = await refreshPhoto(image, request, { lines, ...(detectors ? { detectors } : {}) });
  const refresh = done.result.refresh as {
    unchanged: boolean;
    unchangedReason?: string;
    light?: { cast: number[] };
    oldAlbedo?: number;
    layout?: { evidence: string };
    floorSeen?: { leftShare: number; openEdgeShare: number };
  };
  const { width, height } = image;
  const outcome: Outcome = { request: request.value, changed: !refresh.unchanged, outsideMask: 0, openingPixels: 0, drawnOpeningPixels: 0, seconds: 0 };
  if (refresh.unchangedReason) outcome.reason = refresh.unchangedReason;
  if (refresh.layout) outcome.layout = refresh.layout.evidence;
  if (refresh.floorSeen) {
    outcome.floorLeft = refresh.floorSeen.leftShare;
    outcome.floorOpenEdge = refresh.floorSeen.openEdgeShare;
  }
  const out = done.image.data;
  for (let p = 0; p < width * height; p++) {
    const differs = out[p * 3] !== image.data[p * 3] || out[p * 3 + 1] !== image.data[p * 3 + 1] || out[p * 3 + 2] !== image.data[p * 3 + 2];
    if (differs && !done.changeMask?.[p]) outcome.outsideMask++;
    if (differs && done.openings[p]) outcome.openingPixels++;
    if (differs && drawn[p]) outcome.drawnOpeningPixels++;
  }
  if (request.transformation === 'walls' && done.changeMask && refresh.light && refresh.oldAlbedo) {
    Object.assign(outcome, measureRepaintedWalls(image, done.image, Uint8Array.from(done.changeMask, (v) => (v ? 1 : 0)), { paint: request.paint, cast: refresh.light.cast, oldAlbedo: refresh.oldAlbedo }));
  }
  outcome.seconds = (performance.now() - started) / 1000;
  return { outcome, output: done.image };
}

function describe(outcome: Outcome): string {
  const left = outcome.floorLeft === undefined ? '' : `, floor seen left ${(100 * outcome.floorLeft).toFixed(1)} %, edge open ${(100 * outcome.floorOpenEdge!).toFixed(1)} %`;
  if (!outcome.changed) return `unchanged (${outcome.reason}${left})`;
  const colour = outcome.deltaE !== undefined
    ? `, ΔE00 ${outcome.deltaE.toFixed(1)} (median per pixel ${outcome.deltaEPixels!.toFixed(1)}; white-balanced ${outcome.deltaEBalanced!.toFixed(1)}), HF residual ${(100 * outcome.residual!).toFixed(2)} %`
    : '';
  return `changed${colour}${left}, outside mask ${outcome.outsideMask}, openings ${outcome.openingPixels} (drawn ${outcome.drawnOpeningPixels})`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { 'long-side': { type: 'string', default: '1024' } } });
  const longSide = Number(values['long-side']);
  const registry = ModelRegistry.load();
  const runtime = new ModelRuntime(new ModelStore(path.join(ROOT, 'data/models'), registry), registry, { intraOpNumThreads: 1 });
  // As the service runs it (walls on the lines alone, floors with the networks) and, beside the walls, with the room
  // networks' box first (docs/decisions/0022).
  const withNetwork = await chooseLineSources(runtime, { roomNetwork: true });
  const lines = withoutRoomNetwork(withNetwork);
  const optional = async (name: string) => ((await runtime.isInstalled(name)) ? await runtime.detectorSession(name) : undefined);
  const centernet = await optional(OBJECT_MODEL_NAMES.centernet);
  const nanodet = await optional(OBJECT_MODEL_NAMES.nanodet);
  const objectron = await optional(OBJECT_MODEL_NAMES.objectron);
  const detectors: ObjectDetectors | undefined = centernet ? { centernet, ...(nanodet ? { nanodet } : {}), ...(objectron ? { objectron } : {}) } : undefined;
  const files = [
    ...fs.readdirSync(EMPTY_ROOM_PHOTOS).filter((f) => /\.(jpe?g|png|webp)$/i.test(f)).map((f) => path.join(EMPTY_ROOM_PHOTOS, f)),
    ...fs.readdirSync(PHOTOS).filter((f) => /^(empty|furnished)_/.test(f) && !/pano360/.test(f)).map((f) => path.join(PHOTOS, f)),
  ].sort();

  const rows: string[] = [];
  const all: Outcome[] = [];
  const networkFirst: Outcome[] = [];
  const tiles: Buffer[] = [];
  for (const [index, file] of files.entries()) {
    const image = await readPhoto(file, longSide);
    const name = path.basename(file);
    const drawn = drawnOpeningsMask(name, image.width, image.height);
    const walls: Outcome[] = [];
    const floors: Outcome[] = [];
    const wallsNetwork: Outcome[] = [];
      const shown: RawImage[] = [image];
    for (const [k, colour] of COLOURS.entries()) {
      const request: RefreshRequest = { transformation: 'walls', value: colour, paint: PAINT_COLOURS[colour] };
      const { outcome, output } = await measure(image, request, lines, detectors, drawn);
      walls.push(outcome);
      wallsNetwork.push((await measure(image, request, withNetwork, detectors, drawn)).outcome);
      if (k === index % COLOURS.length) shown.push(output);
    }
    for (const [k, id] of MATERIALS.entries()) {
      const request: RefreshRequest = { transformation: 'floor', value: id, material: floorMaterial(id)!, seed: 1 };
      const { outcome, output } = await measure(image, request, withNetwork, detectors, drawn);
      floors.push(outcome);
      if (k === index % MATERIALS.length) shown.push(output);
    }
    all.push(...walls, ...floors);
    networkFirst.push(...wallsNetwork);
    const cell = (served: Outcome[], network: Outcome[]) =>
      served.map((o, k) => `${o.request}: ${describe(o)}${network[k]!.changed === o.changed && network[k]!.reason === o.reason ? '' : ` (network first: ${describe(network[k]!)})`}`).join('; ');
    const row = `| ${name} | ${wallsNetwork[0]!.layout ?? '–'} | ${cell(walls, wallsNetwork)} | ${floors.map((o) => `${o.request}: ${describe(o)}`).join('; ')} |`;
    rows.push(row);
    console.log(row);
    const wall = walls[index % COLOURS.length]!;
    const floor = floors[index % MATERIALS.length]!;
    tiles.push(
      await sheetRow(
        shown,
        `${name} — walls ${wall.request}: ${wall.changed ? 'repainted' : `unchanged (${wall.reason})`} | floor ${floor.request}: ${floor.changed ? 'relaid' : `unchanged (${floor.reason})`}`,
        260,
      ),
    );
  }
  await writeSheet(tiles, SHEET);

  const repainted = (list: Outcome[]) => list.filter((o) => o.changed && o.deltaE !== undefined);
  const changedWalls = repainted(all);
  const count = (list: Outcome[], key: 'outsideMask' | 'openingPixels' | 'drawnOpeningPixels') => list.reduce((n, o) => n + o[key], 0);
  const fromNetwork = networkFirst.filter((o, k) => k % COLOURS.length === 0 && o.layout === 'network').length;
  const floorsAll = all.filter((o) => o.deltaE === undefined && MATERIALS.includes(o.request as (typeof MATERIALS)[number]));
  const relaidFloors = floorsAll.filter((o) => o.changed);
  // The check ran where the floor report has its figures; those it refused are unchanged with them.
  const refusedBy = (reason: string) => floorsAll.filter((o) => o.floorLeft !== undefined && o.reason === reason).length;
  const leftOf = (list: Outcome[]) => list.filter((o) => o.floorLeft !== undefined).map((o) => o.floorLeft!);
  const openOf = (list: Outcome[]) => list.filter((o) => o.floorOpenEdge !== undefined).map((o) => o.floorOpenEdge!);
  const md = [
    '### Walls and floors refreshed on real photos (npm run bench:refresh)',
    '',
    machineLine(),
    '',
    `POST /v1/refresh's engine on ${files.length} shared photos reduced to ${longSide} px: walls in ${COLOURS.join(' and ')}, floors in ${MATERIALS.join(' and ')}.`,
    "As the service runs it: walls on the lines' layout; beside them, in the same run, network first: the room networks' box",
    `where it is found at 0.6 and shows the floor (${fromNetwork} of ${files.length} photos), else the lines', with the networks' windows and doors (docs/decisions/0022).`,
    "Floors are served network first, and relaid only where the new floor reaches all but 1 % of the floor the networks see, at least",
    "90 % of it lies on that floor, and along at most 10 % of its edge they see the floor go on (docs/decisions/0025); the column beside",
    'holds no second run for them.',
    'Contact sheet (input | walls | floor, as the service runs it): [docs/images/refresh-contact-sheet.jpg](images/refresh-contact-sheet.jpg).',
    '',
    '| Measure | Result | Network first |',
    '|---|---|---|',
    `| Walls repainted | ${changedWalls.length} of ${files.length * COLOURS.length} requests (the others unchanged with the reason) | ${repainted(networkFirst).length} |`,
    `| Floors relaid | ${relaidFloors.length} of ${files.length * MATERIALS.length} requests | |`,
    `| Floors the check against the floor seen left unchanged (the engine's other checks passed) | ${refusedBy('floor_incomplete')} floor_incomplete, ${refusedBy('floor_not_recognised')} floor_not_recognised | |`,
    `| Floor seen that the relaid floors leave (median, worst) | ${leftOf(relaidFloors).length ? `${(100 * median(leftOf(relaidFloors))).toFixed(1)} %, ${(100 * Math.max(...leftOf(relaidFloors))).toFixed(1)} %` : '–'} | |`,
    `| Relaid floors' edge along which the floor seen goes on (median, worst) | ${openOf(relaidFloors).length ? `${(100 * median(openOf(relaidFloors))).toFixed(1)} %, ${(100 * Math.max(...openOf(relaidFloors))).toFixed(1)} %` : '–'} | |`,
    `| Pixels changed outside the change mask | ${count(all, 'outsideMask')} (target 0) | ${count(networkFirst, 'outsideMask')} |`,
    `| Window and door pixels changed | ${count(all, 'openingPixels')} (target 0; the openings the refresh kept out of the change) | ${count(networkFirst, 'openingPixels')} |`,
    `| Drawn window and door pixels changed | ${count(all, 'drawnOpeningPixels')} (target 0; the openings drawn by hand, bench/data/photo-layouts.json) | ${count(networkFirst, 'drawnOpeningPixels')} |`,
    `| Repainted walls against the target under the photo's light, ΔE00 of the mean colour (median of photos) | ${stat(changedWalls, 'deltaE')} (worst ${worst(changedWalls, 'deltaE')}; target < 6) | ${stat(repainted(networkFirst), 'deltaE')} |`,
    `| Same, median per pixel (median of photos) | ${stat(changedWalls, 'deltaEPixels')} | ${stat(repainted(networkFirst), 'deltaEPixels')} |`,
    `| Mean repainted colour with the light's colour divided out, against the paint at the same luminance, ΔE00 (median of photos) | ${stat(changedWalls, 'deltaEBalanced')} (worst ${worst(changedWalls, 'deltaEBalanced')}) | ${stat(repainted(networkFirst), 'deltaEBalanced')} |`,
    `| High-frequency residual of output/input luminance on the walls (median of photos) | ${percent(changedWalls, median)} (worst ${percent(changedWalls, (v) => Math.max(...v))}) | ${percent(repainted(networkFirst), median)} |`,
    `| Time per request (median, analysis + detectors + masks + render) | walls ${median(all.filter((o) => !floorsAll.includes(o)).map((o) => o.seconds)).toFixed(1)} s, floors ${median(floorsAll.map((o) => o.seconds)).toFixed(1)} s | walls ${median(networkFirst.map((o) => o.seconds)).toFixed(1)} s |`,
    '',
    'Per photo: the layout network first built on, and each request\'s outcome as the service runs it (for walls, network first\'s where it differs).',
    '',
    '| Photo | Layout | Walls | Floor |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
  console.log(`\n${md}`);
  writeSection('bench-refresh', md);
}

function stat(list: Outcome[], key: 'deltaE' | 'deltaEPixels' | 'deltaEBalanced'): string {
  return list.length ? median(list.map((o) => o[key]!)).toFixed(2) : '–';
}

function worst(list: Outcome[], key: 'deltaE' | 'deltaEBalanced'): string {
  return list.length ? Math.max(...list.map((o) => o[key]!)).toFixed(2) : '–';
}

function percent(list: Outcome[], of: (values: number[]) => number): string {
  return list.length ? `${(100 * of(list.map((o) => o.residual!))).toFixed(2)} %` : '–';
}

await main();
