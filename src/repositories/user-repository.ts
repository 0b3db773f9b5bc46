import { sql } from 'kysely';
import type { Db } from './database/database.js';
import type { ApiKeysTable, KeyKind, UsersTable } from './database/schema.js';

export interface KeyOwner {
  userId: string;
  keyId: string;
  kind: KeyKind;
}

export class UserRepository {
  constructor(private readonly db: Db) {}

  async findByEmail(email: string): Promise<UsersTable | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  async findById(id: string): Promise<UsersTable | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async createUser(user: UsersTable): Promise<void> {
    await this.db.insertInto('users').values(user).execute();
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
