import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  loadCatalog,
  publicFurnitures,
  publicRooms,
  publicSkies,
  publicStyles,
  SMART_STAGING_V1_ROOMS,
  SMART_STAGING_V2_ROOMS,
  validateCatalogData,
  type CatalogData,
  type Room,
} from '../src/catalog/catalog.js';

const catalog = loadCatalog();

/** A deep copy of the shipped data, for tests that break it. */
function copyOfData(): CatalogData {
  const { styles, rooms, furnitures, skies } = catalog;
  return structuredClone({ styles, rooms, furnitures, skies }) as CatalogData;
}

function assertUnique(ids: string[]) {
  assert.equal(new Set(ids).size, ids.length, `duplicate ids in ${ids.join(', ')}`);
}

test('the lists are large enough to be useful', () => {
  assert.ok(catalog.styles.length >= 12);
  assert.ok(catalog.rooms.length >= 15);
  assert.ok(Object.keys(catalog.furnitures).length >= 2);
  assert.ok(Object.values(catalog.furnitures).flat().length >= 40);
  assert.ok(catalog.skies.length >= 6);
});

test('every smart-staging room id is a room', () => {
  for (const id of [...SMART_STAGING_V2_ROOMS, ...SMART_STAGING_V1_ROOMS]) {
    assert.ok(catalog.room(id), `room ${id} is missing`);
  }
  assert.ok(SMART_STAGING_V2_ROOMS.includes('kitchen'));
  assert.ok(SMART_STAGING_V1_ROOMS.includes('gaming_room'));
});

test('ids are unique, furniture ids across all groups', () => {
  assertUnique(catalog.styles.map((s) => s.id));
  assertUnique(catalog.rooms.map((r) => r.id));
  assertUnique(catalog.skies.map((s) => s.id));
  assertUnique(Object.values(catalog.furnitures).flatMap((items) => items.map((f) => f.id)));
});

test('furniture type equals its group, and labels are translated', () => {
  for (const [group, items] of Object.entries(catalog.furnitures)) {
    for (const item of items) {
      assert.equal(item.type, group);
      const labels = [item.name, item.name_en, item.name_es, item.name_pt, item.name_de];
      for (const label of labels) assert.ok(label.trim().length > 0, `${item.id} has an empty label`);
      assert.ok(
        labels.some((label) => label !== item.name_en),
        `${item.id} has every label equal to the English one`,
      );
    }
  }
});

test('lookups find entries by id and the default sky is the first', () => {
  assert.equal(catalog.style('scandinavian')?.id, 'scandinavian');
  assert.equal(catalog.room('bedroom')?.['name-en'], 'Bedroom');
  assert.equal(catalog.furniture('bathtub')?.type, 'bathroom');
  assert.equal(catalog.sky('golden_hour')?.id, 'golden_hour');
  assert.equal(catalog.style('nope'), undefined);
  assert.equal(catalog.defaultSky, catalog.skies[0]);
  assert.equal(catalog.defaultSky.id, 'blue_light_clouds');
});

test('public projections carry exactly the spec fields', () => {
  const keys = (o: object) => Object.keys(o).sort();
  const styles = publicStyles(catalog);
  assert.equal(styles.length, catalog.styles.length);
  for (const s of styles) assert.deepEqual(keys(s), ['id', 'name']);

  const rooms = publicRooms(catalog);
  assert.equal(rooms.length, catalog.rooms.length);
  for (const r of rooms) assert.deepEqual(keys(r), ['id', 'name', 'name-en', 'type']);

  const skies = publicSkies(catalog);
  assert.equal(skies.length, catalog.skies.length);
  for (const s of skies) assert.deepEqual(keys(s), ['id', 'name']);

  const furnitures = publicFurnitures(catalog);
  assert.deepEqual(keys(furnitures), keys(catalog.furnitures));
  for (const [group, items] of Object.entries(furnitures)) {
    assert.equal(items.length, catalog.furnitures[group]?.length);
    for (const f of items) {
      assert.deepEqual(keys(f), ['id', 'name', 'name_de', 'name_en', 'name_es', 'name_pt', 'type']);
    }
  }
});

test('the shipped data passes validation', () => {
  assert.doesNotThrow(() => validateCatalogData(copyOfData()));
});

test('validation rejects broken data with a message naming the problem', () => {
  const broken: Array<[string, (d: CatalogData) => void, RegExp]> = [
    ['duplicate style id', (d) => d.styles.push({ ...d.styles[0]! }), /styles: duplicate id 'modern'/],
    [
      'duplicate furniture id across groups',
      (d) => d.furnitures['kitchen']!.push({ ...d.furnitures['interior']![0]!, type: 'kitchen' }),
      /furnitures: duplicate id 'sofa_3_seater'/,
    ],
    [
      'furniture type differs from group',
      (d) => (d.furnitures['bathroom']![0]!.type = 'interior'),
      /furnitures\/bathroom\/bathtub: type 'interior'/,
    ],
    ['missing required field', (d) => delete (d.rooms[0] as Partial<Room>)['name-en'], /\/rooms\/0/],
    ['empty label', (d) => (d.furnitures['interior']![0]!.name_de = ''), /\/furnitures\/interior\/0\/name_de/],
    ['bad palette colour', (d) => (d.styles[0]!.palette[0] = 'white'), /\/styles\/0\/palette\/0/],
    ['bad sky colour', (d) => (d.skies[0]!.zenith = '#12345'), /\/skies\/0\/zenith/],
    ['cloud cover out of range', (d) => (d.skies[0]!.cloudCover = 1.5), /\/skies\/0\/cloudCover/],
    ['unknown floor material', (d) => (d.styles[0]!.floor = 'lava'), /styles\/modern: floor 'lava' is not one of parquet, tile/],
    ['unknown room type', (d) => (d.rooms[0]!.type = 'castle'), /type 'castle' is not one of/],
    ['smart-staging room missing', (d) => (d.rooms = d.rooms.filter((r) => r.id !== 'gaming_room')), /'gaming_room'/],
    ['misspelt field', (d) => Object.assign(d.skies[0]!, { cloud_cover: 0.2 }), /\/skies\/0\/cloud_cover/],
    ['no skies', (d) => (d.skies = []), /\/skies/],
  ];
  for (const [what, breakIt, message] of broken) {
    const data = copyOfData();
    breakIt(data);
    assert.throws(() => validateCatalogData(data), message, what);
  }
  assert.throws(() => validateCatalogData(null), /Invalid catalog data/);
});
