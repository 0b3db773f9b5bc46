import dns from 'node:dns';
import net from 'node:net';
import type { Readable } from 'node:stream';
import { Agent, buildConnector, request } from 'undici';
import type { Config } from '../../config/config.js';
import { AppError } from '../../errors.js';
import { createAddressPolicy, type AddressPolicy } from '../../security/address-policy.js';

export interface FetchedBytes {
  bytes: Buffer;
  /** Media type without parameters, lower-cased (`image/png`); undefined when the server sent none. */
  contentType: string | undefined;
  /** URL of the response after redirects; for a data: URL, the URL as given. */
  finalUrl: string;
}

export interface GuardedFetcher {
  /**
   * GETs an http(s) URL, following at most `maxRedirects` redirects, or decodes a data: URL.
   * Errors are AppErrors: fetch_refused, too_many_redirects, fetch_too_large, fetch_timeout, fetch_failed
   * (all 400, since they are about the URL the client gave). Aborting `signal` rejects with its reason.
   */
  fetchBytes(url: string, opts?: { signal?: AbortSignal }): Promise<FetchedBytes>;
  /**
   * POSTs for webhooks: same address guard, redirects are not followed (a 3xx is returned as the status),
   * and the response body is drained up to a small cap and otherwise ignored.
   */
  post(
    url: string,
    body: string,
    headers: Record<string, string>,
    opts: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<{ status: number }>;
  /**
   * Refuses (fetch_refused) a URL that post() and fetchBytes() would refuse to connect to, as they judge it: the
   * scheme, an IP literal, or the addresses its host name resolves to now (unless the host name is allow-listed).
   * A host name that does not resolve, or not within the connect timeout, passes: that is a delivery failure, which
   * may be transient, not a refusal.
   */
  assertDestinationAllowed(url: string): Promise<void>;
  /** Closes the pooled connections; pending requests finish first. */
  close(): Promise<void>;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Bodies nobody reads (redirects, errors, webhook acknowledgements) are drained up to this, then cut off. */
const DISCARDED_BODY_LIMIT_BYTES = 64 * 1024;
const FETCH_HEADERS = { accept: 'image/*,*/*;q=0.8', 'user-agent': 'Roomcraft' };

/**
 * The single way out of the service towards user-supplied URLs (see Config['fetch'] for the limits).
 *
 * The address check lives in the connection itself: every socket the agent opens goes through a
 * connector that refuses disallowed IP-literal hosts and resolves hostnames with a lookup that refuses
 * disallowed answers. The address judged is the address connected to, so DNS rebinding between a check
 * and the connection cannot happen. URLs are also checked up front so refusals need no network at all.
 */
export function createGuardedFetcher(options: Config['fetch']): GuardedFetcher {
  const policy = createAddressPolicy(options.allow);
  const agent = new Agent({ connect: guardedConnector(policy, options.connectTimeoutMs) });

  async function fetchHttp(start: URL, signal: AbortSignal): Promise<FetchedBytes> {
    let url = start;
    for (let redirects = 0; ; redirects++) {
      assertAllowedUrl(url, policy);
      const response = await request(url, { dispatcher: agent, method: 'GET', headers: FETCH_HEADERS, signal });
      const { statusCode, headers, body } = response;

      if (REDIRECT_STATUSES.has(statusCode)) {
        await body.dump({ limit: DISCARDED_BODY_LIMIT_BYTES, signal });
        if (redirects >= options.maxRedirects) {
          throw new AppError('too_many_redirects', 400, `More than ${options.maxRedirects} redirects fetching ${start.host}`);
        }
        url = redirectTarget(url, firstHeader(headers.location), statusCode);
        continue;
      }
      if (statusCode < 200 || statusCode > 299) {
        await body.dump({ limit: DISCARDED_BODY_LIMIT_BYTES, signal });
        throw new AppError('fetch_failed', 400, `${url.host} answered with HTTP status ${statusCode}`);
      }
      const bytes = await readCapped(body, firstHeader(headers['content-length']), options.maxBytes, url.host);
      return { bytes, contentType: mediaTypeEssence(firstHeader(headers['content-type'])), finalUrl: url.href };
    }
  }

  return {
    async fetchBytes(url, opts = {}) {
      const trimmed = url.trim();
      if (/^data:/i.test(trimmed)) return decodeDataUrl(trimmed, options.maxBytes);
      const target = parseUrl(trimmed);
      const deadline = startDeadline(options.totalTimeoutMs, opts.signal);
      try {
        return await fetchHttp(target, deadline.signal);
      } catch (error) {
        throw toAppError(error, target.host, deadline, opts.signal);
      } finally {
        deadline.dispose();
      }
    },

    async post(url, body, headers, opts) {
      const target = parseUrl(url);
      assertAllowedUrl(target, policy);
      const deadline = startDeadline(opts.timeoutMs, opts.signal);
      try {
        const response = await request(target, {
          dispatcher: agent,
          method: 'POST',
          headers: { 'user-agent': FETCH_HEADERS['user-agent'], ...headers },
          body,
          signal: deadline.signal,
        });
        // The status is the answer; a body that stalls or breaks afterwards does not undo the delivery.
        await response.body.dump({ limit: DISCARDED_BODY_LIMIT_BYTES, signal: deadline.signal }).catch(() => undefined);
        return { status: response.statusCode };
      } catch (error) {
        throw toAppError(error, target.host, deadline, opts.signal);
      } finally {
        deadline.dispose();
      }
    },

    async assertDestinationAllowed(url) {
      const target = parseUrl(url);
      assertAllowedUrl(target, policy);
      const host = target.hostname;
      if (net.isIP(host.replace(/^\[(.*)\]$/, '$1'))) return;
      const addresses = await resolveWithin(host, options.connectTimeoutMs);
      const refusal = addresses && refusalOf(host, addresses, policy);
      if (refusal) throw refusal;
    },

    close: () => agent.close(),
  };
}

/** All the addresses of a host name, or undefined when it does not resolve within `timeoutMs`. */
async function resolveWithin(hostname: string, timeoutMs: number): Promise<dns.LookupAddress[] | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, undefined);
  });
  try {
    return await Promise.race([dns.promises.lookup(hostname, { all: true }).catch(() => undefined), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The refusal of a host name whose addresses are these: any disallowed address refuses it (unless the host name is
 * allow-listed), and so does having none. Refusing rather than filtering keeps the outcome independent of which
 * address the connection would have tried first.
 */
function refusalOf(hostname: string, addresses: readonly dns.LookupAddress[], policy: AddressPolicy): AppError | undefined {
  const trusted = policy.isHostAllowlisted(hostname);
  if (addresses.length === 0 || (!trusted && addresses.some((a) => !policy.isAllowed(a.address)))) return refused(hostname);
  return undefined;
}

/** Wraps undici's connector so no socket is opened to an address the policy refuses. */
function guardedConnector(policy: AddressPolicy, connectTimeoutMs: number): buildConnector.connector {
  const connect = buildConnector({ timeout: connectTimeoutMs, lookup: guardedLookup(policy) });
  return (connectOptions, callback) => {
    // net.connect skips `lookup` for IP literals, so they are judged here (undici has removed the brackets).
    const { hostname } = connectOptions;
    if (net.isIP(hostname) && !policy.isAllowed(hostname)) {
      callback(refused(hostname), null);
      return;
    }
    connect(connectOptions, callback);
  };
}

/** A dns.lookup that refuses a host name as refusalOf judges its addresses: the check of every connection. */
function guardedLookup(policy: AddressPolicy): net.LookupFunction {
  return (hostname, lookupOptions, callback) => {
    dns.lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const refusal = refusalOf(hostname, addresses, policy);
      if (refusal) return callback(refusal, '', 0);
      if (lookupOptions.all) return callback(null, addresses);
      const [first] = addresses as [dns.LookupAddress];
      callback(null, first.address, first.family);
    });
  };
}

function assertAllowedUrl(url: URL, policy: AddressPolicy): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('fetch_refused', 400, `Only http, https and data URLs can be fetched, not ${url.protocol}`);
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(host) && !policy.isAllowed(host)) throw refused(url.hostname);
}

function parseUrl(text: string): URL {
  try {
    return new URL(text);
  } catch {
    throw new AppError('fetch_refused', 400, 'The URL is not valid');
  }
}

function redirectTarget(from: URL, location: string | undefined, status: number): URL {
  if (!location) throw new AppError('fetch_failed', 400, `${from.host} answered ${status} without a Location`);
  try {
    return new URL(location, from);
  } catch {
    throw new AppError('fetch_failed', 400, `${from.host} redirected to an invalid URL`);
  }
}

/**
 * The refusal names the host the client gave, never what it resolved to (that would map the internal network), and
 * says how an operator opens it, since the first URL a new user tries is often one on their own machine.
 */
function refused(host: string): AppError {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const version = net.isIP(bare);
  const why =
    version === 0
      ? 'it resolves to a private, loopback or other non-public address'
      : 'private, loopback, link-local and other non-public addresses are refused';
  const example = version === 4 ? `${bare}/32` : version === 6 ? `${bare}/128` : bare;
  return new AppError(
    'fetch_refused',
    400,
    `The address of ${host} is not allowed: ${why}. The operator can open it with ROOMCRAFT_FETCH_ALLOW, a ` +
      `comma-separated list of CIDRs, IP addresses or host names (e.g. ROOMCRAFT_FETCH_ALLOW=${example})`,
  );
}

function tooLarge(maxBytes: number, host: string): AppError {
  return new AppError('fetch_too_large', 400, `The file at ${host} is larger than ${maxBytes} bytes`);
}

async function readCapped(body: Readable, contentLength: string | undefined, maxBytes: number, host: string): Promise<Buffer> {
  if (contentLength !== undefined && Number(contentLength) > maxBytes) {
    // undici reports the destroy as an error event that nobody else is listening for any more.
    body.on('error', () => undefined).destroy();
    throw tooLarge(maxBytes, host);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  // Leaving the loop by throwing destroys the stream, which closes the connection mid-download.
  for await (const chunk of body as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) throw tooLarge(maxBytes, host);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

interface Deadline {
  /** Aborts when the time is up or the caller's signal aborts. */
  signal: AbortSignal;
  timedOut(): boolean;
  dispose(): void;
}

/** An explicit timer instead of AbortSignal.any/timeout, so nothing stays registered on the caller's signal. */
function startDeadline(timeoutMs: number, callerSignal: AbortSignal | undefined): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('deadline exceeded'));
  }, timeoutMs);
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose() {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

function toAppError(error: unknown, host: string, deadline: Deadline, callerSignal: AbortSignal | undefined): unknown {
  if (error instanceof AppError) return error;
  if (callerSignal?.aborted && !deadline.timedOut()) return callerSignal.reason;
  const code = (error as { code?: unknown } | null)?.code;
  if (deadline.timedOut() || TIMEOUT_CODES.has(String(code))) {
    return new AppError('fetch_timeout', 400, `${host} did not answer in time`);
  }
  const reason = typeof code === 'string' ? ` (${code})` : '';
  return new AppError('fetch_failed', 400, `Could not fetch from ${host}${reason}`);
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function mediaTypeEssence(contentType: string | undefined): string | undefined {
  const essence = contentType?.split(';')[0]?.trim().toLowerCase();
  return essence || undefined;
}

/** RFC 2397 / WHATWG fetch data: URLs, base64 or percent-encoded; `url` starts with "data:". */
function decodeDataUrl(url: string, maxBytes: number): FetchedBytes {
  const comma = url.indexOf(',');
  if (comma === -1) throw new AppError('fetch_failed', 400, 'The data: URL has no comma before its data');
  const header = url.slice('data:'.length, comma);
  const isBase64 = /;\s*base64\s*$/i.test(header);
  const mediaType = isBase64 ? header.replace(/;\s*base64\s*$/i, '') : header;
  const payload = url.slice(comma + 1);
  const bytes = isBase64 ? decodeBase64Strictly(percentDecode(payload).toString('latin1')) : percentDecode(payload);
  if (bytes.length > maxBytes) throw tooLarge(maxBytes, 'the data: URL');
  return { bytes, contentType: mediaTypeEssence(mediaType) ?? 'text/plain', finalUrl: url };
}

function percentDecode(text: string): Buffer {
  const input = Buffer.from(text, 'utf8');
  if (!text.includes('%')) return input;
  const output = Buffer.allocUnsafe(input.length);
  let length = 0;
  for (let i = 0; i < input.length; i++) {
    const byte = input[i]!;
    const hex = byte === 0x25 ? input.toString('latin1', i + 1, i + 3) : '';
    if (/^[0-9a-f]{2}$/i.test(hex)) {
      output[length++] = parseInt(hex, 16);
      i += 2;
    } else {
      output[length++] = byte;
    }
  }
  return output.subarray(0, length);
}

/** Buffer.from(…, 'base64') skips garbage silently; a malformed upload should fail instead. */
function decodeBase64Strictly(text: string): Buffer {
  const compact = text.replace(/[\t\n\f\r ]/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.replace(/=+$/, '').length % 4 === 1) {
    throw new AppError('fetch_failed', 400, 'The data: URL is not valid base64');
  }
  return Buffer.from(compact, 'base64');
}
