import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Config } from '../src/config/config.js';
import { AppError, type ErrorCode } from '../src/errors.js';
import { createGuardedFetcher, type GuardedFetcher } from '../src/repositories/fetcher/guarded-fetcher.js';
import { createAddressPolicy } from '../src/security/address-policy.js';
import { HANG_MS, withDeadline } from './helpers/until.js';

// Only loopback servers are ever started; every other address in this file must be refused before connecting.

interface TestServer {
  port: number;
  /** Requests that reached the server, as "METHOD path". */
  received: string[];
  /** Resolves with the next request to reach the server, as "METHOD path". */
  nextRequest(): Promise<string>;
  close(): Promise<void>;
}

async function startServer(host: string, handler: http.RequestListener = (_req, res) => res.end('ok')): Promise<TestServer> {
  const received: string[] = [];
  const waiting: ((request: string) => void)[] = [];
  const server = http.createServer((req, res) => {
    const request = `${req.method} ${req.url}`;
    received.push(request);
    for (const resolve of waiting.splice(0)) resolve(request);
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    received,
    nextRequest: () => withDeadline(new Promise<string>((resolve) => waiting.push(resolve)), `a request to ${host}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Fetches that should succeed (or be refused, or fail) get all the time a loaded machine needs; only the tests of the
 * timeout itself set a short one, against a server that never answers.
 */
function fetchOptions(overrides: Partial<Config['fetch']> = {}): Config['fetch'] {
  return { allow: [], maxBytes: 1024 * 1024, maxRedirects: 3, connectTimeoutMs: HANG_MS, totalTimeoutMs: HANG_MS, ...overrides };
}

/**
 * undici's own header and body timeouts (300 s) would also end a fetch from a server that never answers, with the
 * same fetch_timeout. A fetch that ends well before them was ended by totalTimeoutMs; the margin (200 ms against
 * 2 minutes) is one no loaded machine comes near.
 */
const UNDICI_TIMEOUT_MARGIN_MS = 120_000;

async function withFetcher<T>(options: Config['fetch'], use: (fetcher: GuardedFetcher) => Promise<T>): Promise<T> {
  const fetcher = createGuardedFetcher(options);
  try {
    return await use(fetcher);
  } finally {
    await fetcher.close();
  }
}

function rejectsWithCode(promise: Promise<unknown>, code: ErrorCode): Promise<AppError> {
  return promise.then(
    () => assert.fail(`expected ${code}, but it succeeded`),
    (error: unknown) => {
      assert.ok(error instanceof AppError, `expected an AppError, got ${String(error)}`);
      assert.equal(error.code, code, error.message);
      assert.equal(error.status, 400);
      return error;
    },
  );
}

describe('address policy', () => {
  it('refuses non-public addresses and accepts public ones', () => {
    const policy = createAddressPolicy([]);
    const refused = [
      '10.0.0.1', '172.16.5.4', '192.168.1.1', '100.64.0.1', '127.0.0.1', '0.0.0.0', '169.254.169.254',
      '224.0.0.1', '255.255.255.255', '240.0.0.1', '192.0.0.192', '::1', '::', 'fe80::1', 'fc00::1',
      'fd00:ec2::254', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '64:ff9b::10.0.0.1',
      '2002:a00:1::1', '2001:db8::1', '::10.0.0.1', 'not an address',
    ];
    for (const ip of refused) assert.equal(policy.isAllowed(ip), false, ip);
    for (const ip of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1']) {
      assert.equal(policy.isAllowed(ip), true, ip);
    }
  });

  it('opens CIDRs, single IPs and hostnames from the allow list', () => {
    const policy = createAddressPolicy(['10.0.0.0/8', '::1', 'Images.Internal.']);
    assert.equal(policy.isAllowed('10.20.30.40'), true);
    assert.equal(policy.isAllowed('::ffff:10.1.1.1'), true);
    assert.equal(policy.isAllowed('::1'), true);
    assert.equal(policy.isAllowed('192.168.0.1'), false);
    assert.equal(policy.isHostAllowlisted('images.internal'), true);
    assert.equal(policy.isHostAllowlisted('other.internal'), false);
    assert.throws(() => createAddressPolicy(['10.0.0.0/33']), /not a valid CIDR/);
  });
});

describe('guarded fetcher: SSRF refusals', () => {
  let v4: TestServer;
  let v6: TestServer | undefined;

  before(async () => {
    v4 = await startServer('127.0.0.1');
    // IPv6 may be missing in some sandboxes; the refusal is still checked, just without a listener to watch.
    v6 = await startServer('::1').catch(() => undefined);
  });
  after(async () => {
    await v4.close();
    await v6?.close();
  });

  it('refuses private, loopback, metadata and disguised loopback addresses without connecting', async () => {
    const v6Port = v6?.port ?? v4.port;
    const urls = [
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data',
      `http://127.0.0.1:${v4.port}/`,
      `http://[::1]:${v6Port}/`,
      `http://[::ffff:127.0.0.1]:${v4.port}/`,
      `http://[::ffff:7f00:1]:${v4.port}/`,
      `http://0.0.0.0:${v4.port}/`,
      `http://2130706433:${v4.port}/`,
      `http://0177.0.0.1:${v4.port}/`,
      `http://0x7f000001:${v4.port}/`,
      `http://localhost:${v4.port}/`,
      `http://LOCALHOST:${v4.port}/`,
    ];
    await withFetcher(fetchOptions(), async (fetcher) => {
      for (const url of urls) {
        await rejectsWithCode(fetcher.fetchBytes(url), 'fetch_refused');
      }
    });
    assert.deepEqual(v4.received, []);
    assert.deepEqual(v6?.received ?? [], []);
  });

  it('names the host but not what it resolved to', async () => {
    await withFetcher(fetchOptions(), async (fetcher) => {
      const error = await rejectsWithCode(fetcher.fetchBytes(`http://localhost:${v4.port}/x`), 'fetch_refused');
      assert.match(error.message, /localhost/);
      assert.doesNotMatch(error.message, /127\.0\.0\.1/);
    });
  });

  it('refuses schemes other than http, https and data', async () => {
    await withFetcher(fetchOptions(), async (fetcher) => {
      for (const url of ['ftp://example.com/a.jpg', 'file:///etc/passwd', 'gopher://127.0.0.1/', 'not a url']) {
        await rejectsWithCode(fetcher.fetchBytes(url), 'fetch_refused');
      }
    });
  });

  it('re-checks every redirect hop', async () => {
    const targets = ['http://10.1.2.3/', `http://[::1]:${v6?.port ?? 1}/`, 'file:///etc/passwd', `http://[::ffff:a01:203]/`];
    const redirector = await startServer('127.0.0.1', (req, res) => {
      const target = targets[Number(req.url?.slice(1))];
      res.writeHead(302, { location: target }).end();
    });
    try {
      await withFetcher(fetchOptions({ allow: ['127.0.0.1/32'] }), async (fetcher) => {
        for (const index of targets.keys()) {
          await rejectsWithCode(fetcher.fetchBytes(`http://127.0.0.1:${redirector.port}/${index}`), 'fetch_refused');
        }
      });
      assert.equal(redirector.received.length, targets.length);
      assert.deepEqual(v6?.received ?? [], []);
    } finally {
      await redirector.close();
    }
  });
});

describe('guarded fetcher: fetching', () => {
  let server: TestServer;
  let base: string;

  before(async () => {
    server = await startServer('127.0.0.1', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const hop = /^\/hop\/(\d+)$/.exec(url.pathname);
      if (hop) {
        const remaining = Number(hop[1]);
        if (remaining === 0) res.writeHead(200, { 'content-type': 'image/png; charset=binary' }).end('final');
        else res.writeHead(remaining % 2 ? 301 : 307, { location: `/hop/${remaining - 1}` }).end();
        return;
      }
      switch (url.pathname) {
        case '/image':
          res.writeHead(200, { 'content-type': 'Image/JPEG' }).end(Buffer.from([1, 2, 3]));
          return;
        case '/declared-large':
          res.writeHead(200, { 'content-length': '5000' }).end(Buffer.alloc(5000));
          return;
        case '/chunked-large':
          res.writeHead(200);
          for (let i = 0; i < 5; i++) res.write(Buffer.alloc(400));
          res.end();
          return;
        case '/exact':
          res.writeHead(200);
          res.write(Buffer.alloc(500));
          res.end(Buffer.alloc(500));
          return;
        case '/no-answer':
          return;
        case '/stalled-body':
          res.writeHead(200, { 'content-length': '100' });
          res.write(Buffer.alloc(10));
          return;
        case '/missing':
          res.writeHead(404).end('nope');
          return;
        case '/redirect-without-location':
          res.writeHead(302).end();
          return;
        default:
          res.writeHead(500).end();
      }
    });
    base = `http://127.0.0.1:${server.port}`;
  });
  after(() => server.close());

  const allowLoopback = (overrides: Partial<Config['fetch']> = {}) => fetchOptions({ allow: ['127.0.0.1/32'], ...overrides });

  it('fetches from an address opened by CIDR', async () => {
    await withFetcher(allowLoopback(), async (fetcher) => {
      const result = await fetcher.fetchBytes(`${base}/image`);
      assert.deepEqual([...result.bytes], [1, 2, 3]);
      assert.equal(result.contentType, 'image/jpeg');
      assert.equal(result.finalUrl, `${base}/image`);
    });
  });

  it('fetches from a hostname opened by name, whatever it resolves to', async () => {
    await withFetcher(fetchOptions({ allow: ['LocalHost'] }), async (fetcher) => {
      const result = await fetcher.fetchBytes(`http://localhost:${server.port}/image`);
      assert.deepEqual([...result.bytes], [1, 2, 3]);
    });
  });

  it('follows up to maxRedirects redirects and refuses one more', async () => {
    await withFetcher(allowLoopback(), async (fetcher) => {
      const result = await fetcher.fetchBytes(`${base}/hop/3`);
      assert.equal(result.bytes.toString(), 'final');
      assert.equal(result.contentType, 'image/png');
      assert.equal(result.finalUrl, `${base}/hop/0`);
      await rejectsWithCode(fetcher.fetchBytes(`${base}/hop/4`), 'too_many_redirects');
    });
    await withFetcher(allowLoopback({ maxRedirects: 0 }), async (fetcher) => {
      await rejectsWithCode(fetcher.fetchBytes(`${base}/hop/1`), 'too_many_redirects');
    });
  });

  it('caps the size by Content-Length and while streaming', async () => {
    await withFetcher(allowLoopback({ maxBytes: 1000 }), async (fetcher) => {
      await rejectsWithCode(fetcher.fetchBytes(`${base}/declared-large`), 'fetch_too_large');
      await rejectsWithCode(fetcher.fetchBytes(`${base}/chunked-large`), 'fetch_too_large');
      assert.equal((await fetcher.fetchBytes(`${base}/exact`)).bytes.length, 1000);
    });
  });

  it('times out when the server does not answer or stalls mid-body', async () => {
    // Both never finish: only totalTimeoutMs can end them (the connect timeout is minutes away and connecting succeeds).
    await withFetcher(allowLoopback({ totalTimeoutMs: 200 }), async (fetcher) => {
      for (const path of ['/no-answer', '/stalled-body']) {
        const started = performance.now();
        await rejectsWithCode(fetcher.fetchBytes(`${base}${path}`), 'fetch_timeout');
        const elapsed = performance.now() - started;
        assert.ok(elapsed >= 150, `${path}: ended after ${Math.round(elapsed)} ms, before its timeout`);
        assert.ok(elapsed < UNDICI_TIMEOUT_MARGIN_MS, `${path}: ended after ${Math.round(elapsed)} ms, not by totalTimeoutMs`);
      }
    });
  });

  it('rejects with the caller’s abort reason', async () => {
    await withFetcher(allowLoopback(), async (fetcher) => {
      const controller = new AbortController();
      const reason = new AppError('job_aborted', 409, 'aborted');
      // Aborted once the request is under way (the server never answers it), not after a guessed delay.
      const arrived = server.nextRequest();
      const outcome = fetcher.fetchBytes(`${base}/no-answer`, { signal: controller.signal }).then(
        () => 'resolved',
        (error: unknown) => error,
      );
      assert.equal(await arrived, 'GET /no-answer');
      controller.abort(reason);
      assert.equal(await outcome, reason);
    });
  });

  it('reports upstream errors and unreachable servers as fetch_failed', async () => {
    const closed = await startServer('127.0.0.1');
    await closed.close();
    await withFetcher(allowLoopback(), async (fetcher) => {
      const error = await rejectsWithCode(fetcher.fetchBytes(`${base}/missing`), 'fetch_failed');
      assert.match(error.message, /404/);
      await rejectsWithCode(fetcher.fetchBytes(`${base}/redirect-without-location`), 'fetch_failed');
      await rejectsWithCode(fetcher.fetchBytes(`http://127.0.0.1:${closed.port}/`), 'fetch_failed');
    });
  });

  it('decodes data: URLs, base64 and percent-encoded, within the byte cap', async () => {
    await withFetcher(fetchOptions({ maxBytes: 8 }), async (fetcher) => {
      const base64 = await fetcher.fetchBytes('data:image/png;base64,AAEC/w==');
      assert.deepEqual([...base64.bytes], [0, 1, 2, 255]);
      assert.equal(base64.contentType, 'image/png');
      const percent = await fetcher.fetchBytes('data:,a%20b%FF');
      assert.deepEqual([...percent.bytes], [0x61, 0x20, 0x62, 0xff]);
      assert.equal(percent.contentType, 'text/plain');
      await rejectsWithCode(fetcher.fetchBytes('DATA:image/png;BASE64,' + Buffer.alloc(9).toString('base64')), 'fetch_too_large');
      await rejectsWithCode(fetcher.fetchBytes('data:,123456789'), 'fetch_too_large');
      await rejectsWithCode(fetcher.fetchBytes('data:image/png;base64,not*base64'), 'fetch_failed');
    });
  });
});

describe('guarded fetcher: post', () => {
  it('refuses private addresses without connecting', async () => {
    const server = await startServer('127.0.0.1');
    try {
      await withFetcher(fetchOptions(), async (fetcher) => {
        for (const url of ['http://10.0.0.1/hook', 'http://192.168.1.1/hook', `http://127.0.0.1:${server.port}/`, `http://localhost:${server.port}/`]) {
          await rejectsWithCode(fetcher.post(url, '{}', {}, { timeoutMs: HANG_MS }), 'fetch_refused');
        }
        await rejectsWithCode(fetcher.post('file:///tmp/x', '{}', {}, { timeoutMs: HANG_MS }), 'fetch_refused');
      });
      assert.deepEqual(server.received, []);
    } finally {
      await server.close();
    }
  });

  it('returns the status, sends headers and body, and does not follow redirects', async () => {
    let seen: { body: string; type: string | undefined } | undefined;
    const server = await startServer('127.0.0.1', (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen = { body, type: req.headers['content-type'] };
        const status = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('status'));
        res.writeHead(status, { location: '/elsewhere' }).end('x'.repeat(200_000));
      });
    });
    try {
      await withFetcher(fetchOptions({ allow: ['127.0.0.0/8'] }), async (fetcher) => {
        const url = `http://127.0.0.1:${server.port}/hook`;
        const headers = { 'content-type': 'application/json' };
        assert.deepEqual(await fetcher.post(`${url}?status=204`, '{"a":1}', headers, { timeoutMs: HANG_MS }), { status: 204 });
        assert.deepEqual(seen, { body: '{"a":1}', type: 'application/json' });
        assert.deepEqual(await fetcher.post(`${url}?status=302`, '{}', headers, { timeoutMs: HANG_MS }), { status: 302 });
        assert.deepEqual(await fetcher.post(`${url}?status=500`, '{}', headers, { timeoutMs: HANG_MS }), { status: 500 });
      });
      assert.deepEqual(server.received, ['POST /hook?status=204', 'POST /hook?status=302', 'POST /hook?status=500']);
    } finally {
      await server.close();
    }
  });

  it('times out', async () => {
    // A server that never answers: only the 200 ms timeout can end the request.
    const server = await startServer('127.0.0.1', () => undefined);
    try {
      await withFetcher(fetchOptions({ allow: ['127.0.0.1'] }), async (fetcher) => {
        const started = performance.now();
        await rejectsWithCode(fetcher.post(`http://127.0.0.1:${server.port}/`, '{}', {}, { timeoutMs: 200 }), 'fetch_timeout');
        const elapsed = performance.now() - started;
        assert.ok(elapsed >= 150 && elapsed < UNDICI_TIMEOUT_MARGIN_MS, `ended after ${Math.round(elapsed)} ms, not by its timeout`);
      });
    } finally {
      await server.close();
    }
  });
});
