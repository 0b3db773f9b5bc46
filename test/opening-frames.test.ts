import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { frameMargin, framedOpeningsMask } from '../src/vision/geometry/opening-frames.js';

describe('openings with their frames', () => {
  // A window 100 pixels wide and 50 tall: its frame is 4 % of 50 pixels, 2 pixels.
  const window: [number, number][] = [[20, 70], [120, 70], [120, 20], [20, 20]];

  it('gives each opening a frame of 4 % of its smaller side, at least 2 pixels', () => {
    assert.equal(frameMargin(window), 2);
    assert.equal(frameMargin([[0, 0], [300, 0], [300, 200], [0, 200]]), 8);
    assert.equal(frameMargin([[0, 0], [10, 0], [10, 10], [0, 10]]), 2);
  });

  it('marks the opening and its frame, and nothing farther', () => {
    const mask = framedOpeningsMask(160, 100, [window]);
    const at = (x: number, y: number) => mask[y * 160 + x];
    assert.equal(at(70, 45), 1, 'inside');
    assert.equal(at(18, 45), 1, 'on the frame left of it');
    assert.equal(at(70, 71), 1, 'on the sill below it');
    assert.equal(at(15, 45), 0, 'past the frame');
    assert.equal(at(70, 74), 0, 'below the sill');
  });
});
