import crypto from 'node:crypto';
import { AppError } from '../errors.js';
import { hashPassword, needsRehash, verifyPassword } from '../security/password.js';
import { generateWebhookSecret } from '../security/webhook-signature.js';
import type { Account, UserRepository } from '../repositories/user-repository.js';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** The one answer to every failed log-in, whether the email is unknown, has no password, or the password is wrong. */
const WRONG_CREDENTIALS = 'the email or the password is wrong';

/**
 * Accounts of people who log in to the dashboard: sign-up, log-in, password changes. Passwords are hashed with
 * scrypt (security/password.ts); a log-in whose email is unknown, or whose user has no password yet, still runs one
 * scrypt verification, so neither the answer nor its time tells which emails exist.
 */
export class AccountService {
  /** A hash no password matches, verified in place of a missing one. */
  private readonly decoy: Promise<string>;

  constructor(private readonly users: UserRepository) {
    this.decoy = hashPassword(crypto.randomBytes(32).toString('base64url'));
  }

  /** Creates a user who logs in with a password; emails are stored trimmed and lower-cased. */
  async signUp(email: string, password: string): Promise<Account> {
    const normalized = email.trim().toLowerCase();
    if (!EMAIL.test(normalized)) {
      const message = 'email is not an email address';
      throw new AppError('validation_failed', 400, message, { fieldErrors: [{ field: '/email', message }] });
    }
    if (await this.users.findAccountByEmail(normalized)) throw emailTaken();
    const id = `usr_${crypto.randomUUID()}`;
    try {
      await this.users.createUser({
        id,
        email: normalized,
        webhook_secret: generateWebhookSecret(),
        created_at: new Date().toISOString(),
        password_hash: await hashPassword(password),
        created_from: 'sign_up',
      });
    } catch (error) {
      // Two sign-ups of one email at once: the unique email lets one through.
      if (await this.users.findAccountByEmail(normalized)) throw emailTaken();
      throw error;
    }
    return (await this.users.findAccountById(id)) as Account;
  }

  /** The account whose email and password these are; 401 invalid_credentials otherwise, the same for every cause. */
  async logIn(email: string, password: string): Promise<Account> {
    const account = await this.users.findAccountByEmail(email.trim());
    const stored = account?.password_hash ?? (await this.decoy);
    const matches = await verifyPassword(password, stored);
    if (!account?.password_hash || !matches) throw new AppError('invalid_credentials', 401, WRONG_CREDENTIALS);
    // Parameters raised since this hash was made: the password is at hand, so it is hashed again with today's.
    if (needsRehash(account.password_hash)) await this.users.setPasswordHash(account.id, await hashPassword(password));
    return account;
  }

  /** Replaces the password of a user who proves the current one (401 invalid_credentials otherwise). */
  async changePassword(userId: string, current: string, next: string): Promise<void> {
    const account = await this.users.findAccountById(userId);
    if (!account?.password_hash || !(await verifyPassword(current, account.password_hash))) {
      throw new AppError('invalid_credentials', 401, 'the current password is wrong');
    }
    await this.users.setPasswordHash(userId, await hashPassword(next));
  }

  /**
   * Sets the password of an existing user from the command line (users made by `roomcraft keys create` have none);
   * false when no user has that email.
   */
  async setPassword(email: string, password: string): Promise<boolean> {
    const account = await this.users.findAccountByEmail(email.trim());
    if (!account) return false;
    await this.users.setPasswordHash(account.id, await hashPassword(password));
    return true;
  }
}

function emailTaken(): AppError {
  return new AppError('email_taken', 409, 'an account with this email exists: log in, or ask the operator to set its password');
}
