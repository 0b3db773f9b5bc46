import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from './database/database.js';
import type { ApiKeysTable, Database, KeyKind, UsersTable } from './database/schema.js';

/** Who a request acts for. */
export interface KeyOwner {
  userId: string;
  /** The API key's id; `session` for the dashboard's playground, a logged-in browser acting as a test key. */
  keyId: string;
  kind: KeyKind;
}

/** A user row with its account columns (password hash, administrator flag, origin). */
export type Account = Selectable<Database['users']>;

export class UserRepository {
  constructor(private readonly db: Db) {}

  async findByEmail(email: string): Promise<UsersTable | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  async findById(id: string): Promise<UsersTable | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Adds a user; one made from the command line (`created_from` left at its default, `cli`) becomes the administrator
   * when no user is one yet (promoteFirstCliUser).
   */
  async createUser(user: Insertable<Database['users']>): Promise<void> {
    await this.db.insertInto('users').values(user).execute();
    if ((user.created_from ?? 'cli') === 'cli') await this.promoteFirstCliUser();
  }

  /**
   * Makes the earliest user made from the command line (ties broken by id) the administrator, unless some user already
   * is one. One statement: processes creating users at once all pick the same, earliest, user.
   */
  private async promoteFirstCliUser(): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ is_admin: 1 })
      .where('id', '=', (eb) =>
        eb.selectFrom('users').select('id').where('created_from', '=', 'cli').orderBy('created_at').orderBy('id').limit(1),
      )
      .where((eb) => eb.not(eb.exists(eb.selectFrom('users').select('id').where('is_admin', '=', 1))))
      .execute();
  }

  /**
   * The account whose email is `email` ignoring case (sign-up stores emails lower-cased; the command line as typed).
   * Where several differ only in case, the one written exactly so, or none.
   */
  async findAccountByEmail(email: string): Promise<Account | undefined> {
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .where(sql<string>`lower(${sql.ref('email')})`, '=', email.toLowerCase())
      .execute();
    return rows.length === 1 ? rows[0] : rows.find((row) => row.email === email);
  }

  async findAccountById(id: string): Promise<Account | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    await this.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
  }

  async setWebhookSecret(userId: string, secret: string): Promise<void> {
    await this.db.updateTable('users').set({ webhook_secret: secret }).where('id', '=', userId).execute();
  }

  async createKey(key: ApiKeysTable): Promise<void> {
    await this.db.insertInto('api_keys').values(key).execute();
  }

  async findOwnerByKeyHash(keyHash: string): Promise<KeyOwner | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .select(['id', 'user_id', 'kind'])
      .where('key_hash', '=', keyHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row && { userId: row.user_id, keyId: row.id, kind: row.kind };
  }

  async listKeys(userId: string): Promise<ApiKeysTable[]> {
    return this.db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
  }

  /**
   * Active keys whose listed prefix begins with `start`. Compared with substr rather than LIKE: prefixes hold `_`, a
   * LIKE wildcard, and SQLite's LIKE ignores case, which base64url does not.
   */
  async findActiveKeysByPrefixStart(start: string): Promise<ApiKeysTable[]> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where(sql<string>`substr(${sql.ref('prefix')}, 1, ${sql.lit(start.length)})`, '=', start)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** One of the user's keys, by its id; undefined for another user's key. */
  async findKey(userId: string, keyId: string): Promise<ApiKeysTable | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('id', '=', keyId).where('user_id', '=', userId).executeTakeFirst();
  }

  /** Revokes one key; false when it was already revoked. */
  async revokeKey(id: string, revokedAt: string): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: revokedAt })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
