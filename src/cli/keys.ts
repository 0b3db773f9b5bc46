import { openDatabase } from '../repositories/database/database.js';
import { UserRepository } from '../repositories/user-repository.js';
import { KeyService } from '../services/key-service.js';
import type { Config } from '../config/config.js';
import { LICENCE_HINT } from '../services/licence-service.js';
import { withBilling } from './billing.js';

async function withKeyService<T>(config: Config, use: (keys: KeyService) => Promise<T>): Promise<T> {
  const database = await openDatabase(config);
  try {
    return await use(new KeyService(new UserRepository(database.db)));
  } finally {
    await database.close();
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export async function createKey(config: Config, email: string | undefined, kind: string | undefined): Promise<number> {
  if (!email || !EMAIL.test(email) || (kind !== 'test' && kind !== 'live')) {
    process.stderr.write('usage: roomcraft keys create --email E --kind test|live\n');
    return 2;
  }
  // "Subscribing to an API license yields the production key": a live key needs a licence in force; a test key never.
  if (kind === 'live' && !(await holdsLicence(config, email))) {
    process.stderr.write(`${email} holds no licence, and a live key needs one: ${LICENCE_HINT}. A test key needs none (--kind test).\n`);
    return 1;
  }
  const created = await withKeyService(config, (keys) => keys.createKey(email, kind));
  // Scripts read the key from the last line; the rest is for people.
  process.stdout.write(
    [
      `Created a ${created.kind} key for ${created.email} (user ${created.userId}, prefix ${created.prefix}).`,
      'It is shown only now; the server keeps only its hash.',
      `Webhook signing secret of this user: ${created.webhookSecret}`,
      created.key,
      '',
    ].join('\n'),
  );
  return 0;
}

async function holdsLicence(config: Config, email: string): Promise<boolean> {
  return withBilling(config, async ({ users, licences }) => {
    const user = await users.findByEmail(email);
    return user !== undefined && (await licences.canCreateLiveKey(user.id));
  });
}

/** Revokes one key by its prefix (or the whole key); refuses a prefix that several active keys share. */
export async function revokeKey(config: Config, prefix: string | undefined): Promise<number> {
  if (!prefix) {
    process.stderr.write('usage: roomcraft keys revoke --prefix P   (the prefix shown when the key was created, or the whole key)\n');
    return 2;
  }
  const revocation = await withKeyService(config, (keys) => keys.revoke(prefix));
  switch (revocation.outcome) {
    case 'revoked':
      process.stdout.write(`Revoked the key ${revocation.prefix} of user ${revocation.userId}.\n`);
      return 0;
    case 'too_short':
      process.stderr.write(`A prefix has at least ${revocation.minimum} characters (rc_live_ or rc_test_ and more); nothing was revoked.\n`);
      return 2;
    case 'ambiguous':
      process.stderr.write(
        `${revocation.matches} active keys have a prefix starting with ${prefix}; nothing was revoked. ` +
          'Give a longer prefix (the whole one shown when the key was created) or the whole key.\n',
      );
      return 1;
    case 'not_found':
      process.stderr.write(`No active key has a prefix starting with ${prefix}.\n`);
      return 1;
  }
}

export async function showWebhookSecret(config: Config, email: string | undefined): Promise<number> {
  if (!email) {
    process.stderr.write('usage: roomcraft webhook-secret --email E\n');
    return 2;
  }
  const secret = await withKeyService(config, (keys) => keys.webhookSecretByEmail(email));
  if (!secret) {
    process.stderr.write(`no user ${email}\n`);
    return 1;
  }
  process.stdout.write(`${secret}\n`);
  return 0;
}
