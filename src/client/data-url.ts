/**
 * A `data:` URL of an image file's bytes, to send a local photo (or mask) as `url` (or `mask`) without hosting it.
 * The server recognises the format by its magic bytes; the media type written here is for people reading the URL.
 * A data URL is a third larger than the file; the server accepts up to its fetch cap (25 MiB by default) per image.
 */
export function imageDataUrl(bytes: Uint8Array): string {
  return `data:${imageMediaType(bytes) ?? 'application/octet-stream'};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/tiff': 'tiff',
  'image/gif': 'gif',
};

/** The media type of an image the service reads, from its first bytes; undefined for anything else. */
export function imageMediaType(bytes: Uint8Array): string | undefined {
  const ascii = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(8, 12))) return 'image/avif';
  if (ascii(0, 4) === 'II*\0' || ascii(0, 4) === 'MM\0*') return 'image/tiff';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif';
  return undefined;
}

/** The usual file extension of an image media type (`image/jpeg` → `jpg`); undefined for an unknown one. */
export function imageExtension(mediaType: string): string | undefined {
  return EXTENSIONS[mediaType.split(';')[0]!.trim().toLowerCase()];
}
