import { Type } from '@sinclair/typebox';
import { markedPixels } from '../../vision/request-mask.js';
import { removeMasked, reportBox } from '../declutter/declutter-photo.js';
import { OBJECT_MODEL_NAMES, type ObjectDetectors } from '../declutter/detect-objects.js';
import { withOptionalDetectors } from './object-detectors.js';
import { removeAutomatically } from '../declutter/remove-automatic.js';
import { defineOperation } from './define.js';
import { chooseLineSources } from './line-source-choice.js';
import type { ImageModels } from '../image-models.js';
import { requireDetector } from './require-detector.js';

async function objectDetectors(models: ImageModels): Promise<ObjectDetectors> {
  const centernet = await requireDetector(models, OBJECT_MODEL_NAMES.centernet, 'automatic declutter');
  return withOptionalDetectors(models, centernet);
}

export const declutter = defineOperation({
  name: 'declutter',
  mode: 'sunshine',
  summary: 'Removes objects and furniture, automatically or inside a mask.',
  params: Type.Object({}),
  acceptsMask: true,
  credits: (_params, hasMask) => (hasMask ? 1 : 2),
  // The spec lists skyId in this acknowledgement without a request field for it; we echo the catalog's default sky.
  acknowledgementFields: Type.Object({ skyId: Type.String({ description: 'The catalog’s default sky.' }) }),
  acknowledgement: (_params, catalog) => ({ skyId: catalog.defaultSky.id }),
  run: async ({ image, mask }, context) => {
    const lines = await chooseLineSources(context.models);
    const common = { signal: context.signal, progress: (fraction: number) => context.progress(fraction) };
    if (mask) {
      const hole = markedPixels(mask);
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
      result: {
        declutter: {
          mode: 'automatic',
          lines: lines.name,
          removed: automatic.removed,
          // Found but left in place, each with the check it failed (removal-gate.ts).
          kept: automatic.kept,
          unchanged: automatic.unchanged !== undefined,
          ...(automatic.unchanged ? { unchangedReason: automatic.unchanged } : {}),
          ...automatic.report,
        },
      },
    };
  },
});
