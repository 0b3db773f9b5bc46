import crypto from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { SMART_STAGING_V1_ROOMS, SMART_STAGING_V2_ROOMS } from '../../catalog/catalog.js';
import { stageRoom } from '../staging/stage-room.js';
import { defineOperation } from './define.js';
import { checkStyle } from './catalog-checks.js';
import { existingFurniture, MAX_SEED, seedField } from './furnish.js';
import { chooseLineSources } from './line-source-choice.js';

function roomEnum(ids: readonly string[]) {
  return Type.Union(
    ids.map((id) => Type.Literal(id)),
    { description: `One of: ${ids.join(', ')}.` },
  );
}

/**
 * Both stagings take the same fields and differ in the rooms they accept and how much they do: v2 places the room's
 * decor and optimises the arrangement; the legacy one places the programme's furniture only, in the first good
 * arrangement. Both keep windows and doors untouched (the spec recommends it; these endpoints have no switch for it).
 */
function smartStaging(name: string, summary: string, rooms: readonly string[], thorough: boolean) {
  return defineOperation({
    name,
    mode: 'furnish',
    summary,
    params: Type.Object({
      roomId: roomEnum(rooms),
      styleId: Type.String({ minLength: 1, description: 'Style id from GET /v1/styles.' }),
      seed: seedField('same room'),
    }),
    acknowledgementFields: Type.Object({
      styleId: Type.String({ description: 'Echo of the request.' }),
      roomId: Type.String({ description: 'Echo of the request.' }),
    }),
    acceptsMask: false,
    credits: () => 1,
    queue: () => 'heavy',
    validate: (params, catalog) => checkStyle(catalog, params.styleId),
    acknowledgement: (params) => ({ styleId: params.styleId, roomId: params.roomId }),
    run: async ({ image, params }, context) => {
      const existing = await existingFurniture(context);
      const staged = await stageRoom(
        image,
        { roomId: params.roomId, styleId: params.styleId, seed: params.seed ?? crypto.randomInt(0, MAX_SEED), preserveWindows: true, decor: thorough, anneal: thorough, windowsChosen: false },
        {
          lines: await chooseLineSources(context.models, { roomNetwork: true }),
          renderer: context.renderer,
          ...(existing ? { existing } : {}),
          quality: { samples: context.config.staging.samples, threads: context.config.staging.threads },
          signal: context.signal,
          progress: context.progress,
        },
      );
      return {
        image: staged.image,
        changeMask: { data: staged.changeMask, width: image.width, height: image.height, channels: 1 },
        result: staged.result,
      };
    },
  });
}

export const smartStagingV2 = smartStaging('smart-staging-v2', 'Furnishes an empty room automatically, without a mask.', SMART_STAGING_V2_ROOMS, true);

export const smartStagingV1 = smartStaging(
  'smart-staging',
  'Legacy automatic furnishing of empty rooms; superseded by smart-staging-v2.',
  SMART_STAGING_V1_ROOMS,
  false,
);
