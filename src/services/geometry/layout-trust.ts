import type { RoomAnalysis } from './analyze-room.js';

/**
 * Layout confidence (analyzeRoom's `confidence.layout`) below which a refresh paints no wall or floor and a redesign
 * stages nothing. The confidence swings between sizes of one photo while the layout stays the same (empty_living_01:
 * 0.93 at 1024 px, 0.56 at 2 MP, 1.00 at full size; its drawn layout error 0.9 %), so the whole-room stagings ask
 * less of it and check the floor the layout shows instead (src/services/staging/stage-room.ts,
 * docs/decisions/0012).
 */
export const MIN_TRUSTED_LAYOUT_CONFIDENCE = 0.6;

/**
 * When at least this share of the photo lies below the horizon, a room photo shows its floor: a layout that shows
 * little or none has put a wall before the camera or the floor's edge too low, which is a wrong layout far more often
 * than a real view.
 */
export const VIEW_BELOW_HORIZON = 0.33;

/**
 * Largest share of the photo on which a layout the lines fitted may contradict the room network's layout map. The
 * issue's own bar for a wrong layout is 20 % of the photo, and it was set here before the shared photos were
 * measured; on the 25 with a drawn layout, every lines' layout over 20 % wrong (9) disagreed with the map on more
 * than this, and 3 under it did (two where the network's box is taken anyway).
 */
export const MAX_NETWORK_DISAGREEMENT = 0.2;

/**
 * Why a layout fitted to the lines is not one to build on because the room network's layout map contradicts it over
 * more than MAX_NETWORK_DISAGREEMENT of the photo, in a sentence; undefined where they agree, where the box was
 * fitted to the network's map itself, or where the network did not run. Two opinions that far apart mean at least
 * one is badly wrong, and the lines' stand in only where the network's own box was set aside: neither is trusted.
 */
export function networkContradicts(analysis: { layout: Pick<RoomAnalysis['layout'], 'evidence' | 'networkAgreement'> }): string | undefined {
  const { evidence, networkAgreement } = analysis.layout;
  if (evidence !== 'lines' || networkAgreement === undefined || 1 - networkAgreement <= MAX_NETWORK_DISAGREEMENT) return undefined;
  return `the room network's layout map contradicts the lines' layout on ${(100 * (1 - networkAgreement)).toFixed(0)} % of the photo (at most ${100 * MAX_NETWORK_DISAGREEMENT} %)`;
}

/**
 * Largest share of the room network's sure pixels a box moved onto its map (layout.fittedToMap) may still disagree
 * with and be trusted whatever the fit's confidence. The fit's confidence is its lead over rival boxes on the lines
 * and the map's orientations; a box the move brought onto a map the network is sure of has a second reading behind it.
 * On the 25 photos with a drawn layout, the moved boxes within 10 % of their map are 2.2–11.0 % wrong; the two beyond
 * it, 13.5 % and 16.7 % (docs/decisions/0026).
 */
export const MAX_MOVED_BOX_DISAGREEMENT = 0.1;

/**
 * Why the layout's confidence is too low to build on, in a sentence; undefined where it is at least `least`, or where
 * the box was moved onto a sure map it then follows (MAX_MOVED_BOX_DISAGREEMENT).
 */
export function unsureLayout(
  analysis: Pick<RoomAnalysis, 'confidence'> & { layout?: Pick<RoomAnalysis['layout'], 'fittedToMap'> },
  least = MIN_TRUSTED_LAYOUT_CONFIDENCE,
): string | undefined {
  const confidence = analysis.confidence.layout;
  if (confidence >= least) return undefined;
  const moved = analysis.layout?.fittedToMap;
  if (moved && moved.after <= MAX_MOVED_BOX_DISAGREEMENT) return undefined;
  return `the room's layout was found with confidence ${Math.round(confidence * 1000) / 1000}, below ${least}`;
}

/**
 * Why the layout shows too little floor for a photo that looks down at one (at least VIEW_BELOW_HORIZON of it below
 * the horizon), in a sentence; undefined where it shows enough. A floor share that is not a number counts as too
 * little: a layout that cannot say how much floor it shows is not one to build on.
 */
export function missingFloor(analysis: Pick<RoomAnalysis, 'layout' | 'horizon' | 'image'>, minFloorShare: number): string | undefined {
  const floorShare = analysis.layout.faces.filter((f) => f.label === 'floor').reduce((sum, f) => sum + f.share, 0);
  const below = horizonCells(analysis, 200, 200);
  const shareBelow = below.reduce((sum, v) => sum + v, 0) / below.length;
  if (shareBelow < VIEW_BELOW_HORIZON || floorShare >= minFloorShare) return undefined;
  return `the room's layout shows floor on ${(100 * floorShare).toFixed(1)} % of the photo although ${(100 * shareBelow).toFixed(0)} % of it lies below the horizon`;
}

/** 1 on the cells (of a width × height grid over the photo) below the horizon, where the floor can be. */
export function horizonCells(analysis: Pick<RoomAnalysis, 'horizon' | 'image'>, width: number, height: number): Uint8Array {
  const { a, b, c } = analysis.horizon;
  const sx = analysis.image.width / width;
  const sy = analysis.image.height / height;
  // The floor's side of the horizon is the side a point far below the image lies on when the camera is upright.
  const floorSide = Math.sign(a * analysis.image.width * 0.5 + b * analysis.image.height * 10 + c);
  const cells = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) if (Math.sign(a * (x + 0.5) * sx + b * (y + 0.5) * sy + c) === floorSide) cells[y * width + x] = 1;
  }
  return cells;
}

/**
 * Whose box a result built on, for the job's result: `evidence` (the room networks' map or the lines), `networkSetAside`
 * with why the networks' box was not taken where it was not, and `fittedToMap` where the box was moved onto the
 * networks' map after the fit (the share of the map's sure pixels it disagreed with before and after).
 */
export function layoutReport(analysis: RoomAnalysis, networkSetAside?: string): Record<string, unknown> {
  const moved = analysis.layout.fittedToMap;
  const round = (v: number) => Math.round(v * 1000) / 1000;
  return {
    evidence: analysis.layout.evidence,
    ...(networkSetAside ? { networkSetAside } : {}),
    ...(moved ? { fittedToMap: { before: round(moved.before), after: round(moved.after) } } : {}),
  };
}
