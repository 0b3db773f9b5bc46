import crypto from 'node:crypto';
import type { KeyKind } from '../repositories/database/schema.js';

const KEY_BYTES = 24;

/**
 * Keys look like `rc_live_<32 base64url chars>`: the kind is readable at a glance (and by secret scanners),
 * and 192 random bits make a fast hash safe to store, so lookups need no slow KDF.
 */
export function generateApiKey(kind: KeyKind): string {
  return `rc_${kind}_${crypto.randomBytes(KEY_BYTES).toString('base64url')}`;
}

export function hashApiKey(key: string): string {
  return crypto.createHash('sha256').update(key).digest('hex');
}

/** The part of a key safe to show in listings and logs. */
export function apiKeyPrefix(key: string): string {
  return key.slice(0, 12);
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export function parseBearer(header: string | undefined): string | undefined {
  return header ? BEARER.exec(header)?.[1] : undefined;
}
