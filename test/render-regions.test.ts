import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { samplePiece } from '../src/furniture/library.js';
import { Random } from '../src/random.js';
import { placePiece, type Placement } from '../src/staging/place-piece.js';
import { renderRegion, renderRegions, type Region } from '../src/staging/render-setup.js';
import { syntheticRoom } from './helpers/synthetic-room.js';

const room = syntheticRoom(640, 480);

/** A piece whose footprint's centre stands on the floor seen at photo pixel (x, y). */
function pieceAt(furnitureId: string, x: number, y: number): Placement {
  const piece = samplePiece(furnitureId, 'scandinavian', 3);
  const outcome = placePiece(room, { footprint: piece.footprint, preserveWindows: false, random: new Random(3), at: { x, y, yaw: 0 } });
  assert.ok(outcome.placed, `${furnitureId} placed at ${x},${y}`);
  return outcome.placement;
}

const inside = (box: Region, region: Region) => box.x0 >= region.x0 && box.x1 <= region.x1 && box.y0 >= region.y0 && box.y1 <= region.y1;
const apart = (a: Region, b: Region) => Math.max(a.x0 - b.x1, b.x0 - a.x1, a.y0 - b.y1, b.y0 - a.y1);

describe('renderRegions', () => {
  it('renders two groups far apart as two disjoint rectangles, each holding its pieces', () => {
    const left = pieceAt('side_table', 90, 400);
    const right = pieceAt('side_table', 560, 400);
    const regions = renderRegions(room, [left, right]);
    assert.equal(regions.length, 2);
    assert.ok(apart(regions[0]!, regions[1]!) > 0, 'the rectangles do not touch');
    assert.ok(regions.some((r) => inside(left.imageBox, r)) && regions.some((r) => inside(right.imageBox, r)));
    // Together they cover less than the one rectangle around both.
    const union = renderRegion(room, [left, right]);
    const area = (r: Region) => (r.x1 - r.x0) * (r.y1 - r.y0);
    assert.ok(area(regions[0]!) + area(regions[1]!) < area(union));
  });

  it('renders pieces of one group, whose regions overlap, as one rectangle: the one around them all', () => {
    const a = pieceAt('side_table', 300, 400);
    const b = pieceAt('side_table', 340, 400);
    assert.deepEqual(renderRegions(room, [a, b]), [renderRegion(room, [a, b])]);
  });

  it('never returns overlapping rectangles, whatever the pieces', () => {
    const random = new Random(17);
    for (let trial = 0; trial < 30; trial++) {
      const placements = Array.from({ length: 2 + (trial % 5) }, () => pieceAt('side_table', 150 + random.next() * 340, 390 + random.next() * 80));
      const regions = renderRegions(room, placements);
      for (const p of placements) assert.ok(regions.some((r) => inside(p.imageBox, r)), 'every piece lies in a rectangle');
      for (let i = 0; i < regions.length; i++) {
        for (let j = i + 1; j < regions.length; j++) assert.ok(apart(regions[i]!, regions[j]!) > 0, `trial ${trial}: rectangles ${i} and ${j} overlap`);
      }
    }
  });
});
