import path from 'node:path';
import { buildApp, type App } from '../../src/app.js';
import { loadConfig, type Config, type DeepPartial } from '../../src/config/config.js';
import { UserRepository } from '../../src/repositories/user-repository.js';
import { KeyService, type CreatedKey } from '../../src/services/key-service.js';
import { LicenceService } from '../../src/services/licence-service.js';
import { ADDONS, LicenceRepository } from '../../src/repositories/licence-repository.js';
import { CreditRepository } from '../../src/repositories/credit-repository.js';
import { acquireSharedServices } from './shared-services.js';
import { openTestDatabase, type TestDatabase } from './test-database.js';
import { HANG_MS } from './until.js';

export interface TestApp {
  app: App;
  config: Config;
  database: TestDatabase;
  user: CreatedKey;
  /** Headers that authenticate as `user`. */
  auth: { authorization: string };
  /** Another user, for ownership checks. */
  createUser(email: string, kind?: 'test' | 'live'): Promise<CreatedKey>;
  close(): Promise<void>;
}

/**
 * The whole service on a fresh database (SQLite, or PostgreSQL under ROOMCRAFT_TEST_DATABASE_URL), loopback fetches
 * allowed; its outputs on local disk, or under ROOMCRAFT_TEST_S3=1 in an s3rver bucket (unless the test chose its
 * storage); its queues in memory, or on Redis under ROOMCRAFT_TEST_REDIS_URL (see ./shared-services.ts).
 */
export async function startTestApp(overrides: DeepPartial<Config> = {}, database?: TestDatabase): Promise<TestApp> {
  const db = database ?? (await openTestDatabase());
  const shared = await acquireSharedServices(db.dataDir, overrides.storage !== undefined);
  const config = loadConfig(
    {},
    {
      dataDir: db.dataDir,
      logLevel: 'silent',
      publicUrl: 'http://roomcraft.test',
      // Tests poll get-job in tight loops; the rate-limit test sets its own budget.
      rateLimit: { perMinute: 1_000_000 },
      ...shared.overrides,
      ...overrides,
      // Fetches, synchronous waits and webhook sends that should succeed get all the time a loaded machine needs;
      // a test that wants one of them to time out says so, with something on the other side that never answers.
      fetch: { allow: ['127.0.0.1/32'], connectTimeoutMs: HANG_MS, totalTimeoutMs: HANG_MS, ...overrides.fetch },
      jobs: { workerThreads: 1, syncWaitMs: HANG_MS, ...overrides.jobs },
      webhooks: { retryDelaysMs: [50, 50, 50], pollIntervalMs: 25, timeoutMs: HANG_MS, ...overrides.webhooks },
      // The models `npm test` installed into the repository's data directory, shared by every test app.
      models: { cacheDir: process.env.ROOMCRAFT_MODEL_DIR ?? path.resolve(import.meta.dirname, '../../data/models'), ...overrides.models },
    },
  );
  const app = await buildApp(config, { database: { db: db.db, engine: db.engine, close: async () => {} } });
  await app.ready();
  const keys = new KeyService(new UserRepository(db.db));
  const user = await keys.createKey('owner@example.com', 'live');
  // The owner holds a licence with credits no test runs out of and every add-on, so live-key jobs run as before;
  // the refusals of credits and plans have tests of their own.
  const licences = new LicenceService({ licences: new LicenceRepository(db.db), users: new UserRepository(db.db), credits: new CreditRepository(db.db) });
  await licences.definePlan({ name: 'test-suite', monthlyCredits: 1_000_000, addons: [...ADDONS] });
  await licences.grant(user.email, 'test-suite');
  return {
    app,
    config,
    database: db,
    user,
    auth: { authorization: `Bearer ${user.key}` },
    createUser: (email, kind = 'test') => keys.createKey(email, kind),
    async close() {
      await app.close();
      await shared.release();
      if (!database) await db.close();
    },
  };
}
