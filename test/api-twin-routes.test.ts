import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { loadCatalog } from '../src/catalog/catalog.js';
import { OPERATIONS } from '../src/services/operations/registry.js';
import { DEFAULT_CREATIVITY } from '../src/services/operations/redesign.js';
import { TWIN_FLOOR_MATERIALS, TWIN_WALL_COLOURS } from '../src/services/operations/refresh.js';

/**
 * POST /v1/redesign and POST /v1/refresh, the public twin's neighbours of creative-redesign (issue 18): routes of
 * their own that validate like any operation and take their jobs (test/redesign.test.ts and test/refresh.test.ts run
 * them).
 */
describe('the public twin’s redesign and refresh', () => {
  let t: TestApp;
  before(async () => {
    // No worker role: nothing here may ever reach one.
    t = await startTestApp({ roles: ['api'] });
  });
  after(() => t.close());

  const url = 'https://example.com/room.jpg';
  const post = (path: string, payload: object, headers: Record<string, string> = t.auth) =>
    t.app.inject({ method: 'POST', url: path, headers, payload });
  const balance = async () => {
    const account = await t.app.inject({ method: 'GET', url: '/v1/account', headers: t.auth });
    assert.equal(account.statusCode, 200, account.body);
    return account.json().balance as number;
  };
  const jobCount = async () => (await t.database.db.selectFrom('jobs').select('id').execute()).length;

  const valid: [string, object][] = [
    ['/v1/redesign', { url, styleId: 'modern', roomId: 'living_room', creativity: 14 }],
    ['/v1/redesign', { url, styleId: 'japandi', roomId: 'bedroom' }],
    [
      '/v1/redesign',
      {
        url,
        mask: url,
        styleId: 'scandinavian',
        roomId: 'kitchen',
        creativity: 0,
        preserveWindows: true,
        preserveWalls: false,
        preserveCeiling: true,
        preserveFloor: true,
        webhook: 'https://example.com/hook',
      },
    ],
    ['/v1/redesign', { url, styleId: 'modern', roomId: 'bedroom', creativity: 30 }],
  ];
  const refreshes: object[] = [
    { url, transformation: 'walls', value: '#a1B2c3' },
    { url, transformation: 'walls', value: 'egg shell' },
    { url, transformation: 'walls', value: 'terracotta', webhook: 'https://example.com/hook' },
  ];
  /** Refresh is built: with Prefer: respond-async it answers with the pending job at once (no worker runs here). */
  const postRefresh = (body: object) => post('/v1/refresh', body, { ...t.auth, prefer: 'respond-async' });

  const floors: object[] = [
    { url, transformation: 'floor', value: 'parquet' },
    { url, transformation: 'floor', value: 'tile', webhook: 'https://example.com/hook' },
  ];

  it('accepts a valid redesign: a pending job in the twin’s acknowledgement, creativity echoed or the default, charged one credit', async () => {
    for (const [path, body] of valid) {
      const what = `${path} ${JSON.stringify(body)}`;
      const response = await post(path, body, { ...t.auth, prefer: 'respond-async' });
      assert.equal(response.statusCode, 200, `${what}: ${response.body}`);
      const ack = response.json();
      assert.deepEqual(Object.keys(ack), ['status', 'id', 'styleId', 'roomId', 'creativity', 'mode'], what);
      assert.equal(ack.status, 'pending', what);
      assert.equal(ack.mode, 'redesign', what);
      assert.equal(ack.creativity, (body as { creativity?: number }).creativity ?? DEFAULT_CREATIVITY, what);
      assert.equal(response.headers['x-credits-charged'], '1', what);
    }
  });

  it('accepts a valid floor refresh: a pending job in the twin’s acknowledgement, charged one credit', async () => {
    const before = await balance();
    for (const body of floors) {
      const what = JSON.stringify(body);
      const response = await postRefresh(body);
      assert.equal(response.statusCode, 200, `${what}: ${response.body}`);
      const ack = response.json();
      assert.deepEqual(Object.keys(ack), ['status', 'id', 'transformation', 'value', 'mode'], what);
      assert.equal(ack.status, 'pending', what);
      assert.equal(ack.transformation, 'floor', what);
      assert.equal(response.headers['x-credits-charged'], '1', what);
    }
    assert.equal(await balance(), before - floors.length);
  });

  it('refuses an invalid body with 400 validation_failed naming the field, before any job', async () => {
    const cases: [string, object, string][] = [
      ['/v1/redesign', { url, styleId: 'modern', roomId: 'bedroom', creativity: 31 }, '/creativity'],
      ['/v1/redesign', { url, styleId: 'modern', roomId: 'bedroom', creativity: -1 }, '/creativity'],
      ['/v1/redesign', { url, styleId: 'modern', roomId: 'bedroom', creativity: '14' }, '/creativity'],
      ['/v1/redesign', { url, roomId: 'bedroom', creativity: 10 }, '/styleId'],
      ['/v1/redesign', { url, styleId: 'modern', creativity: 10 }, '/roomId'],
      ['/v1/redesign', { url, styleId: 'no_such_style', roomId: 'bedroom' }, '/styleId'],
      ['/v1/redesign', { url, styleId: 'modern', roomId: 'no_such_room' }, '/roomId'],
      ['/v1/redesign', { url, styleId: 'modern', roomId: 'bedroom', preserveWalls: 'yes' }, '/preserveWalls'],
      ['/v1/redesign', { url, styleId: 'modern', roomId: 'bedroom', mask: 'ftp://example.com/m.png' }, '/mask'],
      ['/v1/redesign', { styleId: 'modern', roomId: 'bedroom' }, '/url'],
      ['/v1/refresh', { url, transformation: 'ceiling', value: 'white' }, '/transformation'],
      ['/v1/refresh', { url, value: 'white' }, '/transformation'],
      ['/v1/refresh', { url, transformation: 'walls' }, '/value'],
      ['/v1/refresh', { url, transformation: 'walls', value: 'red' }, '/value'],
      ['/v1/refresh', { url, transformation: 'walls', value: '#12345' }, '/value'],
      ['/v1/refresh', { url, transformation: 'walls', value: 'parquet' }, '/value'],
      ['/v1/refresh', { url, transformation: 'floor', value: 'Oak Floor' }, '/value'],
      ['/v1/refresh', { url, transformation: 'floor', value: 'oak_herringbone-2' }, '/value'],
      ['/v1/refresh', { url, transformation: 'floor', value: '#ffffff' }, '/value'],
      ['/v1/refresh', { url, transformation: 'floor', value: '' }, '/value'],
      ['/v1/refresh', { url, transformation: 'floor', value: 'x'.repeat(41) }, '/value'],
      ['/v1/refresh', { url, transformation: 'walls', value: 7 }, '/value'],
    ];
    const jobsBefore = await jobCount();
    for (const [path, body, field] of cases) {
      const response = await post(path, body);
      const what = `${path} ${JSON.stringify(body)}`;
      assert.equal(response.statusCode, 400, `${what}: ${response.body}`);
      assert.match(response.headers['content-type'] as string, /^application\/problem\+json/, what);
      const problem = response.json();
      assert.equal(problem.code, 'validation_failed', what);
      assert.ok(
        problem.errors.some((e: { field: string }) => e.field === field),
        `${what} names ${field}: ${JSON.stringify(problem.errors)}`,
      );
    }
    assert.equal(await jobCount(), jobsBefore);
    const red = (await post('/v1/refresh', { url, transformation: 'walls', value: 'red' })).json();
    assert.match(red.errors[0].message, /a #rrggbb hex colour or one of "white", "egg shell"/);
    assert.match(red.errors[0].message, /\(got "red"\)$/);
    const hot = (await post('/v1/redesign', { url, styleId: 'modern', roomId: 'bedroom', creativity: 31 })).json();
    assert.match(hot.errors[0].message, /^creativity /);
    assert.match(hot.errors[0].message, /30/);
  });

  it('answers 401 without a key or with a wrong one, before validating', async () => {
    for (const path of ['/v1/redesign', '/v1/refresh']) {
      for (const headers of [{}, { authorization: 'Bearer rc_live_wrong' }] as Record<string, string>[]) {
        const response = await post(path, { transformation: 'ceiling' }, headers);
        assert.equal(response.statusCode, 401, `${path} ${JSON.stringify(headers)}`);
        assert.match(response.headers['content-type'] as string, /^application\/problem\+json/);
      }
    }
  });

  it('accepts a valid refresh: a pending job in the twin’s acknowledgement, charged one credit', async () => {
    for (const body of refreshes) {
      const response = await postRefresh(body);
      assert.equal(response.statusCode, 200, `${JSON.stringify(body)}: ${response.body}`);
      const ack = response.json();
      assert.equal(ack.status, 'pending');
      assert.equal(ack.mode, 'refresh');
      assert.equal(ack.transformation, (body as { transformation: string }).transformation);
      assert.equal(ack.value, (body as { value: string }).value);
      assert.equal(response.headers['x-credits-charged'], '1');
    }
  });

  it('documents both in the OpenAPI document with the twin’s fields', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const fields = (path: string) => {
      const schema = document.paths[path].post.requestBody.content['application/json'].schema;
      return { names: Object.keys(schema.properties).sort(), required: [...schema.required].sort(), properties: schema.properties };
    };
    const redesignPost = document.paths['/v1/redesign'].post;
    assert.deepEqual(redesignPost.tags, ['operations']);
    assert.doesNotMatch(redesignPost.summary, /^Not available yet/);
    const refreshPost = document.paths['/v1/refresh']?.post;
    assert.ok(refreshPost, '/v1/refresh is documented');
    assert.notDeepEqual(refreshPost.tags, ['not yet available']);
    assert.doesNotMatch(refreshPost.summary, /^Not available yet/);
    const redesign = fields('/v1/redesign');
    assert.deepEqual(redesign.names, [
      'creativity',
      'mask',
      'preserveCeiling',
      'preserveFloor',
      'preserveWalls',
      'preserveWindows',
      'roomId',
      'seed',
      'styleId',
      'url',
      'webhook',
    ]);
    assert.deepEqual(redesign.required, ['roomId', 'styleId', 'url']);
    assert.equal(redesign.properties.creativity.minimum, 0);
    assert.equal(redesign.properties.creativity.maximum, 30);
    const refresh = fields('/v1/refresh');
    assert.deepEqual(refresh.names, ['transformation', 'url', 'value', 'webhook']);
    assert.deepEqual(refresh.required, ['transformation', 'url', 'value']);
    type Property = { const?: unknown; enum?: unknown[] } | undefined;
    const constant = (property: Property) => property?.const ?? property?.enum?.[0];
    const ack = (path: string) =>
      document.paths[path].post.responses['200'].content['application/json'].schema.anyOf.find(
        (s: { properties?: Record<string, Property> }) => constant(s.properties?.status) === 'pending',
      );
    assert.deepEqual(Object.keys(ack('/v1/redesign').properties), ['status', 'id', 'styleId', 'roomId', 'creativity', 'mode']);
    assert.equal(constant(ack('/v1/redesign').properties.mode), 'redesign');
    assert.deepEqual(Object.keys(ack('/v1/refresh').properties), ['status', 'id', 'transformation', 'value', 'mode']);
    assert.equal(constant(ack('/v1/refresh').properties.mode), 'refresh');
  });

  it('lists both on the status page as available, heavy, 1 credit, after creative-redesign', async () => {
    const names = OPERATIONS.map((o) => o.name);
    assert.deepEqual(names.slice(names.indexOf('creative-redesign'), names.indexOf('creative-redesign') + 3), ['creative-redesign', 'redesign', 'refresh']);
    const status = (await t.app.inject({ method: 'GET', url: '/status.json' })).json();
    for (const [name, available] of [['redesign', true], ['refresh', true]] as const) {
      const entry = status.operations.find((op: { name: string }) => op.name === name);
      assert.deepEqual(entry, { name, path: `/v1/${name}`, mode: name, available });
      assert.equal(OPERATIONS.find((o) => o.name === name)!.run !== undefined, available);
    }
    const redesign = OPERATIONS.find((o) => o.name === 'redesign')!;
    const refresh = OPERATIONS.find((o) => o.name === 'refresh')!;
    const redesignParams = { styleId: 'modern', roomId: 'bedroom' };
    assert.equal(redesign.credits(redesignParams, true), 1);
    assert.equal(redesign.queue(redesignParams), 'heavy');
    assert.equal(refresh.credits({ transformation: 'floor', value: 'tile' }, false), 1);
    assert.equal(refresh.queue({ transformation: 'floor', value: 'tile' }), 'heavy');
  });

  it('builds the acknowledgements: creativity echoed, or the default; refresh echoes transformation and value', () => {
    const catalog = loadCatalog();
    const redesign = OPERATIONS.find((o) => o.name === 'redesign')!;
    const refresh = OPERATIONS.find((o) => o.name === 'refresh')!;
    assert.deepEqual(redesign.acknowledgement({ styleId: 'modern', roomId: 'bedroom', creativity: 14 }, catalog), {
      styleId: 'modern',
      roomId: 'bedroom',
      creativity: 14,
    });
    assert.deepEqual(redesign.acknowledgement({ styleId: 'modern', roomId: 'bedroom' }, catalog), {
      styleId: 'modern',
      roomId: 'bedroom',
      creativity: DEFAULT_CREATIVITY,
    });
    assert.deepEqual(refresh.acknowledgement({ transformation: 'walls', value: '#ffeedd' }, catalog), { transformation: 'walls', value: '#ffeedd' });
  });

  it('accepts every wall colour and every floor type the twin names', async () => {
    for (const value of TWIN_WALL_COLOURS) {
      assert.equal((await postRefresh({ url, transformation: 'walls', value })).statusCode, 200, value);
    }
    for (const value of TWIN_FLOOR_MATERIALS) {
      assert.equal((await postRefresh({ url, transformation: 'floor', value })).statusCode, 200, value);
    }
  });
});
