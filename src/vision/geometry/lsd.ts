import type { LineSegment } from './segments.js';

/** A grey image as floats, row-major; LSD expects samples in [0, 255] (its gradient threshold is in those units). */
export interface GreyPlane {
  data: Float32Array;
  width: number;
  height: number;
}

export interface LsdOptions {
  /** Gaussian blur applied first, in pixels; LSD's own ×0.8 subsampling filter is σ = 0.75. Default 0.75. */
  sigma?: number;
  /** Bound on the gradient's quantisation error. Default 2 (LSD's `quant`). */
  quant?: number;
  /** Angle tolerance of region growing, in degrees. Default 22.5 (LSD's `ang_th`). */
  angleTolerance?: number;
  /** Detection threshold: −log10(NFA) must exceed this. Default 0 (LSD's `log_eps`, one false alarm per image). */
  logEps?: number;
  /** Minimal density of aligned points in the rectangle before it is refined. Default 0.7 (LSD's `density_th`). */
  densityThreshold?: number;
  /** Bins of the pseudo-ordering by gradient magnitude. Default 1024. */
  bins?: number;
}

const NOTDEF = -1024;
const USED = 1;

/**
 * The Line Segment Detector of von Gioi, Jakubowicz, Morel and Randall (IPOL 2012): pixels grown into regions of
 * similar level-line angle, seeded by strongest gradient first; each region approximated by a rectangle, refined
 * when its aligned-point density is low, and kept when the number of aligned points in it is meaningful under an a
 * contrario model (−log10 NFA > logEps). No parameter needs tuning per image. Returns segments in continuous image
 * coordinates; `score` grows with the detection's significance (NFA 10⁻³⁰ and beyond gives 1).
 */
export function detectSegmentsLsd(image: GreyPlane, options: LsdOptions = {}): LineSegment[] {
  const { width, height } = image;
  if (width < 3 || height < 3) return [];
  const sigma = options.sigma ?? 0.75;
  const quant = options.quant ?? 2;
  const angTh = options.angleTolerance ?? 22.5;
  const logEps = options.logEps ?? 0;
  const densityTh = options.densityThreshold ?? 0.7;
  const nBins = options.bins ?? 1024;

  const grey = sigma > 0 ? gaussianBlur(image.data, width, height, sigma) : image.data;
  const prec = (Math.PI * angTh) / 180;
  const p = angTh / 180;
  const rho = quant / Math.sin(prec);

  // Level-line angles and gradient magnitudes (LSD's 2 × 2 operator, centred at (x + 0.5, y + 0.5)).
  const angles = new Float32Array(width * height).fill(NOTDEF);
  const magnitude = new Float32Array(width * height);
  let maxGrad = 0;
  for (let y = 0; y < height - 1; y++) {
    for (let x = 0; x < width - 1; x++) {
      const i = y * width + x;
      const da = grey[i + width + 1]! - grey[i]!;
      const bc = grey[i + 1]! - grey[i + width]!;
      const gx = da + bc;
      const gy = da - bc;
      const m = Math.sqrt((gx * gx + gy * gy) / 4);
      magnitude[i] = m;
      if (m <= rho) continue;
      angles[i] = Math.atan2(gx, -gy);
      if (m > maxGrad) maxGrad = m;
    }
  }
  if (maxGrad === 0) return [];

  // Pseudo-ordering: bucket sort by magnitude, strongest first.
  const binOf = (m: number) => Math.min(nBins - 1, Math.floor((m * nBins) / maxGrad));
  const counts = new Int32Array(nBins);
  let listed = 0;
  for (let i = 0; i < angles.length; i++) {
    if (angles[i] === NOTDEF) continue;
    counts[binOf(magnitude[i]!)]! += 1;
    listed++;
  }
  const starts = new Int32Array(nBins);
  for (let b = nBins - 2; b >= 0; b--) starts[b] = starts[b + 1]! + counts[b + 1]!;
  const order = new Int32Array(listed);
  const fill = starts.slice();
  for (let i = 0; i < angles.length; i++) {
    if (angles[i] === NOTDEF) continue;
    order[fill[binOf(magnitude[i]!)]!++] = i;
  }

  const logNT = (5 * (Math.log10(width) + Math.log10(height))) / 2 + Math.log10(11);
  const minRegionSize = Math.floor(-logNT / Math.log10(p));
  const used = new Uint8Array(width * height);
  const region = new Int32Array(width * height);
  const context: Context = { angles, magnitude, used, width, height, region, size: 0 };

  const segments: LineSegment[] = [];
  for (let o = 0; o < order.length; o++) {
    const seed = order[o]!;
    if (used[seed] === USED || angles[seed] === NOTDEF) continue;
    let regionAngle = growRegion(context, seed, prec);
    if (context.size < minRegionSize) continue;
    let rect = regionToRect(context, regionAngle, prec, p);
    // Refinement of a sparse region (a curve, or two segments joined at a corner).
    if (!refine(context, rect, seed, prec, densityTh, (angle) => (regionAngle = angle), p)) continue;
    rect = context.rect!;
    const improved = improveRect(rect, angles, width, height, logNT, logEps);
    if (improved.logNfa <= logEps) continue;
    const r = improved.rect;
    // +0.5 for the gradient's half-pixel offset, +0.5 from pixel indices to continuous coordinates.
    segments.push({
      x0: r.x1 + 1,
      y0: r.y1 + 1,
      x1: r.x2 + 1,
      y1: r.y2 + 1,
      score: Math.min(1, Math.max(0.05, improved.logNfa / 30)),
    });
  }
  return segments;
}

interface Rect {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  width: number;
  cx: number;
  cy: number;
  theta: number;
  dx: number;
  dy: number;
  prec: number;
  p: number;
}

interface Context {
  angles: Float32Array;
  magnitude: Float32Array;
  used: Uint8Array;
  width: number;
  height: number;
  region: Int32Array;
  size: number;
  rect?: Rect;
}

function isAligned(angle: number, theta: number, prec: number): boolean {
  if (angle === NOTDEF) return false;
  let d = theta - angle;
  if (d < 0) d = -d;
  if (d > 1.5 * Math.PI) {
    d -= 2 * Math.PI;
    if (d < 0) d = -d;
  }
  return d <= prec;
}

function angleDiff(a: number, b: number): number {
  let d = a - b;
  while (d <= -Math.PI) d += 2 * Math.PI;
  while (d > Math.PI) d -= 2 * Math.PI;
  return d;
}

function growRegion(c: Context, seed: number, prec: number): number {
  const { angles, used, width, height, region } = c;
  region[0] = seed;
  c.size = 1;
  used[seed] = USED;
  let regionAngle = angles[seed]!;
  let sumDx = Math.cos(regionAngle);
  let sumDy = Math.sin(regionAngle);
  for (let i = 0; i < c.size; i++) {
    const index = region[i]!;
    const x = index % width;
    const y = (index - x) / width;
    for (let yy = y - 1; yy <= y + 1; yy++) {
      if (yy < 0 || yy >= height) continue;
      for (let xx = x - 1; xx <= x + 1; xx++) {
        if (xx < 0 || xx >= width) continue;
        const j = yy * width + xx;
        if (used[j] === USED || !isAligned(angles[j]!, regionAngle, prec)) continue;
        used[j] = USED;
        region[c.size++] = j;
        sumDx += Math.cos(angles[j]!);
        sumDy += Math.sin(angles[j]!);
        regionAngle = Math.atan2(sumDy, sumDx);
      }
    }
  }
  return regionAngle;
}

function regionToRect(c: Context, regionAngle: number, prec: number, p: number): Rect {
  const { region, magnitude, width } = c;
  let sum = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < c.size; i++) {
    const index = region[i]!;
    const w = magnitude[index]!;
    cx += (index % width) * w;
    cy += Math.floor(index / width) * w;
    sum += w;
  }
  cx /= sum;
  cy /= sum;
  let ixx = 0;
  let iyy = 0;
  let ixy = 0;
  for (let i = 0; i < c.size; i++) {
    const index = region[i]!;
    const w = magnitude[index]!;
    const x = index % width;
    const y = Math.floor(index / width);
    ixx += (y - cy) * (y - cy) * w;
    iyy += (x - cx) * (x - cx) * w;
    ixy -= (x - cx) * (y - cy) * w;
  }
  const lambda = 0.5 * (ixx + iyy - Math.sqrt((ixx - iyy) * (ixx - iyy) + 4 * ixy * ixy));
  let theta = Math.abs(ixx) > Math.abs(iyy) ? Math.atan2(lambda - ixx, ixy) : Math.atan2(ixy, lambda - iyy);
  if (Math.abs(angleDiff(theta, regionAngle)) > prec) theta += Math.PI;
  const dx = Math.cos(theta);
  const dy = Math.sin(theta);
  let lMin = 0;
  let lMax = 0;
  let wMin = 0;
  let wMax = 0;
  for (let i = 0; i < c.size; i++) {
    const index = region[i]!;
    const x = (index % width) - cx;
    const y = Math.floor(index / width) - cy;
    const l = x * dx + y * dy;
    const w = -x * dy + y * dx;
    if (l > lMax) lMax = l;
    if (l < lMin) lMin = l;
    if (w > wMax) wMax = w;
    if (w < wMin) wMin = w;
  }
  return {
    x1: cx + lMin * dx,
    y1: cy + lMin * dy,
    x2: cx + lMax * dx,
    y2: cy + lMax * dy,
    width: Math.max(1, wMax - wMin),
    cx,
    cy,
    theta,
    dx,
    dy,
    prec,
    p,
  };
}

function density(c: Context, rect: Rect): number {
  return c.size / (Math.hypot(rect.x1 - rect.x2, rect.y1 - rect.y2) * rect.width);
}

/** LSD's refine(): regrow with a tolerance from the angles near the seed, then shrink the region's radius. */
function refine(c: Context, rect: Rect, seed: number, prec: number, densityTh: number, setAngle: (a: number) => void, p: number): boolean {
  c.rect = rect;
  if (density(c, rect) >= densityTh) return true;
  const { width, angles, region, used } = c;
  const xc = seed % width;
  const yc = Math.floor(seed / width);
  const angleC = angles[seed]!;
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let i = 0; i < c.size; i++) {
    const index = region[i]!;
    used[index] = 0;
    const x = index % width;
    const y = Math.floor(index / width);
    if (Math.hypot(x - xc, y - yc) < rect.width) {
      const d = angleDiff(angles[index]!, angleC);
      sum += d;
      sumSq += d * d;
      n++;
    }
  }
  const mean = sum / Math.max(1, n);
  const tau = 2 * Math.sqrt(Math.max(0, (sumSq - 2 * mean * sum) / Math.max(1, n) + mean * mean));
  const regionAngle = growRegion(c, seed, tau);
  setAngle(regionAngle);
  if (c.size < 2) return false;
  let r = regionToRect(c, regionAngle, prec, p);
  c.rect = r;
  if (density(c, r) >= densityTh) return true;
  // reduce_region_radius
  let radius = Math.max(Math.hypot(xc - r.x1, yc - r.y1), Math.hypot(xc - r.x2, yc - r.y2));
  while (density(c, r) < densityTh) {
    radius *= 0.75;
    let kept = 0;
    for (let i = 0; i < c.size; i++) {
      const index = region[i]!;
      const x = index % width;
      const y = Math.floor(index / width);
      if (Math.hypot(x - xc, y - yc) <= radius) region[kept++] = index;
      else used[index] = 0;
    }
    c.size = kept;
    if (c.size < 2) return false;
    r = regionToRect(c, regionAngle, prec, p);
    c.rect = r;
  }
  return true;
}

function rectNfa(rect: Rect, angles: Float32Array, width: number, height: number, logNT: number): number {
  const halfWidth = rect.width / 2;
  const length = Math.hypot(rect.x2 - rect.x1, rect.y2 - rect.y1);
  const ux = (rect.x2 - rect.x1) / (length || 1);
  const uy = (rect.y2 - rect.y1) / (length || 1);
  const corners = [
    [rect.x1 - uy * halfWidth, rect.y1 + ux * halfWidth],
    [rect.x1 + uy * halfWidth, rect.y1 - ux * halfWidth],
    [rect.x2 - uy * halfWidth, rect.y2 + ux * halfWidth],
    [rect.x2 + uy * halfWidth, rect.y2 - ux * halfWidth],
  ];
  const xMin = Math.max(0, Math.floor(Math.min(...corners.map((q) => q[0]!))));
  const xMax = Math.min(width - 1, Math.ceil(Math.max(...corners.map((q) => q[0]!))));
  const yMin = Math.max(0, Math.floor(Math.min(...corners.map((q) => q[1]!))));
  const yMax = Math.min(height - 1, Math.ceil(Math.max(...corners.map((q) => q[1]!))));
  let n = 0;
  let k = 0;
  for (let y = yMin; y <= yMax; y++) {
    for (let x = xMin; x <= xMax; x++) {
      const rx = x - rect.x1;
      const ry = y - rect.y1;
      const along = rx * ux + ry * uy;
      const across = -rx * uy + ry * ux;
      if (along < -0.5 || along > length + 0.5 || Math.abs(across) > halfWidth) continue;
      n++;
      if (isAligned(angles[y * width + x]!, rect.theta, rect.prec)) k++;
    }
  }
  return nfa(n, k, rect.p, logNT);
}

/** LSD's rect_improve(): finer precision, then thinner rectangles, keeping the most significant. */
function improveRect(rect: Rect, angles: Float32Array, width: number, height: number, logNT: number, logEps: number): { rect: Rect; logNfa: number } {
  let best = rect;
  let logNfa = rectNfa(rect, angles, width, height, logNT);
  if (logNfa > logEps) return { rect: best, logNfa };
  const tryRect = (r: Rect) => {
    const value = rectNfa(r, angles, width, height, logNT);
    if (value > logNfa) {
      logNfa = value;
      best = r;
    }
  };
  let r = { ...best };
  for (let n = 0; n < 5; n++) {
    r = { ...r, p: r.p / 2, prec: r.p * Math.PI / 2 };
    tryRect(r);
  }
  if (logNfa > logEps) return { rect: best, logNfa };
  r = { ...best };
  for (let n = 0; n < 5; n++) {
    if (r.width - 0.5 < 1) break;
    r = { ...r, width: r.width - 0.5 };
    tryRect(r);
  }
  if (logNfa > logEps) return { rect: best, logNfa };
  r = { ...best };
  for (let n = 0; n < 5; n++) {
    if (r.width - 0.5 < 1) break;
    const shift = 0.25;
    r = { ...r, x1: r.x1 - r.dy * shift, y1: r.y1 + r.dx * shift, x2: r.x2 - r.dy * shift, y2: r.y2 + r.dx * shift, width: r.width - 0.5 };
    tryRect(r);
  }
  return { rect: best, logNfa };
}

/** −log10(NFA) of k aligned points among n, each aligned with probability p (LSD's nfa()). */
export function nfa(n: number, k: number, p: number, logNT: number): number {
  if (n === 0 || k === 0) return -logNT;
  if (n === k) return -logNT - n * Math.log10(p);
  const pTerm = p / (1 - p);
  const log1Term = logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1) + k * Math.log(p) + (n - k) * Math.log(1 - p);
  let term = Math.exp(log1Term);
  if (term === 0) return k > n * p ? -log1Term / Math.LN10 - logNT : -logNT;
  let tail = term;
  for (let i = k + 1; i <= n; i++) {
    const binTerm = (n - i + 1) / i;
    const multTerm = binTerm * pTerm;
    term *= multTerm;
    tail += term;
    if (binTerm < 1) {
      const err = term * ((1 - Math.pow(multTerm, n - i + 1)) / (1 - multTerm) - 1);
      if (err < 0.1 * Math.abs(-Math.log10(tail) - logNT) * tail) break;
    }
  }
  return -Math.log10(tail) - logNT;
}

const LANCZOS = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];

function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Separable Gaussian blur with clamped edges. */
export function gaussianBlur(data: Float32Array, width: number, height: number, sigma: number): Float32Array {
  const radius = Math.max(1, Math.ceil(3 * sigma));
  const kernel = new Float32Array(2 * radius + 1);
  let sum = 0;
  for (let i = -radius; i <= radius; i++) {
    kernel[i + radius] = Math.exp((-i * i) / (2 * sigma * sigma));
    sum += kernel[i + radius]!;
  }
  for (let i = 0; i < kernel.length; i++) kernel[i]! /= sum;
  const temp = new Float32Array(width * height);
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      let acc = 0;
      for (let k = -radius; k <= radius; k++) {
        const xx = Math.min(width - 1, Math.max(0, x + k));
        acc += kernel[k + radius]! * data[row + xx]!;
      }
      temp[row + x] = acc;
    }
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let acc = 0;
      for (let k = -radius; k <= radius; k++) {
        const yy = Math.min(height - 1, Math.max(0, y + k));
        acc += kernel[k + radius]! * temp[yy * width + x]!;
      }
      out[y * width + x] = acc;
    }
  }
  return out;
}
