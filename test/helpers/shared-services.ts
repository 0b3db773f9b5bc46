import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import type { Config, DeepPartial } from '../../src/config/config.js';
import { s3StorageOverrides, startS3Server } from './s3-server.js';

/**
 * The services test apps share when the suite runs as a cluster would (ROOMCRAFT_TEST_S3=1: outputs in an s3rver
 * bucket; ROOMCRAFT_TEST_REDIS_URL: BullMQ queues, the settle channel and the rate limit on that Redis). Apps on one
 * test database share one bucket and one Redis prefix, as processes of one deployment do; the last one to close
 * removes them.
 */
interface Shared {
  overrides: DeepPartial<Config>;
  users: number;
  release(): Promise<void>;
}

const byDatabase = new Map<string, Promise<Shared>>();

export async function acquireSharedServices(databaseKey: string, testChoseStorage: boolean): Promise<{ overrides: DeepPartial<Config>; release(): Promise<void> }> {
  const wantS3 = process.env.ROOMCRAFT_TEST_S3 === '1' && !testChoseStorage;
  const redisUrl = process.env.ROOMCRAFT_TEST_REDIS_URL;
  if (!wantS3 && !redisUrl) return { overrides: {}, release: async () => {} };
  let pending = byDatabase.get(databaseKey);
  if (!pending) {
    pending = start(wantS3, redisUrl);
    byDatabase.set(databaseKey, pending);
  }
  const shared = await pending;
  shared.users += 1;
  return {
    overrides: shared.overrides,
    async release() {
      shared.users -= 1;
      if (shared.users > 0) return;
      byDatabase.delete(databaseKey);
      await shared.release();
    },
  };
}

async function start(wantS3: boolean, redisUrl: string | undefined): Promise<Shared> {
  const s3 = wantS3 ? await startS3Server() : undefined;
  const redisPrefix = `roomcraft-test-${crypto.randomBytes(6).toString('hex')}`;
  return {
    overrides: { ...(s3 ? s3StorageOverrides(s3) : {}), ...(redisUrl ? { redisUrl, redisPrefix } : {}) },
    users: 0,
    async release() {
      await s3?.close();
      if (redisUrl) {
        const redis = new Redis(redisUrl);
        const keys = await redis.keys(`${redisPrefix}*`);
        if (keys.length > 0) await redis.del(...keys);
        await redis.quit();
      }
    },
  };
}
