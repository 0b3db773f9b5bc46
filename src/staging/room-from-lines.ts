import { withDoorFrames, type UprightLine } from './door-frames.js';
import { roomModel, type AnalysedRoom, type RoomModel } from './room-model.js';
import { withStandingColumns } from './standing-columns.js';

/**
 * The analysed room with what the photo's upright lines add to it: the door frames no opening accounts for and the
 * columns standing inside the walls. Both are guesses from lines; a user's mask is their own choice of floor and
 * outranks them, so with one the room is the analysis's alone.
 */
export function roomFromLines(analysis: AnalysedRoom & { lines: readonly UprightLine[] }, userMask: boolean): RoomModel {
  const room = roomModel(analysis);
  return userMask ? room : withStandingColumns(withDoorFrames(room, analysis.lines), analysis.lines);
}
