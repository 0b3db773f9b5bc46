import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DAYLIGHT_BRIGHTNESS, estimateLight, showsDaylight, VIEW_VARIATION } from '../src/staging/light-estimate.js';
import { polygonMask } from '../src/vision/polygon-mask.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { seededRandom } from './helpers/seeded-random.js';
import { syntheticRoom } from './helpers/synthetic-room.js';

type View = (x: number, y: number) => number;

/**
 * The synthetic room's photo: walls one grey (`wall`), the floor darker, its window showing `window(x, y)` and its
 * door (on the left wall) `door(x, y)`, or the wall's grey when not given (a closed door as plain as the wall).
 */
function photoOf(options: { window: View; door?: View; wall?: number; width?: number; height?: number }): RawImage {
  const width = options.width ?? 160;
  const height = options.height ?? 120;
  const wall = options.wall ?? 200;
  const room = syntheticRoom(width, height);
  const mask = (kind: string) => polygonMask(width, height, room.openings.filter((o) => o.kind === kind).map((o) => o.polygon));
  const [window, door] = [mask('window'), mask('door')];
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      const value = window[p] ? options.window(x, y) : door[p] ? (options.door?.(x, y) ?? wall) : y > height * 0.6 ? 110 : wall;
      data.fill(Math.max(0, Math.min(255, Math.round(value))), p * 3, p * 3 + 3);
    }
  }
  return { data, width, height, channels: 3 };
}

const lightsOf = (photo: RawImage) => estimateLight(photo, syntheticRoom(photo.width, photo.height)).lights.map((l) => l.from);

describe('which openings light the room', () => {
  it('a window as plain as the wall and no brighter lights nothing: a cupboard or a closed door taken for a window', () => {
    assert.deepEqual(lightsOf(photoOf({ window: () => 205 })), ['fill']);
  });

  it('a window showing a view lights the room, even when the view is no brighter than the wall', () => {
    // Foliage and sky in stripes, on average a little darker than the wall.
    assert.deepEqual(lightsOf(photoOf({ window: (x) => (Math.floor(x / 3) % 2 === 0 ? 240 : 110) })), ['window-0', 'fill']);
  });

  it('blinds whose period is the sampling step still read as a view', () => {
    // A checkerboard of light and dark, in a photo large enough that the window is sampled every second pixel: a grid
    // of samples at one phase would see only one of the two tones.
    assert.deepEqual(lightsOf(photoOf({ window: (x, y) => ((x + y) % 2 === 0 ? 240 : 90), width: 800, height: 600 })), ['window-0', 'fill']);
    // Level slats and upright bars of the same period.
    assert.deepEqual(lightsOf(photoOf({ window: (_x, y) => (y % 2 === 0 ? 240 : 90), width: 800, height: 600 })), ['window-0', 'fill']);
    assert.deepEqual(lightsOf(photoOf({ window: (x) => (x % 2 === 0 ? 240 : 90), width: 800, height: 600 })), ['window-0', 'fill']);
  });

  it('a plain window much brighter than the wall shows daylight: an overcast sky or a blind lit by the sun', () => {
    assert.deepEqual(lightsOf(photoOf({ window: () => 255 })), ['window-0', 'fill']);
  });

  it('a blown-out window lights a white room, whose walls are nearly as bright as it', () => {
    assert.deepEqual(lightsOf(photoOf({ window: () => 255, wall: 235 })), ['window-0', 'fill']);
  });

  it('a dark window lights nothing, however noisy its pixels: night, or a dark cupboard', () => {
    const random = seededRandom(3);
    assert.deepEqual(lightsOf(photoOf({ window: () => 14 + (random() - 0.5) * 16 })), ['fill']);
  });

  it('a door lights the room only when it shows daylight: 30 % brighter than a white wall, or blown out', () => {
    const view = (x: number) => (Math.floor(x / 3) % 2 === 0 ? 240 : 110);
    assert.deepEqual(lightsOf(photoOf({ window: view, door: view })), ['window-0', 'fill']);
    assert.deepEqual(lightsOf(photoOf({ window: view, door: () => 255 })), ['window-0', 'door-1', 'fill']);
    assert.equal(showsDaylight('door', { brightness: DAYLIGHT_BRIGHTNESS - 0.01, variation: 1, clippedShare: 0 }), false);
    assert.equal(showsDaylight('french-door', { brightness: 1, variation: VIEW_VARIATION, clippedShare: 0 }), true);
  });
});
