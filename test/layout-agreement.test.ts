import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { layoutDisagreement } from '../src/vision/geometry/layout-agreement.js';
import { CEILING, FLOOR, WALL_BACK, WALL_FRONT, WALL_LEFT, WALL_RIGHT } from '../src/vision/geometry/room-box.js';

/** A 10 × 10 label map: ceiling over the first `ceilingRows` rows, floor under the last `floorRows`, walls between split at `split`. */
function layout(ceilingRows: number, floorRows: number, split: number, walls: [number, number]): Uint8Array {
  const map = new Uint8Array(100);
  for (let y = 0; y < 10; y++) {
    for (let x = 0; x < 10; x++) map[y * 10 + x] = y < ceilingRows ? CEILING : y >= 10 - floorRows ? FLOOR : x < split ? walls[0] : walls[1];
  }
  return map;
}

describe('how far two layouts disagree', () => {
  it('matches walls by overlap, not by name', () => {
    const a = layout(2, 3, 5, [WALL_LEFT, WALL_FRONT]);
    const renamed = layout(2, 3, 5, [WALL_FRONT, WALL_RIGHT]);
    assert.equal(layoutDisagreement(a, a), 0);
    assert.equal(layoutDisagreement(a, renamed), 0);
  });

  it('counts the pixels whose face differs: a floor edge one row off, a corner two columns off', () => {
    const a = layout(2, 3, 5, [WALL_LEFT, WALL_FRONT]);
    assert.equal(layoutDisagreement(a, layout(2, 4, 5, [WALL_LEFT, WALL_FRONT])), 0.1);
    // 5 wall rows, the corner 2 columns apart: 10 pixels.
    assert.equal(layoutDisagreement(a, layout(2, 3, 7, [WALL_FRONT, WALL_RIGHT])), 0.1);
  });

  it('leaves a wall with no partner unmatched: one wall seen as two is wrong on the smaller part', () => {
    const one = layout(0, 0, 10, [WALL_FRONT, WALL_FRONT]);
    const two = layout(0, 0, 3, [WALL_LEFT, WALL_BACK]);
    assert.ok(Math.abs(layoutDisagreement(one, two) - 0.3) < 1e-9);
    assert.ok(Math.abs(layoutDisagreement(two, one) - 0.3) < 1e-9);
  });

  it('counts only the compared pixels where a mask is given, and refuses maps of different sizes', () => {
    const a = layout(2, 3, 5, [WALL_LEFT, WALL_FRONT]);
    const b = layout(2, 4, 5, [WALL_LEFT, WALL_FRONT]);
    const lowerHalf = new Uint8Array(100).map((_, i) => (i >= 50 ? 1 : 0));
    assert.equal(layoutDisagreement(a, b, lowerHalf), 0.2);
    assert.equal(layoutDisagreement(a, b, new Uint8Array(100)), 0);
    assert.throws(() => layoutDisagreement(a, new Uint8Array(99)), /different sizes/);
  });

  it('takes a label that is no face (255) for a disagreement, even against itself', () => {
    const a = layout(2, 3, 5, [WALL_LEFT, WALL_FRONT]);
    const unknown = a.slice().fill(255, 0, 10);
    assert.equal(layoutDisagreement(unknown, a), 0.1);
    assert.equal(layoutDisagreement(unknown, unknown), 0.1);
  });
});
