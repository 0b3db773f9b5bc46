import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeRoom, type RoomAnalysis } from '../src/services/geometry/analyze-room.js';
import { horizonCells, layoutReport, MAX_MOVED_BOX_DISAGREEMENT, missingFloor, unsureLayout } from '../src/services/geometry/layout-trust.js';
import { lsdLineSource } from '../src/services/geometry/line-sources.js';
import { layoutLabelMap } from '../src/vision/geometry/room-box.js';
import { seededRandom } from './helpers/seeded-random.js';
import { syntheticRoom } from './helpers/synthetic-room.js';

/** The analysis of a photo of the synthetic room: each face of the box in its own shade, with a little noise. */
async function analysedRoom(front: number): Promise<RoomAnalysis> {
  const width = 320;
  const height = 240;
  const room = syntheticRoom(width, height, 70, -3);
  const labels = layoutLabelMap(room.camera, { ...room.box, front, back: -Infinity }, width, height);
  const shades = [[128, 96, 70], [236, 236, 232], [196, 192, 186], [218, 214, 208], [182, 178, 172], [200, 200, 200]];
  const random = seededRandom(8);
  const data = new Uint8Array(width * height * 3);
  for (let p = 0; p < width * height; p++) {
    for (let c = 0; c < 3; c++) data[p * 3 + c] = Math.max(0, Math.min(255, Math.round(shades[labels[p]!]![c]! + (random() - 0.5) * 4)));
  }
  return analyzeRoom({ data, width, height, channels: 3 }, lsdLineSource());
}

describe('whether a layout is trusted', () => {
  it("reports whose box a result built on, why the networks' was set aside, and how far it was moved onto their map", () => {
    const layout = (fittedToMap?: { before: number; after: number }) =>
      ({ layout: { evidence: 'network', ...(fittedToMap ? { fittedToMap } : {}) } }) as unknown as RoomAnalysis;
    assert.deepEqual(layoutReport(layout()), { evidence: 'network' });
    assert.deepEqual(layoutReport(layout({ before: 0.18924, after: 0.07204 })), { evidence: 'network', fittedToMap: { before: 0.189, after: 0.072 } });
    assert.deepEqual(layoutReport({ layout: { evidence: 'lines' } } as unknown as RoomAnalysis, 'its confidence is 0.3'), { evidence: 'lines', networkSetAside: 'its confidence is 0.3' });
  });

  it('names a confidence under the threshold asked for, NaN included', () => {
    const found = (layout: number) => ({ confidence: { vanishingPoints: 1, layout, overall: layout } });
    assert.equal(unsureLayout(found(0.7)), undefined);
    assert.equal(unsureLayout(found(0.5)), "the room's layout was found with confidence 0.5, below 0.6");
    assert.equal(unsureLayout(found(0.5), 0.3), undefined);
    assert.match(unsureLayout(found(Number.NaN), 0.3)!, /confidence NaN, below 0\.3/);
  });

  it('trusts an unsure box that was moved onto a sure map and follows it, and no other', () => {
    const moved = (after: number) => ({ confidence: { vanishingPoints: 1, layout: 0.3, overall: 0.3 }, layout: { fittedToMap: { before: 0.19, after } } });
    assert.equal(unsureLayout(moved(0.072)), undefined);
    assert.equal(unsureLayout(moved(MAX_MOVED_BOX_DISAGREEMENT)), undefined);
    assert.equal(unsureLayout(moved(0.157)), "the room's layout was found with confidence 0.3, below 0.6");
    assert.equal(unsureLayout({ confidence: { vanishingPoints: 1, layout: 0.3, overall: 0.3 }, layout: {} }), "the room's layout was found with confidence 0.3, below 0.6");
  });

  it('trusts the floor of a room seen whole, and names a layout with too little floor for a view that looks down', async () => {
    const analysis = await analysedRoom(5);
    const floor = analysis.layout.faces.filter((f) => f.label === 'floor').reduce((s, f) => s + f.share, 0);
    assert.ok(floor > 0.15, `the room's floor found on ${floor} of the photo`);
    assert.equal(missingFloor(analysis, 0.08), undefined);
    assert.equal(missingFloor(analysis, floor + 0.01)?.startsWith(`the room's layout shows floor on ${(100 * floor).toFixed(1)} % of the photo although`), true);
    // The same layout without its floor: a wall before the camera, which a photo looking down shows far less often than a wrong layout.
    const noFloor = { ...analysis, layout: { ...analysis.layout, faces: analysis.layout.faces.filter((f) => f.label !== 'floor') } };
    assert.match(missingFloor(noFloor, 0.08)!, /shows floor on 0\.0 % of the photo although \d+ % of it lies below the horizon/);
    // Looking up (the horizon near the photo's foot), little floor is what the photo shows.
    const lookingUp = { ...noFloor, horizon: { ...analysis.horizon, a: 0, b: 1, c: -0.9 * analysis.image.height } };
    assert.ok(horizonCells(lookingUp, 10, 10).reduce((s, v) => s + v, 0) === 10, 'one row of ten below the horizon');
    assert.equal(missingFloor(lookingUp, 0.08), undefined);
  });
});
