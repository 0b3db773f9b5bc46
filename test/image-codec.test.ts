import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import sharp, { type Color, type Sharp } from 'sharp';
import { AppError, type ErrorCode } from '../src/errors.js';
import { decodeImage, decodeMask, encodeImage, readImageSize, sniffImageFormat } from '../src/repositories/image-codec.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { headerOnlyPng } from './helpers/fixtures.js';

const limits = { maxInputPixels: 10_000_000 };
const RED = { r: 220, g: 30, b: 40 };

function solid(width: number, height: number, background: Color, channels: 3 | 4 = 3): Sharp {
  return sharp({ create: { width, height, channels, background } });
}

/** A deterministic, non-flat RGB(A) image so that round-trips can be compared byte for byte. */
function gradient(width: number, height: number, channels: 3 | 4): RawImage {
  const data = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * channels;
      data[i] = (x * 7) & 255;
      data[i + 1] = (y * 13) & 255;
      data[i + 2] = (x * y) & 255;
      if (channels === 4) data[i + 3] = (x + y * 3) & 255;
    }
  }
  return { data, width, height, channels };
}

function pixelAt(image: RawImage, x: number, y: number): number[] {
  const start = (y * image.width + x) * image.channels;
  return [...image.data.subarray(start, start + image.channels)];
}

function assertClose(actual: number[], expected: number[], tolerance: number): void {
  assert.equal(actual.length, expected.length, `${actual} vs ${expected}`);
  actual.forEach((value, i) => assert.ok(Math.abs(value - expected[i]!) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`));
}

async function rejectsWithCode(promise: Promise<unknown>, code: ErrorCode): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AppError, `expected an AppError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    assert.equal(error.status, 400);
    return error;
  }
  assert.fail(`expected ${code}, but it succeeded`);
}

async function twoFrameGif(): Promise<Buffer> {
  const frame = (rgba: number[]) => Buffer.alloc(8 * 6 * 4).fill(Buffer.from(rgba));
  const pages = Buffer.concat([frame([255, 0, 0, 255]), frame([0, 0, 255, 255])]);
  return sharp(pages, { raw: { width: 8, height: 12, channels: 4, pageHeight: 6 } }).gif({ delay: [100, 100] }).toBuffer();
}

describe('sniffImageFormat', () => {
  it('recognises each accepted format and whether it is lossless', async () => {
    const base = solid(16, 16, RED);
    const withAlpha = solid(16, 16, { ...RED, alpha: 0.5 }, 4);
    const cases: [string, Buffer, ReturnType<typeof sniffImageFormat>][] = [
      ['jpeg', await base.clone().jpeg().toBuffer(), { format: 'jpeg', lossless: false }],
      ['png', await base.clone().png().toBuffer(), { format: 'png', lossless: true }],
      ['webp lossy (VP8)', await base.clone().webp().toBuffer(), { format: 'webp', lossless: false }],
      ['webp lossy with alpha (VP8X+ALPH)', await withAlpha.clone().webp().toBuffer(), { format: 'webp', lossless: false }],
      ['webp lossless (VP8L)', await base.clone().webp({ lossless: true }).toBuffer(), { format: 'webp', lossless: true }],
      [
        'webp lossless inside VP8X',
        await base.clone().withIccProfile('srgb').webp({ lossless: true }).toBuffer(),
        { format: 'webp', lossless: true },
      ],
      ['avif', await base.clone().avif().toBuffer(), { format: 'avif', lossless: false }],
      ['tiff', await base.clone().tiff().toBuffer(), { format: 'tiff', lossless: true }],
      ['big-endian tiff', Buffer.from('MM\0*\0\0\0\x08', 'latin1'), { format: 'tiff', lossless: true }],
      ['gif', await base.clone().gif().toBuffer(), { format: 'gif', lossless: true }],
    ];
    for (const [name, bytes, expected] of cases) assert.deepEqual(sniffImageFormat(bytes), expected, name);
  });

  it('finds the bitstream of an animated WebP inside its first frame', async () => {
    const frames = Buffer.concat([Buffer.alloc(8 * 8 * 3, 10), Buffer.alloc(8 * 8 * 3, 200)]);
    const raw = { width: 8, height: 16, channels: 3 as const, pageHeight: 8 };
    const lossless = await sharp(frames, { raw }).webp({ lossless: true, loop: 0 }).toBuffer();
    const lossy = await sharp(frames, { raw }).webp({ quality: 80, loop: 0 }).toBuffer();
    assert.ok(lossless.includes('ANMF'), 'the fixture is animated');
    assert.deepEqual(sniffImageFormat(lossless), { format: 'webp', lossless: true });
    assert.deepEqual(sniffImageFormat(lossy), { format: 'webp', lossless: false });
  });

  it('refuses HEIC, unknown and empty input', () => {
    const ftyp = (major: string, ...compatible: string[]) =>
      Buffer.concat([Buffer.from([0, 0, 0, 16 + 4 * compatible.length]), Buffer.from(`ftyp${major}\0\0\0\0${compatible.join('')}`, 'latin1')]);
    assert.equal(sniffImageFormat(ftyp('heic', 'mif1', 'heic')), null);
    assert.deepEqual(sniffImageFormat(ftyp('mif1', 'mif1', 'avif')), { format: 'avif', lossless: false });
    assert.equal(sniffImageFormat(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), null);
    assert.equal(sniffImageFormat(new Uint8Array(0)), null);
  });
});

describe('readImageSize', () => {
  it('reports the displayed size, with EXIF orientation applied', async () => {
    const rotated = await solid(40, 20, RED).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    assert.deepEqual(await readImageSize(rotated, limits), { format: 'jpeg', lossless: false, width: 20, height: 40 });
  });

  it('refuses a decompression bomb from its header alone, before reading any pixel', async () => {
    const bomb = headerOnlyPng(40_000, 40_000);
    assert.ok(bomb.length < 200);
    const error = await rejectsWithCode(decodeImage(bomb, limits), 'image_too_large');
    assert.match(error.message, /10000000/);
    await rejectsWithCode(readImageSize(bomb, limits), 'image_too_large');
    // The file holds almost none of the pixel data its header promises: a decoder that read the pixels would fail on
    // that, as the same file at a size within the limit does. So image_too_large came from the header alone.
    await rejectsWithCode(decodeImage(headerOnlyPng(100, 100), limits), 'invalid_image');
  });

  it('refuses unknown formats and unreadable headers', async () => {
    await rejectsWithCode(readImageSize(randomBytes(256), limits), 'unsupported_image_format');
    await rejectsWithCode(readImageSize(Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), limits), 'invalid_image');
  });
});

describe('decodeImage', () => {
  it('refuses a truncated JPEG', async () => {
    const jpeg = await sharp(Buffer.from(gradient(200, 150, 3).data), { raw: { width: 200, height: 150, channels: 3 } }).jpeg().toBuffer();
    await rejectsWithCode(decodeImage(jpeg.subarray(0, jpeg.length >> 1), limits), 'invalid_image');
  });

  it('applies EXIF orientation', async () => {
    // Stored 40×20 with a red top-left corner; orientation 6 means "rotate 90° clockwise to display".
    const stored = await solid(40, 20, { r: 0, g: 0, b: 255 })
      .composite([{ input: await solid(10, 10, { r: 255, g: 0, b: 0 }).png().toBuffer(), left: 0, top: 0 }])
      .png()
      .toBuffer();
    const jpeg = await sharp(stored).jpeg({ quality: 100, chromaSubsampling: '4:4:4' }).withMetadata({ orientation: 6 }).toBuffer();
    const { image, meta } = await decodeImage(jpeg, limits);
    assert.equal(image.width, 20);
    assert.equal(image.height, 40);
    assert.equal(meta.width, 20);
    assert.equal(meta.height, 40);
    assertClose(pixelAt(image, 17, 2), [255, 0, 0], 10);
    assertClose(pixelAt(image, 2, 2), [0, 0, 255], 10);
    assertClose(pixelAt(image, 17, 37), [0, 0, 255], 10);
  });

  it('converts CMYK to 3-channel sRGB', async () => {
    const cmyk = await solid(16, 16, { r: 200, g: 50, b: 50 }).toColourspace('cmyk').jpeg({ quality: 100 }).toBuffer();
    assert.equal((await sharp(cmyk).metadata()).space, 'cmyk');
    const { image, meta } = await decodeImage(cmyk, limits);
    assert.equal(image.channels, 3);
    assert.equal(meta.grayscale, false);
    assertClose(pixelAt(image, 8, 8), [200, 50, 50], 30);
  });

  it('converts an embedded ICC profile to sRGB', async () => {
    const displayP3 = await solid(8, 8, { r: 200, g: 50, b: 50 }).withIccProfile('p3').png().toBuffer();
    const { image } = await decodeImage(displayP3, limits);
    assertClose(pixelAt(image, 0, 0), [200, 50, 50], 2);
  });

  it('keeps real transparency and drops an opaque alpha channel', async () => {
    const translucent = await solid(8, 8, { ...RED, alpha: 0.5 }, 4).png().toBuffer();
    const decoded = await decodeImage(translucent, limits);
    assert.equal(decoded.image.channels, 4);
    assert.equal(decoded.meta.hasAlpha, true);
    assertClose(pixelAt(decoded.image, 3, 3), [RED.r, RED.g, RED.b, 128], 1);

    const opaque = await solid(8, 8, { ...RED, alpha: 1 }, 4).png().toBuffer();
    assert.equal((await sharp(opaque).metadata()).channels, 4);
    const decodedOpaque = await decodeImage(opaque, limits);
    assert.equal(decodedOpaque.image.channels, 3);
    assert.equal(decodedOpaque.meta.hasAlpha, false);
  });

  it('keeps greyscale as one channel, two with alpha, and reduces 16-bit to 8-bit', async () => {
    const grey = await solid(8, 8, { r: 90, g: 90, b: 90 }).toColourspace('b-w').png().toBuffer();
    const decodedGrey = await decodeImage(grey, limits);
    assert.equal(decodedGrey.image.channels, 1);
    assert.equal(decodedGrey.meta.grayscale, true);
    assert.deepEqual(pixelAt(decodedGrey.image, 1, 1), [90]);

    const greyAlpha = await solid(8, 8, { r: 90, g: 90, b: 90, alpha: 0.5 }, 4).toColourspace('b-w').png().toBuffer();
    assert.deepEqual(pixelAt((await decodeImage(greyAlpha, limits)).image, 1, 1), [90, 128]);

    const grey16 = await solid(8, 8, { r: 90, g: 90, b: 90 }).toColourspace('grey16').png().toBuffer();
    const decoded16 = await decodeImage(grey16, limits);
    assert.equal(decoded16.image.channels, 1);
    assert.equal(decoded16.image.data.length, 64);

    const rgb16 = await solid(8, 8, RED).toColourspace('rgb16').png().toBuffer();
    const decodedRgb16 = await decodeImage(rgb16, limits);
    assert.equal(decodedRgb16.image.data.length, 8 * 8 * 3);
    assertClose(pixelAt(decodedRgb16.image, 0, 0), [RED.r, RED.g, RED.b], 1);
  });

  it('decodes only the first frame of an animated GIF', async () => {
    const gif = await twoFrameGif();
    assert.equal((await sharp(gif).metadata()).pages, 2);
    const { image, meta } = await decodeImage(gif, limits);
    assert.deepEqual([image.width, image.height, image.channels], [8, 6, 3]);
    assert.deepEqual(meta, { format: 'gif', lossless: true, width: 8, height: 6, hasAlpha: false, grayscale: false });
    assert.deepEqual(pixelAt(image, 4, 5), [255, 0, 0]);
  });

  it('decodes WebP, AVIF and TIFF', async () => {
    for (const format of ['webp', 'avif', 'tiff'] as const) {
      const bytes = await solid(12, 10, RED).toFormat(format).toBuffer();
      const { image, meta } = await decodeImage(bytes, limits);
      assert.equal(meta.format, format);
      assertClose(pixelAt(image, 5, 5), [RED.r, RED.g, RED.b], 12);
    }
  });
});

describe('decodeMask', () => {
  it('uses the alpha channel when the mask has transparency', async () => {
    const mask = await solid(8, 8, { r: 0, g: 0, b: 0, alpha: 0 }, 4)
      .composite([{ input: await solid(4, 8, { r: 0, g: 0, b: 0, alpha: 1 }, 4).png().toBuffer(), left: 4, top: 0 }])
      .png()
      .toBuffer();
    const decoded = await decodeMask(mask, limits);
    assert.equal(decoded.channels, 1);
    assert.deepEqual([decoded.data[8 + 1], decoded.data[8 + 6]], [0, 255]);
  });

  it('uses luminance otherwise, after EXIF orientation', async () => {
    // White left half stored; orientation 6 puts it on the top half.
    const stored = await solid(40, 20, { r: 0, g: 0, b: 0 })
      .composite([{ input: await solid(20, 20, { r: 255, g: 255, b: 255 }).png().toBuffer(), left: 0, top: 0 }])
      .png()
      .toBuffer();
    const jpeg = await sharp(stored).jpeg({ quality: 100 }).withMetadata({ orientation: 6 }).toBuffer();
    const mask = await decodeMask(jpeg, limits);
    assert.deepEqual([mask.width, mask.height, mask.channels], [20, 40, 1]);
    assert.ok(mask.data[5 * 20 + 10]! > 245);
    assert.ok(mask.data[35 * 20 + 10]! < 10);

    const redMask = await decodeMask(await solid(4, 4, { r: 255, g: 0, b: 0 }).png().toBuffer(), limits);
    assert.deepEqual([...redMask.data.subarray(0, 1)], [76]);
  });
});

describe('encodeImage', () => {
  const options = { jpegQuality: 95 };

  it('round-trips PNG and lossless WebP exactly, tagged sRGB', async () => {
    for (const channels of [3, 4] as const) {
      const image = gradient(33, 17, channels);
      for (const like of [{ format: 'png', lossless: true }, { format: 'webp', lossless: true }] as const) {
        const encoded = await encodeImage(image, like, options);
        assert.equal(encoded.contentType, `image/${like.format}`);
        assert.equal(encoded.extension, like.format);
        assert.equal((await sharp(encoded.bytes).metadata()).hasProfile, true);
        const decoded = await sharp(encoded.bytes).raw().toBuffer();
        assert.ok(decoded.equals(image.data), `${like.format} with ${channels} channels is not bit-exact`);
      }
    }
  });

  it('writes JPEG at the configured quality with 4:4:4 chroma', async () => {
    const image = gradient(64, 48, 3);
    const encoded = await encodeImage(image, { format: 'jpeg', lossless: false }, options);
    assert.deepEqual([encoded.contentType, encoded.extension], ['image/jpeg', 'jpg']);
    const metadata = await sharp(encoded.bytes).metadata();
    assert.equal(metadata.format, 'jpeg');
    assert.equal(metadata.chromaSubsampling, '4:4:4');
    assert.equal(metadata.hasProfile, true);
    const decoded = await decodeImage(encoded.bytes, limits);
    assertClose(pixelAt(decoded.image, 40, 30), pixelAt(image, 40, 30), 12);
  });

  it('writes PNG instead of JPEG when there is transparency, and PNG for GIF', async () => {
    const translucent = await encodeImage(gradient(8, 8, 4), { format: 'jpeg', lossless: false }, options);
    assert.equal(translucent.contentType, 'image/png');
    assert.equal((await sharp(translucent.bytes).metadata()).channels, 4);

    const gif = await decodeImage(await twoFrameGif(), limits);
    const fromGif = await encodeImage(gif.image, gif.meta, options);
    assert.deepEqual([fromGif.contentType, fromGif.extension], ['image/png', 'png']);
    assert.equal((await sharp(fromGif.bytes).metadata()).pages ?? 1, 1);
  });

  it('writes lossy WebP, AVIF and lossless TIFF', async () => {
    const image = gradient(32, 32, 4);
    const webp = await encodeImage(image, { format: 'webp', lossless: false }, options);
    assert.deepEqual(sniffImageFormat(webp.bytes), { format: 'webp', lossless: false });
    const avif = await encodeImage(image, { format: 'avif', lossless: false }, options);
    assert.deepEqual([avif.contentType, sniffImageFormat(avif.bytes)?.format], ['image/avif', 'avif']);
    const tiff = await encodeImage(image, { format: 'tiff', lossless: true }, options);
    assert.deepEqual([tiff.contentType, tiff.extension], ['image/tiff', 'tiff']);
    assert.ok((await sharp(tiff.bytes).raw().toBuffer()).equals(image.data));
  });

  it('keeps greyscale images greyscale, with and without alpha', async () => {
    const grey: RawImage = { data: new Uint8Array(16).fill(77), width: 4, height: 4, channels: 1 };
    for (const format of ['png', 'jpeg', 'tiff'] as const) {
      const encoded = await encodeImage(grey, { format, lossless: format !== 'jpeg' }, options);
      assert.equal((await sharp(encoded.bytes).metadata()).channels, 1, format);
      const decoded = await decodeImage(encoded.bytes, limits);
      assert.equal(decoded.image.channels, 1);
      assert.deepEqual(pixelAt(decoded.image, 2, 2), [77]);
    }
    const greyAlpha: RawImage = { data: new Uint8Array(32).map((_, i) => (i % 2 ? 128 : 77)), width: 4, height: 4, channels: 2 };
    const png = await encodeImage(greyAlpha, { format: 'png', lossless: true }, options);
    const decoded = await decodeImage(png.bytes, limits);
    assert.equal(decoded.image.channels, 2);
    assert.deepEqual(pixelAt(decoded.image, 1, 1), [77, 128]);
  });
});
