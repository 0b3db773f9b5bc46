import crypto from 'node:crypto';
import { apiKeyPrefix, generateApiKey, hashApiKey, LEGACY_PREFIX_LENGTH } from '../security/api-key.js';
import { generateWebhookSecret } from '../security/webhook-signature.js';
import type { KeyOwner, UserRepository } from '../repositories/user-repository.js';
import type { ApiKeysTable, KeyKind } from '../repositories/database/schema.js';

/** How long a verified key is trusted without asking the database again; a revocation takes effect within it. */
const AUTH_CACHE_MS = 60_000;
const AUTH_CACHE_MAX = 10_000;

export interface CreatedKey {
  key: string;
  kind: KeyKind;
  userId: string;
  email: string;
  webhookSecret: string;
  prefix: string;
}

/** What `revoke` did: the one key it revoked, or why it revoked none. */
export type Revocation =
  | { outcome: 'revoked'; prefix: string; userId: string }
  | { outcome: 'ambiguous'; matches: number }
  | { outcome: 'not_found' }
  | { outcome: 'too_short'; minimum: number };

export class KeyService {
  private readonly cache = new Map<string, { owner: KeyOwner | undefined; expiresAt: number }>();

  constructor(private readonly users: UserRepository) {}

  /** Creates the user on first use, then a new key; the key is returned once and only its hash is kept. */
  async createKey(email: string, kind: KeyKind): Promise<CreatedKey> {
    const now = new Date().toISOString();
    let user = await this.users.findByEmail(email);
    if (!user) {
      user = { id: `usr_${crypto.randomUUID()}`, email, webhook_secret: generateWebhookSecret(), created_at: now };
      await this.users.createUser(user);
    }
    const key = generateApiKey(kind);
    const prefix = apiKeyPrefix(key);
    await this.users.createKey({
      id: `key_${crypto.randomUUID()}`,
      user_id: user.id,
      kind,
      key_hash: hashApiKey(key),
      prefix,
      created_at: now,
      revoked_at: null,
    });
    return { key, kind, userId: user.id, email, webhookSecret: user.webhook_secret, prefix };
  }

  /** A new key for an existing user (the dashboard's): returned once, only its hash is kept. */
  async createKeyForUser(userId: string, kind: KeyKind): Promise<{ id: string; key: string; kind: KeyKind; prefix: string; createdAt: string }> {
    const key = generateApiKey(kind);
    const row = {
      id: `key_${crypto.randomUUID()}`,
      user_id: userId,
      kind,
      key_hash: hashApiKey(key),
      prefix: apiKeyPrefix(key),
      created_at: new Date().toISOString(),
      revoked_at: null,
    };
    await this.users.createKey(row);
    return { id: row.id, key, kind, prefix: row.prefix, createdAt: row.created_at };
  }

  async keysOf(userId: string): Promise<ApiKeysTable[]> {
    return this.users.listKeys(userId);
  }

  /**
   * Revokes the user's key `keyId`: the key's row once revoked (also when it already was), or undefined when the user
   * has no such key. This process stops accepting it at once; other API processes within AUTH_CACHE_MS.
   */
  async revokeOwnKey(userId: string, keyId: string): Promise<ApiKeysTable | undefined> {
    const key = await this.users.findKey(userId, keyId);
    if (!key) return undefined;
    if (key.revoked_at === null) {
      await this.users.revokeKey(key.id, new Date().toISOString());
      this.cache.clear();
    }
    return this.users.findKey(userId, keyId);
  }

  /** Replaces the user's webhook signing secret; deliveries sent from now on (retries included) are signed with the new one. */
  async rotateWebhookSecret(userId: string): Promise<string> {
    const secret = generateWebhookSecret();
    await this.users.setWebhookSecret(userId, secret);
    return secret;
  }

  async webhookSecretOf(userId: string): Promise<string> {
    const user = await this.users.findById(userId);
    if (!user) throw new Error(`no user ${userId}`);
    return user.webhook_secret;
  }

  async webhookSecretByEmail(email: string): Promise<string | undefined> {
    return (await this.users.findByEmail(email))?.webhook_secret;
  }

  /**
   * Revokes the one active key named by `prefixOrKey`: the whole key, or its listed prefix or any start of it at least
   * LEGACY_PREFIX_LENGTH long. A start that several active keys share revokes none of them. Keys made before the longer
   * prefixes kept their 12-character prefix, which thousands of keys may share: the whole key always names one.
   */
  async revoke(prefixOrKey: string): Promise<Revocation> {
    if (prefixOrKey.length < LEGACY_PREFIX_LENGTH) return { outcome: 'too_short', minimum: LEGACY_PREFIX_LENGTH };
    const hash = hashApiKey(prefixOrKey);
    // Every candidate shares at least the legacy prefix; the few rows that do are sorted out here.
    const candidates = await this.users.findActiveKeysByPrefixStart(prefixOrKey.slice(0, LEGACY_PREFIX_LENGTH));
    const whole = candidates.find((key) => key.key_hash === hash);
    const matches = whole ? [whole] : candidates.filter((key) => key.prefix.startsWith(prefixOrKey));
    const [only] = matches;
    if (!only) return { outcome: 'not_found' };
    if (matches.length > 1) return { outcome: 'ambiguous', matches: matches.length };
    // Revoked meanwhile by someone else: not found, as it would be a moment later.
    if (!(await this.users.revokeKey(only.id, new Date().toISOString()))) return { outcome: 'not_found' };
    this.cache.clear();
    return { outcome: 'revoked', prefix: only.prefix, userId: only.user_id };
  }

  async authenticate(key: string): Promise<KeyOwner | undefined> {
    const hash = hashApiKey(key);
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) return cached.owner;
    const owner = await this.users.findOwnerByKeyHash(hash);
    if (this.cache.size >= AUTH_CACHE_MAX) this.cache.clear();
    this.cache.set(hash, { owner, expiresAt: now + AUTH_CACHE_MS });
    return owner;
  }
}
