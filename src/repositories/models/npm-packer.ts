import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/** Downloads the tarball of `spec` (`name@version`) into `destination` and returns the tarball's path. */
export type Packer = (spec: string, destination: string) => Promise<string>;

const run = promisify(execFile);

/** The largest model tarball (esrgan-thick, 110 MB) takes seconds; this only stops a hung registry. */
const PACK_TIMEOUT_MS = 10 * 60_000;

/**
 * `npm pack` fetches exactly the published tarball through npm's own cache and registry settings (.npmrc,
 * proxies, mirrors), so the service needs no registry client of its own. No shell is involved, and npm runs in
 * the destination folder so that no project's .npmrc or scripts take part.
 */
export const npmPack: Packer = async (spec, destination) => {
  const { stdout } = await run('npm', ['pack', spec, '--pack-destination', destination, '--json', '--ignore-scripts'], {
    cwd: destination,
    timeout: PACK_TIMEOUT_MS,
    maxBuffer: 16 * 1024 * 1024,
  });
  const packed = JSON.parse(stdout) as { filename?: unknown }[];
  const filename = packed[0]?.filename;
  if (typeof filename !== 'string' || path.basename(filename) !== filename) {
    throw new Error(`npm pack ${spec} did not report a tarball name`);
  }
  return path.join(destination, filename);
};
