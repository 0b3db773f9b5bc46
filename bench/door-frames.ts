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
 * as in a staging; the floor-clutter finder's outlines are not (none of these rooms holds clutter). Both arms keep the
 * plain-wall rules (decision 0028), each leaving its own windows, doors and door frames out of the wall it judges, so
 * a door frame is kept clear either by its strip or, without it, by the edges it shows behind a piece.
 */
import { boxOutline } from '../src/services/staging/furnish-piece.js';
import { plainWallCheck } from '../src/services/staging/plain-wall-check.js';
import { withDoorFrames } from '../src/staging/door-frames.js';
import { roomModel } from '../src/staging/room-model.js';
import { polygonMask } from '../src/vision/polygon-mask.js';
import { added, armRows, COVERED_PIXELS, NO_PLANS, planAndCount, SEEDS, stagingAnalyses, STYLES } from './plan-coverage.js';
import { machineLine, writeSection } from './report.js';
import { roomTypeOf } from './shared-photos.js';

async function main(): Promise<void> {
  let photos = 0;
  let before = NO_PLANS;
  let after = NO_PLANS;
  let frames = 0;
  let framesOnDrawn = 0;
  const perPhoto: string[] = [];
  for await (const { name, image, analysis, doubt, drawn } of stagingAnalyses({ fitToMap: false })) {
    photos++;
    if (doubt) {
      perPhoto.push(`| ${name} | refused: ${doubt} | | |`);
      continue;
    }
    const bare = roomModel(analysis);
    const framed = withDoorFrames(bare, analysis.lines);
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
    const a = planAndCount(bare, roomTypeOf(name), drawn, { ...(obstacles.length ? { obstacles } : {}), plainWall: plainWallCheck(image, bare, false) });
    const b = planAndCount(framed, roomTypeOf(name), drawn, { ...(obstacles.length ? { obstacles } : {}), plainWall: plainWallCheck(image, framed, false) });
    before = added(before, a);
    after = added(after, b);
    perPhoto.push(`| ${name} | ${framed.doorFrames.length} (${onDrawn} on a drawn opening) | ${a.made} / ${a.covering} | ${b.made} / ${b.covering} |`);
    console.log(name, framed.doorFrames.length, onDrawn, a, b);
  }
  const md = [
    '## Door frames from upright lines (`npm run bench:door-frames`)',
    '',
    machineLine(),
    '',
    `${photos} empty room photos at 1024 px, each planned for its room type in ${STYLES.length} styles × ${SEEDS.length} seeds with preserveWindows, on the`,
    "stagings' analysis (the room networks' box first). Pieces are standing pieces (not rugs, not hung ones); a piece covers a drawn",
    `opening when its box, seen in the photo, covers more than ${COVERED_PIXELS} pixels of the windows and doors drawn by hand. These photos`,
    'chose the rules: nothing here is held out. Both sides keep the plain-wall rules of decision 0028, each leaving its own found openings',
    "out of the walls it judges: without door frames, a frame's edges behind a piece still keep the piece away.",
    '',
    '| | Doors found by the analyses only | With door frames |',
    '|---|---:|---:|',
    ...armRows(before, after),
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
