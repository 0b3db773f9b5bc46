import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { buildApp } from '../app.js';
import { loadConfig } from '../config/config.js';
import { createLogger } from '../logger.js';
import { openDatabase } from '../repositories/database/database.js';
import { UserRepository } from '../repositories/user-repository.js';
import { KeyService } from '../services/key-service.js';
import { LicenceService } from '../services/licence-service.js';
import { ADDONS, LicenceRepository } from '../repositories/licence-repository.js';
import { CreditRepository } from '../repositories/credit-repository.js';
import { injectFetch } from './inject-fetch.js';

type Env = Record<string, string | undefined>;

/** Where `npm start` and `roomcraft models install` keep their data when run from the repository. */
const INSTALL_DATA_DIR = path.resolve(import.meta.dirname, '../../data');

export interface EmbeddedServer {
  /** Options for a RoomcraftClient that reaches this server. */
  client: { baseUrl: string; apiKey: string; fetch: typeof fetch };
  /** The models it uses. */
  modelsDir: string;
  /** Stops it (running jobs are aborted) and removes its temporary database and outputs. */
  close(): Promise<void>;
}

/**
 * The models directory the service would use (ROOMCRAFT_MODEL_DIR, else ROOMCRAFT_DATA_DIR/models, else
 * ./data/models), except that without either variable and without ./data/models it takes this checkout's
 * data/models: after `npm start` in the checkout, `roomcraft run` works from any directory.
 */
async function modelsDirOf(env: Env): Promise<string> {
  const configured = loadConfig(env).models.cacheDir;
  if (env.ROOMCRAFT_MODEL_DIR || env.ROOMCRAFT_DATA_DIR) return configured;
  const here = await fs.readdir(configured).then((entries) => entries.length > 0, () => false);
  return here ? configured : loadConfig({ ...env, ROOMCRAFT_DATA_DIR: INSTALL_DATA_DIR }).models.cacheDir;
}

/**
 * The whole service inside this process for one `roomcraft run`, reached without a socket. It reads the models of
 * modelsDirOf() and every other setting of the environment, but keeps its jobs
 * in a temporary SQLite database with a test key of its own, removed when it closes: a running `roomcraft serve` on
 * the same database would otherwise see its pending jobs taken over by this process at start, and each run would
 * leave a key and a job behind.
 */
export async function startEmbeddedServer(env: Env): Promise<EmbeddedServer> {
  const modelsDir = await modelsDirOf(env);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'roomcraft-run-'));
  try {
    const config = loadConfig({
      ...env,
      DATABASE_URL: undefined,
      ROOMCRAFT_DATABASE_SCHEMA: undefined,
      ROOMCRAFT_DATA_DIR: dataDir,
      ROOMCRAFT_MODEL_DIR: modelsDir,
      ROOMCRAFT_ROLES: 'api,worker',
      // One job: one worker thread; Ctrl-C stops it at once; polling is not rate-limited.
      ROOMCRAFT_WORKER_THREADS: '1',
      ROOMCRAFT_SHUTDOWN_GRACE_MS: '0',
      ROOMCRAFT_RATE_LIMIT_PER_MINUTE: '1000000',
      ROOMCRAFT_PUBLIC_URL: 'http://roomcraft.embedded',
      // stdout carries the command's answer; the service's own lines go to stderr, errors only unless LOG_LEVEL says.
      LOG_LEVEL: env.LOG_LEVEL ?? 'error',
    });
    const database = await openDatabase(config);
    try {
      const logger = createLogger(config, { destination: pino.destination({ dest: 2, sync: true }) });
      const app = await buildApp(config, { database, logger });
      await app.ready();
      // A live key on a licence with every add-on and credits no command spends: the result carries no TEST watermark.
      const users = new UserRepository(database.db);
      const { key, email } = await new KeyService(users).createKey('run@roomcraft.invalid', 'live');
      const licences = new LicenceService({ licences: new LicenceRepository(database.db), users, credits: new CreditRepository(database.db) });
      await licences.definePlan({ name: 'embedded', monthlyCredits: 1_000_000_000, addons: [...ADDONS] });
      await licences.grant(email, 'embedded');
      return {
        client: { baseUrl: config.publicUrl, apiKey: key, fetch: injectFetch(app) },
        modelsDir,
        async close() {
          try {
            await app.close();
            await database.close();
          } finally {
            await fs.rm(dataDir, { recursive: true, force: true });
          }
        },
      };
    } catch (error) {
      await database.close();
      throw error;
    }
  } catch (error) {
    await fs.rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
