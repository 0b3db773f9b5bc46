import type { Box, ScoredBox } from '../../vision/box.js';
import { resizeArea, toPlanar } from '../../vision/privacy/planar-image.js';
import { textRegions, type TextRegionOptions } from '../../vision/privacy/text-regions.js';
import type { RawImage } from '../../vision/raw-image.js';
import { outputOf, type Detector } from '../image-models.js';

/** PaddleOCR's normalisation, applied as it does to OpenCV's BGR channel order. */
const MEAN = [0.485, 0.456, 0.406] as const;
const STD = [0.229, 0.224, 0.225] as const;
/** PP-OCR's detector halves the resolution five times: its input sides are multiples of 32. */
const ALIGN = 32;

export interface TextDetectionOptions extends TextRegionOptions {
  /** The region's long side is resized to this for the detector. Default 640. */
  inputSide?: number;
  /** …but enlarged at most this much: more would only magnify blur. Default 3. */
  maxUpscale?: number;
}

/** Text lines inside `region` (whole pixels of the photo), in photo pixels: PP-OCRv4's detector on the region alone. */
export async function detectText(image: RawImage, region: Box, detector: Detector, options: TextDetectionOptions = {}): Promise<ScoredBox[]> {
  const scale = Math.min((options.inputSide ?? 640) / Math.max(region.width, region.height), options.maxUpscale ?? 3);
  const resized = resizeArea(toPlanar(image, region), Math.max(1, Math.round(region.width * scale)), Math.max(1, Math.round(region.height * scale)));
  const width = Math.ceil(resized.width / ALIGN) * ALIGN;
  const height = Math.ceil(resized.height / ALIGN) * ALIGN;
  const probability = outputOf(await detector.run(paddleInput(resized.data, resized.width, resized.height, width, height), [1, 3, height, width]));
  return textRegions(probability.data, width, height, options).map((line) => ({
    ...line,
    x: region.x + line.x / scale,
    y: region.y + line.y / scale,
    width: line.width / scale,
    height: line.height / scale,
  }));
}

/**
 * NCHW BGR, normalised, the picture at the top left of a `width` × `height` canvas. The rest stays 0, the mean
 * colour after normalisation: padding keeps the picture's aspect where PaddleOCR would stretch it to the multiple of 32.
 */
function paddleInput(rgb: Float32Array, pictureWidth: number, pictureHeight: number, width: number, height: number): Float32Array {
  const input = new Float32Array(3 * width * height);
  const picturePlane = pictureWidth * pictureHeight;
  for (let c = 0; c < 3; c++) {
    const source = (2 - c) * picturePlane;
    const target = c * width * height;
    for (let y = 0; y < pictureHeight; y++) {
      for (let x = 0; x < pictureWidth; x++) input[target + y * width + x] = (rgb[source + y * pictureWidth + x]! - MEAN[c]!) / STD[c]!;
    }
  }
  return input;
}
