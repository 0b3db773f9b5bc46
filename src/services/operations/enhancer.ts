import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors.js';
import { loadCatalog } from '../../catalog/catalog.js';
import { enhancePhoto } from '../../vision/enhance/enhance.js';
import { replaceSky } from '../../vision/sky/replace-sky.js';
import { defineOperation } from './define.js';

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
    if (params.auto_privacy) {
      throw new AppError('operation_unavailable', 501, 'auto_privacy is not available on this server yet');
    }
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
    context.progress(1);
    return { image: output, result };
  },
});
