/**
 * Hostile request bodies and HTTP edge cases, as the reliability probe of issue 17 sent them: each case is a request
 * the service must refuse with a problem+json 4xx, cheaply, whatever it holds. test/hostile-bodies.test.ts asserts the
 * answers; a load benchmark fires them while it measures lookups.
 *
 *   node --import tsx bench/hostile-bodies.ts --url http://127.0.0.1:8080 --key rc_test_…
 *
 * prints the count of answers by status and exits 1 if any was a 5xx or got no answer.
 */
import http from 'node:http';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import type { ErrorCode } from '../src/errors.js';

export interface HostileCase {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  /** Whether the request carries the API key given to the runner. */
  authenticated: boolean;
  headers?: Record<string, string>;
  /** Built when the case is sent: some are tens of megabytes. */
  body?: () => Buffer;
  /** The answer the service gives. */
  expected: { status: number; code: ErrorCode };
}

const JSON_TYPE = { 'content-type': 'application/json' };
const IMAGE = 'https://example.com/room.jpg';
const MEGABYTE = 1024 * 1024;

const json = (value: unknown) => () => Buffer.from(JSON.stringify(value));
const text = (value: string) => () => Buffer.from(value);

/** `{"url":…,"field":<depth levels of open brackets>…}`, built without recursion. */
function nested(open: string, close: string, depth: number): () => Buffer {
  return text(`{"url":"${IMAGE}","field":${open.repeat(depth)}1${close.repeat(depth)}}`);
}

/** `{"url":…,"k0":0,"k1":0,…}`: the probe's 300,000 unknown keys in about 5 MB. */
function manyKeys(count: number): () => Buffer {
  return () => {
    const parts = [`{"url":"${IMAGE}"`];
    for (let i = 0; i < count; i++) parts.push(`,"k${i}":0`);
    parts.push('}');
    return Buffer.from(parts.join(''));
  };
}

const validation = { status: 400, code: 'validation_failed' } as const;
const tooLarge = { status: 413, code: 'payload_too_large' } as const;
const notJson = { status: 415, code: 'unsupported_media_type' } as const;
const unauthorized = { status: 401, code: 'unauthorized' } as const;

export const HOSTILE_CASES: readonly HostileCase[] = [
  // Size and shape: refused before JSON.parse builds anything large.
  { name: '60 MB unknown field', method: 'POST', path: '/v1/upscale', authenticated: true, headers: JSON_TYPE, body: json({ url: IMAGE, notes: 'x'.repeat(60 * MEGABYTE) }), expected: tooLarge },
  { name: '1 MB http url', method: 'POST', path: '/v1/upscale', authenticated: true, headers: JSON_TYPE, body: json({ url: `${IMAGE}?${'a'.repeat(MEGABYTE)}` }), expected: validation },
  { name: '300,000 unknown keys', method: 'POST', path: '/v1/upscale', authenticated: true, headers: JSON_TYPE, body: manyKeys(300_000), expected: tooLarge },
  { name: '5,000 nested arrays', method: 'POST', path: '/v1/upscale', authenticated: true, headers: JSON_TYPE, body: nested('[', ']', 5_000), expected: validation },
  { name: '5,000 nested objects', method: 'POST', path: '/v1/upscale', authenticated: true, headers: JSON_TYPE, body: nested('{"a":', '}', 5_000), expected: validation },
  { name: '1,000,000 array items', method: 'POST', path: '/v1/upscale', authenticated: true, headers: JSON_TYPE, body: text(`{"url":"${IMAGE}","items":[${'0,'.repeat(999_999)}0]}`), expected: tooLarge },
  { name: '1 MB body on a route without data: URLs', method: 'POST', path: '/v1/job/x', authenticated: true, headers: JSON_TYPE, body: json({ pad: 'x'.repeat(MEGABYTE) }), expected: tooLarge },
  // Types and values.
  { name: 'scale as a string', method: 'POST', path: '/v1/upscale', authenticated: true, headers: JSON_TYPE, body: json({ url: IMAGE, scale: '2' }), expected: validation },
  { name: 'scale 1e999', method: 'POST', path: '/v1/upscale', authenticated: true, headers: JSON_TYPE, body: text(`{"url":"${IMAGE}","scale":1e999}`), expected: validation },
  { name: 'scale "NaN"', method: 'POST', path: '/v1/upscale', authenticated: true, headers: JSON_TYPE, body: json({ url: IMAGE, scale: 'NaN' }), expected: validation },
  { name: 'scale -1e-999', method: 'POST', path: '/v1/upscale', authenticated: true, headers: JSON_TYPE, body: text(`{"url":"${IMAGE}","scale":-1e-999}`), expected: validation },
  { name: 'url as a number', method: 'POST', path: '/v1/upscale', authenticated: true, headers: JSON_TYPE, body: json({ url: 42 }), expected: validation },
  { name: 'url as an object', method: 'POST', path: '/v1/upscale', authenticated: true, headers: JSON_TYPE, body: json({ url: { href: IMAGE } }), expected: validation },
  { name: 'body as an array', method: 'POST', path: '/v1/upscale', authenticated: true, headers: JSON_TYPE, body: json([{ url: IMAGE }]), expected: validation },
  { name: 'body as a string', method: 'POST', path: '/v1/upscale', authenticated: true, headers: JSON_TYPE, body: json(IMAGE), expected: validation },
  { name: 'body as null', method: 'POST', path: '/v1/upscale', authenticated: true, headers: JSON_TYPE, body: text('null'), expected: validation },
  // The later of two keys wins, as in JSON.parse: here the refused one.
  { name: 'duplicate keys', method: 'POST', path: '/v1/upscale', authenticated: true, headers: JSON_TYPE, body: text(`{"url":"${IMAGE}","url":"ftp://example.com/a.jpg"}`), expected: validation },
  {
    name: 'prototype-pollution keys',
    method: 'POST',
    path: '/v1/upscale',
    authenticated: true,
    headers: JSON_TYPE,
    body: text('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"url":"ftp://example.com/a.jpg"}'),
    expected: validation,
  },
  // Bytes that are not JSON, or not all of it.
  { name: 'invalid UTF-8', method: 'POST', path: '/v1/upscale', authenticated: true, headers: JSON_TYPE, body: () => Buffer.concat([Buffer.from('{"url":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('"}')]), expected: validation },
  { name: 'truncated JSON', method: 'POST', path: '/v1/upscale', authenticated: true, headers: JSON_TYPE, body: text(`{"url":"${IMAGE.slice(0, 12)}`), expected: validation },
  { name: 'empty JSON body', method: 'POST', path: '/v1/upscale', authenticated: true, headers: { ...JSON_TYPE, 'content-length': '0' }, body: text(''), expected: validation },
  { name: 'NUL bytes', method: 'POST', path: '/v1/upscale', authenticated: true, headers: JSON_TYPE, body: () => Buffer.alloc(1024), expected: validation },
  // Wrong media types and codings.
  { name: 'text/plain', method: 'POST', path: '/v1/upscale', authenticated: true, headers: { 'content-type': 'text/plain' }, body: json({ url: IMAGE }), expected: notJson },
  { name: 'form-urlencoded', method: 'POST', path: '/v1/upscale', authenticated: true, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: text(`url=${IMAGE}`), expected: notJson },
  { name: 'no content type', method: 'POST', path: '/v1/upscale', authenticated: true, body: json({ url: IMAGE }), expected: notJson },
  {
    name: 'gzip bomb (64 MB of spaces in 64 kB)',
    method: 'POST',
    path: '/v1/upscale',
    authenticated: true,
    headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
    body: () => zlib.gzipSync(Buffer.concat([Buffer.from(`{"url":"${IMAGE}"`), Buffer.alloc(64 * MEGABYTE, ' '), Buffer.from('}')])),
    expected: notJson,
  },
  // Who may send a body at all.
  { name: '60 MB body without a key', method: 'POST', path: '/v1/upscale', authenticated: false, headers: JSON_TYPE, body: json({ url: IMAGE, notes: 'x'.repeat(60 * MEGABYTE) }), expected: unauthorized },
  { name: 'body with a wrong key', method: 'POST', path: '/v1/upscale', authenticated: false, headers: { ...JSON_TYPE, authorization: 'Bearer rc_live_nope' }, body: json({ url: IMAGE }), expected: unauthorized },
  // A webhook that the delivery would refuse is refused at submit.
  { name: 'webhook to the metadata service', method: 'POST', path: '/v1/upscale', authenticated: true, headers: JSON_TYPE, body: json({ url: IMAGE, webhook: 'http://169.254.169.254/latest/meta-data/' }), expected: { status: 400, code: 'webhook_refused' } },
  // HTTP edge cases, answered by the router or Node's parser before any route.
  { name: 'bad percent-encoding', method: 'GET', path: '/v1/job/%zz', authenticated: true, expected: { status: 400, code: 'malformed_request' } },
  { name: '200-character job id', method: 'GET', path: `/v1/job/${'a'.repeat(200)}`, authenticated: true, expected: { status: 414, code: 'uri_too_long' } },
  { name: '20 kB URL', method: 'GET', path: `/v1/styles?pad=${'a'.repeat(20 * 1024)}`, authenticated: true, expected: { status: 431, code: 'header_fields_too_large' } },
  { name: '32 kB header field', method: 'GET', path: '/v1/styles', authenticated: true, headers: { 'x-pad': 'a'.repeat(32 * 1024) }, expected: { status: 431, code: 'header_fields_too_large' } },
];

export interface HostileAnswer {
  status: number;
  contentType: string | undefined;
  body: string;
}

/** Sends one case on a connection of its own (some answers close it) and reads the whole answer. */
export function sendHostileCase(baseUrl: string, apiKey: string, hostile: HostileCase): Promise<HostileAnswer> {
  const body = hostile.body?.();
  const headers: Record<string, string> = {
    ...(hostile.authenticated ? { authorization: `Bearer ${apiKey}` } : {}),
    ...(body ? { 'content-length': String(body.length) } : {}),
    ...hostile.headers,
  };
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(hostile.path, baseUrl), { method: hostile.method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, contentType: response.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', reject);
    });
    // A server that answers before reading the whole body (401, 413) may close the connection under the upload.
    request.on('error', reject);
    request.end(body);
  });
}

/** Fires every case once, in order, and counts the answers by status (`network_error` for none). */
export async function fireHostileBodies(baseUrl: string, apiKey: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const hostile of HOSTILE_CASES) {
    const outcome = await sendHostileCase(baseUrl, apiKey, hostile).then(
      (answer) => String(answer.status),
      () => 'network_error',
    );
    counts[outcome] = (counts[outcome] ?? 0) + 1;
  }
  return counts;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { url: { type: 'string' }, key: { type: 'string' } } });
  if (!values.url || !values.key) {
    console.error('usage: node --import tsx bench/hostile-bodies.ts --url http://127.0.0.1:8080 --key <API key>');
    process.exit(2);
  }
  const counts = await fireHostileBodies(values.url, values.key);
  console.log(JSON.stringify(counts));
  const failed = Object.entries(counts).some(([status, count]) => count > 0 && (status === 'network_error' || Number(status) >= 500));
  process.exit(failed ? 1 : 0);
}

if (import.meta.filename === process.argv[1]) await main();
