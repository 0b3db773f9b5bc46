import { ApiError, call, setCsrfToken } from './api.js';

/** The logged-in user, as GET /dashboard/api/session describes them. */
export interface Session {
  email: string;
  isAdmin: boolean;
}

interface SessionAnswer {
  user: { id: string; email: string; isAdmin: boolean };
  csrfToken: string;
}

/** The current session, or undefined when this browser is not logged in; keeps its CSRF token for later calls. */
export async function currentSession(): Promise<Session | undefined> {
  try {
    const answer = await call<SessionAnswer>('/dashboard/api/session');
    setCsrfToken(answer.csrfToken);
    return { email: answer.user.email, isAdmin: answer.user.isAdmin };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      setCsrfToken(undefined);
      return undefined;
    }
    throw error;
  }
}

export async function logIn(kind: 'login' | 'signup', email: string, password: string): Promise<void> {
  const answer = await call<SessionAnswer>(`/dashboard/api/${kind === 'login' ? 'log-in' : 'sign-up'}`, { method: 'POST', body: { email, password } });
  setCsrfToken(answer.csrfToken);
}

export async function logOut(): Promise<void> {
  await call('/dashboard/api/log-out', { method: 'POST' });
  setCsrfToken(undefined);
}
