import { detectSegmentsLsd, type LsdOptions } from '../../vision/geometry/lsd.js';
import { decodeMlsd, type MlsdDecodeOptions } from '../../vision/geometry/mlsd-decoder.js';
import { greyPlane, resizeRgb } from '../../vision/geometry/resample.js';
import type { LineSegment } from '../../vision/geometry/segments.js';
import type { RawImage } from '../../vision/raw-image.js';

/**
 * Finds line segments in an image, in that image's continuous pixel coordinates. The analysis calls it with its
 * working-resolution copy of the photo; the model-backed source and the classical one are interchangeable, and
 * tests pass any function.
 */
export type LineSource = (image: RawImage) => Promise<LineSegment[]>;

/** The registry's M-LSD model and the square input it was exported for. */
export const MLSD_MODEL = 'mlsd-512-large';
export const MLSD_INPUT_SIZE = 512;

/** One float32 output of a model run: what ModelRuntime's detector sessions return. */
export interface TensorOutput {
  data: Float32Array;
  dims: readonly number[];
}

/**
 * What the M-LSD runner needs of a model session: one float32 input, named outputs. ModelRuntime.detectorSession()
 * of an ONNX registry entry fits as it is.
 */
export interface TensorModel {
  run(input: Float32Array, dims: readonly number[]): Promise<Record<string, TensorOutput>>;
}

export interface MlsdOptions extends MlsdDecodeOptions {
  /** Side of the model's square input: 512 or 320, as the model file was exported. Default 512. */
  inputSize?: number;
}

/**
 * M-LSD as the reference runs it: the image resized (not letterboxed: the network was trained on squashed squares,
 * and lines stay lines under an anisotropic scale) to inputSize², RGB 0–255 with a fourth channel of ones, NHWC;
 * the maps decoded by decodeMlsd and the endpoints scaled back to the image.
 */
export async function detectSegmentsMlsd(model: TensorModel, image: RawImage, options: MlsdOptions = {}): Promise<LineSegment[]> {
  const size = options.inputSize ?? 512;
  const input = mlsdInput(image, size);
  const outputs = await model.run(input, [1, size, size, 4]);
  const scores = outputs.scores;
  const offsets = outputs.offsets;
  if (!scores || !offsets) throw new Error(`the M-LSD model must return "scores" and "offsets", not ${Object.keys(outputs).join(', ')}`);
  const mapHeight = scores.dims[1] ?? size / 2;
  const mapWidth = scores.dims[2] ?? size / 2;
  const segments = decodeMlsd({ scores: scores.data, offsets: offsets.data, width: mapWidth, height: mapHeight }, options);
  const sx = image.width / size;
  const sy = image.height / size;
  return segments.map((s) => ({ x0: s.x0 * sx, y0: s.y0 * sy, x1: s.x1 * sx, y1: s.y1 * sy, score: s.score }));
}

/** The NHWC RGBA float tensor M-LSD takes: 0–255 colours, alpha channel 1. */
export function mlsdInput(image: RawImage, size: number): Float32Array {
  const resized = resizeRgb(image, size, size);
  const input = new Float32Array(size * size * 4);
  for (let i = 0; i < size * size; i++) {
    input[4 * i] = resized.data[3 * i]!;
    input[4 * i + 1] = resized.data[3 * i + 1]!;
    input[4 * i + 2] = resized.data[3 * i + 2]!;
    input[4 * i + 3] = 1;
  }
  return input;
}

export function mlsdLineSource(model: TensorModel, options: MlsdOptions = {}): LineSource {
  return (image) => detectSegmentsMlsd(model, image, options);
}

/** The classical detector (LSD) on the image's luma. */
export function lsdLineSource(options: LsdOptions = {}): LineSource {
  return async (image) => detectSegmentsLsd(greyPlane(image), options);
}
