import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { labOfLinearRgb, LINEAR_OF_BYTE, linearToSrgb, type Lab } from '../src/vision/colour.js';
import { enhancePhoto } from '../src/vision/enhance/enhance.js';
import { measurePhoto } from '../src/vision/enhance/photo-metrics.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { seededRandom } from './helpers/seeded-random.js';

interface Patch {
  left: number;
  top: number;
  width: number;
  height: number;
  /** Linear RGB reflectance-times-light of the patch. */
  linear: [number, number, number];
}

/**
 * Renders patches in linear light over a background, each with a little multiplicative texture (±`texture`), then
 * multiplies by `light` (the illuminant's colour and brightness) and encodes to 8-bit sRGB.
 */
function scene(
  width: number,
  height: number,
  background: [number, number, number],
  patches: Patch[],
  light: [number, number, number] = [1, 1, 1],
  texture = 0.04,
  seed = 1,
): RawImage {
  const random = seededRandom(seed);
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const patch = patches.find((p) => x >= p.left && x < p.left + p.width && y >= p.top && y < p.top + p.height);
      const base = patch?.linear ?? background;
      const grain = 1 + texture * (2 * random() - 1);
      for (let c = 0; c < 3; c++) {
        data[(y * width + x) * 3 + c] = Math.round(255 * linearToSrgb(Math.min(1, base[c]! * light[c]! * grain)));
      }
    }
  }
  return { data, width, height, channels: 3 };
}

/** A grey card chart: neutral patches from dark to light, and a few muted colours, as a colour checker has. */
function greyCardPatches(): Patch[] {
  const greys = [0.05, 0.1, 0.18, 0.3, 0.45, 0.6];
  const colours: [number, number, number][] = [
    [0.3, 0.12, 0.08],
    [0.1, 0.2, 0.08],
    [0.08, 0.1, 0.3],
  ];
  return [
    ...greys.map((value, i): Patch => ({ left: 10 + i * 50, top: 20, width: 40, height: 60, linear: [value, value, value] })),
    ...colours.map((linear, i): Patch => ({ left: 10 + i * 50, top: 110, width: 40, height: 40, linear })),
  ];
}

function regionLab(image: RawImage, patch: Pick<Patch, 'left' | 'top' | 'width' | 'height'>): Lab {
  const sums = [0, 0, 0];
  let count = 0;
  for (let y = patch.top + 4; y < patch.top + patch.height - 4; y++) {
    for (let x = patch.left + 4; x < patch.left + patch.width - 4; x++) {
      const offset = (y * image.width + x) * image.channels;
      for (let c = 0; c < 3; c++) sums[c]! += LINEAR_OF_BYTE[image.data[offset + c]!]!;
      count++;
    }
  }
  return labOfLinearRgb(sums[0]! / count, sums[1]! / count, sums[2]! / count, { lightness: 0, a: 0, b: 0 });
}

function meanChroma(image: RawImage, patches: Patch[]): number {
  return patches.reduce((sum, patch) => {
    const lab = regionLab(image, patch);
    return sum + Math.hypot(lab.a, lab.b);
  }, 0) / patches.length;
}

function meanAbsoluteDifference(first: RawImage, second: RawImage): number {
  let total = 0;
  for (let i = 0; i < first.data.length; i++) total += Math.abs(first.data[i]! - second.data[i]!);
  return total / first.data.length;
}

describe('enhancePhoto: white balance', () => {
  const neutral = greyCardPatches().slice(0, 6);

  it('neutralises most of a blue cast on a grey card scene', () => {
    const cast = scene(320, 170, [0.25, 0.25, 0.25], greyCardPatches(), [0.82, 1, 1.25]);
    const { image, report } = enhancePhoto(cast);
    const before = meanChroma(cast, neutral);
    const after = meanChroma(image, neutral);
    assert.ok(before > 8, `the test scene should start with a visible cast (C*ab ${before.toFixed(1)})`);
    assert.ok(after < 0.5 * before, `grey patch chroma ${before.toFixed(1)} → ${after.toFixed(1)}`);
    assert.ok(report.whiteBalance!.temperature < 0, 'the cast is reported as cool');
    assert.ok(report.whiteBalance!.gains[2] < 1 && report.whiteBalance!.gains[0] > 1, 'blue comes down, red goes up');
  });

  it('reduces a yellow cast, less fully than a blue one', () => {
    const cast = scene(320, 170, [0.25, 0.25, 0.25], greyCardPatches(), [1.15, 1, 0.75]);
    const { image, report } = enhancePhoto(cast);
    const before = meanChroma(cast, neutral);
    const after = meanChroma(image, neutral);
    assert.ok(after < 0.8 * before, `grey patch chroma ${before.toFixed(1)} → ${after.toFixed(1)}`);
    assert.ok(after > 0.2 * before, 'a warm cast is only partly removed');
    assert.ok(report.whiteBalance!.temperature > 0, 'the cast is reported as warm');
  });

  it('keeps a room lit warm on purpose warm: cream walls under warm light, no neutral patch', () => {
    const walls: [number, number, number] = [0.75, 0.58, 0.36];
    const wood: Patch[] = [
      { left: 0, top: 120, width: 320, height: 50, linear: [0.3, 0.14, 0.05] },
      { left: 40, top: 30, width: 60, height: 90, linear: [0.2, 0.09, 0.03] },
      { left: 200, top: 40, width: 80, height: 50, linear: [0.45, 0.3, 0.15] },
    ];
    const warm = scene(320, 170, walls, wood, [1, 1, 1], 0.06);
    const wallRegion = { left: 120, top: 10, width: 60, height: 100 };
    const { image } = enhancePhoto(warm);
    const before = regionLab(warm, wallRegion);
    const after = regionLab(image, wallRegion);
    assert.ok(after.b > 0.5 * before.b, `wall b* ${before.b.toFixed(1)} → ${after.b.toFixed(1)}: still clearly warm`);
    const woodBefore = regionLab(warm, wood[0]!);
    const woodAfter = regionLab(image, wood[0]!);
    assert.ok(Math.hypot(woodAfter.a, woodAfter.b) > 0.8 * Math.hypot(woodBefore.a, woodBefore.b), 'the wood keeps its colour');
  });
});

describe('enhancePhoto: tone', () => {
  it('brightens an under-exposed scene without clipping it', () => {
    const dark = scene(320, 170, [0.25, 0.22, 0.2], greyCardPatches(), [0.2, 0.2, 0.2]);
    const { image, report } = enhancePhoto(dark);
    const before = measurePhoto(dark);
    const after = measurePhoto(image);
    const lightness = `mean L* ${before.meanLightness.toFixed(1)} → ${after.meanLightness.toFixed(1)}`;
    assert.ok(after.meanLightness > before.meanLightness + 10, lightness);
    assert.equal(after.clippedHighlights, 0);
    assert.ok(report.tone.exposureStops > 1, `exposure +${report.tone.exposureStops.toFixed(2)} EV`);
  });

  describe('a bright textured window next to dark walls', () => {
    const width = 400;
    const height = 200;
    const window = { left: 200, top: 0, width: 200, height: 200 };
    const random = seededRandom(7);
    const data = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        // Walls at about code 45; the window around code 240, its texture reaching the clipping point in places.
        const inWindow = x >= window.left;
        const texture = inWindow ? 30 * Math.sin(x / 3) * Math.sin(y / 4) + 12 * random() : 4 * random();
        const value = Math.round(Math.min(255, (inWindow ? 236 : 43) + texture));
        data.set([value, value, value], (y * width + x) * 3);
      }
    }
    const room: RawImage = { data, width, height, channels: 3 };
    const { image } = enhancePhoto(room);

    const columnMean = (picture: RawImage, x: number) => {
      let sum = 0;
      for (let y = 20; y < height - 20; y++) sum += picture.data[(y * width + x) * 3]!;
      return sum / (height - 40);
    };
    const bandMean = (picture: RawImage, from: number, to: number) => {
      let sum = 0;
      for (let x = from; x < to; x++) sum += columnMean(picture, x);
      return sum / (to - from);
    };
    const clippedInWindow = (picture: RawImage) => {
      let clipped = 0;
      for (let y = 0; y < height; y++) for (let x = window.left; x < width; x++) if (picture.data[(y * width + x) * 3]! >= 254) clipped++;
      return clipped;
    };

    it('recovers highlights: fewer clipped pixels in the window', () => {
      const before = clippedInWindow(room);
      assert.ok(before > 1000, `the window should start partly clipped (${before} pixels)`);
      assert.ok(clippedInWindow(image) < 0.5 * before, `${before} → ${clippedInWindow(image)} clipped pixels`);
    });

    it('opens the shadows of the walls', () => {
      const [before, after] = [bandMean(room, 20, 120), bandMean(image, 20, 120)];
      assert.ok(after > before + 8, `wall ${before.toFixed(1)} → ${after.toFixed(1)}`);
    });

    it('leaves no halo along the edge', () => {
      // Beyond the few pixels sharpening touches, the wall next to the window must look like the wall far from it,
      // and likewise inside the window: an edge-aware base layer does not bleed one side's gain into the other.
      const wallFar = bandMean(image, 20, 120);
      const wallNear = bandMean(image, window.left - 20, window.left - 3);
      assert.ok(Math.abs(wallNear - wallFar) < 3, `wall next to the window ${wallNear.toFixed(1)} vs far ${wallFar.toFixed(1)}`);
      const insideChange = (from: number, to: number) => bandMean(image, from, to) - bandMean(room, from, to);
      const nearChange = insideChange(window.left + 3, window.left + 20);
      const farChange = insideChange(window.left + 80, window.left + 180);
      const changes = `window change next to the wall ${nearChange.toFixed(1)} vs far ${farChange.toFixed(1)}`;
      assert.ok(Math.abs(nearChange - farChange) < 3, changes);
    });
  });

  it('changes a well-exposed neutral photo little', () => {
    // Mid-grey on average, from deep shadow to near white (about 5 stops, as a well-exposed room has).
    const patches: Patch[] = [0.03, 0.12, 0.2, 0.3, 0.42, 0.55, 0.75].map((value, i) => ({
      left: 20 + i * 45,
      top: 30,
      width: 35,
      height: 110,
      linear: [value, value, value],
    }));
    const good = scene(340, 170, [0.22, 0.22, 0.22], patches);
    const { image } = enhancePhoto(good);
    const difference = meanAbsoluteDifference(good, image);
    assert.ok(difference < 3, `mean absolute difference ${difference.toFixed(2)} codes`);
  });
});

describe('enhancePhoto: contract', () => {
  const photo = scene(240, 160, [0.15, 0.13, 0.1], greyCardPatches().map((p) => ({ ...p, left: p.left / 1.4 })), [1.1, 1, 0.85]);

  it('is deterministic: the same input gives the same bytes', () => {
    const first = enhancePhoto(photo).image;
    const second = enhancePhoto({ ...photo, data: Uint8Array.from(photo.data) }).image;
    assert.ok(Buffer.from(first.data).equals(Buffer.from(second.data)));
  });

  it('keeps the full resolution and does not modify its input', () => {
    const copy = Uint8Array.from(photo.data);
    const { image } = enhancePhoto(photo);
    assert.deepEqual([image.width, image.height, image.channels], [photo.width, photo.height, 3]);
    assert.ok(Buffer.from(photo.data).equals(Buffer.from(copy)));
  });

  it('copies alpha untouched', () => {
    const pixels = photo.width * photo.height;
    const rgba = new Uint8Array(pixels * 4);
    for (let i = 0; i < pixels; i++) {
      rgba.set(photo.data.subarray(i * 3, i * 3 + 3), i * 4);
      rgba[i * 4 + 3] = (i * 37) % 256;
    }
    const { image } = enhancePhoto({ ...photo, data: rgba, channels: 4 });
    assert.equal(image.channels, 4);
    for (let i = 0; i < pixels; i++) assert.equal(image.data[i * 4 + 3], rgba[i * 4 + 3]);
  });

  it('enhances greyscale (with and without alpha) with the tone steps only', () => {
    const pixels = photo.width * photo.height;
    const grey = new Uint8Array(pixels);
    for (let i = 0; i < pixels; i++) grey[i] = Math.round(0.4 * photo.data[i * 3 + 1]!);
    const { image, report } = enhancePhoto({ ...photo, data: grey, channels: 1 });
    assert.equal(image.channels, 1);
    assert.equal(report.colour, false);
    assert.equal(report.whiteBalance, null);
    assert.equal(report.vibrance, 0);
    assert.ok(measurePhoto(image).meanLightness > measurePhoto({ ...photo, data: grey, channels: 1 }).meanLightness + 5);

    const greyAlpha = new Uint8Array(pixels * 2);
    for (let i = 0; i < pixels; i++) greyAlpha.set([grey[i]!, 255 - (i % 256)], i * 2);
    const withAlpha = enhancePhoto({ ...photo, data: greyAlpha, channels: 2 }).image;
    assert.equal(withAlpha.channels, 2);
    for (let i = 0; i < pixels; i++) assert.equal(withAlpha.data[i * 2 + 1], greyAlpha[i * 2 + 1]);
  });

  it('reports what it estimated and applied', () => {
    const { report } = enhancePhoto(photo);
    const wb = report.whiteBalance!;
    assert.ok(wb.gains.every((gain) => gain > 0.5 && gain < 2));
    assert.ok(Number.isFinite(report.tone.exposureStops) && Number.isFinite(report.tone.medianLuminance));
    assert.ok(report.sharpen.threshold >= 1);
    assert.equal(report.preview.width, photo.width, 'a small photo is its own preview');
  });
});
