import fsp from 'node:fs/promises';
import path from 'node:path';
import { sha256File } from './file-digest.js';
import type { ModelPackage } from './model-registry.js';
import { writeFileAtomically } from './write-atomically.js';

/** What was extracted from one tarball; written last, so a package folder with a manifest is complete. */
export interface PackageManifest {
  package: string;
  version: string;
  /** The tarball's sha512, verified before extraction. */
  integrity: string;
  licence: string;
  installedAt: string;
  /** Keyed by the path in the tarball. Size and mtime are the cheap fingerprint; sha256 the real one. */
  files: Record<string, ManifestFile>;
}

export interface ManifestFile {
  sha256: string;
  size: number;
  mtimeMs: number;
}

const MANIFEST = 'manifest.json';

export async function readManifest(directory: string): Promise<PackageManifest | undefined> {
  let parsed: Partial<PackageManifest>;
  try {
    parsed = JSON.parse(await fsp.readFile(path.join(directory, MANIFEST), 'utf8')) as Partial<PackageManifest>;
  } catch {
    return undefined;
  }
  // Missing, unreadable or edited out of shape: any of these means the package is not (properly) installed.
  const wellFormed = typeof parsed.integrity === 'string' && typeof parsed.files === 'object' && parsed.files !== null;
  return wellFormed ? (parsed as PackageManifest) : undefined;
}

export async function writeManifest(directory: string, manifest: PackageManifest): Promise<void> {
  await writeFileAtomically(path.join(directory, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Hashes the freshly extracted files; their size and mtime are recorded as they are on disk now. */
export async function describeFiles(directory: string, files: readonly string[]): Promise<Record<string, ManifestFile>> {
  const described: Record<string, ManifestFile> = {};
  for (const file of files) {
    const absolute = path.join(directory, file);
    const [stat, sha256] = await Promise.all([fsp.stat(absolute), sha256File(absolute)]);
    described[file] = { sha256, size: stat.size, mtimeMs: stat.mtimeMs };
  }
  return described;
}

/**
 * Why `file` can no longer be trusted without re-extraction, or undefined when its size and mtime still match the
 * manifest. Anything that rewrites a file changes its mtime, so this catches edits and truncation for the cost of a
 * stat; silent bit rot is left to the sha256 check on first load.
 */
export async function fileProblem(directory: string, manifest: PackageManifest, file: string): Promise<string | undefined> {
  const recorded = manifest.files[file];
  if (!recorded) return `${file} is not in the manifest`;
  const stat = await fsp.stat(path.join(directory, file)).catch(() => undefined);
  if (!stat) return `${file} is missing`;
  if (stat.size !== recorded.size || stat.mtimeMs !== recorded.mtimeMs) return `${file} has changed since it was installed`;
  return undefined;
}

/** Why the package must be (re)fetched, or undefined when its installation is intact. */
export async function packageProblem(
  directory: string,
  manifest: PackageManifest | undefined,
  pkg: ModelPackage,
): Promise<string | undefined> {
  if (!manifest) return 'not installed';
  if (manifest.integrity !== pkg.integrity) return 'the registry pins another tarball';
  for (const file of pkg.files) {
    const problem = await fileProblem(directory, manifest, file);
    if (problem) return problem;
  }
  return undefined;
}
