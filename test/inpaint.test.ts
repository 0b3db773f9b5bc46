import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inpaint, type SurfaceMap } from '../src/vision/inpaint/inpaint.js';
import { roomSurfaces } from '../src/vision/inpaint/surfaces.js';
import { matchMembrane } from '../src/vision/inpaint/membrane-base.js';
import { holeDepth } from '../src/vision/inpaint/patch-match.js';
import { dilateSquare } from '../src/vision/mask-morphology.js';
import { layoutLabelMap, type RoomBox } from '../src/vision/geometry/room-box.js';
import { cameraToWorld, type PinholeCamera } from '../src/vision/geometry/camera.js';
import type { RawImage } from '../src/vision/raw-image.js';
import type { Mat3 } from '../src/vision/geometry/vec3.js';

function rgb(width: number, height: number, colourAt: (x: number, y: number) => [number, number, number]): RawImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set(colourAt(x, y), 3 * (y * width + x));
  }
  return { data, width, height, channels: 3 };
}

function ellipse(width: number, height: number, cx: number, cy: number, rx: number, ry: number): Uint8Array {
  const mask = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) if (((x + 0.5 - cx) / rx) ** 2 + ((y + 0.5 - cy) / ry) ** 2 < 1) mask[y * width + x] = 1;
  }
  return mask;
}

/** Mean absolute difference per channel over the masked pixels. */
function meanError(a: RawImage, b: RawImage, mask: Uint8Array): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    for (let c = 0; c < 3; c++) sum += Math.abs(a.data[3 * i + c]! - b.data[3 * i + c]!);
    n += 3;
  }
  return sum / n;
}

/** Mean absolute horizontal gradient of the green channel over the masked pixels: how much texture is there. */
function texture(image: RawImage, mask: Uint8Array): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i] || i % image.width === image.width - 1) continue;
    sum += Math.abs(image.data[3 * (i + 1) + 1]! - image.data[3 * i + 1]!);
    n++;
  }
  return sum / n;
}

describe('inpainting', () => {
  const width = 160;
  const height = 120;
  // Boards: vertical stripes of two woods with a dark seam every 12 pixels.
  const boards = rgb(width, height, (x) => (x % 12 === 0 ? [70, 40, 20] : Math.floor(x / 12) % 2 ? [190, 140, 90] : [170, 120, 75]));
  const hole = ellipse(width, height, 80, 60, 22, 18);

  it('continues a regular texture through the hole instead of blurring it', () => {
    const damaged = { ...boards, data: boards.data.slice() };
    for (let i = 0; i < hole.length; i++) if (hole[i]) damaged.data.set([255, 0, 255], 3 * i);
    const { image } = inpaint({ image: damaged, hole }, { seam: 0 });
    // A blur of the rim scores about 25 here.
    assert.ok(meanError(image, boards, hole) < 8, `error ${meanError(image, boards, hole).toFixed(1)}`);
    const ratio = texture(image, hole) / texture(boards, hole);
    assert.ok(ratio > 0.8 && ratio < 1.2, `texture ratio ${ratio.toFixed(2)}`);
  });

  it('leaves every pixel outside the hole and its seam bit-identical', () => {
    const seam = 2;
    const { image } = inpaint({ image: boards, hole }, { seam });
    const near = dilateSquare(hole, width, height, seam);
    let changedOutside = 0;
    for (let i = 0; i < hole.length; i++) {
      const same = [0, 1, 2].every((c) => image.data[3 * i + c] === boards.data[3 * i + c]);
      if (!near[i] && !same) changedOutside++;
    }
    assert.equal(changedOutside, 0);
  });

  it('never copies from excluded pixels', () => {
    // A red object beside the hole that would be the best match for the hole's red rim if it were allowed.
    const scene = rgb(width, height, (x, y) => (x >= 20 && x < 50 && y >= 40 && y < 80 ? [220, 20, 20] : [100 + (x % 7) * 5, 110, 120]));
    const object = new Uint8Array(width * height);
    for (let y = 40; y < 80; y++) for (let x = 20; x < 50; x++) object[y * width + x] = 1;
    const { image } = inpaint({ image: scene, hole, excluded: object });
    let red = 0;
    for (let i = 0; i < hole.length; i++) if (hole[i] && image.data[3 * i]! > 180 && image.data[3 * i + 1]! < 60) red++;
    assert.equal(red, 0);
  });

  it('does not depend on what was in the hole, also when it works on a reduced copy', () => {
    // An irregular texture, so that which patch matches best depends on every pixel of the rim.
    const noisy = rgb(width, height, (x, y) => {
      const v = ((x * 7919 + y * 104729) ^ (x * y * 31)) % 97;
      return [120 + v, 100 + ((v * 3) % 97), 80 + ((v * 7) % 97)];
    });
    const paint = (colour: [number, number, number]) => {
      const data = noisy.data.slice();
      for (let i = 0; i < hole.length; i++) if (hole[i]) data.set(colour, 3 * i);
      return { ...noisy, data };
    };
    const options = { workingSize: 100 };
    const grey = inpaint({ image: paint([128, 128, 128]), hole }, options).image.data;
    const red = inpaint({ image: paint([255, 0, 0]), hole }, options).image.data;
    assert.deepEqual(grey, red);
  });

  it('is deterministic for a seed', () => {
    const a = inpaint({ image: boards, hole }, { seed: 7 }).image.data;
    const b = inpaint({ image: boards, hole }, { seed: 7 }).image.data;
    assert.deepEqual(a, b);
  });

  it('keeps floor boards running in perspective when the floor plane is known', () => {
    // A camera 1.5 m above a floor of boards 0.2 m wide running away from it, pitched 25° down.
    const w = 200;
    const h = 150;
    const pitch = (-25 * Math.PI) / 180;
    const c = Math.cos(pitch);
    const s = Math.sin(pitch);
    // World-to-camera: its rows are the camera's right, down and forward axes in the world (X right, Y ahead, Z up).
    const rotation: Mat3 = [1, 0, 0, 0, s, -c, 0, c, s];
    const camera: PinholeCamera = { width: w, height: h, focal: 160, cx: w / 2, cy: h / 2, rotation };
    const box: RoomBox = { left: -4, right: 4, front: 8, back: -Infinity, floor: -1.5, ceiling: 1.2 };
    const floorColour = (X: number): [number, number, number] => {
      const board = Math.floor(X / 0.2);
      const t = X / 0.2 - board;
      if (t < 0.08) return [60, 35, 20];
      return board % 2 ? [185, 135, 85] : [160, 112, 70];
    };
    const scene = rgb(w, h, (x, y) => {
      const d = cameraToWorld(camera, [(x + 0.5 - camera.cx) / camera.focal, (y + 0.5 - camera.cy) / camera.focal, 1]);
      if (d[2] >= -1e-6) return [230, 230, 225];
      const t = box.floor / d[2];
      const Y = t * d[1];
      if (Y > box.front) return [230, 230, 225];
      return floorColour(t * d[0]);
    });
    const floorHole = ellipse(w, h, 100, 118, 26, 16);
    const labels = layoutLabelMap(camera, box);
    const surfaces: SurfaceMap = { surfaces: roomSurfaces(camera, box), labels, width: w, height: h };
    const guided = inpaint({ image: scene, hole: floorHole, surfaces }, { seam: 0 }).image;
    const plain = inpaint({ image: scene, hole: floorHole }, { seam: 0 }).image;
    const guidedError = meanError(guided, scene, floorHole);
    const plainError = meanError(plain, scene, floorHole);
    assert.ok(guidedError < 14, `plane-guided error ${guidedError.toFixed(1)}`);
    assert.ok(guidedError <= plainError + 1, `plane-guided ${guidedError.toFixed(1)} vs plain ${plainError.toFixed(1)}`);
  });
});

describe('inpainting: the membrane under a small hole\'s fill', () => {
  const width = 200;
  const height = 150;
  // Shading across the wall (linear, so the membrane through the rim is the truth's own) under a fine checker.
  const wall = rgb(width, height, (x, y) => {
    const v = 80 + 0.5 * x + 0.3 * y + ((x + y) % 2 ? 10 : -10);
    return [v, v - 5, v - 10];
  });
  const hole = ellipse(width, height, 100, 75, 30, 25);
  // A fill with the truth's detail but copied from a brighter place: 25 levels too bright.
  const filled = { ...wall, data: wall.data.slice() };
  for (let i = 0; i < hole.length; i++) if (hole[i]) for (let c = 0; c < 3; c++) filled.data[3 * i + c] = wall.data[3 * i + c]! + 25;
  const alpha = Float32Array.from(hole);
  const radius = 3;
  const out = matchMembrane(wall, filled, hole, alpha, radius);

  it('takes the shading of the hole\'s rim and keeps the fill\'s detail', () => {
    // Deeper than the blur reaches out of the hole, the correction is whole.
    const depth = holeDepth(hole, width, height);
    const deep = Uint8Array.from(depth, (d) => (d > 3 * radius ? 1 : 0));
    assert.ok(meanError(filled, wall, deep) > 24);
    assert.ok(meanError(out, wall, deep) < 3, `error ${meanError(out, wall, deep).toFixed(1)}`);
    const ratio = texture(out, deep) / texture(wall, deep);
    assert.ok(ratio > 0.9 && ratio < 1.1, `texture ratio ${ratio.toFixed(2)}`);
  });

  it('changes nothing outside the hole', () => {
    for (let i = 0; i < hole.length; i++) if (!hole[i]) assert.equal(out.data[3 * i], wall.data[3 * i]);
  });
});
