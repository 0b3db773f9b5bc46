import type { Logger } from 'pino';
import { AppError } from '../errors.js';
import { createGuardedFetcher, type GuardedFetcher } from '../repositories/fetcher/guarded-fetcher.js';
import { decodeImage, decodeMask, encodeImage } from '../repositories/image-codec.js';
import { findOperation } from '../services/operations/registry.js';
import type { ImageModels } from '../services/image-models.js';
import type { Operation } from '../services/operations/operation.js';
import type { Config } from '../config/config.js';
import type { JobTask, JobTaskResult } from './task.js';

export interface TaskContext {
  signal: AbortSignal;
  logger: Logger;
  progress(fraction: number): void;
  models: ImageModels;
}

let fetcher: { config: Config['fetch']; instance: GuardedFetcher } | undefined;

function fetcherFor(config: Config['fetch']): GuardedFetcher {
  // One fetcher per thread keeps its connection pool; the config is the same object shape for every task.
  if (!fetcher || JSON.stringify(fetcher.config) !== JSON.stringify(config)) {
    void fetcher?.instance.close();
    fetcher = { config, instance: createGuardedFetcher(config) };
  }
  return fetcher.instance;
}

/** The pipeline of every job: fetch, decode, check, run the operation, encode in the input's format family. */
export async function runTask(
  task: JobTask,
  context: TaskContext,
  operation: Operation | undefined = findOperation(task.operation),
): Promise<JobTaskResult> {
  if (!operation?.run) throw new AppError('operation_unavailable', 501, `${task.operation} is not available on this server`);
  const { config } = task;
  const limits = { maxInputPixels: config.image.maxInputPixels };
  const fetch = fetcherFor(config.fetch);

  const [imageBytes, maskBytes] = await Promise.all([
    fetch.fetchBytes(task.url, { signal: context.signal }),
    task.maskUrl ? fetch.fetchBytes(task.maskUrl, { signal: context.signal }) : undefined,
  ]);
  const decoded = await decodeImage(imageBytes.bytes, limits);
  const mask = maskBytes ? await decodeMask(maskBytes.bytes, limits) : undefined;
  if (mask && (mask.width !== decoded.image.width || mask.height !== decoded.image.height)) {
    throw new AppError(
      'mask_size_mismatch',
      400,
      `the mask is ${mask.width}×${mask.height} but the image is ${decoded.image.width}×${decoded.image.height} (after EXIF orientation)`,
    );
  }
  operation.checkInput?.({ width: decoded.image.width, height: decoded.image.height }, task.params, config);
  context.signal.throwIfAborted();

  const output = await operation.run(
    { image: decoded.image, ...(mask ? { mask } : {}), params: task.params },
    { progress: context.progress, signal: context.signal, logger: context.logger, config, models: context.models },
  );
  const encoded = await encodeImage(output.image, decoded.meta, { jpegQuality: config.image.jpegQuality });
  return { ...encoded, ...(output.result ? { result: output.result } : {}) };
}
