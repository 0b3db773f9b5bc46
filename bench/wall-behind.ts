/**
 * The plain wall behind standing pieces (src/staging/placement-rules.ts hiddenWalls, docs/decisions/0028), measured
 * on the room plans of every empty room photo of the shared set, side by side in one run: the planner's plain-wall
 * rule for hung pieces alone, as before, and with the wall a standing piece would hide checked too.
 *
 * Each photo is analysed as a whole-room staging analyses it (analyzeWithSecondOpinion with roomLayoutDoubt and the box
 * moved onto a sure map, 1024 px; the door frames and columns of its upright lines), then planned for its room type
 * in 3 styles × 2 seeds with preserveWindows, as a redesign plans it. Reported: plans made, standing pieces placed,
 * and those whose box, seen in the photo, covers more than 300 pixels of the windows and doors drawn by hand
 * (bench/data/photo-layouts.json). No rendering: the plans are what the renderer would be given.
 */
import { boxOutline } from '../src/services/staging/furnish-piece.js';
import { MAX_BACKING_EDGE_SHARE, plainWallCheck } from '../src/services/staging/plain-wall-check.js';
import type { PlanRequest } from '../src/staging/plan-room.js';
import { roomFromLines } from '../src/staging/room-from-lines.js';
import { added, armRows, COVERED_PIXELS, NO_PLANS, planAndCount, SEEDS, stagingAnalyses, STYLES } from './plan-coverage.js';
import { machineLine, writeSection } from './report.js';
import { roomTypeOf } from './shared-photos.js';

async function main(): Promise<void> {
  let photos = 0;
  let before = NO_PLANS;
  let after = NO_PLANS;
  const perPhoto: string[] = [];
  for await (const { name, image, analysis, doubt, drawn } of stagingAnalyses({ fitToMap: true })) {
    photos++;
    if (doubt) {
      perPhoto.push(`| ${name} | refused: ${doubt} | |`);
      continue;
    }
    const room = roomFromLines(analysis, false);
    const obstacles = (analysis.standing ?? []).map((b) => boxOutline(b));
    const check = plainWallCheck(image, room, false);
    const hungOnly: PlanRequest['plainWall'] = (outline, use) => use === 'behind' || check(outline, use);
    const a = planAndCount(room, roomTypeOf(name), drawn, { ...(obstacles.length ? { obstacles } : {}), plainWall: hungOnly });
    const b = planAndCount(room, roomTypeOf(name), drawn, { ...(obstacles.length ? { obstacles } : {}), plainWall: check });
    before = added(before, a);
    after = added(after, b);
    perPhoto.push(`| ${name} | ${a.made} / ${a.pieces} / ${a.covering} | ${b.made} / ${b.pieces} / ${b.covering} |`);
    console.log(name, a, b);
  }
  const md = [
    '## The wall behind standing pieces (`npm run bench:wall-behind`)',
    '',
    machineLine(),
    '',
    `${photos} empty room photos at 1024 px, each planned for its room type in ${STYLES.length} styles × ${SEEDS.length} seeds with preserveWindows, on the`,
    "whole-room stagings' analysis (the room networks' box, moved onto a sure map; door frames and columns). **Before**: the plain-wall",
    `rule for hung pieces alone; **after**: a standing piece against a wall also needs at most ${(MAX_BACKING_EDGE_SHARE * 100).toFixed(0)} % edge pixels on the wall it hides`,
    '(docs/decisions/0028). Pieces are standing pieces (not rugs, not hung ones); a piece covers a drawn opening when its box, seen in the',
    `photo, covers more than ${COVERED_PIXELS} pixels of the windows and doors drawn by hand. These photos chose the threshold: nothing here is held out.`,
    '',
    '| | Before | After |',
    '|---|---:|---:|',
    ...armRows(before, after),
    '',
    `| Photo | Plans made / standing pieces / pieces covering drawn openings (of ${STYLES.length * SEEDS.length} plans), before | After |`,
    '|---|---:|---:|',
    ...perPhoto,
  ].join('\n');
  writeSection('bench-wall-behind', md);
  console.log(md);
}

await main();
