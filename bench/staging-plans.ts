/**
 * npm run bench:staging-plans: the layout planner alone, no rendering.
 *
 * - Rendered rooms: --rooms N box rooms and --l-rooms N L-shaped rooms (the box minus a full-height block in a
 *   corner) of the room renderer's seed --seed (specs only: their exact room, blocks, camera and openings), each
 *   planned for the eight smart-staging-v2 room types with preserveWindows. The L rooms' living-room plans from above:
 *   docs/images/staging-plans-l.jpg.
 * - Photos: every empty room photo of the shared sets, the room from the geometry analysis, the same eight types.
 *
 * Every plan is checked by this bench's own rules, not the planner's: pieces through walls (or in a block), pieces
 * hidden behind a block (a footprint corner whose sight line from the camera crosses it), beds without 0.6 m of open
 * floor beside the foot half (both sides of a double bed, one of a single), dining chairs without 0.9 m behind them
 * from the table's edge, pieces of different groups overlapping, solid pieces in a door's 0.9 m strip, window or
 * door pixels covered (preserveWindows), a door cut off from the camera's side for a 0.6 m walkway, standing pieces
 * more than half behind nearer pieces of other groups (on their drawn outlines); and programme completeness, the
 * 0.9 m main walkway and time.
 * Writes docs/benchmarks.md's "staging-plans" section and docs/images/staging-plans.jpg (top-down plans of photos).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { loadConfig } from '../src/config/config.js';
import { decodeImage } from '../src/repositories/image-codec.js';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import { analyzeRoom } from '../src/services/geometry/analyze-room.js';
import { lsdLineSource, mlsdLineSource, MLSD_MODEL } from '../src/services/geometry/line-sources.js';
import { convexHull, convexOverlap, DOOR_CLEARANCE_M } from '../src/staging/place-piece.js';
import { planSvg } from '../src/staging/plan-drawing.js';
import { planRoom, PLAN_NEAREST_M, WALKWAY_M, type RoomPlan } from '../src/staging/plan-room.js';
import { blockOutline, projectWorld, roomModel, type RoomModel } from '../src/staging/room-model.js';
import { withDoorFrames } from '../src/staging/door-frames.js';
import { checkWalkway } from '../src/staging/walkway.js';
import { generateRoomSpec, type RoomShape, type RoomSpec } from '../tools/room-renderer/spec.js';
import { hiddenShares } from './hidden-pieces.js';
import { renderedRoomModel } from './rendered-room-model.js';
import { machineLine, writeSection } from './report.js';
import { EMPTY_ROOM_PHOTOS, PHOTOS, PHOTO_LIMITS, ROOT } from './shared-photos.js';
import { mean, median } from './statistics.js';

const V2_ROOMS = ['living_room', 'living_dining', 'kitchen_living', 'bedroom', 'dining_room', 'home_office', 'outdoor_terrace', 'kitchen'];
const SHEET = path.join(ROOT, 'docs/images/staging-plans.jpg');
const L_SHEET = path.join(ROOT, 'docs/images/staging-plans-l.jpg');

interface Checked {
  throughWalls: number;
  hidden: number;
  /** Beds with less than 0.6 m of open floor beside them (both sides of a double bed, one of a single). */
  crampedBeds: number;
  /** Dining chairs with less than 0.9 m of open floor behind them from the table's edge. */
  crampedChairs: number;
  overlaps: number;
  blockedDoors: number;
  coveredOpenings: number;
  cutOffDoors: number;
  /** Standing pieces more than half behind nearer standing pieces of other groups, on their drawn outlines. */
  mostlyHidden: number;
}

/** This bench's own check of a plan's hard rules. */
function check(room: RoomModel, plan: RoomPlan, preserveWindows: boolean): Checked {
  const base = (p: RoomPlan['pieces'][number]) => p.placement.corners.slice(0, 4).map((c) => [c[0], c[1]] as [number, number]);
  const solid = plan.pieces.filter((p) => p.piece.footprint.height >= 0.05);
  const out: Checked = { throughWalls: 0, hidden: 0, crampedBeds: 0, crampedChairs: 0, overlaps: 0, blockedDoors: 0, coveredOpenings: 0, cutOffDoors: 0, mostlyHidden: 0 };
  // Open floor: inside the walls, off the blocks, under no other group's solid piece.
  const open = (outline: [number, number][], group: string) =>
    outline.every(([x, y]) => x >= room.box.left - 1e-6 && x <= room.box.right + 1e-6 && y <= room.box.front + 1e-6) &&
    !room.blocks.some((b) => convexOverlap(outline, blockOutline(b))) &&
    !plan.pieces.some((p) => p.group !== group && p.piece.footprint.height >= 0.05 && convexOverlap(outline, base(p)));
  for (const piece of plan.pieces) {
    const { width, depth } = piece.piece.footprint;
    if (piece.group === 'bed' && piece.entry === 0) {
      const sides = [rectangle(piece, width / 2, width / 2 + 0.6, -depth / 2, 0), rectangle(piece, -width / 2 - 0.6, -width / 2, -depth / 2, 0)];
      if (sides.filter((side) => open(side, piece.group)).length < (width >= 1.2 ? 2 : 1)) out.crampedBeds++;
    }
    if (piece.group === 'table' && /chair/.test(piece.furnitureId)) {
      const edge = -(depth / 2 - 0.1);
      if (!open(rectangle(piece, -width / 2, width / 2, edge, edge + 0.9), piece.group)) out.crampedChairs++;
    }
  }
  for (const piece of plan.pieces) {
    const corners = base(piece);
    const inBlock = room.blocks.some((b) => convexOverlap(corners, blockOutline(b)));
    if (inBlock || corners.some(([x, y]) => x < room.box.left || x > room.box.right || y > room.box.front)) out.throughWalls++;
    if (corners.some((corner) => room.blocks.some((b) => sightCrosses(corner, b)))) out.hidden++;
    if (preserveWindows) {
      const hull = convexHull(piece.placement.corners.map((c) => projectWorld(room.camera, c)).filter((p): p is [number, number] => p !== undefined));
      if (room.openings.some((o) => convexOverlap(hull, o.polygon))) out.coveredOpenings++;
    }
  }
  for (let i = 0; i < solid.length; i++) {
    for (let j = i + 1; j < solid.length; j++) {
      if (solid[i]!.group !== solid[j]!.group && convexOverlap(base(solid[i]!), base(solid[j]!))) out.overlaps++;
    }
  }
  for (const opening of room.openings) {
    if (opening.kind === 'window') continue;
    for (const piece of solid) {
      const corners = base(piece);
      const us = corners.map(([x, y]) => (opening.wall === 'wall-front' ? x : y));
      const depths = corners.map(([x, y]) => (opening.wall === 'wall-front' ? room.box.front - y : opening.wall === 'wall-left' ? x - room.box.left : room.box.right - x));
      if (Math.max(...us) > opening.u0 && Math.min(...us) < opening.u1 && Math.min(...depths) < DOOR_CLEARANCE_M) out.blockedDoors++;
    }
  }
  out.cutOffDoors = checkWalkway(room, solid.map((p) => ({ corners: base(p) })), WALKWAY_M, PLAN_NEAREST_M).unreachableDoors.length;
  out.mostlyHidden = hiddenShares(room, solid).filter((share) => share > 0.5).length;
  return out;
}

/** A rectangle of a piece's own frame (x to its right, −y before its front) on the floor. */
function rectangle(piece: RoomPlan['pieces'][number], x0: number, x1: number, y0: number, y1: number): [number, number][] {
  const { x, y, yaw } = piece.placement;
  const c = Math.cos(yaw);
  const s = Math.sin(yaw);
  return ([[x0, y0], [x1, y0], [x1, y1], [x0, y1]] as const).map(([lx, ly]) => [x + c * lx - s * ly, y + s * lx + c * ly] as [number, number]);
}

/** Whether the straight line from the camera (the origin) to a floor point passes through a block (Liang–Barsky). */
function sightCrosses([x, y]: [number, number], block: RoomModel['blocks'][number]): boolean {
  let t0 = 0;
  let t1 = 1;
  for (const [p, q] of [[-x, -block.x0], [x, block.x1], [-y, -block.y0], [y, block.y1]] as const) {
    if (Math.abs(p) < 1e-12) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
  }
  // Touching the block's face at the very end (a piece's back against it) is not crossing it.
  return t1 - t0 > 1e-3 && t0 < 1 - 1e-3;
}

interface Row {
  source: string;
  roomId: string;
  pieces: number;
  completeness: number;
  mainWalkway: boolean;
  ms: number;
  checked: Checked;
}

function summarise(rows: Row[]): string[] {
  const sum = (key: keyof Checked) => rows.reduce((n, r) => n + r.checked[key], 0);
  const times = rows.map((r) => r.ms);
  const lines = [
    `| Plans | pieces through walls or blocks | pieces hidden behind a block | beds without 0.6 m beside | dining chairs without 0.9 m behind | pieces of different groups overlapping | pieces in a door's 0.9 m strip | window or door pixels covered (preserveWindows) | doors cut off (0.6 m walkway) | pieces more than half behind nearer pieces of other groups (plans with one) | 0.9 m main walkway to every door | completeness (mean) | pieces per plan (median) | plan time median / max |`,
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    `| ${rows.length} | ${sum('throughWalls')} | ${sum('hidden')} | ${sum('crampedBeds')} | ${sum('crampedChairs')} | ${sum('overlaps')} | ${sum('blockedDoors')} | ${sum('coveredOpenings')} | ${sum('cutOffDoors')} | ${sum('mostlyHidden')} (${rows.filter((r) => r.checked.mostlyHidden > 0).length}) | ${rows.filter((r) => r.mainWalkway).length} of ${rows.length} | ${(mean(rows.map((r) => r.completeness)) * 100).toFixed(0)} % | ${median(rows.map((r) => r.pieces))} | ${median(times).toFixed(0)} / ${Math.max(...times).toFixed(0)} ms |`,
    '',
    '| Room type | completeness (mean) | plans with every entry placed | pieces (median) |',
    '|---|---|---|---|',
    ...V2_ROOMS.map((id) => {
      const mine = rows.filter((r) => r.roomId === id);
      return `| ${id} | ${(mean(mine.map((r) => r.completeness)) * 100).toFixed(0)} % | ${mine.filter((r) => r.completeness >= 0.999).length} of ${mine.length} | ${median(mine.map((r) => r.pieces))} |`;
    }),
  ];
  return lines;
}

/** Every room type planned on rendered rooms `0 … count − 1` of a seed drawn as `shape`; living-room plans kept for a sheet. */
function planRendered(seed: number, count: number, shape: RoomShape): { rows: Row[]; skipped: number; sheet: { file: string; svg: string }[] } {
  const rows: Row[] = [];
  const sheet: { file: string; svg: string }[] = [];
  let skipped = 0;
  for (let i = 0; i < count; i++) {
    let spec: RoomSpec;
    try {
      spec = generateRoomSpec(seed, i, { width: 640, height: 480, samples: 16, shapes: [shape] });
    } catch {
      // The generator gives up on a few indices (no camera shows 2–3 walls); the renderer skips them too.
      skipped++;
      continue;
    }
    const room = renderedRoomModel(spec);
    for (const roomId of V2_ROOMS) {
      const plan = planRoom(room, { roomId, styleId: 'scandinavian', seed: i, preserveWindows: true, decor: true, anneal: true });
      rows.push({ source: spec.id, roomId, pieces: plan.pieces.length, completeness: plan.completeness, mainWalkway: plan.mainWalkway, ms: plan.milliseconds, checked: check(room, plan, true) });
      if (roomId === 'living_room') sheet.push({ file: `${spec.id} (${shape})`, svg: planSvg(room, plan) });
    }
    if (i % 20 === 19) console.log(`${shape} rooms: ${i + 1} of ${count}`);
  }
  return { rows, skipped, sheet };
}

/** Plans from above, four to a row, each titled. */
async function writePlanSheet(file: string, plans: { file: string; svg: string }[]): Promise<void> {
  const tiles = await Promise.all(
    plans.map(async ({ file: title, svg }) => {
      const plan = await sharp(Buffer.from(svg)).resize({ height: 240, width: 300, fit: 'contain', background: '#fbfaf7' }).png().toBuffer();
      const label = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="300" height="18"><rect width="100%" height="100%" fill="#000"/><text x="4" y="13" font-family="sans-serif" font-size="12" fill="#ff0">${title}: living_room</text></svg>`);
      return sharp({ create: { width: 300, height: 260, channels: 3, background: '#000' } }).composite([{ input: label, left: 0, top: 0 }, { input: plan, left: 0, top: 20 }]).png().toBuffer();
    }),
  );
  const columns = 4;
  await sharp({ create: { width: 302 * columns, height: 262 * Math.ceil(tiles.length / columns), channels: 3, background: '#000' } })
    .composite(tiles.map((input, k) => ({ input, left: (k % columns) * 302, top: Math.floor(k / columns) * 262 })))
    .jpeg({ quality: 80 })
    .toFile(file);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { rooms: { type: 'string', default: '130' }, 'l-rooms': { type: 'string', default: '60' }, seed: { type: 'string', default: '11' }, 'no-photos': { type: 'boolean', default: false } },
  });
  const count = Number(values.rooms);
  const lCount = Number(values['l-rooms']);
  const seed = Number(values.seed);
  const boxes = planRendered(seed, count, 'box');
  const ls = planRendered(seed, lCount, 'l');
  if (ls.sheet.length > 0) await writePlanSheet(L_SHEET, ls.sheet.slice(0, 16));

  const photos: Row[] = [];
  const sheet: { file: string; svg: string; photo: Buffer }[] = [];
  if (!values['no-photos']) {
    const config = loadConfig(process.env);
    const registry = ModelRegistry.load();
    const runtime = new ModelRuntime(new ModelStore(config.models.cacheDir, registry), registry, { intraOpNumThreads: 2 });
    const lines = mlsdLineSource(await runtime.detectorSession(MLSD_MODEL), { inputSize: 512 });
    const files = [
      ...fs.readdirSync(PHOTOS).filter((f) => f.startsWith('empty_')).map((f) => path.join(PHOTOS, f)),
      ...fs.readdirSync(EMPTY_ROOM_PHOTOS).filter((f) => /\.(jpe?g|png|webp)$/i.test(f)).map((f) => path.join(EMPTY_ROOM_PHOTOS, f)),
    ].sort();
    for (const file of files) {
      const { image } = await decodeImage(fs.readFileSync(file), PHOTO_LIMITS);
      const analysis = await analyzeRoom(image, lines, { vanishingPointLines: lsdLineSource(), lineSourceName: `${MLSD_MODEL}+lsd` });
      const room = withDoorFrames(roomModel(analysis), analysis.lines);
      for (const roomId of V2_ROOMS) {
        const plan = planRoom(room, { roomId, styleId: 'scandinavian', seed: 1, preserveWindows: true, decor: true, anneal: true });
        photos.push({ source: path.basename(file), roomId, pieces: plan.pieces.length, completeness: plan.completeness, mainWalkway: plan.mainWalkway, ms: plan.milliseconds, checked: check(room, plan, true) });
        if (roomId === 'living_room') {
          const small = await sharp(file).rotate().resize({ height: 240 }).jpeg().toBuffer();
          sheet.push({ file: path.basename(file), svg: planSvg(room, plan), photo: small });
        }
      }
      console.log(`${path.basename(file)}: ${photos.slice(-V2_ROOMS.length).map((r) => `${r.roomId} ${r.pieces}`).join(', ')}`);
    }
    await runtime.close();
    // Contact sheet: photo | living-room plan from above, two per row.
    const tiles = await Promise.all(
      sheet.map(async ({ file, svg, photo }) => {
        const plan = await sharp(Buffer.from(svg)).resize({ height: 240, width: 320, fit: 'contain', background: '#fbfaf7' }).png().toBuffer();
        const pm = await sharp(photo).metadata();
        const label = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${pm.width! + 324}" height="18"><rect width="100%" height="100%" fill="#000"/><text x="4" y="13" font-family="sans-serif" font-size="12" fill="#ff0">${file}: living_room</text></svg>`);
        return sharp({ create: { width: pm.width! + 324, height: 260, channels: 3, background: '#000' } })
          .composite([{ input: label, left: 0, top: 0 }, { input: photo, left: 0, top: 20 }, { input: plan, left: pm.width! + 4, top: 20 }])
          .png()
          .toBuffer();
      }),
    );
    const widths = await Promise.all(tiles.map(async (t) => (await sharp(t).metadata()).width!));
    const tileWidth = Math.max(...widths);
    const columns = 2;
    const rowsCount = Math.ceil(tiles.length / columns);
    await sharp({ create: { width: tileWidth * columns, height: 262 * rowsCount, channels: 3, background: '#000' } })
      .composite(tiles.map((input, k) => ({ input, left: (k % columns) * tileWidth, top: Math.floor(k / columns) * 262 })))
      .jpeg({ quality: 80 })
      .toFile(SHEET);
  }

  const md = [
    '### Plans (npm run bench:staging-plans)',
    '',
    machineLine(),
    '',
    `The layout planner alone (src/staging/plan-room.ts, docs/decisions/0012), each room planned for the eight smart-staging-v2`,
    'room types with preserveWindows and decor, style scandinavian. The rules are checked by the bench itself, not',
    "taken from the planner's report. Every piece stands on the floor plane by construction (floating: 0).",
    '',
    `**Rendered box rooms**: ${boxes.rows.length / V2_ROOMS.length} rooms of the room renderer (seed ${seed}, indices 0–${count - 1}${boxes.skipped ? `; ${boxes.skipped} indices the generator gives up on skipped` : ''}; one to four openings; their exact room, camera and openings).`,
    '',
    ...summarise(boxes.rows),
    '',
    `**Rendered L-shaped rooms**: ${ls.rows.length / V2_ROOMS.length} rooms of the room renderer drawn as L shapes (\`--shapes l\`: the box minus a full-height block in a corner the camera sees; seed ${seed}, indices 0–${lCount - 1}${ls.skipped ? `; ${ls.skipped} skipped` : ''}). Living-room plans from above: [docs/images/staging-plans-l.jpg](images/staging-plans-l.jpg) (blocks grey).`,
    '',
    ...summarise(ls.rows),
    '',
    ...(photos.length
      ? [
          `**Photos**: every empty room photo of the shared sets (${photos.length / V2_ROOMS.length}), the room as the geometry analysis finds it. Living-room plans from above beside their photos: [docs/images/staging-plans.jpg](images/staging-plans.jpg) (front edges thick, windows blue, doors orange, the camera red).`,
          '',
          ...summarise(photos),
        ]
      : []),
  ].join('\n');
  writeSection('staging-plans', md);
  console.log(md);
}

await main();
