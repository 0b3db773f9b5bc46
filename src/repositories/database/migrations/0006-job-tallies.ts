import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { recountJobTallies } from '../../job-tallies.js';

// Settled jobs counted per operation, status and duration bucket, kept in the transactions that settle them:
// /metrics, /health and the status page had counted them by scanning every job the database holds, which grows without
// end (job records are kept) and, on SQLite, blocks the process while it runs.
export async function up(db: Kysely<unknown>): Promise<void> {
  // If not there yet: SQLite runs migrations outside a transaction, so a process stopped during the recount leaves the
  // table behind with the migration unrecorded, and the next start runs it again (the recount starts afresh).
  await db.schema
    .createTable('job_tallies')
    .ifNotExists()
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('duration_bucket', 'integer', (c) => c.notNull())
    .addColumn('jobs', 'bigint', (c) => c.notNull())
    .addColumn('seconds', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('job_tallies_pk', ['operation', 'status', 'duration_bucket'])
    .execute();
  await recountJobTallies(db as Kysely<Database>);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job_tallies').execute();
}
