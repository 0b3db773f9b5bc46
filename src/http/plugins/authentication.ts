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

/** Resolves the caller from `Authorization: Bearer <key>` on every request; routes that need a caller call requireOwner. */
export function registerAuthentication(app: HttpApp, keys: KeyService): void {
  app.decorateRequest('owner', undefined);
  app.addHook('onRequest', async (request) => {
    const key = parseBearer(request.headers.authorization);
    if (key) request.owner = await keys.authenticate(key);
  });
}

export function requireOwner(request: FastifyRequest): KeyOwner {
  if (request.owner) return request.owner;
  const detail = request.headers.authorization
    ? 'the API key is not valid'
    : 'send your API key as "Authorization: Bearer <key>"';
  throw new AppError('unauthorized', 401, detail);
}
