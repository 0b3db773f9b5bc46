/**
 * A rendered layer (premultiplied RGBA pieces and RGB shadow ratio) resampled from a reduced-resolution render onto
 * the photo's pixels: Catmull-Rom (bicubic, a = −0.5), separable, which keeps edges as sharp as the render's and at
 * scale 1 returns every pixel unchanged. Coverage is clamped to [0, 1] and colours to ≥ 0, where the kernel's small
 * overshoot at a hard edge would leave the range.
 */

export interface LayerPixels {
  width: number;
  height: number;
  /** Premultiplied linear RGBA, rows top to bottom. */
  pieces: Float32Array;
  /** Linear RGB ratio, rows top to bottom. */
  shadow: Float32Array;
}

/**
 * Where the source sits: the photo's point (u, v) (continuous, a pixel's centre at +0.5) is the source's point
 * (scale · u − x0, scale · v + offsetY − y0).
 */
export interface SourceGrid {
  scale: number;
  offsetY: number;
  x0: number;
  y0: number;
}

/** The layer on the photo's pixels [x0, x0 + width) × [y0, y0 + height). */
export function resampleLayer(source: LayerPixels, grid: SourceGrid, target: { x0: number; y0: number; width: number; height: number }): LayerPixels {
  const { width: sw, height: sh } = source;
  if (source.pieces.length !== sw * sh * 4 || source.shadow.length !== sw * sh * 3) throw new Error('resampleLayer: the passes do not match the source size');
  const tw = target.width;
  const th = target.height;
  const columns = taps(tw, (x) => grid.scale * (target.x0 + x + 0.5) - 0.5 - grid.x0, sw);
  const rows = taps(th, (y) => grid.scale * (target.y0 + y + 0.5) + grid.offsetY - 0.5 - grid.y0, sh);
  // Seven channels side by side: RGBA of the pieces, RGB of the shadow.
  const C = 7;
  const horizontal = new Float32Array(sh * tw * C);
  for (let y = 0; y < sh; y++) {
    for (let x = 0; x < tw; x++) {
      const o = (y * tw + x) * C;
      for (let k = 0; k < 4; k++) {
        const w = columns.weights[x * 4 + k]!;
        if (w === 0) continue;
        const s = y * sw + columns.index[x * 4 + k]!;
        for (let c = 0; c < 4; c++) horizontal[o + c]! += w * source.pieces[s * 4 + c]!;
        for (let c = 0; c < 3; c++) horizontal[o + 4 + c]! += w * source.shadow[s * 3 + c]!;
      }
    }
  }
  const pieces = new Float32Array(tw * th * 4);
  const shadow = new Float32Array(tw * th * 3);
  const acc = new Float64Array(C);
  for (let y = 0; y < th; y++) {
    for (let x = 0; x < tw; x++) {
      acc.fill(0);
      for (let k = 0; k < 4; k++) {
        const w = rows.weights[y * 4 + k]!;
        if (w === 0) continue;
        const o = (rows.index[y * 4 + k]! * tw + x) * C;
        for (let c = 0; c < C; c++) acc[c]! += w * horizontal[o + c]!;
      }
      const i = y * tw + x;
      const alpha = Math.min(1, Math.max(0, acc[3]!));
      pieces[i * 4 + 3] = alpha;
      for (let c = 0; c < 3; c++) pieces[i * 4 + c] = alpha > 0 ? Math.max(0, acc[c]!) : 0;
      for (let c = 0; c < 3; c++) shadow[i * 3 + c] = Math.max(0, acc[4 + c]!);
    }
  }
  return { width: tw, height: th, pieces, shadow };
}

/** Four source indices (clamped to the source) and Catmull-Rom weights per target position. */
function taps(count: number, position: (i: number) => number, size: number): { index: Int32Array; weights: Float32Array } {
  const index = new Int32Array(count * 4);
  const weights = new Float32Array(count * 4);
  for (let i = 0; i < count; i++) {
    const f = position(i);
    const base = Math.floor(f);
    const t = f - base;
    for (let k = 0; k < 4; k++) {
      index[i * 4 + k] = Math.min(size - 1, Math.max(0, base - 1 + k));
      weights[i * 4 + k] = catmullRom(t - (k - 1));
    }
  }
  return { index, weights };
}

function catmullRom(x: number): number {
  const a = Math.abs(x);
  if (a <= 1) return 1.5 * a * a * a - 2.5 * a * a + 1;
  if (a < 2) return -0.5 * a * a * a + 2.5 * a * a - 4 * a + 2;
  return 0;
}
