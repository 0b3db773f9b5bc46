import type { HttpApp } from '../http-app.js';
import { AppError } from '../../errors.js';

const WINDOW_SECONDS = 60;
const POLICY = 'default';

interface Window {
  startedAt: number;
  count: number;
}

/**
 * A fixed one-minute window per user (per client address before authentication), announced on every response with
 * the IETF RateLimit-Policy / RateLimit header fields. Counters live in this process.
 */
export function registerRateLimit(app: HttpApp, perMinute: number): void {
  const windows = new Map<string, Window>();
  const sweep = setInterval(() => {
    const cutoff = Date.now() - WINDOW_SECONDS * 1000;
    for (const [key, window] of windows) if (window.startedAt < cutoff) windows.delete(key);
  }, WINDOW_SECONDS * 1000);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  app.addHook('onRequest', async (request, reply) => {
    const subject = request.owner ? `user:${request.owner.userId}` : `ip:${request.ip}`;
    const now = Date.now();
    let window = windows.get(subject);
    if (!window || now - window.startedAt >= WINDOW_SECONDS * 1000) {
      window = { startedAt: now, count: 0 };
      windows.set(subject, window);
    }
    window.count += 1;
    const resetSeconds = Math.max(1, Math.ceil((window.startedAt + WINDOW_SECONDS * 1000 - now) / 1000));
    const remaining = Math.max(0, perMinute - window.count);
    reply.header('ratelimit-policy', `"${POLICY}";q=${perMinute};w=${WINDOW_SECONDS}`);
    reply.header('ratelimit', `"${POLICY}";r=${remaining};t=${resetSeconds}`);
    if (window.count > perMinute) {
      throw new AppError('rate_limited', 429, `more than ${perMinute} requests in a minute; retry in ${resetSeconds} s`, {
        retryAfterSeconds: resetSeconds,
      });
    }
  });
}
