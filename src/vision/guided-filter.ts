import { boxMean } from './box-filter.js';
import { bilinearSampler, type ColourPlanes } from './colour-planes.js';
import type { RawImage } from './raw-image.js';

/**
 * The colour guided filter of He, Sun and Tang ("Guided Image Filtering", 2010/2013): the output is, in every
 * window, the linear function of the guide's colour that best fits the input. Used on a matte it moves the matte's
 * edges onto the guide's edges and gives mixed pixels (twigs, hair-thin branches) fractional values.
 */
export interface GuidedFilterOptions {
  /** Window radius in pixels of the resolution the model is fitted at. */
  radius: number;
  /** Regulariser on the guide's variance (samples in 0…1): larger smooths more across weak edges. */
  epsilon: number;
}

/** Per-pixel linear coefficients q = ar·R + ag·G + ab·B + b, already averaged over the windows covering each pixel. */
export interface LinearModel {
  width: number;
  height: number;
  ar: Float32Array;
  ag: Float32Array;
  ab: Float32Array;
  b: Float32Array;
}

export function fitGuidedFilter(guide: ColourPlanes, input: Float32Array, options: GuidedFilterOptions): LinearModel {
  const { width, height, r, g, b } = guide;
  const mean = (plane: Float32Array) => boxMean(plane, width, height, options.radius);
  const product = (x: Float32Array, y: Float32Array) => {
    const result = new Float32Array(x.length);
    for (let i = 0; i < x.length; i++) result[i] = x[i]! * y[i]!;
    return mean(result);
  };
  const meanR = mean(r), meanG = mean(g), meanB = mean(b), meanP = mean(input);
  const rr = product(r, r), rg = product(r, g), rb = product(r, b), gg = product(g, g), gb = product(g, b), bb = product(b, b);
  const rp = product(r, input), gp = product(g, input), bp = product(b, input);

  const ar = new Float32Array(r.length);
  const ag = new Float32Array(r.length);
  const ab = new Float32Array(r.length);
  const offset = new Float32Array(r.length);
  const eps = options.epsilon;
  for (let i = 0; i < r.length; i++) {
    const mr = meanR[i]!, mg = meanG[i]!, mb = meanB[i]!, mp = meanP[i]!;
    // Covariance of the guide in the window (+ε on the diagonal) and its covariance with the input.
    const srr = rr[i]! - mr * mr + eps, srg = rg[i]! - mr * mg, srb = rb[i]! - mr * mb;
    const sgg = gg[i]! - mg * mg + eps, sgb = gb[i]! - mg * mb, sbb = bb[i]! - mb * mb + eps;
    const cr = rp[i]! - mr * mp, cg = gp[i]! - mg * mp, cb = bp[i]! - mb * mp;
    // Inverse of the symmetric 3×3 matrix by cofactors.
    const i00 = sgg * sbb - sgb * sgb, i01 = srb * sgb - srg * sbb, i02 = srg * sgb - srb * sgg;
    const i11 = srr * sbb - srb * srb, i12 = srg * srb - srr * sgb, i22 = srr * sgg - srg * srg;
    const det = srr * i00 + srg * i01 + srb * i02;
    const a0 = (i00 * cr + i01 * cg + i02 * cb) / det;
    const a1 = (i01 * cr + i11 * cg + i12 * cb) / det;
    const a2 = (i02 * cr + i12 * cg + i22 * cb) / det;
    ar[i] = a0;
    ag[i] = a1;
    ab[i] = a2;
    offset[i] = mp - a0 * mr - a1 * mg - a2 * mb;
  }
  return { width, height, ar: mean(ar), ag: mean(ag), ab: mean(ab), b: mean(offset) };
}

/**
 * The "fast guided filter" step (He and Sun, 2015): coefficients fitted on a reduced copy of the guide are upsampled
 * bilinearly and applied to the full-resolution guide, so detail finer than the reduced copy — a twig one pixel wide at
 * 12 MP — still gets its own value from its own colour. RGB(A) images only; alpha is ignored.
 */
export function applyModelToImage(model: LinearModel, image: RawImage): Float32Array {
  const { width, height, channels, data } = image;
  const output = new Float32Array(width * height);
  const sample = bilinearSampler([model.ar, model.ag, model.ab, model.b], model.width, model.height, width, height);
  // Float64: the interpolated coefficients are used as computed, not rounded to Float32.
  const coefficient = new Float64Array(4);
  for (let y = 0; y < height; y++) {
    let offset = y * width * channels;
    for (let x = 0; x < width; x++, offset += channels) {
      sample(x, y, coefficient, 0);
      const weighted = coefficient[0]! * data[offset]! + coefficient[1]! * data[offset + 1]! + coefficient[2]! * data[offset + 2]!;
      output[y * width + x] = weighted / 255 + coefficient[3]!;
    }
  }
  return output;
}
