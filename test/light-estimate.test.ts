import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DAYLIGHT_BRIGHTNESS, estimateLight, showsDaylight, VIEW_VARIATION } from '../src/staging/light-estimate.js';
import { polygonMask } from '../src/vision/polygon-mask.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { syntheticRoom } from './helpers/synthetic-room.js';

const WALL = 200;

/**
 * The synthetic room's photo: walls and floor one grey each, its window showing `view(x, y)`. The door on the left
 * wall is painted as the wall.
 */
function photoWithView(view: (x: number, y: number) => number): RawImage {
  const width = 160;
  const height = 120;
  const room = syntheticRoom(width, height);
  const window = polygonMask(width, height, room.openings.filter((o) => o.kind === 'window').map((o) => o.polygon));
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      const value = window[p] ? view(x, y) : y > height * 0.6 ? 110 : WALL;
      data.fill(value, p * 3, p * 3 + 3);
    }
  }
  return { data, width, height, channels: 3 };
}

const windowLights = (photo: RawImage) => estimateLight(photo, syntheticRoom(photo.width, photo.height)).lights.filter((l) => l.from.startsWith('window'));

describe('which openings light the room', () => {
  it('a window as plain as the wall and no brighter lights nothing: a cupboard or a closed door taken for a window', () => {
    assert.equal(windowLights(photoWithView(() => WALL + 5)).length, 0);
  });

  it('a window showing a view lights the room, even when the view is no brighter than the wall', () => {
    // Foliage and sky in stripes, on average a little darker than the wall.
    const lights = windowLights(photoWithView((x) => (Math.floor(x / 3) % 2 === 0 ? 240 : 110)));
    assert.equal(lights.length, 1);
  });

  it('a plain window much brighter than the wall shows daylight: an overcast sky or a blind lit by the sun', () => {
    assert.equal(windowLights(photoWithView(() => 255)).length, 1);
  });

  it('a door lights the room only when brighter than a white wall, however varied what it shows', () => {
    assert.equal(showsDaylight('door', DAYLIGHT_BRIGHTNESS - 0.01, 1), false);
    assert.equal(showsDaylight('door', DAYLIGHT_BRIGHTNESS, 0), true);
    assert.equal(showsDaylight('french-door', DAYLIGHT_BRIGHTNESS - 0.01, VIEW_VARIATION), true);
    assert.equal(showsDaylight('window', DAYLIGHT_BRIGHTNESS - 0.01, VIEW_VARIATION - 0.01), false);
  });
});
