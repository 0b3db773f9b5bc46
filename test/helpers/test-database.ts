import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { dropPostgresSchema, openDatabase, type Db } from '../../src/repositories/database/database.js';

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

/**
 * A migrated, empty database of its own: SQLite in a temporary directory, or, when ROOMCRAFT_TEST_DATABASE_URL is set,
 * a PostgreSQL schema with a random name, so test files can run side by side in one PostgreSQL database.
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'roomcraft-test-'));
  const databaseUrl = process.env.ROOMCRAFT_TEST_DATABASE_URL || undefined;
  const databaseSchema = databaseUrl ? `t_${randomBytes(8).toString('hex')}` : undefined;
  const handle = await openDatabase({ dataDir, databaseUrl, databaseSchema }).catch(async (error: unknown) => {
    await fs.rm(dataDir, { recursive: true, force: true });
    if (databaseUrl && databaseSchema) await dropPostgresSchema(databaseUrl, databaseSchema).catch(() => {});
    throw error;
  });
  return {
    db: handle.db,
    engine: handle.engine,
    dataDir,
    ...(databaseUrl ? { databaseUrl, databaseSchema } : {}),
    async close() {
      try {
        await handle.close();
        if (databaseUrl && databaseSchema) await dropPostgresSchema(databaseUrl, databaseSchema);
      } finally {
        await fs.rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}
