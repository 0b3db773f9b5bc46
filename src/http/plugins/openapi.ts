import type { HttpApp } from '../http-app.js';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from '../../config/config.js';

/** OpenAPI 3.1 generated from the routes' TypeBox schemas, and a reference page whose assets ship with the package. */
export async function registerOpenApi(app: HttpApp, config: Config, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Roomcraft Image Design API',
        version,
        description:
          'Processing of room photos for real estate. Compatible with the Image Design API; see docs/api.md for ' +
          'what this implementation decides where that specification is silent.',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key>' } },
      },
      tags: [
        { name: 'operations', description: 'Image processing; sync without `webhook`, async with it.' },
        { name: 'jobs', description: 'Asynchronous jobs and their results.' },
        { name: 'lookups', description: 'Identifiers accepted by the operations.' },
        { name: 'status', description: 'Service health.' },
      ],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/v1/docs', uiConfig: { deepLinking: true } });
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
