import path from 'node:path';
import type { Config } from '../config/config.js';
import { LocalStorage, type Storage } from './storage.js';

/**
 * The store the configuration names: files under `dataDir/outputs` (the embedded default), or the S3-compatible bucket,
 * checked before the service starts (a missing bucket or refused credentials stop the start with a ConfigError).
 */
export async function createStorage(config: Config): Promise<Storage> {
  if (config.storage.driver === 'local') return new LocalStorage(path.join(config.dataDir, 'outputs'));
  // Loaded only here, so a local-disk service never loads the AWS SDK.
  const { S3Storage } = await import('./s3-storage.js');
  const storage = new S3Storage(config.storage.s3);
  await storage.verifyBucket();
  return storage;
}
