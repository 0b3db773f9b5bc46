import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PinholeCamera } from '../src/vision/geometry/camera.js';
import { fitBoxToLayoutMap, layoutMapConfidence } from '../src/vision/geometry/fit-box-to-map.js';
import { layoutDisagreement } from '../src/vision/geometry/layout-agreement.js';
import { FLOOR, layoutLabelMap, type RoomBox } from '../src/vision/geometry/room-box.js';
import type { RoomSegmentation } from '../src/vision/geometry/room-segmentation.js';
import type { Mat3 } from '../src/vision/geometry/vec3.js';

/** A camera turned `yawDeg` degrees right of the room's forward axis and looking `pitchDeg` degrees down, 70° across. */
function camera(yawDeg: number, pitchDeg: number): PinholeCamera {
  const [yaw, pitch] = [(yawDeg * Math.PI) / 180, (-pitchDeg * Math.PI) / 180];
  const forward = [Math.sin(yaw) * Math.cos(pitch), Math.cos(yaw) * Math.cos(pitch), Math.sin(pitch)];
  const right = [Math.cos(yaw), -Math.sin(yaw), 0];
  // down = forward × right (camera y points down).
  const down = [forward[1]! * right[2]! - forward[2]! * right[1]!, forward[2]! * right[0]! - forward[0]! * right[2]!, forward[0]! * right[1]! - forward[1]! * right[0]!];
  const rotation = [...right, ...down, ...forward] as Mat3;
  return { width: 320, height: 240, focal: 160 / Math.tan((35 * Math.PI) / 180), cx: 160, cy: 120, rotation };
}

const VIEW = camera(5, 6);
/** In camera heights: floor at −1. */
const TRUTH: RoomBox = { left: -1.4, right: 2.2, front: 3.4, back: -Infinity, floor: -1, ceiling: 0.75 };

/** The map a network sure of the room would give: the faces of `box`, each with probability `confidence`. */
function mapOf(box: RoomBox, confidence = 0.95): RoomSegmentation {
  const [width, height] = [160, 120];
  const layout = layoutLabelMap(VIEW, box, width, height);
  return { width, height, layout, visible: new Uint8Array(width * height), layoutConfidence: new Float32Array(width * height).fill(confidence), edges: new Float32Array(width * height) };
}

describe('a room box moved onto the network layout map', () => {
  it('finds the walls, the front wall and the ceiling of the map from a start far off', () => {
    const start = { ...TRUTH, left: TRUTH.left * 1.5, right: TRUTH.right * 0.7, front: TRUTH.front * 1.3, ceiling: TRUTH.ceiling * 0.8 };
    const fit = fitBoxToLayoutMap(VIEW, start, mapOf(TRUTH));
    assert.ok(fit.before > 0.1, `the start disagrees with the map on ${fit.before}`);
    assert.ok(fit.after < 0.01, `the fit still disagrees on ${fit.after}`);
    for (const key of ['left', 'right', 'front', 'ceiling'] as const) {
      assert.ok(Math.abs(fit.box[key] / TRUTH[key] - 1) < 0.05, `${key}: ${fit.box[key]} against ${TRUTH[key]}`);
    }
    assert.equal(fit.box.floor, start.floor, 'the floor sets the scale and stays');
    assert.equal(fit.after, layoutDisagreement(layoutLabelMap(VIEW, fit.box, 160, 120), mapOf(TRUTH).layout));
  });

  it('compares only the pixels the network is sure of', () => {
    const map = mapOf(TRUTH);
    // The right third of the map unsure and wrong (floor everywhere), as behind a sofa.
    for (let y = 0; y < map.height; y++) {
      for (let x = Math.floor((2 * map.width) / 3); x < map.width; x++) {
        map.layout[y * map.width + x] = FLOOR;
        map.layoutConfidence[y * map.width + x] = 0.3;
      }
    }
    const fit = fitBoxToLayoutMap(VIEW, TRUTH, map);
    assert.equal(fit.before, 0);
    assert.deepEqual(fit.box, TRUTH);
    assert.ok(fitBoxToLayoutMap(VIEW, TRUTH, map, { minConfidence: 0 }).before > 0.1, 'counted, the wrong third disagrees');
  });

  it('keeps a start that already follows the map closer than minDisagreement, and searches one that does not', () => {
    const near = { ...TRUTH, front: TRUTH.front * 1.04 };
    const kept = fitBoxToLayoutMap(VIEW, near, mapOf(TRUTH), { minDisagreement: 0.05 });
    assert.ok(kept.before > 0 && kept.before < 0.05, `${kept.before}`);
    assert.deepEqual(kept.box, near);
    assert.equal(kept.after, kept.before);
    const moved = fitBoxToLayoutMap(VIEW, near, mapOf(TRUTH));
    assert.ok(moved.after < kept.before, `${moved.after} against ${kept.before}`);
  });

  it("measures the network's sureness as the mean probability of its winning layout class", () => {
    const map = mapOf(TRUTH, 0.9);
    map.layoutConfidence.fill(0.5, 0, map.layoutConfidence.length / 2);
    assert.ok(Math.abs(layoutMapConfidence(map) - 0.7) < 1e-6);
  });
});
