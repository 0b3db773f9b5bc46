import { boxMean } from '../box-filter.js';
import type { RawImage } from '../raw-image.js';
import { maskBounds } from '../mask-morphology.js';

/**
 * Gives an exemplar fill the low frequencies of a membrane across its hole. The patches copy texture from elsewhere
 * in the photo, and with it that place's shading: a fill that is right in its detail can still be a little brighter or
 * warmer than what stood behind the object, which costs more PSNR than the detail wins. The membrane (the smoothest
 * surface through the hole's rim, Laplace's equation with the rim's colours as boundary values) is what a diffusion
 * fill (Telea, Navier-Stokes) puts there; here it only moves the fill's local mean:
 *
 *   out = fill + blur(hole · (membrane − fill))
 *
 * so the patches keep the detail finer than the blur, and the correction fades out towards the rim, where the
 * patches already match the known pixels. Only hole pixels and the seam around them (by their share `alpha` of the
 * fill) change.
 */
export function matchMembrane(original: RawImage, filled: RawImage, hole: Uint8Array, alpha: Float32Array, radius: number): RawImage {
  const { width, height } = original;
  const r = Math.max(1, Math.round(radius));
  const bounds = maskBounds(hole, width, height);
  if (!bounds) return filled;
  const { x0, y0, x1, y1 } = bounds;
  // Three box passes reach 3r; the seam lies within a few pixels of the hole.
  const margin = 3 * r + 4;
  const cx0 = Math.max(0, x0 - margin);
  const cy0 = Math.max(0, y0 - margin);
  const cw = Math.min(width, x1 + margin + 1) - cx0;
  const ch = Math.min(height, y1 + margin + 1) - cy0;
  const known = new Uint8Array(cw * ch);
  for (let y = 0; y < ch; y++) for (let x = 0; x < cw; x++) known[y * cw + x] = hole[(cy0 + y) * width + cx0 + x] ? 0 : 1;
  const out = Uint8Array.from(filled.data);
  for (let c = 0; c < 3; c++) {
    const values = new Float32Array(cw * ch);
    for (let y = 0; y < ch; y++) for (let x = 0; x < cw; x++) values[y * cw + x] = original.data[3 * ((cy0 + y) * width + cx0 + x) + c]!;
    const membrane = solveMembrane(values, known, cw, ch);
    let difference: Float32Array = new Float32Array(cw * ch);
    for (let i = 0; i < difference.length; i++) {
      if (known[i]) continue;
      const x = i % cw;
      const y = (i - x) / cw;
      difference[i] = membrane[i]! - filled.data[3 * ((cy0 + y) * width + cx0 + x) + c]!;
    }
    for (let pass = 0; pass < 3; pass++) difference = boxMean(difference, cw, ch, r);
    for (let y = 0; y < ch; y++) {
      for (let x = 0; x < cw; x++) {
        const p = (cy0 + y) * width + cx0 + x;
        const a = alpha[p]!;
        if (!(a > 0)) continue;
        out[3 * p + c] = Math.max(0, Math.min(255, Math.round(filled.data[3 * p + c]! + a * difference[y * cw + x]!)));
      }
    }
  }
  return { ...filled, data: out };
}

/**
 * Laplace's equation on the unknown pixels with the known ones as boundary values: solved on a pyramid (each coarser
 * level's solution starts the finer one), Gauss-Seidel sweeps at every level. Image edges are free (no flux).
 */
function solveMembrane(values: Float32Array, known: Uint8Array, width: number, height: number): Float32Array {
  const result = Float32Array.from(values);
  let unknown = 0;
  for (let i = 0; i < known.length; i++) if (!known[i]) unknown++;
  if (unknown === 0) return result;
  if (width > 8 && height > 8) {
    // The coarser level: a pixel is known when any of its four is, with their mean.
    const w = Math.ceil(width / 2);
    const h = Math.ceil(height / 2);
    const coarseValues = new Float32Array(w * h);
    const coarseKnown = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let sum = 0;
        let n = 0;
        for (let dy = 0; dy < 2; dy++) {
          for (let dx = 0; dx < 2; dx++) {
            const fx = 2 * x + dx;
            const fy = 2 * y + dy;
            if (fx >= width || fy >= height || !known[fy * width + fx]) continue;
            sum += values[fy * width + fx]!;
            n++;
          }
        }
        if (n > 0) {
          coarseValues[y * w + x] = sum / n;
          coarseKnown[y * w + x] = 1;
        }
      }
    }
    const coarse = solveMembrane(coarseValues, coarseKnown, w, h);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) if (!known[y * width + x]) result[y * width + x] = coarse[(y >> 1) * w + (x >> 1)]!;
    }
  } else {
    let mean = 0;
    let n = 0;
    for (let i = 0; i < known.length; i++) {
      if (!known[i]) continue;
      mean += values[i]!;
      n++;
    }
    for (let i = 0; i < known.length; i++) if (!known[i]) result[i] = n > 0 ? mean / n : 128;
  }
  const cells = new Int32Array(unknown);
  for (let i = 0, k = 0; i < known.length; i++) if (!known[i]) cells[k++] = i;
  // The coarser level's solution leaves only the finer detail to settle, which takes a few dozen sweeps; the
  // coarsest starts from a mean and needs more.
  const sweeps = width > 8 && height > 8 ? 24 : 200;
  for (let sweep = 0; sweep < sweeps; sweep++) {
    for (const i of cells) {
      const x = i % width;
      let sum = 0;
      let n = 0;
      if (x > 0) {
        sum += result[i - 1]!;
        n++;
      }
      if (x < width - 1) {
        sum += result[i + 1]!;
        n++;
      }
      if (i >= width) {
        sum += result[i - width]!;
        n++;
      }
      if (i + width < result.length) {
        sum += result[i + width]!;
        n++;
      }
      result[i] = sum / n;
    }
  }
  return result;
}
