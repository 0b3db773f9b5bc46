import type { HttpApp } from '../http-app.js';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from '../../config/config.js';
import { UNAVAILABLE_TAG } from '../routes/operation-routes.js';

/** The reference page's title and our own mark (a roof over the name), served from the process: no CDN, no third-party logo. */
export const DOCS_TITLE = 'Roomcraft API';

const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="220" height="40" viewBox="0 0 220 40" role="img" aria-label="${DOCS_TITLE}">
<path d="M4 20 L20 6 L36 20" fill="none" stroke="#ffffff" stroke-width="3.5" stroke-linejoin="round" stroke-linecap="round"/>
<rect x="10" y="19" width="20" height="16" rx="2" fill="none" stroke="#ffffff" stroke-width="3"/>
<rect x="17" y="25" width="6" height="10" fill="#ffffff"/>
<text x="46" y="28" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="20" font-weight="600" fill="#ffffff">${DOCS_TITLE}</text>
</svg>`;

const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="6" fill="#1f3a5f"/>
<path d="M5 16 L16 6 L27 16" fill="none" stroke="#ffffff" stroke-width="3" stroke-linejoin="round" stroke-linecap="round"/>
<rect x="9" y="15" width="14" height="12" rx="1.5" fill="none" stroke="#ffffff" stroke-width="2.5"/>
</svg>`;

/**
 * Our colours for the top bar, and the operations that are not built yet greyed in the collapsed list (their tag's
 * section), like Swagger UI greys deprecated ones, without calling them deprecated.
 */
const THEME_CSS = `.swagger-ui .topbar { background-color: #1f3a5f; }
.swagger-ui .topbar .download-url-wrapper .download-url-button { background: #3b6ea5; }
.swagger-ui .opblock-tag-section:has(> .opblock-tag[data-tag="${UNAVAILABLE_TAG}"]) .opblock { opacity: .55; filter: grayscale(1); }
.swagger-ui .opblock-tag-section:has(> .opblock-tag[data-tag="${UNAVAILABLE_TAG}"]) .opblock-summary-description { font-style: italic; }
`;

/** OpenAPI 3.1 generated from the routes' TypeBox schemas, and a reference page whose assets ship with the package. */
export async function registerOpenApi(app: HttpApp, config: Config, version: string): Promise<void> {
  await app.register(swagger, {
    // Shared schemas keep their names (Problem, Job, SyncResult) in the document instead of def-0, def-1, ...
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
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
        { name: 'operations', description: 'Image processing; sync without `webhook`, async with it or with `Prefer: respond-async`.' },
        {
          name: UNAVAILABLE_TAG,
          description:
            'Operations of the spec that this server does not run yet: requests are validated, then answered ' +
            '501 operation_unavailable. Never a fake image. GET /status.json lists what is available.',
        },
        { name: 'jobs', description: 'Asynchronous jobs and their results.' },
        { name: 'lookups', description: 'Identifiers accepted by the operations.' },
        { name: 'status', description: 'Service health.' },
      ],
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/v1/docs',
    uiConfig: { deepLinking: true },
    logo: { type: 'image/svg+xml', content: Buffer.from(LOGO_SVG), href: '/v1/docs', target: '_self' },
    theme: {
      title: DOCS_TITLE,
      favicon: [{ filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(FAVICON_SVG) }],
      css: [{ filename: 'roomcraft.css', content: THEME_CSS }],
    },
  });
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
