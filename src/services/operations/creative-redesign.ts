import { Type } from '@sinclair/typebox';
import { defineOperation } from './define.js';
import { checkRoom, checkStyle } from './catalog-checks.js';

/** The creativity the service applies; the spec has the service choose it and echo it in the acknowledgement. */
export const REDESIGN_CREATIVITY = 0.5;

export const creativeRedesign = defineOperation({
  name: 'creative-redesign',
  mode: 'redesign',
  summary: 'Redesigns a room in a chosen style, fully automatically.',
  params: Type.Object({
    styleId: Type.String({ minLength: 1, description: 'Style id from GET /v1/styles.' }),
    roomId: Type.String({ minLength: 1, description: 'Room id from GET /v1/rooms.' }),
  }),
  acknowledgementFields: Type.Object({
    styleId: Type.String({ description: 'Echo of the request.' }),
    roomId: Type.String({ description: 'Echo of the request.' }),
    creativity: Type.Number({ description: 'The creativity level the service applies.' }),
  }),
  acceptsMask: false,
  credits: () => 1,
  queue: () => 'heavy',
  validate: (params, catalog) => [...checkStyle(catalog, params.styleId), ...checkRoom(catalog, params.roomId)],
  acknowledgement: (params) => ({ styleId: params.styleId, roomId: params.roomId, creativity: REDESIGN_CREATIVITY }),
});
