import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { RawImage } from '../src/vision/raw-image.js';

/** The repository root, and the shared listing photos the benchmarks (never the tests) read. */
export const ROOT = path.resolve(import.meta.dirname, '..');
export const PHOTOS = path.resolve(ROOT, '../shared/testdata/rooms');
/** The shared photos of empty rooms (bench/data/photo-layouts.json entries with "set": "empty-rooms"). */
export const EMPTY_ROOM_PHOTOS = path.resolve(ROOT, '../shared/testdata/empty-rooms');
/** The listing of the shared photos: a CSV whose first column is the file name. */
export const MANIFEST = path.join(PHOTOS, 'MANIFEST.csv');
/** The photo of an entry of bench/data/photo-layouts.json: its `file` in EMPTY_ROOM_PHOTOS when its `set` is "empty-rooms", else in PHOTOS. */
export function layoutPhotoPath(entry: { file: string; set?: string }): string {
  return path.join(entry.set === 'empty-rooms' ? EMPTY_ROOM_PHOTOS : PHOTOS, entry.file);
}
/** Decode limit for the shared photos: the largest is 19.8 MP, well above the service's default. */
export const PHOTO_LIMITS = { maxInputPixels: 100_000_000 };
/** Size of the "12 MP photo" every time budget is stated for. */
export const TWELVE_MEGAPIXELS = 12_000_000;

/** The file names listed in MANIFEST.csv, in its order (header skipped). */
export function readManifest(): string[] {
  const lines = fs.readFileSync(MANIFEST, 'utf8').trim().split('\n');
  return lines.slice(1).map((line) => line.slice(0, line.indexOf(',')));
}

/** The room type of an empty room photo, from its file name. */
export function roomTypeOf(file: string): string {
  const name = path.basename(file);
  if (/bedroom/.test(name)) return 'bedroom';
  if (/dining/.test(name)) return 'dining_room';
  if (/kitchen/.test(name)) return 'kitchen';
  if (/office/.test(name)) return 'home_office';
  if (/terrace/.test(name)) return 'outdoor_terrace';
  return 'living_room';
}

/** Every empty room photo of the shared sets. */
export function emptyRoomPhotos(): string[] {
  return [
    ...fs.readdirSync(PHOTOS).filter((f) => f.startsWith('empty_')).map((f) => path.join(PHOTOS, f)),
    ...fs.readdirSync(EMPTY_ROOM_PHOTOS).filter((f) => /\.(jpe?g|png|webp)$/i.test(f)).map((f) => path.join(EMPTY_ROOM_PHOTOS, f)),
  ].sort();
}

/** A photo upright, in sRGB, reduced (or enlarged) so that its longer side is `longSide`. */
export async function readPhoto(file: string, longSide: number): Promise<RawImage> {
  const { data, info } = await sharp(file).rotate().resize(longSide, longSide, { fit: 'inside' }).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, channels: 3 };
}
