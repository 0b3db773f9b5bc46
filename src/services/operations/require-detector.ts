import { AppError } from '../../errors.js';
import type { Detector, ImageModels } from '../image-models.js';

/**
 * An installed detector, or a 503 that tells the operator what to install (never a silent fallback).
 * `needer` starts the message: "automatic declutter needs the model …".
 */
export async function requireDetector(models: ImageModels, name: string, needer = 'this'): Promise<Detector> {
  if (!(await models.isInstalled(name))) {
    throw new AppError('service_unavailable', 503, `${needer} needs the model ${name}; run roomcraft models install`);
  }
  return models.detectorSession(name);
}
