import type { FastifyInstance } from 'fastify';

/**
 * A fetch that hands every request to a Fastify app in this process (`inject`), with no socket and no port: what the
 * embedded server of `roomcraft run` is reached through. Only the path and query of the URL are used, so the
 * absolute `output` URLs the app writes (under its public URL) reach it too.
 */
export function injectFetch(app: Pick<FastifyInstance, 'inject'>): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    request.signal.throwIfAborted();
    const url = new URL(request.url);
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = app.inject({
      method: request.method as 'GET' | 'POST',
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(request.headers),
      ...(payload ? { payload } : {}),
    });
    // inject cannot be cancelled; an aborted caller stops waiting for it.
    const aborted = new Promise<never>((_, reject) => {
      request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
    });
    const response = await Promise.race([answer, aborted]);
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, String(item));
    }
    const empty = [204, 205, 304].includes(response.statusCode) || request.method === 'HEAD';
    return new Response(empty ? null : new Uint8Array(response.rawPayload), {
      status: response.statusCode,
      statusText: response.statusMessage,
      headers,
    });
  };
}
