import fsp from 'node:fs/promises';
import { sha256File } from './file-digest.js';

/**
 * Remembers which files this process has hashed and found as expected, keyed by path with the size and mtime
 * they had then: the full sha256 is paid once per file per process, and again only if the file is rewritten.
 */
export class HashChecks {
  private readonly passed = new Map<string, { size: number; mtimeMs: number; sha256: string }>();

  /** True when the file exists and its sha256 is `expected`. */
  async matches(file: string, expected: string): Promise<boolean> {
    const stat = await fsp.stat(file).catch(() => undefined);
    if (!stat) return false;
    const known = this.passed.get(file);
    if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs && known.sha256 === expected) return true;
    if ((await sha256File(file)) !== expected) {
      this.passed.delete(file);
      return false;
    }
    this.passed.set(file, { size: stat.size, mtimeMs: stat.mtimeMs, sha256: expected });
    return true;
  }

  /** Records a file this process has just written from bytes whose sha256 it computed itself. */
  async remember(file: string, sha256: string): Promise<void> {
    const stat = await fsp.stat(file);
    this.passed.set(file, { size: stat.size, mtimeMs: stat.mtimeMs, sha256 });
  }
}
