import { downsampleToPlanes, type ColourPlanes } from '../colour-planes.js';
import type { RawImage } from '../raw-image.js';
import { classifySky, type SkyClassification, type SkyClassifierOptions } from './sky-classifier.js';
import { lowestSkyRow, refineSky, segmentSky, type SkySegmentation, type SkySegmentationOptions } from './sky-segmentation.js';

export interface SkyDetectionOptions {
  /** Longer side of the working copy that is segmented and classified. Default 640. */
  workingLongSide?: number;
  segmentation?: SkySegmentationOptions;
  classifier?: SkyClassifierOptions;
}

/** Sky found in a photo, at the working resolution; computeSkyMatte turns it into a full-resolution matte. */
export interface SkyDetection {
  /** The working copy that was analysed. */
  planes: ColourPlanes;
  segmentation: SkySegmentation;
  /** The sky-like region the classifier judged, before refineSky: what the walk from the top border reached. */
  walked: SkySegmentation;
  classification: SkyClassification;
  /** Row of the full-resolution image where the replacement sky's horizon goes. */
  horizonRow: number;
}

/**
 * A level camera puts the horizon at mid-height; the horizon is never placed above that, so a sky seen only above a
 * tall building still runs from zenith colour to a paler band rather than squeezing the whole gradient into a strip.
 */
const MIN_HORIZON_FRACTION = 0.5;
/** A long straight edge this close to the sky's lowest level, and nearly level itself, is taken as the horizon. */
const HORIZON_SNAP_FRACTION = 0.05;
const HORIZON_MAX_SLOPE = Math.tan((2 * Math.PI) / 180);
const HORIZON_MIN_LENGTH_FRACTION = 0.25;

export function detectSky(image: RawImage, options: SkyDetectionOptions = {}): SkyDetection {
  const planes = downsampleToPlanes(image, options.workingLongSide ?? 640);
  const skyLike = segmentSky(planes, options.segmentation);
  const classification = classifySky(planes, skyLike, options.classifier);
  // The classifier judges what hangs straight down from the top; what is replaced is refined from it (see refineSky).
  const segmentation = refineSky(planes, skyLike, options.segmentation);
  const workingRow = horizonRowOf(segmentation);
  const horizonRow = Math.max(MIN_HORIZON_FRACTION, (workingRow + 1) / planes.height) * image.height;
  return { planes, segmentation, walked: skyLike, classification, horizonRow };
}

/** The level of the lowest sky (most columns' sky ends above it), snapped to a level straight edge close by. */
function horizonRowOf(segmentation: SkySegmentation): number {
  const { width, height, mask, barriers } = segmentation;
  const lowest = lowestSkyRow(mask, width, height, 0.9);
  if (lowest < 0) return height - 1;
  let best = lowest;
  let bestLength = HORIZON_MIN_LENGTH_FRACTION * width;
  for (const line of barriers) {
    const dx = Math.abs(line.x1 - line.x0);
    const level = (line.y0 + line.y1) / 2;
    if (dx === 0 || Math.abs(line.y1 - line.y0) / dx > HORIZON_MAX_SLOPE) continue;
    if (Math.abs(level - lowest) > HORIZON_SNAP_FRACTION * height || line.length < bestLength) continue;
    best = level;
    bestLength = line.length;
  }
  return best;
}
