import { Type } from '@sinclair/typebox';
import { loadCatalog } from '../../catalog/catalog.js';
import { enhancePhoto } from '../../vision/enhance/enhance.js';
import { replaceSky } from '../../vision/sky/replace-sky.js';
import { checkSky } from './catalog-checks.js';
import { defineOperation } from './define.js';
import type { ImageModels } from '../image-models.js';
import { requireDetector } from './require-detector.js';
import { missingForFallback } from './model-policy.js';
import type { RawImage } from '../../vision/raw-image.js';
import { learnedRetouch } from '../enhance/learned-retouch.js';
import { applyPrivacy } from '../privacy/apply-privacy.js';
import { PRIVACY_MODEL_NAMES, type PrivacyModels } from '../privacy/detect-private-regions.js';

const LEARNED_RETOUCH_MODEL = 'maxim-retouching';
/** The network's side: its cost grows fast with size (128 px ≈ 3 s, 256 px ≈ 21 s on one core). */
const LEARNED_RETOUCH_SIDE = 128;

/** Privacy has no fallback: a photo asked to be blurred is never returned unblurred, so a missing detector is a 503. */
async function privacyModels(models: ImageModels): Promise<PrivacyModels> {
  const loaded = await Promise.allSettled([
    requireDetector(models, PRIVACY_MODEL_NAMES.faces),
    requireDetector(models, PRIVACY_MODEL_NAMES.vehicles),
    requireDetector(models, PRIVACY_MODEL_NAMES.text),
  ]);
  // With several missing, the first in the declared order is named, whichever check finished first.
  const missing = loaded.find((result) => result.status === 'rejected');
  if (missing) throw missing.reason;
  const [faces, vehicles, text] = loaded.map((result) => (result as PromiseFulfilledResult<PrivacyModels['faces']>).value);
  return { faces: faces!, vehicles: vehicles!, text: text! };
}

export const enhancer = defineOperation({
  name: 'enhancer',
  mode: 'enhance',
  summary: 'Improves exposure, contrast and colour; optionally replaces a grey sky and blurs faces and plates.',
  params: Type.Object({
    sky_fix: Type.Optional(Type.Boolean({ description: 'Replace a grey sky with a blue one (the default sky of GET /v1/skies).' })),
    skyId: Type.Optional(
      Type.String({ minLength: 1, description: 'Extension: the sky of GET /v1/skies that sky_fix puts in; giving it turns sky_fix on.' }),
    ),
    auto_privacy: Type.Optional(Type.Boolean({ description: 'Blur faces and licence plates.' })),
    retouch: Type.Optional(
      Type.Union([Type.Literal('classical'), Type.Literal('learned')], {
        default: 'classical',
        description:
          'Roomcraft extension. `classical` (default): the measured tone and colour pipeline. `learned`: MAXIM ' +
          '(MIT-Adobe FiveK) on the whole photo at low resolution, carried to full size by local colour transforms; ' +
          'it did worse on our metrics (docs/decisions/0006-learned-retouching.md).',
      }),
    ),
  }),
  acknowledgementFields: Type.Object({}),
  acceptsMask: false,
  credits: () => 1,
  validate: (params, catalog) => checkSky(catalog, params.skyId),
  acknowledgement: () => ({}),
  run: async ({ image, params }, context) => {
    const result: Record<string, unknown> = {};
    let output: RawImage;
    // MAXIM retouches colour; a greyscale photo goes through the classical pipeline, and the job says so. Without
    // the model: a 503, or where the operator allows fallbacks the classical pipeline, recorded in the result.
    const learnedWanted = params.retouch === 'learned';
    const learnedUsable =
      learnedWanted && image.channels >= 3 && (await missingForFallback(context.models, [LEARNED_RETOUCH_MODEL], 'classical')).length === 0;
    if (learnedUsable) {
      const learned = await learnedRetouch(image, await requireDetector(context.models, LEARNED_RETOUCH_MODEL), {
        longSide: LEARNED_RETOUCH_SIDE,
      });
      output = learned.image;
      result.enhancement = { engine: LEARNED_RETOUCH_MODEL, networkSide: learned.report.networkWidth };
    } else {
      const enhanced = enhancePhoto(image);
      const { whiteBalance, tone } = enhanced.report;
      output = enhanced.image;
      result.enhancement = {
        engine: 'classical',
        whiteBalanceGains: whiteBalance?.gains ?? null,
        exposureStops: tone.exposureStops,
        ...(learnedWanted ? { learnedSkipped: image.channels >= 3 ? 'model_missing' : 'greyscale' } : {}),
      };
    }
    context.progress(0.5);
    if (params.sky_fix || params.skyId !== undefined) {
      context.signal.throwIfAborted();
      const catalog = loadCatalog();
      // The sky goes in after the tone pass, so the rendered sky keeps its catalog colours.
      const sky = replaceSky(output, (params.skyId ? catalog.sky(params.skyId) : undefined) ?? catalog.defaultSky);
      output = sky.image;
      // `because` says in a few words why the sky was left alone (or what was replaced): sky_fix declines a sky it
      // cannot replace cleanly rather than altering the property.
      result.sky = { replaced: sky.report.replaced, reason: sky.report.reason, because: sky.report.because, skyId: sky.report.skyId };
    }
    if (params.auto_privacy) {
      context.signal.throwIfAborted();
      // Last, so nothing after it (sharpening above all) can bring detail back into a blurred face or plate.
      const privacy = await applyPrivacy(output, await privacyModels(context.models), { signal: context.signal });
      output = privacy.image;
      result.privacy = privacy.report;
    }
    context.progress(1);
    return { image: output, result };
  },
});
