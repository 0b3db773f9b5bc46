import crypto from 'node:crypto';
import { apiKeyPrefix, generateApiKey, hashApiKey, LEGACY_PREFIX_LENGTH } from '../security/api-key.js';
import { generateWebhookSecret } from '../security/webhook-signature.js';
import type { KeyOwner, UserRepository } from '../repositories/user-repository.js';
import type { KeyKind } from '../repositories/database/schema.js';

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
