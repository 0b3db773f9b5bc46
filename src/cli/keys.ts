import { openDatabase } from '../repositories/database/database.js';
import { UserRepository } from '../repositories/user-repository.js';
import { KeyService } from '../services/key-service.js';
import type { Config } from '../config/config.js';

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

export async function revokeKey(config: Config, prefix: string | undefined): Promise<number> {
  if (!prefix) {
    process.stderr.write('usage: roomcraft keys revoke --prefix P\n');
    return 2;
  }
  const revoked = await withKeyService(config, (keys) => keys.revoke(prefix));
  process.stdout.write(revoked ? `Revoked ${prefix}.\n` : `No active key with prefix ${prefix}.\n`);
  return revoked ? 0 : 1;
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
