import { Type } from '@sinclair/typebox';
import { SMART_STAGING_V1_ROOMS, SMART_STAGING_V2_ROOMS } from '../../catalog/catalog.js';
import { defineOperation } from './define.js';
import { checkStyle } from './catalog-checks.js';

function roomEnum(ids: readonly string[]) {
  return Type.Union(
    ids.map((id) => Type.Literal(id)),
    { description: `One of: ${ids.join(', ')}.` },
  );
}

/** Both stagings take the same fields and differ in the rooms they accept. */
function smartStaging(name: string, summary: string, rooms: readonly string[]) {
  return defineOperation({
    name,
    mode: 'furnish',
    summary,
    params: Type.Object({
      roomId: roomEnum(rooms),
      styleId: Type.String({ minLength: 1, description: 'Style id from GET /v1/styles.' }),
    }),
    acknowledgementFields: Type.Object({
      styleId: Type.String({ description: 'Echo of the request.' }),
      roomId: Type.String({ description: 'Echo of the request.' }),
    }),
    acceptsMask: false,
    credits: () => 1,
    validate: (params, catalog) => checkStyle(catalog, params.styleId),
    acknowledgement: (params) => ({ styleId: params.styleId, roomId: params.roomId }),
  });
}

export const smartStagingV2 = smartStaging(
  'smart-staging-v2',
  'Furnishes an empty room automatically, without a mask.',
  SMART_STAGING_V2_ROOMS,
);

export const smartStagingV1 = smartStaging(
  'smart-staging',
  'Legacy automatic furnishing of empty rooms; superseded by smart-staging-v2.',
  SMART_STAGING_V1_ROOMS,
);
