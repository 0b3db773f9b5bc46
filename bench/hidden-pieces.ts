import { convexHull } from '../src/staging/place-piece.js';
import type { RoomPlan } from '../src/staging/plan-room.js';
import { projectWorld, type RoomModel } from '../src/staging/room-model.js';
import { polygonMask } from '../src/vision/polygon-mask.js';

/**
 * Per piece of a plan, the share of its drawn outline (its box's corners projected, their hull) behind the outlines
 * of nearer pieces of other groups (nearer: the footprint's centre closer to the camera, at the world's origin), on a
 * raster of at most 320 pixels a side. Pieces of one group are arranged to overlap (a coffee table before its sofa);
 * hung art is flush with its wall and hides nothing. The planner prices the same rule on image boxes (hiddenExcess in
 * src/staging/plan-room.ts); this is the check drawn on the outlines, for bench:staging-plans and the planner's test.
 */
export function hiddenShares(room: Pick<RoomModel, 'camera'>, pieces: RoomPlan['pieces']): number[] {
  const { width, height } = room.camera;
  const scale = Math.min(1, 320 / Math.max(width, height));
  const [w, h] = [Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale))];
  const masks = pieces.map((p) => {
    const projected = p.placement.corners.map((c) => projectWorld(room.camera, c)).filter((q): q is [number, number] => q !== undefined);
    return polygonMask(w, h, [convexHull(projected).map(([x, y]) => [x * scale, y * scale] as [number, number])]);
  });
  const distance = (p: RoomPlan['pieces'][number]) => Math.hypot(p.placement.x, p.placement.y);
  return pieces.map((p, i) => {
    const nearer = masks.filter((_, j) => pieces[j]!.group !== p.group && pieces[j]!.piece.footprint.placement !== 'on-wall' && distance(pieces[j]!) < distance(p));
    let own = 0;
    let hidden = 0;
    masks[i]!.forEach((v, k) => {
      if (!v) return;
      own++;
      if (nearer.some((m) => m[k])) hidden++;
    });
    return own ? hidden / own : 0;
  });
}
