import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Footprint } from '../src/furniture/generator.js';
import { Random } from '../src/random.js';
import { convexHull, convexOverlap, DOOR_CLEARANCE_M, placePiece, WALL_GAP_M } from '../src/staging/place-piece.js';
import { projectWorld } from '../src/staging/room-model.js';
import { syntheticRoom } from './helpers/synthetic-room.js';

const sofa: Footprint = { width: 2.0, depth: 0.92, height: 0.82, placement: 'against-wall', elevation: 0, frontClearance: 0.6 };
const coffeeTable: Footprint = { width: 1.1, depth: 0.6, height: 0.42, placement: 'floor', elevation: 0, frontClearance: 0.4 };
const wardrobe: Footprint = { width: 1.5, depth: 0.6, height: 2.2, placement: 'against-wall', elevation: 0, frontClearance: 0.9 };
const mirror: Footprint = { width: 0.8, depth: 0.03, height: 0.7, placement: 'on-wall', elevation: 1.1, frontClearance: 0 };

describe('placePiece', () => {
  const room = syntheticRoom();
  for (const [name, footprint] of Object.entries({ sofa, coffeeTable, wardrobe, mirror })) {
    it(`puts a ${name} inside the room, on seen floor, clear of the door strip, for every seed`, () => {
      const spots = new Set<string>();
      for (let seed = 0; seed < 20; seed++) {
        const outcome = placePiece(room, { footprint, preserveWindows: false, random: new Random(seed) });
        assert.ok(outcome.placed, `seed ${seed}: ${outcome.placed ? '' : outcome.reason}`);
        const { placement } = outcome;
        spots.add(`${placement.x.toFixed(2)},${placement.y.toFixed(2)},${placement.yaw}`);
        const base = placement.corners.slice(0, 4);
        // Standing pieces keep 6 cm from a wall, hung ones hang 1 cm from it.
        const gap = footprint.placement === 'on-wall' ? 0.01 : WALL_GAP_M;
        for (const [x, y] of base) {
          assert.ok(x >= room.box.left + gap - 0.006 && x <= room.box.right - gap + 0.006, `x ${x} through a side wall`);
          assert.ok(y <= room.box.front - gap + 0.006, `y ${y} through the front wall`);
          const pixel = projectWorld(room.camera, [x, y, room.box.floor]);
          assert.ok(pixel && pixel[0] >= 0 && pixel[0] <= room.camera.width && pixel[1] >= 0 && pixel[1] <= room.camera.height, 'footprint off the photo');
        }
        // The door (left wall, 3.0–3.9 m along it) keeps a 0.9 m strip free.
        const door = room.openings.find((o) => o.kind === 'door')!;
        const inStrip = base.some(([x, y]) => x - room.box.left < DOOR_CLEARANCE_M && y > door.u0 - 0.15 && y < door.u1 + 0.15);
        assert.ok(!inStrip, `seed ${seed} stands in front of the door`);
        if (footprint.placement !== 'floor') assert.ok(placement.against, 'a wall piece stands against a wall');
        if (footprint.placement === 'on-wall') {
          const back = placement.against === 'wall-front' ? room.box.front - Math.max(...base.map((c) => c[1])) : placement.against === 'wall-left' ? Math.min(...base.map((c) => c[0])) - room.box.left : room.box.right - Math.max(...base.map((c) => c[0]));
          assert.ok(Math.abs(back - 0.01) < 1e-6, `a hung piece ${back.toFixed(3)} m off its wall`);
        }
      }
      assert.ok(spots.size > 1, 'different seeds give different spots');
    });
  }

  it('the same seed gives the same spot', () => {
    const a = placePiece(room, { footprint: sofa, preserveWindows: false, random: new Random(7) });
    const b = placePiece(room, { footprint: sofa, preserveWindows: false, random: new Random(7) });
    assert.deepEqual(a, b);
  });

  it('with preserveWindows, no part of the piece covers a window or door pixel', () => {
    for (let seed = 0; seed < 20; seed++) {
      const outcome = placePiece(room, { footprint: wardrobe, preserveWindows: true, random: new Random(seed) });
      assert.ok(outcome.placed);
      const hull = convexHull(outcome.placement.corners.map((c) => projectWorld(room.camera, c)!));
      for (const opening of room.openings) assert.ok(!convexOverlap(hull, opening.polygon), `seed ${seed} covers the ${opening.kind}`);
    }
  });

  it('a mask with no room for the piece is refused with the reason', () => {
    const mask = new Uint8Array(room.camera.width * room.camera.height);
    // A 30 × 20 pixel patch of floor: far too small for a sofa.
    for (let y = 400; y < 420; y++) for (let x = 300; x < 330; x++) mask[y * room.camera.width + x] = 1;
    const outcome = placePiece(room, { footprint: sofa, mask, preserveWindows: false, random: new Random(1) });
    assert.equal(outcome.placed, false);
    assert.match(outcome.placed ? '' : outcome.reason, /marked area/);
  });

  it('a mask is honoured: every footprint corner lies inside it', () => {
    const { width, height } = room.camera;
    const mask = new Uint8Array(width * height);
    for (let y = 250; y < height; y++) for (let x = 0; x < width / 2; x++) mask[y * width + x] = 1;
    const outcome = placePiece(room, { footprint: coffeeTable, mask, preserveWindows: false, random: new Random(3) });
    assert.ok(outcome.placed);
    for (const corner of outcome.placement.corners.slice(0, 4)) {
      const [x, y] = projectWorld(room.camera, corner)!;
      assert.equal(mask[Math.floor(y) * width + Math.floor(x)], 1);
    }
  });

  it('keeps clear of furniture already in the photo, and says so when nothing else is left', () => {
    const { width, height } = room.camera;
    // A detected piece of furniture covering the left half of the photo's lower part.
    const standing: [number, number][] = [[0, height * 0.4], [width / 2, height * 0.4], [width / 2, height], [0, height]];
    for (let seed = 0; seed < 10; seed++) {
      const outcome = placePiece(room, { footprint: coffeeTable, preserveWindows: false, random: new Random(seed), obstacles: [standing] });
      assert.ok(outcome.placed);
      const hull = convexHull(outcome.placement.corners.map((c) => projectWorld(room.camera, c)!));
      assert.ok(!convexOverlap(hull, standing), `seed ${seed} overlaps the standing furniture`);
    }
    const everywhere: [number, number][] = [[0, 0], [width, 0], [width, height], [0, height]];
    const blocked = placePiece(room, { footprint: coffeeTable, preserveWindows: false, random: new Random(1), obstacles: [everywhere] });
    assert.equal(blocked.placed, false);
    assert.match(blocked.placed ? '' : blocked.reason, /furniture already in the photo/);
  });
});
