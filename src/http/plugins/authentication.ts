import type { FastifyRequest } from 'fastify';
import type { HttpApp } from '../http-app.js';
import { AppError } from '../../errors.js';
import { parseBearer } from '../../security/api-key.js';
import type { KeyService } from '../../services/key-service.js';
import type { KeyOwner } from '../../repositories/user-repository.js';

declare module 'fastify' {
  interface FastifyRequest {
    owner: KeyOwner | undefined;
  }
}

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
