import { Redis } from 'ioredis';

/**
 * A connection to the Redis the configuration names. `maxRetriesPerRequest: null` is what BullMQ's workers need (a
 * blocking read must wait out a reconnection rather than fail); the rate limit and the settle channel share the
 * setting, so a Redis restart delays them instead of failing them.
 */
export function openRedis(url: string, name: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, connectionName: `roomcraft-${name}`, lazyConnect: false });
}
