import crypto from 'node:crypto';
import type { Logger } from 'pino';
import { AppError } from '../errors.js';
import type { CounterStore } from '../repositories/rate-limit-store.js';

const WINDOW_MS = 15 * 60_000;
/** Log-in attempts per email address and window: a person who forgot a password gets ten tries. */
export const ATTEMPTS_PER_EMAIL = 10;
/** Log-in and sign-up attempts per client address and window (an office behind one address has room). */
export const ATTEMPTS_PER_ADDRESS = 50;

/**
 * Counts log-in attempts per email and per client address, and sign-ups per address, in fixed 15-minute windows of
 * the clock, in the rate limit's counter store (Redis when REDIS_URL is set: shared by every API process). Every
 * attempt counts, whether or not the email exists or the password is right, so the answer says nothing about the
 * account. Like the rate limit, it fails open when the store fails: scrypt still makes each guess cost.
 */
export class LoginThrottle {
  constructor(
    private readonly store: CounterStore,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Counts a log-in attempt; throws 429 rate_limited past either budget. */
  async logIn(email: string, address: string): Promise<void> {
    const emailHash = crypto.createHash('sha256').update(email.toLowerCase()).digest('hex');
    await this.count([
      [`login:email:${emailHash}`, ATTEMPTS_PER_EMAIL],
      [`login:ip:${address}`, ATTEMPTS_PER_ADDRESS],
    ]);
  }

  /** Counts a sign-up in the address's budget. */
  async signUp(address: string): Promise<void> {
    await this.count([[`login:ip:${address}`, ATTEMPTS_PER_ADDRESS]]);
  }

  private async count(budgets: Array<[subject: string, quota: number]>): Promise<void> {
    const at = this.now();
    const window = Math.floor(at / WINDOW_MS);
    let over = false;
    for (const [subject, quota] of budgets) {
      try {
        // Two windows of life, as in the rate limit: a process whose clock lags still finds the counter.
        if ((await this.store.increment(`${subject}:${window}`, 2 * WINDOW_MS)) > quota) over = true;
      } catch (error) {
        this.logger.warn({ err: error }, 'log-in attempts not counted: the counter store failed');
      }
    }
    if (over) {
      const retryAfterSeconds = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - at) / 1000));
      throw new AppError('rate_limited', 429, `too many attempts; retry in ${retryAfterSeconds} s`, { retryAfterSeconds });
    }
  }
}
