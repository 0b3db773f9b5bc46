/**
 * Metrics for the declutter (object removal / inpainting) benchmark: how close a filled image is to the original
 * inside a hole whose true content is known (bench/data/declutter-holes.json). Pure functions, no I/O.
 *
 * Images are RawImage-like: 8-bit interleaved samples, `channels` per pixel (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA;
 * alpha is ignored everywhere). A hole mask is a Uint8Array of width × height, 1 (any non-zero) = hole.
 * Luma is BT.601: Y = 0.299 R + 0.587 G + 0.114 B, in [0, 255] (the grey channel itself for 1 or 2 channels).
 *
 * - holePsnr: PSNR in dB over the hole's pixels and the colour channels (RGB: the 3 channels; grey: 1), peak 255.
 *   Identical → Infinity.
 * - holeSsim: SSIM (Wang et al. 2004, C1 = (0.01·255)², C2 = (0.03·255)²) on luma with an 11 × 11 Gaussian window
 *   (σ = 1.5, weights renormalised where the window leaves the image), computed at every hole pixel — the window
 *   sees the context around the hole as well — and averaged over the hole pixels.
 * - textureRatio: mean luma gradient magnitude over the hole's pixels in the filled image divided by the same in
 *   the original (gradient: central differences, |∇Y| = √(gx² + gy²), clamped at the image border; the
 *   differences at the hole's rim use the known pixels next to it, so a visible seam counts as texture). 1 = as
 *   busy as the truth, → 0 flat/blurred, > 1 noisier. Both means 0 → 1.
 * - edgeContinuity: "straight edges that enter the hole leave it on the same line". See its doc comment.
 */
import { detectSegmentsLsd, gaussianBlur } from '../src/vision/geometry/lsd.js';
import { mergeCollinear, type LineSegment } from '../src/vision/geometry/segments.js';
import { sampleBilinear } from '../src/vision/colour-planes.js';

export interface ImageLike {
  data: ArrayLike<number>;
  width: number;
  height: number;
  channels: number;
}

export interface BoundingBox {
  x0: number;
  y0: number;
  /** Exclusive. */
  x1: number;
  /** Exclusive. */
  y1: number;
}

/** The smallest box holding every hole pixel, or undefined for an empty mask. */
export function holeBoundingBox(hole: Uint8Array, width: number, height: number): BoundingBox | undefined {
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (!hole[row + x]) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return x1 < 0 ? undefined : { x0, y0, x1: x1 + 1, y1: y1 + 1 };
}

/** BT.601 luma of a crop (whole image by default), as floats in [0, 255]. */
export function lumaPlane(image: ImageLike, box: BoundingBox = { x0: 0, y0: 0, x1: image.width, y1: image.height }): Float32Array {
  const w = box.x1 - box.x0;
  const h = box.y1 - box.y0;
  const out = new Float32Array(w * h);
  const c = image.channels;
  const d = image.data;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = ((box.y0 + y) * image.width + box.x0 + x) * c;
      out[y * w + x] = c >= 3 ? 0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]! : d[i]!;
    }
  }
  return out;
}

function checkPair(original: ImageLike, filled: ImageLike, hole: Uint8Array): void {
  if (original.width !== filled.width || original.height !== filled.height) throw new Error('original and filled differ in size');
  if (original.channels !== filled.channels) throw new Error('original and filled differ in channels');
  if (hole.length !== original.width * original.height) throw new Error('hole mask does not match the image size');
}

/** PSNR (dB) over the hole pixels and the colour channels (3 for RGB/RGBA, 1 for grey), peak 255. */
export function holePsnr(original: ImageLike, filled: ImageLike, hole: Uint8Array): number {
  checkPair(original, filled, hole);
  const c = original.channels;
  const colours = c >= 3 ? 3 : 1;
  let sum = 0;
  let count = 0;
  for (let p = 0; p < hole.length; p++) {
    if (!hole[p]) continue;
    for (let k = 0; k < colours; k++) {
      const diff = original.data[p * c + k]! - filled.data[p * c + k]!;
      sum += diff * diff;
    }
    count += colours;
  }
  if (count === 0) return Number.NaN;
  const mse = sum / count;
  return mse === 0 ? Number.POSITIVE_INFINITY : 10 * Math.log10((255 * 255) / mse);
}

const SSIM_SIGMA = 1.5;
const SSIM_RADIUS = 5;

/** Mean SSIM (luma, 11 × 11 Gaussian window σ 1.5) over the hole pixels; NaN for an empty hole. */
export function holeSsim(original: ImageLike, filled: ImageLike, hole: Uint8Array): number {
  checkPair(original, filled, hole);
  const { width, height } = original;
  const bbox = holeBoundingBox(hole, width, height);
  if (!bbox) return Number.NaN;
  const box = expand(bbox, SSIM_RADIUS, width, height);
  const w = box.x1 - box.x0;
  const h = box.y1 - box.y0;
  const a = lumaPlane(original, box);
  const b = lumaPlane(filled, box);
  const aa = new Float32Array(a.length);
  const bb = new Float32Array(a.length);
  const ab = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) {
    aa[i] = a[i]! * a[i]!;
    bb[i] = b[i]! * b[i]!;
    ab[i] = a[i]! * b[i]!;
  }
  // Window sums are taken inside the crop; it extends SSIM_RADIUS beyond the hole wherever the image allows, so the
  // only truncation is at the image border, where the weights are renormalised.
  const [ma, mb, maa, mbb, mab] = [a, b, aa, bb, ab].map((plane) => windowMean(plane, w, h));
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  let sum = 0;
  let count = 0;
  for (let y = bbox.y0; y < bbox.y1; y++) {
    for (let x = bbox.x0; x < bbox.x1; x++) {
      if (!hole[y * width + x]) continue;
      const i = (y - box.y0) * w + (x - box.x0);
      const mx = ma![i]!;
      const my = mb![i]!;
      const vx = maa![i]! - mx * mx;
      const vy = mbb![i]! - my * my;
      const cov = mab![i]! - mx * my;
      sum += ((2 * mx * my + c1) * (2 * cov + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2));
      count++;
    }
  }
  return sum / count;
}

/** Gaussian-weighted local mean (σ 1.5, radius 5), weights renormalised at the crop's edges. */
function windowMean(plane: Float32Array, w: number, h: number): Float32Array {
  const kernel: number[] = [];
  for (let k = -SSIM_RADIUS; k <= SSIM_RADIUS; k++) kernel.push(Math.exp((-k * k) / (2 * SSIM_SIGMA * SSIM_SIGMA)));
  const temp = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let acc = 0;
      let weight = 0;
      for (let k = -SSIM_RADIUS; k <= SSIM_RADIUS; k++) {
        const xx = x + k;
        if (xx < 0 || xx >= w) continue;
        acc += kernel[k + SSIM_RADIUS]! * plane[y * w + xx]!;
        weight += kernel[k + SSIM_RADIUS]!;
      }
      temp[y * w + x] = acc / weight;
    }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let acc = 0;
      let weight = 0;
      for (let k = -SSIM_RADIUS; k <= SSIM_RADIUS; k++) {
        const yy = y + k;
        if (yy < 0 || yy >= h) continue;
        acc += kernel[k + SSIM_RADIUS]! * temp[yy * w + x]!;
        weight += kernel[k + SSIM_RADIUS]!;
      }
      out[y * w + x] = acc / weight;
    }
  }
  return out;
}

/** Mean luma gradient magnitude over the hole, filled ÷ original (see the file comment); NaN for an empty hole. */
export function textureRatio(original: ImageLike, filled: ImageLike, hole: Uint8Array): number {
  checkPair(original, filled, hole);
  const { width, height } = original;
  const bbox = holeBoundingBox(hole, width, height);
  if (!bbox) return Number.NaN;
  const box = expand(bbox, 1, width, height);
  const fill = meanGradient(lumaPlane(filled, box), box, hole, width);
  const truth = meanGradient(lumaPlane(original, box), box, hole, width);
  if (truth === 0) return fill === 0 ? 1 : Number.POSITIVE_INFINITY;
  return fill / truth;
}

function meanGradient(plane: Float32Array, box: BoundingBox, hole: Uint8Array, width: number): number {
  const w = box.x1 - box.x0;
  const h = box.y1 - box.y0;
  let sum = 0;
  let count = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!hole[(box.y0 + y) * width + box.x0 + x]) continue;
      const gx = (plane[y * w + Math.min(w - 1, x + 1)]! - plane[y * w + Math.max(0, x - 1)]!) / 2;
      const gy = (plane[Math.min(h - 1, y + 1) * w + x]! - plane[Math.max(0, y - 1) * w + x]!) / 2;
      sum += Math.hypot(gx, gy);
      count++;
    }
  }
  return count === 0 ? 0 : sum / count;
}

export interface EdgeContinuityOptions {
  /** Length a segment must run outside the hole before entering it and after leaving it, px. Default 8. */
  minOutside?: number;
  /** Length of the segment inside the hole for it to count, px. Default 4. */
  minInside?: number;
  /** How far (along the normal, px) the filled edge may sit from the true line and still count. Default 2. */
  tolerance?: number;
  /** A sample passes when the fill's oriented response reaches this share of the original's. Default 0.5. */
  ratio?: number;
  /** Samples where the original's own oriented response (grey levels per px) is below this are not scored. Default 4. */
  minResponse?: number;
  /** Context kept around the hole's bounding box for line detection, px. Default max(32, half the box's longer side). */
  margin?: number;
  /** Smoothing of the luma before the gradients are taken, σ in px (of the working scale). Default 1. */
  sigma?: number;
  /** The crop is area-downsampled so that its longer side is at most this many px before anything else. Default 512. */
  workingSide?: number;
}

export interface EdgeContinuityResult {
  /** Mean of the per-segment scores in [0, 1]; NaN when no segment crosses the hole. */
  score: number;
  /** Number of segments that cross the hole and were scored. */
  segments: number;
  /** Working scale (≤ 1) the crop was analysed at; pixel lengths in the options are in working-scale pixels. */
  scale: number;
  /** Per scored segment: the line (image pixels), its samples inside the hole that were scored, and its score. */
  details: { segment: LineSegment; samples: number; score: number }[];
}

/**
 * Edge continuity: do straight edges that cross the hole in the original cross it in the fill too, on the same line?
 *
 * 0. Working scale: the hole's bounding box plus `margin` is cropped from both images and its luma (and the hole,
 *    as coverage) is area-downsampled so that the crop's longer side is at most `workingSide` (512) px; everything
 *    below is measured at that scale, and all pixel options are working-scale pixels (at scale 1 for crops up to
 *    512 px). A hole pixel at that scale is one at least half covered by the hole.
 * 1. Straight segments are detected with LSD (detectSegmentsLsd, default parameters) on the ORIGINAL's working
 *    luma, and collinear pieces are joined (mergeCollinear: 3°, 1.5 px, gaps up to 8 px). The original is the
 *    truth, so a line that runs through the hole is found across it.
 * 2. A segment counts when, walked in 0.5 px steps, it has at least `minInside` px inside the hole and runs at least
 *    `minOutside` px outside the hole before its first and after its last inside sample (it enters and leaves).
 * 3. For every inside sample p, with n the segment's unit normal, the oriented response of an image I is the
 *    directional derivative ∇I(p + t·n)·n of the σ-smoothed luma (bilinear central differences), taken at the
 *    offset t ∈ [−tolerance, tolerance] (0.5 px steps) where the ORIGINAL's |response| is largest; its sign s is
 *    the edge's polarity (dark→bright or bright→dark across the line). The original's response is
 *    r_o = |∇O·n| there. The fill's is r_f = max over t ∈ [−tolerance, tolerance] of s·∇F(p + t·n)·n (the same
 *    polarity, allowed to sit up to `tolerance` px off the line). Samples with r_o < minResponse are skipped.
 * 4. A sample passes when r_f ≥ ratio·r_o; a segment's score is the fraction of its scored samples that pass
 *    (segments with fewer than 3 scored samples are dropped); the result is the mean over segments.
 *
 * So a fill that carries the line through scores ≈ 1, a blurred or flat fill ≈ 0, and an edge continued off the
 * line (displaced by more than `tolerance`, or bent) or with the wrong polarity fails where it deviates.
 */
export function edgeContinuity(original: ImageLike, filled: ImageLike, hole: Uint8Array, options: EdgeContinuityOptions = {}): EdgeContinuityResult {
  checkPair(original, filled, hole);
  const { width, height } = original;
  const empty: EdgeContinuityResult = { score: Number.NaN, segments: 0, scale: 1, details: [] };
  const bbox = holeBoundingBox(hole, width, height);
  if (!bbox) return empty;
  const minOutside = options.minOutside ?? 8;
  const minInside = options.minInside ?? 4;
  const tolerance = options.tolerance ?? 2;
  const ratio = options.ratio ?? 0.5;
  const minResponse = options.minResponse ?? 4;
  const sigma = options.sigma ?? 1;
  const margin = options.margin ?? Math.max(32, Math.ceil(Math.max(bbox.x1 - bbox.x0, bbox.y1 - bbox.y0) / 2));
  const box = expand(bbox, margin, width, height);
  const cropW = box.x1 - box.x0;
  const cropH = box.y1 - box.y0;
  const scale = Math.min(1, (options.workingSide ?? 512) / Math.max(cropW, cropH));
  const w = Math.max(1, Math.round(cropW * scale));
  const h = Math.max(1, Math.round(cropH * scale));
  const originalLuma = areaResample(lumaPlane(original, box), cropW, cropH, w, h);
  const filledLuma = areaResample(lumaPlane(filled, box), cropW, cropH, w, h);
  const holeCrop = new Float32Array(cropW * cropH);
  for (let y = 0; y < cropH; y++) for (let x = 0; x < cropW; x++) holeCrop[y * cropW + x] = hole[(box.y0 + y) * width + box.x0 + x] ? 1 : 0;
  const holeSmall = areaResample(holeCrop, cropW, cropH, w, h);
  const segments = mergeCollinear(detectSegmentsLsd({ data: originalLuma, width: w, height: h }), { angleDeg: 3, distance: 1.5, gap: 8 });
  const smoothO = sigma > 0 ? gaussianBlur(originalLuma, w, h, sigma) : originalLuma;
  const smoothF = sigma > 0 ? gaussianBlur(filledLuma, w, h, sigma) : filledLuma;
  const inHole = (x: number, y: number): boolean => {
    const xi = Math.floor(x);
    const yi = Math.floor(y);
    if (xi < 0 || yi < 0 || xi >= w || yi >= h) return false;
    return holeSmall[yi * w + xi]! >= 0.5;
  };
  const step = 0.5;
  const details: EdgeContinuityResult['details'] = [];
  for (const s of segments) {
    const length = Math.hypot(s.x1 - s.x0, s.y1 - s.y0);
    if (length < minOutside * 2 + minInside) continue;
    const ux = (s.x1 - s.x0) / length;
    const uy = (s.y1 - s.y0) / length;
    const nx = -uy;
    const ny = ux;
    const count = Math.floor(length / step) + 1;
    let first = -1;
    let last = -1;
    let insideCount = 0;
    const inside = new Uint8Array(count);
    for (let k = 0; k < count; k++) {
      if (!inHole(s.x0 + ux * k * step, s.y0 + uy * k * step)) continue;
      inside[k] = 1;
      insideCount++;
      if (first < 0) first = k;
      last = k;
    }
    if (first < 0 || insideCount * step < minInside) continue;
    if (first * step < minOutside || (count - 1 - last) * step < minOutside) continue;
    let scored = 0;
    let passed = 0;
    for (let k = first; k <= last; k++) {
      if (!inside[k]) continue;
      const px = s.x0 + ux * k * step;
      const py = s.y0 + uy * k * step;
      let best = 0;
      let bestSigned = 0;
      for (let t = -tolerance; t <= tolerance + 1e-9; t += step) {
        const r = directional(smoothO, w, h, px + nx * t, py + ny * t, nx, ny);
        if (Math.abs(r) > best) {
          best = Math.abs(r);
          bestSigned = r;
        }
      }
      if (best < minResponse) continue;
      const polarity = Math.sign(bestSigned);
      let fillBest = Number.NEGATIVE_INFINITY;
      for (let t = -tolerance; t <= tolerance + 1e-9; t += step) {
        const r = polarity * directional(smoothF, w, h, px + nx * t, py + ny * t, nx, ny);
        if (r > fillBest) fillBest = r;
      }
      scored++;
      if (fillBest >= ratio * best) passed++;
    }
    if (scored < 3) continue;
    details.push({
      segment: { x0: box.x0 + s.x0 / scale, y0: box.y0 + s.y0 / scale, x1: box.x0 + s.x1 / scale, y1: box.y0 + s.y1 / scale, score: s.score },
      samples: scored,
      score: passed / scored,
    });
  }
  if (details.length === 0) return { ...empty, scale };
  return { score: details.reduce((sum, d) => sum + d.score, 0) / details.length, segments: details.length, scale, details };
}

/** Box-filter (area) resampling of a plane to a smaller size; the same size returns the input. */
export function areaResample(plane: Float32Array, w: number, h: number, tw: number, th: number): Float32Array {
  if (tw === w && th === h) return plane;
  const out = new Float32Array(tw * th);
  const sx = w / tw;
  const sy = h / th;
  for (let ty = 0; ty < th; ty++) {
    const y0 = ty * sy;
    const y1 = y0 + sy;
    for (let tx = 0; tx < tw; tx++) {
      const x0 = tx * sx;
      const x1 = x0 + sx;
      let acc = 0;
      let weight = 0;
      for (let y = Math.floor(y0); y < Math.min(h, Math.ceil(y1)); y++) {
        const wy = Math.min(y + 1, y1) - Math.max(y, y0);
        for (let x = Math.floor(x0); x < Math.min(w, Math.ceil(x1)); x++) {
          const wxy = wy * (Math.min(x + 1, x1) - Math.max(x, x0));
          acc += wxy * plane[y * w + x]!;
          weight += wxy;
        }
      }
      out[ty * tw + tx] = acc / weight;
    }
  }
  return out;
}

/** ∇I·n at a continuous point (pixel centres at i + 0.5), bilinear central differences, clamped at the edges. */
function directional(plane: Float32Array, w: number, h: number, x: number, y: number, nx: number, ny: number): number {
  const gx = (sampleBilinear(plane, w, h, x + 1, y) - sampleBilinear(plane, w, h, x - 1, y)) / 2;
  const gy = (sampleBilinear(plane, w, h, x, y + 1) - sampleBilinear(plane, w, h, x, y - 1)) / 2;
  return gx * nx + gy * ny;
}

function expand(box: BoundingBox, by: number, width: number, height: number): BoundingBox {
  return { x0: Math.max(0, box.x0 - by), y0: Math.max(0, box.y0 - by), x1: Math.min(width, box.x1 + by), y1: Math.min(height, box.y1 + by) };
}
