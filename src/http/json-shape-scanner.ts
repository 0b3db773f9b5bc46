import { AppError } from '../errors.js';

/** The body limit of every route that takes no data: URL: a processing request without its images is a few hundred bytes. */
export const SMALL_BODY_LIMIT_BYTES = 64 * 1024;
/** Nesting levels a body may have; a processing request has 1 (its fields), an array parameter 2. */
export const MAX_BODY_DEPTH = 16;
/** Keys a body may have, at every depth together; a processing request has about ten. */
export const MAX_BODY_KEYS = 1_000;
/** Array items a body may have, at every depth together. */
export const MAX_BODY_ARRAY_ITEMS = 10_000;

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

/**
 * Checks a JSON body's shape as its bytes arrive, before anything is parsed: nesting deeper than MAX_BODY_DEPTH
 * (400), more than MAX_BODY_KEYS keys or MAX_BODY_ARRAY_ITEMS array items (413), and, when `largeFields` are given,
 * more than SMALL_BODY_LIMIT_BYTES outside their top-level string values (413). A hostile body is refused at the
 * chunk that crosses a limit, so a 60 MB unknown field costs the server 64 KiB of reading, not 60 MB of decoding.
 * Strings are skipped with indexOf (a memchr), so a data: URL of many megabytes costs little. Every structural
 * character of JSON is ASCII, which never occurs inside a multi-byte UTF-8 sequence, so scanning bytes is exact.
 * Bytes that are not JSON are left for JSON.parse to refuse.
 */
export class JsonShapeScanner {
  private readonly containers: number[] = [];
  private keys = 0;
  private arrayItems = 0;
  private smallBytes = 0;
  /** Inside a string: whether it is a large field's value, and the bytes of a would-be top-level key so far. */
  private string: { large: boolean; name: number[] | undefined; trailingBackslashes: number } | undefined;
  /** A string just closed at the top level; the next token tells whether it was a key (a colon) or a value. */
  private candidateKey: string | undefined;
  private lastWasString = false;
  /** The top-level key whose value comes next. */
  private valueOf: string | undefined;

  constructor(private readonly largeFields: readonly string[] = []) {}

  feed(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.string) {
        at = this.skipString(chunk, at);
        continue;
      }
      const code = chunk[at]!;
      this.smallBytes += 1;
      if (isJsonWhitespace(code)) {
        at++;
        continue;
      }
      const wasString = this.lastWasString;
      this.lastWasString = false;
      if (code === COLON && wasString) {
        if (++this.keys > MAX_BODY_KEYS) {
          throw new AppError('payload_too_large', 413, `the request body has more than ${MAX_BODY_KEYS} keys (the limit, at every depth together)`);
        }
        this.valueOf = this.candidateKey;
        this.candidateKey = undefined;
        at++;
        continue;
      }
      this.candidateKey = undefined;
      const valueOf = this.valueOf;
      this.valueOf = undefined;
      if (code === QUOTE) {
        const topLevel = this.containers.length === 1;
        const large = topLevel && valueOf !== undefined && this.largeFields.includes(valueOf);
        // The opening quote of a large value belongs to it, as its closing quote will.
        if (large) this.smallBytes -= 1;
        this.string = { large, name: topLevel && !large ? [] : undefined, trailingBackslashes: 0 };
        at++;
        continue;
      }
      if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
        if (this.containers.push(code) > MAX_BODY_DEPTH) {
          throw new AppError('validation_failed', 400, `the request body nests deeper than ${MAX_BODY_DEPTH} levels (the limit)`);
        }
        // An array counts its first item here and each further one at its comma (an empty array counts one).
        if (code === OPEN_ARRAY) this.arrayItems++;
      } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
        this.containers.pop();
      } else if (code === COMMA && this.containers.at(-1) === OPEN_ARRAY) {
        this.arrayItems++;
      }
      if (this.arrayItems > MAX_BODY_ARRAY_ITEMS) {
        throw new AppError('payload_too_large', 413, `the request body has more than ${MAX_BODY_ARRAY_ITEMS} array items (the limit, at every depth together)`);
      }
      at++;
    }
    this.checkSmallBytes();
  }

  /** Ends the check; the body is complete. */
  finish(): void {
    this.checkSmallBytes();
  }

  /** Moves through the open string from `at`; returns where scanning goes on (past its closing quote, or the chunk's end). */
  private skipString(chunk: Uint8Array, at: number): number {
    const string = this.string!;
    for (let from = at; ; ) {
      const quote = chunk.indexOf(QUOTE, from);
      const end = quote === -1 ? chunk.length : quote;
      if (quote === -1) {
        this.countStringBytes(chunk, at, end);
        // Backslashes at the chunk's end may escape a quote at the next chunk's start.
        let run = 0;
        while (run < end - at && chunk[end - 1 - run] === BACKSLASH) run++;
        string.trailingBackslashes = run === end - at ? string.trailingBackslashes + run : run;
        return chunk.length;
      }
      let backslashes = 0;
      while (quote - 1 - backslashes >= at && chunk[quote - 1 - backslashes] === BACKSLASH) backslashes++;
      if (quote - backslashes === at) backslashes += string.trailingBackslashes;
      if (backslashes % 2 === 1) {
        from = quote + 1;
        continue;
      }
      this.countStringBytes(chunk, at, quote + 1);
      if (string.name !== undefined) {
        this.candidateKey = string.name.length <= LONGEST_FIELD_NAME + 1 ? Buffer.from(string.name.slice(0, -1)).toString('utf8') : undefined;
      }
      this.lastWasString = true;
      this.string = undefined;
      return quote + 1;
    }
  }

  private countStringBytes(chunk: Uint8Array, from: number, to: number): void {
    const string = this.string!;
    if (!string.large) this.smallBytes += to - from;
    if (string.name !== undefined && string.name.length <= LONGEST_FIELD_NAME + 1) {
      for (let i = from; i < to && string.name.length <= LONGEST_FIELD_NAME + 1; i++) string.name.push(chunk[i]!);
    }
  }

  private checkSmallBytes(): void {
    if (this.largeFields.length > 0 && this.smallBytes > SMALL_BODY_LIMIT_BYTES) {
      throw new AppError(
        'payload_too_large',
        413,
        `only ${this.largeFields.join(' and ')} may be large (data: URLs); the rest of the request body is over ${SMALL_BODY_LIMIT_BYTES / 1024} KiB (the limit)`,
      );
    }
  }
}

/** The whole check on a complete text (tests, and bodies that arrive whole). */
export function checkJsonShape(text: string, largeFields: readonly string[] = []): void {
  const scanner = new JsonShapeScanner(largeFields);
  scanner.feed(Buffer.from(text, 'utf8'));
  scanner.finish();
}
