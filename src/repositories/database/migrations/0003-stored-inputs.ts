import type { Kysely } from 'kysely';

// Inputs sent as data: URLs live in storage, not in the job's row; each one is recorded here before it is put there,
// so whatever a stopped process leaves behind (a failed submit, a removal that never ran after the settle) is found
// by the sweep and removed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('stored_inputs')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('stored_inputs').execute();
}
