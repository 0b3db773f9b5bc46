import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors.js';
import type { RawImage } from '../../vision/raw-image.js';
import { removeMasked, reportBox, type DeclutterLines } from '../declutter/declutter-photo.js';
import { OBJECT_MODEL_NAMES, type ObjectDetectors } from '../declutter/detect-objects.js';
import { removeAutomatically } from '../declutter/remove-automatic.js';
import { lsdLineSource, mlsdLineSource, MLSD_INPUT_SIZE, MLSD_MODEL } from '../geometry/line-sources.js';
import type { Detector } from '../privacy/detector.js';
import { defineOperation } from './define.js';
import type { ImageModels } from './operation.js';

/** M-LSD for the layout when installed (LSD otherwise), LSD's precise edges for the vanishing points. */
async function lineSources(models: ImageModels): Promise<DeclutterLines & { name: string }> {
  if (await models.isInstalled(MLSD_MODEL)) {
    const mlsd = await models.detectorSession(MLSD_MODEL);
    return { layout: mlsdLineSource(mlsd, { inputSize: MLSD_INPUT_SIZE }), vanishingPoints: lsdLineSource(), name: `${MLSD_MODEL}+lsd` };
  }
  return { layout: lsdLineSource(), name: 'lsd' };
}

async function requireDetector(models: ImageModels, name: string): Promise<Detector> {
  if (!(await models.isInstalled(name))) {
    throw new AppError('service_unavailable', 503, `automatic declutter needs the model ${name}; run roomcraft models install`);
  }
  return models.detectorSession(name);
}

async function objectDetectors(models: ImageModels): Promise<ObjectDetectors> {
  const centernet = await requireDetector(models, OBJECT_MODEL_NAMES.centernet);
  return withOptionalDetectors(models, centernet);
}

/** CenterNet and whichever second opinions are installed. */
async function withOptionalDetectors(models: ImageModels, centernet: Detector): Promise<ObjectDetectors> {
  const optional = async (name: string) => ((await models.isInstalled(name)) ? await models.detectorSession(name) : undefined);
  const nanodet = await optional(OBJECT_MODEL_NAMES.nanodet);
  const objectron = await optional(OBJECT_MODEL_NAMES.objectron);
  return { centernet, ...(nanodet ? { nanodet } : {}), ...(objectron ? { objectron } : {}) };
}

/** White or opaque mask pixels (≥ 128) are removed. */
function holeOf(mask: RawImage): Uint8Array {
  const hole = new Uint8Array(mask.width * mask.height);
  for (let i = 0; i < hole.length; i++) hole[i] = mask.data[i * mask.channels]! >= 128 ? 1 : 0;
  return hole;
}

export const declutter = defineOperation({
  name: 'declutter',
  mode: 'sunshine',
  summary: 'Removes objects and furniture, automatically or inside a mask.',
  params: Type.Object({}),
  acceptsMask: true,
  credits: (_params, hasMask) => (hasMask ? 1 : 2),
  // The spec lists skyId in this acknowledgement without a request field for it; we echo the catalog's default sky.
  acknowledgement: (_params, catalog) => ({ skyId: catalog.defaultSky.id }),
  run: async ({ image, mask }, context) => {
    const lines = await lineSources(context.models);
    const common = { signal: context.signal, progress: (fraction: number) => context.progress(fraction) };
    if (mask) {
      const hole = holeOf(mask);
      // The objects that stay are kept out of the fill's sources when the detectors are there; without them the fill
      // still works, it only may copy a neighbouring object.
      const detectors = (await context.models.isInstalled(OBJECT_MODEL_NAMES.centernet))
        ? await withOptionalDetectors(context.models, await context.models.detectorSession(OBJECT_MODEL_NAMES.centernet))
        : undefined;
      const removed = await removeMasked(image, hole, lines, { ...common, ...(detectors ? { detectors } : {}) });
      return {
        image: removed.image,
        result: {
          declutter: {
            mode: 'mask',
            lines: lines.name,
            ...removed.report,
            objectsAvoided: removed.avoided.map((o) => ({ label: o.label, box: reportBox(o.box) })),
          },
        },
      };
    }
    const automatic = await removeAutomatically(image, lines, await objectDetectors(context.models), common);
    return {
      image: automatic.image,
      result: { declutter: { mode: 'automatic', lines: lines.name, removed: automatic.removed, ...automatic.report } },
    };
  },
});
