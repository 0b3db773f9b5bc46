import type { Settings } from './options.js';
import { problemOf, RoomcraftError, unexpectedResponse } from './roomcraft-error.js';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** An API path such as `v1/job/x`, resolved under the base URL, or an absolute URL (output images). */
  path: string;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string> | undefined;
  signal?: AbortSignal | undefined;
  /** Whether to send the API key. Output URLs are capabilities and get none. */
  authenticate: boolean;
  /** Whether a failed attempt may be sent again (see ClientOptions.retry). */
  retryable: boolean;
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const MAX_RETRY_AFTER_MS = 60_000;

/** One call: a 2xx response with its body unread, or a RoomcraftError carrying the problem. */
export async function send(settings: Settings, request: HttpRequest): Promise<Response> {
  const url = new URL(request.path, settings.baseUrl);
  const headers: Record<string, string> = { accept: 'application/json', ...settings.headers, ...request.headers };
  if (request.authenticate && settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  for (let attempt = 0; ; attempt++) {
    const signals = [request.signal, settings.timeout === false ? undefined : AbortSignal.timeout(settings.timeout)];
    const signal = AbortSignal.any(signals.filter((s): s is AbortSignal => s !== undefined));
    const mayRetry = request.retryable && attempt < settings.retry;
    let response: Response;
    try {
      response = await settings.fetch(url, { method: request.method, headers, ...(body === undefined ? {} : { body }), signal });
    } catch (error) {
      // fetch rejects with a TypeError when the network fails; timeouts and aborts are not tried again.
      if (!mayRetry || !(error instanceof TypeError) || request.signal?.aborted) throw error;
      await sleep(backoff(attempt), request.signal);
      continue;
    }
    if (response.ok) return response;
    if (mayRetry && RETRY_STATUSES.has(response.status)) {
      await response.body?.cancel().catch(() => {});
      await sleep(retryAfter(response) ?? backoff(attempt), request.signal);
      continue;
    }
    throw new RoomcraftError(await problemOf(response), response);
  }
}

/** One call whose answer is JSON. */
export async function sendJson<T>(settings: Settings, request: HttpRequest): Promise<T> {
  const response = await send(settings, request);
  const text = await response.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new RoomcraftError(unexpectedResponse(response, `the answer is not JSON: ${text.slice(0, 200)}`), response);
  }
}

function backoff(attempt: number): number {
  return 500 * 2 ** attempt;
}

/** `Retry-After` in seconds or as an HTTP date, capped. */
function retryAfter(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS) : undefined;
}

/** Waits, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    function onAbort() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
