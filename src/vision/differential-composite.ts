import { boxMean } from './box-filter.js';
import { byteOfLinear, LINEAR_OF_BYTE, LUMINANCE_WEIGHTS } from './colour.js';
import { smoothstep } from './shaping.js';
import type { RawImage } from './raw-image.js';

/** A shadow ratio this close to 1 is no change: the pixel stays bit-identical (render noise on the untouched floor). */
export const SHADOW_UNCHANGED_TOLERANCE = 0.005;

/** The broad loss of bounce light fades out over this share of the rendered region's shorter side before its inner edges. */
const BROAD_FADE_SHARE = 0.3;

export interface RenderedLayer {
  /** Where the layer sits in the photo: its top-left pixel. */
  x0: number;
  y0: number;
  width: number;
  height: number;
  /** Premultiplied linear RGBA of the inserted objects, rows top to bottom. */
  pieces: Float32Array;
  /** Shadow-catcher ratio (linear RGB) by which the photo's light changes where the objects shadow the room. */
  shadow: Float32Array;
}

export interface CompositeOptions {
  /**
   * Standard deviation of the photo's luma noise, in 8-bit sRGB levels (estimateNoiseLevel): the inserted objects get
   * the same grain, as luminance noise (one sample for the three channels, as JPEG's smoothed chroma leaves it).
   */
  grain: number;
  /** Seed of the grain, so that a result is reproducible. */
  seed: number;
  /**
   * Photo-sized, non-zero where no shadow may fall: the view through windows and doors is outside the room, so a
   * piece cannot shadow it (the renderer's wall runs across the opening).
   */
  unshadowed?: Uint8Array;
  /**
   * Edges of the layer that are not the photo's: the shadow fades out over the last pixels before them, so a shadow
   * that reaches past the rendered region ends softly instead of along a straight line. Default: every edge that is
   * not an image border.
   */
  fadeEdges?: boolean;
}

export interface Composite {
  image: RawImage;
  /** Photo-sized, 255 where the composite may differ from the photo (objects and their shadows), 0 elsewhere. */
  changeMask: Uint8Array;
  /** Pixels inside the change mask. */
  changedPixels: number;
}

/**
 * Differential rendering's composite (Debevec 1998), multiplicative form: out = photo · S · (1 − α) + objects, in
 * linear light, with S the shadow ratio taken as luminance and capped at 1 (the inserted objects only darken the room
 * they shadow; their faint bounce is left out rather than risk brightening the photo with render noise). A pixel with
 * no object coverage and S within SHADOW_UNCHANGED_TOLERANCE of 1 is copied byte for byte, and only those outside
 * the change mask are guaranteed untouched. The objects get grain matched to the photo's noise so they do not look
 * cleaner than it.
 */
export function compositeRenderedLayer(photo: RawImage, layer: RenderedLayer, options: CompositeOptions): Composite {
  const { width, height, channels } = photo;
  if (channels < 3) throw new Error('compositeRenderedLayer needs an RGB or RGBA photo');
  const out = new Uint8Array(photo.data);
  const changeMask = new Uint8Array(width * height);
  let changedPixels = 0;
  const noise = gaussianSource(options.seed);
  const ratio = shadowRatio(layer, photo, options.fadeEdges ?? true);
  for (let ly = 0; ly < layer.height; ly++) {
    const y = layer.y0 + ly;
    if (y < 0 || y >= height) continue;
    for (let lx = 0; lx < layer.width; lx++) {
      const x = layer.x0 + lx;
      if (x < 0 || x >= width) continue;
      const l = ly * layer.width + lx;
      const alpha = Math.min(1, Math.max(0, layer.pieces[l * 4 + 3]!));
      const p = y * width + x;
      let s = Math.min(1, Math.max(0, ratio[l]!));
      if (s > 1 - SHADOW_UNCHANGED_TOLERANCE || options.unshadowed?.[p]) s = 1;
      if (alpha <= 1 / 1024 && s === 1) continue;
      changeMask[p] = 255;
      changedPixels++;
      const grain = options.grain > 0 && alpha > 0 ? noise() * options.grain * alpha : 0;
      for (let c = 0; c < 3; c++) {
        const photoLinear = LINEAR_OF_BYTE[photo.data[p * channels + c]!]!;
        const linear = photoLinear * s * (1 - alpha) + Math.max(0, layer.pieces[l * 4 + c]!);
        const encoded = byteOfLinear(linear) + grain;
        out[p * channels + c] = Math.min(255, Math.max(0, Math.round(encoded)));
      }
    }
  }
  return { image: { ...photo, data: out }, changeMask, changedPixels };
}

/**
 * The shadow ratio as luminance, denoised and faded at the layer's inner edges. The ratio is a smooth signal but
 * the render's is noisy, and noise clipped at 1 would only ever darken (a speckled grey rectangle over the whole
 * region at low sample counts); so it is averaged first, over a window that ignores the pieces' own pixels
 * (normalised convolution with weight 1 − α: a dark piece does not spread into the floor beside it), and only then
 * compared with 1.
 */
function shadowRatio(layer: RenderedLayer, photo: RawImage, fadeEdges: boolean): Float32Array {
  const { width, height } = layer;
  const n = width * height;
  const weight = new Float32Array(n);
  const weighted = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const w = 1 - Math.min(1, Math.max(0, layer.pieces[i * 4 + 3]!));
    let s = LUMINANCE_WEIGHTS[0] * layer.shadow[i * 3]! + LUMINANCE_WEIGHTS[1] * layer.shadow[i * 3 + 1]! + LUMINANCE_WEIGHTS[2] * layer.shadow[i * 3 + 2]!;
    if (!Number.isFinite(s)) s = 1;
    weight[i] = w;
    weighted[i] = w * s;
  }
  const radius = Math.max(2, Math.round(0.005 * Math.max(width, height)));
  // Two box passes: close to a Gaussian, in constant time per pixel.
  const num = boxMean(boxMean(weighted, width, height, radius), width, height, radius);
  const den = boxMean(boxMean(weight, width, height, radius), width, height, radius);
  const ratio = new Float32Array(n);
  for (let i = 0; i < n; i++) ratio[i] = den[i]! > 1e-4 ? num[i]! / den[i]! : 1;
  if (!fadeEdges) return ratio;
  // A piece darkens the room in two ways: its own shadows, local and sharp-edged, and a broad loss of bounce light
  // (the floor it covers no longer lights the walls), a few per cent over the whole region. A fade as short as a
  // shadow's soft edge leaves the broad loss as a grey band with a straight edge where the region ends (a white
  // studio showed one across its walls), so the broad part is split off (a wide smoothing of the ratio) and fades
  // over a longer distance than the local shadows, which stay as they are away from the edges.
  const minSide = Math.min(width, height);
  const taper = Math.max(4, Math.round(0.06 * minSide));
  const broadTaper = Math.max(taper, Math.round(BROAD_FADE_SHARE * minSide));
  const broadRadius = Math.max(2, Math.round(0.1 * minSide));
  const broad = boxMean(boxMean(boxMean(ratio, width, height, broadRadius), width, height, broadRadius), width, height, broadRadius);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      // Distance to the nearest edge of the layer that lies inside the photo.
      let d = Infinity;
      if (layer.x0 > 0) d = Math.min(d, x);
      if (layer.y0 > 0) d = Math.min(d, y);
      if (layer.x0 + width < photo.width) d = Math.min(d, width - 1 - x);
      if (layer.y0 + height < photo.height) d = Math.min(d, height - 1 - y);
      if (d >= broadTaper) continue;
      const wide = Math.min(1, Math.max(1e-3, broad[i]!));
      const local = ratio[i]! / wide;
      const localFaded = d < taper ? 1 - (1 - local) * smoothstep(0, taper, d) : local;
      const wideFaded = 1 - (1 - wide) * smoothstep(0, broadTaper, d);
      ratio[i] = localFaded * wideFaded;
    }
  }
  return ratio;
}

/** Standard normal samples from a seeded mulberry32 (Box–Muller). */
function gaussianSource(seed: number): () => number {
  let state = seed | 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(Math.max(1e-12, uniform()))) * Math.cos(2 * Math.PI * uniform());
}

/**
 * The photo's noise level in 8-bit levels (Immerkær 1996: the mean absolute response of a Laplacian-difference
 * kernel that cancels smooth image structure), measured on the luma of a region, robust to edges by using only the
 * quieter half of the responses.
 */
export function estimateNoiseLevel(photo: RawImage, region?: { x0: number; y0: number; x1: number; y1: number }): number {
  const { width, height, channels } = photo;
  const x0 = Math.max(1, region?.x0 ?? 1);
  const y0 = Math.max(1, region?.y0 ?? 1);
  const x1 = Math.min(width - 1, region?.x1 ?? width - 1);
  const y1 = Math.min(height - 1, region?.y1 ?? height - 1);
  const luma = (x: number, y: number) => {
    const i = (y * width + x) * channels;
    return channels >= 3 ? 0.299 * photo.data[i]! + 0.587 * photo.data[i + 1]! + 0.114 * photo.data[i + 2]! : photo.data[i]!;
  };
  const step = Math.max(1, Math.floor(Math.sqrt(((x1 - x0) * (y1 - y0)) / 200_000)));
  const responses: number[] = [];
  for (let y = y0; y < y1; y += step) {
    for (let x = x0; x < x1; x += step) {
      const r =
        luma(x - 1, y - 1) - 2 * luma(x, y - 1) + luma(x + 1, y - 1) -
        2 * luma(x - 1, y) + 4 * luma(x, y) - 2 * luma(x + 1, y) +
        luma(x - 1, y + 1) - 2 * luma(x, y + 1) + luma(x + 1, y + 1);
      responses.push(Math.abs(r));
    }
  }
  if (responses.length === 0) return 0;
  responses.sort((a, b) => a - b);
  const quiet = responses.slice(0, Math.max(1, Math.floor(responses.length / 2)));
  const mean = quiet.reduce((s, v) => s + v, 0) / quiet.length;
  // Immerkær's scale for the full set is sqrt(π/2)/6; for Gaussian noise the quieter half's mean |r| is 0.407 of the
  // full set's (half-normal below its median).
  return (Math.sqrt(Math.PI / 2) / 6) * (mean / 0.407);
}
