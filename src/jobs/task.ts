import type { Config } from '../config/config.js';
import type { SerializedError } from '../errors.js';

/** What the main thread hands a worker thread: everything needed to produce one result, nothing about the database. */
export interface JobTask {
  operation: string;
  url: string;
  maskUrl?: string;
  params: Record<string, unknown>;
  config: Config;
}

export interface JobTaskResult {
  bytes: Uint8Array;
  contentType: string;
  extension: string;
  result?: Record<string, unknown>;
}

export type ToWorker = { type: 'run'; taskId: number; task: JobTask } | { type: 'abort'; taskId: number };

export type FromWorker =
  | { type: 'progress'; taskId: number; fraction: number }
  | { type: 'done'; taskId: number; result: JobTaskResult; loadedModels: string[] }
  | { type: 'failed'; taskId: number; error: SerializedError; loadedModels: string[] };
