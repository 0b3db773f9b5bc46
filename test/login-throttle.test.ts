import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../src/errors.js';
import { MemoryCounterStore } from '../src/repositories/rate-limit-store.js';
import { ATTEMPTS_PER_ADDRESS, ATTEMPTS_PER_EMAIL, LoginThrottle } from '../src/services/login-throttle.js';

const WINDOW_START = Date.UTC(2026, 0, 1, 12, 0, 0);
const silent = { warn: () => {} };

/** A throttle on a clock the test sets; `at.ms` is the time. */
function frozen() {
  const at = { ms: WINDOW_START };
  const clock = () => at.ms;
  return { at, throttle: new LoginThrottle(new MemoryCounterStore(clock), silent, clock) };
}

async function refused(attempt: Promise<void>): Promise<AppError | undefined> {
  try {
    await attempt;
    return undefined;
  } catch (error) {
    assert.ok(error instanceof AppError);
    return error;
  }
}

describe('log-in throttle', () => {
  it('allows 10 attempts per email in a window and refuses the 11th with the seconds to the next window', async () => {
    const { at, throttle } = frozen();
    for (let i = 0; i < ATTEMPTS_PER_EMAIL; i++) assert.equal(await refused(throttle.logIn('a@example.com', `10.0.0.${i}`)), undefined);
    at.ms += 60_000;
    const error = await refused(throttle.logIn('A@Example.com', '10.0.1.1'));
    assert.equal(error?.code, 'rate_limited', 'the email is counted whatever its case and whichever address tries it');
    assert.equal(error?.status, 429);
    assert.equal(error?.extra.retryAfterSeconds, 14 * 60);
    assert.equal(await refused(throttle.logIn('b@example.com', '10.0.1.1')), undefined, 'another email has its own budget');
    at.ms = WINDOW_START + 15 * 60_000;
    assert.equal(await refused(throttle.logIn('a@example.com', '10.0.2.1')), undefined, 'a new window starts a new count');
  });

  it('allows 50 log-ins and sign-ups together per address in a window', async () => {
    const { throttle } = frozen();
    for (let i = 0; i < ATTEMPTS_PER_ADDRESS; i++) {
      const attempt = i % 2 === 0 ? throttle.signUp('192.0.2.7') : throttle.logIn(`user${i}@example.com`, '192.0.2.7');
      assert.equal(await refused(attempt), undefined);
    }
    assert.equal((await refused(throttle.logIn('fresh@example.com', '192.0.2.7')))?.code, 'rate_limited');
    assert.equal((await refused(throttle.signUp('192.0.2.7')))?.code, 'rate_limited');
    assert.equal(await refused(throttle.signUp('192.0.2.8')), undefined);
  });

  it('lets attempts through when its counter store fails, as the rate limit does', async () => {
    const failing = { increment: async () => Promise.reject(new Error('redis down')), close: async () => {} };
    const warnings: unknown[] = [];
    const throttle = new LoginThrottle(failing, { warn: (...args: unknown[]) => warnings.push(args) });
    assert.equal(await refused(throttle.logIn('a@example.com', '10.0.0.1')), undefined);
    assert.ok(warnings.length > 0);
  });
});
