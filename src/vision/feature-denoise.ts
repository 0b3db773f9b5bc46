/**
 * Denoising of a rendered layer guided by its feature passes (albedo, normal, depth): a cross-bilateral filter on the
 * demodulated colour (colour / albedo, the light that reached the surface), in two passes. The first averages over
 * neighbours that see the same surface (similar normal, depth and albedo); the second also asks that the neighbour's
 * light, as the first pass estimated it, be close to the pixel's own, so that contact shadows and shading edges the
 * features do not show stay. The texture comes back untouched when the albedo multiplies the result again.
 *
 * Debian's Blender has no denoiser (OpenImageDenoise is not built in), and Cycles at the service's samples leaves
 * visible grain on the furniture; this is ours, pure arithmetic on typed arrays.
 */

export interface FeatureGuides {
  /** Linear RGB albedo per pixel, as Cycles' Denoising Albedo pass writes it. */
  albedo: Float32Array;
  /** Surface normal per pixel (XYZ, any frame). */
  normal: Float32Array;
  /** Distance to the first surface per pixel (any unit; only ratios are used). */
  depth: Float32Array;
}

export interface FeatureDenoiseOptions {
  /** Half-width of the square window, pixels. Default 7. */
  radius?: number;
  /** Spatial standard deviation, pixels. Default radius / 2. */
  sigmaSpace?: number;
  /** Normal difference (length of n_i − n_j) at which the weight falls to e^(−1/2). Default 0.1. */
  sigmaNormal?: number;
  /** Relative depth difference at which the weight falls to e^(−1/2). Default 0.02. */
  sigmaDepth?: number;
  /** Albedo difference (RGB distance, relative to the pixel's albedo) at which the weight falls to e^(−1/2). Default 0.15. */
  sigmaAlbedo?: number;
  /** Relative difference of the first pass's light at which the second pass's weight falls to e^(−1/2). Default 0.08. */
  sigmaLight?: number;
  /** Fit the light linearly in the position around each pixel (its intercept is the estimate). Default true. */
  regression?: boolean;
  /** Ridge term of that fit, relative to the total weight. Default 1e-3. */
  ridge?: number;
}

/** Albedo below this is taken as this when demodulating: a black surface's light cannot be told from its noise. */
const MIN_ALBEDO = 0.02;
/** Coverage below which a pixel is left as rendered: its colour is mostly what lies behind it. */
const MIN_ALPHA = 1 / 64;

/**
 * The premultiplied RGBA layer `pieces` (width × height, rows top to bottom) with its colour denoised; alpha is kept
 * as it is. Pixels with no coverage stay zero. Deterministic: the same input gives the same output.
 */
export function denoiseLayer(width: number, height: number, pieces: Float32Array, guides: FeatureGuides, options: FeatureDenoiseOptions = {}): Float32Array {
  const n = width * height;
  if (pieces.length !== n * 4) throw new Error(`denoiseLayer: pieces holds ${pieces.length} values, ${n * 4} expected`);
  if (guides.albedo.length !== n * 3 || guides.normal.length !== n * 3 || guides.depth.length !== n) {
    throw new Error('denoiseLayer: the guides do not match the layer size');
  }
  const radius = Math.max(1, Math.round(options.radius ?? 7));
  const sigmaSpace = options.sigmaSpace ?? radius / 2;
  const sigmaNormal = options.sigmaNormal ?? 0.1;
  const sigmaDepth = options.sigmaDepth ?? 0.02;
  const sigmaAlbedo = options.sigmaAlbedo ?? 0.15;
  const sigmaLight = options.sigmaLight ?? 0.08;

  // Per pixel: coverage, albedo used for demodulation, and the demodulated (unpremultiplied) light.
  const alpha = new Float32Array(n);
  const albedo = new Float32Array(n * 3);
  const light = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    const a = Math.min(1, Math.max(0, pieces[i * 4 + 3]!));
    alpha[i] = a;
    if (a < MIN_ALPHA) continue;
    for (let c = 0; c < 3; c++) {
      const al = Math.max(MIN_ALBEDO, finite(guides.albedo[i * 3 + c]!));
      albedo[i * 3 + c] = al;
      light[i * 3 + c] = Math.max(0, finite(pieces[i * 4 + c]!)) / a / al;
    }
  }

  const spatial = new Float32Array((2 * radius + 1) ** 2);
  for (let dy = -radius; dy <= radius; dy++) {
    for (let dx = -radius; dx <= radius; dx++) spatial[(dy + radius) * (2 * radius + 1) + dx + radius] = Math.exp(-(dx * dx + dy * dy) / (2 * sigmaSpace * sigmaSpace));
  }
  const kn = 1 / (2 * sigmaNormal * sigmaNormal);
  const kd = 1 / (2 * sigmaDepth * sigmaDepth);
  const ka = 1 / (2 * sigmaAlbedo * sigmaAlbedo);
  const kl = 1 / (2 * sigmaLight * sigmaLight);

  const regression = options.regression ?? true;
  const ridge = options.ridge ?? 1e-3;
  const pass = (pilot: Float32Array | undefined, linear: boolean): Float32Array => {
    const out = new Float32Array(n * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = y * width + x;
        if (alpha[i]! < MIN_ALPHA) continue;
        const ai = alpha[i]!;
        const nx = finite(guides.normal[i * 3]!);
        const ny = finite(guides.normal[i * 3 + 1]!);
        const nz = finite(guides.normal[i * 3 + 2]!);
        const di = finite(guides.depth[i]!);
        const ar = albedo[i * 3]!;
        const ag = albedo[i * 3 + 1]!;
        const ab = albedo[i * 3 + 2]!;
        const aScale = 1 / Math.max(MIN_ALBEDO, (ar + ag + ab) / 3);
        const dScale = 1 / Math.max(1e-6, Math.abs(di));
        let pr = 0;
        let pg = 0;
        let pb = 0;
        let pScale = 0;
        if (pilot) {
          pr = pilot[i * 3]!;
          pg = pilot[i * 3 + 1]!;
          pb = pilot[i * 3 + 2]!;
          pScale = 1 / Math.max(1e-4, (pr + pg + pb) / 3);
        }
        let sr = 0;
        let sg = 0;
        let sb = 0;
        let sw = 0;
        // Weighted least squares of the light on (1, dx, dy): sums of w·x·xᵀ and w·x·L.
        let sx = 0;
        let sy = 0;
        let sxx = 0;
        let sxy = 0;
        let syy = 0;
        let sxr = 0;
        let sxg = 0;
        let sxb = 0;
        let syr = 0;
        let syg = 0;
        let syb = 0;
        const yLo = Math.max(0, y - radius);
        const yHi = Math.min(height - 1, y + radius);
        const xLo = Math.max(0, x - radius);
        const xHi = Math.min(width - 1, x + radius);
        for (let yy = yLo; yy <= yHi; yy++) {
          const row = (yy - y + radius) * (2 * radius + 1) + radius - x;
          for (let xx = xLo; xx <= xHi; xx++) {
            const j = yy * width + xx;
            const aj = alpha[j]!;
            if (aj < MIN_ALPHA) continue;
            const dnx = finite(guides.normal[j * 3]!) - nx;
            const dny = finite(guides.normal[j * 3 + 1]!) - ny;
            const dnz = finite(guides.normal[j * 3 + 2]!) - nz;
            const dd = (finite(guides.depth[j]!) - di) * dScale;
            const dar = (albedo[j * 3]! - ar) * aScale;
            const dag = (albedo[j * 3 + 1]! - ag) * aScale;
            const dab = (albedo[j * 3 + 2]! - ab) * aScale;
            const dal = aj - ai;
            let e = (dnx * dnx + dny * dny + dnz * dnz) * kn + dd * dd * kd + (dar * dar + dag * dag + dab * dab) * ka + dal * dal * 8;
            if (pilot) {
              const dlr = (pilot[j * 3]! - pr) * pScale;
              const dlg = (pilot[j * 3 + 1]! - pg) * pScale;
              const dlb = (pilot[j * 3 + 2]! - pb) * pScale;
              e += ((dlr * dlr + dlg * dlg + dlb * dlb) / 3) * kl;
            }
            if (e > 12) continue;
            // Coverage is confidence: a half-covered edge pixel's colour is half a guess.
            const w = spatial[row + xx]! * Math.exp(-e) * aj;
            const lr = light[j * 3]!;
            const lg = light[j * 3 + 1]!;
            const lb = light[j * 3 + 2]!;
            sr += w * lr;
            sg += w * lg;
            sb += w * lb;
            sw += w;
            if (linear) {
              const dx = (xx - x) / radius;
              const dy = (yy - y) / radius;
              sx += w * dx;
              sy += w * dy;
              sxx += w * dx * dx;
              sxy += w * dx * dy;
              syy += w * dy * dy;
              sxr += w * dx * lr;
              sxg += w * dx * lg;
              sxb += w * dx * lb;
              syr += w * dy * lr;
              syg += w * dy * lg;
              syb += w * dy * lb;
            }
          }
        }
        // The pixel itself always has weight > 0 (e = 0, spatial 1), so sw > 0.
        if (linear) {
          // Intercept of the fit: with a gradient in the light, a one-sided window (at a feature edge) has no bias.
          const r = ridge * sw;
          const a11 = sxx + r;
          const a22 = syy + r;
          const det = sw * (a11 * a22 - sxy * sxy) - sx * (sx * a22 - sxy * sy) + sy * (sx * sxy - a11 * sy);
          if (Math.abs(det) > 1e-12 * sw * sw * sw) {
            // First row of the inverse of [[sw, sx, sy], [sx, a11, sxy], [sy, sxy, a22]].
            const c0 = (a11 * a22 - sxy * sxy) / det;
            const c1 = (sy * sxy - sx * a22) / det;
            const c2 = (sx * sxy - a11 * sy) / det;
            out[i * 3] = Math.max(0, c0 * sr + c1 * sxr + c2 * syr);
            out[i * 3 + 1] = Math.max(0, c0 * sg + c1 * sxg + c2 * syg);
            out[i * 3 + 2] = Math.max(0, c0 * sb + c1 * sxb + c2 * syb);
            continue;
          }
        }
        out[i * 3] = sr / sw;
        out[i * 3 + 1] = sg / sw;
        out[i * 3 + 2] = sb / sw;
      }
    }
    return out;
  };

  const pilot = pass(undefined, regression);
  const final = pass(pilot, regression);
  const result = new Float32Array(pieces);
  for (let i = 0; i < n; i++) {
    const a = alpha[i]!;
    if (a < MIN_ALPHA) continue;
    for (let c = 0; c < 3; c++) result[i * 4 + c] = final[i * 3 + c]! * albedo[i * 3 + c]! * a;
  }
  return result;
}

function finite(v: number): number {
  return Number.isFinite(v) ? v : 0;
}
