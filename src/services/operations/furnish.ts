import crypto from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { furnishPiece, type ExistingFurniture } from '../staging/furnish-piece.js';
import { isPieceSized, STANDING_FURNITURE, STANDING_MIN_SCORES } from '../staging/standing-furniture.js';
import { markedPixels } from '../../vision/request-mask.js';
import { stageRoom } from '../staging/stage-room.js';
import type { OperationContext } from './operation.js';
import { defineOperation } from './define.js';
import { checkFurniture, checkRoom, checkStyle } from './catalog-checks.js';
import { chooseLineSources } from './line-source-choice.js';
import { withOptionalDetectors } from './object-detectors.js';
import { detectObjects, OBJECT_MODEL_NAMES } from '../declutter/detect-objects.js';
import type { RawImage } from '../../vision/raw-image.js';


/** Largest seed: seeds are 31-bit so that every client language holds them exactly. */
export const MAX_SEED = 2 ** 31 - 1;

/** The `seed` extension of the operations that draw furniture; `same` says what the same seed gives. */
export function seedField(same: string) {
  return Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_SEED,
      description: `Extension: makes the result reproducible (same request and seed, ${same}). Without it the service picks one and reports it in the job’s result.`,
    }),
  );
}

export const furnish = defineOperation({
  name: 'furnish',
  mode: 'furnish',
  summary: 'Adds furniture to an empty room, optionally limited to a mask area.',
  params: Type.Object({
    styleId: Type.String({ minLength: 1, description: 'Style id from GET /v1/styles.' }),
    roomId: Type.Optional(Type.String({ minLength: 1, description: 'Room id; exactly one of roomId and furnitureId.' })),
    furnitureId: Type.Optional(
      Type.String({ minLength: 1, description: 'Furniture id; exactly one of roomId and furnitureId.' }),
    ),
    preserveWindows: Type.Optional(
      Type.Boolean({ description: 'Leave windows and doors untouched. Ignored when a mask is given.' }),
    ),
    seed: seedField('same pixels'),
  }),
  acknowledgementFields: Type.Object({
    styleId: Type.String({ description: 'Echo of the request.' }),
    roomId: Type.Optional(Type.String({ description: 'Echo of the request, when it carried `roomId`.' })),
  }),
  acceptsMask: true,
  credits: () => 1,
  queue: () => 'heavy',
  validate: (params, catalog) => {
    const hasRoom = params.roomId !== undefined;
    const hasFurniture = params.furnitureId !== undefined;
    if (hasRoom === hasFurniture) {
      return [{ field: '/roomId', message: 'give exactly one of roomId and furnitureId' }];
    }
    return [
      ...checkStyle(catalog, params.styleId),
      ...checkRoom(catalog, params.roomId),
      ...checkFurniture(catalog, params.furnitureId),
    ];
  },
  acknowledgement: (params) => ({ styleId: params.styleId, ...(params.roomId ? { roomId: params.roomId } : {}) }),
  run: async ({ image, mask, params }, context) => {
    // A whole room uses the room network beside the lines (stageRoom); a single piece keeps to the lines, as measured.
    const lines = await chooseLineSources(context.models, { roomNetwork: params.roomId !== undefined });
    const seed = params.seed ?? crypto.randomInt(0, MAX_SEED);
    const allowed = mask ? markedPixels(mask) : undefined;
    const existing = await existingFurniture(context);
    // The spec: preserveWindows is ignored when a mask is given (the mask is the user's own choice of area).
    const preserveWindows = mask ? false : (params.preserveWindows ?? false);
    const deps = {
      lines,
      renderer: context.renderer,
      ...(existing ? { existing } : {}),
      quality: { samples: context.config.staging.samples, threads: context.config.staging.threads },
      signal: context.signal,
      progress: context.progress,
    };
    const furnished = params.furnitureId !== undefined
      ? await furnishPiece(image, { furnitureId: params.furnitureId, styleId: params.styleId, seed, preserveWindows, ...(allowed ? { mask: allowed } : {}) }, deps)
      : await stageRoom(image, { roomId: params.roomId!, styleId: params.styleId, seed, preserveWindows, decor: true, anneal: true, windowsChosen: true, ...(allowed ? { mask: allowed } : {}) }, deps);
    return {
      image: furnished.image,
      changeMask: { data: furnished.changeMask, width: image.width, height: image.height, channels: 1 },
      result: furnished.result,
    };
  },
});

/**
 * Furniture already in the photo, which staging keeps clear of. Without CenterNet that check cannot run: a 503 naming
 * it (from the model policy), or, where the operator allows fallbacks, furniture is placed unchecked and the result
 * says so (existingFurniture: null).
 */
export async function existingFurniture(context: OperationContext): Promise<ExistingFurniture | undefined> {
  if (!(await context.models.isInstalled(OBJECT_MODEL_NAMES.centernet))) return undefined;
  return {
    find: async (photo: RawImage, signal?: AbortSignal) => {
      const detectors = await withOptionalDetectors(context.models, await context.models.detectorSession(OBJECT_MODEL_NAMES.centernet));
      const found = await detectObjects(photo, detectors, { labels: [...STANDING_FURNITURE], minScores: STANDING_MIN_SCORES, ...(signal ? { signal } : {}) });
      return found.filter((o) => isPieceSized(o.box, photo)).map((o) => o.box);
    },
  };
}
