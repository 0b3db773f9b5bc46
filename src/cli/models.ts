import type { Config } from '../config/config.js';
import { ModelRegistry, packageSpec } from '../repositories/models/model-registry.js';
import { ModelStore, type PackageInstallResult } from '../repositories/models/model-store.js';

function openStore(config: Config): ModelStore {
  return new ModelStore(config.models.cacheDir, ModelRegistry.load());
}

/** `roomcraft models install`: every package of the registry, a line each as it is done. */
export async function installModels(config: Config): Promise<number> {
  const store = openStore(config);
  process.stdout.write(`Model cache: ${config.models.cacheDir}\n`);
  let started = performance.now();
  try {
    await store.install(undefined, (result) => {
      const seconds = (performance.now() - started) / 1000;
      process.stdout.write(`${describeInstall(result, seconds)}\n`);
      started = performance.now();
    });
  } catch (error) {
    process.stderr.write(`roomcraft: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  return 0;
}

function describeInstall(result: PackageInstallResult, seconds: number): string {
  const size = `${result.files} files, ${megabytes(result.bytes)}`;
  const spec = packageSpec(result).padEnd(32);
  if (result.outcome === 'present') return `${spec} already present (${size})`;
  return `${spec} fetched, integrity verified, extracted (${size}) in ${seconds.toFixed(1)} s; was: ${result.reason}`;
}

/** `roomcraft models list`: a table of every model; `loaded` is a property of a running server, not of the CLI. */
export async function listModels(config: Config): Promise<number> {
  const models = await openStore(config).list();
  const yesNo = (value: boolean) => (value ? 'yes' : 'no');
  const rows = [
    ['NAME', 'PACKAGE', 'LICENCE', 'FORMAT', 'PRESENT', 'VERIFIED', 'LOADED'],
    ...models.map((m) => [m.name, packageSpec(m), m.licence, m.format, yesNo(m.present), yesNo(m.verified), 'n/a']),
  ];
  process.stdout.write(`${table(rows)}\nModel cache: ${config.models.cacheDir}\n`);
  return 0;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n');
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
