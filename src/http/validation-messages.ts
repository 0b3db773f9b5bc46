import type { FastifySchemaValidationError } from 'fastify';
import type { FieldError } from '../errors.js';

/**
 * A schema annotation for constraints whose keyword says nothing to a person (a pattern): the words that complete
 * "<field> must be …", e.g. `an http(s) URL or a data: URL`. Registered with Ajv as an annotation keyword.
 */
export const EXPECTED = 'x-expected';

/** What Ajv reports with `verbose: true`: the failing schema's parent and the data it judged. */
interface VerboseError extends FastifySchemaValidationError {
  parentSchema?: Record<string, unknown>;
  data?: unknown;
}

/** Which error speaks for a field when several did: the one a person can act on first. */
const PRIORITY = ['required', 'type', 'anyOf', 'oneOf', 'enum', 'const', 'pattern', 'format', 'minLength', 'maxLength'];

/**
 * One message per field, in words: `scale must be the number 2 or 3 (got the string "2")` rather than Ajv's five
 * lines for one union. Ajv (with allErrors and verbose) reports every branch of a union and every keyword; the
 * errors are grouped by the field they concern, and the outermost one (the union itself, not its branches) speaks.
 */
export function describeValidationErrors(errors: readonly FastifySchemaValidationError[], where: string): FieldError[] {
  const byField = new Map<string, VerboseError[]>();
  for (const error of errors as readonly VerboseError[]) {
    const field = fieldOf(error);
    byField.set(field, [...(byField.get(field) ?? []), error]);
  }
  return [...byField].map(([field, group]) => ({ field, message: `${nameOf(field, where)} ${describe(pick(group))}` }));
}

function fieldOf(error: VerboseError): string {
  const missing = error.keyword === 'required' ? (error.params as { missingProperty?: string }).missingProperty : undefined;
  const extra = error.keyword === 'additionalProperties' ? (error.params as { additionalProperty?: string }).additionalProperty : undefined;
  const child = missing ?? extra;
  return child === undefined ? error.instancePath || '/' : `${error.instancePath}/${child}`;
}

/** The outermost error (shortest schema path: a union before its branches), then by PRIORITY. */
function pick(group: readonly VerboseError[]): VerboseError {
  const depth = (e: VerboseError) => e.schemaPath.split('/').length;
  const rank = (e: VerboseError) => {
    const index = PRIORITY.indexOf(e.keyword);
    return index === -1 ? PRIORITY.length : index;
  };
  return [...group].sort((a, b) => depth(a) - depth(b) || rank(a) - rank(b))[0]!;
}

function nameOf(field: string, where: string): string {
  if (field === '/') return where === 'body' ? 'the body' : `the ${where}`;
  const path = field.slice(1).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~')).join('.');
  return where === 'headers' ? `the header ${path}` : path;
}

function describe(error: VerboseError): string {
  const schema = error.parentSchema ?? {};
  const got = 'data' in error ? ` (got ${valueInWords(error.data)})` : '';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a field of this request';
    case 'anyOf':
    case 'oneOf':
      return `must be ${alternatives(schema[error.keyword])}${got}`;
    case 'enum':
      return `must be ${oneOf((schema.enum as unknown[] | undefined) ?? [])}${got}`;
    case 'const':
      return `must be ${oneOf([schema.const])}${got}`;
    case 'type':
      return `must be ${typeInWords(schema.type)}${got}`;
    case 'pattern':
    case 'format':
      return typeof schema[EXPECTED] === 'string' ? `must be ${schema[EXPECTED]}${got}` : `does not have the expected form${got}`;
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters long`;
    case 'maxLength':
      return `must be at most ${String(params.limit)} characters long`;
    case 'minimum':
      return `must be at least ${String(params.limit)}${got}`;
    case 'maximum':
      return `must be at most ${String(params.limit)}${got}`;
    case 'exclusiveMinimum':
      return `must be more than ${String(params.limit)}${got}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(params.limit)}${got}`;
    default:
      return `${error.message ?? 'is not valid'}${got}`;
  }
}

/** The branches of a union: `the number 2 or 3` when each is a constant, else the types they admit. */
function alternatives(branches: unknown): string {
  const list = Array.isArray(branches) ? (branches as Record<string, unknown>[]) : [];
  if (list.length > 0 && list.every((b) => 'const' in b)) return oneOf(list.map((b) => b.const));
  if (list.length > 0 && list.every((b) => Array.isArray(b.enum))) return oneOf(list.flatMap((b) => b.enum as unknown[]));
  const types = [...new Set(list.map((b) => typeInWords(b.type)))];
  return types.length > 0 ? orList(types) : 'one of the allowed forms';
}

/** `the number 2 or 3`, `"classical" or "learned"`, `one of "a", "b" or "c"`. */
function oneOf(values: readonly unknown[]): string {
  if (values.length > 0 && values.every((v) => typeof v === 'number')) return `the number ${orList(values.map(String))}`;
  const words = orList(values.map((v) => JSON.stringify(v)));
  return values.length > 2 ? `one of ${words}` : words;
}

function orList(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

function typeInWords(type: unknown): string {
  if (Array.isArray(type)) return orList(type.map(typeInWords));
  switch (type) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'integer':
      return 'a whole number';
    case 'boolean':
      return 'true or false';
    case 'object':
      return 'a JSON object';
    case 'array':
      return 'a list';
    case 'null':
      return 'null';
    default:
      return 'of another type';
  }
}

const SHOWN_CHARACTERS = 40;

/** `the string "2"`, `the number 4`, `true`, `a list`: enough to see the mistake, never a whole data: URL. */
export function valueInWords(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    const shown = value.length > SHOWN_CHARACTERS ? `${value.slice(0, SHOWN_CHARACTERS)}…` : value;
    return `the string ${JSON.stringify(shown)}`;
  }
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return 'a list';
  return 'an object';
}
