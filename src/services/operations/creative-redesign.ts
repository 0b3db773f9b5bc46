import { Type } from '@sinclair/typebox';
import { defineOperation } from './define.js';
import { checkRoom, checkStyle } from './catalog-checks.js';
import { seedField } from './furnish.js';
import { runRedesign } from './redesign.js';

/**
 * The creativity the service applies, on the public twin's 0–30 scale; the spec has the service choose it and echo it
 * in the acknowledgement. The furniture and the walls (from WALLS_FROM), not the floor (from FLOOR_FROM): a new floor is
 * the largest change a redesign makes, and a client that wants it asks POST /v1/redesign for creativity 20 or more.
 */
export const REDESIGN_CREATIVITY = 15;

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
    creativity: Type.Number({ description: `The creativity level the service applies, on the 0–30 scale of POST /v1/redesign: ${REDESIGN_CREATIVITY} (the furniture and the walls).` }),
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
