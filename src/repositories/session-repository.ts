import type { Db } from './database/database.js';
import type { SessionsTable } from './database/schema.js';

/** A session with what the dashboard shows of its user. */
export interface SessionRow extends SessionsTable {
  email: string;
  is_admin: number;
}

export class SessionRepository {
  constructor(private readonly db: Db) {}

  async create(session: SessionsTable): Promise<void> {
    await this.db.insertInto('sessions').values(session).execute();
  }

  async find(id: string): Promise<SessionRow | undefined> {
    return this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.id',
        'sessions.user_id',
        'sessions.created_at',
        'sessions.last_seen_at',
        'sessions.expires_at',
        'users.email',
        'users.is_admin',
      ])
      .where('sessions.id', '=', id)
      .executeTakeFirst();
  }

  async touch(id: string, lastSeenAt: string): Promise<void> {
    await this.db.updateTable('sessions').set({ last_seen_at: lastSeenAt }).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', id).execute();
  }

  /** Ends every session of a user except `keep` (the one that changed the password). */
  async deleteOthers(userId: string, keep: string): Promise<number> {
    const result = await this.db.deleteFrom('sessions').where('user_id', '=', userId).where('id', '!=', keep).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Removes sessions past their absolute end or idle since before `idleSince`. */
  async deleteEnded(now: string, idleSince: string): Promise<void> {
    await this.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', idleSince)]))
      .execute();
  }
}
