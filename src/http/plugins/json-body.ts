import type { FastifyRequest } from 'fastify';
import type { HttpApp } from '../http-app.js';
import { AppError } from '../../errors.js';

/** The body limit of every route that takes no data: URL: a processing request without its images is a few hundred bytes. */
export const SMALL_BODY_LIMIT_BYTES = 64 * 1024;
/** Nesting levels a body may have; a processing request has 1 (its fields), an array parameter 2. */
export const MAX_BODY_DEPTH = 16;
/** Keys a body may have, at every depth together; a processing request has about ten. */
export const MAX_BODY_KEYS = 1_000;
/** Array items a body may have, at every depth together. */
export const MAX_BODY_ARRAY_ITEMS = 10_000;

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

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
/** A top-level key longer than this is no field of ours, so it is never compared with the large fields. */
const LONGEST_FIELD_NAME = 64;

function isJsonWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** The index of the quote that closes the string opening at `open`, or the text's length if none does. */
function closingQuote(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

/**
 * Refuses a JSON text whose shape is beyond the limits, in one pass over its characters and before JSON.parse builds
 * anything: nesting deeper than MAX_BODY_DEPTH (400), more than MAX_BODY_KEYS keys or MAX_BODY_ARRAY_ITEMS array items
 * (413), and, when `largeFields` are given, more than SMALL_BODY_LIMIT_BYTES outside their top-level string values
 * (413). Strings are skipped with indexOf, so a data: URL of many megabytes costs a memchr, not a loop in JavaScript.
 * Text that is not JSON is left for JSON.parse to refuse.
 */
export function checkJsonShape(text: string, largeFields: readonly string[] = []): void {
  const containers: number[] = [];
  let keys = 0;
  let arrayItems = 0;
  let largeFieldChars = 0;
  let topLevelKey: string | undefined;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      const close = closingQuote(text, at);
      let next = close + 1;
      while (next < text.length && isJsonWhitespace(text.charCodeAt(next))) next++;
      if (text.charCodeAt(next) === COLON) {
        if (++keys > MAX_BODY_KEYS) {
          throw new AppError('payload_too_large', 413, `the request body has more than ${MAX_BODY_KEYS} keys (the limit, at every depth together)`);
        }
        if (containers.length === 1) topLevelKey = close - at - 1 <= LONGEST_FIELD_NAME ? text.slice(at + 1, close) : undefined;
        at = next;
      } else {
        if (containers.length === 1 && topLevelKey !== undefined && largeFields.includes(topLevelKey)) largeFieldChars += close + 1 - at;
        at = close;
      }
      continue;
    }
    if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if (containers.push(code) > MAX_BODY_DEPTH) {
        throw new AppError('validation_failed', 400, `the request body nests deeper than ${MAX_BODY_DEPTH} levels (the limit)`);
      }
      // An array counts its first item here and each further one at its comma (an empty array counts one).
      if (code === OPEN_ARRAY) arrayItems++;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      containers.pop();
    } else if (code === COMMA && containers.at(-1) === OPEN_ARRAY) {
      arrayItems++;
    } else {
      continue;
    }
    if (arrayItems > MAX_BODY_ARRAY_ITEMS) {
      throw new AppError('payload_too_large', 413, `the request body has more than ${MAX_BODY_ARRAY_ITEMS} array items (the limit, at every depth together)`);
    }
  }
  if (largeFields.length > 0 && text.length - largeFieldChars > SMALL_BODY_LIMIT_BYTES) {
    throw new AppError(
      'payload_too_large',
      413,
      `only ${largeFields.join(' and ')} may be large (data: URLs); the rest of the request body is over ${SMALL_BODY_LIMIT_BYTES / 1024} KiB (the limit)`,
    );
  }
}

function parseJsonBody(request: FastifyRequest, text: string): unknown {
  const encoding = request.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    throw new AppError('unsupported_media_type', 415, `send the request body uncompressed (Content-Encoding: ${encoding.slice(0, 40)} is not accepted)`);
  }
  if (text.trim() === '') throw new AppError('validation_failed', 400, 'the request body is empty');
  checkJsonShape(text, request.routeOptions.config.largeJsonFields);
  try {
    return JSON.parse(text);
  } catch (error) {
    // V8's message says where the text stops being JSON and quotes only a few characters around it.
    throw new AppError('validation_failed', 400, `the request body is not valid JSON: ${(error as Error).message.slice(0, 200)}`);
  }
}

/**
 * The one JSON body parser: checks the body's shape (checkJsonShape) before JSON.parse, and refuses compressed
 * bodies (no content coding is accepted; a gzip bomb is never inflated). `__proto__` and `constructor` are ordinary
 * keys to JSON.parse (own properties that set no prototype); the operation routes drop them with every other unknown
 * field.
 */
export function registerJsonBody(app: HttpApp): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, async (request: FastifyRequest, text: string | Buffer) =>
    parseJsonBody(request, typeof text === 'string' ? text : text.toString('utf8')),
  );
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
