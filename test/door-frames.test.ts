import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Footprint } from '../src/furniture/generator.js';
import { Random } from '../src/random.js';
import { doorFrames, withDoorFrames, type UprightLine } from '../src/staging/door-frames.js';
import { convexHull, convexOverlap, DOOR_CLEARANCE_M, placePiece, pose } from '../src/staging/place-piece.js';
import { brokenRule } from '../src/staging/placement-rules.js';
import { projectWorld, wallPoint, type RoomModel, type WallLabel } from '../src/staging/room-model.js';
import { syntheticRoom } from './helpers/synthetic-room.js';

const sideboard: Footprint = { width: 1.6, depth: 0.45, height: 0.8, placement: 'against-wall', elevation: 0, frontClearance: 0.6 };

/** The photo's segment of an upright line on a wall, `bottom` to `top` metres above the floor, as the lines report it. */
function upright(room: RoomModel, wall: WallLabel, u: number, bottom: number, top: number, axis: UprightLine['axis'] = 'z'): UprightLine {
  const [x0, y0] = projectWorld(room.camera, wallPoint(room.box, wall, u, bottom))!;
  const [x1, y1] = projectWorld(room.camera, wallPoint(room.box, wall, u, top))!;
  return { x0, y0, x1, y1, axis };
}

describe('door frames', () => {
  // 4 m wide (x −2…2), 5 m deep, 2.6 m high; a window on the front wall (−0.6…0.8, sill 0.9 m), a door on the left wall (3.0…3.9).
  const room = syntheticRoom();

  it('two upright edges standing on the floor and stopping at door height are one door; a lone one may have its door on either side', () => {
    const frames = doorFrames(room, [
      upright(room, 'wall-front', 1.0, 0.1, 2.1),
      upright(room, 'wall-front', 1.7, 0.05, 2.05),
      upright(room, 'wall-right', 2.5, 0.2, 2.0),
    ]);
    assert.deepEqual(
      frames.map((f) => [f.wall, +f.u0.toFixed(2), +f.u1.toFixed(2)]).sort(),
      [['wall-front', 1.0, 1.7], ['wall-right', 2.05, 2.95]],
    );
    // The outline runs from the floor to the edges' top, where the photo shows them.
    const front = frames.find((f) => f.wall === 'wall-front')!;
    const expected = [wallPoint(room.box, 'wall-front', 1.0, 0), wallPoint(room.box, 'wall-front', 1.7, 2.1)].map((p) => projectWorld(room.camera, p)!);
    assert.ok(front.polygon.some(([x, y]) => Math.hypot(x - expected[0]![0], y - expected[0]![1]) < 1e-6));
    assert.ok(front.polygon.some(([x, y]) => Math.hypot(x - expected[1]![0], y - expected[1]![1]) < 1e-6));
  });

  it('leaves out what is not a door: a corner, what runs up to the ceiling, a socket, a window frame, a found door, a line of another direction', () => {
    const frames = doorFrames(room, [
      upright(room, 'wall-front', 1.9, 0, 2.1), // 10 cm from the right wall: the room's corner
      upright(room, 'wall-front', -1.2, 0, 2.5), // 10 cm under the ceiling: a pipe
      upright(room, 'wall-front', -1.2, 0.2, 0.4), // a socket
      upright(room, 'wall-front', -0.6, 0.9, 2.2), // the window's frame, above its sill
      upright(room, 'wall-left', 3.4, 0, 2.0), // inside the found door
      upright(room, 'wall-left', 1.5, 0, 2.0, 'y'), // not upright
      upright(room, 'wall-left', 4.9, 0, 2.0), // 10 cm from the front wall: the left corner
      upright(room, 'wall-front', -1.9, 0, 2.0), // 10 cm from the left wall, seen on the front wall
      upright(room, 'wall-front', -1.3, -0.6, 1.9), // its foot below the floor: a wardrobe's side before the wall
    ]);
    assert.deepEqual(frames, []);
  });

  it('reads a segment whichever end comes first, and takes a casing\'s two close edges for one side of a door', () => {
    const swap = ({ x0, y0, x1, y1, axis }: UprightLine): UprightLine => ({ x0: x1, y0: y1, x1: x0, y1: y0, axis });
    const frames = doorFrames(room, [swap(upright(room, 'wall-front', 1.0, 0.1, 2.1)), upright(room, 'wall-front', 1.06, 0.1, 2.1)]);
    assert.deepEqual(frames.map((f) => [f.wall, +f.u0.toFixed(2), +f.u1.toFixed(2)]), [['wall-front', 0.58, 1.48]]);
  });

  it('edges of different heights are separate doors', () => {
    const frames = doorFrames(room, [upright(room, 'wall-left', 0.8, 0, 2.0), upright(room, 'wall-left', 1.6, 0, 2.0), upright(room, 'wall-left', 1.9, 0, 1.6)]);
    // 1.6 and 1.9 differ by 0.4 m in height: the third edge starts a door of its own (a lone edge, 0.45 m either side).
    assert.deepEqual(frames.map((f) => [+f.u0.toFixed(2), +f.u1.toFixed(2)]), [[0.8, 1.6], [1.45, 2.35]]);
  });

  it('a window whose jamb stands on the floor is kept clear down to the floor (a closet\'s upper panels taken for a window)', () => {
    // The casing runs from the floor past the window's sill up to the ceiling: too high for a door's edge, but it
    // shows the opening reaching the floor.
    const frames = doorFrames(room, [upright(room, 'wall-front', -0.55, 0.05, 2.55)]);
    assert.deepEqual(frames.map((f) => [f.wall, +f.u0.toFixed(2), +f.u1.toFixed(2)]), [['wall-front', -0.6, 0.8]]);
    const expected = [wallPoint(room.box, 'wall-front', -0.6, 0), wallPoint(room.box, 'wall-front', 0.8, 2.2)].map((p) => projectWorld(room.camera, p)!);
    for (const corner of expected) assert.ok(frames[0]!.polygon.some(([x, y]) => Math.hypot(x - corner[0], y - corner[1]) < 1e-6), 'the outline runs from the floor to the window\'s top');
    // Under an ordinary window: a radiator's side stops below the sill, the window's own frame starts at it, and an
    // edge on the floor beside the window (0.3 m past its side) belongs to something else.
    const none = doorFrames(room, [upright(room, 'wall-front', -0.5, 0.1, 0.8), upright(room, 'wall-front', 0.7, 0.9, 2.2), upright(room, 'wall-front', 1.1, 0, 2.55)]);
    assert.deepEqual(none, []);
    // A window beside the room's corner: the corner's line stands on the floor too, and is not its jamb.
    const window = room.openings[0]!;
    const cornerWindow = { ...room, openings: [{ ...window, u0: -1.9, u1: -1.0, polygon: [wallPoint(room.box, 'wall-front', -1.9, 0.9), wallPoint(room.box, 'wall-front', -1.0, 0.9), wallPoint(room.box, 'wall-front', -1.0, 2.2), wallPoint(room.box, 'wall-front', -1.9, 2.2)].map((p) => projectWorld(room.camera, p)!) }] };
    assert.deepEqual(doorFrames(cornerWindow, [upright(room, 'wall-front', -1.92, 0, 2.55)]), []);
    // The window's jamb frames it once, not again as a lone door edge.
    const once = doorFrames(room, [upright(room, 'wall-front', -0.62, 0.05, 2.1)]);
    assert.deepEqual(once.map((f) => [f.wall, +f.u0.toFixed(2), +f.u1.toFixed(2)]), [['wall-front', -0.6, 0.8]]);
  });

  it('staging keeps the floor before a door frame clear, and with preserveWindows leaves it unhidden', () => {
    const lines = [upright(room, 'wall-front', -1.6, 0, 2.05), upright(room, 'wall-front', -0.8, 0, 2.05)];
    const framed = withDoorFrames(room, lines);
    assert.equal(framed.doorFrames.length, 1);
    const frame = framed.doorFrames[0]!;
    const inStrip = (corners: number[][]) => corners.some(([x, y]) => room.box.front - y! < DOOR_CLEARANCE_M && x! > frame.u0 - 0.15 && x! < frame.u1 + 0.15);
    let bareInStrip = 0;
    for (let seed = 0; seed < 30; seed++) {
      const bare = placePiece(room, { footprint: sideboard, preserveWindows: false, random: new Random(seed) });
      if (bare.placed && inStrip(bare.placement.corners.slice(0, 4))) bareInStrip++;
      const outcome = placePiece(framed, { footprint: sideboard, preserveWindows: false, random: new Random(seed) });
      assert.ok(outcome.placed, `seed ${seed}: ${outcome.placed ? '' : outcome.reason}`);
      assert.ok(!inStrip(outcome.placement.corners.slice(0, 4)), `seed ${seed} stands before the door frame`);
      const kept = placePiece(framed, { footprint: sideboard, preserveWindows: true, random: new Random(seed) });
      assert.ok(kept.placed);
      const hull = convexHull(kept.placement.corners.map((c) => projectWorld(room.camera, c)!));
      assert.ok(!convexOverlap(hull, frame.polygon), `seed ${seed} hides the door frame`);
    }
    // Without the frame the same seeds do stand there: the frame is what keeps them off.
    assert.ok(bareInStrip > 0, 'no seed stood before the door without its frame');
  });

  it('with preserveWindows a piece clear of the strip may still not hide the frame in the photo', () => {
    const framed = withDoorFrames(room, [upright(room, 'wall-front', 1.0, 0, 2.05), upright(room, 'wall-front', 1.7, 0, 2.05)]);
    const frame = framed.doorFrames[0]!;
    // A tall cabinet standing free 2.4 m before the frame: out of its strip, before it in the photo.
    const cabinet: Footprint = { width: 0.8, depth: 0.4, height: 1.8, placement: 'floor', elevation: 0, frontClearance: 0.5 };
    const placement = pose(framed, cabinet, { x: (frame.u0 + frame.u1) / 2, y: room.box.front - 2.4, yaw: 0 }, 0);
    const settings = { nearestM: 1, seen: 'footprint-centre', flatPiecesInDoorStrips: true } as const;
    assert.equal(brokenRule(framed, { footprint: cabinet, preserveWindows: true }, placement, settings), 'openings');
    assert.equal(brokenRule(framed, { footprint: cabinet, preserveWindows: false }, placement, settings), undefined);
    assert.equal(brokenRule(room, { footprint: cabinet, preserveWindows: true }, placement, settings), undefined);
  });
});
