import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Config, DeepPartial } from '../../src/config/config.js';

/** The part of s3rver (which ships no typings) used here. */
interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

/** s3rver accepts these and only these credentials. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface S3TestServer {
  /** `http://127.0.0.1:PORT`, for path-style requests. */
  endpoint: string;
  /** A bucket that exists and starts empty. */
  bucket: string;
  close(): Promise<void>;
}

/** A local S3-compatible server (s3rver) on a free loopback port, its data in a temporary directory. */
export async function startS3Server(bucket = 'roomcraft-test'): Promise<S3TestServer> {
  const directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'roomcraft-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    async close() {
      await server.close();
      await fsp.rm(directory, { recursive: true, force: true });
    },
  };
}

/** The configuration that puts the service's outputs in `server`'s bucket, for startTestApp. */
export function s3StorageOverrides(server: S3TestServer, prefix = 'roomcraft/'): DeepPartial<Config> {
  return {
    storage: {
      driver: 's3',
      s3: { endpoint: server.endpoint, region: 'us-east-1', bucket: server.bucket, prefix, forcePathStyle: true, ...S3RVER_CREDENTIALS },
    },
  };
}
