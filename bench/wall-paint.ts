/**
 * The measures of repainted walls shared by bench:refresh and bench:redesign: the walls' colour against the paint under
 * the photo's light (CIEDE2000 between the mean colours, the paint × the light's colour × the photo's luminance over
 * the old paint's albedo, as the engine models it, and its median per pixel), the mean colour with the light's colour
 * divided out against the paint at the same luminance, and the high-frequency residual of output over input luminance
 * (the ratio less its 9 × 9 local mean, RMS, over the mean ratio): near 0 when the photo's shading is kept.
 */
import { boxMean } from '../src/vision/box-filter.js';
import { LINEAR_OF_BYTE, LUMINANCE_WEIGHTS, labOfLinearRgb, type Lab } from '../src/vision/colour.js';
import { dilateRound } from '../src/vision/declutter/mask-shapes.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { linearOfHex } from '../src/vision/restyle/hex-colour.js';
import { ciede2000 } from './ciede2000.js';
import { median } from './statistics.js';

export interface WallMeasures {
  deltaE?: number;
  deltaEPixels?: number;
  /** The mean repainted colour with the light's colour divided out, against the paint at the same luminance. */
  deltaEBalanced?: number;
  residual?: number;
}

function luminance(data: Uint8Array, p: number): number {
  return LUMINANCE_WEIGHTS[0] * LINEAR_OF_BYTE[data[p * 3]!]! + LUMINANCE_WEIGHTS[1] * LINEAR_OF_BYTE[data[p * 3 + 1]!]! + LUMINANCE_WEIGHTS[2] * LINEAR_OF_BYTE[data[p * 3 + 2]!]!;
}

/**
 * `mask`: 1 on the repainted wall pixels to measure (the measure keeps 4 pixels away from its border: the matte's soft
 * edge); `walls`: the paint and the light the refresh reported.
 */
export function measureRepaintedWalls(image: RawImage, output: RawImage, mask: Uint8Array, walls: { paint: string; cast: readonly number[]; oldAlbedo: number }): WallMeasures {
  const { width, height } = image;
  const result: WallMeasures = {};
  const edge = dilateRound(Uint8Array.from(mask, (v) => 1 - v), width, height, 4);
  const paint = linearOfHex(walls.paint);
  const { cast, oldAlbedo } = walls;
  const measured = [0, 0, 0];
  const expected = [0, 0, 0];
  const perPixel: number[] = [];
  const ratio = new Float32Array(width * height);
  const weight = new Float32Array(width * height);
  const a: Lab = { lightness: 0, a: 0, b: 0 };
  const b: Lab = { lightness: 0, a: 0, b: 0 };
  let count = 0;
  for (let p = 0; p < width * height; p++) {
    if (!mask[p] || edge[p]) continue;
    const light = luminance(image.data, p) / oldAlbedo;
    const target = [0, 1, 2].map((c) => Math.min(1, paint[c]! * cast[c]! * light));
    const got = [0, 1, 2].map((c) => LINEAR_OF_BYTE[output.data[p * 3 + c]!]!);
    for (let c = 0; c < 3; c++) {
      measured[c]! += got[c]!;
      expected[c]! += target[c]!;
    }
    if (count % 7 === 0) perPixel.push(ciede2000(labOfLinearRgb(got[0]!, got[1]!, got[2]!, a), labOfLinearRgb(target[0]!, target[1]!, target[2]!, b)));
    const input = luminance(image.data, p);
    if (input > 0.01) {
      ratio[p] = luminance(output.data, p) / input;
      weight[p] = 1;
    }
    count++;
  }
  if (count > 0) {
    result.deltaE = ciede2000(
      labOfLinearRgb(measured[0]! / count, measured[1]! / count, measured[2]! / count, a),
      labOfLinearRgb(expected[0]! / count, expected[1]! / count, expected[2]! / count, b),
    );
    result.deltaEPixels = median(perPixel);
    const balanced = [0, 1, 2].map((c) => measured[c]! / count / cast[c]!);
    const level = (v: readonly number[]) => LUMINANCE_WEIGHTS[0] * v[0]! + LUMINANCE_WEIGHTS[1] * v[1]! + LUMINANCE_WEIGHTS[2] * v[2]!;
    const scaled = [0, 1, 2].map((c) => (paint[c]! * level(balanced)) / level([...paint]));
    result.deltaEBalanced = ciede2000(labOfLinearRgb(balanced[0]!, balanced[1]!, balanced[2]!, a), labOfLinearRgb(scaled[0]!, scaled[1]!, scaled[2]!, b));
    const local = boxMean(ratio, width, height, 4);
    const localWeight = boxMean(weight, width, height, 4);
    let sum = 0;
    let squares = 0;
    let n = 0;
    for (let p = 0; p < width * height; p++) {
      if (!weight[p] || localWeight[p]! < 0.99) continue;
      const residual = ratio[p]! - local[p]! / localWeight[p]!;
      sum += ratio[p]!;
      squares += residual * residual;
      n++;
    }
    if (n > 0) result.residual = Math.sqrt(squares / n) / (sum / n);
  }
  return result;
}
