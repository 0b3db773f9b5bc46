import { Type, type Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { HttpApp } from '../http-app.js';
import { AppError } from '../../errors.js';
import type { JobRepository } from '../../repositories/job-repository.js';
import type { WebhookDelivery, WebhookRepository } from '../../repositories/webhook-repository.js';
import type { WebhookService } from '../../services/webhook-service.js';
import type { Session } from '../../services/session-service.js';
import { DASHBOARD_API_PREFIX, requireSameOriginChange } from '../plugins/authentication.js';

const JobParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export interface DashboardDeliveryDeps {
  jobs: Pick<JobRepository, 'findById'>;
  deliveries: Pick<WebhookRepository, 'findByJob'>;
  webhooks: Pick<WebhookService, 'enqueue'>;
  /** ROOMCRAFT_PUBLIC_URL: a redelivery, which changes state, must come from its origin with the CSRF token. */
  publicUrl: string;
}

/**
 * A job's webhook deliveries for the dashboard's job page, and a redelivery of its last event: a new delivery (its own
 * webhook-id, attempts from zero) of the same payload to the same URL, sent by the webhook dispatcher like any other.
 * Session-authenticated, under /dashboard/api, for the session's own jobs only (another user's job is a 404).
 */
export function registerDashboardDeliveryRoutes(app: HttpApp, deps: DashboardDeliveryDeps): void {
  /** The session's job `id` and its deliveries, oldest first. */
  async function ownJob(request: FastifyRequest): Promise<{ session: Session; deliveries: WebhookDelivery[] }> {
    if (!request.session) throw new AppError('session_required', 401, 'log in first: no session, or it has ended');
    requireSameOriginChange(request, deps.publicUrl);
    const { id } = request.params as Static<typeof JobParams>;
    const job = await deps.jobs.findById(id);
    if (job?.user_id !== request.session.userId) throw new AppError('not_found', 404, `you have no job ${id}`);
    return { session: request.session, deliveries: await deps.deliveries.findByJob(id) };
  }

  app.get(`${DASHBOARD_API_PREFIX}/jobs/:id/deliveries`, { schema: { hide: true, params: JobParams } }, async (request) => {
    const { deliveries } = await ownJob(request);
    return { deliveries: deliveries.reverse().map(deliveryView) };
  });

  app.post(`${DASHBOARD_API_PREFIX}/jobs/:id/redeliver`, { schema: { hide: true, params: JobParams } }, async (request, reply) => {
    const { session, deliveries } = await ownJob(request);
    const last = deliveries.at(-1);
    if (!last) throw new AppError('not_found', 404, 'this job had no webhook: there is no event to deliver again');
    const id = await deps.webhooks.enqueue({ jobId: last.job_id, userId: session.userId, url: last.url, payload: JSON.parse(last.payload) as object });
    return reply.code(201).send({ id });
  });
}

function deliveryView(delivery: WebhookDelivery) {
  const { type } = JSON.parse(delivery.payload) as { type?: string };
  return {
    id: delivery.id,
    event: type ?? '',
    url: delivery.url,
    status: delivery.status,
    attempts: delivery.attempts,
    lastResponseStatus: delivery.last_response_status,
    lastError: delivery.last_error,
    createdAt: delivery.created_at,
    updatedAt: delivery.updated_at,
  };
}
