import crypto from 'node:crypto';
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';

/** Streams a file through a hash, so 100 MB weights never sit in memory at once. */
export async function digestFile(file: string, algorithm: 'sha256' | 'sha512', encoding: 'hex' | 'base64'): Promise<string> {
  const hash = crypto.createHash(algorithm);
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest(encoding);
}

export function sha256File(file: string): Promise<string> {
  return digestFile(file, 'sha256', 'hex');
}

/** The npm form of a tarball's checksum: `sha512-<base64>`, as in `dist.integrity`. */
export async function integrityOf(file: string): Promise<string> {
  return `sha512-${await digestFile(file, 'sha512', 'base64')}`;
}
