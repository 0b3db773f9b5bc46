import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { dropPostgresSchema, openDatabase, type DatabaseHandle, type Db } from '../../src/repositories/database/database.js';

export interface TestDatabase {
  db: Db;
  engine: 'sqlite' | 'postgres';
  /** A fresh temporary directory, also holding the SQLite file; removed by close(). */
  dataDir: string;
  /** Set when testing against PostgreSQL; pass it with databaseSchema and dataDir to loadConfig to share this database. */
  databaseUrl?: string;
  databaseSchema?: string;
  /** Closes the connection and removes everything the database left behind (the schema, the directory). */
  close(): Promise<void>;
}

/** Key of the PostgreSQL advisory lock that test processes hold while they migrate or drop a schema. */
const SCHEMA_LOCK_KEY = 0x526f6f6d; // "Room"

/**
 * Runs `work` while no other test process migrates or drops a schema in the same PostgreSQL database. Kysely's
 * migrator lists the tables of every schema in the database, and that listing fails ("schema ... does not exist")
 * when another test file, running beside this one, drops its schema in the middle of it: a race whose window
 * grows with the machine's load. Holding the lock makes the outcome independent of timing.
 */
export async function underSchemaLock<T>(databaseUrl: string | undefined, work: () => Promise<T>): Promise<T> {
  if (!databaseUrl) return work();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [SCHEMA_LOCK_KEY]);
    return await work();
  } finally {
    // Ending the session releases the lock.
    await client.end();
  }
}

/** Another connection to a test database (as a second process would open it), migrated under the schema lock. */
export function reopenTestDatabase(database: TestDatabase): Promise<DatabaseHandle> {
  return underSchemaLock(database.databaseUrl, () => openDatabase(database));
}

/**
 * A migrated, empty database of its own: SQLite in a temporary directory, or, when ROOMCRAFT_TEST_DATABASE_URL is set,
 * a PostgreSQL schema with a random name, so test files can run side by side in one PostgreSQL database.
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'roomcraft-test-'));
  const databaseUrl = process.env.ROOMCRAFT_TEST_DATABASE_URL || undefined;
  const databaseSchema = databaseUrl ? `t_${randomBytes(8).toString('hex')}` : undefined;
  const handle = await underSchemaLock(databaseUrl, () => openDatabase({ dataDir, databaseUrl, databaseSchema })).catch(
    async (error: unknown) => {
      await fs.rm(dataDir, { recursive: true, force: true });
      if (databaseUrl && databaseSchema) await underSchemaLock(databaseUrl, () => dropPostgresSchema(databaseUrl, databaseSchema)).catch(() => {});
      throw error;
    },
  );
  return {
    db: handle.db,
    engine: handle.engine,
    dataDir,
    ...(databaseUrl ? { databaseUrl, databaseSchema } : {}),
    async close() {
      try {
        await handle.close();
        if (databaseUrl && databaseSchema) await underSchemaLock(databaseUrl, () => dropPostgresSchema(databaseUrl, databaseSchema));
      } finally {
        await fs.rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}
