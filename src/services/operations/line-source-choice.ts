import { missingForFallback } from './model-policy.js';
import { analyzeRoom, type RoomAnalysis } from '../geometry/analyze-room.js';
import { lsdLineSource, mlsdLineSource, MLSD_INPUT_SIZE, MLSD_MODEL, type LineSource, type TensorModel } from '../geometry/line-sources.js';
import type { RawImage } from '../../vision/raw-image.js';

/** What the choice needs of the models: the service's ImageModels and the CLI's ModelRuntime both have it. */
export interface LineModels {
  isInstalled(name: string): Promise<boolean>;
  detectorSession(name: string): Promise<TensorModel>;
}

export interface ChosenLines {
  /** Structural lines for the layout. */
  layout: LineSource;
  /** Extra lines for the vanishing points only. */
  vanishingPoints?: LineSource;
  /** What a report calls the choice, e.g. `mlsd-512-large+lsd`. */
  name: string;
  /** Whether M-LSD is in it (it is not installed otherwise). */
  mlsd: boolean;
}

/**
 * M-LSD for the layout when installed, with LSD's many precise edges for the vanishing points (they sharpen the
 * focal length where M-LSD's structural lines are few) unless `lsdForVanishingPoints` is false; LSD alone otherwise.
 */
export async function chooseLineSources(models: LineModels, lsdForVanishingPoints = true): Promise<ChosenLines> {
  // In the service, LSD alone is a fallback: a 503 unless the operator allows fallbacks (./model-policy.ts).
  if ((await missingForFallback(models, [MLSD_MODEL], 'lsd')).length > 0) return { layout: lsdLineSource(), name: 'lsd', mlsd: false };
  const layout = mlsdLineSource(await models.detectorSession(MLSD_MODEL), { inputSize: MLSD_INPUT_SIZE });
  if (!lsdForVanishingPoints) return { layout, name: MLSD_MODEL, mlsd: true };
  return { layout, vanishingPoints: lsdLineSource(), name: `${MLSD_MODEL}+lsd`, mlsd: true };
}

/**
 * The room analysis of a photo with the chosen lines, as the operations run it; the report names the lines where
 * their name is given.
 */
export function analyzeWithLines(image: RawImage, lines: Pick<ChosenLines, 'layout' | 'vanishingPoints'> & { name?: string }, signal?: AbortSignal): Promise<RoomAnalysis> {
  return analyzeRoom(image, lines.layout, {
    ...(lines.vanishingPoints ? { vanishingPointLines: lines.vanishingPoints } : {}),
    ...(lines.name ? { lineSourceName: lines.name } : {}),
    ...(signal ? { signal } : {}),
  });
}
