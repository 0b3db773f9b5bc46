import { selfGuidedCoefficients, type GuidedCoefficients } from '../self-guided-filter.js';
import { isVisible, type Preview } from './preview.js';

export interface BaseLayerOptions {
  /**
   * Radius of the base layer's windows as a share of the image's longer side: the scale of "a region" (a wall,
   * a window) whose brightness the tone curve sets, below which detail is kept as it is. Default 0.03.
   */
  radius: number;
  /**
   * Variance of log luminance, within a window, above which it is treated as an edge to keep rather than texture
   * to smooth. 0.04 is a local contrast of about ±20 %: a window frame is kept, wood grain is not. Default 0.04.
   */
  edgeVariance: number;
}

export const DEFAULT_BASE_LAYER: BaseLayerOptions = { radius: 0.03, edgeVariance: 0.04 };

/** The edge-aware base layer of log luminance: its linear model per preview pixel, and its value there. */
export interface BaseLayer {
  coefficients: GuidedCoefficients;
  /** The base layer at the visible preview pixels: what the tone curve is fitted to. */
  values: Float32Array;
}

/**
 * Splits log luminance into an edge-aware base (illumination, regions) and detail (texture), with the self-guided
 * filter at preview resolution. The tone curve then changes the base only: a bright window and the dark wall
 * beside it get different gains, while the edge between them stays where it is (no halo, since the base follows
 * the edge) and the texture on each side keeps its contrast.
 */
export function computeBaseLayer(preview: Preview, options: BaseLayerOptions): BaseLayer {
  const { width, height, logLuminance } = preview;
  const radius = Math.max(1, Math.round(options.radius * Math.max(width, height)));
  const coefficients = selfGuidedCoefficients(logLuminance, width, height, radius, options.edgeVariance);
  const all = logLuminance.map((guide, i) => coefficients.scale[i]! * guide + coefficients.offset[i]!);
  const visible = all.filter((_, i) => isVisible(preview, i));
  // A fully transparent image still gets a defined (if meaningless) curve.
  return { coefficients, values: visible.length > 0 ? visible : all };
}

/**
 * Evaluates the base layer at full resolution row by row: the preview's linear model is interpolated bilinearly
 * between preview pixel centres and applied to the pixel's own log luminance (the fast guided filter), so the base
 * follows edges at full resolution although it was fitted at preview resolution.
 */
export class BaseLayerUpsampler {
  /** Model coefficients for every column of the current row. */
  readonly scaleRow: Float32Array;
  readonly offsetRow: Float32Array;
  private readonly left: Int32Array;
  private readonly across: Float32Array;
  private readonly previewScaleRow: Float32Array;
  private readonly previewOffsetRow: Float32Array;

  constructor(
    private readonly layer: BaseLayer,
    private readonly preview: Pick<Preview, 'width' | 'height' | 'block'>,
    width: number,
  ) {
    this.scaleRow = new Float32Array(width);
    this.offsetRow = new Float32Array(width);
    this.left = new Int32Array(width);
    this.across = new Float32Array(width);
    for (let x = 0; x < width; x++) {
      const [index, t] = this.sampleAt(x, preview.width);
      this.left[x] = index;
      this.across[x] = t;
    }
    this.previewScaleRow = new Float32Array(preview.width);
    this.previewOffsetRow = new Float32Array(preview.width);
  }

  /** Fills `scaleRow` and `offsetRow` for full-resolution row `y`. */
  loadRow(y: number): void {
    const { width } = this.preview;
    const [top, down] = this.sampleAt(y, this.preview.height);
    const bottom = Math.min(top + 1, this.preview.height - 1);
    const { scale, offset } = this.layer.coefficients;
    for (let x = 0; x < width; x++) {
      const upper = top * width + x;
      const lower = bottom * width + x;
      this.previewScaleRow[x] = scale[upper]! + down * (scale[lower]! - scale[upper]!);
      this.previewOffsetRow[x] = offset[upper]! + down * (offset[lower]! - offset[upper]!);
    }
    const last = width - 1;
    for (let x = 0; x < this.scaleRow.length; x++) {
      const left = this.left[x]!;
      const right = left < last ? left + 1 : last;
      const t = this.across[x]!;
      this.scaleRow[x] = this.previewScaleRow[left]! + t * (this.previewScaleRow[right]! - this.previewScaleRow[left]!);
      this.offsetRow[x] = this.previewOffsetRow[left]! + t * (this.previewOffsetRow[right]! - this.previewOffsetRow[left]!);
    }
  }

  /** Preview index at or before full-resolution coordinate `position`, and the weight of the next one. */
  private sampleAt(position: number, previewLength: number): [number, number] {
    const { block } = this.preview;
    const centred = Math.min(previewLength - 1, Math.max(0, (position - (block - 1) / 2) / block));
    const index = Math.floor(centred);
    return [index, centred - index];
  }
}
