import crypto from 'node:crypto';
import path from 'node:path';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import { createLogger } from './logger.js';
import { loadCatalog, type Catalog } from './catalog/catalog.js';
import { openDatabase, type DatabaseHandle } from './repositories/database/database.js';
import { JobRepository } from './repositories/job-repository.js';
import { IdempotencyRepository } from './repositories/idempotency-repository.js';
import { UserRepository } from './repositories/user-repository.js';
import { WebhookRepository } from './repositories/webhook-repository.js';
import { LocalStorage } from './repositories/storage.js';
import { ModelRegistry } from './repositories/models/model-registry.js';
import { ModelStore } from './repositories/models/model-store.js';
import { createGuardedFetcher } from './repositories/fetcher/guarded-fetcher.js';
import { KeyService } from './services/key-service.js';
import { JobService, type JobQueue } from './services/job-service.js';
import { JobEvents } from './services/job-events.js';
import { WebhookService } from './services/webhook-service.js';
import { StatusService } from './services/status-service.js';
import { BlenderRenderer } from './repositories/blender/blender-renderer.js';
import { WorkerPool } from './jobs/worker-pool.js';
import { JobProcessor } from './jobs/job-processor.js';
import { InProcessQueue } from './jobs/in-process-queue.js';
import { JobSweeper } from './jobs/job-sweeper.js';
import { registerProblemDetails } from './http/plugins/problem-details.js';
import { registerAuthentication } from './http/plugins/authentication.js';
import { registerRateLimit } from './http/plugins/rate-limit.js';
import { registerOpenApi } from './http/plugins/openapi.js';
import { registerCors } from './http/plugins/cors.js';
import { EXPECTED } from './http/validation-messages.js';
import { ProblemSchema } from './http/schemas/problem.js';
import { JobSchema, SyncResultSchema } from './http/schemas/job.js';
import { registerOperationRoutes } from './http/routes/operation-routes.js';
import { registerJobRoutes } from './http/routes/job-routes.js';
import { registerCatalogRoutes } from './http/routes/catalog-routes.js';
import { registerStatusRoutes } from './http/routes/status-routes.js';
import { VERSION } from './version.js';
import type { HttpApp } from './http/http-app.js';

export interface AppDeps {
  /** An open database; when given, the app does not close it. */
  database?: DatabaseHandle;
  logger?: Logger;
  catalog?: Catalog;
}

export type App = HttpApp;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Builds the whole service without listening: the api role registers the routes, the worker role runs jobs and
 * delivers webhooks. Tests drive it with inject(); `roomcraft serve` calls listen().
 */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<App> {
  const logger = deps.logger ?? createLogger(config);
  const database = deps.database ?? (await openDatabase(config));
  const catalog = deps.catalog ?? loadCatalog();
  const isWorker = config.roles.includes('worker');

  const jobRepository = new JobRepository(database.db);
  const userRepository = new UserRepository(database.db);
  const storage = new LocalStorage(path.join(config.dataDir, 'outputs'));
  const models = new ModelStore(config.models.cacheDir, ModelRegistry.load(), { logger: logger.child({ component: 'models' }) });
  const fetcher = createGuardedFetcher(config.fetch);
  const events = new JobEvents();
  const keys = new KeyService(userRepository);
  const webhooks = new WebhookService({
    repository: new WebhookRepository(database.db),
    transport: fetcher,
    secrets: (userId) => keys.webhookSecretOf(userId),
    config: config.webhooks,
    logger: logger.child({ component: 'webhooks' }),
  });

  let queue: JobQueue = { enqueue: () => {} };
  let worker: { pool: WorkerPool; processor: JobProcessor; queue: InProcessQueue; sweeper: JobSweeper } | undefined;
  if (isWorker) {
    const pool = new WorkerPool(config, logger.child({ component: 'workers' }));
    const processor = new JobProcessor({ jobs: jobRepository, storage, pool, events, webhooks, config, logger });
    const inProcess = new InProcessQueue((id) => processor.process(id), pool.threads, logger);
    const sweeper = new JobSweeper({
      jobs: jobRepository,
      idempotency: new IdempotencyRepository(database.db),
      storage,
      queue: inProcess,
      config,
      logger,
    });
    worker = { pool, processor, queue: inProcess, sweeper };
    queue = inProcess;
  }
  const jobs = new JobService({
    jobs: jobRepository,
    idempotency: new IdempotencyRepository(database.db),
    storage,
    events,
    queue,
    catalog,
    config,
  });
  // Only asked whether it can run (cached); the worker threads have their own, which render.
  const blender = new BlenderRenderer({ executable: config.staging.blender });
  const status = new StatusService({
    jobs: jobRepository,
    storage,
    engine: database.engine,
    roles: config.roles,
    version: VERSION,
    workerStats: () => ({
      threads: worker?.pool.threads ?? 0,
      busy: worker?.pool.busy ?? 0,
      queued: (worker?.queue.depth ?? 0) + (worker?.pool.queued ?? 0),
    }),
    models: () => models.list(),
    loadedModels: () => worker?.pool.loadedModels ?? new Set<string>(),
    allowFallbacks: config.models.allowFallbacks,
    renderer: () => blender.available(),
  });

  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Data URLs of an image and a mask at the fetch cap, base64-encoded, plus the JSON around them.
    bodyLimit: Math.ceil((config.fetch.maxBytes * 4) / 3) * 2 + 64 * 1024,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    },
    requestIdHeader: false,
    // verbose: validation errors carry the failing schema and value, so each field gets one message in words
    // (http/validation-messages.ts); EXPECTED is an annotation those messages read.
    ajv: {
      customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: true, allErrors: true, verbose: true, keywords: [EXPECTED] },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerProblemDetails(app);
  // Request bodies are JSON and nothing else: a text/plain body is a 415, as for any other media type.
  app.removeContentTypeParser('text/plain');
  app.addSchema(ProblemSchema);
  app.addSchema(JobSchema);
  app.addSchema(SyncResultSchema);
  await registerOpenApi(app, config, VERSION);
  // Before authentication and rate limiting: a browser's preflight carries no API key.
  registerCors(app, config.cors.origins);
  registerAuthentication(app, keys);
  registerRateLimit(app, config.rateLimit.perMinute);
  registerOperationRoutes(app, { jobs, catalog });
  registerJobRoutes(app, { jobs, jobRepository, storage, config });
  registerCatalogRoutes(app, catalog);
  registerStatusRoutes(app, status);

  app.addHook('onReady', async () => {
    if (!worker) return;
    await worker.sweeper.recoverAtStart();
    worker.sweeper.start();
    webhooks.start();
  });
  app.addHook('onClose', async () => {
    if (worker) {
      worker.sweeper.stop();
      await drainRunningJobs(worker.queue, worker.processor, config.jobs.shutdownGraceMs);
      await worker.pool.close();
    }
    await webhooks.stop();
    await fetcher.close();
    if (!deps.database) await database.close();
  });
  return app;
}

/** Lets running jobs finish within the grace period, then aborts the rest; those stay pending for the next start. */
async function drainRunningJobs(queue: InProcessQueue, processor: JobProcessor, graceMs: number): Promise<void> {
  const drained = queue.close();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  await Promise.race([drained, expired]);
  clearTimeout(timer);
  processor.stop();
  await drained;
}
