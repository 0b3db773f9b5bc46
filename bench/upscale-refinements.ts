import type { RawImage } from '../src/vision/raw-image.js';

type Upscaler = (image: RawImage) => Promise<RawImage>;

/** The eight flips and transpositions of the square's symmetry group, with their inverses. */
const TRANSFORMS = Array.from({ length: 8 }, (_, i) => ({ flipX: Boolean(i & 1), flipY: Boolean(i & 2), transpose: Boolean(i & 4) }));

function transform(image: RawImage, t: { flipX: boolean; flipY: boolean; transpose: boolean }, inverse = false): RawImage {
  const width = t.transpose ? image.height : image.width;
  const height = t.transpose ? image.width : image.height;
  const data = new Uint8Array(image.data.length);
  const c = image.channels;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sx: number;
      let sy: number;
      if (!inverse) {
        // forward: flip, then transpose
        const [tx, ty] = t.transpose ? [y, x] : [x, y];
        sx = t.flipX ? image.width - 1 - tx : tx;
        sy = t.flipY ? image.height - 1 - ty : ty;
      } else {
        // inverse: transpose back, then flip back
        const fx = t.flipX ? width - 1 - x : x;
        const fy = t.flipY ? height - 1 - y : y;
        [sx, sy] = t.transpose ? [fy, fx] : [fx, fy];
      }
      for (let k = 0; k < c; k++) data[(y * width + x) * c + k] = image.data[(sy * image.width + sx) * c + k]!;
    }
  }
  return { data, width, height, channels: image.channels };
}

/** Geometric self-ensemble: the mean of the network's outputs over the 8 symmetries of the input. */
export async function selfEnsemble(image: RawImage, upscale: Upscaler): Promise<RawImage> {
  let sum: Float64Array | undefined;
  let shape: RawImage | undefined;
  for (const t of TRANSFORMS) {
    const output = transform(await upscale(transform(image, t)), t, true);
    sum ??= new Float64Array(output.data.length);
    shape = output;
    for (let i = 0; i < sum.length; i++) sum[i]! += output.data[i]!;
  }
  const data = Uint8Array.from(sum!, (v) => Math.round(v / TRANSFORMS.length));
  return { ...shape!, data };
}
