import type { RoomAnalysis } from './analyze-room.js';

/**
 * Layout confidence (analyzeRoom's `confidence.layout`) below which nothing is painted on the room's planes or planned
 * on its floor: the walls and floor of a refresh, and every whole-room staging (furnish with roomId, the smart
 * stagings, a redesign's furniture). Under it the analysis has most often put the floor where it is not: seen on
 * furnished_bedroom_pano360_11 (a bed hanging from the ceiling), empty_studio_white_03 (an overexposed room: pieces
 * too large, a sofa floating) and empty_dining_01 (a table with one chair cut by the frame) (docs/decisions/0012).
 */
export const MIN_TRUSTED_LAYOUT_CONFIDENCE = 0.6;

/** Why the room's layout is not to be built on, in a sentence; undefined where it may be. */
export function layoutDoubt(analysis: Pick<RoomAnalysis, 'confidence'>): string | undefined {
  const confidence = analysis.confidence.layout;
  if (confidence >= MIN_TRUSTED_LAYOUT_CONFIDENCE) return undefined;
  return `the room's layout was found with confidence ${Math.round(confidence * 1000) / 1000}, below ${MIN_TRUSTED_LAYOUT_CONFIDENCE}`;
}
