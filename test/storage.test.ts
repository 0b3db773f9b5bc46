import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { loadConfig, type Config } from '../src/config/config.js';
import { createStorage } from '../src/repositories/create-storage.js';
import { S3Storage } from '../src/repositories/s3-storage.js';
import { LocalStorage, StorageObjectMissing, type Storage } from '../src/repositories/storage.js';
import { s3StorageOverrides, startS3Server, type S3TestServer } from './helpers/s3-server.js';

/** A store under test, one that cannot be written, and what the store holds, read around the Storage interface. */
interface Harness {
  storage: Storage;
  broken: Storage;
  listAll(): Promise<string[]>;
  close(): Promise<void>;
}

/** The S3 settings startTestApp would use for `server`, with `changes`. */
function s3Options(server: S3TestServer, changes: Partial<Config['storage']['s3']> = {}): Config['storage']['s3'] {
  return { ...loadConfig({}, s3StorageOverrides(server)).storage.s3, ...changes };
}

function rawClient(server: S3TestServer): S3Client {
  const { endpoint, region, forcePathStyle, accessKeyId, secretAccessKey } = s3Options(server);
  return new S3Client({ endpoint, region, forcePathStyle, credentials: { accessKeyId: accessKeyId!, secretAccessKey: secretAccessKey! } });
}

const drivers: { name: string; open(): Promise<Harness> }[] = [
  {
    name: 'LocalStorage',
    async open() {
      const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'roomcraft-storage-'));
      const directory = path.join(root, 'outputs');
      const broken = new LocalStorage(path.join(root, 'removed'));
      // Its directory is gone after construction, as when the data volume is lost under a running service.
      await fsp.rm(path.join(root, 'removed'), { recursive: true });
      return {
        storage: new LocalStorage(directory),
        broken,
        listAll: () => fsp.readdir(directory),
        close: () => fsp.rm(root, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'S3Storage',
    async open() {
      const server = await startS3Server();
      const client = rawClient(server);
      return {
        storage: new S3Storage(s3Options(server)),
        broken: new S3Storage(s3Options(server, { bucket: 'no-such-bucket' })),
        async listAll() {
          const { Contents = [] } = await client.send(new ListObjectsV2Command({ Bucket: server.bucket }));
          return Contents.map((object) => object.Key!);
        },
        async close() {
          client.destroy();
          await server.close();
        },
      };
    },
  },
];

/** A fresh key per test, so no test depends on another's objects. */
const newKey = (extension = 'png') => `${crypto.randomBytes(16).toString('hex')}.${extension}`;

/** Every byte value, so any text decoding or truncation on the way would show. */
const ALL_BYTES = Uint8Array.from({ length: 256 * 4 }, (_, i) => i % 256);

async function drain(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

for (const driver of drivers) {
  describe(`Storage contract: ${driver.name}`, () => {
    let h: Harness;
    before(async () => {
      h = await driver.open();
    });
    after(() => h.close());

    it('reads back the exact bytes it was given', async () => {
      const key = newKey();
      await h.storage.put(key, ALL_BYTES);
      assert.deepEqual(new Uint8Array(await h.storage.read(key)), ALL_BYTES);
    });

    it('streams the stored bytes', async () => {
      const key = newKey('webp');
      await h.storage.put(key, ALL_BYTES);
      assert.deepEqual(new Uint8Array(await drain(await h.storage.openStream(key))), ALL_BYTES);
    });

    it('tells whether an object exists, before writing, after writing and after deleting', async () => {
      const key = newKey();
      assert.equal(await h.storage.exists(key), false);
      await h.storage.put(key, ALL_BYTES);
      assert.equal(await h.storage.exists(key), true);
      await h.storage.delete(key);
      assert.equal(await h.storage.exists(key), false);
    });

    it('replaces an object written again under the same key', async () => {
      const key = newKey();
      await h.storage.put(key, ALL_BYTES);
      await h.storage.put(key, Buffer.from('second'));
      assert.equal((await h.storage.read(key)).toString(), 'second');
    });

    it('deletes a missing key without an error (the sweep may remove an output twice)', async () => {
      await h.storage.delete(newKey());
    });

    it('rejects reading or opening a missing key with StorageObjectMissing, which the output route answers with 404', async () => {
      const key = newKey();
      await assert.rejects(h.storage.read(key), (error) => error instanceof StorageObjectMissing && error.key === key);
      await assert.rejects(h.storage.openStream(key), (error) => error instanceof StorageObjectMissing && error.key === key);
    });

    it('refuses keys that are not flat service-made names, whatever the operation', async () => {
      for (const key of ['../escape.png', 'nested/key.png', 'a..b', '', 'with space.png', '%2e%2e.png']) {
        for (const attempt of [
          () => h.storage.put(key, ALL_BYTES),
          () => h.storage.read(key),
          () => h.storage.exists(key),
          () => h.storage.openStream(key),
          () => h.storage.delete(key),
        ]) {
          await assert.rejects(attempt(), /invalid storage key/, `key ${JSON.stringify(key)}`);
        }
      }
    });

    it('check() passes on a writable store, leaves no probe behind, and fails on a store that cannot be written', async () => {
      const before = await h.listAll();
      await h.storage.check();
      assert.deepEqual(await h.listAll(), before);
      await assert.rejects(h.broken.check());
    });
  });
}

describe('S3Storage specifics', () => {
  let server: S3TestServer;
  let client: S3Client;
  let dataDir: string;
  before(async () => {
    server = await startS3Server();
    client = rawClient(server);
    dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'roomcraft-storage-'));
  });
  after(async () => {
    client.destroy();
    await server.close();
    await fsp.rm(dataDir, { recursive: true, force: true });
  });

  it('stores objects under the configured prefix, typed by their extension', async () => {
    const storage = new S3Storage(s3Options(server, { prefix: 'deployment-a/' }));
    const key = newKey('jpg');
    await storage.put(key, ALL_BYTES);
    const head = await client.send(new HeadObjectCommand({ Bucket: server.bucket, Key: `deployment-a/${key}` }));
    assert.equal(head.ContentType, 'image/jpeg');
    assert.equal(head.ContentLength, ALL_BYTES.length);
    // A store with another prefix in the same bucket does not see it.
    assert.equal(await new S3Storage(s3Options(server, { prefix: 'deployment-b/' })).exists(key), false);
  });

  it('createStorage picks local disk by default and the bucket for ROOMCRAFT_STORAGE=s3', async () => {
    assert.ok((await createStorage(loadConfig({}, { dataDir }))) instanceof LocalStorage);
    const storage = await createStorage(loadConfig({}, { dataDir, ...s3StorageOverrides(server) }));
    assert.ok(storage instanceof S3Storage);
    const key = newKey();
    await storage.put(key, ALL_BYTES);
    assert.equal(await new S3Storage(s3Options(server)).exists(key), true);
  });

  it('createStorage stops the start naming ROOMCRAFT_S3_BUCKET and the endpoint when the bucket does not exist', async () => {
    const config = loadConfig({}, { dataDir, storage: { driver: 's3', s3: s3Options(server, { bucket: 'absent-bucket' }) } });
    await assert.rejects(createStorage(config), (error: Error) => {
      assert.equal(error.name, 'ConfigError');
      assert.match(error.message, /ROOMCRAFT_S3_BUCKET "absent-bucket" does not exist/);
      assert.ok(error.message.includes(server.endpoint), error.message);
      return true;
    });
  });

  it('refuses half an access key rather than falling back to the default credentials', () => {
    assert.throws(() => new S3Storage(s3Options(server, { secretAccessKey: undefined })), {
      name: 'ConfigError',
      message: /both ROOMCRAFT_S3_ACCESS_KEY_ID and ROOMCRAFT_S3_SECRET_ACCESS_KEY, or neither/,
    });
  });

  it('createStorage stops the start naming the credential settings when the service refuses the key', async () => {
    const config = loadConfig({}, { dataDir, storage: { driver: 's3', s3: s3Options(server, { accessKeyId: 'WRONG' }) } });
    await assert.rejects(createStorage(config), (error: Error) => {
      assert.equal(error.name, 'ConfigError');
      assert.match(error.message, /refused access to ROOMCRAFT_S3_BUCKET "roomcraft-test".*ROOMCRAFT_S3_ACCESS_KEY_ID/);
      assert.ok(error.message.includes(server.endpoint), error.message);
      return true;
    });
  });
});

describe('S3Storage against a store that stops answering', () => {
  it('fails a request past ROOMCRAFT_S3_TIMEOUT_MS instead of waiting for ever', async () => {
    // Accepts connections and never answers: a store hung behind a load balancer.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const base = loadConfig({}, {}).storage.s3;
      const storage = new S3Storage({ ...base, endpoint: `http://127.0.0.1:${port}`, bucket: 'b', accessKeyId: 'k', secretAccessKey: 's', timeoutMs: 200 });
      await assert.rejects(storage.exists('0123456789abcdef0123456789abcdef.png'), (error: Error) => {
        assert.match(`${error.name} ${error.message}`, /timeout/i);
        return true;
      });
      assert.ok(sockets.size >= 1, 'the request reached the store');
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
