import type { Logger } from 'pino';
import { AppError } from '../errors.js';
import type { GuardedFetcher } from '../repositories/fetcher/guarded-fetcher.js';
import { decodeImage, decodeMask, encodeImage, encodeMaskPng, readImageSize } from '../repositories/image-codec.js';
import { findOperation } from '../services/operations/registry.js';
import type { ImageModels } from '../services/image-models.js';
import type { FurnitureRenderer } from '../services/staging/furniture-renderer.js';
import type { AnyOperation } from '../services/operations/operation.js';
import type { Config } from '../config/config.js';
import type { JobTask, JobTaskResult } from './task.js';
import { drawTestWatermark } from '../vision/watermark.js';

export interface TaskContext {
  signal: AbortSignal;
  logger: Logger;
  progress(fraction: number): void;
  /** The operation itself is about to run (its input fetched and decoded): from here on the attempt counts. */
  started(): void;
  models: ImageModels;
  renderer: FurnitureRenderer;
  /** The worker thread's configuration, given once when the thread started. */
  config: Config;
  /** The thread's one fetcher (one connection pool), built from that configuration. */
  fetcher: Pick<GuardedFetcher, 'fetchBytes'>;
}

/**
 * The pipeline of every job: fetch (or take the stored bytes), check the sizes, decode, run the operation, watermark a
 * test key's result, encode in the input's format family.
 */
export async function runTask(
  task: JobTask,
  context: TaskContext,
  operation: AnyOperation | undefined = findOperation(task.operation),
): Promise<JobTaskResult> {
  if (!operation?.run) throw new AppError('operation_unavailable', 501, `${task.operation} is not available on this server`);
  const { config, fetcher } = context;
  const limits = { maxInputPixels: config.image.maxInputPixels };

  // Inputs that came as data: URLs arrive as bytes (read from storage by the processor); URLs are fetched here.
  const fetch = (url: string) => fetcher.fetchBytes(url, { signal: context.signal }).then((fetched) => fetched.bytes);
  const [imageBytes, maskBytes] = await Promise.all([
    task.imageBytes ?? fetch(task.url),
    task.maskBytes ?? (task.maskUrl ? fetch(task.maskUrl) : undefined),
  ]);
  // The sizes come from the headers (as displayed, EXIF orientation applied), so that every refusal that depends on
  // the size alone comes before a single pixel is decoded.
  const size = await readImageSize(imageBytes, limits);
  if (maskBytes) {
    const maskSize = await readImageSize(maskBytes, limits);
    if (maskSize.width !== size.width || maskSize.height !== size.height) {
      throw new AppError(
        'mask_size_mismatch',
        400,
        `the mask is ${maskSize.width}×${maskSize.height} but the image is ${size.width}×${size.height} (after EXIF orientation)`,
      );
    }
  }
  operation.checkInput?.({ width: size.width, height: size.height }, task.params, config);
  context.signal.throwIfAborted();

  const decoded = await decodeImage(imageBytes, limits);
  const mask = maskBytes ? await decodeMask(maskBytes, limits) : undefined;
  context.signal.throwIfAborted();

  context.started();
  const output = await operation.run(
    { image: decoded.image, ...(mask ? { mask } : {}), params: task.params },
    { progress: context.progress, signal: context.signal, logger: context.logger, config, models: context.models, renderer: context.renderer },
  );
  // A test key's result carries a visible TEST label; the change mask, when the operation reports one, covers it too.
  if (task.watermark) drawTestWatermark(output.image, output.changeMask);
  const encoded = await encodeImage(output.image, decoded.meta, { jpegQuality: config.image.jpegQuality });
  const changeMask = output.changeMask ? await encodeMaskPng(output.changeMask) : undefined;
  return { ...encoded, ...(output.result ? { result: output.result } : {}), ...(changeMask ? { changeMask } : {}) };
}
