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
 * refuse anonymous callers before their body is validated, so a missing key is a 401 whatever the body holds.
 */
export function registerAuthentication(app: HttpApp, keys: KeyService): void {
  app.decorateRequest('owner', undefined);
  app.addHook('onRequest', async (request) => {
    const key = parseBearer(request.headers.authorization);
    if (key) request.owner = await keys.authenticate(key);
  });
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.schema?.security?.length) requireOwner(request);
  });
}

/** The authenticated caller of a route that requires one. */
export function requireOwner(request: FastifyRequest): KeyOwner {
  if (request.owner) return request.owner;
  const detail = request.headers.authorization
    ? 'the API key is not valid'
    : 'send your API key as "Authorization: Bearer <key>"';
  throw new AppError('unauthorized', 401, detail);
}
