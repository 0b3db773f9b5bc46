import path from 'node:path';
import os from 'node:os';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { createAddressPolicy } from '../security/address-policy.js';

/**
 * Every tunable of the service, validated once at boot. Defaults are documented in docs/configuration.md;
 * nothing else in the code reads the environment.
 */
export const ConfigSchema = Type.Object({
  /** Which parts this process runs: `api` serves HTTP, `worker` processes jobs; embedded mode is both. */
  roles: Type.Array(Type.Union([Type.Literal('api'), Type.Literal('worker')]), { minItems: 1 }),
  host: Type.String(),
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  /** Base of the `output` URLs handed to clients, without a trailing slash. */
  publicUrl: Type.String(),
  dataDir: Type.String(),
  /** PostgreSQL connection string; SQLite file in dataDir when absent. */
  databaseUrl: Type.Optional(Type.String()),
  /** PostgreSQL schema (search_path) to use; lets tests run side by side in one database. */
  databaseSchema: Type.Optional(Type.String()),
  /**
   * Redis connection string. Set: jobs go through BullMQ queues on it, API processes share one rate-limit count,
   * and settled jobs are announced to every API process. Unset: the embedded in-process queue and counters.
   */
  redisUrl: Type.Optional(Type.String()),
  /** Prefix of every Redis key and queue name, so several deployments (or tests) can share one Redis. */
  redisPrefix: Type.String({ minLength: 1 }),
  /**
   * Addresses or CIDRs of the reverse proxies in front of the service, whose X-Forwarded-For is believed; empty:
   * the connection's own address is the client's.
   */
  trustProxy: Type.Array(Type.String()),
  storage: Type.Object({
    /** `local`: files under dataDir/outputs; `s3`: an S3-compatible bucket (AWS S3, MinIO, R2, ...). */
    driver: Type.Union([Type.Literal('local'), Type.Literal('s3')]),
    s3: Type.Object({
      /** Endpoint URL for a non-AWS service (`http://127.0.0.1:9000`); AWS's own when absent. */
      endpoint: Type.Optional(Type.String()),
      region: Type.String(),
      bucket: Type.String(),
      /** Key prefix inside the bucket (`roomcraft/`), so one bucket can serve several deployments. */
      prefix: Type.String(),
      accessKeyId: Type.Optional(Type.String()),
      secretAccessKey: Type.Optional(Type.String()),
      /** Path-style addressing (`endpoint/bucket/key`), which MinIO and most self-hosted services need. */
      forcePathStyle: Type.Boolean(),
      /**
       * Longest a request to the store may take, connection included, before it fails (and the SDK retries it): a
       * store that stops answering must not hold a job's settle or a download for ever.
       */
      timeoutMs: Type.Integer({ minimum: 1 }),
    }),
  }),
  logLevel: Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l))),
  cors: Type.Object({
    /** Exact origins (`https://app.example.com`) whose browser pages may call the API; none by default. */
    origins: Type.Array(Type.String()),
  }),
  rateLimit: Type.Object({
    perMinute: Type.Integer({ minimum: 1 }),
  }),
  fetch: Type.Object({
    /** Hosts or CIDRs the guarded fetcher may reach although they are private or loopback. */
    allow: Type.Array(Type.String()),
    maxBytes: Type.Integer({ minimum: 1 }),
    maxRedirects: Type.Integer({ minimum: 0 }),
    connectTimeoutMs: Type.Integer({ minimum: 1 }),
    totalTimeoutMs: Type.Integer({ minimum: 1 }),
  }),
  image: Type.Object({
    maxInputPixels: Type.Integer({ minimum: 1 }),
    maxOutputPixels: Type.Integer({ minimum: 1 }),
    jpegQuality: Type.Integer({ minimum: 1, maximum: 100 }),
  }),
  jobs: Type.Object({
    workerThreads: Type.Integer({ minimum: 1 }),
    /**
     * Which queues a worker takes jobs from: `heavy` (staging renders, redesign, large upscales) and `light`
     * (everything else), so an operator can give renders their own machines. Only read with Redis.
     */
    queues: Type.Array(Type.Union([Type.Literal('light'), Type.Literal('heavy')]), { minItems: 1 }),
    /**
     * How long a worker's claim on a job lasts without renewal; renewed every third of it while the job runs. A worker
     * that dies loses its claim this long after its last renewal, and the job runs again elsewhere.
     */
    leaseMs: Type.Integer({ minimum: 1000 }),
    syncWaitMs: Type.Integer({ minimum: 1 }),
    maxAttempts: Type.Integer({ minimum: 1 }),
    /** A job running longer than this is aborted and failed. */
    timeoutMs: Type.Integer({ minimum: 1 }),
    outputRetentionHours: Type.Number({ exclusiveMinimum: 0 }),
    sweepIntervalMs: Type.Integer({ minimum: 1 }),
    /** How long shutdown waits for running jobs before leaving them pending for the next start. */
    shutdownGraceMs: Type.Integer({ minimum: 0 }),
  }),
  webhooks: Type.Object({
    /** Delay before each retry, in milliseconds; jitter of ±jitterRatio is applied to each. */
    retryDelaysMs: Type.Array(Type.Integer({ minimum: 0 })),
    jitterRatio: Type.Number({ minimum: 0, maximum: 1 }),
    timeoutMs: Type.Integer({ minimum: 1 }),
    pollIntervalMs: Type.Integer({ minimum: 1 }),
  }),
  idempotencyTtlHours: Type.Number({ exclusiveMinimum: 0 }),
  testKeys: Type.Object({
    /** Jobs a user may make with test keys per UTC day (free and watermarked); 0 turns test keys' jobs off. */
    dailyJobs: Type.Integer({ minimum: 0 }),
  }),
  models: Type.Object({
    cacheDir: Type.String(),
    /**
     * Whether an operation whose model is missing may answer with a lesser engine (Lanczos-3 instead of a network,
     * the classical retouch instead of the learned one, ...). Off: it answers 503 naming the model. On: the result
     * says which fallback ran and why, in the job's `result.fallbacks` and the X-Roomcraft-Degraded header.
     */
    allowFallbacks: Type.Boolean(),
  }),
  staging: Type.Object({
    /** The Blender executable (Debian's 3.4; Cycles on the CPU renders the furniture). */
    blender: Type.String({ minLength: 1 }),
    /** Cycles samples per pixel of a staging render: more is less noise and more time (docs/benchmarks.md). */
    samples: Type.Integer({ minimum: 1, maximum: 4096 }),
    /** Render threads; 0 uses every core (one render runs at a time per process). */
    threads: Type.Integer({ minimum: 0 }),
  }),
});

export type Config = Static<typeof ConfigSchema>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Standard Webhooks' suggested schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (about 27.6 h in all). */
const DEFAULT_WEBHOOK_RETRY_DELAYS_MS = [5_000, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

type Env = Record<string, string | undefined>;

function list(value: string | undefined): string[] {
  return (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new ConfigError(`${name} must be a number, got "${raw}"`);
  return n;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * An origin as browsers send it in `Origin`: scheme, host and port only (`https://app.example.com`,
 * `http://localhost:5173`), compared exactly. A wildcard is refused: an API key used from a browser page is visible
 * to everyone who opens that page, so each origin is a decision.
 */
function checkOrigin(origin: string): string | undefined {
  if (origin === '*') return 'a wildcard is not accepted; list each origin';
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return 'is not an origin such as https://app.example.com';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must start with http:// or https://';
  if (url.origin !== origin) return `is not an exact origin (scheme://host[:port], no path or trailing slash): did you mean ${url.origin}?`;
  return undefined;
}

/** Builds the config from environment variables, then applies overrides (used by tests and the CLI). */
export function loadConfig(env: Env = {}, overrides: DeepPartial<Config> = {}): Config {
  const port = int(env, 'PORT', 8080);
  const dataDir = path.resolve(env.ROOMCRAFT_DATA_DIR ?? './data');
  const base: Config = {
    roles: (list(env.ROOMCRAFT_ROLES).length ? list(env.ROOMCRAFT_ROLES) : ['api', 'worker']) as Config['roles'],
    host: env.HOST ?? '0.0.0.0',
    port,
    publicUrl: (env.ROOMCRAFT_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.ROOMCRAFT_DATABASE_SCHEMA || undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.ROOMCRAFT_REDIS_PREFIX || 'roomcraft',
    trustProxy: list(env.ROOMCRAFT_TRUST_PROXY),
    storage: {
      driver: (env.ROOMCRAFT_STORAGE || 'local') as Config['storage']['driver'],
      s3: {
        endpoint: env.ROOMCRAFT_S3_ENDPOINT || undefined,
        region: env.ROOMCRAFT_S3_REGION || 'us-east-1',
        bucket: env.ROOMCRAFT_S3_BUCKET ?? '',
        prefix: env.ROOMCRAFT_S3_PREFIX ?? '',
        accessKeyId: env.ROOMCRAFT_S3_ACCESS_KEY_ID || undefined,
        secretAccessKey: env.ROOMCRAFT_S3_SECRET_ACCESS_KEY || undefined,
        forcePathStyle: bool(env, 'ROOMCRAFT_S3_PATH_STYLE', true),
        timeoutMs: int(env, 'ROOMCRAFT_S3_TIMEOUT_MS', 120_000),
      },
    },
    logLevel: (env.LOG_LEVEL ?? 'info') as Config['logLevel'],
    cors: { origins: list(env.ROOMCRAFT_CORS_ORIGINS) },
    rateLimit: { perMinute: int(env, 'ROOMCRAFT_RATE_LIMIT_PER_MINUTE', 120) },
    fetch: {
      allow: list(env.ROOMCRAFT_FETCH_ALLOW),
      maxBytes: int(env, 'ROOMCRAFT_FETCH_MAX_BYTES', 25 * 1024 * 1024),
      maxRedirects: int(env, 'ROOMCRAFT_FETCH_MAX_REDIRECTS', 3),
      connectTimeoutMs: int(env, 'ROOMCRAFT_FETCH_CONNECT_TIMEOUT_MS', 5_000),
      totalTimeoutMs: int(env, 'ROOMCRAFT_FETCH_TIMEOUT_MS', 30_000),
    },
    image: {
      maxInputPixels: int(env, 'ROOMCRAFT_MAX_INPUT_PIXELS', 50_000_000),
      maxOutputPixels: int(env, 'ROOMCRAFT_MAX_OUTPUT_PIXELS', 64_000_000),
      jpegQuality: int(env, 'ROOMCRAFT_JPEG_QUALITY', 95),
    },
    jobs: {
      workerThreads: int(env, 'ROOMCRAFT_WORKER_THREADS', Math.max(1, Math.min(os.availableParallelism(), 4))),
      queues: (list(env.ROOMCRAFT_QUEUES).length ? list(env.ROOMCRAFT_QUEUES) : ['light', 'heavy']) as Config['jobs']['queues'],
      leaseMs: int(env, 'ROOMCRAFT_JOB_LEASE_MS', 30_000),
      syncWaitMs: int(env, 'ROOMCRAFT_SYNC_WAIT_MS', 300_000),
      maxAttempts: int(env, 'ROOMCRAFT_JOB_MAX_ATTEMPTS', 3),
      timeoutMs: int(env, 'ROOMCRAFT_JOB_TIMEOUT_MS', 60 * MINUTE),
      outputRetentionHours: int(env, 'ROOMCRAFT_OUTPUT_RETENTION_HOURS', 7 * 24),
      sweepIntervalMs: int(env, 'ROOMCRAFT_SWEEP_INTERVAL_MS', MINUTE),
      shutdownGraceMs: int(env, 'ROOMCRAFT_SHUTDOWN_GRACE_MS', 30_000),
    },
    webhooks: {
      retryDelaysMs: list(env.ROOMCRAFT_WEBHOOK_RETRY_DELAYS_MS).length
        ? list(env.ROOMCRAFT_WEBHOOK_RETRY_DELAYS_MS).map(Number)
        : DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
      jitterRatio: 0.2,
      timeoutMs: int(env, 'ROOMCRAFT_WEBHOOK_TIMEOUT_MS', 15_000),
      pollIntervalMs: int(env, 'ROOMCRAFT_WEBHOOK_POLL_MS', 1_000),
    },
    idempotencyTtlHours: int(env, 'ROOMCRAFT_IDEMPOTENCY_TTL_HOURS', 24),
    testKeys: { dailyJobs: int(env, 'ROOMCRAFT_TEST_DAILY_JOBS', 100) },
    models: {
      cacheDir: path.resolve(env.ROOMCRAFT_MODEL_DIR ?? path.join(dataDir, 'models')),
      allowFallbacks: bool(env, 'ROOMCRAFT_ALLOW_MODEL_FALLBACKS', false),
    },
    staging: {
      blender: env.ROOMCRAFT_BLENDER || 'blender',
      samples: int(env, 'ROOMCRAFT_STAGING_SAMPLES', 192),
      threads: int(env, 'ROOMCRAFT_STAGING_THREADS', 0),
    },
  };
  const config = deepMerge(base, overrides) as Config;
  const errors = [...Value.Errors(ConfigSchema, config)];
  if (errors.length > 0) {
    throw new ConfigError(`invalid configuration: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`);
  }
  if (config.storage.driver === 's3' && !config.storage.s3.bucket) {
    throw new ConfigError('ROOMCRAFT_STORAGE=s3 needs ROOMCRAFT_S3_BUCKET (and ROOMCRAFT_S3_ENDPOINT for a service other than AWS)');
  }
  for (const origin of config.cors.origins) {
    const problem = checkOrigin(origin);
    if (problem) throw new ConfigError(`ROOMCRAFT_CORS_ORIGINS: "${origin}" ${problem}`);
  }
  try {
    createAddressPolicy(config.fetch.allow);
  } catch (error) {
    throw new ConfigError(`ROOMCRAFT_FETCH_ALLOW: ${(error as Error).message}`);
  }
  return config;
}

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends unknown[] ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K] };

function deepMerge(target: unknown, source: unknown): unknown {
  if (source === undefined) return target;
  if (!isPlainObject(target) || !isPlainObject(source)) return source;
  const out: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(source)) out[key] = deepMerge(out[key], value);
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
