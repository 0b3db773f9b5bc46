import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseTfjsLayersModel, type ParseOptions, type TfjsLayersGraph } from './tfjs-layers.js';

/**
 * Reads a tfjs layers model from the files the model store verified: `files[0]` is model.json, the others its
 * shards. Each manifest path is matched to a given file by name, so nothing outside `files` is ever opened.
 */
export async function readTfjsLayersModel(files: readonly string[], options: ParseOptions = {}): Promise<TfjsLayersGraph> {
  const [modelJsonPath, ...shardPaths] = files;
  if (modelJsonPath === undefined) throw new Error('no model.json given');
  const modelJson: unknown = JSON.parse(await readFile(modelJsonPath, 'utf8'));
  const manifest = (modelJson as { weightsManifest?: unknown }).weightsManifest;
  if (!Array.isArray(manifest)) throw new Error(`${modelJsonPath} has no weightsManifest array`);
  const byName = new Map(shardPaths.map((file) => [path.basename(file), file]));
  const ordered = manifest.flatMap((group: { paths?: unknown }) => {
    if (!Array.isArray(group.paths)) throw new Error(`${modelJsonPath}: a weights group has no paths`);
    return group.paths.map((shard) => {
      const file = byName.get(path.posix.basename(String(shard)));
      if (file === undefined) throw new Error(`${modelJsonPath}: shard ${String(shard)} is not among the given files`);
      return file;
    });
  });
  const shards = await Promise.all(ordered.map((file) => readFile(file)));
  return parseTfjsLayersModel(modelJson, shards, options);
}
