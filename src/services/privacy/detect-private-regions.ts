import type { ScoredBox } from '../../vision/box.js';
import type { RawImage } from '../../vision/raw-image.js';
import type { Detector } from '../image-models.js';
import { detectFaces, type FaceDetectionOptions } from './detect-faces.js';
import { detectPlates, type PlateDetectionOptions } from './detect-plates.js';
import { detectVehicles, type VehicleDetectionOptions } from './detect-vehicles.js';

/**
 * The three networks privacy needs, by role. In a worker thread these are ModelRuntime's detector sessions of
 * `PRIVACY_MODEL_NAMES`; each must answer with the outputs named in detector-models.ts.
 */
export interface PrivacyModels {
  /** BlazeFace full-range: output `faces`. */
  faces: Detector;
  /** CenterNet (COCO): outputs `heatmap` and `sizes`. */
  vehicles: Detector;
  /** PP-OCRv4 text detection: one probability-map output. */
  text: Detector;
}

/** Registry names of the models behind each role of PrivacyModels. */
export const PRIVACY_MODEL_NAMES = { faces: 'blazeface-full-range', vehicles: 'centernet-coco', text: 'ppocr-v4-det' } as const;

export interface PrivacyDetectionOptions {
  faces?: FaceDetectionOptions;
  vehicles?: VehicleDetectionOptions;
  plates?: PlateDetectionOptions;
  /** Checked between stages: a cancelled job stops within one stage. */
  signal?: AbortSignal;
}

export interface PrivateRegions {
  faces: ScoredBox[];
  plates: ScoredBox[];
  /** Where plates were looked for; not blurred. */
  vehicles: ScoredBox[];
}

export async function detectPrivateRegions(image: RawImage, models: PrivacyModels, options: PrivacyDetectionOptions = {}): Promise<PrivateRegions> {
  options.signal?.throwIfAborted();
  const faces = await detectFaces(image, models.faces, options.faces);
  options.signal?.throwIfAborted();
  const vehicles = await detectVehicles(image, models.vehicles, options.vehicles);
  options.signal?.throwIfAborted();
  const plates = await detectPlates(image, vehicles, models.text, options.plates);
  return { faces, plates, vehicles };
}
