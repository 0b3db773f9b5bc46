import crypto from 'node:crypto';
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
import { createStorage } from './repositories/create-storage.js';
import { createRateLimitStore } from './repositories/rate-limit-store.js';
import { trustProxyOption } from './http/trust-proxy.js';
import { ModelRegistry } from './repositories/models/model-registry.js';
import { ModelStore } from './repositories/models/model-store.js';
import { createGuardedFetcher } from './repositories/fetcher/guarded-fetcher.js';
import { KeyService } from './services/key-service.js';
import { CreditRepository } from './repositories/credit-repository.js';
import { LicenceRepository } from './repositories/licence-repository.js';
import { CreditService } from './services/credit-service.js';
import { registerAccountRoutes } from './http/routes/account-routes.js';
import { JobService, type JobQueue } from './services/job-service.js';
import { JobEvents } from './services/job-events.js';
import { WebhookService } from './services/webhook-service.js';
import { StatusService } from './services/status-service.js';
import { BlenderRenderer } from './repositories/blender/blender-renderer.js';
import { WorkerPool } from './jobs/worker-pool.js';
import { JobProcessor } from './jobs/job-processor.js';
import { InProcessQueue } from './jobs/in-process-queue.js';
import { openRedis } from './repositories/redis-connection.js';
import { RedisJobConsumer, RedisJobQueue } from './repositories/queue/redis-job-queue.js';
import { SettleChannel } from './repositories/queue/settle-channel.js';
import { registerHealthRoute } from './http/routes/health-routes.js';
import { JobSweeper } from './jobs/job-sweeper.js';
import { registerProblemDetails, problemOnClientError, problemOnFrameworkError } from './http/plugins/problem-details.js';
import { registerJsonBody, dataUrlBodyLimit, SMALL_BODY_LIMIT_BYTES } from './http/plugins/json-body.js';
import { registerAuthentication, registerSessionAuthentication } from './http/plugins/authentication.js';
import { registerDashboardApi } from './http/routes/dashboard-api-routes.js';
import { sessionCookie } from './http/session-cookie.js';
import { SessionRepository } from './repositories/session-repository.js';
import { SessionService } from './services/session-service.js';
import { AccountService } from './services/account-service.js';
import { LoginThrottle } from './services/login-throttle.js';
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
import { registerMetricsRoutes } from './http/routes/metrics-routes.js';
import { registerDashboardRoutes } from './http/routes/dashboard-routes.js';
import { registerDashboardDeliveryRoutes } from './http/routes/dashboard-redeliver-routes.js';
import { MetricsRepository } from './repositories/metrics-repository.js';
import { createServiceMetrics } from './services/metrics/service-metrics.js';
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
 * Builds the whole service without listening: the api role serves the API and queues jobs, the worker role runs jobs
 * and delivers webhooks and serves only /health; embedded is both. Tests drive it with inject(); `roomcraft serve`
 * calls listen().
 */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<App> {
  const logger = deps.logger ?? createLogger(config);
  const database = deps.database ?? (await openDatabase(config));
  const catalog = deps.catalog ?? loadCatalog();
  const isWorker = config.roles.includes('worker');
  const isApi = config.roles.includes('api');

  const jobRepository = new JobRepository(database.db);
  const userRepository = new UserRepository(database.db);
  const storage = await createStorage(config);
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
  const redis = config.redisUrl ? openRedis(config.redisUrl, config.roles.join('+')) : undefined;
  const settleChannel = redis ? new SettleChannel(redis, config.redisPrefix) : undefined;
  const redisQueue = redis ? new RedisJobQueue(redis, config.redisPrefix, logger.child({ component: 'queue' })) : undefined;

  let queue: JobQueue = redisQueue ?? { enqueue: () => {} };
  let worker: WorkerParts | undefined;
  if (isWorker) {
    const pool = new WorkerPool(config, logger.child({ component: 'workers' }));
    const processor = new JobProcessor({
      jobs: jobRepository,
      storage,
      pool,
      events,
      webhooks,
      ...(settleChannel ? { publisher: settleChannel } : {}),
      config,
      logger,
    });
    const handle = (id: string) => processor.process(id);
    // With Redis, ids come from the shared queues; embedded, from memory. The sweep feeds whichever it is.
    const intake: Intake = redis
      ? new RedisJobConsumer({
          connection: redis,
          prefix: config.redisPrefix,
          queues: config.jobs.queues,
          // One render at a time per process (they take every core); light jobs as many as there are threads.
          concurrency: { light: pool.threads, heavy: 1 },
          leaseMs: config.jobs.leaseMs,
          handle,
          logger: logger.child({ component: 'queue' }),
        })
      : new InProcessQueue(handle, pool.threads, logger);
    if (intake instanceof InProcessQueue) queue = intake;
    const sweeper = new JobSweeper({
      jobs: jobRepository,
      idempotency: new IdempotencyRepository(database.db),
      storage,
      queue,
      config,
      logger,
    });
    worker = { pool, processor, intake, sweeper };
  } else if (!redis) {
    logger.warn('the api role without REDIS_URL cannot wake workers: they find new jobs at their next sweep (ROOMCRAFT_SWEEP_INTERVAL_MS)');
  }
  const credits = new CreditService({ credits: new CreditRepository(database.db), licences: new LicenceRepository(database.db), config });
  const jobs = new JobService({
    credits,
    jobs: jobRepository,
    idempotency: new IdempotencyRepository(database.db),
    storage,
    events,
    queue,
    catalog,
    config,
    fetcher,
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
      queued: (worker?.intake instanceof InProcessQueue ? worker.intake.depth : 0) + (worker?.pool.queued ?? 0),
    }),
    models: () => models.list(),
    loadedModels: () => worker?.pool.loadedModels ?? new Set<string>(),
    allowFallbacks: config.models.allowFallbacks,
    renderer: () => blender.available(),
  });

  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Only the processing routes take data: URLs; they set their own, larger, limit (operation-routes.ts).
    bodyLimit: SMALL_BODY_LIMIT_BYTES,
    // Whose X-Forwarded-For is believed (request.ip, the anonymous rate-limit budget): the listed proxies only.
    trustProxy: trustProxyOption(config.trustProxy),
    // Every 4xx is a problem, including what the router and Node's HTTP parser refuse before any route runs.
    frameworkErrors: problemOnFrameworkError,
    clientErrorHandler: problemOnClientError,
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
  if (isApi) {
    // Request bodies are JSON and nothing else: a text/plain body is a 415, as for any other media type.
    app.removeContentTypeParser('text/plain');
    registerJsonBody(app);
    app.addSchema(ProblemSchema);
    app.addSchema(JobSchema);
    app.addSchema(SyncResultSchema);
    await registerOpenApi(app, config, VERSION);
    // Before authentication and rate limiting: a browser's preflight carries no API key.
    registerCors(app, config.cors.origins);
    registerAuthentication(app, keys);
    const sessionAccess = { sessions: new SessionService(new SessionRepository(database.db)), cookie: sessionCookie(config.publicUrl), publicUrl: config.publicUrl };
    registerSessionAuthentication(app, sessionAccess);
    const counters = createRateLimitStore(config, logger.child({ component: 'rate-limit' }));
    registerRateLimit(app, config.rateLimit.perMinute, { store: counters });
    registerDashboardApi(app, {
      ...sessionAccess,
      accounts: new AccountService(userRepository),
      keys,
      throttle: new LoginThrottle(counters, logger.child({ component: 'log-in' })),
      licences: new LicenceRepository(database.db),
    });
    registerOperationRoutes(app, { jobs, catalog, destinations: fetcher, bodyLimit: dataUrlBodyLimit(config.fetch.maxBytes) });
    registerJobRoutes(app, { jobs, jobRepository, storage, config, webhooks });
    registerAccountRoutes(app, { credits });
    registerDashboardRoutes(app, { config });
    registerDashboardDeliveryRoutes(app, { jobs: jobRepository, deliveries: new WebhookRepository(database.db), webhooks, publicUrl: config.publicUrl });
    registerCatalogRoutes(app, catalog);
    registerStatusRoutes(app, status);
    registerMetricsRoutes(app, createServiceMetrics(new MetricsRepository(database.db)));
  }
  registerHealthRoute(app, { roles: config.roles, ping: () => jobRepository.countByStatus().then(() => undefined) });

  app.addHook('onReady', async () => {
    // API processes hear of jobs settled by workers elsewhere, so synchronous requests answer at once.
    // Not awaited: an API process starts and serves while Redis is away; until the subscription holds, waiting
    // requests see their job settle at their next re-read (every second).
    if (isApi && settleChannel) {
      settleChannel.subscribe((id) => events.settled(id), logger).catch((error: unknown) => {
        logger.warn({ err: error }, 'could not subscribe to settle notices; synchronous requests fall back to re-reading');
      });
    }
    if (!worker) return;
    await worker.sweeper.recoverAtStart();
    worker.sweeper.start();
    webhooks.start();
  });
  app.addHook('onClose', async () => {
    if (worker) {
      worker.sweeper.stop();
      await drainRunningJobs(worker.intake, worker.processor, config.jobs.shutdownGraceMs);
      await worker.pool.close();
    }
    await webhooks.stop();
    await settleChannel?.close();
    await redisQueue?.close();
    await redis?.quit().catch(() => {});
    await fetcher.close();
    if (!deps.database) await database.close();
  });
  return app;
}

/** Where a worker's jobs come from: stops taking new ones on close() and resolves when the taken ones are handled. */
interface Intake {
  close(): Promise<void>;
}

interface WorkerParts {
  pool: WorkerPool;
  processor: JobProcessor;
  intake: Intake;
  sweeper: JobSweeper;
}

/**
 * Lets running jobs finish within the grace period, then aborts the rest; their claims are given up, so another
 * worker's sweep (or this process at its next start) queues them again without waiting for a lease to lapse.
 */
async function drainRunningJobs(intake: Intake, processor: JobProcessor, graceMs: number): Promise<void> {
  const drained = intake.close();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  await Promise.race([drained, expired]);
  clearTimeout(timer);
  processor.stop();
  await drained;
}
