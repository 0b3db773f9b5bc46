import crypto from 'node:crypto';
import { csrfTokenOf } from '../security/csrf.js';
import type { SessionRepository } from '../repositories/session-repository.js';

/** A session ends this long after it began, however much it is used. */
export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60_000;
/** A session unused for this long has ended: a working day. */
export const SESSION_IDLE_MS = 8 * 60 * 60_000;
/** A session's last use is written at most this often: the idle timeout is exact to within it. */
const TOUCH_INTERVAL_MS = 60_000;
const TOKEN_BYTES = 32;

/** A live session, as the routes see it. */
export interface Session {
  /** The hash of its token (the row's id): never the token itself. */
  id: string;
  userId: string;
  email: string;
  isAdmin: boolean;
  /** Required in X-CSRF-Token on every state-changing request made with this session. */
  csrfToken: string;
  expiresAt: string;
}

export interface NewSession {
  /** The cookie's value: shown once, to the browser; only its hash is stored. */
  token: string;
  csrfToken: string;
  expiresAt: string;
  maxAgeSeconds: number;
}

/**
 * Browser sessions. A token of 256 random bits lives in the user's cookie; the database keeps its SHA-256 (a stolen
 * database logs nobody in), an absolute end SESSION_LIFETIME_MS after the log-in and the last use, which must be
 * less than SESSION_IDLE_MS ago.
 */
export class SessionService {
  constructor(
    private readonly sessions: SessionRepository,
    /** The clock (tests move it). */
    private readonly now: () => number = () => Date.now(),
  ) {}

  async start(userId: string): Promise<NewSession> {
    const at = this.now();
    // Ended sessions go when someone logs in: the table holds live sessions and those ended since the last log-in.
    await this.sessions.deleteEnded(new Date(at).toISOString(), new Date(at - SESSION_IDLE_MS).toISOString());
    const token = crypto.randomBytes(TOKEN_BYTES).toString('base64url');
    const expiresAt = new Date(at + SESSION_LIFETIME_MS).toISOString();
    await this.sessions.create({
      id: hashToken(token),
      user_id: userId,
      created_at: new Date(at).toISOString(),
      last_seen_at: new Date(at).toISOString(),
      expires_at: expiresAt,
    });
    return { token, csrfToken: csrfTokenOf(token), expiresAt, maxAgeSeconds: SESSION_LIFETIME_MS / 1000 };
  }

  /** The live session of a cookie's token, its use recorded; undefined for an unknown, expired or idle one. */
  async resolve(token: string): Promise<Session | undefined> {
    const id = hashToken(token);
    const row = await this.sessions.find(id);
    if (!row) return undefined;
    const at = this.now();
    const lastSeen = Date.parse(row.last_seen_at);
    if (Date.parse(row.expires_at) <= at || lastSeen + SESSION_IDLE_MS <= at) {
      await this.sessions.delete(id);
      return undefined;
    }
    if (at - lastSeen >= TOUCH_INTERVAL_MS) await this.sessions.touch(id, new Date(at).toISOString());
    return { id, userId: row.user_id, email: row.email, isAdmin: row.is_admin === 1, csrfToken: csrfTokenOf(token), expiresAt: row.expires_at };
  }

  async end(sessionId: string): Promise<void> {
    await this.sessions.delete(sessionId);
  }

  /** Ends every other session of the user (after a password change); the number ended. */
  async endOthers(userId: string, keep: string): Promise<number> {
    return this.sessions.deleteOthers(userId, keep);
  }
}

function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}
