import { Type } from '@sinclair/typebox';
import { defineOperation } from './define.js';

export const enhancer = defineOperation({
  name: 'enhancer',
  mode: 'enhance',
  summary: 'Improves exposure, contrast and colour; optionally replaces a grey sky and blurs faces and plates.',
  params: Type.Object({
    sky_fix: Type.Optional(Type.Boolean({ description: 'Replace a grey sky with a blue one.' })),
    auto_privacy: Type.Optional(Type.Boolean({ description: 'Blur faces and licence plates.' })),
  }),
  acceptsMask: false,
  credits: () => 1,
  acknowledgement: () => ({}),
});
