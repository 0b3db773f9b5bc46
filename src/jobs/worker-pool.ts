import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import { AppError } from '../errors.js';
import type { FromWorker, JobTask, JobTaskResult, ToWorker, WorkerSetup } from './task.js';

const WORKER_URL = new URL('./worker-entry.mjs', import.meta.url);

interface PendingTask {
  taskId: number;
  task: JobTask;
  onProgress: (fraction: number) => void;
  onStarted: () => void;
  resolve: (result: JobTaskResult) => void;
  reject: (error: AppError) => void;
  signal: AbortSignal | undefined;
}

interface Slot {
  worker: Worker;
  current: PendingTask | undefined;
  /** Resolves once the thread has loaded its modules (or exited): terminating it earlier can abort the process. */
  started: Promise<void>;
  markStarted: () => void;
}

/**
 * A fixed set of worker threads (`config.jobs.workerThreads`) that run operations, so decoding, pixel work and
 * inference never block the HTTP event loop. Each thread gets the configuration once, when it starts; tasks carry
 * only what differs between jobs. A thread that dies takes only its current task with it and is replaced.
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: PendingTask[] = [];
  private nextTaskId = 1;
  private closed = false;
  private readonly modelsLoaded = new Set<string>();
  private readonly renderLock = new SharedArrayBuffer(4);

  constructor(
    private readonly config: Config,
    private readonly logger: Logger,
  ) {
    for (let i = 0; i < config.jobs.workerThreads; i++) this.slots.push(this.spawn());
  }

  get threads(): number {
    return this.slots.length;
  }

  get busy(): number {
    return this.slots.filter((s) => s.current).length;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Models that at least one worker thread has open. */
  get loadedModels(): ReadonlySet<string> {
    return this.modelsLoaded;
  }

  run(
    task: JobTask,
    options: { onProgress?: (fraction: number) => void; onStarted?: () => void; signal?: AbortSignal } = {},
  ): Promise<JobTaskResult> {
    if (this.closed) return Promise.reject(new AppError('service_unavailable', 503, 'the worker pool is shutting down'));
    return new Promise((resolve, reject) => {
      const pending: PendingTask = {
        taskId: this.nextTaskId++,
        task,
        onProgress: options.onProgress ?? (() => {}),
        onStarted: options.onStarted ?? (() => {}),
        resolve,
        reject,
        signal: options.signal,
      };
      if (options.signal?.aborted) return reject(abortError(options.signal));
      options.signal?.addEventListener('abort', () => this.abort(pending), { once: true });
      this.waiting.push(pending);
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.waiting.splice(0)) pending.reject(new AppError('service_unavailable', 503, 'the worker pool closed'));
    // A thread terminated while it still loads onnxruntime's native addon can take the whole process down with it
    // (std::terminate from the addon's teardown), so each one is let finish starting first.
    await Promise.all(this.slots.map(async (slot) => {
      await slot.started;
      await slot.worker.terminate();
    }));
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.current) continue;
      const next = this.waiting.shift();
      if (!next) return;
      slot.current = next;
      const { task, transfer } = movable(next.task);
      slot.worker.postMessage({ type: 'run', taskId: next.taskId, task } satisfies ToWorker, transfer);
    }
  }

  private abort(pending: PendingTask): void {
    const queuedAt = this.waiting.indexOf(pending);
    if (queuedAt >= 0) {
      this.waiting.splice(queuedAt, 1);
      pending.reject(abortError(pending.signal));
      return;
    }
    const slot = this.slots.find((s) => s.current === pending);
    if (slot) slot.worker.postMessage({ type: 'abort', taskId: pending.taskId } satisfies ToWorker);
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_URL, { workerData: { config: this.config, renderLock: this.renderLock } satisfies WorkerSetup });
    let markStarted = () => {};
    const started = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    const slot: Slot = { worker, current: undefined, started, markStarted };
    worker.once('exit', markStarted);
    worker.on('message', (message: FromWorker) => this.onMessage(slot, message));
    worker.on('error', (error) => this.logger.error({ err: error }, 'worker thread failed'));
    worker.on('exit', (code) => {
      if (this.closed) return;
      this.logger.error({ code }, 'worker thread exited; starting a new one');
      const lost = slot.current;
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots[index] = this.spawn();
      lost?.reject(new AppError('processing_failed', 500, 'the worker processing this job stopped unexpectedly'));
      this.dispatch();
    });
    return slot;
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    if (message.type === 'ready') {
      slot.markStarted();
      return;
    }
    const current = slot.current;
    if (!current || current.taskId !== message.taskId) return;
    if (message.type === 'progress') {
      current.onProgress(message.fraction);
      return;
    }
    if (message.type === 'started') {
      current.onStarted();
      return;
    }
    slot.current = undefined;
    for (const name of message.loadedModels) this.modelsLoaded.add(name);
    if (message.type === 'done') current.resolve(message.result);
    else current.reject(AppError.from(message.error));
    this.dispatch();
  }
}

/**
 * The task with its input bytes ready to be moved to the thread (up to 25 MB each, so not copied), and the buffers to
 * move. Bytes that are a view on part of a larger buffer (Node's shared pool of small Buffers) are copied first:
 * moving that buffer would empty every other view on it.
 */
function movable(task: JobTask): { task: JobTask; transfer: ArrayBuffer[] } {
  const imageBytes = task.imageBytes && ownBuffer(task.imageBytes);
  const maskBytes = task.maskBytes && ownBuffer(task.maskBytes);
  return {
    task: { ...task, ...(imageBytes ? { imageBytes } : {}), ...(maskBytes ? { maskBytes } : {}) } as JobTask,
    transfer: [imageBytes, maskBytes].flatMap((bytes) => (bytes ? [bytes.buffer as ArrayBuffer] : [])),
  };
}

function ownBuffer(bytes: Uint8Array): Uint8Array {
  const whole = bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return whole ? bytes : new Uint8Array(bytes);
}

function abortError(signal: AbortSignal | undefined): AppError {
  const reason: unknown = signal?.reason;
  return reason instanceof AppError ? reason : new AppError('job_aborted', 503, 'the job was aborted');
}
