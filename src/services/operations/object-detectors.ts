import { OBJECT_MODEL_NAMES, type ObjectDetectors } from '../declutter/detect-objects.js';
import type { Detector, ImageModels } from '../image-models.js';

/** CenterNet and whichever second opinions (NanoDet, Objectron's SSD) are installed. */
export async function withOptionalDetectors(models: ImageModels, centernet: Detector): Promise<ObjectDetectors> {
  const optional = async (name: string) => ((await models.isInstalled(name)) ? await models.detectorSession(name) : undefined);
  const nanodet = await optional(OBJECT_MODEL_NAMES.nanodet);
  const objectron = await optional(OBJECT_MODEL_NAMES.objectron);
  return { centernet, ...(nanodet ? { nanodet } : {}), ...(objectron ? { objectron } : {}) };
}
