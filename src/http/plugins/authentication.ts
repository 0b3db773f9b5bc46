import type { FastifyRequest } from 'fastify';
import type { HttpApp } from '../http-app.js';
import { AppError } from '../../errors.js';
import { parseBearer } from '../../security/api-key.js';
import { CSRF_HEADER, csrfTokenMatches, isSafeMethod, isSameOrigin } from '../../security/csrf.js';
import type { KeyService } from '../../services/key-service.js';
import type { Session, SessionService } from '../../services/session-service.js';
import type { KeyOwner } from '../../repositories/user-repository.js';
import type { SessionCookie } from '../session-cookie.js';

declare module 'fastify' {
  interface FastifyRequest {
    owner: KeyOwner | undefined;
    /** The dashboard session of the request's cookie, on the routes that accept one. */
    session: Session | undefined;
  }
}

/** What resolves a browser's session: the service, the cookie, and the service's own origin. */
export interface SessionAccess {
  sessions: SessionService;
  cookie: SessionCookie;
  /** ROOMCRAFT_PUBLIC_URL: state-changing requests made with a session must come from its origin. */
  publicUrl: string;
}

/** The dashboard's JSON API, whose routes take a session instead of an API key. */
export const DASHBOARD_API_PREFIX = '/dashboard/api';

/**
 * Resolves the caller from `Authorization: Bearer <key>` on every request. Routes whose schema declares `security`
 * refuse anonymous callers in their own onRequest hook: after the app's onRequest hooks (so the rate limit still counts
 * anonymous callers per address) and before a byte of the body is read, so a caller without a key can make the
 * server neither receive nor parse a body.
 */
export function registerAuthentication(app: HttpApp, keys: KeyService): void {
  app.decorateRequest('owner', undefined);
  app.addHook('onRequest', async (request) => {
    const key = parseBearer(request.headers.authorization);
    if (key) request.owner = await keys.authenticate(key);
  });
  app.addHook('onRoute', (route) => {
    if (!route.schema?.security?.length) return;
    const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [...own, refuseAnonymous];
  });
}

async function refuseAnonymous(request: FastifyRequest): Promise<void> {
  requireOwner(request);
}

/** The authenticated caller of a route that requires one. */
export function requireOwner(request: FastifyRequest): KeyOwner {
  if (request.owner) return request.owner;
  const detail = request.headers.authorization
    ? 'the API key is not valid'
    : 'send your API key as "Authorization: Bearer <key>"';
  throw new AppError('unauthorized', 401, detail);
}

/**
 * Resolves the session cookie on the dashboard's API and on the /v1 routes that need a caller (registered after
 * registerAuthentication and before the rate limit, so a session's requests count against its user). A request that
 * sends `Authorization` is judged by its key alone. On /v1 a session acts as its user with a test key's semantics
 * (`kind: 'test'`): that is the dashboard's playground. There, as on the dashboard's own routes, a state-changing
 * request must prove it comes from the service's pages: `Origin` equal to ROOMCRAFT_PUBLIC_URL's and the session's
 * CSRF token in `X-CSRF-Token` (403 csrf_failed otherwise); a cookie alone never changes anything.
 */
export function registerSessionAuthentication(app: HttpApp, access: SessionAccess): void {
  app.decorateRequest('session', undefined);
  app.addHook('onRequest', async (request) => {
    if (request.headers.authorization !== undefined) return;
    const route = request.routeOptions.url ?? '';
    const onDashboard = route.startsWith(`${DASHBOARD_API_PREFIX}/`);
    const onApi = route.startsWith('/v1/') && (request.routeOptions.schema?.security?.length ?? 0) > 0;
    if (!onDashboard && !onApi) return;
    const token = access.cookie.read(request.headers.cookie);
    if (!token) return;
    request.session = await access.sessions.resolve(token);
    if (!request.session || !onApi) return;
    requireSameOriginChange(request, access.publicUrl);
    request.owner = { userId: request.session.userId, keyId: 'session', kind: 'test' };
  });
}

/**
 * Refuses (403 csrf_failed) a state-changing request made with a session unless it comes from the service's origin
 * and carries the session's CSRF token; safe methods pass.
 */
export function requireSameOriginChange(request: FastifyRequest, publicUrl: string): void {
  const session = request.session;
  if (!session || isSafeMethod(request.method)) return;
  if (!isSameOrigin(request.headers.origin, publicUrl)) {
    throw new AppError('csrf_failed', 403, `a request made with a session must come from ${new URL(publicUrl).origin} (its Origin header)`);
  }
  if (!csrfTokenMatches(request.headers[CSRF_HEADER], session.csrfToken)) {
    throw new AppError('csrf_failed', 403, 'send the CSRF token of GET /dashboard/api/session in the X-CSRF-Token header');
  }
}
