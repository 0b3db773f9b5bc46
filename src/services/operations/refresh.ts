import { Type } from '@sinclair/typebox';
import type { FieldError } from '../../errors.js';
import { defineOperation } from './define.js';

/** The wall colours the spec's public twin names; a `#rrggbb` colour is accepted besides (extension). */
export const TWIN_WALL_COLOURS = ['white', 'egg shell', 'black', 'gray', 'blue', 'deep blue', 'olive', 'terracotta'] as const;
/** The floor materials the twin names. Until the catalog has floor materials, any short identifier is accepted. */
export const TWIN_FLOOR_MATERIALS = ['parquet', 'tile', 'marble', 'carpet', 'concrete', 'hardwood'] as const;

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;
const MATERIAL_ID = /^[a-z0-9_-]{1,40}$/;

/** `value` judged against `transformation`: a paint colour for walls, a floor material id for floors. */
export function checkRefreshValue(transformation: 'walls' | 'floor', value: string): FieldError[] {
  const shown = JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (transformation === 'walls') {
    if (HEX_COLOUR.test(value) || (TWIN_WALL_COLOURS as readonly string[]).includes(value)) return [];
    const names = TWIN_WALL_COLOURS.map((name) => `"${name}"`).join(', ');
    return [{ field: '/value', message: `must be a paint colour when transformation is "walls": a #rrggbb hex colour or one of ${names} (got ${shown})` }];
  }
  if (MATERIAL_ID.test(value)) return [];
  return [
    {
      field: '/value',
      message: `must be a floor material when transformation is "floor": an id of 1 to 40 characters a-z, 0-9, _ and -, such as "parquet" (got ${shown})`,
    },
  ];
}

/**
 * POST /v1/refresh, as the spec's public twin publishes it (issue 18): the walls repainted or the floor relaid,
 * nothing else changed. Not built yet: without `run` the route validates the request, then answers 501 before any
 * job or charge.
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
        `For floor, a material id of a-z, 0-9, _ and - (the twin's: ${TWIN_FLOOR_MATERIALS.join(', ')}).`,
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
});
