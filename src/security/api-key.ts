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

/**
 * Random characters a prefix shows: 11 base64url characters, 66 of the key's 192 bits, so that among millions of keys
 * a prefix still names one, while the 126 bits it leaves out keep the key unguessable.
 */
const PREFIX_RANDOM_CHARS = 11;

/**
 * How many characters the prefixes of keys made before the longer prefixes show (`rc_live_` and 4 random characters,
 * 24 bits): those keys keep their stored prefix, and a revocation by prefix is never given fewer characters.
 */
export const LEGACY_PREFIX_LENGTH = 12;

/** The part of a key safe to show in listings and logs: `rc_<kind>_` and the first random characters. */
export function apiKeyPrefix(key: string): string {
  const random = key.indexOf('_', 'rc_'.length) + 1;
  return key.slice(0, random + PREFIX_RANDOM_CHARS);
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export function parseBearer(header: string | undefined): string | undefined {
  return header ? BEARER.exec(header)?.[1] : undefined;
}
