import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration } from 'kysely';
import type { Config } from '../../config/config.js';
import type { Database } from './schema.js';
import * as initial from './migrations/0001-initial.js';
import * as jobLeases from './migrations/0002-job-leases.js';
import * as storedInputs from './migrations/0003-stored-inputs.js';
import * as credits from './migrations/0004-credits.js';
import * as accounts from './migrations/0005-accounts.js';
import * as jobTallies from './migrations/0006-job-tallies.js';

export type Db = Kysely<Database>;

const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-job-leases': jobLeases,
  '0003-stored-inputs': storedInputs,
  '0004-credits': credits,
  '0005-accounts': accounts,
  '0006-job-tallies': jobTallies,
};

export interface DatabaseHandle {
  db: Db;
  engine: 'sqlite' | 'postgres';
  close(): Promise<void>;
}

/** Opens the database named by the config (PostgreSQL when `databaseUrl` is set) and brings it to the latest migration. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>): Promise<DatabaseHandle> {
  const handle = config.databaseUrl ? await openPostgres(config.databaseUrl, config.databaseSchema) : openSqlite(config.dataDir);
  await migrate(handle.db, config.databaseUrl ? config.databaseSchema : undefined);
  return handle;
}

function openSqlite(dataDir: string): DatabaseHandle {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = new SQLite(path.join(dataDir, 'roomcraft.sqlite'));
  // WAL lets the status page and the API read while a job row is written; NORMAL is durable across process crashes.
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('busy_timeout = 5000');
  file.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) });
  return { db, engine: 'sqlite', close: () => db.destroy() };
}

async function openPostgres(url: string, schema: string | undefined): Promise<DatabaseHandle> {
  if (schema) {
    if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid database schema name "${schema}"`);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: 'postgres', close: () => db.destroy() };
}

async function migrate(db: Db, schema: string | undefined): Promise<void> {
  // Kysely looks for its bookkeeping tables in every schema; naming ours keeps side-by-side schemas apart.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

/** Drops a PostgreSQL schema created for a test run. */
export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

export { sql };
