/**
 * Every call the dashboard makes, in one place. The dashboard API (/dashboard/api/…) and the /v1 API are both
 * called with the session cookie (same origin, HttpOnly: this code never sees it); state-changing calls carry the
 * session's CSRF token in X-CSRF-Token, which the session endpoint hands out.
 */
import type { Furniture, Job, JobList, Room, Sky, Style } from '../client/responses.js';

/** application/problem+json, as every refusal of the service is. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  errors?: { field: string; message: string }[];
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
  ) {
    super(problem.detail ?? problem.title ?? `the service answered ${status}`);
    this.name = 'ApiError';
  }
}

let csrfToken: string | undefined;

/** The CSRF token of the session, from the session endpoint; sent with every state-changing call. */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export async function call<T>(path: string, options: CallOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  if (!response.ok) throw new ApiError(response.status, (parsed ?? {}) as Problem);
  return parsed as T;
}

/** A refusal in words, for the page: the problem's detail, and each field's message. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = error.problem.errors?.map((e) => e.message) ?? [];
    return [error.message, ...fields.filter((message) => !error.message.includes(message))].join(' — ');
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

// The /v1 shapes are the typed client's (src/client/responses.ts), which a test keeps equal to the OpenAPI document.
export type { Furniture, Job, JobList, Room, Sky, Style } from '../client/responses.js';

export const v1 = {
  jobs: (query: URLSearchParams, signal?: AbortSignal) => call<JobList>(`/v1/jobs?${query}`, signal ? { signal } : {}),
  job: (id: string, signal?: AbortSignal) => call<Job>(`/v1/job/${encodeURIComponent(id)}`, signal ? { signal } : {}),
  styles: () => call<Style[]>('/v1/styles'),
  rooms: () => call<Room[]>('/v1/rooms'),
  furnitures: () => call<Record<string, Furniture[]>>('/v1/furnitures'),
  skies: () => call<Sky[]>('/v1/skies'),
  /** Submits without waiting: the pending acknowledgement, whose id the playground then follows. */
  submit: (operation: string, body: Record<string, unknown>) =>
    call<{ status: 'pending'; id: string }>(`/v1/${operation}`, { method: 'POST', body, headers: { prefer: 'respond-async' } }),
};

export interface KeyListing {
  id: string;
  prefix: string;
  kind: 'test' | 'live';
  createdAt: string;
  revokedAt?: string | null;
}

export interface Delivery {
  id: string;
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  event: string;
  lastResponseStatus: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The session-authenticated dashboard API. */
export const dashboardApi = {
  keys: () => call<{ keys: KeyListing[] }>('/dashboard/api/keys'),
  createKey: (kind: 'test' | 'live') => call<KeyListing & { key: string }>('/dashboard/api/keys', { method: 'POST', body: { kind } }),
  revokeKey: (id: string) => call<KeyListing>(`/dashboard/api/keys/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  webhookSecret: () => call<{ secret: string }>('/dashboard/api/webhook-secret'),
  rotateWebhookSecret: () => call<{ secret: string }>('/dashboard/api/webhook-secret/rotate', { method: 'POST' }),
  deliveries: (jobId: string) => call<{ deliveries: Delivery[] }>(`/dashboard/api/jobs/${encodeURIComponent(jobId)}/deliveries`),
  redeliver: (jobId: string) => call<{ id: string }>(`/dashboard/api/jobs/${encodeURIComponent(jobId)}/redeliver`, { method: 'POST' }),
  /** Ends the user's other sessions; this one stays. */
  changePassword: (currentPassword: string, newPassword: string) =>
    call<{ endedSessions: number }>('/dashboard/api/password', { method: 'POST', body: { currentPassword, newPassword } }),
};

/** GET /v1/account: the balance, the plan, this period's use by operation. */
export interface Account {
  balance: number;
  plan: { name: string; monthlyCredits: number; addons: string[]; licensedSince: string } | null;
  period: { start: string; end: string } | null;
  usage: { operation: string; item: string; charges: number; refunds: number; credits: number }[];
  testKeys: { dailyJobs: number; jobsToday: number };
}

/** One line of GET /v1/usage: a day's ledger lines of one kind for one item; credits signed (charges negative). */
export interface UsageLine {
  date: string;
  entry: 'grant' | 'charge' | 'refund';
  item: string;
  operation: string | null;
  lines: number;
  credits: number;
}

export const credits = {
  account: () => call<Account>('/v1/account'),
  usage: (from: string, to: string) => call<{ from: string; to: string; days: UsageLine[] }>(`/v1/usage?${new URLSearchParams({ from, to })}`),
};
