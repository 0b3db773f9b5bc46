/**
 * The dashboard's session cookie. Over https (ROOMCRAFT_PUBLIC_URL starts with https://) it is
 * `__Host-roomcraft_session` with `Secure`: the prefix makes browsers refuse it unless it is Secure, for the whole
 * host (Path=/, no Domain), so neither a plain-http page nor a sibling subdomain can set or shadow it. Over plain http
 * (a service on localhost) browsers would drop a Secure cookie, so it is `roomcraft_session` without `Secure`.
 * Always HttpOnly (no script reads it) and SameSite=Lax (not sent with another site's POSTs, subresource loads or
 * scripted requests; sent when a person follows a link to the dashboard, which changes nothing).
 * Path=/ because the playground's calls to /v1 carry it too.
 */
export interface SessionCookie {
  name: string;
  /** The Set-Cookie value that stores `token` for `maxAgeSeconds`. */
  set(token: string, maxAgeSeconds: number): string;
  /** The Set-Cookie value that deletes the cookie. */
  clear(): string;
  /** The session token in a request's Cookie header, if any. */
  read(cookieHeader: string | undefined): string | undefined;
}

export function sessionCookie(publicUrl: string): SessionCookie {
  const secure = new URL(publicUrl).protocol === 'https:';
  const name = secure ? '__Host-roomcraft_session' : 'roomcraft_session';
  const attributes = `Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  return {
    name,
    set: (token, maxAgeSeconds) => `${name}=${token}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; ${attributes}`,
    clear: () => `${name}=; Max-Age=0; ${attributes}`,
    read: (header) => readCookie(header, name),
  };
}

/** Session tokens are base64url; anything else under the cookie's name is no session. */
const TOKEN = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The value of cookie `name` in a Cookie header (`a=1; b=2`, RFC 6265 §4.2). The first pair of that name wins, as
 * browsers send the most specific cookie first.
 */
function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals < 0 || pair.slice(0, equals).trim() !== name) continue;
    const value = pair.slice(equals + 1).trim();
    return TOKEN.test(value) ? value : undefined;
  }
  return undefined;
}
