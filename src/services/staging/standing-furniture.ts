/**
 * What counts as furniture standing in the way: floor-standing pieces and people, not the small objects the declutter
 * also removes (a cup on a table does not stop a sofa; a light switch or a vent, which the detectors sometimes take
 * for small objects, must not either).
 */
export const STANDING_FURNITURE: readonly string[] = ['chair', 'couch', 'bed', 'dining table', 'bench', 'potted plant', 'person', 'dog', 'table', 'desk'];
/** Stricter than the declutter's calibration: a false obstacle refuses a request, a missed one only crowds it. */
export const STANDING_MIN_SCORES = { centernet: 0.45, nanodet: 0.5, objectron: 0.4 } as const;

/** Whether a detection (label, detector, score) is furniture standing in the room at the stricter scores. */
export function isStandingFurniture(object: { label: string; source: string; score?: number }): boolean {
  const minimum = (STANDING_MIN_SCORES as Record<string, number>)[object.source];
  return STANDING_FURNITURE.includes(object.label) && minimum !== undefined && (object.score ?? 0) >= minimum;
}

/**
 * Whether a detection's box is the size of a piece: a box over half the photo, in a room asked to be furnished, is the
 * detector seeing furniture in the room itself (measured on the shared empty rooms), not a piece standing in the way.
 */
export function isPieceSized(box: { width: number; height: number }, photo: { width: number; height: number }): boolean {
  return box.width * box.height < 0.5 * photo.width * photo.height;
}
