import type { HttpApp } from '../http-app.js';
import { AppError } from '../../errors.js';
import { sendProblem } from './problem-details.js';

const ALLOWED_METHODS = 'GET, POST';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key, Prefer, X-Request-Id';
/** What a page's script may read of an answer besides the CORS-safelisted header fields. */
const EXPOSED_HEADERS = [
  'X-Job-Id',
  'Link',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'Idempotent-Replayed',
  'Preference-Applied',
  'X-Roomcraft-Degraded',
  'X-Roomcraft-Ignored-Fields',
  'X-Credits-Charged',
  'X-Credits-Balance',
  'X-Request-Id',
].join(', ');
/** How long a browser may cache a preflight answer (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * Cross-origin requests from the browser pages of the configured origins (ROOMCRAFT_CORS_ORIGINS; none by default,
 * so by default no page of another origin can read an answer). Origins are compared exactly. Preflights are answered
 * here, before authentication and rate limiting, since a browser sends them without the API key. Credentials
 * (cookies) are never involved: the API key travels in Authorization, which a page's script sets itself.
 */
export function registerCors(app: HttpApp, origins: readonly string[]): void {
  if (origins.length === 0) return;
  const allowed = new Set(origins);

  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    const preflight = request.method === 'OPTIONS' && origin !== undefined && request.headers['access-control-request-method'] !== undefined;
    if (!preflight) return;
    reply.header('vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
    if (!allowed.has(origin)) {
      request.log.info({ origin }, 'CORS preflight from an origin that is not in ROOMCRAFT_CORS_ORIGINS');
      return sendProblem(
        reply,
        new AppError('origin_not_allowed', 403, `${origin} may not call this API from a browser; the operator lists allowed origins in ROOMCRAFT_CORS_ORIGINS`),
      );
    }
    return reply
      .code(204)
      .header('access-control-allow-origin', origin)
      .header('access-control-allow-methods', ALLOWED_METHODS)
      .header('access-control-allow-headers', ALLOWED_HEADERS)
      .header('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS))
      .send();
  });

  // On every other answer, errors included: whether this origin may read it, and that it depends on the origin.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) return payload;
    appendVary(reply, 'Origin');
    const origin = request.headers.origin;
    if (origin !== undefined && allowed.has(origin)) {
      reply.header('access-control-allow-origin', origin);
      reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    }
    return payload;
  });
}

function appendVary(reply: { getHeader(name: string): unknown; header(name: string, value: string): unknown }, field: string): void {
  const current = reply.getHeader('vary');
  const fields = typeof current === 'string' && current ? current.split(',').map((f) => f.trim()) : [];
  if (fields.some((f) => f === '*' || f.toLowerCase() === field.toLowerCase())) return;
  reply.header('vary', [...fields, field].join(', '));
}
