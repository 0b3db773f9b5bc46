import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Footprint } from '../src/furniture/generator.js';
import { Random } from '../src/random.js';
import type { UprightLine } from '../src/staging/door-frames.js';
import { convexOverlap, placePiece } from '../src/staging/place-piece.js';
import { blockOutline, projectWorld, wallPoint, type RoomModel, type WallLabel } from '../src/staging/room-model.js';
import { standingColumns, withStandingColumns } from '../src/staging/standing-columns.js';
import { syntheticRoom } from './helpers/synthetic-room.js';

/** The photo's segment of an upright edge standing at floor point (x, y), `bottom` to `top` metres above the floor. */
function standing(room: RoomModel, x: number, y: number, bottom: number, top: number, axis: UprightLine['axis'] = 'z'): UprightLine {
  const [x0, y0] = projectWorld(room.camera, [x, y, room.box.floor + bottom])!;
  const [x1, y1] = projectWorld(room.camera, [x, y, room.box.floor + top])!;
  return { x0, y0, x1, y1, axis };
}

/** The same on a wall. */
function onWall(room: RoomModel, wall: WallLabel, u: number, bottom: number, top: number): UprightLine {
  const [x0, y0] = projectWorld(room.camera, wallPoint(room.box, wall, u, bottom))!;
  const [x1, y1] = projectWorld(room.camera, wallPoint(room.box, wall, u, top))!;
  return { x0, y0, x1, y1, axis: 'z' };
}

describe('columns standing in the room', () => {
  // 4 m wide (x −2…2), 5 m deep, 2.6 m high.
  const room = syntheticRoom();

  it("takes a pillar's two front edges, running floor to ceiling inside the walls, for one block as deep as it is wide", () => {
    const blocks = standingColumns(room, [standing(room, 0.2, 3.5, 0.02, 2.6), standing(room, 0.6, 3.5, 0, 2.55)]);
    assert.equal(blocks.length, 1);
    const [block] = blocks;
    assert.deepEqual([block!.x0, block!.x1, block!.y0, block!.y1].map((v) => +v.toFixed(2)), [0.2, 0.6, 3.5, 3.9]);
  });

  it('gives a lone edge, a partition\'s end, a block of the least side around it', () => {
    const blocks = standingColumns(room, [standing(room, -1.0, 2.5, 0, 2.6)]);
    assert.deepEqual(blocks.map((b) => [b.x0, b.x1, b.y0, b.y1].map((v) => +v.toFixed(2))), [[-1.15, -0.85, 2.5, 2.8]]);
  });

  it('leaves out what stands against a wall or is no column: door frames, corners, windows, low things, lines of other directions', () => {
    const blocks = standingColumns(room, [
      onWall(room, 'wall-front', 1.0, 0, 2.1), // a door frame on the front wall
      onWall(room, 'wall-left', 2.0, 0, 2.6), // a corner or a pipe on the left wall
      onWall(room, 'wall-front', -0.6, 0.9, 2.2), // the window's frame, above its sill
      standing(room, 1.85, 3.0, 0, 2.6), // 15 cm from the right wall: against it
      standing(room, 0, 4.8, 0, 2.6), // 20 cm from the front wall
      standing(room, 0.5, 2.0, 0, 0.75), // a table's leg
      standing(room, 0.5, 2.0, 0, 2.6, 'x'), // not upright
    ]);
    assert.deepEqual(blocks, []);
  });

  it('keeps a far wall\'s door frame whose line runs a few pixels past the floor line out', () => {
    // The line's foot 5 pixels below a 10 m deep room's front wall's floor line: on the floor, 0.7 m before the wall.
    const deep = { ...room, box: { ...room.box, front: 10 } };
    const frame = onWall(deep, 'wall-front', 1.0, 0, 2.1);
    const longer = { ...frame, y0: frame.y0 + 0.01 * room.camera.height };
    assert.deepEqual(standingColumns(deep, [longer]), []);
  });

  it('staging stands nothing in a column: pieces placed in the room keep out of its block', () => {
    const lines = [standing(room, -0.4, 2.6, 0, 2.6), standing(room, 0.4, 2.6, 0, 2.6)];
    const columned = withStandingColumns(room, lines);
    assert.equal(columned.blocks.length, 1);
    const block = blockOutline(columned.blocks[0]!);
    const table: Footprint = { width: 1.2, depth: 0.8, height: 0.75, placement: 'floor', elevation: 0, frontClearance: 0.5 };
    let bareInBlock = 0;
    for (let seed = 0; seed < 40; seed++) {
      const bare = placePiece(room, { footprint: table, preserveWindows: false, random: new Random(seed) });
      if (bare.placed && convexOverlap(bare.placement.corners.slice(0, 4).map(([x, y]) => [x, y] as [number, number]), block)) bareInBlock++;
      const outcome = placePiece(columned, { footprint: table, preserveWindows: false, random: new Random(seed) });
      if (outcome.placed) assert.ok(!convexOverlap(outcome.placement.corners.slice(0, 4).map(([x, y]) => [x, y] as [number, number]), block), `seed ${seed} stands in the column`);
    }
    assert.ok(bareInBlock > 0, 'no seed stood where the column is without it');
  });
});
