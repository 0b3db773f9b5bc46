import type { FastifyRequest } from 'fastify';
import type { HttpApp } from '../http-app.js';
import type { Readable } from 'node:stream';
import { AppError } from '../../errors.js';
import { JsonShapeScanner, SMALL_BODY_LIMIT_BYTES } from '../json-shape-scanner.js';

export { checkJsonShape, MAX_BODY_ARRAY_ITEMS, MAX_BODY_DEPTH, MAX_BODY_KEYS, SMALL_BODY_LIMIT_BYTES } from '../json-shape-scanner.js';

/** The body limit of a route that takes an image and a mask as data: URLs at the fetch cap, plus the JSON around them. */
export function dataUrlBodyLimit(fetchMaxBytes: number): number {
  return Math.ceil((fetchMaxBytes * 4) / 3) * 2 + SMALL_BODY_LIMIT_BYTES;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Top-level fields whose string values may be as large as the route's body limit (data: URLs). The rest of the
     * body must fit in SMALL_BODY_LIMIT_BYTES, so a large body is only ever large in these fields.
     */
    largeJsonFields?: readonly string[];
  }
}

/**
 * The one JSON body parser. It reads the body itself, chunk by chunk, checking its shape as it arrives
 * (json-shape-scanner.ts): a body past a limit is refused at the chunk that crosses it, before the rest is read, and
 * nothing is decoded or parsed until the whole body passed. It also holds the route's byte limit and refuses
 * compressed bodies (no content coding is accepted; a gzip bomb is never inflated). `__proto__` and `constructor` are
 * ordinary keys to JSON.parse (own properties that set no prototype); the operation routes drop them with every
 * other unknown field.
 */
export function registerJsonBody(app: HttpApp): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', (request: FastifyRequest, payload: Readable, done: (error: Error | null, body?: unknown) => void) => {
    let settled = false;
    const finish = (error: Error | null, body?: unknown) => {
      if (settled) return;
      settled = true;
      // Node discards whatever of a refused body is still to come, a chunk at a time, without this handler.
      payload.removeAllListeners('data');
      done(error, body);
    };
    try {
      refuseContentCoding(request.headers['content-encoding']);
    } catch (error) {
      return finish(error as Error);
    }
    const limit = request.routeOptions.bodyLimit ?? SMALL_BODY_LIMIT_BYTES;
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return finish(tooLarge());
    const scanner = new JsonShapeScanner(request.routeOptions.config.largeJsonFields);
    const chunks: Buffer[] = [];
    let received = 0;
    payload.on('data', (chunk: Buffer) => {
      if (settled) return;
      received += chunk.length;
      if (received > limit) return finish(tooLarge());
      try {
        scanner.feed(chunk);
      } catch (error) {
        return finish(error as Error);
      }
      chunks.push(chunk);
    });
    payload.on('error', (error) => finish(error));
    payload.on('end', () => {
      if (settled) return;
      try {
        scanner.finish();
        finish(null, parseJson(Buffer.concat(chunks, received).toString('utf8')));
      } catch (error) {
        finish(error as Error);
      }
    });
  });
}

function refuseContentCoding(encoding: string | undefined): void {
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    throw new AppError('unsupported_media_type', 415, `send the request body uncompressed (Content-Encoding: ${encoding.slice(0, 40)} is not accepted)`);
  }
}

function tooLarge(): AppError {
  return new AppError('payload_too_large', 413, 'the request body is larger than this server accepts');
}

function parseJson(text: string): unknown {
  if (text.trim() === '') throw new AppError('validation_failed', 400, 'the request body is empty');
  try {
    return JSON.parse(text);
  } catch (error) {
    // V8's message says where the text stops being JSON and quotes only a few characters around it.
    throw new AppError('validation_failed', 400, `the request body is not valid JSON: ${(error as Error).message.slice(0, 200)}`);
  }
}

/** Top-level request fields larger than this, or with characters outside it, are named by position in the header. */
const PRINTABLE_FIELD_NAME = /^[\x21-\x2b\x2d-\x7e]{1,64}$/;
/** How many ignored fields the X-Roomcraft-Ignored-Fields header names. */
const NAMED_IGNORED_FIELDS = 20;

/**
 * Deletes the top-level fields of `body` that are not in `known` (a body that is not an object is left alone for the
 * schema to refuse) and returns their names. Nothing a client adds beyond the documented fields is stored.
 */
export function dropUnknownFields(body: unknown, known: ReadonlySet<string>): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).filter((name) => !known.has(name));
  for (const name of unknown) delete record[name];
  return unknown;
}

/**
 * The value of X-Roomcraft-Ignored-Fields: the names, comma-separated, at most NAMED_IGNORED_FIELDS of them; a name
 * that is not printable ASCII (or has a comma, or is long) is written as `#<its position>`, since a header cannot
 * carry it as sent. More names than fit end the list with `+<how many more>`.
 */
export function ignoredFieldsHeader(names: readonly string[]): string {
  const shown = names
    .slice(0, NAMED_IGNORED_FIELDS)
    .map((name, index) => (PRINTABLE_FIELD_NAME.test(name) ? name : `#${index + 1}`));
  if (names.length > NAMED_IGNORED_FIELDS) shown.push(`+${names.length - NAMED_IGNORED_FIELDS}`);
  return shown.join(', ');
}
