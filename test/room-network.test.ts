import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import os from 'node:os';
import path from 'node:path';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import { openTrainedModel } from '../src/repositories/models/trained-models.js';
import { pairedNetworkSource, ROOM_LAYOUT_MODEL, ROOM_NETWORK_MODEL, ROOM_NETWORK_SIZE, roomNetworkSource } from '../src/services/geometry/room-network.js';
import { decodeSegmentation, LAYOUT_CLASSES, networkSize, orientationFromSegmentation, VISIBLE_CLASSES, withLayoutOf, type RoomSegmentation } from '../src/vision/geometry/room-segmentation.js';
import type { TensorModel } from '../src/services/geometry/line-sources.js';
import { paintedRoom } from './helpers/painted-room.js';

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

describe('the layout of one network beside what another sees', () => {
  const maps = (width: number, height: number, visible: number, layout: number, edge: number): RoomSegmentation => ({
    width,
    height,
    visible: new Uint8Array(width * height).fill(visible),
    layout: new Uint8Array(width * height).fill(layout),
    layoutConfidence: new Float32Array(width * height).fill(layout / 10),
    edges: new Float32Array(width * height).fill(edge),
  });
  const [wall, window, door, furniture] = [VISIBLE_CLASSES.indexOf('wall'), VISIBLE_CLASSES.indexOf('window'), VISIBLE_CLASSES.indexOf('door'), VISIBLE_CLASSES.indexOf('furniture')] as const;

  it('takes the layout, its confidence and the boundaries from the layout network and what is seen from the other', () => {
    const seg = withLayoutOf(maps(12, 8, window, 1, 0.25), maps(12, 8, furniture, 4, 0.75));
    assert.deepEqual([seg.width, seg.height], [12, 8]);
    assert.ok(seg.visible.every((v) => v === window));
    assert.ok(seg.layout.every((v) => v === 4));
    assert.ok(seg.layoutConfidence.every((v) => Math.abs(v - 0.4) < 1e-6));
    assert.ok(seg.edges.every((v) => v === 0.75));
    // The layout network's windows and doors join the other's; its other classes do not.
    assert.ok(withLayoutOf(maps(12, 8, wall, 1, 0), maps(12, 8, door, 4, 0)).visible.every((v) => v === door));
    assert.ok(withLayoutOf(maps(12, 8, furniture, 1, 0), maps(12, 8, window, 4, 0)).visible.every((v) => v === window));
    assert.ok(withLayoutOf(maps(12, 8, door, 1, 0), maps(12, 8, window, 4, 0)).visible.every((v) => v === door));
    assert.throws(() => withLayoutOf(maps(12, 8, wall, 1, 0), maps(16, 8, wall, 1, 0)), /12×8 and 16×8 do not lie on one grid/);
  });

  it('runs both networks on one reduction of the photo', async () => {
    const inputs: Float32Array[] = [];
    const model = (visible: number, layout: number): TensorModel => ({
      run: async (input, dims) => {
        inputs.push(input);
        const [height, width] = [dims[2]!, dims[3]!];
        const plane = width * height;
        const planes = (count: number, winner: number) => {
          const data = new Float32Array(count * plane);
          data.fill(5, winner * plane, (winner + 1) * plane);
          return { data, dims: [1, count, height, width] };
        };
        return { visible: planes(VISIBLE_CLASSES.length, visible), layout: planes(LAYOUT_CLASSES.length, layout), edges: planes(1, 0) };
      },
    });
    const seg = await pairedNetworkSource(model(wall, 1), model(door, 3), 64)(paintedRoom(128, 96).image);
    assert.equal(inputs.length, 2);
    assert.equal(inputs[0], inputs[1], 'the same reduced photo');
    const size = networkSize(128, 96, 64);
    assert.deepEqual([seg.width, seg.height], [size.width, size.height]);
    assert.ok(seg.visible.every((v) => v === door));
    assert.ok(seg.layout.every((v) => v === 3));
  });
});

describe('the committed room-understanding network', () => {
  let close: (() => Promise<void>) | undefined;
  after(() => close?.());

  // The lit room of the other tests (falling light, boards, a window with a view), seen turned to either side so that
  // each wall is scored; a flat-shaded drawing is not a photo: the layout network calls nearly all of one wall-front.
  for (const name of [ROOM_NETWORK_MODEL, ROOM_LAYOUT_MODEL]) it(`${name} finds the floor, the ceiling and the walls of a lit room`, async () => {
    const model = await openTrainedModel(name);
    const closeEarlier = close;
    close = async () => {
      await closeEarlier?.();
      await model.close();
    };
    const scored = new Set<string>();
    for (const yaw of [18, -18]) {
      const room = paintedRoom(384, 288, yaw);
      const seg = await roomNetworkSource(model)(room.image);
      assert.deepEqual([seg.width, seg.height], [384, 288]);
      // The share of each face's pixels (those no edge between two faces crosses) given its own layout class.
      LAYOUT_CLASSES.forEach((face, index) => {
        let inside = 0;
        let right = 0;
        for (let i = 0; i < room.labels.length; i++) {
          if (room.labels[i] !== index || !room.pure[i]) continue;
          inside++;
          if (seg.layout[i] === index) right++;
        }
        if (inside < 2000) return;
        scored.add(face);
        assert.ok(right / inside > 0.7, `yaw ${yaw}°, ${face}: ${((right / inside) * 100).toFixed(0)} % of its pixels labelled ${face}`);
      });
    }
    assert.deepEqual([...scored].sort(), [...LAYOUT_CLASSES].sort());
  });

  it('is installed for the worker runtime from the repository, without the registry or its store', async () => {
    const registry = ModelRegistry.load();
    // An empty store: none of the registry's models is installed there, and the network does not need it.
    const runtime = new ModelRuntime(new ModelStore(path.join(os.tmpdir(), `roomcraft-empty-store-${process.pid}`), registry), registry);
    try {
      assert.equal(registry.has(ROOM_NETWORK_MODEL), false);
      assert.equal(await runtime.isInstalled(ROOM_NETWORK_MODEL), true);
      assert.equal(await runtime.isInstalled(ROOM_LAYOUT_MODEL), true);
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
