import { Type } from '@sinclair/typebox';
import type { FieldError } from '../../errors.js';
import { FLOOR_MATERIAL_IDS, FLOOR_MATERIALS, floorMaterial } from '../../catalog/floor-materials.js';
import { floorSeedOf } from '../../vision/restyle/floor-materials.js';
import { OBJECT_MODEL_NAMES } from '../declutter/detect-objects.js';
import { refreshPhoto, type RefreshRequest } from '../refresh/refresh-photo.js';
import { defineOperation } from './define.js';
import { chooseLineSources } from './line-source-choice.js';
import { withOptionalDetectors } from './object-detectors.js';
import { requireModels } from './model-policy.js';
import { ROOM_LAYOUT_MODEL, ROOM_NETWORK_MODEL } from '../geometry/room-network.js';

/**
 * The wall colours the spec's public twin names, as the paints they stand for (sRGB); a `#rrggbb` colour is accepted
 * besides (extension).
 */
export const PAINT_COLOURS = {
  white: '#f4f4f0',
  'egg shell': '#efe8d5',
  black: '#2b2b2c',
  gray: '#9a9a97',
  blue: '#5b7fa6',
  'deep blue': '#22395c',
  olive: '#727a46',
  terracotta: '#c0663f',
} as const;
export const TWIN_WALL_COLOURS = Object.keys(PAINT_COLOURS) as (keyof typeof PAINT_COLOURS)[];
/** The floor materials the twin names; the catalog (FLOOR_MATERIALS) holds them and a few more. */
export const TWIN_FLOOR_MATERIALS = ['parquet', 'tile', 'marble', 'carpet', 'concrete', 'hardwood'] as const;

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

/** `value` judged against `transformation`: a paint colour for walls, a floor material of the catalog for floors. */
export function checkRefreshValue(transformation: 'walls' | 'floor', value: string): FieldError[] {
  const shown = JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (transformation === 'walls') {
    if (HEX_COLOUR.test(value) || Object.hasOwn(PAINT_COLOURS, value)) return [];
    const names = TWIN_WALL_COLOURS.map((name) => `"${name}"`).join(', ');
    return [{ field: '/value', message: `must be a paint colour when transformation is "walls": a #rrggbb hex colour or one of ${names} (got ${shown})` }];
  }
  if (floorMaterial(value)) return [];
  const ids = FLOOR_MATERIAL_IDS.map((id) => `"${id}"`).join(', ');
  return [{ field: '/value', message: `must be a floor material when transformation is "floor": one of ${ids} (got ${shown})` }];
}

/** The paint a wall `value` names, as `#rrggbb`. */
function paintOf(value: string): string {
  return Object.hasOwn(PAINT_COLOURS, value) ? PAINT_COLOURS[value as keyof typeof PAINT_COLOURS] : value.toLowerCase();
}

/**
 * POST /v1/refresh, as the spec's public twin publishes it (issue 18): the walls repainted or the floor relaid,
 * nothing else changed (services/refresh/refresh-photo.ts). Where the room's geometry is not sure of the surface, the
 * photo comes back unchanged and the job says why.
 */
export const refresh = defineOperation({
  name: 'refresh',
  mode: 'refresh',
  summary: 'Repaints the walls or relays the floor, nothing else changed (extension matching the public twin).',
  params: Type.Object({
    transformation: Type.Union([Type.Literal('walls'), Type.Literal('floor')], {
      description: '`walls` repaints the walls; `floor` relays the floor.',
    }),
    value: Type.String({
      minLength: 1,
      maxLength: 40,
      description:
        `For walls, a paint colour: \`#rrggbb\`, or one of the twin's names (${TWIN_WALL_COLOURS.join(', ')}). ` +
        `For floor, a material: ${FLOOR_MATERIALS.map((m) => `${m.id} (${m.description})`).join(', ')}.`,
    }),
  }),
  acknowledgementFields: Type.Object({
    transformation: Type.Union([Type.Literal('walls'), Type.Literal('floor')], { description: 'Echo of the request.' }),
    value: Type.String({ description: 'Echo of the request.' }),
  }),
  acceptsMask: false,
  credits: () => 1,
  queue: () => 'heavy',
  validate: (params) => checkRefreshValue(params.transformation, params.value),
  acknowledgement: (params) => ({ transformation: params.transformation, value: params.value }),
  run: async ({ image, params }, context) => {
    // Walls: the lines alone (with the room networks' box first, 4 of the 50 bench requests were repainted against 6,
    // the rest the same; docs/decisions/0022). Floors: the networks' box first, and what the networks see as floor is
    // what the new floor must reach (docs/decisions/0025); with no other way to check that, they are required.
    const floor = params.transformation === 'floor';
    if (floor) await requireModels(context.models, [ROOM_NETWORK_MODEL, ROOM_LAYOUT_MODEL], 'a floor refresh');
    const lines = await chooseLineSources(context.models, { roomNetwork: floor });
    // Furniture and objects the detectors find are never painted over or floored over; without CenterNet the look of
    // the surfaces alone keeps them out (a 503 naming it unless the operator allows fallbacks, as for the declutter).
    const detectors = (await context.models.isInstalled(OBJECT_MODEL_NAMES.centernet))
      ? await withOptionalDetectors(context.models, await context.models.detectorSession(OBJECT_MODEL_NAMES.centernet))
      : undefined;
    const request: RefreshRequest =
      params.transformation === 'walls'
        ? { transformation: 'walls', value: params.value, paint: paintOf(params.value) }
        : { transformation: 'floor', value: params.value, material: floorMaterial(params.value)!, seed: floorSeedOf(params.value) };
    const refreshed = await refreshPhoto(image, request, { lines, ...(detectors ? { detectors } : {}), signal: context.signal, progress: context.progress });
    return {
      image: refreshed.image,
      ...(refreshed.changeMask ? { changeMask: { data: refreshed.changeMask, width: image.width, height: image.height, channels: 1 as const } } : {}),
      result: refreshed.result,
    };
  },
});
