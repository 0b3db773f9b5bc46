import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;

export interface ScryptParameters {
  /** log2 of N, the CPU and memory cost: 128 · N · r bytes of memory per hash. */
  logN: number;
  r: number;
  p: number;
}

/**
 * N = 2^15, r = 8, p = 1: 32 MiB and about 65 ms per hash on the 2-core machine the project is measured on
 * (docs/decisions/0016-accounts-and-sessions.md). Stored with every hash, so raising them later rehashes each password
 * at its next log-in (needsRehash) while older hashes keep verifying.
 */
export const CURRENT_PARAMETERS: ScryptParameters = { logN: 15, r: 8, p: 1 };

const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** Parameters above these are refused when read back, so a tampered row cannot make a log-in take the machine. */
const MAX_LOG_N = 20;
const MAX_R = 16;
const MAX_P = 4;

/** Longest password accepted, in characters: long passphrases welcome, megabytes of input not. */
export const MAX_PASSWORD_LENGTH = 256;
/** Shortest password accepted (NIST SP 800-63B's minimum for a chosen password). */
export const MIN_PASSWORD_LENGTH = 8;

const FORMAT = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>`, salt and hash in base64url; a fresh random salt per password. */
export async function hashPassword(password: string, parameters: ScryptParameters = CURRENT_PARAMETERS): Promise<string> {
  const salt = crypto.randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, HASH_BYTES, parameters);
  return `scrypt$${parameters.logN}$${parameters.r}$${parameters.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** Whether `password` is the one `stored` was made from; compared in constant time. A malformed `stored` is false. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const hash = await derive(password, parsed.salt, parsed.hash.length, parsed.parameters);
  return crypto.timingSafeEqual(hash, parsed.hash);
}

/** Whether `stored` was made with other parameters than today's, so a log-in that verified it should store a new hash. */
export function needsRehash(stored: string): boolean {
  const parameters = parse(stored)?.parameters;
  return !parameters || parameters.logN !== CURRENT_PARAMETERS.logN || parameters.r !== CURRENT_PARAMETERS.r || parameters.p !== CURRENT_PARAMETERS.p;
}

function parse(stored: string): { parameters: ScryptParameters; salt: Buffer; hash: Buffer } | undefined {
  const match = FORMAT.exec(stored);
  if (!match) return undefined;
  const parameters = { logN: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  if (parameters.logN < 1 || parameters.logN > MAX_LOG_N || parameters.r < 1 || parameters.r > MAX_R || parameters.p < 1 || parameters.p > MAX_P) {
    return undefined;
  }
  const hash = Buffer.from(match[5] as string, 'base64url');
  if (hash.length < 16) return undefined;
  return { parameters, salt: Buffer.from(match[4] as string, 'base64url'), hash };
}

/**
 * Runs on libuv's thread pool, not the event loop. `maxmem` leaves room above the 128 · N · r · p bytes scrypt needs
 * (Node's default of 32 MiB is exactly N = 2^15's need and refuses it).
 */
function derive(password: string, salt: Buffer, length: number, { logN, r, p }: ScryptParameters): Promise<Buffer> {
  const N = 2 ** logN;
  return scrypt(password.normalize('NFKC'), salt, length, { N, r, p, maxmem: 2 * 128 * N * r * p });
}
