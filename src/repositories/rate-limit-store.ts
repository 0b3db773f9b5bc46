import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';

/**
 * Where the rate limit keeps its counters. The limiter names one counter per subject and window; the store only counts,
 * atomically, so that every API process sharing the store sees one count.
 */
export interface CounterStore {
  /** Adds one to counter `key` and returns the new value. A counter this call creates disappears after `ttlMs`. */
  increment(key: string, ttlMs: number): Promise<number>;
  close(): Promise<void>;
}

/** Counters in this process: the embedded default, exact for one API process. */
export class MemoryCounterStore implements CounterStore {
  private readonly counters = new Map<string, { count: number; expiresAt: number }>();
  private nextSweepAt = 0;

  /** `now` is the clock that expires counters (tests freeze it). */
  constructor(private readonly now: () => number = () => Date.now()) {}

  async increment(key: string, ttlMs: number): Promise<number> {
    const now = this.now();
    // Expired counters are dropped in one pass at most once per ttl, so memory holds about two windows' subjects.
    if (now >= this.nextSweepAt) {
      for (const [name, counter] of this.counters) if (counter.expiresAt <= now) this.counters.delete(name);
      this.nextSweepAt = now + ttlMs;
    }
    let counter = this.counters.get(key);
    if (!counter || counter.expiresAt <= now) {
      counter = { count: 0, expiresAt: now + ttlMs };
      this.counters.set(key, counter);
    }
    counter.count += 1;
    return counter.count;
  }

  async close(): Promise<void> {
    this.counters.clear();
  }
}

/** INCR and, on the counter's first count, PEXPIRE, in one atomic step: no process can see a counter without expiry. */
const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

/**
 * A Redis command that has not answered in this long fails, and the limiter lets the request through uncounted: a slow
 * or partitioned Redis must not hold every API request.
 */
const COMMAND_TIMEOUT_MS = 2_000;

/** Counters in Redis, shared by every API process that uses the same Redis and key prefix. */
export class RedisCounterStore implements CounterStore {
  private readonly redis: Redis;

  /**
   * Opens its own connection to `url`, made to fail fast rather than queue: a command that cannot be sent is refused
   * after one connection attempt, and none waits longer than COMMAND_TIMEOUT_MS. Keys are `<prefix>:rate-limit:<key>`.
   */
  constructor(options: { url: string; prefix: string; logger: Pick<Logger, 'warn' | 'info'> }) {
    this.redis = new Redis(options.url, {
      keyPrefix: `${options.prefix}:rate-limit:`,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
    });
    // ioredis reports every failed reconnection attempt; the log gets the first of an outage and the recovery.
    let down = false;
    this.redis.on('error', (error: Error) => {
      if (down) return;
      down = true;
      options.logger.warn({ err: error }, 'rate-limit counters: Redis unreachable; requests pass uncounted until it is back');
    });
    this.redis.on('ready', () => {
      if (!down) return;
      down = false;
      options.logger.info('rate-limit counters: Redis reachable again');
    });
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    return (await this.redis.eval(INCREMENT_SCRIPT, 1, key, String(ttlMs))) as number;
  }

  async close(): Promise<void> {
    if (this.redis.status === 'end') return;
    // quit() waits for a reply that an unreachable Redis never sends; disconnect() closes at once.
    if (this.redis.status === 'ready') await this.redis.quit();
    else this.redis.disconnect();
  }
}

/** Redis counters when REDIS_URL is set (several API processes share one count), this process's otherwise. */
export function createRateLimitStore(config: Pick<Config, 'redisUrl' | 'redisPrefix'>, logger: Pick<Logger, 'warn' | 'info'>): CounterStore {
  return config.redisUrl
    ? new RedisCounterStore({ url: config.redisUrl, prefix: config.redisPrefix, logger })
    : new MemoryCounterStore();
}
