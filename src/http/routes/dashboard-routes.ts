import crypto from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import type { HttpApp } from '../http-app.js';
import { AppError } from '../../errors.js';
import type { Config } from '../../config/config.js';

/**
 * The dashboard's pages: one HTML shell for every page path (the browser code in src/dashboard/ draws the page the
 * path names), and its two bundled assets. `npm run build` (and so `npm ci`, `npm start` and bin/roomcraft) writes
 * them to dist/dashboard/ with esbuild; the same three levels up lead from src/http/routes/ and from
 * dist/http/routes/ to the repository, so sources and the compiled build serve the same files.
 */
const ASSET_DIR = path.resolve(import.meta.dirname, '../../../dist/dashboard');
const ASSETS = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
  // Source maps, for the browser's developer tools.
  'app.js.map': 'application/json',
  'app.css.map': 'application/json',
} as const;
type AssetName = keyof typeof ASSETS;

/** Every page of the dashboard; the browser code routes among them without reloading. */
export const DASHBOARD_PAGES = [
  '/dashboard',
  '/dashboard/',
  '/dashboard/login',
  '/dashboard/signup',
  '/dashboard/keys',
  '/dashboard/usage',
  '/dashboard/jobs',
  '/dashboard/jobs/:id',
  '/dashboard/playground',
];

const SHELL = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>Roomcraft dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/dashboard/assets/app.css">
<script type="module" src="/dashboard/assets/app.js"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<div id="app"><main id="main" tabindex="-1"><noscript><p>The dashboard needs JavaScript. The API works without it: see <a href="/v1/docs">/v1/docs</a>.</p></noscript></main></div>
</body>
</html>
`;

export function registerDashboardRoutes(app: HttpApp, deps: { config: Pick<Config, 'publicUrl'> }): void {
  const csp = contentSecurityPolicy(deps.config.publicUrl);
  const secure = (reply: FastifyReply) =>
    reply
      .header('content-security-policy', csp)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .header('x-frame-options', 'DENY');

  for (const url of DASHBOARD_PAGES) {
    app.get(url, { schema: { hide: true } }, async (_request, reply) =>
      secure(reply).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(SHELL),
    );
  }

  // Read again whenever the file changed (a build while the service runs is served at once), otherwise from memory.
  const cache = new Map<string, { mtimeMs: number; body: Buffer; etag: string }>();
  app.get('/dashboard/assets/:file', { schema: { hide: true } }, async (request, reply) => {
    const { file } = request.params as { file: string };
    if (!Object.hasOwn(ASSETS, file)) throw new AppError('not_found', 404, `the dashboard has no asset ${file}`);
    const where = path.join(ASSET_DIR, file);
    const missing = (error: unknown): never => {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      throw new AppError('service_unavailable', 503, `the dashboard is not built (${file} is missing from dist/dashboard/): run npm run build`);
    };
    const { mtimeMs } = await stat(where).catch(missing);
    let asset = cache.get(file);
    if (asset?.mtimeMs !== mtimeMs) {
      const body = await readFile(where).catch(missing);
      asset = { mtimeMs, body, etag: `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
      cache.set(file, asset);
    }
    // Revalidated on every load (no-cache) and answered 304 while unchanged.
    secure(reply).header('cache-control', 'no-cache').header('etag', asset.etag);
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply.type(ASSETS[file as AssetName]).send(asset.body);
  });
}

/**
 * Scripts, styles and requests from this origin only, nothing inline; images also from data: and blob: URLs (the
 * playground's previews and masks) and from the origin of the result URLs (ROOMCRAFT_PUBLIC_URL, which a proxy may
 * put elsewhere than the page).
 */
export function contentSecurityPolicy(publicUrl: string): string {
  const outputs = new URL(publicUrl).origin;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob: ${outputs}`,
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
