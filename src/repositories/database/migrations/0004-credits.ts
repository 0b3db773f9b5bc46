import type { Kysely } from 'kysely';

// Plans, licences and credits. The ledger is the record of every credit granted, charged and refunded; the balance
// row is a cache of its sum, kept in the same transactions as the ledger lines, so that a charge is one conditional
// UPDATE that two racing requests cannot both pass (docs/decisions/0015-credits-ledger.md).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('plans')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('monthly_credits', 'integer', (c) => c.notNull())
    .addColumn('addons', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('licences')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('plan_name', 'text', (c) => c.notNull().references('plans.name'))
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('ends_at', 'text')
    .addColumn('granted_by', 'text', (c) => c.notNull())
    .addColumn('external_ref', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('licences_user_idx').on('licences').columns(['user_id', 'starts_at']).execute();

  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('entry', 'text', (c) => c.notNull())
    .addColumn('item', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('balance_after', 'integer', (c) => c.notNull())
    .addColumn('job_id', 'text')
    .addColumn('operation', 'text')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('dedupe_key', 'text', (c) => c.unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('credit_ledger_user_idx').on('credit_ledger').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('credit_ledger_job_idx').on('credit_ledger').column('job_id').execute();

  await db.schema
    .createTable('credit_balances')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id'))
    .addColumn('balance', 'integer', (c) => c.notNull())
    .addColumn('next_grant_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('test_key_usage')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('jobs', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('test_key_usage_pk', ['user_id', 'day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['test_key_usage', 'credit_balances', 'credit_ledger', 'licences', 'plans']) {
    await db.schema.dropTable(table).execute();
  }
}
