import type { Db } from './database/database.js';
import type { IdempotencyKeysTable } from './database/schema.js';

export type IdempotencyRecord = IdempotencyKeysTable;

export class IdempotencyRepository {
  constructor(private readonly db: Db) {}

  async find(userId: string, key: string, now: string): Promise<IdempotencyRecord | undefined> {
    return this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  async deleteExpired(now: string): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).execute();
  }
}
