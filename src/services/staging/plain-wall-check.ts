import type { RuleRequest } from '../../staging/placement-rules.js';
import type { RoomModel } from '../../staging/room-model.js';
import { WallEdges } from '../../vision/plain-wall.js';
import type { RawImage } from '../../vision/raw-image.js';

/**
 * Most edge pixels (WallEdges) the photo may show where a piece is hung: on the shared empty rooms the planner's art
 * over plain walls measured 0–0.8 %, over a door frame, a picture already hanging, a kitchen pass-through or a view
 * 8–74 % (docs/decisions/0012).
 */
export const MAX_HUNG_EDGE_SHARE = 0.03;
/**
 * Most edge pixels the photo may show on the walls a piece standing against a wall would hide (hiddenWalls): on the
 * shared empty rooms' plans 0–4.9 % for pieces before plain walls (sockets, a switch, a skirting's top where the
 * layout's floor line is a little high), 5.2 % and more before a heating pipe, flush and closet doors, a passage's
 * edge, kitchen cupboards, a window frame larger than the opening found and floor where the layout's wall is not
 * (docs/decisions/0028).
 */
export const MAX_BACKING_EDGE_SHARE = 0.05;

/**
 * The placement rules' plain-wall check on this photo (RuleRequest.plainWall), its edges looked for on first use. Art
 * hangs only over wall the photo shows plain, the view through a window counting as edges as ever (with preserveWindows
 * off nothing else keeps art off a window), and nowhere where the caller keeps the walls as they are. A piece stands
 * against a wall only where what it hides of the walls is plain, or too little of it is seen to tell; there the
 * windows, doors and door frames found are left out, since other rules keep standing furniture off them or leave it
 * before them on purpose (preserveWindows off).
 */
export function plainWallCheck(image: RawImage, room: Pick<RoomModel, 'openings' | 'doorFrames'>, wallsPreserved: boolean): NonNullable<RuleRequest['plainWall']> {
  let all: WallEdges | undefined;
  let wallOnly: WallEdges | undefined;
  return (outlines, use) => {
    if (use === 'hung') {
      if (wallsPreserved) return false;
      all ??= new WallEdges(image);
      const share = all.share(outlines);
      return share !== undefined && share <= MAX_HUNG_EDGE_SHARE;
    }
    wallOnly ??= new WallEdges(image, [...room.openings, ...room.doorFrames].map((o) => o.polygon));
    const share = wallOnly.share(outlines);
    return share === undefined || share <= MAX_BACKING_EDGE_SHARE;
  };
}
