import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { AppError } from '../errors.js';
import { hasAlpha, type RawImage } from '../vision/raw-image.js';

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'tiff' | 'gif';

export interface SniffedFormat {
  format: ImageFormat;
  /** Whether the file stores exact pixels: PNG, GIF, TIFF and VP8L WebP; JPEG, VP8 WebP and AVIF count as lossy. */
  lossless: boolean;
}

/** Dimensions after EXIF orientation, i.e. as the image is displayed. */
export interface ImageSize extends SniffedFormat {
  width: number;
  height: number;
}

export interface ImageMeta extends ImageSize {
  /** True only when some pixel is not fully opaque: a fully opaque alpha channel is dropped on decoding. */
  hasAlpha: boolean;
  grayscale: boolean;
}

export interface DecodedImage {
  image: RawImage;
  meta: ImageMeta;
}

export interface DecodeLimits {
  /** Width × height above which a file is refused before its pixels are decoded (Config['image']['maxInputPixels']). */
  maxInputPixels: number;
}

export interface EncodedImage {
  bytes: Buffer;
  contentType: string;
  extension: string;
}

/** Recognises the accepted formats by their magic bytes alone; anything else (HEIC included) is null. */
export function sniffImageFormat(bytes: Uint8Array): SniffedFormat | null {
  const ascii = (start: number, length: number) => latin1(bytes, start, length);
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { format: 'jpeg', lossless: false };
  if (ascii(0, 8) === '\x89PNG\r\n\x1a\n') return { format: 'png', lossless: true };
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return { format: 'gif', lossless: true };
  if (ascii(0, 4) === 'II*\0' || ascii(0, 4) === 'MM\0*') return { format: 'tiff', lossless: true };
  if (ascii(0, 4) === 'RIFF' && ascii(8, 4) === 'WEBP') return { format: 'webp', lossless: usesLosslessWebpBitstream(bytes) };
  if (ascii(4, 4) === 'ftyp' && fileTypeBrands(bytes).some((brand) => brand === 'avif' || brand === 'avis')) {
    return { format: 'avif', lossless: false };
  }
  return null;
}

/**
 * Reads only the header, so a decompression bomb (a small file declaring a huge canvas) is refused
 * before any pixel memory is allocated.
 */
export async function readImageSize(bytes: Uint8Array, limits: DecodeLimits): Promise<ImageSize> {
  return (await inspect(bytes, limits)).size;
}

/**
 * Decodes to 8-bit sRGB pixels as displayed: EXIF orientation applied, ICC profiles and CMYK converted
 * to sRGB, 16-bit reduced to 8-bit, only the first frame of animations and multi-page files.
 * Greyscale stays one colour channel; alpha is kept only when some pixel is not fully opaque.
 */
export async function decodeImage(bytes: Uint8Array, limits: DecodeLimits): Promise<DecodedImage> {
  const { size, grayscale } = await inspect(bytes, limits);
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(bytes, {
      // 'error' refuses truncated and corrupt data but tolerates the harmless warnings common in camera files.
      failOn: 'error',
      limitInputPixels: limits.maxInputPixels,
      autoOrient: true,
      pages: 1,
    })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw invalidImage(error);
  }
  const { data, info } = decoded;
  const image = compactChannels({ data, width: info.width, height: info.height, channels: info.channels === 4 ? 4 : 3 }, grayscale);
  const meta: ImageMeta = { ...size, hasAlpha: hasAlpha(image), grayscale };
  return { image, meta };
}

/**
 * Decodes a selection mask to one 8-bit channel, white or opaque meaning selected: the alpha channel
 * when the mask has transparency, otherwise its luminance (BT.601 weights).
 */
export async function decodeMask(bytes: Uint8Array, limits: DecodeLimits): Promise<RawImage> {
  const { image } = await decodeImage(bytes, limits);
  const { data, width, height, channels } = image;
  if (channels === 1) return image;
  const mask = new Uint8Array(width * height);
  for (let pixel = 0, offset = 0; pixel < mask.length; pixel++, offset += channels) {
    if (channels === 2 || channels === 4) mask[pixel] = data[offset + channels - 1]!;
    else mask[pixel] = Math.round(0.299 * data[offset]! + 0.587 * data[offset + 1]! + 0.114 * data[offset + 2]!);
  }
  return { data: mask, width, height, channels: 1 };
}

/**
 * Encodes in the input's format family: colour tagged with an sRGB ICC profile, greyscale kept as one band. JPEG uses `jpegQuality` with 4:4:4 chroma; lossy WebP and AVIF use it as their quality too;
 * PNG, lossless WebP and TIFF (deflate) are exact. GIF becomes a single-frame PNG, and an image with
 * transparency headed for JPEG becomes PNG.
 */
export async function encodeImage(
  image: RawImage,
  like: Pick<ImageMeta, 'format' | 'lossless'>,
  options: { jpegQuality: number },
): Promise<EncodedImage> {
  const quality = options.jpegQuality;
  const { width, height, channels } = image;
  const pixels = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  const raw = sharp(pixels, { raw: { width, height, channels } });
  // An sRGB profile would widen greyscale to RGB; grey stays one band (WebP, which has no grey mode, excepted).
  const input = channels <= 2 ? raw.toColourspace('b-w') : raw.withIccProfile('srgb');

  if (like.format === 'jpeg' && !hasAlpha(image)) {
    const bytes = await input.jpeg({ quality, chromaSubsampling: '4:4:4', mozjpeg: false }).toBuffer();
    return { bytes, contentType: 'image/jpeg', extension: 'jpg' };
  }
  if (like.format === 'webp') {
    const bytes = await input.webp(like.lossless ? { lossless: true } : { quality }).toBuffer();
    return { bytes, contentType: 'image/webp', extension: 'webp' };
  }
  if (like.format === 'avif') {
    // libaom's lossless mode is slow and large; at the JPEG quality AVIF is already better than the JPEG would be.
    const bytes = await input.avif({ quality, chromaSubsampling: '4:4:4' }).toBuffer();
    return { bytes, contentType: 'image/avif', extension: 'avif' };
  }
  if (like.format === 'tiff') {
    // sharp's default TIFF compression is JPEG, which is lossy and drops alpha.
    const bytes = await input.tiff({ compression: 'deflate', predictor: 'horizontal' }).toBuffer();
    return { bytes, contentType: 'image/tiff', extension: 'tiff' };
  }
  const bytes = await input.png().toBuffer();
  return { bytes, contentType: 'image/png', extension: 'png' };
}

/**
 * Writes the image with an SVG of the same size drawn over it (a diagnostic overlay) to `file`, in the format its
 * extension names (.png, .jpg, .webp, ...).
 */
export async function writeImageWithOverlay(image: RawImage, svg: string, file: string): Promise<void> {
  const { width, height, channels } = image;
  const pixels = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  await sharp(pixels, { raw: { width, height, channels } })
    .composite([{ input: Buffer.from(svg), top: 0, left: 0 }])
    .toFile(file);
}

interface Inspection {
  size: ImageSize;
  grayscale: boolean;
}

async function inspect(bytes: Uint8Array, limits: DecodeLimits): Promise<Inspection> {
  const sniffed = sniffImageFormat(bytes);
  if (!sniffed) throw new AppError('unsupported_image_format', 400, 'Accepted image formats are JPEG, PNG, WebP, AVIF, TIFF and GIF');
  let metadata: Metadata;
  try {
    // Reading the header allocates no pixels; sharp's own limit would only hide the size behind a generic error.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw invalidImage(error);
  }
  if (sniffed.format === 'avif' && metadata.compression !== 'av1') {
    throw new AppError('unsupported_image_format', 400, 'HEIF images are accepted only when AV1-coded (AVIF)');
  }
  const { width, height } = metadata.autoOrient;
  if (width * height > limits.maxInputPixels) {
    throw new AppError(
      'image_too_large',
      400,
      `The image is ${width}×${height} (${width * height} pixels); at most ${limits.maxInputPixels} pixels are accepted`,
    );
  }
  return { size: { ...sniffed, width, height }, grayscale: metadata.space === 'b-w' || metadata.space === 'grey16' };
}

function invalidImage(error: unknown): AppError {
  const detail = error instanceof Error ? error.message.split('\n')[0] : undefined;
  return new AppError('invalid_image', 400, detail ? `The image could not be decoded: ${detail}` : 'The image could not be decoded');
}

/**
 * sharp hands out every image as RGB(A) once converted to sRGB; this packs greyscale back to one colour
 * channel and drops an alpha channel that carries no transparency.
 */
function compactChannels(rgb: RawImage, grayscale: boolean): RawImage {
  const keepAlpha = rgb.channels === 4 && !isFullyOpaque(rgb);
  const picked = [...(grayscale ? [0] : [0, 1, 2]), ...(keepAlpha ? [3] : [])];
  if (picked.length === rgb.channels) return rgb;
  const pixelCount = rgb.width * rgb.height;
  const data = new Uint8Array(pixelCount * picked.length);
  for (let pixel = 0; pixel < pixelCount; pixel++) {
    for (let c = 0; c < picked.length; c++) data[pixel * picked.length + c] = rgb.data[pixel * rgb.channels + picked[c]!]!;
  }
  return { data, width: rgb.width, height: rgb.height, channels: picked.length as RawImage['channels'] };
}

function isFullyOpaque(image: RawImage): boolean {
  for (let i = image.channels - 1; i < image.data.length; i += image.channels) if (image.data[i] !== 255) return false;
  return true;
}

function latin1(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

/** Real `ftyp` boxes list a handful of brands; a forged box size must not make sniffing scan the whole file. */
const MAX_FILE_TYPE_BOX_BYTES = 256;

/** The major and compatible brands of an ISO-BMFF `ftyp` box (which starts the file). */
function fileTypeBrands(bytes: Uint8Array): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxEnd = Math.min(bytes.length >= 4 ? view.getUint32(0) : 0, bytes.length, MAX_FILE_TYPE_BOX_BYTES);
  const brands = [latin1(bytes, 8, 4)];
  for (let offset = 16; offset + 4 <= boxEnd; offset += 4) brands.push(latin1(bytes, offset, 4));
  return brands;
}

/** Walks the RIFF chunks to the first image bitstream: VP8L is lossless, VP8 lossy (also inside VP8X/ANMF). */
function usesLosslessWebpBitstream(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ANIMATION_FRAME_HEADER_BYTES = 16;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const fourcc = latin1(bytes, offset, 4);
    if (fourcc === 'VP8L') return true;
    if (fourcc === 'VP8 ') return false;
    const size = view.getUint32(offset + 4, true);
    // An animation frame's own chunks (its bitstream among them) follow the frame header.
    offset += fourcc === 'ANMF' ? 8 + ANIMATION_FRAME_HEADER_BYTES : 8 + size + (size % 2);
  }
  return false;
}

/** A one-channel mask as an 8-bit greyscale PNG (a change mask compresses to a few kilobytes). */
export async function encodeMaskPng(mask: RawImage): Promise<Uint8Array> {
  const { width, height, channels } = mask;
  const pixels = Buffer.from(mask.data.buffer, mask.data.byteOffset, mask.data.byteLength);
  return sharp(pixels, { raw: { width, height, channels } }).toColourspace('b-w').png({ compressionLevel: 9 }).toBuffer();
}
