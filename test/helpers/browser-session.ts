import assert from 'node:assert/strict';
import type { App } from '../../src/app.js';

/** What a browser holds after logging in to the dashboard: its cookie and the session's CSRF token. */
export interface BrowserSession {
  /** The Cookie request header that sends the session (`name=token`). */
  cookie: string;
  csrfToken: string;
  /** Headers of a state-changing request from the dashboard's own pages: cookie, CSRF token, Origin. */
  headers: Record<string, string>;
  /** The whole Set-Cookie value the log-in answered with. */
  setCookie: string;
}

/** Signs up (or logs in, with `as: 'log-in'`) through the dashboard API, as a page of `origin` would, and checks it worked. */
export async function browserSession(
  app: App,
  origin: string,
  credentials: { email: string; password: string },
  as: 'sign-up' | 'log-in' = 'sign-up',
): Promise<BrowserSession> {
  const response = await app.inject({ method: 'POST', url: `/dashboard/api/${as}`, headers: { origin }, payload: credentials });
  assert.equal(response.statusCode, as === 'sign-up' ? 201 : 200, response.body);
  const setCookie = response.headers['set-cookie'];
  assert.equal(typeof setCookie, 'string');
  const cookie = (setCookie as string).split(';')[0] as string;
  const { csrfToken } = response.json() as { csrfToken: string };
  return { cookie, csrfToken, setCookie: setCookie as string, headers: { cookie, 'x-csrf-token': csrfToken, origin } };
}
