import { Type } from '@sinclair/typebox';
import type { HttpApp } from '../http-app.js';

const HealthSchema = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  roles: Type.Array(Type.String()),
});

/**
 * GET /health: whether this process can reach its database, for load balancers and orchestrators. Served by every
 * role; a worker process serves nothing else.
 */
export function registerHealthRoute(app: HttpApp, deps: { roles: string[]; ping: () => Promise<void> }): void {
  app.get(
    '/health',
    { schema: { tags: ['status'], summary: 'Liveness and database reachability of this process.', response: { 200: HealthSchema, 503: HealthSchema } } },
    async (_request, reply) => {
      const reachable = await deps.ping().then(
        () => true,
        () => false,
      );
      return reply.code(reachable ? 200 : 503).send({ status: reachable ? 'ok' : 'unavailable', roles: deps.roles });
    },
  );
}
