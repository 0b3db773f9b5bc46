import type { OperationName, Requests } from './requests.js';

/** The JSON type of a request field. */
export type FieldType = 'string' | 'number' | 'boolean';

type TypeOf<V> = [V] extends [boolean] ? 'boolean' : [V] extends [number] ? 'number' : [V] extends [string] ? 'string' : never;
type IsRequired<R, F extends keyof R> = object extends Pick<R, F> ? false : true;

/** What a field is at run time; the compiler checks `type`, `required` and `values` against the request interface. */
export interface FieldSpec<V = unknown, Required extends boolean = boolean> {
  readonly type: TypeOf<V>;
  readonly required: Required;
  /** The only values accepted, when the field is an enumeration. */
  readonly values?: readonly V[];
}

/** One entry per field of the request interface R, no more, no fewer. */
export type FieldTable<R> = { readonly [F in keyof R]-?: FieldSpec<NonNullable<R[F]>, IsRequired<R, F>> };

export interface OperationSpec<K extends OperationName = OperationName> {
  /** The RoomcraftClient method that posts to /v1/<name>. */
  readonly method: string;
  readonly fields: FieldTable<Requests[K]>;
}

const url = { type: 'string', required: true } as const;
const optionalUrl = { type: 'string', required: false } as const;
const webhook = optionalUrl;
const id = { type: 'string', required: true } as const;

/**
 * Every processing operation: its client method and its request fields, as data. The CLI parses and coerces
 * `--field value` with it; test/client.test.ts checks it against /v1/openapi.json field by field.
 */
export const OPERATIONS: { readonly [K in OperationName]: OperationSpec<K> } = {
  'creative-redesign': {
    method: 'creativeRedesign',
    fields: { url, styleId: id, roomId: id, seed: { type: 'number', required: false }, webhook },
  },
  furnish: {
    method: 'furnish',
    fields: {
      url,
      mask: optionalUrl,
      styleId: id,
      roomId: { type: 'string', required: false },
      furnitureId: { type: 'string', required: false },
      preserveWindows: { type: 'boolean', required: false },
      seed: { type: 'number', required: false },
      webhook,
    },
  },
  'smart-staging-v2': {
    method: 'smartStagingV2',
    fields: {
      url,
      roomId: {
        type: 'string',
        required: true,
        values: ['living_room', 'living_dining', 'kitchen_living', 'bedroom', 'dining_room', 'home_office', 'outdoor_terrace', 'kitchen'],
      },
      styleId: id,
      seed: { type: 'number', required: false },
      webhook,
    },
  },
  'smart-staging': {
    method: 'smartStaging',
    fields: {
      url,
      roomId: { type: 'string', required: true, values: ['living_room', 'bedroom', 'dining_room', 'home_office', 'gaming_room'] },
      styleId: id,
      seed: { type: 'number', required: false },
      webhook,
    },
  },
  declutter: {
    method: 'declutter',
    fields: { url, mask: optionalUrl, webhook },
  },
  upscale: {
    method: 'upscale',
    fields: { url, scale: { type: 'number', required: false, values: [2, 3] }, webhook },
  },
  upscale_advanced: {
    method: 'upscaleAdvanced',
    fields: { url, scale: { type: 'number', required: false, values: [2, 4, 6] }, webhook },
  },
  enhancer: {
    method: 'enhancer',
    fields: {
      url,
      sky_fix: { type: 'boolean', required: false },
      skyId: { type: 'string', required: false },
      auto_privacy: { type: 'boolean', required: false },
      retouch: { type: 'string', required: false, values: ['classical', 'learned'] },
      webhook,
    },
  },
  sunshine: {
    method: 'sunshine',
    fields: { url, skyId: { type: 'string', required: false }, webhook },
  },
  redesign: {
    method: 'redesign',
    fields: {
      url,
      mask: optionalUrl,
      styleId: id,
      roomId: id,
      creativity: { type: 'number', required: false },
      preserveWindows: { type: 'boolean', required: false },
      preserveWalls: { type: 'boolean', required: false },
      preserveCeiling: { type: 'boolean', required: false },
      preserveFloor: { type: 'boolean', required: false },
      seed: { type: 'number', required: false },
      webhook,
    },
  },
  refresh: {
    method: 'refresh',
    fields: {
      url,
      transformation: { type: 'string', required: true, values: ['walls', 'floor'] },
      value: { type: 'string', required: true },
      webhook,
    },
  },
};

export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];

export function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(OPERATIONS, name);
}
