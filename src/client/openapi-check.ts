import { OPERATIONS, isOperationName, type FieldType } from './operations.js';

/** A request field as an OpenAPI document describes it. */
export interface DocumentField {
  name: string;
  required: boolean;
  /** `unknown` when the schema gives no single JSON type. */
  type: FieldType | 'unknown';
  /** The allowed values, when the schema is an enumeration. */
  values?: unknown[];
}

/** The routes the client calls besides the processing POSTs, as [method, path] in the document's spelling. */
export const CLIENT_ROUTES = [
  ['get', '/v1/job/{id}'],
  ['delete', '/v1/job/{id}'],
  ['get', '/v1/jobs'],
  ['get', '/v1/styles'],
  ['get', '/v1/rooms'],
  ['get', '/v1/furnitures'],
  ['get', '/v1/skies'],
] as const;

type Json = Record<string, unknown>;

/**
 * Where the client (OPERATIONS and the GET routes it calls) and an OpenAPI document disagree, one sentence each;
 * empty when they agree. Every POST of the document is a processing operation and must have a client method with the
 * same request fields: names, required-ness, JSON types and allowed values, both ways.
 */
export function differencesFromOpenApi(document: unknown): string[] {
  const differences: string[] = [];
  const paths = (isObject(document) && isObject(document.paths) ? document.paths : {}) as Json;
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item) || !isObject(item.post)) continue;
    const name = path.replace(/^\/v1\//, '');
    if (!path.startsWith('/v1/') || !isOperationName(name)) {
      differences.push(`POST ${path} has no client method`);
      continue;
    }
    const documented = new Map(requestFields(document, name).map((field) => [field.name, field]));
    const known: Record<string, { type: string; required: boolean; values?: readonly unknown[] }> = OPERATIONS[name].fields;
    for (const [field, spec] of Object.entries(known)) {
      const doc = documented.get(field);
      if (!doc) {
        differences.push(`${name}: the client sends ${field}, which the document does not define`);
        continue;
      }
      if (doc.required !== spec.required) {
        differences.push(`${name}: ${field} is ${doc.required ? 'required' : 'optional'} in the document, ${spec.required ? 'required' : 'optional'} in the client`);
      }
      if (doc.type !== spec.type) differences.push(`${name}: ${field} is ${doc.type} in the document, ${spec.type} in the client`);
      if (!sameValues(doc.values, spec.values)) {
        differences.push(`${name}: ${field} takes ${show(doc.values)} in the document, ${show(spec.values)} in the client`);
      }
    }
    for (const field of documented.keys()) {
      if (!Object.hasOwn(known, field)) differences.push(`${name}: the document defines ${field}, which the client does not know`);
    }
  }
  for (const name of Object.keys(OPERATIONS)) {
    const item = paths[`/v1/${name}`];
    if (!isObject(item) || !isObject(item.post)) differences.push(`the client posts to /v1/${name}, which the document lacks`);
  }
  for (const [method, path] of CLIENT_ROUTES) {
    const item = paths[path];
    if (!isObject(item) || !isObject(item[method])) differences.push(`the client ${method === 'get' ? 'reads' : 'calls'} ${method.toUpperCase()} ${path}, which the document lacks`);
  }
  return differences;
}

/** The fields of the JSON body of POST /v1/<operation> in the document; empty when it has none. */
export function requestFields(document: unknown, operation: string): DocumentField[] {
  const post = dig(document, ['paths', `/v1/${operation}`, 'post']);
  const schema = resolve(document, dig(post, ['requestBody', 'content', 'application/json', 'schema']));
  if (!isObject(schema) || !isObject(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.entries(schema.properties).map(([name, property]) => {
    const { type, values } = describe(resolve(document, property));
    return { name, required: required.has(name), type, ...(values ? { values } : {}) };
  });
}

/** The JSON type and the allowed values of a property schema: `type`, `enum`, `const`, or a union of those. */
function describe(schema: unknown): { type: DocumentField['type']; values?: unknown[] } {
  if (!isObject(schema)) return { type: 'unknown' };
  const alternatives = (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined) as
    | unknown[]
    | undefined;
  if (alternatives) {
    const parts = alternatives.map(describe);
    const types = new Set(parts.map((p) => p.type));
    const type = types.size === 1 ? [...types][0]! : 'unknown';
    return parts.every((p) => p.values) ? { type, values: parts.flatMap((p) => p.values!) } : { type };
  }
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
  let type: DocumentField['type'] = 'unknown';
  if (schema.type === 'string' || schema.type === 'boolean') type = schema.type;
  else if (schema.type === 'number' || schema.type === 'integer') type = 'number';
  else if (values && values.length > 0 && values.every((v) => typeof v === typeof values[0])) {
    const kind = typeof values[0];
    if (kind === 'string' || kind === 'number' || kind === 'boolean') type = kind;
  }
  return { type, ...(values ? { values } : {}) };
}

function sameValues(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): boolean {
  if (!a || !b) return !a && !b;
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((v) => right.has(v));
}

function show(values: readonly unknown[] | undefined): string {
  return values ? values.map((v) => JSON.stringify(v)).join(' | ') : 'any value';
}

/** Follows a local `$ref` (`#/components/schemas/X`). */
function resolve(document: unknown, schema: unknown): unknown {
  for (let hops = 0; isObject(schema) && typeof schema.$ref === 'string' && hops < 10; hops++) {
    const ref = schema.$ref;
    if (!ref.startsWith('#/')) return schema;
    schema = dig(document, ref.slice(2).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~')));
  }
  return schema;
}

function dig(value: unknown, keys: string[]): unknown {
  for (const key of keys) value = isObject(value) ? value[key] : undefined;
  return value;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
