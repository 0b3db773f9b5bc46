import type { UpscalePlan } from './upscale-engine.js';

// Chosen by `npm run bench:upscale-quality` (docs/benchmarks.md, docs/decisions/0003-upscaling-engines.md).
export const UPSCALE_PLANS: Readonly<Record<number, UpscalePlan>> = {
  2: { models: [{ name: 'esrgan-legacy-psnr-small', scale: 2 }] },
  3: { models: [{ name: 'esrgan-legacy-div2k-x3', scale: 3 }] },
};

export const UPSCALE_ADVANCED_PLANS: Readonly<Record<number, UpscalePlan>> = {
  2: { models: [{ name: 'esrgan-legacy-div2k-x2', scale: 2 }] },
  4: { models: [{ name: 'esrgan-legacy-div2k-x4', scale: 4 }] },
  6: {
    models: [
      { name: 'esrgan-legacy-div2k-x3', scale: 3 },
      { name: 'esrgan-legacy-div2k-x2', scale: 2 },
    ],
  },
};
