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

export const smartStagingV2 = defineOperation({
  name: 'smart-staging-v2',
  mode: 'furnish',
  summary: 'Furnishes an empty room automatically, without a mask.',
  params: Type.Object({
    roomId: roomEnum(SMART_STAGING_V2_ROOMS),
    styleId: Type.String({ minLength: 1, description: 'Style id from GET /v1/styles.' }),
  }),
  acceptsMask: false,
  credits: () => 1,
  validate: (params, catalog) => checkStyle(catalog, params.styleId),
  acknowledgement: (params) => ({ styleId: params.styleId, roomId: params.roomId }),
});

export const smartStagingV1 = defineOperation({
  name: 'smart-staging',
  mode: 'furnish',
  summary: 'Legacy automatic furnishing of empty rooms; superseded by smart-staging-v2.',
  params: Type.Object({
    roomId: roomEnum(SMART_STAGING_V1_ROOMS),
    styleId: Type.String({ minLength: 1, description: 'Style id from GET /v1/styles.' }),
  }),
  acceptsMask: false,
  credits: () => 1,
  validate: (params, catalog) => checkStyle(catalog, params.styleId),
  acknowledgement: (params) => ({ styleId: params.styleId, roomId: params.roomId }),
});
