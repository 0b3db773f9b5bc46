import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { standingFurniture } from '../src/vision/geometry/standing-furniture.js';
import { LAYOUT_CLASSES, VISIBLE_CLASSES, type RoomSegmentation, type VisibleClass } from '../src/vision/geometry/room-segmentation.js';

const W = 40;
const H = 30;
/** The layout's floor: the rows from 15 down. */
const FLOOR_FROM = 15;

/**
 * A wall over a floor, the network's layout map agreeing with the box except in columns from `networkFloorX` on,
 * where the network puts the floor's edge 4 rows higher (the box's is too low there).
 */
function scene(regions: { kind: VisibleClass; x0: number; x1: number; y0: number; y1: number }[], networkFloorX = W): { segmentation: RoomSegmentation; floor: Uint8Array } {
  const visible = new Uint8Array(W * H).fill(VISIBLE_CLASSES.indexOf('wall'));
  const floor = new Uint8Array(W * H);
  const layout = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      floor[y * W + x] = y >= FLOOR_FROM ? 1 : 0;
      layout[y * W + x] = y >= (x >= networkFloorX ? FLOOR_FROM - 4 : FLOOR_FROM) ? LAYOUT_CLASSES.indexOf('floor') : LAYOUT_CLASSES.indexOf('wall-front');
    }
  }
  for (const r of regions) for (let y = r.y0; y <= r.y1; y++) for (let x = r.x0; x <= r.x1; x++) visible[y * W + x] = VISIBLE_CLASSES.indexOf(r.kind);
  const n = W * H;
  return { segmentation: { width: W, height: H, visible, layout, layoutConfidence: new Float32Array(n), edges: new Float32Array(n) }, floor };
}

describe('furniture the room network sees standing on the floor', () => {
  it('keeps the regions that stand on the floor and rise off it, as their boxes', () => {
    const { segmentation, floor } = scene([
      { kind: 'rug', x0: 2, x1: 20, y0: 13, y1: 29 }, // not something standing, whatever its place (painted over below)
      { kind: 'furniture', x0: 2, x1: 7, y0: 8, y1: 19 }, // a sofa against the wall: 5 of 12 rows on the floor
      { kind: 'clutter', x0: 30, x1: 33, y0: 12, y1: 17 }, // boxes stacked by the wall: half on the floor
      { kind: 'furniture', x0: 12, x1: 18, y0: 22, y1: 27 }, // a reflection on a glossy floor: all on the floor
      { kind: 'furniture', x0: 12, x1: 18, y0: 1, y1: 5 }, // wall cabinets: all off the floor
      { kind: 'furniture', x0: 22, x1: 26, y0: 14, y1: 18 }, // a sun patch crossing the floor's edge by a row: 1 of 5 off
      { kind: 'furniture', x0: 37, x1: 37, y0: 14, y1: 15 }, // 2 pixels: under the least size
    ]);
    // In the order a row-by-row scan meets them.
    assert.deepEqual(standingFurniture(segmentation, floor), [
      { x: 2, y: 8, width: 6, height: 12 },
      { x: 30, y: 12, width: 4, height: 6 },
    ]);
  });

  it("counts a region off the floor only where the network's own layout has no floor either", () => {
    // A reflection reaching 4 rows past the box's floor edge, where the box put that edge too low: half of it off the
    // box's floor, none of it off the network's.
    const reflection = { kind: 'furniture' as const, x0: 30, x1: 35, y0: 11, y1: 18 };
    const misplaced = scene([reflection], 28);
    assert.equal(standingFurniture(misplaced.segmentation, misplaced.floor).length, 0);
    const agreed = scene([reflection]);
    assert.equal(standingFurniture(agreed.segmentation, agreed.floor).length, 1, 'where both agree on the edge, it rises off the floor');
  });

  it('answers by the shares it is given', () => {
    const { segmentation, floor } = scene([{ kind: 'furniture', x0: 22, x1: 26, y0: 14, y1: 18 }]);
    assert.equal(standingFurniture(segmentation, floor).length, 0);
    assert.deepEqual(standingFurniture(segmentation, floor, { minOffFloor: 0.15 }), [{ x: 22, y: 14, width: 5, height: 5 }]);
    assert.equal(standingFurniture(segmentation, floor, { minOffFloor: 0.15, minShare: 0.05 }).length, 0, '25 pixels of 1,200 is under 5 %');
  });

  it('refuses a floor map of another size', () => {
    const { segmentation } = scene([]);
    assert.throws(() => standingFurniture(segmentation, new Uint8Array(10)), /not the segmentation's size/);
  });
});

