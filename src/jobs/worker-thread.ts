import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../errors.js';
import { createLogger } from '../logger.js';
import { createGuardedFetcher } from '../repositories/fetcher/guarded-fetcher.js';
import { runTask } from './run-task.js';
import type { FromWorker, ToWorker, WorkerSetup } from './task.js';
import { ModelRegistry } from '../repositories/models/model-registry.js';
import { ModelStore } from '../repositories/models/model-store.js';
import { ModelRuntime } from '../repositories/models/model-runtime.js';
import { BlenderRenderer } from '../repositories/blender/blender-renderer.js';
import { LockedRenderer } from '../services/staging/locked-renderer.js';
import { SharedMutex } from './shared-mutex.js';

// Entry point of a worker thread: it only relays messages; runTask holds the pipeline.
if (!parentPort) throw new Error('worker-thread.ts must run inside a worker thread');
const port = parentPort;
// Everything that depends on the configuration is built once, from the configuration the thread was started with.
const { config, renderLock } = workerData as WorkerSetup;
const logger = createLogger(config, { name: 'worker' });
const fetcher = createGuardedFetcher(config.fetch);
const registry = ModelRegistry.load();
const models = new ModelRuntime(new ModelStore(config.models.cacheDir, registry), registry);
const renderer = new LockedRenderer(new BlenderRenderer({ executable: config.staging.blender, logger }), new SharedMutex(renderLock));
const controllers = new Map<number, AbortController>();

port.on('message', (message: ToWorker) => {
  if (message.type === 'abort') {
    controllers.get(message.taskId)?.abort(new AppError('job_aborted', 503, 'the job was aborted'));
    return;
  }
  const { taskId, task } = message;
  const controller = new AbortController();
  controllers.set(taskId, controller);
  const send = (reply: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);
  runTask(task, {
    signal: controller.signal,
    logger: logger.child({ operation: task.operation }),
    progress: (fraction) => send({ type: 'progress', taskId, fraction }),
    started: () => send({ type: 'started', taskId }),
    models,
    renderer,
    config,
    fetcher,
  })
    .then((result) =>
      send({ type: 'done', taskId, result, loadedModels: models.loaded() }, [result.bytes.buffer as ArrayBuffer]),
    )
    .catch((error: unknown) => {
      const appError =
        error instanceof AppError ? error : new AppError('processing_failed', 500, 'processing failed unexpectedly');
      if (!(error instanceof AppError)) logger.error({ err: error, operation: task.operation }, 'operation crashed');
      send({ type: 'failed', taskId, error: appError.toJSON(), loadedModels: models.loaded() });
    })
    .finally(() => controllers.delete(taskId));
});

// Every module, native addons included, is loaded by now: the pool may terminate this thread safely from here on.
port.postMessage({ type: 'ready' } satisfies FromWorker);
