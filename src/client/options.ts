/** How a RoomcraftClient talks to the service. Only `baseUrl` is required; every default is written beside its field. */
export interface ClientOptions {
  /** Where the service is, e.g. `http://localhost:8080`; API paths (`/v1/...`) are resolved under it. */
  baseUrl: string | URL;
  /**
   * The API key (`rc_test_…` or `rc_live_…`), sent as `Authorization: Bearer <key>`. Default: none, which only the
   * OpenAPI document and the output images accept.
   */
  apiKey?: string;
  /**
   * Milliseconds before one HTTP request is given up (a DOMException named `TimeoutError`), or `false` for never.
   * Default 330 000: a synchronous processing request may wait 300 s on the server (ROOMCRAFT_SYNC_WAIT_MS).
   */
  timeout?: number | false;
  /**
   * How many times a request is tried again after 429, 502, 503, 504 or a network error, waiting `Retry-After` when
   * the server sends it (at most 60 s), else 0.5 s, 1 s, 2 s, .... Only GETs, and POSTs carrying an `idempotencyKey`,
   * are retried: any other POST could create a second job. Default 2.
   */
  retry?: number;
  /** Milliseconds between two reads of a job in waitForJob(). Default 1000 (the default rate limit is 120 a minute). */
  pollInterval?: number;
  /** Headers added to every request. Default none. */
  headers?: Record<string, string>;
  /** The fetch to use (a test double, an in-process transport). Default `globalThis.fetch`. */
  fetch?: typeof fetch;
}

/** Per-call options of every method. */
export interface CallOptions {
  /** Aborts the call (and its retries and waits). */
  signal?: AbortSignal;
  /** Headers for this call only. */
  headers?: Record<string, string>;
}

/** Per-call options of the processing methods. */
export interface ProcessingOptions extends CallOptions {
  /**
   * Sends `Prefer: respond-async` (RFC 7240): the server answers the pending acknowledgement at once, without a
   * webhook; follow the job with waitForJob(). Default false: the call waits for the image.
   */
  respondAsync?: boolean;
  /** `Idempotency-Key`: the same key with the same body within 24 h replays the first answer, never a second job. */
  idempotencyKey?: string;
}

export const DEFAULTS = {
  timeout: 330_000,
  retry: 2,
  pollInterval: 1_000,
} as const;

export interface Settings {
  baseUrl: URL;
  apiKey: string | undefined;
  timeout: number | false;
  retry: number;
  pollInterval: number;
  headers: Record<string, string>;
  fetch: typeof fetch;
}

export function resolveOptions(options: ClientOptions): Settings {
  const base = new URL(options.baseUrl);
  // A base with a path prefix keeps it: `https://host/roomcraft` + `v1/job/x` → `https://host/roomcraft/v1/job/x`.
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new TypeError(`baseUrl must be http(s): ${base.href}`);
  return {
    baseUrl: base,
    apiKey: options.apiKey,
    timeout: options.timeout ?? DEFAULTS.timeout,
    retry: options.retry ?? DEFAULTS.retry,
    pollInterval: options.pollInterval ?? DEFAULTS.pollInterval,
    headers: { ...options.headers },
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
  };
}
