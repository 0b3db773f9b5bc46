import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers/test-app.js';

describe('lookup lists', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  async function get(url: string) {
    const response = await t.app.inject({ method: 'GET', url, headers: t.auth });
    assert.equal(response.statusCode, 200);
    return response.json();
  }

  it('lists styles as {id, name}', async () => {
    const styles = await get('/v1/styles');
    assert.ok(styles.length >= 12);
    for (const style of styles) assert.deepEqual(Object.keys(style).sort(), ['id', 'name']);
  });

  it('lists rooms with the hyphenated name-en and a type', async () => {
    const rooms = await get('/v1/rooms');
    assert.ok(rooms.length >= 15);
    for (const room of rooms) assert.deepEqual(Object.keys(room).sort(), ['id', 'name', 'name-en', 'type']);
  });

  it('groups furnitures by category name, each item typed by its group', async () => {
    const groups = await get('/v1/furnitures');
    assert.ok(!Array.isArray(groups));
    assert.ok(Object.keys(groups).length >= 2);
    let count = 0;
    for (const [group, items] of Object.entries(groups) as [string, Record<string, string>[]][]) {
      for (const item of items) {
        count++;
        assert.equal(item.type, group);
        assert.deepEqual(Object.keys(item).sort(), ['id', 'name', 'name_de', 'name_en', 'name_es', 'name_pt', 'type']);
      }
    }
    assert.ok(count >= 40);
  });

  it('lists skies as {id, name}', async () => {
    const skies = await get('/v1/skies');
    assert.ok(skies.length >= 6);
    for (const sky of skies) assert.deepEqual(Object.keys(sky).sort(), ['id', 'name']);
  });
});
