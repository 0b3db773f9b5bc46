import { Type } from '@sinclair/typebox';
import { defineOperation } from './define.js';
import { checkRoom, checkStyle } from './catalog-checks.js';

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
 * POST /v1/redesign, the "default redesign mode" the spec mentions without its path, as the spec's public twin
 * publishes it (issue 18): a room redesigned in a style, with a creativity level, optionally only inside a mask.
 * Not built yet: without `run` the route validates the request, then answers 501 before any job or charge.
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
});
