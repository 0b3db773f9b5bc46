import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { ERROR_TITLES } from '../src/errors.js';
import { checkJsonShape, MAX_BODY_DEPTH, MAX_BODY_KEYS, SMALL_BODY_LIMIT_BYTES } from '../src/http/plugins/json-body.js';
import { JsonShapeScanner } from '../src/http/json-shape-scanner.js';
import { JobRepository } from '../src/repositories/job-repository.js';
import { canonicalJson, hashRequest } from '../src/services/request-hash.js';
import { HOSTILE_CASES, sendHostileCase } from '../bench/hostile-bodies.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { withDeadline } from './helpers/until.js';

const PROBLEM = /^application\/problem\+json/;
const IMAGE = 'https://example.com/room.jpg';

/** Writes raw bytes on a fresh connection and reads until the server closes it or has sent a whole response. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      const headerEnd = received.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(received);
      if (headerEnd !== -1 && length && received.length >= headerEnd + 4 + Number(length[1])) {
        socket.destroy();
        resolve(received);
      }
    });
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

describe('hostile request bodies and HTTP edge cases', () => {
  let t: TestApp;
  let baseUrl: string;
  let port: number;
  before(async () => {
    t = await startTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
    baseUrl = `http://127.0.0.1:${port}`;
  });
  after(() => t.close());

  // Over a listening socket, since Node's HTTP parser answers some of them before Fastify (inject() skips it).
  for (const hostile of HOSTILE_CASES) {
    it(`answers "${hostile.name}" with ${hostile.expected.status} ${hostile.expected.code} as problem+json`, async () => {
      const answer = await withDeadline(sendHostileCase(baseUrl, t.user.key, hostile), `the answer to "${hostile.name}"`);
      assert.equal(answer.status, hostile.expected.status, answer.body.slice(0, 300));
      assert.match(answer.contentType ?? '', PROBLEM);
      const problem = JSON.parse(answer.body) as { code: string; title: string; status: number; detail: string };
      assert.equal(problem.code, hostile.expected.code);
      assert.equal(problem.title, ERROR_TITLES[hostile.expected.code]);
      assert.equal(problem.status, hostile.expected.status);
      assert.ok(problem.detail);
    });
  }

  it('still answers lookups after the corpus, and no key of it reached a prototype', async () => {
    const styles = await fetch(`${baseUrl}/v1/styles`, { headers: t.auth });
    assert.equal(styles.status, 200);
    assert.equal(({} as { polluted?: unknown }).polluted, undefined);
  });

  it('names the limit it refuses a body by', async () => {
    const deep = await sendHostileCase(baseUrl, t.user.key, HOSTILE_CASES.find((c) => c.name === '5,000 nested arrays')!);
    assert.match(JSON.parse(deep.body).detail, new RegExp(`deeper than ${MAX_BODY_DEPTH} levels`));
    const keys = await sendHostileCase(baseUrl, t.user.key, HOSTILE_CASES.find((c) => c.name === '300,000 unknown keys')!);
    assert.match(JSON.parse(keys.body).detail, new RegExp(`more than ${MAX_BODY_KEYS} keys`));
    const huge = await sendHostileCase(baseUrl, t.user.key, HOSTILE_CASES.find((c) => c.name === '60 MB unknown field')!);
    assert.match(JSON.parse(huge.body).detail, /only url may be large .* over 64 KiB/);
  });

  it('refuses a caller without a key before receiving the body: the 401 comes while the body is still unsent', async () => {
    // Headers that announce 60 MB, and not one byte of it: an answer can only come from before the body is read.
    const response = await withDeadline(
      rawExchange(
        port,
        'POST /v1/upscale HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' + `Content-Length: ${60 * 1024 * 1024}\r\n\r\n`,
      ),
      'the 401 to a request whose body never comes',
    );
    assert.match(response, /^HTTP\/1\.1 401 /);
    assert.match(response, /\r\ncontent-type: application\/problem\+json/i);
    assert.match(response, /"code":"unauthorized"/);
  });

  it('drops unknown fields before the job is stored, and names them in X-Roomcraft-Ignored-Fields', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/upscale',
      headers: { ...t.auth, 'content-type': 'application/json', prefer: 'respond-async' },
      payload: `{"url":"${IMAGE}","scale":2,"colour":"blue","__proto__":{"admin":true},"weird, name":1}`,
    });
    assert.equal(response.statusCode, 200, response.body);
    // A name with a comma cannot travel in the list as sent: it is named by its position among the ignored fields.
    assert.equal(response.headers['x-roomcraft-ignored-fields'], 'colour, __proto__, #3');
    const job = await new JobRepository(t.database.db).findById(response.json().id);
    assert.deepEqual(JSON.parse(job!.request), { url: IMAGE, params: { scale: 2 } });
  });

  it('answers a request with only known fields without X-Roomcraft-Ignored-Fields', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/v1/upscale', headers: { ...t.auth, prefer: 'respond-async' }, payload: { url: IMAGE } });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['x-roomcraft-ignored-fields'], undefined);
  });

  it('refuses a webhook to a refused address at submit, naming the fix', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/upscale',
      headers: t.auth,
      payload: { url: IMAGE, webhook: 'http://10.1.2.3/hook' },
    });
    assert.equal(response.statusCode, 400);
    assert.match(response.headers['content-type'] as string, PROBLEM);
    const problem = response.json();
    assert.equal(problem.code, 'webhook_refused');
    assert.match(problem.detail, /ROOMCRAFT_FETCH_ALLOW=10\.1\.2\.3\/32/);
    assert.deepEqual(problem.errors.map((e: { field: string }) => e.field), ['/webhook']);
    assert.equal(response.headers['x-job-id'], undefined);
  });
});

describe('webhook host names are resolved at submit as the delivery resolves them', () => {
  let closed: TestApp;
  let opened: TestApp;
  before(async () => {
    // localhost resolves (from the hosts file, with no network) to loopback addresses.
    closed = await startTestApp({ fetch: { allow: [] } });
    opened = await startTestApp({ fetch: { allow: ['localhost'] } });
  });
  after(async () => {
    await closed.close();
    await opened.close();
  });

  const submit = (t: TestApp) =>
    t.app.inject({ method: 'POST', url: '/v1/upscale', headers: { ...t.auth, prefer: 'respond-async' }, payload: { url: IMAGE, webhook: 'http://localhost:9/hook' } });

  it('refuses a host name that resolves to a refused address, naming it as given', async () => {
    const response = await submit(closed);
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().code, 'webhook_refused');
    assert.match(response.json().detail, /localhost .*resolves to a private, loopback or other non-public address.*ROOMCRAFT_FETCH_ALLOW=localhost/);
  });

  it('accepts it where the operator allows the host name', async () => {
    const response = await submit(opened);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().status, 'pending');
  });
});

describe('the HTTP edge cases the router answers, through inject()', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  for (const [url, status, code] of [
    ['/v1/job/%zz', 400, 'malformed_request'],
    [`/v1/job/${'a'.repeat(101)}`, 414, 'uri_too_long'],
  ] as const) {
    it(`answers GET ${url.slice(0, 24)} with a ${status} ${code} problem`, async () => {
      const response = await t.app.inject({ method: 'GET', url, headers: t.auth });
      assert.equal(response.statusCode, status);
      assert.match(response.headers['content-type'] as string, PROBLEM);
      assert.equal(response.json().code, code);
      assert.equal(response.json().requestId, response.headers['x-request-id']);
    });
  }
});

describe('checkJsonShape', () => {
  const nest = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('takes nesting up to the limit and refuses one level more', () => {
    checkJsonShape(nest(MAX_BODY_DEPTH));
    assert.throws(() => checkJsonShape(nest(MAX_BODY_DEPTH + 1)), /nests deeper than 16 levels/);
  });

  it('takes keys up to the limit and refuses one more, at any depth', () => {
    const keys = (count: number) => `{"a":{${Array.from({ length: count - 1 }, (_, i) => `"k${i}":0`).join(',')}}}`;
    checkJsonShape(keys(MAX_BODY_KEYS));
    assert.throws(() => checkJsonShape(keys(MAX_BODY_KEYS + 1)), /more than 1000 keys/);
  });

  it('does not count brackets, colons and quotes inside strings', () => {
    checkJsonShape(JSON.stringify({ text: `${'[{:,"'.repeat(10_000)}\\` }));
  });

  it('lets only the large fields be large', () => {
    const dataUrl = `data:image/png;base64,${'A'.repeat(2 * SMALL_BODY_LIMIT_BYTES)}`;
    checkJsonShape(JSON.stringify({ url: dataUrl, mask: dataUrl }), ['url', 'mask']);
    assert.throws(() => checkJsonShape(JSON.stringify({ url: 'x', other: dataUrl }), ['url', 'mask']), /over 64 KiB/);
    // A large field's value counts only at the top level, not inside another field.
    assert.throws(() => checkJsonShape(JSON.stringify({ other: { url: dataUrl } }), ['url', 'mask']), /over 64 KiB/);
  });
});

describe('JsonShapeScanner', () => {
  // The same verdict whatever the chunks: split at every byte, so a chunk ends inside a string, after a backslash,
  // between a key's closing quote and its colon, and inside a multi-byte character.
  const verdict = (body: string, largeFields: string[], splitAt?: number) => {
    const scanner = new JsonShapeScanner(largeFields);
    const bytes = Buffer.from(body, 'utf8');
    try {
      if (splitAt === undefined) scanner.feed(bytes);
      else {
        scanner.feed(bytes.subarray(0, splitAt));
        scanner.feed(bytes.subarray(splitAt));
      }
      scanner.finish();
      return 'accepted';
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('gives the same verdict however the body is cut into chunks', () => {
    const large = 'A'.repeat(SMALL_BODY_LIMIT_BYTES);
    const bodies = [
      JSON.stringify({ url: `data:image/png;base64,${large}`, note: 'é\\"q"', list: [1, [2, { k: '}' }]] }),
      JSON.stringify({ other: large, url: 'x' }),
      `{"u\\u0072l" : "${large}"}`,
      JSON.stringify({ url: `${large}\\`, mask: '"\\"' }),
    ];
    for (const body of bodies) {
      const whole = verdict(body, ['url', 'mask']);
      for (const at of [1, 2, 3, 7, 8, 9, 10, 11, 12, body.length - 3, body.length - 2, body.length - 1]) {
        assert.equal(verdict(body, ['url', 'mask'], at), whole, `cut at ${at} of ${body.slice(0, 40)}…`);
      }
    }
    assert.equal(verdict(bodies[0]!, ['url', 'mask']), 'accepted');
    assert.match(verdict(bodies[1]!, ['url', 'mask']), /over 64 KiB/);
    // An escaped key is not the large field it decodes to: refused, never let through.
    assert.match(verdict(bodies[2]!, ['url', 'mask']), /over 64 KiB/);
  });

  it('refuses a body at the chunk that crosses a limit, before the rest arrives', () => {
    const scanner = new JsonShapeScanner(['url']);
    scanner.feed(Buffer.from('{"notes":"'));
    assert.throws(() => scanner.feed(Buffer.alloc(SMALL_BODY_LIMIT_BYTES + 1, 0x78)), /over 64 KiB/);
  });
});

describe('request hash', () => {
  it('is the same whatever order the fields came in', () => {
    assert.equal(hashRequest('upscale', { url: IMAGE, scale: 2, webhook: 'https://h' }), hashRequest('upscale', { webhook: 'https://h', scale: 2, url: IMAGE }));
    assert.notEqual(hashRequest('upscale', { url: IMAGE, scale: 2 }), hashRequest('upscale', { url: IMAGE, scale: 3 }));
    assert.equal(canonicalJson({ b: [1, { d: null, c: 'x' }], a: true }), '{"a":true,"b":[1,{"c":"x","d":null}]}');
  });

  it('walks any nesting without overflowing the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: [deep] };
    assert.equal(canonicalJson(deep).length, 100_000 * '{"a":[]}'.length + 1);
  });
});
