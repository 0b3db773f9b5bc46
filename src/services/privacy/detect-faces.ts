import { BLAZEFACE_INPUT_SIZE, blazeFaceAnchors, decodeBlazeFace } from '../../vision/privacy/blazeface-decoder.js';
import type { ScoredBox } from '../../vision/box.js';
import { agreeWithMirror, mirrorRows } from '../../vision/privacy/mirror-agreement.js';
import { nonMaxSuppression } from '../../vision/non-max-suppression.js';
import { planTiles } from '../../vision/tiling.js';
import type { RawImage } from '../../vision/raw-image.js';
import { outputOf, type Detector } from '../image-models.js';
import { detectOverTiles } from './tiled-detection.js';

export interface FaceDetectionOptions {
  /** Lowest score kept: the mean of the direct and the mirrored view's. Default 0.6, MediaPipe's threshold for one view. */
  minScore?: number;
  /** Lowest score of one view that is looked at. Default 0.25. */
  minViewScore?: number;
  /** Side of the finest tiles in photo pixels; see planTiles. Default 288. */
  smallestTile?: number;
  /** Overlap of neighbouring tiles. Default 0.25. */
  overlap?: number;
  /** Boxes overlapping a better one by more than this IoU are merged into it. Default 0.3, MediaPipe's. */
  iouThreshold?: number;
}

const anchors = blazeFaceAnchors();
const INPUT_DIMS = [1, 3, BLAZEFACE_INPUT_SIZE, BLAZEFACE_INPUT_SIZE] as const;

/**
 * Faces in photo pixels: BlazeFace full-range over a pyramid of overlapping tiles, each tile seen directly and
 * mirrored (see agreeWithMirror), merged across tiles by weighted suppression.
 */
export async function detectFaces(image: RawImage, detector: Detector, options: FaceDetectionOptions = {}): Promise<ScoredBox[]> {
  const minScore = options.minScore ?? 0.6;
  const minViewScore = options.minViewScore ?? 0.25;
  const iouThreshold = options.iouThreshold ?? 0.3;
  const view = async (input: Float32Array): Promise<ScoredBox[]> => {
    const boxes = decodeBlazeFace(outputOf(await detector.run(input, INPUT_DIMS), 'faces').data, anchors, minViewScore);
    return nonMaxSuppression(boxes, iouThreshold, true);
  };
  const levels = planTiles(image.width, image.height, {
    inputSize: BLAZEFACE_INPUT_SIZE,
    smallestTile: options.smallestTile ?? 288,
    overlap: options.overlap ?? 0.25,
  });
  const found = await detectOverTiles(image, levels, BLAZEFACE_INPUT_SIZE, async (input) => {
    const direct = await view(input);
    const mirrored = (await view(mirrorRows(input, BLAZEFACE_INPUT_SIZE))).map((box) => ({ ...box, x: BLAZEFACE_INPUT_SIZE - box.x - box.width }));
    return agreeWithMirror(direct, mirrored, iouThreshold).filter((box) => box.score >= minScore);
  });
  return nonMaxSuppression(found, iouThreshold, true);
}
