import { sql, type Kysely } from 'kysely';

// Accounts in the browser: a password (scrypt, its parameters in the stored string) for users who log in to the
// dashboard, who made each user (the command line or a sign-up), the administrator flag, and the sessions, stored by
// the hash of their token only (docs/decisions/0016-accounts-and-sessions.md).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('password_hash', 'text').execute();
  await db.schema.alterTable('users').addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // Every user so far was made from the command line: sign-up did not exist.
  await db.schema.alterTable('users').addColumn('created_from', 'text', (c) => c.notNull().defaultTo('cli')).execute();
  // The first user made from the command line is the administrator: the earliest created, ties broken by id.
  await sql`UPDATE users SET is_admin = 1 WHERE id = (SELECT id FROM users ORDER BY created_at, id LIMIT 1)`.execute(db);

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sessions').execute();
  await db.schema.alterTable('users').dropColumn('created_from').execute();
  await db.schema.alterTable('users').dropColumn('is_admin').execute();
  await db.schema.alterTable('users').dropColumn('password_hash').execute();
}
