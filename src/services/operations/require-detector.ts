import type { Detector, ImageModels } from '../image-models.js';
import { requireModel } from './model-policy.js';

/**
 * An installed detector, or a 503 that tells the operator what to install: a model without a fallback, whatever
 * ROOMCRAFT_ALLOW_MODEL_FALLBACKS says (see ./model-policy.ts). `needer` starts the message: "automatic declutter
 * needs the model …"; by default the operation's name.
 */
export function requireDetector(models: ImageModels, name: string, needer?: string): Promise<Detector> {
  return requireModel(models, name, needer);
}
