import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import styles from './styles.json' with { type: 'json' };
import rooms from './rooms.json' with { type: 'json' };
import furnitures from './furnitures.json' with { type: 'json' };
import skies from './skies.json' with { type: 'json' };
import { FLOOR_MATERIAL_IDS } from './floor-materials.js';

/**
 * The lists behind GET /v1/styles, /v1/rooms, /v1/furnitures and /v1/skies. The JSON files carry more than the
 * spec's shapes (palettes, sizes, sky parameters) because the image operations draw on them; the `public*`
 * projections below are what clients see. Portuguese labels are Brazilian Portuguese throughout.
 */

export interface Style {
  id: string;
  name: string;
  description: string;
  palette: string[];
  materials: string[];
  /** The floor material a redesign in the style lays (an id of vision/restyle/floor-materials.ts). */
  floor: string;
}

export interface Room {
  id: string;
  name: string;
  'name-en': string;
  type: string;
}

export interface Furniture {
  id: string;
  name: string;
  name_en: string;
  name_es: string;
  name_pt: string;
  name_de: string;
  type: string;
  footprint_m: [number, number];
  height_m: number;
}

export interface Sky {
  id: string;
  name: string;
  zenith: string;
  horizon: string;
  cloudCover: number;
  cloudSoftness: number;
  sunElevationDeg: number;
}

export interface CatalogData {
  styles: Style[];
  rooms: Room[];
  furnitures: Record<string, Furniture[]>;
  skies: Sky[];
}

export interface Catalog {
  styles: readonly Style[];
  rooms: readonly Room[];
  furnitures: Readonly<Record<string, readonly Furniture[]>>;
  skies: readonly Sky[];
  style(id: string): Style | undefined;
  room(id: string): Room | undefined;
  furniture(id: string): Furniture | undefined;
  sky(id: string): Sky | undefined;
  /** What declutter uses when it replaces a grey sky: the first sky of the list. */
  defaultSky: Sky;
}

/**
 * Values of the room field `type`. The spec leaves them open, so this is our own small set: living, sleeping,
 * dining, cooking, working, bathing, leisure, circulation (entrance, hallway), utility (laundry, closet), outdoor.
 */
export const ROOM_TYPES: readonly string[] = [
  'living',
  'sleeping',
  'dining',
  'cooking',
  'working',
  'bathing',
  'leisure',
  'circulation',
  'utility',
  'outdoor',
];

/**
 * Room ids accepted by smart staging v2. The spec's field description omits `kitchen` while the operation's
 * introduction lists it; we accept the union so that no documented id is refused.
 */
export const SMART_STAGING_V2_ROOMS: readonly string[] = [
  'living_room',
  'living_dining',
  'kitchen_living',
  'bedroom',
  'dining_room',
  'home_office',
  'outdoor_terrace',
  'kitchen',
];

/** Room ids accepted by the legacy smart staging, as the spec lists them. */
export const SMART_STAGING_V1_ROOMS: readonly string[] = [
  'living_room',
  'bedroom',
  'dining_room',
  'home_office',
  'gaming_room',
];

const Id = Type.String({ pattern: '^[a-z][a-z0-9_]*$' });
const Label = Type.String({ minLength: 1 });
const Hex = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$' });
const Fraction = Type.Number({ minimum: 0, maximum: 1 });
const Metres = Type.Number({ exclusiveMinimum: 0, maximum: 10 });
// additionalProperties: false so that a misspelt field name in a JSON file fails instead of going unnoticed.
const strict = { additionalProperties: false } as const;

const CatalogDataSchema = Type.Object({
  styles: Type.Array(
    Type.Object(
      {
        id: Id,
        name: Label,
        description: Label,
        palette: Type.Array(Hex, { minItems: 3, maxItems: 5 }),
        materials: Type.Array(Label, { minItems: 1 }),
        floor: Label,
      },
      strict,
    ),
    { minItems: 1 },
  ),
  rooms: Type.Array(Type.Object({ id: Id, name: Label, 'name-en': Label, type: Label }, strict), { minItems: 1 }),
  furnitures: Type.Record(
    Type.String(),
    Type.Array(
      Type.Object(
        {
          id: Id,
          name: Label,
          name_en: Label,
          name_es: Label,
          name_pt: Label,
          name_de: Label,
          type: Label,
          footprint_m: Type.Tuple([Metres, Metres]),
          height_m: Metres,
        },
        strict,
      ),
      { minItems: 1 },
    ),
  ),
  skies: Type.Array(
    Type.Object(
      {
        id: Id,
        name: Label,
        zenith: Hex,
        horizon: Hex,
        cloudCover: Fraction,
        cloudSoftness: Fraction,
        // These skies replace grey ones in daylight photos, so the sun is above the horizon.
        sunElevationDeg: Type.Number({ minimum: 0, maximum: 90 }),
      },
      strict,
    ),
    { minItems: 1 },
  ),
});

const MAX_REPORTED_PROBLEMS = 20;

/** Checks the shape and the cross-references of catalog data; throws one error that lists every problem found. */
export function validateCatalogData(data: unknown): CatalogData {
  if (!Value.Check(CatalogDataSchema, data)) {
    const problems = [...Value.Errors(CatalogDataSchema, data)].map((e) => `${e.path || '/'}: ${e.message}`);
    throw catalogError(problems);
  }
  const problems: string[] = [];
  const checkUnique = (list: string, ids: string[]) => {
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id)) problems.push(`${list}: duplicate id '${id}'`);
      seen.add(id);
    }
  };
  checkUnique('styles', data.styles.map((s) => s.id));
  checkUnique('rooms', data.rooms.map((r) => r.id));
  checkUnique('skies', data.skies.map((s) => s.id));
  // Furniture ids are unique across groups because furnish takes a bare furnitureId.
  checkUnique('furnitures', Object.values(data.furnitures).flatMap((items) => items.map((f) => f.id)));

  for (const style of data.styles) {
    if (!FLOOR_MATERIAL_IDS.includes(style.floor)) {
      problems.push(`styles/${style.id}: floor '${style.floor}' is not one of ${FLOOR_MATERIAL_IDS.join(', ')}`);
    }
  }
  for (const room of data.rooms) {
    if (!ROOM_TYPES.includes(room.type)) {
      problems.push(`rooms/${room.id}: type '${room.type}' is not one of ${ROOM_TYPES.join(', ')}`);
    }
  }
  for (const [group, items] of Object.entries(data.furnitures)) {
    for (const item of items) {
      if (item.type !== group) {
        problems.push(`furnitures/${group}/${item.id}: type '${item.type}' differs from its group`);
      }
    }
  }
  const roomIds = new Set(data.rooms.map((r) => r.id));
  for (const id of new Set([...SMART_STAGING_V2_ROOMS, ...SMART_STAGING_V1_ROOMS])) {
    if (!roomIds.has(id)) problems.push(`rooms: smart-staging room '${id}' is missing`);
  }
  if (problems.length > 0) throw catalogError(problems);
  return data;
}

function catalogError(problems: string[]): Error {
  const shown = problems.slice(0, MAX_REPORTED_PROBLEMS);
  const more = problems.length > shown.length ? `\n  (${problems.length - shown.length} more)` : '';
  return new Error(`Invalid catalog data:\n  ${shown.join('\n  ')}${more}`);
}

let loaded: Catalog | undefined;

/** The catalog shipped in src/catalog, validated on first use. */
export function loadCatalog(): Catalog {
  loaded ??= buildCatalog(validateCatalogData({ styles, rooms, furnitures, skies }));
  return loaded;
}

function buildCatalog(data: CatalogData): Catalog {
  const byId = <T extends { id: string }>(items: readonly T[]) => new Map(items.map((item) => [item.id, item]));
  const styleById = byId(data.styles);
  const roomById = byId(data.rooms);
  const furnitureById = byId(Object.values(data.furnitures).flat());
  const skyById = byId(data.skies);
  return {
    ...data,
    style: (id) => styleById.get(id),
    room: (id) => roomById.get(id),
    furniture: (id) => furnitureById.get(id),
    sky: (id) => skyById.get(id),
    defaultSky: data.skies[0]!, // the schema requires at least one sky
  };
}

export type PublicStyle = Pick<Style, 'id' | 'name'>;
export type PublicRoom = Pick<Room, 'id' | 'name' | 'name-en' | 'type'>;
export type PublicFurniture = Pick<Furniture, 'id' | 'name' | 'name_en' | 'name_es' | 'name_pt' | 'name_de' | 'type'>;
export type PublicSky = Pick<Sky, 'id' | 'name'>;

// The projections copy the spec's fields one by one so that the working data (palettes, sizes, sky parameters)
// never leaks into responses.

export function publicStyles(catalog: Catalog): PublicStyle[] {
  return catalog.styles.map(({ id, name }) => ({ id, name }));
}

export function publicRooms(catalog: Catalog): PublicRoom[] {
  return catalog.rooms.map((room) => ({ id: room.id, name: room.name, 'name-en': room['name-en'], type: room.type }));
}

export function publicFurnitures(catalog: Catalog): Record<string, PublicFurniture[]> {
  return Object.fromEntries(
    Object.entries(catalog.furnitures).map(([group, items]) => [
      group,
      items.map(({ id, name, name_en, name_es, name_pt, name_de, type }) => ({
        id,
        name,
        name_en,
        name_es,
        name_pt,
        name_de,
        type,
      })),
    ]),
  );
}

export function publicSkies(catalog: Catalog): PublicSky[] {
  return catalog.skies.map(({ id, name }) => ({ id, name }));
}
