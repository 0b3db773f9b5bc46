import { Counter } from './counter.js';

/**
 * Counters kept by this process and incremented where the event happens. Module-wide because the event sites (Fastify
 * plugins) are registered without access to the app's services; /metrics of this process reports them.
 */
export const rateLimited = new Counter(
  'roomcraft_rate_limited_total',
  'Requests refused with 429 rate_limited by this process, by policy (default: per user; anonymous: per client address).',
  ['policy'],
);
// Both policies are reported from the start, at 0, so a rate() over them has a first point.
for (const policy of ['default', 'anonymous']) rateLimited.inc({ policy }, 0);

export const PROCESS_COUNTERS: readonly Counter[] = [rateLimited];
