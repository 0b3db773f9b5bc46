import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { ConfigError, type Config } from '../config/config.js';
import { checkStorageKey, StorageObjectMissing, type Storage } from './storage.js';

type S3Options = Config['storage']['s3'];

/** Content types of the keys the service writes (results by format, `-mask.png` change masks); others are untyped. */
const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
};

/**
 * Result images in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, ...), under `prefix`. Keys are checked like
 * LocalStorage's, so the same flat names live in either store. See docs/decisions/0013-object-storage.md.
 */
export class S3Storage implements Storage {
  private readonly client: S3Client;

  constructor(private readonly options: S3Options) {
    const { endpoint, region, forcePathStyle, accessKeyId, secretAccessKey, timeoutMs } = options;
    if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
      throw new ConfigError(
        'set both ROOMCRAFT_S3_ACCESS_KEY_ID and ROOMCRAFT_S3_SECRET_ACCESS_KEY, or neither (the AWS default credentials)',
      );
    }
    this.client = new S3Client({
      region,
      forcePathStyle,
      ...(endpoint ? { endpoint } : {}),
      // Without a key pair the SDK's default chain applies (AWS_* variables, shared files, instance or task roles).
      ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
      // The SDK's default CRC32 checksums on every request and response are not understood by every S3-compatible
      // service; the SigV4 signature already covers each upload's SHA-256, so they are sent only where S3 requires them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // The SDK waits for ever by default; a request past the limit fails with a TimeoutError (and is retried).
      requestHandler: { connectionTimeout: timeoutMs, requestTimeout: timeoutMs, throwOnRequestTimeout: true },
    });
  }

  /**
   * Checks at start that the bucket exists and the credentials open it, with an error that names the setting to fix;
   * the service never creates buckets itself.
   */
  async verifyBucket(): Promise<void> {
    const { bucket, endpoint, region } = this.options;
    const where = endpoint ? `at ROOMCRAFT_S3_ENDPOINT ${endpoint}` : `on AWS S3 in region ${region}`;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: bucket }));
    } catch (error) {
      const status = statusOf(error);
      if (status === 404) throw new ConfigError(`ROOMCRAFT_S3_BUCKET "${bucket}" does not exist ${where}; create it first`);
      if (status === 401 || status === 403) {
        throw new ConfigError(
          `the S3 service ${where} refused access to ROOMCRAFT_S3_BUCKET "${bucket}": check ROOMCRAFT_S3_ACCESS_KEY_ID and ` +
            'ROOMCRAFT_S3_SECRET_ACCESS_KEY (or, when unset, the AWS default credentials) and the key’s permissions',
        );
      }
      if (status === 301) throw new ConfigError(`ROOMCRAFT_S3_BUCKET "${bucket}" is not in ROOMCRAFT_S3_REGION ${region}`);
      const reason = error instanceof Error ? error.message : String(error);
      throw new ConfigError(`cannot open ROOMCRAFT_S3_BUCKET "${bucket}" ${where}: ${reason}`);
    }
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    // A PUT replaces the object whole, so readers never see a partial result.
    const contentType = CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1).toLowerCase()];
    const typed = contentType ? { ContentType: contentType } : {};
    await this.client.send(new PutObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(key), Body: bytes, ...typed }));
  }

  async read(key: string): Promise<Buffer> {
    const body = await this.get(key);
    const bytes = await body.transformToByteArray();
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(key) }));
      return true;
    } catch (error) {
      if (statusOf(error) === 404) return false;
      throw error;
    }
  }

  async openStream(key: string): Promise<Readable> {
    const body = await this.get(key);
    // On Node the SDK's body is the HTTP response itself.
    if (!(body instanceof Readable)) throw new Error(`the S3 client returned no Node stream for "${key}"`);
    return body;
  }

  async delete(key: string): Promise<void> {
    // S3 answers 204 for a missing key too, which makes this idempotent as the interface asks.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(key) }));
  }

  /** Writes and removes a probe object; random, so processes sharing the bucket do not remove each other's. */
  async check(): Promise<void> {
    const probe = `.probe-${crypto.randomBytes(8).toString('hex')}`;
    await this.put(probe, Buffer.from('ok'));
    await this.delete(probe);
  }

  private async get(key: string): Promise<NonNullable<GetObjectCommandOutput['Body']>> {
    try {
      const { Body } = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(key) }));
      if (!Body) throw new Error(`the S3 service returned no body for "${key}"`);
      return Body;
    } catch (error) {
      // NoSuchKey only: a missing bucket (NoSuchBucket, also 404) is a broken deployment, not an expired output.
      if (error instanceof Error && error.name === 'NoSuchKey') throw new StorageObjectMissing(key);
      throw error;
    }
  }

  private keyOf(key: string): string {
    return this.options.prefix + checkStorageKey(key);
  }
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
}
