import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyseRoom } from '../src/services/declutter/declutter-photo.js';
import { removeCandidates, type AutomaticResult } from '../src/services/declutter/remove-automatic.js';
import { checkAfterFill, checkBeforeFill, gateGrid, groupHole, type RemovalCandidate } from '../src/services/declutter/removal-gate.js';
import { checkGrid } from '../src/vision/declutter/fill-check.js';
import type { RoomAnalysis } from '../src/services/geometry/analyze-room.js';
import { lsdLineSource } from '../src/services/geometry/line-sources.js';
import type { Box } from '../src/vision/box.js';
import type { RegionMask } from '../src/vision/declutter/region-mask.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { seededRandom } from './helpers/seeded-random.js';

/**
 * The automatic declutter's self-check, on scenes made here: candidates are given as the detector and the object
 * masks would give them (a box and the pixels to fill), so each case is exactly the one it names.
 */

const WIDTH = 480;
const HEIGHT = 360;
/** Fills are slow on a shared 2-core machine; nothing here depends on time. */
const MINUTES = 5 * 60_000;

type Rgb = [number, number, number];
const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));

function scene(colourAt: (x: number, y: number) => Rgb): RawImage {
  const data = new Uint8Array(WIDTH * HEIGHT * 3);
  for (let y = 0; y < HEIGHT; y++) for (let x = 0; x < WIDTH; x++) data.set(colourAt(x, y), 3 * (y * WIDTH + x));
  return { data, width: WIDTH, height: HEIGHT, channels: 3 };
}

/** A regular floor: boards 12 px wide in two tones with a slightly darker joint, and a little camera noise. */
function boards(seed: number): (x: number, y: number) => Rgb {
  const random = seededRandom(seed);
  return (x) => {
    const k = x % 12 === 0 ? 0.86 : Math.floor(x / 12) % 2 ? 1 : 0.95;
    const n = () => (random() - 0.5) * 6;
    return [clamp(176 * k + n()), clamp(130 * k + n()), clamp(88 * k + n())];
  };
}

/** A surface that never repeats: broad colour waves of incommensurate periods and a few large unique rings. */
function marble(seed: number): (x: number, y: number) => Rgb {
  const random = seededRandom(seed);
  const rings = Array.from({ length: 5 }, () => ({ x: random() * WIDTH, y: random() * HEIGHT, r: 30 + random() * 60 }));
  return (x, y) => {
    const wave = Math.sin(x * 0.037 + 1.3 * Math.sin(y * 0.021)) + Math.sin(y * 0.053 + 0.7 * Math.cos(x * 0.013));
    const ring = rings.some((c) => Math.abs(Math.hypot(x - c.x, y - c.y) - c.r) < 4) ? -90 : 0;
    return [clamp(150 + 45 * wave + ring), clamp(120 + 30 * Math.sin(x * 0.011 + y * 0.017) + ring), clamp(100 - 35 * wave + ring)];
  };
}

/** Paints a red object (a box) into the scene and returns its candidate: the box, and the box grown by 3 px to fill. */
function plant(image: RawImage, box: Box, label = 'cup', colour: Rgb = [200, 30, 35]): RemovalCandidate {
  for (let y = box.y; y < box.y + box.height; y++) for (let x = box.x; x < box.x + box.width; x++) image.data.set(colour, 3 * (y * WIDTH + x));
  return { label, source: 'centernet', score: 0.9, box, mask: rectangle(box.x - 3, box.y - 3, box.width + 6, box.height + 6), detected: true };
}

function rectangle(x: number, y: number, width: number, height: number): RegionMask {
  return { x, y, width, height, data: new Uint8Array(width * height).fill(1) };
}

/**
 * The room analysis of the scene, as the automatic mode computes it, with the camera's eye level put at the top of the
 * picture (the scenes are floors seen from above: nothing in them hangs on a wall) and no window or door.
 */
async function analysisOf(image: RawImage): Promise<RoomAnalysis> {
  const { analysis } = await analyseRoom(image, { layout: lsdLineSource() });
  return { ...analysis, horizon: { a: 0, b: 1, c: 0, from: null, to: null }, openings: [] };
}

async function gate(image: RawImage, candidates: RemovalCandidate[]): Promise<AutomaticResult> {
  const analysis = await analysisOf(image);
  return removeCandidates(image, analysis, candidates, { openings: new Uint8Array(WIDTH * HEIGHT), layoutTrusted: false });
}

/** Pixels that differ between the two images inside the region (all of them when no region is given). */
function differences(a: RawImage, b: RawImage, region?: RegionMask): number {
  let count = 0;
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      if (region && !(x >= region.x && y >= region.y && x < region.x + region.width && y < region.y + region.height)) continue;
      const i = 3 * (y * WIDTH + x);
      if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2]) count++;
    }
  }
  return count;
}

/** Red pixels left inside the region. */
function red(image: RawImage, region: RegionMask): number {
  let count = 0;
  for (let y = region.y; y < region.y + region.height; y++) {
    for (let x = region.x; x < region.x + region.width; x++) {
      const i = 3 * (y * WIDTH + x);
      if (image.data[i]! > 170 && image.data[i + 1]! < 80) count++;
    }
  }
  return count;
}

function grown(region: RegionMask, by: number): RegionMask {
  return rectangle(region.x - by, region.y - by, region.width + 2 * by, region.height + 2 * by);
}

describe('the automatic declutter self-check', () => {
  it('removes a small object from a regular floor, and only its pixels and seam change', { timeout: MINUTES }, async () => {
    const image = scene(boards(1));
    const cup = plant(image, { x: 230, y: 250, width: 16, height: 16 });
    const original = { ...image, data: image.data.slice() };
    const result = await gate(image, [cup]);
    assert.deepEqual(result.kept, [], JSON.stringify(result.groups.map((g) => g.detail)));
    assert.equal(result.unchanged, undefined);
    assert.deepEqual(result.removed.map((r) => r.label), ['cup']);
    assert.equal(red(result.image, cup.mask), 0, 'nothing of the object is left');
    const inside = differences(original, result.image, grown(cup.mask, 2));
    assert.equal(differences(original, result.image) - inside, 0, 'every pixel beyond the mask and its 2-pixel seam is the original');
    assert.ok(result.report.filledShare > 0);
  });

  it('keeps a large object on a surface that does not repeat, bit for bit, and says why', { timeout: MINUTES }, async () => {
    const image = scene(marble(2));
    const sofa = plant(image, { x: 120, y: 150, width: 180, height: 110 }, 'couch');
    const original = { ...image, data: image.data.slice() };
    const result = await gate(image, [sofa]);
    assert.deepEqual(result.removed, []);
    assert.equal(result.kept.length, 1);
    assert.equal(result.kept[0]!.label, 'couch');
    assert.ok(['too_large', 'fill_inconsistent', 'seam'].includes(result.kept[0]!.reason), result.kept[0]!.reason);
    assert.equal(result.unchanged, 'nothing_passed');
    assert.equal(differences(original, result.image), 0, 'the photo comes back as it went in');
  });

  it('keeps an object half covered by one that stays, and still removes one that stands apart', { timeout: MINUTES }, async () => {
    const image = scene(boards(3));
    // A table too large to fill honestly, and a chair in front of it whose box overlaps the table's.
    const table = plant(image, { x: 40, y: 60, width: 230, height: 170 }, 'dining table', [60, 40, 160]);
    const chair = plant(image, { x: 250, y: 190, width: 16, height: 16 }, 'chair');
    const cup = plant(image, { x: 380, y: 300, width: 16, height: 16 });
    const original = { ...image, data: image.data.slice() };
    const result = await gate(image, [table, chair, cup]);
    assert.deepEqual(result.removed.map((r) => r.label), ['cup']);
    const kept = Object.fromEntries(result.kept.map((k) => [k.label, k.reason]));
    assert.deepEqual(Object.keys(kept).sort(), ['chair', 'dining table']);
    assert.equal(kept.chair, kept['dining table'], 'touching objects are judged together');
    assert.equal(kept.chair, 'too_large');
    assert.equal(differences(original, result.image, grown(table.mask, 2)), 0, 'the table is untouched');
    assert.equal(differences(original, result.image, grown(chair.mask, 2)), 0, 'the chair is untouched');
    assert.equal(red(result.image, cup.mask), 0);
    const inside = differences(original, result.image, grown(cup.mask, 2));
    assert.equal(differences(original, result.image) - inside, 0);
  });

  it('keeps a fixture of the property and what overlaps it, and still removes one that stands apart', { timeout: MINUTES }, async () => {
    const image = scene(boards(6));
    // A built-in microwave, which a second detector calls a tv: on its own, the tv would pass every other check.
    const microwave = plant(image, { x: 150, y: 120, width: 18, height: 16 }, 'microwave', [70, 70, 75]);
    const tv = { ...microwave, label: 'tv', source: 'nanodet', box: { x: 148, y: 118, width: 22, height: 20 } };
    const cup = plant(image, { x: 380, y: 300, width: 16, height: 16 });
    const original = { ...image, data: image.data.slice() };
    const result = await gate(image, [microwave, tv, cup]);
    assert.deepEqual(result.removed.map((r) => r.label), ['cup']);
    assert.deepEqual(result.kept.map((k) => [k.label, k.reason]).sort(), [['microwave', 'fixture'], ['tv', 'fixture']]);
    assert.match(result.kept[0]!.detail, /microwave belongs to the property/);
    assert.equal(differences(original, result.image, grown(microwave.mask, 4)), 0, 'the microwave is untouched');

    const alone = await gate({ ...original, data: original.data.slice() }, [tv]);
    assert.deepEqual(alone.removed.map((r) => r.label), ['tv'], 'without the fixture the same object would go');
  });

  it('keeps a detection whose mask leaves part of its box out', { timeout: MINUTES }, async () => {
    const image = scene(boards(4));
    const lamp = plant(image, { x: 200, y: 200, width: 20, height: 40 }, 'vase');
    // The mask holds only the top third of the object: removing it would leave the rest standing.
    const partial: RemovalCandidate = { ...lamp, mask: rectangle(197, 197, 26, 16) };
    const original = { ...image, data: image.data.slice() };
    const result = await gate(image, [partial]);
    assert.deepEqual(result.kept.map((k) => [k.label, k.reason]), [['vase', 'incomplete_mask']]);
    assert.equal(result.unchanged, 'nothing_passed');
    assert.equal(differences(original, result.image), 0);
  });

  it('returns the photo unchanged when nothing was found', { timeout: MINUTES }, async () => {
    const image = scene(boards(5));
    const original = { ...image, data: image.data.slice() };
    const result = await gate(image, []);
    assert.equal(result.unchanged, 'nothing_found');
    assert.deepEqual([result.removed, result.kept], [[], []]);
    assert.equal(result.report.filledShare, 0);
    assert.equal(differences(original, result.image), 0);
  });

  describe('judges a fill by what surrounds it', () => {
    /**
     * A floor of boards under a pale wall (the top third), with a hole on the floor below the wall. Its sides lie inside
     * boards: a side along a board's edge would read as a seam even when the boards go on (a kept object, not a smear).
     */
    const room = scene((x, y) => (y < 120 ? [228, 224, 216] : boards(6)(x, y)));
    const hole = rectangle(203, 150, 40, 30);
    const candidate: RemovalCandidate = { label: 'cup', source: 'centernet', score: 0.9, box: { x: 206, y: 153, width: 34, height: 24 }, mask: hole, detected: true };

    /** The verdict on `room` filled with `fill(x, y, original)` inside the hole. */
    async function verdictFor(fill: (x: number, y: number, original: Rgb) => Rgb) {
      const filled = { ...room, data: room.data.slice() };
      for (let y = hole.y; y < hole.y + hole.height; y++) {
        for (let x = hole.x; x < hole.x + hole.width; x++) {
          const i = 3 * (y * WIDTH + x);
          filled.data.set(fill(x, y, [room.data[i]!, room.data[i + 1]!, room.data[i + 2]!]), i);
        }
      }
      const context = { analysis: await analysisOf(room), layoutTrusted: false, openings: new Uint8Array(WIDTH * HEIGHT) };
      const grid = gateGrid(room, [candidate], context);
      const window = groupHole(hole, room, grid);
      const before = checkBeforeFill(room, [candidate], [0], window, grid, context);
      assert.equal(before.reason, undefined, before.detail);
      const after = checkAfterFill(grid.grid, checkGrid(filled), before, window, grid);
      return after;
    }

    it('passes the floor continued', { timeout: MINUTES }, async () => {
      // The answer itself: the boards as they were.
      const verdict = await verdictFor((_x, _y, original) => original);
      assert.equal(verdict.reason, undefined, verdict.detail);
    });

    it('fails a floor filled with the colour of the wall', { timeout: MINUTES }, async () => {
      const verdict = await verdictFor(() => [228, 224, 216]);
      assert.equal(verdict.reason, 'fill_inconsistent', verdict.detail);
    });

    it('fails boards smeared into their mean colour', { timeout: MINUTES }, async () => {
      // Flat where the boards had joints and tones: off its ring's texture, or a step at every joint it cuts.
      const verdict = await verdictFor(() => [164, 121, 82]);
      assert.ok(verdict.reason === 'fill_inconsistent' || verdict.reason === 'seam', `${verdict.reason}: ${verdict.detail}`);
    });

    it('fails boards continued a shade too dark: a seam', { timeout: MINUTES }, async () => {
      const verdict = await verdictFor((_x, _y, [r, g, b]) => [clamp(r * 0.88), clamp(g * 0.88), clamp(b * 0.88)]);
      assert.ok(verdict.reason === 'seam' || verdict.reason === 'fill_inconsistent', `${verdict.reason}: ${verdict.detail}`);
    });
  });
});
