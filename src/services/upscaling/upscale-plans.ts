import type { UpscalePlan } from './upscale-engine.js';

// Chosen by `npm run bench:upscale-quality`; see docs/decisions/0003-upscaling-engines.md for the figures.
const PSNR_SMALL = { name: 'esrgan-legacy-psnr-small', scale: 2 } as const;
const BACK_PROJECTION_ITERATIONS = 2;

export const UPSCALE_PLANS: Readonly<Record<number, UpscalePlan>> = {
  2: { models: [PSNR_SMALL], backProjection: BACK_PROJECTION_ITERATIONS },
  3: { models: [PSNR_SMALL], backProjection: BACK_PROJECTION_ITERATIONS },
};

export const UPSCALE_ADVANCED_PLANS: Readonly<Record<number, UpscalePlan>> = {
  2: { models: [PSNR_SMALL], backProjection: BACK_PROJECTION_ITERATIONS },
  4: { models: [PSNR_SMALL, PSNR_SMALL], backProjection: BACK_PROJECTION_ITERATIONS },
  6: { models: [PSNR_SMALL, PSNR_SMALL, PSNR_SMALL], backProjection: BACK_PROJECTION_ITERATIONS },
};
