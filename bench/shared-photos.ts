import path from 'node:path';

/** The repository root, and the shared listing photos the benchmarks (never the tests) read. */
export const ROOT = path.resolve(import.meta.dirname, '..');
export const PHOTOS = path.resolve(ROOT, '../shared/testdata/rooms');
/** Decode limit for the shared photos: the largest is 19.8 MP, well above the service's default. */
export const PHOTO_LIMITS = { maxInputPixels: 100_000_000 };
/** Size of the "12 MP photo" every time budget is stated for. */
export const TWELVE_MEGAPIXELS = 12_000_000;
