import type { RawImage } from '../raw-image.js';
import { DEFAULT_TONE, planTone, type TonePlan, type ToneOptions } from './exposure.js';
import { BaseLayerUpsampler, computeBaseLayer, DEFAULT_BASE_LAYER, type BaseLayerOptions } from './local-tone.js';
import { buildPreview } from './preview.js';
import { renderCorrections } from './render.js';
import { DEFAULT_SHARPEN, sharpenInPlace, type SharpenOptions, type SharpenReport } from './sharpen.js';
import { DEFAULT_VIBRANCE, type VibranceOptions } from './vibrance.js';
import { DEFAULT_WHITE_BALANCE, estimateWhiteBalance, type WhiteBalanceEstimate, type WhiteBalanceOptions } from './white-balance.js';

export interface EnhanceOptions {
  /**
   * Pixels of the reduced copy on which every estimate is made (white balance, percentiles, the base layer).
   * More follows smaller regions at a higher cost. Default 250 000.
   */
  previewPixels?: number;
  /** How much of an estimated cast is removed; see DEFAULT_WHITE_BALANCE. `maxCorrection: 0` turns it off. */
  whiteBalance?: Partial<WhiteBalanceOptions>;
  /** Exposure, shadows and highlights; see DEFAULT_TONE. */
  tone?: Partial<ToneOptions>;
  /** The scale and edge sensitivity of local tone mapping; see DEFAULT_BASE_LAYER. */
  baseLayer?: Partial<BaseLayerOptions>;
  /** See DEFAULT_VIBRANCE; `amount: 0` turns it off. */
  vibrance?: Partial<VibranceOptions>;
  /** See DEFAULT_SHARPEN; `amount: 0` turns it off. */
  sharpen?: Partial<SharpenOptions>;
}

export const DEFAULT_PREVIEW_PIXELS = 250_000;

export interface EnhanceReport {
  /** False for greyscale input, where white balance and vibrance do not apply. */
  colour: boolean;
  /** Size of the reduced copy the estimates were made on. */
  preview: { width: number; height: number };
  /** The estimated light and the gains applied; null for greyscale. */
  whiteBalance: WhiteBalanceEstimate | null;
  /** Percentiles the tone curve was fitted to, and its exposure, contrast, shadow and highlight settings. */
  tone: Omit<TonePlan, 'curve'>;
  /** Chroma boost given to muted colours (0 for greyscale). */
  vibrance: number;
  /** The noise estimate and the threshold sharpening used. */
  sharpen: SharpenReport;
}

/**
 * The always-on automatic enhancement of a room photo: white balance from near-neutral surfaces (part of the cast
 * only), exposure and contrast from robust percentiles applied as local tone mapping (shadows opened, windows
 * brought down, no halo), gentle vibrance and noise-aware sharpening. Deterministic; full resolution; alpha is
 * copied untouched; greyscale input gets the tone and sharpening steps only.
 */
export function enhancePhoto(image: RawImage, options: EnhanceOptions = {}): { image: RawImage; report: EnhanceReport } {
  const colour = image.channels >= 3;
  const preview = buildPreview(image, options.previewPixels ?? DEFAULT_PREVIEW_PIXELS);
  const whiteBalance = colour ? estimateWhiteBalance(preview, { ...DEFAULT_WHITE_BALANCE, ...options.whiteBalance }) : null;
  const baseLayer = computeBaseLayer(preview, { ...DEFAULT_BASE_LAYER, ...options.baseLayer });
  const { curve, ...tone } = planTone(baseLayer.values, { ...DEFAULT_TONE, ...options.tone });
  const vibrance = colour ? (options.vibrance?.amount ?? DEFAULT_VIBRANCE.amount) : 0;

  const output = renderCorrections(image, {
    gains: whiteBalance?.gains ?? [1, 1, 1],
    upsampler: new BaseLayerUpsampler(baseLayer, preview, image.width),
    curve,
    vibrance,
  });
  const sharpen = sharpenInPlace(output, { ...DEFAULT_SHARPEN, ...options.sharpen });
  return {
    image: output,
    report: { colour, preview: { width: preview.width, height: preview.height }, whiteBalance, tone, vibrance, sharpen },
  };
}
