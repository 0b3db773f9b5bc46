import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors.js';
import { loadCatalog } from '../../catalog/catalog.js';
import { enhancePhoto } from '../../vision/enhance/enhance.js';
import { replaceSky } from '../../vision/sky/replace-sky.js';
import { defineOperation } from './define.js';
import type { ImageModels } from './operation.js';
import { applyPrivacy } from '../privacy/apply-privacy.js';
import { PRIVACY_MODEL_NAMES, type PrivacyModels } from '../privacy/detect-private-regions.js';

async function privacyModels(models: ImageModels): Promise<PrivacyModels> {
  const names = Object.values(PRIVACY_MODEL_NAMES);
  const missing = [];
  for (const name of names) if (!(await models.isInstalled(name))) missing.push(name);
  if (missing.length > 0) {
    throw new AppError('service_unavailable', 503, `auto_privacy needs ${missing.join(', ')}; run roomcraft models install`);
  }
  const [faces, vehicles, text] = await Promise.all([
    models.detectorSession(PRIVACY_MODEL_NAMES.faces),
    models.detectorSession(PRIVACY_MODEL_NAMES.vehicles),
    models.detectorSession(PRIVACY_MODEL_NAMES.text),
  ]);
  return { faces, vehicles, text };
}

export const enhancer = defineOperation({
  name: 'enhancer',
  mode: 'enhance',
  summary: 'Improves exposure, contrast and colour; optionally replaces a grey sky and blurs faces and plates.',
  params: Type.Object({
    sky_fix: Type.Optional(Type.Boolean({ description: 'Replace a grey sky with a blue one (the default sky of GET /v1/skies).' })),
    auto_privacy: Type.Optional(Type.Boolean({ description: 'Blur faces and licence plates.' })),
  }),
  acceptsMask: false,
  credits: () => 1,
  acknowledgement: () => ({}),
  run: async ({ image, params }, context) => {
    const enhanced = enhancePhoto(image);
    context.progress(0.5);
    const { whiteBalance, tone } = enhanced.report;
    const result: Record<string, unknown> = {
      enhancement: {
        whiteBalanceGains: whiteBalance?.gains ?? null,
        exposureStops: tone.exposureStops,
      },
    };
    let output = enhanced.image;
    if (params.sky_fix) {
      context.signal.throwIfAborted();
      // The sky goes in after the tone pass, so the rendered sky keeps its catalog colours.
      const sky = replaceSky(output, loadCatalog().defaultSky);
      output = sky.image;
      result.sky = { replaced: sky.report.replaced, reason: sky.report.reason, skyId: sky.report.skyId };
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
