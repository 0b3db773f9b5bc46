import { Type } from '@sinclair/typebox';
import { defineOperation } from './define.js';
import type { OperationContext, OperationInput, OperationOutput } from './operation.js';
import { checkUpscaleOutput } from './upscale-limits.js';
import { upscaleWithModels, type UpscalePlan } from '../upscaling/upscale-engine.js';
import { UPSCALE_PLANS, UPSCALE_ADVANCED_PLANS } from '../upscaling/upscale-plans.js';

function scaleSchema(scales: readonly number[]) {
  return Type.Optional(
    Type.Union(
      scales.map((s) => Type.Literal(s)),
      { default: 2, description: `Output scale: ${scales.join(', ')} (default 2).` },
    ),
  );
}

function runWith(plans: Readonly<Record<number, UpscalePlan>>) {
  return async ({ image, params }: OperationInput<{ scale?: number }>, context: OperationContext): Promise<OperationOutput> => {
    const scale = params.scale ?? 2;
    const plan = plans[scale];
    if (!plan) throw new Error(`no upscaling plan for ×${scale}`);
    const outcome = await upscaleWithModels(image, scale, plan, context.models, {
      onProgress: context.progress,
      signal: context.signal,
    });
    context.progress(1);
    return outcome;
  };
}

export const upscale = defineOperation({
  name: 'upscale',
  mode: 'upscale',
  summary: 'Raises the resolution of an image by 2 or 3 with a super-resolution network.',
  params: Type.Object({ scale: scaleSchema([2, 3]) }),
  acknowledgementFields: Type.Object({}),
  acceptsMask: false,
  credits: () => 1,
  acknowledgement: () => ({}),
  checkInput: (size, params, config) => checkUpscaleOutput(size, params.scale ?? 2, config),
  run: runWith(UPSCALE_PLANS),
});

export const upscaleAdvanced = defineOperation({
  name: 'upscale_advanced',
  mode: 'upscale',
  summary: 'Upscales by 2, 4 or 6 with the highest-fidelity networks.',
  params: Type.Object({ scale: scaleSchema([2, 4, 6]) }),
  acknowledgementFields: Type.Object({}),
  acceptsMask: false,
  credits: () => 2,
  // ×4 and ×6 run the largest networks over many tiles: minutes of CPU, like a render.
  queue: (params) => ((params.scale ?? 2) > 2 ? 'heavy' : 'light'),
  acknowledgement: () => ({}),
  checkInput: (size, params, config) => checkUpscaleOutput(size, params.scale ?? 2, config),
  run: runWith(UPSCALE_ADVANCED_PLANS),
});
