import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseTfjsGraphModel, type TfjsGraph } from './tfjs-graph.js';

/**
 * Reads a tfjs graph model from the files the model store verified: `files[0]` is model.json, the others its
 * shards. Each manifest path is matched to a given file by name, so nothing outside `files` is ever opened.
 */
export async function readTfjsGraphModel(files: readonly string[]): Promise<TfjsGraph> {
  const [modelJsonPath, ...shardPaths] = files;
  if (modelJsonPath === undefined) throw new Error('no model.json given');
  const modelJson = JSON.parse(await readFile(modelJsonPath, 'utf8')) as { weightsManifest?: unknown };
  if (!Array.isArray(modelJson.weightsManifest)) throw new Error(`${modelJsonPath} has no weightsManifest array`);
  const byName = new Map(shardPaths.map((file) => [path.basename(file), file]));
  const ordered = (modelJson.weightsManifest as { paths?: unknown }[]).flatMap((group) => {
    if (!Array.isArray(group.paths)) throw new Error(`${modelJsonPath}: a weights group has no paths`);
    return group.paths.map((shard) => {
      const file = byName.get(path.posix.basename(String(shard)));
      if (file === undefined) throw new Error(`${modelJsonPath}: shard ${String(shard)} is not among the given files`);
      return file;
    });
  });
  return parseTfjsGraphModel(modelJson, await Promise.all(ordered.map((file) => readFile(file))));
}
