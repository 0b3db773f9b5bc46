import { Type } from '@sinclair/typebox';
import { defineOperation } from './define.js';
import type { OperationContext, OperationInput, OperationOutput } from './operation.js';
import { checkUpscaleOutput, lanczosUpscale } from './lanczos-upscale.js';

function scaleSchema(scales: number[]) {
  return Type.Optional(
    Type.Union(
      scales.map((s) => Type.Literal(s)),
      { default: 2, description: `Output scale: ${scales.join(', ')} (default 2).` },
    ),
  );
}

async function runUpscale(
  { image, params }: OperationInput<{ scale?: number }>,
  context: OperationContext,
): Promise<OperationOutput> {
  const scale = params.scale ?? 2;
  const output = await lanczosUpscale(image, scale);
  context.progress(1);
  return { image: output, result: { engine: 'lanczos3', scale } };
}

export const upscale = defineOperation({
  name: 'upscale',
  mode: 'upscale',
  summary: 'Raises the resolution of an image by 2 or 3.',
  params: Type.Object({ scale: scaleSchema([2, 3]) }),
  acceptsMask: false,
  credits: () => 1,
  acknowledgement: () => ({}),
  checkInput: (size, params, config) => checkUpscaleOutput(size, params.scale ?? 2, config),
  run: runUpscale,
});

export const upscaleAdvanced = defineOperation({
  name: 'upscale_advanced',
  mode: 'upscale',
  summary: 'Upscales by 2, 4 or 6.',
  params: Type.Object({ scale: scaleSchema([2, 4, 6]) }),
  acceptsMask: false,
  credits: () => 2,
  acknowledgement: () => ({}),
  checkInput: (size, params, config) => checkUpscaleOutput(size, params.scale ?? 2, config),
  run: runUpscale,
});
