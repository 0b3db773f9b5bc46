import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signing per the Standard Webhooks specification (standardwebhooks.com), so receivers can verify our
 * deliveries with any of that specification's libraries.
 */

const SECRET_PREFIX = 'whsec_';
const SIGNATURE_VERSION = 'v1';
// The specification allows secrets of 24 to 64 bytes; we generate 32.
const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 64;

// A type alias rather than an interface so it is assignable to Record<string, string>.
export type WebhookHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
  'content-type': 'application/json';
};

export interface VerifyOptions {
  /** How far the timestamp may lie from `now`, either way, before the message is treated as a replay. */
  toleranceSeconds?: number;
  now?: Date;
}

export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the decoded secret. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string | Buffer): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestampSeconds}.`).update(body).digest('base64');
  return `${SIGNATURE_VERSION},${mac}`;
}

export function webhookHeaders(secret: string, id: string, timestampSeconds: number, body: string | Buffer): WebhookHeaders {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signWebhook(secret, id, timestampSeconds, body),
    'content-type': 'application/json',
  };
}

/**
 * Receiver-side check. The signature header may carry several space-separated signatures (the sender lists one per
 * secret while rotating secrets); the message is genuine when any `v1` one matches.
 */
export function verifyWebhook(
  secret: string,
  headers: Headers | Record<string, string | string[] | undefined>,
  body: string | Buffer,
  { toleranceSeconds = 300, now = new Date() }: VerifyOptions = {},
): boolean {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures || !/^\d{1,15}$/.test(timestamp)) return false;
  const timestampSeconds = Number(timestamp);
  if (Math.abs(now.getTime() / 1000 - timestampSeconds) > toleranceSeconds) return false;

  const expected = Buffer.from(signWebhook(secret, id, timestampSeconds, body));
  let valid = false;
  for (const candidate of signatures.split(' ')) {
    const given = Buffer.from(candidate);
    // Lengths are public (every v1 signature has the same length); only the content needs a constant-time compare.
    if (given.length === expected.length && timingSafeEqual(given, expected)) valid = true;
  }
  return valid;
}

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || key.length < MIN_SECRET_BYTES || key.length > MAX_SECRET_BYTES) {
    throw new Error(`webhook secrets are "${SECRET_PREFIX}" + base64 of ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} bytes`);
  }
  return key;
}

function header(headers: Headers | Record<string, string | string[] | undefined>, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value.join(' ') : value;
}
