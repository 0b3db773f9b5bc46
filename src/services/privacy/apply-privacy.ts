import { blurRegions, type BlurOptions } from '../../vision/privacy/blur-regions.js';
import type { Box } from '../../vision/box.js';
import type { RawImage } from '../../vision/raw-image.js';
import { detectPrivateRegions, type PrivacyDetectionOptions, type PrivacyModels } from './detect-private-regions.js';

export interface PrivacyOptions extends PrivacyDetectionOptions {
  blur?: BlurOptions;
}

export interface PrivacyReport {
  faces: number;
  plates: number;
  /** What was blurred, in whole photo pixels (before margin and feather). */
  boxes: (Box & { kind: 'face' | 'plate' })[];
}

/** `auto_privacy`: finds faces and licence plates and blurs them irreversibly; see blurRegions. */
export async function applyPrivacy(
  image: RawImage,
  models: PrivacyModels,
  options: PrivacyOptions = {},
): Promise<{ image: RawImage; report: PrivacyReport }> {
  const { faces, plates } = await detectPrivateRegions(image, models, options);
  const boxes = [...faces.map((box) => rounded(box, 'face' as const)), ...plates.map((box) => rounded(box, 'plate' as const))];
  return { image: blurRegions(image, boxes, options.blur), report: { faces: faces.length, plates: plates.length, boxes } };
}

function rounded<K extends 'face' | 'plate'>(box: Box, kind: K): Box & { kind: K } {
  const x = Math.floor(box.x);
  const y = Math.floor(box.y);
  return { kind, x, y, width: Math.ceil(box.x + box.width) - x, height: Math.ceil(box.y + box.height) - y };
}
