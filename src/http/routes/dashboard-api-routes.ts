import { Type, type Static } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HttpApp } from '../http-app.js';
import { AppError } from '../../errors.js';
import { isSameOrigin } from '../../security/csrf.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../security/password.js';
import type { AccountService } from '../../services/account-service.js';
import type { KeyService } from '../../services/key-service.js';
import type { LoginThrottle } from '../../services/login-throttle.js';
import type { Session } from '../../services/session-service.js';
import type { Account } from '../../repositories/user-repository.js';
import type { ApiKeysTable } from '../../repositories/database/schema.js';
import type { LicenceRepository } from '../../repositories/licence-repository.js';
import { LICENCE_HINT } from '../../services/licence-service.js';
import { DASHBOARD_API_PREFIX, requireSameOriginChange, type SessionAccess } from '../plugins/authentication.js';

export interface DashboardApiDeps extends SessionAccess {
  accounts: AccountService;
  keys: KeyService;
  throttle: LoginThrottle;
  /** Whether a user holds a licence in force, which a production (live) key needs. */
  licences: Pick<LicenceRepository, 'findActive'>;
}

const Password = Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: MAX_PASSWORD_LENGTH });
const Credentials = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 254 }), password: Password },
  { additionalProperties: false },
);
const PasswordChange = Type.Object({ currentPassword: Type.String({ maxLength: MAX_PASSWORD_LENGTH }), newPassword: Password }, { additionalProperties: false });
/** A test key unless `live` is asked for. */
const NewKey = Type.Object({ kind: Type.Optional(Type.Union([Type.Literal('test'), Type.Literal('live')])) }, { additionalProperties: false });
const KeyParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

/**
 * The JSON API of the dashboard's pages, under /dashboard/api, authenticated by the session cookie
 * (registerSessionAuthentication): sign-up, log-in and log-out, the session and its CSRF token, the password, the
 * user's API keys and webhook signing secret. Every state-changing request made with a session needs its CSRF token
 * and the service's Origin; sign-up and log-in need the Origin (no page of another site may log a browser in to an
 * account of its choosing). Not in the OpenAPI document: docs/api.md describes it. Answers are never cached.
 */
export function registerDashboardApi(app: HttpApp, deps: DashboardApiDeps): void {
  const { sessions, cookie, publicUrl, accounts, keys, throttle, licences } = deps;

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.url?.startsWith(`${DASHBOARD_API_PREFIX}/`)) reply.header('cache-control', 'no-store');
    return payload;
  });

  /** Starts a session for `account` in this browser, ending the one its cookie held (no session outlives a log-in). */
  async function logInBrowser(request: FastifyRequest, reply: FastifyReply, account: Account) {
    if (request.session) await sessions.end(request.session.id);
    const session = await sessions.start(account.id);
    reply.header('set-cookie', cookie.set(session.token, session.maxAgeSeconds));
    return { user: userView(account.id, account.email, account.is_admin === 1), csrfToken: session.csrfToken, expiresAt: session.expiresAt };
  }

  app.post(`${DASHBOARD_API_PREFIX}/sign-up`, { schema: { hide: true, body: Credentials } }, async (request, reply) => {
    const { email, password } = request.body as Static<typeof Credentials>;
    requireOwnOrigin(request, publicUrl);
    await throttle.signUp(request.ip);
    const account = await accounts.signUp(email, password);
    return reply.code(201).send(await logInBrowser(request, reply, account));
  });

  app.post(`${DASHBOARD_API_PREFIX}/log-in`, { schema: { hide: true, body: Credentials } }, async (request, reply) => {
    const { email, password } = request.body as Static<typeof Credentials>;
    requireOwnOrigin(request, publicUrl);
    await throttle.logIn(email.trim(), request.ip);
    const account = await accounts.logIn(email, password);
    return reply.send(await logInBrowser(request, reply, account));
  });

  app.post(`${DASHBOARD_API_PREFIX}/log-out`, { schema: { hide: true } }, async (request, reply) => {
    const session = requireSession(request, publicUrl);
    await sessions.end(session.id);
    return reply.code(204).header('set-cookie', cookie.clear()).send();
  });

  app.get(`${DASHBOARD_API_PREFIX}/session`, { schema: { hide: true } }, async (request) => {
    const session = requireSession(request, publicUrl);
    return { user: userView(session.userId, session.email, session.isAdmin), csrfToken: session.csrfToken, expiresAt: session.expiresAt };
  });

  app.post(`${DASHBOARD_API_PREFIX}/password`, { schema: { hide: true, body: PasswordChange } }, async (request) => {
    const session = requireSession(request, publicUrl);
    const { currentPassword, newPassword } = request.body as Static<typeof PasswordChange>;
    await accounts.changePassword(session.userId, currentPassword, newPassword);
    return { endedSessions: await sessions.endOthers(session.userId, session.id) };
  });

  app.get(`${DASHBOARD_API_PREFIX}/keys`, { schema: { hide: true } }, async (request) => {
    const session = requireSession(request, publicUrl);
    return { keys: (await keys.keysOf(session.userId)).map(keyView) };
  });

  app.post(`${DASHBOARD_API_PREFIX}/keys`, { schema: { hide: true, body: NewKey } }, async (request, reply) => {
    const session = requireSession(request, publicUrl);
    const kind = (request.body as Static<typeof NewKey> | undefined)?.kind ?? 'test';
    if (kind === 'live' && !(await licences.findActive(session.userId))) {
      throw new AppError('licence_required', 403, `a production key needs a licence: ${LICENCE_HINT}`);
    }
    const created = await keys.createKeyForUser(session.userId, kind);
    // The key itself is in this answer only; listings show its prefix.
    return reply.code(201).send({ key: created.key, ...keyView({ ...created, created_at: created.createdAt, revoked_at: null }) });
  });

  app.delete(`${DASHBOARD_API_PREFIX}/keys/:id`, { schema: { hide: true, params: KeyParams } }, async (request) => {
    const session = requireSession(request, publicUrl);
    const { id } = request.params as Static<typeof KeyParams>;
    const key = await keys.revokeOwnKey(session.userId, id);
    if (!key) throw new AppError('not_found', 404, `you have no key ${id}`);
    return keyView(key);
  });

  app.get(`${DASHBOARD_API_PREFIX}/webhook-secret`, { schema: { hide: true } }, async (request) => {
    const session = requireSession(request, publicUrl);
    return { secret: await keys.webhookSecretOf(session.userId) };
  });

  app.post(`${DASHBOARD_API_PREFIX}/webhook-secret/rotate`, { schema: { hide: true } }, async (request) => {
    const session = requireSession(request, publicUrl);
    return { secret: await keys.rotateWebhookSecret(session.userId) };
  });
}

/** The request's live session (401 session_required without one); a state-changing request must also pass the CSRF check. */
function requireSession(request: FastifyRequest, publicUrl: string): Session {
  if (!request.session) throw new AppError('session_required', 401, 'log in first: no session, or it has ended');
  requireSameOriginChange(request, publicUrl);
  return request.session;
}

/** Sign-up and log-in come from the service's own pages only: another site cannot log a browser in to its account. */
function requireOwnOrigin(request: FastifyRequest, publicUrl: string): void {
  if (!isSameOrigin(request.headers.origin, publicUrl)) {
    throw new AppError('csrf_failed', 403, `sign-up and log-in must come from ${new URL(publicUrl).origin} (its Origin header)`);
  }
}

function userView(id: string, email: string, isAdmin: boolean) {
  return { id, email, isAdmin };
}

function keyView(key: Pick<ApiKeysTable, 'id' | 'kind' | 'prefix' | 'created_at' | 'revoked_at'>) {
  return { id: key.id, kind: key.kind, prefix: key.prefix, createdAt: key.created_at, revokedAt: key.revoked_at };
}
