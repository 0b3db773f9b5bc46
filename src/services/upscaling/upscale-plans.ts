import type { UpscalePlan } from './upscale-engine.js';

// Chosen by `npm run bench:upscale-quality`; see docs/decisions/0003-upscaling-engines.md for the figures.
const PSNR_SMALL = { name: 'esrgan-legacy-psnr-small', scale: 2 } as const;
const MEDIUM_X3 = { name: 'esrgan-medium-x3', scale: 3 } as const;
const BACK_PROJECTION_ITERATIONS = 2;

export const UPSCALE_PLANS: Readonly<Record<number, UpscalePlan>> = {
  2: { models: [PSNR_SMALL], backProjection: BACK_PROJECTION_ITERATIONS },
  // ×2 by the network, the last ×1.5 by Lanczos-3, then back-projection against the input.
  3: { models: [PSNR_SMALL], backProjection: BACK_PROJECTION_ITERATIONS },
};

export const UPSCALE_ADVANCED_PLANS: Readonly<Record<number, UpscalePlan>> = {
  2: { models: [PSNR_SMALL], backProjection: BACK_PROJECTION_ITERATIONS },
  4: { models: [PSNR_SMALL, PSNR_SMALL], backProjection: BACK_PROJECTION_ITERATIONS },
  // ×2 then ×3: sharper than ×8-then-down and two to three times faster than a third ×2 pass.
  6: { models: [PSNR_SMALL, MEDIUM_X3], backProjection: BACK_PROJECTION_ITERATIONS },
};
