import { parentPort } from 'node:worker_threads';
import { pino } from 'pino';
import { AppError } from '../errors.js';
import { runTask } from './run-task.js';
import type { FromWorker, ToWorker } from './task.js';
import type { Config } from '../config/config.js';
import { ModelRegistry } from '../repositories/models/model-registry.js';
import { ModelStore } from '../repositories/models/model-store.js';
import { ModelRuntime } from '../repositories/models/model-runtime.js';

// Entry point of a worker thread: it only relays messages; runTask holds the pipeline.
if (!parentPort) throw new Error('worker-thread.ts must run inside a worker thread');
const port = parentPort;
const controllers = new Map<number, AbortController>();
const logger = pino({ name: 'worker' });
let models: ModelRuntime | undefined;

function modelsFor(config: Config): ModelRuntime {
  if (!models) {
    const registry = ModelRegistry.load();
    models = new ModelRuntime(new ModelStore(config.models.cacheDir, registry), registry);
  }
  return models;
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'abort') {
    controllers.get(message.taskId)?.abort(new AppError('job_aborted', 503, 'the job was aborted'));
    return;
  }
  const { taskId, task } = message;
  const controller = new AbortController();
  controllers.set(taskId, controller);
  const send = (reply: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);
  const runtime = modelsFor(task.config);
  runTask(task, {
    signal: controller.signal,
    logger: logger.child({ operation: task.operation }),
    progress: (fraction) => send({ type: 'progress', taskId, fraction }),
    models: runtime,
  })
    .then((result) =>
      send({ type: 'done', taskId, result, loadedModels: runtime.loaded() }, [result.bytes.buffer as ArrayBuffer]),
    )
    .catch((error: unknown) => {
      const appError =
        error instanceof AppError ? error : new AppError('processing_failed', 500, 'processing failed unexpectedly');
      if (!(error instanceof AppError)) logger.error({ err: error, operation: task.operation }, 'operation crashed');
      send({ type: 'failed', taskId, error: appError.toJSON(), loadedModels: runtime.loaded() });
    })
    .finally(() => controllers.delete(taskId));
});
