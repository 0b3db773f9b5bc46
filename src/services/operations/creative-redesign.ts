import { Type } from '@sinclair/typebox';
import { defineOperation } from './define.js';
import { checkRoom, checkStyle } from './catalog-checks.js';
import { seedField } from './furnish.js';
import { runRedesign } from './redesign.js';
import { FLOOR_FROM } from '../redesign/redesign-photo.js';

/**
 * The creativity the service applies, on the public twin's 0–30 scale; the spec has the service choose it and echo it
 * in the acknowledgement. The least level at which every surface may change (FLOOR_FROM): the furniture, the walls in
 * the style's paint and the floor in its material, each only where its own checks pass (issue 18: "the same room ...
 * with its furniture replaced ..., its walls repainted in the style's palette and, where the style calls for it, a
 * new floor"). The job's `changed` says which did.
 */
export const REDESIGN_CREATIVITY = FLOOR_FROM;

export const creativeRedesign = defineOperation({
  name: 'creative-redesign',
  mode: 'redesign',
  summary: 'Redesigns a room in a chosen style, fully automatically.',
  params: Type.Object({
    styleId: Type.String({ minLength: 1, description: 'Style id from GET /v1/styles.' }),
    roomId: Type.String({ minLength: 1, description: 'Room id from GET /v1/rooms.' }),
    seed: seedField('same room'),
  }),
  acknowledgementFields: Type.Object({
    styleId: Type.String({ description: 'Echo of the request.' }),
    roomId: Type.String({ description: 'Echo of the request.' }),
    creativity: Type.Number({ description: `The creativity level the service applies, on the 0–30 scale of POST /v1/redesign: ${REDESIGN_CREATIVITY} (the furniture, the walls and the floor, each where its checks pass).` }),
  }),
  acceptsMask: false,
  credits: () => 1,
  queue: () => 'heavy',
  validate: (params, catalog) => [...checkStyle(catalog, params.styleId), ...checkRoom(catalog, params.roomId)],
  acknowledgement: (params) => ({ styleId: params.styleId, roomId: params.roomId, creativity: REDESIGN_CREATIVITY }),
  // Windows and doors are kept, as the stagings keep them: the spec gives this endpoint no switch for it.
  run: async ({ image, params }, context) =>
    runRedesign(
      image,
      { styleId: params.styleId, roomId: params.roomId, creativity: REDESIGN_CREATIVITY, seed: params.seed, preserveWindows: true, preserveWalls: false, preserveFloor: false },
      context,
    ),
});
