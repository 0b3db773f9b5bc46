import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FlowGraph } from '../src/vision/declutter/max-flow.js';
import { objectMask, objectMasks } from '../src/vision/declutter/object-mask.js';
import { paintRegionMask } from '../src/vision/declutter/region-mask.js';
import type { Box } from '../src/vision/box.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { seededRandom } from './helpers/seeded-random.js';

type Rgb = [number, number, number];

const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));

/** Wooden boards 24 px wide with dark seams, grain and per-board tone, plus camera noise. */
function woodFloor(width: number, height: number, seed: number): Uint8Array {
  const random = seededRandom(seed);
  const data = new Uint8Array(width * height * 3);
  const tone = Array.from({ length: 64 }, () => 0.9 + 0.2 * random());
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const board = Math.floor(y / 24);
      const seam = y % 24 === 0 ? 0.7 : 1;
      const grain = 1 + 0.06 * Math.sin(x * 0.21 + board * 3 + 2 * Math.sin(y * 0.3)) + 0.03 * Math.sin(x * 0.05 + board);
      const k = tone[board % 64]! * grain * seam;
      const o = (y * width + x) * 3;
      data[o] = clamp(175 * k + (random() - 0.5) * 8);
      data[o + 1] = clamp(132 * k + (random() - 0.5) * 8);
      data[o + 2] = clamp(92 * k + (random() - 0.5) * 8);
    }
  }
  return data;
}

/** A light plain floor with a gentle lighting gradient. */
function plainFloor(width: number, height: number, seed: number): Uint8Array {
  const random = seededRandom(seed);
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const k = 0.8 + 0.3 * (x / width);
      const o = (y * width + x) * 3;
      data[o] = clamp(215 * k + (random() - 0.5) * 6);
      data[o + 1] = clamp(205 * k + (random() - 0.5) * 6);
      data[o + 2] = clamp(190 * k + (random() - 0.5) * 6);
    }
  }
  return data;
}

interface Scene {
  image: RawImage;
  object: Uint8Array;
  shadow: Uint8Array;
  box: Box;
}

/**
 * An object (rounded rectangle, shaded left to right) standing on the floor, with an elliptical contact shadow whose
 * centre is darkened to `shadowFactor` and whose rim fades out; the truth shadow is where the light is cut by > 15 %.
 * The box is loose: 10–12 % larger than the object on each side, and it leaves most of the shadow outside.
 */
function objectScene(floor: Uint8Array, width: number, height: number, colour: Rgb, shadowFactor: number, seed: number): Scene {
  const data = floor.slice();
  const random = seededRandom(seed);
  const object = new Uint8Array(width * height);
  const shadow = new Uint8Array(width * height);
  const [x0, x1, y0, y1] = [240, 400, 200, 330];
  const corner = 20;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const o = i * 3;
      const sx = (x - 322) / 95;
      const sy = (y - 332) / 22;
      const d = Math.sqrt(sx * sx + sy * sy);
      if (d < 1.15 && y > 300) {
        const f = d < 0.9 ? shadowFactor : shadowFactor + ((1 - shadowFactor) * (d - 0.9)) / 0.25;
        for (let c = 0; c < 3; c++) data[o + c] = clamp(data[o + c]! * f);
        if (f < 0.85) shadow[i] = 1;
      }
      const rx = Math.max(x0 + corner - x, 0, x - (x1 - corner));
      const ry = Math.max(y0 + corner - y, 0, y - (y1 - corner));
      if (rx * rx + ry * ry <= corner * corner) {
        object[i] = 1;
        shadow[i] = 0;
        const shade = 0.8 + (0.4 * (x - x0)) / (x1 - x0);
        const noise = (random() - 0.5) * 10;
        data[o] = clamp(colour[0] * shade + noise);
        data[o + 1] = clamp(colour[1] * shade + noise);
        data[o + 2] = clamp(colour[2] * shade + noise);
      }
    }
  }
  return {
    image: { data, width, height, channels: 3 },
    object,
    shadow,
    box: { x: x0 - 18, y: y0 - 14, width: x1 - x0 + 34, height: y1 - y0 + 24 },
  };
}

function fullMask(scene: Scene, mask: ReturnType<typeof objectMask>): Uint8Array {
  const full = new Uint8Array(scene.image.width * scene.image.height);
  paintRegionMask(full, scene.image.width, mask);
  return full;
}

function scores(scene: Scene, mask: Uint8Array) {
  let intersection = 0, union = 0, objectPixels = 0, objectCovered = 0, shadowPixels = 0, shadowCovered = 0;
  for (let i = 0; i < mask.length; i++) {
    const truth = scene.object[i] || scene.shadow[i];
    if (truth && mask[i]) intersection++;
    if (truth || mask[i]) union++;
    if (scene.object[i]) {
      objectPixels++;
      if (mask[i]) objectCovered++;
    }
    if (scene.shadow[i]) {
      shadowPixels++;
      if (mask[i]) shadowCovered++;
    }
  }
  return { iou: intersection / union, object: objectCovered / objectPixels, shadow: shadowCovered / shadowPixels };
}

const W = 640;
const H = 480;

test('a blue pouf with its shadow on a wooden floor: the mask matches object and shadow', () => {
  const scene = objectScene(woodFloor(W, H, 3), W, H, [60, 95, 165], 0.55, 9);
  const s = scores(scene, fullMask(scene, objectMask(scene.image, scene.box)));
  assert.ok(s.iou >= 0.85, `IoU ${s.iou.toFixed(3)}`);
  assert.ok(s.object >= 0.98, `object coverage ${s.object.toFixed(4)}`);
  assert.ok(s.shadow >= 0.8, `shadow coverage ${s.shadow.toFixed(3)}`);
});

test('a dark grey object on a light plain floor: the mask matches object and shadow', () => {
  const scene = objectScene(plainFloor(W, H, 5), W, H, [70, 68, 72], 0.6, 11);
  const s = scores(scene, fullMask(scene, objectMask(scene.image, scene.box)));
  assert.ok(s.iou >= 0.85, `IoU ${s.iou.toFixed(3)}`);
  assert.ok(s.object >= 0.98, `object coverage ${s.object.toFixed(4)}`);
  assert.ok(s.shadow >= 0.8, `shadow coverage ${s.shadow.toFixed(3)}`);
});

test('the contact shadow is only added when asked for, and only over the floor', () => {
  const scene = objectScene(woodFloor(W, H, 3), W, H, [60, 95, 165], 0.55, 9);
  const without = scores(scene, fullMask(scene, objectMask(scene.image, scene.box, {}, { shadow: false })));
  assert.ok(without.object >= 0.98, `object coverage ${without.object.toFixed(4)}`);
  assert.ok(without.shadow < 0.6, `shadow coverage without shadow growth ${without.shadow.toFixed(3)}`);
  // A layout that puts the floor's edge just under the object: the shadow beyond it is not floor.
  const floorLabels = new Uint8Array(W * H);
  floorLabels.fill(1, 0, 336 * W);
  const limited = fullMask(scene, objectMask(scene.image, scene.box, { floorLabels }));
  let below = 0;
  for (let y = 345; y < H; y++) for (let x = 0; x < W; x++) below += limited[y * W + x]!;
  assert.equal(below, 0, 'mask pixels beyond the floor edge (plus margin)');
});

test('protected pixels (a window behind the object) are never in the mask', () => {
  const scene = objectScene(woodFloor(W, H, 3), W, H, [60, 95, 165], 0.55, 9);
  const protectedMask = new Uint8Array(W * H);
  for (let y = 150; y < 215; y++) for (let x = 360; x < 460; x++) protectedMask[y * W + x] = 1;
  const mask = fullMask(scene, objectMask(scene.image, scene.box, { protectedMask }));
  let overlap = 0, allowedObject = 0, coveredObject = 0;
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] && protectedMask[i]) overlap++;
    if (scene.object[i] && !protectedMask[i]) {
      allowedObject++;
      if (mask[i]) coveredObject++;
    }
  }
  assert.equal(overlap, 0);
  assert.ok(coveredObject / allowedObject >= 0.98, `unprotected object coverage ${(coveredObject / allowedObject).toFixed(4)}`);
});

test('objectMasks unites several boxes and leaves the rest of the image alone', () => {
  const scene = objectScene(woodFloor(W, H, 3), W, H, [60, 95, 165], 0.55, 9);
  const mask = objectMasks(scene.image, [scene.box, { x: 30, y: 30, width: 60, height: 40 }]);
  // The second box holds only floor: a little may go, but nothing far outside it.
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      if (!mask[y * W + x]) continue;
      const nearFirst = x >= 180 && x <= 470 && y >= 150 && y <= 380;
      const nearSecond = x >= 10 && x <= 110 && y >= 15 && y <= 85;
      assert.ok(nearFirst || nearSecond, `mask pixel at ${x},${y}`);
    }
  }
  assert.ok(scores(scene, mask).object >= 0.98);
});

test('a box over the whole image gives the whole box, not an error', () => {
  const scene = objectScene(woodFloor(120, 90, 1), 120, 90, [60, 95, 165], 0.55, 9);
  const mask = objectMask(scene.image, { x: 0, y: 0, width: 120, height: 90 });
  assert.equal(mask.width, 120);
  assert.equal(mask.data.reduce((s, v) => s + v, 0), 120 * 90);
});

test('FlowGraph finds the minimum cut of random graphs (checked against Edmonds–Karp)', () => {
  const random = seededRandom(42);
  for (let trial = 0; trial < 300; trial++) {
    const n = 2 + Math.floor(random() * 9);
    const size = n + 2;
    const capacity = Array.from({ length: size }, () => new Array<number>(size).fill(0));
    const graph = new FlowGraph(n, 4);
    for (let i = 0; i < n; i++) {
      const source = random() < 0.5 ? Math.floor(random() * 10) : 0;
      const sink = random() < 0.5 ? Math.floor(random() * 10) : 0;
      graph.addTerminal(i, source, sink);
      capacity[n]![i]! += source;
      capacity[i]![n + 1]! += sink;
    }
    for (let e = Math.floor(random() * n * 3); e > 0; e--) {
      const i = Math.floor(random() * n), j = Math.floor(random() * n);
      if (i === j) continue;
      const forward = Math.floor(random() * 8), backward = Math.floor(random() * 8);
      graph.addEdge(i, j, forward, backward);
      capacity[i]![j]! += forward;
      capacity[j]![i]! += backward;
    }
    // addTerminal keeps only the difference of a node's two terminal capacities; the common part is flow already.
    let cancelled = 0;
    for (let i = 0; i < n; i++) cancelled += Math.min(capacity[n]![i]!, capacity[i]![n + 1]!);
    const flow = graph.maxFlow() + cancelled;
    assert.equal(flow, edmondsKarp(capacity, n, n + 1), `trial ${trial}`);
    const side = graph.sourceSide();
    const onSource = (v: number) => (v === n ? 1 : v === n + 1 ? 0 : side[v]!);
    let cut = 0;
    for (let u = 0; u < size; u++) for (let v = 0; v < size; v++) if (onSource(u) && !onSource(v)) cut += capacity[u]![v]!;
    assert.equal(cut, flow, `cut of trial ${trial}`);
  }
});

function edmondsKarp(capacity: number[][], source: number, sink: number): number {
  const residual = capacity.map((row) => row.slice());
  const size = residual.length;
  let flow = 0;
  for (;;) {
    const previous = new Array<number>(size).fill(-1);
    previous[source] = source;
    const queue = [source];
    while (queue.length > 0 && previous[sink]! < 0) {
      const u = queue.shift()!;
      for (let v = 0; v < size; v++) {
        if (previous[v]! < 0 && residual[u]![v]! > 0) {
          previous[v] = u;
          queue.push(v);
        }
      }
    }
    if (previous[sink]! < 0) return flow;
    let bottleneck = Infinity;
    for (let v = sink; v !== source; v = previous[v]!) bottleneck = Math.min(bottleneck, residual[previous[v]!]![v]!);
    for (let v = sink; v !== source; v = previous[v]!) {
      residual[previous[v]!]![v]! -= bottleneck;
      residual[v]![previous[v]!]! += bottleneck;
    }
    flow += bottleneck;
  }
}
