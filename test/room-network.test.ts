import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import os from 'node:os';
import path from 'node:path';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import { openTrainedModel } from '../src/repositories/models/trained-models.js';
import { ROOM_NETWORK_MODEL, ROOM_NETWORK_SIZE, roomNetworkSource } from '../src/services/geometry/room-network.js';
import { fillPolygon, type Polygon } from '../src/vision/polygon-mask.js';
import { decodeSegmentation, LAYOUT_CLASSES, networkSize, orientationFromSegmentation } from '../src/vision/geometry/room-segmentation.js';
import type { RawImage } from '../src/vision/raw-image.js';

/**
 * A room seen straight on, painted as a renderer would flat-shade it: a front wall, two side walls in perspective, a
 * wooden floor with boards and a light ceiling, lit from the left. Returns the photo and its faces.
 */
function paintedRoom(width: number, height: number): { image: RawImage; faces: Record<string, Polygon> } {
  const [l, r, t, b] = [0.3 * width, 0.7 * width, 0.3 * height, 0.68 * height];
  const faces: Record<string, Polygon> = {
    ceiling: [[0, 0], [width, 0], [r, t], [l, t]],
    floor: [[l, b], [r, b], [width, height], [0, height]],
    'wall-left': [[0, 0], [l, t], [l, b], [0, height]],
    'wall-right': [[width, 0], [width, height], [r, b], [r, t]],
    'wall-front': [[l, t], [r, t], [r, b], [l, b]],
  };
  const colours: Record<string, [number, number, number]> = {
    ceiling: [236, 236, 232],
    'wall-left': [214, 208, 198],
    'wall-front': [192, 186, 176],
    'wall-right': [168, 162, 152],
    floor: [150, 104, 66],
  };
  const data = new Uint8Array(width * height * 3);
  const mask = new Uint8Array(width * height);
  let seed = 7;
  const noise = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5) * 6;
  for (const [face, polygon] of Object.entries(faces)) {
    mask.fill(0);
    fillPolygon(mask, width, height, polygon);
    const [cr, cg, cb] = colours[face]!;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (!mask[y * width + x]) continue;
        // Floor boards: darker seams every few pixels across the view.
        const seam = face === 'floor' && Math.floor((y - b) * 0.9) % 9 === 0 ? 0.8 : 1;
        const light = 1 - 0.12 * (x / width);
        const o = (y * width + x) * 3;
        data[o] = Math.max(0, Math.min(255, cr * seam * light + noise()));
        data[o + 1] = Math.max(0, Math.min(255, cg * seam * light + noise()));
        data[o + 2] = Math.max(0, Math.min(255, cb * seam * light + noise()));
      }
    }
  }
  return { image: { data, width, height, channels: 3 }, faces };
}

describe('room-understanding network input and decoding', () => {
  it('sizes the input in multiples of 32 with the longer side as asked', () => {
    assert.deepEqual(networkSize(4000, 3000, 384), { width: 384, height: 288 });
    assert.deepEqual(networkSize(880, 1400, 384), { width: 256, height: 384 });
    assert.deepEqual(networkSize(6000, 1000, 384), { width: 384, height: 64 });
  });

  it('takes the most likely class and its probability per pixel', () => {
    // 2 × 1 image: visible logits favour class 4 then 0; layout favours wall-front then floor.
    const visible = new Float32Array(9 * 2);
    visible[4 * 2 + 0] = 5;
    visible[0 * 2 + 1] = 5;
    const layout = new Float32Array(5 * 2);
    layout[3 * 2 + 0] = 3;
    layout[0 * 2 + 1] = 0.1;
    const seg = decodeSegmentation(visible, layout, new Float32Array([10, -10]), 2, 1);
    assert.deepEqual([...seg.visible], [4, 0]);
    assert.deepEqual([...seg.layout], [3, 0]);
    assert.ok(seg.layoutConfidence[0]! > 0.8 && seg.layoutConfidence[1]! < 0.3);
    assert.ok(seg.edges[0]! > 0.99 && seg.edges[1]! < 0.01);
    assert.throws(() => decodeSegmentation(visible, layout, new Float32Array(3), 2, 1), /do not match/);
  });

  it('turns the layout into the orientation map the box fitter reads, unsure pixels unknown', () => {
    // Pixels: floor (sure), ceiling (sure), left (sure), front vs right tied (unsure). Logits are class planes.
    const layout = new Float32Array(5 * 4);
    layout[0 * 4 + 0] = 5;
    layout[1 * 4 + 1] = 5;
    layout[2 * 4 + 2] = 5;
    layout[3 * 4 + 3] = 5;
    layout[4 * 4 + 3] = 5;
    const seg = decodeSegmentation(new Float32Array(9 * 4), layout, new Float32Array(4), 4, 1);
    const map = orientationFromSegmentation(seg, 4, 1, 4, 0.6);
    assert.deepEqual([...map.orientation], [2, 2, 0, -1]);
  });
});

describe('the committed room-understanding network', () => {
  let close: (() => Promise<void>) | undefined;
  after(() => close?.());

  it('finds the floor, the ceiling and the walls of a painted room', async () => {
    const model = await openTrainedModel(ROOM_NETWORK_MODEL);
    close = () => model.close();
    const { image, faces } = paintedRoom(384, 288);
    const seg = await roomNetworkSource(model)(image);
    assert.equal(seg.width, 384);
    assert.equal(seg.height, 288);
    // Score each face away from its edges: the share of its pixels given its own layout class.
    for (const [face, polygon] of Object.entries(faces)) {
      const mask = new Uint8Array(384 * 288);
      fillPolygon(mask, 384, 288, polygon);
      let inside = 0;
      let right = 0;
      for (let y = 8; y < 280; y++) {
        for (let x = 8; x < 376; x++) {
          const i = y * 384 + x;
          // Only pixels 8 px or more inside the face.
          if (!mask[i] || !mask[i - 8] || !mask[i + 8] || !mask[i - 8 * 384] || !mask[i + 8 * 384]) continue;
          inside++;
          if (LAYOUT_CLASSES[seg.layout[i]!] === face) right++;
        }
      }
      assert.ok(right / inside > 0.7, `${face}: ${((right / inside) * 100).toFixed(0)} % of its pixels labelled ${face}`);
    }
  });

  it('is installed for the worker runtime from the repository, without the registry or its store', async () => {
    const registry = ModelRegistry.load();
    // An empty store: none of the registry's models is installed there, and the network does not need it.
    const runtime = new ModelRuntime(new ModelStore(path.join(os.tmpdir(), `roomcraft-empty-store-${process.pid}`), registry), registry);
    try {
      assert.equal(registry.has(ROOM_NETWORK_MODEL), false);
      assert.equal(await runtime.isInstalled(ROOM_NETWORK_MODEL), true);
      assert.equal(await runtime.isInstalled('no-such-network'), false);
      assert.equal(await runtime.isInstalled(registry.models[0]!.name), false);
      const seg = await roomNetworkSource(await runtime.detectorSession(ROOM_NETWORK_MODEL))(paintedRoom(192, 160).image);
      const { width, height } = networkSize(192, 160, ROOM_NETWORK_SIZE);
      assert.deepEqual([seg.width, seg.height], [width, height]);
      assert.deepEqual(runtime.loaded(), [ROOM_NETWORK_MODEL]);
    } finally {
      await runtime.close();
    }
  });
});
