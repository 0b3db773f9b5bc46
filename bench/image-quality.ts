/** Full-reference quality measures for the upscaling benchmark, on luma (BT.601) planes. */

export interface Plane {
  data: Float64Array;
  width: number;
  height: number;
}

/** BT.601 luma of an RGB image, in [0, 255]: the Y channel super-resolution papers measure. */
export function luma(rgb: Uint8Array, width: number, height: number): Plane {
  const data = new Float64Array(width * height);
  for (let p = 0; p < data.length; p++) {
    data[p] = 16 + (65.481 * rgb[p * 3]! + 128.553 * rgb[p * 3 + 1]! + 24.966 * rgb[p * 3 + 2]!) / 255;
  }
  return { data, width, height };
}

export function crop(plane: Plane, border: number): Plane {
  const width = plane.width - 2 * border;
  const height = plane.height - 2 * border;
  const data = new Float64Array(width * height);
  for (let y = 0; y < height; y++) {
    data.set(plane.data.subarray((y + border) * plane.width + border, (y + border) * plane.width + border + width), y * width);
  }
  return { data, width, height };
}

export function psnr(a: Plane, b: Plane): number {
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += (a.data[i]! - b.data[i]!) ** 2;
  const mse = sum / a.data.length;
  return mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse);
}

/** Mean SSIM with the usual 11×11 Gaussian window (σ = 1.5), K1 = 0.01, K2 = 0.03. */
export function ssim(a: Plane, b: Plane): number {
  const blur = (p: Float64Array) => gaussianBlur({ data: p, width: a.width, height: a.height }).data;
  const product = (x: Float64Array, y: Float64Array) => x.map((v, i) => v * y[i]!);
  const muA = blur(a.data);
  const muB = blur(b.data);
  const aa = blur(product(a.data, a.data));
  const bb = blur(product(b.data, b.data));
  const ab = blur(product(a.data, b.data));
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  const r = 5; // only where the window lies inside the image
  let sum = 0;
  let count = 0;
  for (let y = r; y < a.height - r; y++) {
    for (let x = r; x < a.width - r; x++) {
      const i = y * a.width + x;
      const ma = muA[i]!;
      const mb = muB[i]!;
      const va = aa[i]! - ma * ma;
      const vb = bb[i]! - mb * mb;
      const cov = ab[i]! - ma * mb;
      sum += ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2));
      count++;
    }
  }
  return sum / count;
}

/** Mean gradient magnitude (central differences): how much edge and texture an image carries. */
export function meanGradient(plane: Plane): number {
  let sum = 0;
  let count = 0;
  for (let y = 1; y < plane.height - 1; y++) {
    for (let x = 1; x < plane.width - 1; x++) {
      const i = y * plane.width + x;
      const gx = (plane.data[i + 1]! - plane.data[i - 1]!) / 2;
      const gy = (plane.data[i + plane.width]! - plane.data[i - plane.width]!) / 2;
      sum += Math.hypot(gx, gy);
      count++;
    }
  }
  return sum / count;
}

function gaussianBlur(plane: Plane): Plane {
  const radius = 5;
  const kernel = Array.from({ length: 2 * radius + 1 }, (_, k) => Math.exp(-((k - radius) ** 2) / (2 * 1.5 * 1.5)));
  const total = kernel.reduce((s, v) => s + v, 0);
  const weights = kernel.map((v) => v / total);
  const { width, height } = plane;
  const horizontal = new Float64Array(width * height);
  const out = new Float64Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let s = 0;
      for (let k = -radius; k <= radius; k++) s += weights[k + radius]! * plane.data[y * width + Math.min(width - 1, Math.max(0, x + k))]!;
      horizontal[y * width + x] = s;
    }
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let s = 0;
      for (let k = -radius; k <= radius; k++) s += weights[k + radius]! * horizontal[Math.min(height - 1, Math.max(0, y + k)) * width + x]!;
      out[y * width + x] = s;
    }
  }
  return { data: out, width, height };
}
