import { Type } from '@sinclair/typebox';
import { defineOperation } from './define.js';

export const declutter = defineOperation({
  name: 'declutter',
  mode: 'sunshine',
  summary: 'Removes objects and furniture, automatically or inside a mask.',
  params: Type.Object({}),
  acceptsMask: true,
  credits: (_params, hasMask) => (hasMask ? 1 : 2),
  // The spec lists skyId in this acknowledgement without a request field for it; we echo the catalog's default sky.
  acknowledgement: (_params, catalog) => ({ skyId: catalog.defaultSky.id }),
});
