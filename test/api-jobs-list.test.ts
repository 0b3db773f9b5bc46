import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JobRepository, type JobRow } from '../src/repositories/job-repository.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { jobRow } from './helpers/job-rows.js';

describe('GET /v1/jobs (extension): the caller’s jobs, newest first, cursor paging', () => {
  let t: TestApp;
  let repository: JobRepository;
  /** The owner's jobs, in the order the listing must give them. */
  let mine: JobRow[];
  let otherUser: { authorization: string };
  let othersJobIds: string[];

  before(async () => {
    // No worker role: the jobs written here stay as they are.
    t = await startTestApp({ roles: ['api'] });
    repository = new JobRepository(t.database.db);
    const base = Date.parse('2025-03-01T10:00:00.000Z');
    const at = (seconds: number) => new Date(base + seconds * 1000).toISOString();
    const rows: JobRow[] = [];
    for (let i = 0; i < 23; i++) {
      const failed = i % 3 === 0;
      const succeeded = i % 3 === 1;
      rows.push(
        jobRow({
          user_id: t.user.userId,
          // Five jobs share one creation time, so the order's tie-break (the id) is exercised across page edges.
          created_at: i >= 10 && i < 15 ? at(10) : at(i),
          operation: i % 2 === 0 ? 'upscale' : 'enhancer',
          mode: i % 2 === 0 ? 'upscale' : 'enhance',
          status: failed ? 'failed' : succeeded ? 'success' : 'pending',
          ...(failed ? { error_code: 'invalid_image', error_status: 400, error_message: 'corrupt', completed_at: at(i + 1) } : {}),
          ...(succeeded
            ? { output_key: `${String(i).padStart(32, '0')}.jpg`, output_content_type: 'image/jpeg', progress: 1, completed_at: at(i + 1) }
            : {}),
        }),
      );
    }
    for (const row of rows) assert.ok(await repository.create(row));
    mine = [...rows].sort((a, b) => (a.created_at === b.created_at ? compare(b.id, a.id) : compare(b.created_at, a.created_at)));
    const other = await t.createUser('other@example.com');
    otherUser = { authorization: `Bearer ${other.key}` };
    const theirs = [jobRow({ user_id: other.userId, created_at: at(5) }), jobRow({ user_id: other.userId, created_at: at(30) })];
    for (const row of theirs) assert.ok(await repository.create(row));
    othersJobIds = theirs.map((row) => row.id);
  });
  after(() => t.close());

  const list = (query: string, headers = t.auth) => t.app.inject({ method: 'GET', url: `/v1/jobs${query}`, headers });

  /** Follows `next` from the first page of `query` to the last, returning every page. */
  async function allPages(query: Record<string, string>, headers = t.auth): Promise<{ jobs: { id: string }[]; next?: string }[]> {
    const pages = [];
    let cursor: string | undefined;
    do {
      const params = new URLSearchParams({ ...query, ...(cursor ? { cursor } : {}) });
      const response = await list(`?${params}`, headers);
      assert.equal(response.statusCode, 200, response.body);
      const page = response.json() as { jobs: { id: string }[]; next?: string };
      pages.push(page);
      cursor = page.next;
    } while (cursor);
    return pages;
  }

  it('pages through every job exactly once, in order, with no next on the last page', async () => {
    const pages = await allPages({ limit: '7' });
    assert.deepEqual(
      pages.map((p) => p.jobs.length),
      [7, 7, 7, 2],
    );
    assert.deepEqual(
      pages.flatMap((p) => p.jobs.map((j) => j.id)),
      mine.map((j) => j.id),
    );
    assert.equal(pages.at(-1)!.next, undefined);
  });

  it('ends without an empty page when the jobs fill the last page exactly', async () => {
    const pages = await allPages({ limit: '23' });
    assert.equal(pages.length, 1);
    assert.equal(pages[0]!.jobs.length, 23);
  });

  it('gives 20 jobs by default, each exactly as GET /v1/job/{id} shows it', async () => {
    const response = await list('');
    assert.equal(response.statusCode, 200);
    const page = response.json() as { jobs: Record<string, unknown>[]; next?: string };
    assert.equal(page.jobs.length, 20);
    assert.ok(page.next);
    for (const job of page.jobs) {
      const single = await t.app.inject({ method: 'GET', url: `/v1/job/${String(job.id)}`, headers: t.auth });
      assert.deepEqual(job, single.json());
    }
    const failed = page.jobs.find((j) => j.status === 'failed')!;
    assert.deepEqual(failed.error, { code: 'invalid_image', message: 'corrupt' });
    const succeeded = page.jobs.find((j) => j.status === 'success')!;
    assert.match(String(succeeded.output), /^http:\/\/roomcraft\.test\/v1\/outputs\/[0-9]{32}\.jpg$/);
  });

  it('filters by status and by operation, alone and together, across pages', async () => {
    const cases: { query: Record<string, string>; keep: (j: JobRow) => boolean }[] = [
      { query: { status: 'failed' }, keep: (j) => j.status === 'failed' },
      { query: { operation: 'enhancer' }, keep: (j) => j.operation === 'enhancer' },
      { query: { status: 'pending', operation: 'upscale' }, keep: (j) => j.status === 'pending' && j.operation === 'upscale' },
    ];
    for (const { query, keep } of cases) {
      const expected = mine.filter(keep).map((j) => j.id);
      assert.ok(expected.length >= 3, `the fixture has several jobs for ${JSON.stringify(query)}`);
      const pages = await allPages({ ...query, limit: '2' });
      assert.deepEqual(
        pages.flatMap((p) => p.jobs.map((j) => j.id)),
        expected,
        JSON.stringify(query),
      );
    }
  });

  it('shows each user only their own jobs', async () => {
    const pages = await allPages({}, otherUser);
    assert.deepEqual(
      pages.flatMap((p) => p.jobs.map((j) => j.id)),
      [...othersJobIds].reverse(),
    );
    const ownerIds = new Set((await allPages({ limit: '100' })).flatMap((p) => p.jobs.map((j) => j.id)));
    for (const id of othersJobIds) assert.ok(!ownerIds.has(id));
  });

  it('keeps a walk through the pages whole while new jobs arrive: they go to the front, nothing repeats or goes missing', async () => {
    const first = (await list('?limit=5')).json() as { jobs: { id: string }[]; next: string };
    const newcomer = jobRow({ user_id: t.user.userId });
    assert.ok(await repository.create(newcomer));
    try {
      const rest = await allPages({ limit: '5', cursor: first.next });
      const seen = [...first.jobs, ...rest.flatMap((p) => p.jobs)].map((j) => j.id);
      assert.deepEqual(
        seen,
        mine.map((j) => j.id),
      );
      assert.equal(((await list('?limit=1')).json() as { jobs: { id: string }[] }).jobs[0]!.id, newcomer.id);
    } finally {
      await t.database.db.deleteFrom('jobs').where('id', '=', newcomer.id).execute();
    }
  });

  it('refuses a bad page size, state, operation or cursor with a 400 naming the parameter', async () => {
    const cases: [string, string][] = [
      ['?limit=0', '/limit'],
      ['?limit=101', '/limit'],
      ['?limit=ten', '/limit'],
      ['?status=running', '/status'],
      ['?operation=teleport', '/operation'],
      ['?cursor=not-a-cursor', '/cursor'],
      [`?cursor=${Buffer.from('{"a":1}').toString('base64url')}`, '/cursor'],
    ];
    for (const [query, field] of cases) {
      const response = await list(query);
      assert.equal(response.statusCode, 400, query);
      const problem = response.json();
      assert.equal(problem.code, 'validation_failed', query);
      assert.deepEqual(
        problem.errors.map((e: { field: string }) => e.field),
        [field],
        query,
      );
    }
  });

  it('answers 401 without a key', async () => {
    const response = await list('', {} as { authorization: string });
    assert.equal(response.statusCode, 401);
  });

  it('is in the OpenAPI document, each item a Job', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const get = document.paths['/v1/jobs'].get;
    assert.ok(get.parameters.some((p: { in: string; name: string }) => p.in === 'query' && p.name === 'cursor'));
    assert.equal(get.responses['200'].content['application/json'].schema.properties.jobs.items.$ref, '#/components/schemas/Job');
  });
});

/** Code-unit order, as both databases order these ASCII strings (ISO times, lowercase UUIDs). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
