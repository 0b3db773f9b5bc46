/**
 * Door frames from the photo's upright lines (src/staging/door-frames.ts), measured on the room plans of every empty
 * room photo of the shared set, side by side in one run: the stagings' room as it was (doors only where an analysis
 * found one) and with the door frames.
 *
 * Each photo is analysed as a whole-room staging does (analyzeWithSecondOpinion with roomLayoutDoubt, 1024 px), then
 * planned for its room type in 3 styles × 2 seeds with preserveWindows, as a redesign plans it. Reported: plans made
 * (a piece or more and no rule broken), standing pieces placed, and those whose box, seen in the photo, covers more
 * than 300 pixels of the windows and doors drawn by hand (bench/data/photo-layouts.json). The frames found are counted
 * with those that lie on a drawn window or door (a third of their outline or more).
 *
 * No rendering: the plans are what the renderer would be given. The room network's standing furniture is an obstacle,
 * as in a staging; the floor-clutter finder's outlines are not (none of these rooms holds clutter).
 */
import path from 'node:path';
import { loadConfig } from '../src/config/config.js';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import { analyzeWithSecondOpinion, chooseLineSources } from '../src/services/operations/line-source-choice.js';
import { boxOutline } from '../src/services/staging/furnish-piece.js';
import { MAX_HUNG_EDGE_SHARE, roomLayoutDoubt } from '../src/services/staging/stage-room.js';
import { withDoorFrames } from '../src/staging/door-frames.js';
import { planRoom } from '../src/staging/plan-room.js';
import { convexHull } from '../src/staging/placement-rules.js';
import { projectWorld, roomModel, type RoomModel } from '../src/staging/room-model.js';
import { edgeShare } from '../src/vision/plain-wall.js';
import { polygonMask } from '../src/vision/polygon-mask.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { drawnOpeningsMask } from './layout-scoring.js';
import { machineLine, writeSection } from './report.js';
import { emptyRoomPhotos, readPhoto, roomTypeOf } from './shared-photos.js';

const STYLES = ['scandinavian', 'japandi', 'industrial'];
const SEEDS = [21, 22];
/** Pixels of drawn openings a piece's image must cover to count: a box's corner grazing a frame is not a piece before a door. */
const COVERED_PIXELS = 300;

interface Arm {
  plans: number;
  made: number;
  pieces: number;
  covering: number;
  coveredPixels: number;
}

const NO_PLANS: Arm = { plans: 0, made: 0, pieces: 0, covering: 0, coveredPixels: 0 };

function added(a: Arm, b: Arm): Arm {
  return { plans: a.plans + b.plans, made: a.made + b.made, pieces: a.pieces + b.pieces, covering: a.covering + b.covering, coveredPixels: a.coveredPixels + b.coveredPixels };
}

/** The photo's plans in every style and seed, and what their standing pieces cover of the drawn openings. */
function planPhoto(image: RawImage, room: RoomModel, name: string, obstacles: [number, number][][], drawn: Uint8Array): Arm {
  const arm = { ...NO_PLANS };
  for (const styleId of STYLES) {
    for (const seed of SEEDS) {
      arm.plans++;
      const plan = planRoom(room, {
        roomId: roomTypeOf(name),
        styleId,
        seed,
        preserveWindows: true,
        decor: true,
        anneal: true,
        ...(obstacles.length ? { obstacles } : {}),
        plainWall: (box) => edgeShare(image, box) <= MAX_HUNG_EDGE_SHARE,
      });
      if (plan.pieces.length === 0 || plan.violations.length > 0) continue;
      arm.made++;
      for (const { piece, placement } of plan.pieces) {
        if (piece.footprint.placement === 'on-wall' || piece.footprint.height < 0.05) continue;
        arm.pieces++;
        const hull = convexHull(placement.corners.map((c) => projectWorld(room.camera, c)).filter((p): p is [number, number] => p !== undefined));
        const mask = polygonMask(image.width, image.height, [hull]);
        let pixels = 0;
        for (let i = 0; i < mask.length; i++) if (mask[i] && drawn[i]) pixels++;
        if (pixels > COVERED_PIXELS) {
          arm.covering++;
          arm.coveredPixels += pixels;
        }
      }
    }
  }
  return arm;
}

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const registry = ModelRegistry.load();
  const runtime = new ModelRuntime(new ModelStore(config.models.cacheDir, registry), registry, { intraOpNumThreads: 2 });
  const lines = await chooseLineSources(runtime, { roomNetwork: true });
  const files = emptyRoomPhotos();
  let before = NO_PLANS;
  let after = NO_PLANS;
  let frames = 0;
  let framesOnDrawn = 0;
  const perPhoto: string[] = [];
  for (const file of files) {
    const name = path.basename(file);
    const image = await readPhoto(file, 1024);
    const { analysis } = await analyzeWithSecondOpinion(image, lines, roomLayoutDoubt);
    if (roomLayoutDoubt(analysis)) {
      perPhoto.push(`| ${name} | refused: ${roomLayoutDoubt(analysis)} | | |`);
      continue;
    }
    const bare = roomModel(analysis);
    const framed = withDoorFrames(bare, analysis.lines);
    const drawn = drawnOpeningsMask(name, image.width, image.height);
    let onDrawn = 0;
    for (const frame of framed.doorFrames) {
      const outline = polygonMask(image.width, image.height, [frame.polygon]);
      let inside = 0;
      let hit = 0;
      for (let i = 0; i < outline.length; i++) {
        if (!outline[i]) continue;
        inside++;
        if (drawn[i]) hit++;
      }
      if (inside > 0 && hit / inside >= 1 / 3) onDrawn++;
    }
    frames += framed.doorFrames.length;
    framesOnDrawn += onDrawn;
    const obstacles = (analysis.standing ?? []).map((b) => boxOutline(b));
    const a = planPhoto(image, bare, name, obstacles, drawn);
    const b = planPhoto(image, framed, name, obstacles, drawn);
    before = added(before, a);
    after = added(after, b);
    perPhoto.push(`| ${name} | ${framed.doorFrames.length} (${onDrawn} on a drawn opening) | ${a.made} / ${a.covering} | ${b.made} / ${b.covering} |`);
    console.log(name, framed.doorFrames.length, onDrawn, a, b);
  }
  await runtime.close();
  const row = (label: string, value: (arm: Arm) => string) => `| ${label} | ${value(before)} | ${value(after)} |`;
  const md = [
    '## Door frames from upright lines (`npm run bench:door-frames`)',
    '',
    machineLine(),
    '',
    `${files.length} empty room photos at 1024 px, each planned for its room type in ${STYLES.length} styles × ${SEEDS.length} seeds with preserveWindows, on the`,
    "stagings' analysis (the room networks' box first). Pieces are standing pieces (not rugs, not hung ones); a piece covers a drawn",
    `opening when its box, seen in the photo, covers more than ${COVERED_PIXELS} pixels of the windows and doors drawn by hand. These photos`,
    'chose the rules: nothing here is held out.',
    '',
    '| | Doors found by the analyses only | With door frames |',
    '|---|---:|---:|',
    row('Plans made', (arm) => `${arm.made} of ${arm.plans}`),
    row('Standing pieces placed', (arm) => `${arm.pieces}`),
    row('Pieces covering a drawn window or door', (arm) => `${arm.covering}`),
    row('Drawn window and door pixels under them', (arm) => `${arm.coveredPixels}`),
    '',
    `Door frames found: ${frames}, of which ${framesOnDrawn} lie on a drawn window or door.`,
    '',
    `| Photo | Door frames | Plans made / pieces covering drawn openings (of ${STYLES.length * SEEDS.length}), before | After |`,
    '|---|---|---:|---:|',
    ...perPhoto,
  ].join('\n');
  writeSection('bench-door-frames', md);
  console.log(md);
}

await main();
