import { Type } from '@sinclair/typebox';
import { defineOperation } from './define.js';
import { checkFurniture, checkRoom, checkStyle } from './catalog-checks.js';

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
  }),
  acknowledgementFields: Type.Object({
    styleId: Type.String({ description: 'Echo of the request.' }),
    roomId: Type.Optional(Type.String({ description: 'Echo of the request, when it carried `roomId`.' })),
  }),
  acceptsMask: true,
  credits: () => 1,
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
});
