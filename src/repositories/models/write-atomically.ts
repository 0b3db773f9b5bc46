import crypto from 'node:crypto';
import fsp from 'node:fs/promises';

/** Write then rename, so a reader (another worker thread, another process) never sees half a file. */
export async function writeFileAtomically(target: string, data: string | Uint8Array): Promise<void> {
  const temporary = `${target}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  await fsp.writeFile(temporary, data);
  await fsp.rename(temporary, target);
}
