import crypto from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { loadCatalog } from '../../catalog/catalog.js';
import { AppError } from '../../errors.js';
import type { RawImage } from '../../vision/raw-image.js';
import { markedPixels } from '../../vision/request-mask.js';
import { OBJECT_MODEL_NAMES } from '../declutter/detect-objects.js';
import { redesignPhoto, type RedesignRequest } from '../redesign/redesign-photo.js';
import { defineOperation } from './define.js';
import { checkRoom, checkStyle } from './catalog-checks.js';
import { MAX_SEED, seedField } from './furnish.js';
import { chooseLineSources } from './line-source-choice.js';
import { withOptionalDetectors } from './object-detectors.js';
import type { OperationContext, OperationOutput } from './operation.js';
import { requireDetector } from './require-detector.js';

/** The public twin's creativity scale: 0 keeps the photo closest, 30 changes the most. */
export const MAX_CREATIVITY = 30;
/**
 * The creativity a redesign applies when the request gives none (the twin requires the field; we accept its
 * absence): the middle of the scale. The acknowledgement reports it, as it echoes a requested one.
 */
export const DEFAULT_CREATIVITY = 15;

const preserve = (what: string) =>
  Type.Optional(Type.Boolean({ description: `Leave ${what} untouched. Ignored when a mask is given. Default false.` }));

/**
 * Runs a redesign for either endpoint (services/redesign/redesign-photo.ts): Blender and the declutter's detectors are
 * needed (a 503 naming what is missing, before any work).
 */
export async function runRedesign(
  image: RawImage,
  request: Omit<RedesignRequest, 'palette' | 'floor' | 'seed'> & { seed: number | undefined },
  context: OperationContext,
): Promise<OperationOutput> {
  const style = loadCatalog().style(request.styleId)!; // validated before the job was made
  // Checked first, not when the furniture step comes to it: a 503 after minutes of declutter and paint helps no one.
  const available = await context.renderer.available();
  if (!available.ok) throw new AppError('renderer_unavailable', 503, `a redesign needs Blender, which is not usable here: ${available.reason}`);
  const centernet = await requireDetector(context.models, OBJECT_MODEL_NAMES.centernet, 'redesign');
  const redesigned = await redesignPhoto(
    image,
    { ...request, palette: style.palette, floor: style.floor, seed: request.seed ?? crypto.randomInt(0, MAX_SEED) },
    {
      lines: await chooseLineSources(context.models, { roomNetwork: true }),
      detectors: await withOptionalDetectors(context.models, centernet),
      renderer: context.renderer,
      quality: { samples: context.config.staging.samples, threads: context.config.staging.threads },
      signal: context.signal,
      progress: context.progress,
    },
  );
  return {
    image: redesigned.image,
    changeMask: { data: redesigned.changeMask, width: image.width, height: image.height, channels: 1 },
    result: redesigned.result,
  };
}

/**
 * POST /v1/redesign, the "default redesign mode" the spec mentions without its path, as the spec's public twin
 * publishes it (issue 18): a room redesigned in a style, with a creativity level (which surfaces may change:
 * redesign-photo.ts), optionally only inside a mask.
 */
export const redesign = defineOperation({
  name: 'redesign',
  mode: 'redesign',
  summary: 'Redesigns a room in a chosen style at a chosen creativity, optionally only inside a mask (extension matching the public twin).',
  params: Type.Object({
    styleId: Type.String({ minLength: 1, description: 'Style id from GET /v1/styles.' }),
    roomId: Type.String({ minLength: 1, description: 'Room id from GET /v1/rooms.' }),
    creativity: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: MAX_CREATIVITY,
        description: `How much the room may change, 0 to ${MAX_CREATIVITY} (the twin's scale): the higher, the less the result looks like the photo. Default ${DEFAULT_CREATIVITY}.`,
      }),
    ),
    preserveWindows: preserve('windows, doors, french doors and bay windows (and the view through them)'),
    preserveWalls: preserve('the walls'),
    preserveCeiling: preserve('the ceiling'),
    preserveFloor: preserve('the floor'),
    seed: seedField('same room'),
  }),
  acknowledgementFields: Type.Object({
    styleId: Type.String({ description: 'Echo of the request.' }),
    roomId: Type.String({ description: 'Echo of the request.' }),
    creativity: Type.Number({ description: `The request's creativity, or ${DEFAULT_CREATIVITY} when it gave none.` }),
  }),
  acceptsMask: true,
  credits: () => 1,
  queue: () => 'heavy',
  validate: (params, catalog) => [...checkStyle(catalog, params.styleId), ...checkRoom(catalog, params.roomId)],
  acknowledgement: (params) => ({
    styleId: params.styleId,
    roomId: params.roomId,
    creativity: params.creativity ?? DEFAULT_CREATIVITY,
  }),
  run: async ({ image, mask, params }, context) => {
    // The twin's rule: with a mask, the mask alone says what may change and the preserve flags are ignored.
    const allowed = mask ? markedPixels(mask) : undefined;
    return runRedesign(
      image,
      {
        styleId: params.styleId,
        roomId: params.roomId,
        creativity: params.creativity ?? DEFAULT_CREATIVITY,
        seed: params.seed,
        preserveWindows: allowed ? false : (params.preserveWindows ?? false),
        preserveWalls: allowed ? false : (params.preserveWalls ?? false),
        preserveFloor: allowed ? false : (params.preserveFloor ?? false),
        ...(allowed ? { mask: allowed } : {}),
      },
      context,
    );
  },
});
