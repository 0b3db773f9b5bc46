import type { Static } from '@sinclair/typebox';
import type { Config } from '../config/config.js';
import { AppError, type SerializedError } from '../errors.js';
import type { StoredRequest } from '../services/job-service.js';
import { creativeRedesign } from '../services/operations/creative-redesign.js';
import { declutter } from '../services/operations/declutter.js';
import { enhancer } from '../services/operations/enhancer.js';
import { furnish } from '../services/operations/furnish.js';
import { redesign } from '../services/operations/redesign.js';
import { refresh } from '../services/operations/refresh.js';
import { smartStagingV1, smartStagingV2 } from '../services/operations/smart-staging.js';
import { sunshine } from '../services/operations/sunshine.js';
import { upscale, upscaleAdvanced } from '../services/operations/upscale.js';

/**
 * Each operation's parameter schema, by the operation's name: the one place the task's types come from. The schemas
 * are the operation modules' own objects (test/job-task.test.ts checks that this lists exactly the registry's).
 */
export const TASK_PARAM_SCHEMAS = {
  'creative-redesign': creativeRedesign.params,
  redesign: redesign.params,
  refresh: refresh.params,
  furnish: furnish.params,
  'smart-staging-v2': smartStagingV2.params,
  'smart-staging': smartStagingV1.params,
  declutter: declutter.params,
  upscale: upscale.params,
  upscale_advanced: upscaleAdvanced.params,
  enhancer: enhancer.params,
  sunshine: sunshine.params,
} as const;

export type OperationName = keyof typeof TASK_PARAM_SCHEMAS;

/** The parameters an operation's schema admits. */
export type OperationParams<N extends OperationName> = Static<(typeof TASK_PARAM_SCHEMAS)[N]>;

/**
 * Where a worker thread gets an input: the URL it fetches (http(s), or a data: URL of a job accepted before inputs
 * were stored), or the bytes the processor read from storage, moved to the thread with the task (not copied).
 */
type TaskImage = { url: string; imageBytes?: never } | { imageBytes: Uint8Array; url?: never };
type TaskMask = { maskUrl?: string; maskBytes?: never } | { maskBytes: Uint8Array; maskUrl?: never };

/**
 * What the main thread hands a worker thread: everything needed to produce one result, nothing about the database,
 * and no configuration (each thread has it from its start, see WorkerSetup). One variant per operation.
 */
export type JobTask = {
  [N in OperationName]: { operation: N; params: OperationParams<N>; watermark?: boolean } & TaskImage & TaskMask;
}[OperationName];

/** The bytes of a job's stored inputs (StoredRequest's imageKey and maskKey), read from storage by the processor. */
export interface StoredInputBytes {
  image?: Uint8Array;
  mask?: Uint8Array;
}

/**
 * The task of a stored job. The parameters were validated against the operation's schema when the job was
 * submitted, and the registry's operation checks them again before its typed methods see them; an operation this
 * server does not know (a job left by another version) is refused. `watermark`: the job was made with a test key, and
 * its result carries a TEST label (run-task.ts).
 */
export function jobTask(operation: string, request: StoredRequest, stored: StoredInputBytes = {}, options: { watermark?: boolean } = {}): JobTask {
  if (!isOperationName(operation)) throw new AppError('operation_unavailable', 501, `${operation} is not available on this server`);
  return {
    operation,
    ...('imageKey' in request ? { imageBytes: storedBytes(stored.image, request.imageKey) } : { url: request.url }),
    ...('maskKey' in request
      ? { maskBytes: storedBytes(stored.mask, request.maskKey) }
      : request.mask
        ? { maskUrl: request.mask }
        : {}),
    params: request.params,
    ...(options.watermark ? { watermark: true } : {}),
  } as JobTask;
}

function storedBytes(bytes: Uint8Array | undefined, key: string): Uint8Array {
  if (!bytes) throw new Error(`the bytes of the stored input ${key} were not read`);
  return bytes;
}

function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(TASK_PARAM_SCHEMAS, name);
}

/** What each worker thread receives once, as its workerData. */
export interface WorkerSetup {
  config: Config;
  /** The process's render mutex (SharedMutex's buffer): one render at a time across the threads. */
  renderLock: SharedArrayBuffer;
}

export interface JobTaskResult {
  bytes: Uint8Array;
  contentType: string;
  extension: string;
  result?: Record<string, unknown>;
  /** PNG of the change mask, for operations that report one. */
  changeMask?: Uint8Array;
}

export type ToWorker = { type: 'run'; taskId: number; task: JobTask } | { type: 'abort'; taskId: number };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'started'; taskId: number }
  | { type: 'progress'; taskId: number; fraction: number }
  | { type: 'done'; taskId: number; result: JobTaskResult; loadedModels: string[] }
  | { type: 'failed'; taskId: number; error: SerializedError; loadedModels: string[] };
