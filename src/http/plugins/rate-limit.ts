import type { FastifyRequest } from 'fastify';
import type { HttpApp } from '../http-app.js';
import { AppError } from '../../errors.js';
import { MemoryCounterStore, type CounterStore } from '../../repositories/rate-limit-store.js';
import { rateLimited } from '../../services/metrics/process-counters.js';

const WINDOW_MS = 60_000;

/**
 * Routes outside every budget, by their route pattern: result images and change masks (capability URLs loaded by
 * pages, often many at once), the status page, health and metrics (polled by monitors), and the reference docs.
 */
const UNMETERED_ROUTES = new Set(['/v1/outputs/:file', '/status', '/status.json', '/health', '/healthz', '/metrics', '/v1/openapi.json']);
const UNMETERED_PREFIX = '/v1/docs';
/** The dashboard's pages and assets (static files); its JSON API under /dashboard/api is metered like any call. */
const DASHBOARD = '/dashboard';
const DASHBOARD_API = '/dashboard/api/';

export interface RateLimitOptions {
  /** Where the counts live; several API processes sharing one Redis store share one count. In this process by default. */
  store?: CounterStore;
  /** Budget of anonymous callers (no valid key), per client address; the users' budget by default. */
  anonymousPerMinute?: number;
  /** The clock that picks the window (tests freeze it). */
  now?: () => number;
}

/**
 * A fixed one-minute window, the same minute of the clock for every process, per user ("default" policy) and, for
 * callers without a valid key, per client address ("anonymous" policy, its own budget), announced on every counted
 * response with the IETF RateLimit-Policy / RateLimit header fields. Past the budget: 429 with Retry-After. If the
 * store fails (Redis unreachable), requests pass uncounted and without the headers, and a warning is logged at most
 * once a window: a limiter that cannot count must not take the API down with it.
 */
export function registerRateLimit(app: HttpApp, perMinute: number, options: RateLimitOptions = {}): void {
  const store = options.store ?? new MemoryCounterStore();
  const anonymousPerMinute = options.anonymousPerMinute ?? perMinute;
  const now = options.now ?? (() => Date.now());
  let warnedInWindow = -1;
  app.addHook('onClose', async () => store.close());

  app.addHook('onRequest', async (request, reply) => {
    if (isUnmetered(request)) return;
    const { policy, subject, quota } = request.owner
      ? { policy: 'default', subject: `user:${request.owner.userId}`, quota: perMinute }
      : { policy: 'anonymous', subject: `ip:${request.ip}`, quota: anonymousPerMinute };
    const at = now();
    const window = Math.floor(at / WINDOW_MS);
    let count: number;
    try {
      // Two windows of life: a process whose clock lags still finds the counter the others are filling.
      count = await store.increment(`${subject}:${window}`, 2 * WINDOW_MS);
    } catch (error) {
      if (warnedInWindow !== window) {
        warnedInWindow = window;
        request.log.warn({ err: error }, 'rate limit not enforced: its counter store failed; requests pass uncounted');
      }
      return;
    }
    const resetSeconds = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - at) / 1000));
    reply.header('ratelimit-policy', `"${policy}";q=${quota};w=${WINDOW_MS / 1000}`);
    reply.header('ratelimit', `"${policy}";r=${Math.max(0, quota - count)};t=${resetSeconds}`);
    if (count > quota) {
      rateLimited.inc({ policy });
      throw new AppError('rate_limited', 429, `more than ${quota} requests in a minute; retry in ${resetSeconds} s`, {
        retryAfterSeconds: resetSeconds,
      });
    }
  });
}

function isUnmetered(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  if (route === undefined) return false;
  if (route === DASHBOARD || (route.startsWith(`${DASHBOARD}/`) && !route.startsWith(DASHBOARD_API))) return true;
  return UNMETERED_ROUTES.has(route) || route === UNMETERED_PREFIX || route.startsWith(`${UNMETERED_PREFIX}/`);
}
