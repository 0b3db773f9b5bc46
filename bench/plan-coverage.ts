/**
 * What a room's plans cover of the windows and doors drawn by hand: shared by the benches that compare planner rules
 * side by side (bench:door-frames, bench:wall-behind). No rendering: the plans are what the renderer would be given.
 */
import { planRoom, type PlanRequest } from '../src/staging/plan-room.js';
import { convexHull } from '../src/staging/placement-rules.js';
import { projectWorld, type RoomModel } from '../src/staging/room-model.js';
import { polygonMask } from '../src/vision/polygon-mask.js';

export const STYLES = ['scandinavian', 'japandi', 'industrial'];
export const SEEDS = [21, 22];
/** Pixels of drawn openings a piece's image must cover to count: a box's corner grazing a frame is not a piece before a door. */
export const COVERED_PIXELS = 300;

export interface Arm {
  plans: number;
  /** Plans with a piece or more and no rule broken. */
  made: number;
  /** Standing pieces placed (not rugs, not hung ones). */
  pieces: number;
  /** Standing pieces whose box, seen in the photo, covers more than COVERED_PIXELS of the drawn openings. */
  covering: number;
  coveredPixels: number;
}

export const NO_PLANS: Arm = { plans: 0, made: 0, pieces: 0, covering: 0, coveredPixels: 0 };

export function added(a: Arm, b: Arm): Arm {
  return { plans: a.plans + b.plans, made: a.made + b.made, pieces: a.pieces + b.pieces, covering: a.covering + b.covering, coveredPixels: a.coveredPixels + b.coveredPixels };
}

/**
 * The room planned in every style of STYLES and seed of SEEDS with preserveWindows, decor and annealing, as a
 * redesign plans it, and what the standing pieces of the plans made cover of `drawn` (photo-sized).
 */
export function planAndCount(room: RoomModel, roomId: string, drawn: Uint8Array, extra: Pick<PlanRequest, 'obstacles' | 'plainWall'>): Arm {
  const { width, height } = room.camera;
  const arm = { ...NO_PLANS };
  for (const styleId of STYLES) {
    for (const seed of SEEDS) {
      arm.plans++;
      const plan = planRoom(room, { roomId, styleId, seed, preserveWindows: true, decor: true, anneal: true, ...extra });
      if (plan.pieces.length === 0 || plan.violations.length > 0) continue;
      arm.made++;
      for (const { piece, placement } of plan.pieces) {
        if (piece.footprint.placement === 'on-wall' || piece.footprint.height < 0.05) continue;
        arm.pieces++;
        const hull = convexHull(placement.corners.map((c) => projectWorld(room.camera, c)).filter((p): p is [number, number] => p !== undefined));
        const mask = polygonMask(width, height, [hull]);
        let pixels = 0;
        for (let i = 0; i < mask.length; i++) if (mask[i] && drawn[i]) pixels++;
        if (pixels > COVERED_PIXELS) {
          arm.covering++;
          arm.coveredPixels += pixels;
        }
      }
    }
  }
  return arm;
}
