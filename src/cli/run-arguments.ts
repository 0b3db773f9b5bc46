import { OPERATIONS, OPERATION_NAMES, type FieldSpec, type OperationName } from '../client/index.js';

/** `roomcraft run OP PHOTO [--field value…] [-o FILE] [--json] [--server URL] [--key KEY]`, parsed. */
export interface RunArguments {
  operation: OperationName;
  /** A local file, or an http(s) URL the server fetches itself. */
  photo: string;
  /** The operation's fields by their API names, coerced to the types of the schema; `mask` still names a file or URL. */
  fields: Record<string, string | number | boolean>;
  server?: string;
  key?: string;
  out?: string;
  json: boolean;
}

export type ParsedRun = { kind: 'run'; args: RunArguments } | { kind: 'help' } | { kind: 'error'; message: string };

type Field = FieldSpec & { name: string };

/** `styleId` → `--style-id`, `sky_fix` → `--sky-fix`: how the usage text spells a field. */
export function flagOf(field: string): string {
  return `--${field.replace(/_/g, '-').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** Field and operation names compare without case, `-` or `_`: --style-id, --styleId and --style_id are one field. */
function loose(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

/** Fields of the API the command line does not take: the photo is PHOTO, and run follows the job itself. */
const NOT_FIELDS: Record<string, string> = {
  url: 'the image is PHOTO',
  webhook: 'run follows the job itself and takes no webhook',
};

/** The fields the command line may set for an operation: all but `url` and `webhook`. */
export function fieldsOf(operation: OperationName): Field[] {
  const specs: Record<string, FieldSpec> = OPERATIONS[operation].fields;
  return Object.entries(specs)
    .filter(([name]) => !Object.hasOwn(NOT_FIELDS, name))
    .map(([name, spec]) => ({ name, ...spec }));
}

/** `--scale 2|3`, `--style-id ID`, `--sky-fix`, `--mask FILE`: one field as the usage text shows it. */
export function describeField(field: Field): string {
  const flag = flagOf(field.name);
  if (field.type === 'boolean') return flag;
  if (field.values) return `${flag} ${field.values.join('|')}`;
  if (field.name === 'mask') return `${flag} FILE`;
  return `${flag} ${field.name.endsWith('Id') ? 'ID' : 'VALUE'}`;
}

function listFields(operation: OperationName): string {
  const fields = fieldsOf(operation);
  return fields.length ? fields.map((f) => (f.required ? describeField(f) : `[${describeField(f)}]`)).join(' ') : 'no fields';
}

const OPTIONS_WITH_VALUE: Record<string, 'server' | 'key' | 'out'> = {
  '--server': 'server',
  '--key': 'key',
  '-o': 'out',
  '--out': 'out',
  '--output': 'out',
};

export function parseRunArguments(argv: readonly string[]): ParsedRun {
  const fail = (message: string): ParsedRun => ({ kind: 'error', message });
  const positionals: string[] = [];
  const options: { server?: string; key?: string; out?: string; json: boolean } = { json: false };
  const raw: { field: Field; flag: string; value: string | true; negated: boolean }[] = [];
  let operation: OperationName | undefined;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (token === '-h' || token === '--help') return { kind: 'help' };
    if (!token.startsWith('-') || token === '-') {
      positionals.push(token);
      if (positionals.length === 1) {
        operation = OPERATION_NAMES.find((name) => loose(name) === loose(token));
        if (!operation) return fail(`unknown operation "${token}"; the operations are ${OPERATION_NAMES.join(', ')}`);
      }
      continue;
    }
    const equals = token.indexOf('=');
    const flag = equals > 0 ? token.slice(0, equals) : token;
    const inlineValue = equals > 0 ? token.slice(equals + 1) : undefined;
    if (flag === '--json') {
      if (inlineValue !== undefined) return fail('--json takes no value');
      options.json = true;
      continue;
    }
    const option = OPTIONS_WITH_VALUE[flag];
    if (option) {
      const value = inlineValue ?? argv[++i];
      if (value === undefined || value === '') return fail(`${flag} needs a value`);
      options[option] = value;
      continue;
    }
    if (!flag.startsWith('--')) return fail(`unknown option ${flag}`);
    if (!operation) return fail(`${flag} comes before the operation; write roomcraft run OP PHOTO ${flag} …`);
    const name = flag.slice(2);
    const refused = Object.keys(NOT_FIELDS).find((f) => loose(f) === loose(name));
    if (refused) return fail(`${flag}: ${NOT_FIELDS[refused]}`);
    const fields = fieldsOf(operation);
    let field = fields.find((f) => loose(f.name) === loose(name));
    let negated = false;
    if (!field && name.startsWith('no-')) {
      field = fields.find((f) => f.type === 'boolean' && loose(f.name) === loose(name.slice(3)));
      negated = field !== undefined;
    }
    if (!field) return fail(`${operation} has no field ${flag}; its fields are: ${listFields(operation)}`);
    if (raw.some((r) => r.field.name === field.name)) return fail(`${flagOf(field.name)} is given twice`);
    let value: string | true;
    if (inlineValue !== undefined) {
      value = inlineValue;
    } else if (field.type === 'boolean') {
      // A boolean flag alone means true; `--sky-fix false` and `--no-sky-fix` say false.
      const next = argv[i + 1];
      value = next === 'true' || next === 'false' ? argv[++i]! : true;
    } else {
      const next = argv[++i];
      if (next === undefined) return fail(`${flag} needs a value: ${describeField(field)}`);
      value = next;
    }
    if (negated && value !== true) return fail(`${flag} takes no value`);
    raw.push({ field, flag, value, negated });
  }
  if (!operation) return fail('which operation? roomcraft run OP PHOTO, with OP one of ' + OPERATION_NAMES.join(', '));
  const [, photo, ...extra] = positionals;
  if (!photo) return fail(`which photo? roomcraft run ${operation} PHOTO`);
  if (extra.length > 0) return fail(`unexpected argument "${extra[0]}"; fields are written --name value`);

  const fields: RunArguments['fields'] = {};
  for (const { field, flag, value, negated } of raw) {
    const coerced = coerce(field, value, negated);
    if (typeof coerced === 'object') return fail(`${flag}: ${coerced.problem}`);
    fields[field.name] = coerced;
  }
  const missing = fieldsOf(operation).filter((f) => f.required && !(f.name in fields));
  if (missing.length > 0) return fail(`${operation} needs ${missing.map(describeField).join(' and ')}`);
  return {
    kind: 'run',
    args: {
      operation,
      photo,
      fields,
      json: options.json,
      ...(options.server ? { server: options.server } : {}),
      ...(options.key ? { key: options.key } : {}),
      ...(options.out ? { out: options.out } : {}),
    },
  };
}

/** The value as the schema types it: numbers as numbers, booleans as booleans, and only the listed values. */
function coerce(field: Field, value: string | true, negated: boolean): string | number | boolean | { problem: string } {
  let coerced: string | number | boolean;
  if (field.type === 'boolean') {
    if (value === true) coerced = !negated;
    else if (value === 'true' || value === 'false') coerced = value === 'true';
    else return { problem: `is true or false, not "${value}"` };
  } else if (value === true) {
    return { problem: 'needs a value' };
  } else if (field.type === 'number') {
    coerced = Number(value);
    if (value.trim() === '' || !Number.isFinite(coerced)) return { problem: `is a number, not "${value}"` };
  } else {
    coerced = value;
  }
  if (field.values && !field.values.includes(coerced)) return { problem: `is one of ${field.values.join(', ')}, not ${value}` };
  return coerced;
}

/** The fields of every operation, for the usage text. */
export function operationsUsage(): string {
  const width = Math.max(...OPERATION_NAMES.map((name) => name.length));
  return OPERATION_NAMES.map((name) => `    ${name.padEnd(width)}  ${listFields(name)}`).join('\n');
}
