import { Type } from '@sinclair/typebox';
import { loadCatalog } from '../../catalog/catalog.js';
import { replaceSky } from '../../vision/sky/replace-sky.js';
import { applySunshineLift, sunshineLiftFor } from '../../vision/sky/sunshine-lift.js';
import { checkSky } from './catalog-checks.js';
import { defineOperation } from './define.js';

/**
 * Roomcraft extension, the sky-and-light operation the spec's public twin publishes (mode `sunshine`): the sky
 * replaced by the chosen one and the scene's light lifted to suit it by one global tone curve. Nothing but the sky is
 * replaced; a sky that cannot be replaced cleanly leaves the photo as it came, lift included, and the job says why.
 */
export const sunshine = defineOperation({
  name: 'sunshine',
  mode: 'sunshine',
  summary: 'Extension: replaces the sky with a chosen one and lifts the scene’s light to suit it.',
  params: Type.Object({
    skyId: Type.Optional(Type.String({ minLength: 1, description: 'Sky id from GET /v1/skies; the first sky of the list when absent.' })),
  }),
  acknowledgementFields: Type.Object({ skyId: Type.String({ description: 'The sky asked for, or the default one.' }) }),
  acceptsMask: false,
  credits: () => 1,
  validate: (params, catalog) => checkSky(catalog, params.skyId),
  acknowledgement: (params, catalog) => ({ skyId: params.skyId ?? catalog.defaultSky.id }),
  run: async ({ image, params }, context) => {
    const catalog = loadCatalog();
    const sky = (params.skyId ? catalog.sky(params.skyId) : undefined) ?? catalog.defaultSky;
    // Judged on the photo as it came: where the sky cannot be replaced, nothing (not even the light) changes.
    const judged = replaceSky(image, sky);
    context.progress(0.5);
    if (!judged.report.replaced) {
      return { image, result: { sky: { replaced: false, reason: judged.report.reason, because: judged.report.because, skyId: sky.id }, lift: null } };
    }
    context.signal.throwIfAborted();
    const lift = sunshineLiftFor(image, sky);
    const lifted = replaceSky(applySunshineLift(image, lift), sky);
    // The lift is small, so the lifted photo's sky is judged as the original's was; if not, the honest answer is the
    // replacement without the lift.
    const output = lifted.report.replaced ? lifted : judged;
    context.progress(1);
    return {
      image: output.image,
      result: {
        sky: { replaced: true, reason: output.report.reason, because: output.report.because, skyId: sky.id },
        lift: lifted.report.replaced ? lift : null,
      },
    };
  },
});
