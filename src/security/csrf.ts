import crypto from 'node:crypto';

/** The request header that carries a session's CSRF token on every state-changing request made with the session. */
export const CSRF_HEADER = 'x-csrf-token';

/**
 * A session's CSRF token: an HMAC of a fixed label keyed by the session token. It is stored nowhere, the server
 * computes it again from the cookie on each request, and it reveals nothing of the token (the cookie stays the only
 * secret that logs a browser in). A page of another origin can neither read the cookie nor the answer that shows the
 * CSRF token, so it cannot send the pair.
 */
export function csrfTokenOf(sessionToken: string): string {
  return crypto.createHmac('sha256', sessionToken).update('roomcraft csrf token').digest('base64url');
}

/** Whether the request's CSRF header carries `expected`, compared in constant time. */
export function csrfTokenMatches(sent: string | string[] | undefined, expected: string): boolean {
  if (typeof sent !== 'string') return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/**
 * Whether a browser sent the request from a page of the service's own origin (`ROOMCRAFT_PUBLIC_URL`'s scheme, host
 * and port). Browsers send `Origin` on every POST, PUT and DELETE, same-origin ones included; a request without it is
 * refused, so a client outside a browser names the origin itself.
 */
export function isSameOrigin(origin: string | undefined, publicUrl: string): boolean {
  return origin !== undefined && origin === new URL(publicUrl).origin;
}

/** Methods that change nothing, which need neither the CSRF token nor the Origin check. */
export function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}
