import type { HttpApp } from '../http-app.js';
import type { MetricsRegistry } from '../../services/metrics/registry.js';
import { PROMETHEUS_CONTENT_TYPE } from '../../services/metrics/exposition.js';

/**
 * GET /metrics: the Prometheus text exposition, without a key (a scraper has none); operators who do not want it
 * public restrict the path at their reverse proxy (docs/api.md, Metrics). Outside the rate limit.
 */
export function registerMetricsRoutes(app: HttpApp, metrics: MetricsRegistry): void {
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['status'],
        summary: 'Operator metrics in the Prometheus text format 0.0.4 (queues, jobs, durations, webhooks, rate limits).',
        response: {
          200: { description: 'The metrics.', content: { 'text/plain': { schema: { type: 'string' } } } },
        },
      },
    },
    async (_request, reply) => reply.type(PROMETHEUS_CONTENT_TYPE).send(await metrics.render()),
  );
}
