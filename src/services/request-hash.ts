import crypto from 'node:crypto';

/**
 * The fingerprint an Idempotency-Key is compared by: the operation and the body, whatever order the body's fields
 * came in.
 */
export function hashRequest(operation: string, body: unknown): string {
  return crypto.createHash('sha256').update(operation).update('\0').update(canonicalJson(body)).digest('hex');
}

/** Text that goes into the output as it is, between the values still to be written. */
class Verbatim {
  constructor(readonly text: string) {}
}

/**
 * JSON with sorted keys, so the same request hashes the same whatever order its fields came in. It walks the value
 * with an explicit stack rather than by recursion, so no nesting depth a client can send overflows the call stack.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  // Popped from the end: what is written first is pushed last.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (item instanceof Verbatim) {
      out.push(item.text);
    } else if (Array.isArray(item)) {
      pending.push(new Verbatim(']'));
      for (let i = item.length - 1; i >= 0; i--) {
        pending.push(item[i] === undefined ? null : item[i]);
        if (i > 0) pending.push(new Verbatim(','));
      }
      pending.push(new Verbatim('['));
    } else if (item && typeof item === 'object') {
      const entries = Object.entries(item as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      pending.push(new Verbatim('}'));
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, entryValue] = entries[i]!;
        pending.push(entryValue, new Verbatim(`${JSON.stringify(key)}:`));
        if (i > 0) pending.push(new Verbatim(','));
      }
      pending.push(new Verbatim('{'));
    } else {
      out.push(JSON.stringify(item));
    }
  }
  return out.join('');
}
