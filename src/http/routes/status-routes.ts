import { Type } from '@sinclair/typebox';
import type { HttpApp } from '../http-app.js';
import type { StatusService, StatusSnapshot } from '../../services/status-service.js';

const Component = Type.Object({ ok: Type.Boolean(), detail: Type.String() });
const StatusSchema = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  version: Type.String(),
  uptimeSeconds: Type.Integer(),
  roles: Type.Array(Type.String()),
  database: Type.Intersect([Component, Type.Object({ engine: Type.String() })]),
  storage: Component,
  renderer: Component,
  workers: Type.Object({ threads: Type.Integer(), busy: Type.Integer(), queued: Type.Integer() }),
  jobs: Type.Object({ pending: Type.Integer(), success: Type.Integer(), failed: Type.Integer() }),
  operations: Type.Array(Type.Object({ name: Type.String(), path: Type.String(), mode: Type.String(), available: Type.Boolean() })),
  models: Type.Array(
    Type.Object({ name: Type.String(), present: Type.Boolean(), verified: Type.Boolean(), loaded: Type.Boolean(), licence: Type.String() }),
  ),
  modelFallbacks: Type.Object(
    {
      allowed: Type.Boolean({ description: 'ROOMCRAFT_ALLOW_MODEL_FALLBACKS.' }),
      missing: Type.Array(Type.String(), { description: 'Models of the registry that are not installed.' }),
      effect: Type.String({ description: 'What a missing model means for the answers.' }),
    },
    { description: 'Whether a missing model makes a 503 or a result made with a fallback that says so.' },
  ),
});

export function registerStatusRoutes(app: HttpApp, status: StatusService): void {
  app.get(
    '/status.json',
    { schema: { tags: ['status'], summary: 'Machine-readable service status.', response: { 200: StatusSchema, 503: StatusSchema } } },
    async (_request, reply) => {
      const snapshot = await status.snapshot();
      return reply.code(snapshot.status === 'ok' ? 200 : 503).send(snapshot);
    },
  );
  app.get('/status', { schema: { tags: ['status'], summary: 'Service status page (HTML).' } }, async (_request, reply) => {
    const snapshot = await status.snapshot();
    return reply
      .code(snapshot.status === 'ok' ? 200 : 503)
      .type('text/html; charset=utf-8')
      .send(renderStatusPage(snapshot));
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function badge(ok: boolean, yes = 'ok', no = 'down'): string {
  return `<span class="${ok ? 'ok' : 'bad'}">${ok ? yes : no}</span>`;
}

function renderStatusPage(s: StatusSnapshot): string {
  const rows = (cells: string[][]) => cells.map((c) => `<tr>${c.map((x) => `<td>${x}</td>`).join('')}</tr>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="15">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Roomcraft status: ${s.status}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.5rem}table{border-collapse:collapse;width:100%;margin:0 0 1.5rem}
td,th{border-bottom:1px solid #ddd;padding:.35rem .5rem;text-align:left}
.ok{color:#0a7a32;font-weight:600}.bad{color:#b3261e;font-weight:600}.muted{color:#666}
</style></head><body>
<h1>Roomcraft is ${badge(s.status === 'ok', 'operational', 'degraded')}</h1>
<p class="muted">Version ${escapeHtml(s.version)} · up ${s.uptimeSeconds} s · roles ${escapeHtml(s.roles.join(', '))} ·
<a href="/status.json">status.json</a> · <a href="/v1/docs">API reference</a></p>
<h2>Components</h2>
<table><tr><th>Component</th><th>State</th><th>Detail</th></tr>${rows([
    ['Database', badge(s.database.ok), escapeHtml(`${s.database.engine}: ${s.database.detail}`)],
    ['Storage', badge(s.storage.ok), escapeHtml(s.storage.detail)],
    ['Renderer (staging)', badge(s.renderer.ok), escapeHtml(s.renderer.detail)],
    ['Workers', badge(s.workers.threads > 0), `${s.workers.busy} of ${s.workers.threads} threads busy, ${s.workers.queued} queued`],
    ['Jobs', '', `${s.jobs.pending} pending, ${s.jobs.success} succeeded, ${s.jobs.failed} failed`],
  ])}</table>
<h2>Operations</h2>
<table><tr><th>Endpoint</th><th>mode</th><th>State</th></tr>${rows(
    s.operations.map((op) => [`<code>POST ${escapeHtml(op.path)}</code>`, escapeHtml(op.mode), badge(op.available, 'available', 'not built yet (501)')]),
  )}</table>
<h2>Models</h2>
<p>Missing models: ${
    s.modelFallbacks.missing.length === 0 ? 'none' : escapeHtml(s.modelFallbacks.missing.join(', '))
  }. Fallbacks ${badge(!s.modelFallbacks.allowed, 'not allowed', 'allowed')}: ${escapeHtml(s.modelFallbacks.effect)}.</p>
${
  s.models.length === 0
    ? '<p class="muted">No models are registered.</p>'
    : `<table><tr><th>Model</th><th>Present</th><th>Verified</th><th>Loaded</th><th>Licence</th></tr>${rows(
        s.models.map((m) => [escapeHtml(m.name), badge(m.present, 'yes', 'no'), badge(m.verified, 'yes', 'no'), m.loaded ? 'yes' : 'no', escapeHtml(m.licence)]),
      )}</table>`
}
</body></html>`;
}
