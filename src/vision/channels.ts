import type { RawImage } from './raw-image.js';

/** Separates colour from alpha: operations that model photographs process the colour and treat alpha on its own. */
export function splitAlpha(image: RawImage): { colour: RawImage; alpha: RawImage | undefined } {
  if (image.channels === 1 || image.channels === 3) return { colour: image, alpha: undefined };
  const colourChannels = (image.channels - 1) as 1 | 3;
  const pixels = image.width * image.height;
  const colour = new Uint8Array(pixels * colourChannels);
  const alpha = new Uint8Array(pixels);
  for (let p = 0; p < pixels; p++) {
    for (let c = 0; c < colourChannels; c++) colour[p * colourChannels + c] = image.data[p * image.channels + c]!;
    alpha[p] = image.data[p * image.channels + colourChannels]!;
  }
  return {
    colour: { data: colour, width: image.width, height: image.height, channels: colourChannels },
    alpha: { data: alpha, width: image.width, height: image.height, channels: 1 },
  };
}

export function joinAlpha(colour: RawImage, alpha: RawImage): RawImage {
  if (colour.width !== alpha.width || colour.height !== alpha.height) throw new Error('colour and alpha sizes differ');
  const channels = (colour.channels + 1) as 2 | 4;
  const pixels = colour.width * colour.height;
  const data = new Uint8Array(pixels * channels);
  for (let p = 0; p < pixels; p++) {
    for (let c = 0; c < colour.channels; c++) data[p * channels + c] = colour.data[p * colour.channels + c]!;
    data[p * channels + colour.channels] = alpha.data[p]!;
  }
  return { data, width: colour.width, height: colour.height, channels };
}

export function greyToRgb(image: RawImage): RawImage {
  const pixels = image.width * image.height;
  const data = new Uint8Array(pixels * 3);
  for (let p = 0; p < pixels; p++) data[p * 3] = data[p * 3 + 1] = data[p * 3 + 2] = image.data[p]!;
  return { data, width: image.width, height: image.height, channels: 3 };
}

/** The mean of the three channels: exact for an image whose channels were equal going in. */
export function rgbToGrey(image: RawImage): RawImage {
  const pixels = image.width * image.height;
  const data = new Uint8Array(pixels);
  for (let p = 0; p < pixels; p++) {
    data[p] = Math.round((image.data[p * 3]! + image.data[p * 3 + 1]! + image.data[p * 3 + 2]!) / 3);
  }
  return { data, width: image.width, height: image.height, channels: 1 };
}
