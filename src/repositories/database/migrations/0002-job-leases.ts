import type { Kysely } from 'kysely';

// Claims with a lease (owner, expiry) replace "pending and not started" as the test of who runs a job, so two workers
// on one database never run the same attempt; `queue` keeps the lane a job was submitted to for the sweep's re-queue.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('lease_owner', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('lease_expires_at', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('queue', 'text', (c) => c.notNull().defaultTo('light')).execute();
  await db.schema.createIndex('jobs_user_created_idx').on('jobs').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('jobs_user_created_idx').execute();
  await db.schema.alterTable('jobs').dropColumn('queue').execute();
  await db.schema.alterTable('jobs').dropColumn('lease_expires_at').execute();
  await db.schema.alterTable('jobs').dropColumn('lease_owner').execute();
}
