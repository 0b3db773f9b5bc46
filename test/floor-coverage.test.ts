import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { floorCoverage } from '../src/vision/restyle/floor-coverage.js';

/** A width × height mask, 1 where `inside(x, y)` holds (x, y as shares of the sides, at the cell centre). */
function grid(width: number, height: number, inside: (x: number, y: number) => boolean) {
  const mask = Uint8Array.from({ length: width * height }, (_, i) => (inside(((i % width) + 0.5) / width, (Math.floor(i / width) + 0.5) / height) ? 1 : 0));
  return { width, height, mask };
}

describe('floorCoverage', () => {
  // The floor seen: the lower half of a 40 × 30 map (the network's grid).
  const seen = grid(40, 30, (_, y) => y > 0.5);
  const nothingKept = new Uint8Array(40 * 30);

  it('finds nothing left where the relaid floor, on a finer grid, covers the floor seen', () => {
    const coverage = floorCoverage(seen, grid(200, 150, (_, y) => y > 0.5), nothingKept, 0, 1);
    assert.deepEqual(coverage, { seenShare: 0.5, leftShare: 0, largestShare: 0, openEdgeShare: 0, onFloorShare: 1 });
  });

  it('measures the strip the relaid floor stops short of, less what the tolerance forgives', () => {
    // The relaid floor stops a quarter of the way from the left: 10 of the 40 columns of the floor seen are left.
    const relaid = grid(200, 150, (x, y) => y > 0.5 && x > 0.25);
    assert.equal(floorCoverage(seen, relaid, nothingKept, 0, 1).leftShare, 0.25);
    const forgiven = floorCoverage(seen, relaid, nothingKept, 2, 1);
    assert.equal(forgiven.leftShare, 8 / 40);
    assert.equal(forgiven.largestShare, 8 / 40);
  });

  it('counts two pieces left apart, the largest on its own', () => {
    const relaid = grid(80, 60, (x, y) => y > 0.5 && x > 0.1 && x < 0.75);
    const coverage = floorCoverage(seen, relaid, nothingKept, 0, 1);
    assert.equal(coverage.leftShare, (4 + 10) / 40);
    assert.equal(coverage.largestShare, 10 / 40);
  });

  it('neither counts nor leaves the floor seen through what is kept out (a doorway)', () => {
    const doorway = grid(40, 30, (x) => x < 0.25).mask;
    const coverage = floorCoverage(seen, grid(200, 150, (x, y) => y > 0.5 && x > 0.25), doorway, 0, 1);
    assert.equal(coverage.leftShare, 0);
    assert.equal(coverage.seenShare, 0.375);
  });

  it('tells the share of the relaid floor that lies on the floor seen', () => {
    // Relaid up to 60 % of the height: a tenth of the map's height of wall relaid besides the floor's half.
    const coverage = floorCoverage(seen, grid(200, 150, (_, y) => y > 0.4), nothingKept, 0, 1);
    assert.equal(coverage.leftShare, 0);
    assert.equal(coverage.onFloorShare, 15 / 18);
    // A relaid floor where nothing is seen as floor.
    assert.equal(floorCoverage(grid(40, 30, () => false), grid(200, 150, (_, y) => y > 0.5), nothingKept, 0, 1).onFloorShare, 0);
  });

  it('scales each axis on its own: a relaid grid stretched otherwise than the floor seen', () => {
    // 2.5 relaid cells per seen cell across, 5 down; relaid from a quarter of the width and from half the height.
    const coverage = floorCoverage(seen, grid(100, 150, (x, y) => y > 0.5 && x > 0.25), nothingKept, 0, 1);
    assert.equal(coverage.leftShare, 0.25);
    assert.equal(coverage.onFloorShare, 1);
    // The same with the axes swapped is wrong on both counts: the relaid floor would cover another part of the map.
    const swapped = floorCoverage(seen, grid(100, 150, (x, y) => x > 0.5 && y > 0.25), nothingKept, 0, 1);
    assert.ok(swapped.onFloorShare < 1 && swapped.leftShare > 0.25, JSON.stringify(swapped));
  });

  it("measures along the relaid floor's edge where the floor seen goes on: a strip too thin to count by its area", () => {
    // The left half relaid from 3 rows below the floor's top edge: with a tolerance of 2, 3 % of the floor is left.
    const short = grid(200, 150, (x, y) => y > 0.5 + (x < 0.5 ? 3 / 30 : 0));
    const coverage = floorCoverage(seen, short, nothingKept, 2, 2);
    assert.ok(coverage.leftShare <= 0.03, JSON.stringify(coverage));
    // Two cells out, the left half's ring lies on the floor seen (row 15 over 20 columns, and the step's side), the
    // right half's above it.
    assert.ok(coverage.openEdgeShare > 0.4 && coverage.openEdgeShare < 0.6, JSON.stringify(coverage));
    // A relay short by one row leaves its ring two cells out off the floor: the borders' own disagreement.
    const nearly = grid(200, 150, (x, y) => y > 0.5 + (x < 0.5 ? 1 / 30 : 0));
    assert.equal(floorCoverage(seen, nearly, nothingKept, 2, 2).openEdgeShare, 0);
    // What is kept out (a doorway over the strip) is no open edge.
    const doorway = grid(40, 30, (x) => x < 0.5).mask;
    assert.equal(floorCoverage(seen, short, doorway, 2, 2).openEdgeShare, 0);
  });

  it('takes a relaid grid coarser than the floor seen', () => {
    const coverage = floorCoverage(seen, grid(20, 16, (x, y) => y > 0.5 && x > 0.5), nothingKept, 0, 1);
    assert.equal(coverage.leftShare, 0.5);
  });
});

