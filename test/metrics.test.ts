import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JobRepository, type JobRow } from '../src/repositories/job-repository.js';
import { deliveryRow } from '../src/repositories/webhook-repository.js';
import type { DeliveryStatus } from '../src/repositories/database/schema.js';
import { Counter } from '../src/services/metrics/counter.js';
import { renderExposition } from '../src/services/metrics/exposition.js';
import { rateLimited } from '../src/services/metrics/process-counters.js';
import { JOB_DURATION_BOUNDS } from '../src/repositories/job-tallies.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { jobRow } from './helpers/job-rows.js';

interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

interface Parsed {
  types: Map<string, string>;
  help: Map<string, string>;
  samples: ParsedSample[];
}

/**
 * A strict reader of the text exposition format 0.0.4, enough to hold /metrics to it: HELP and TYPE before a family's
 * samples, metric and label names of the allowed characters, label values with their three escapes, Go floats.
 */
function parseExposition(text: string): Parsed {
  assert.ok(text.endsWith('\n'), 'the exposition ends with a line feed');
  const parsed: Parsed = { types: new Map(), help: new Map(), samples: [] };
  for (const line of text.slice(0, -1).split('\n')) {
    const comment = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (comment) {
      const [, kind, name, rest] = comment as unknown as [string, string, string, string];
      if (kind === 'TYPE') {
        assert.match(rest, /^(counter|gauge|histogram|summary|untyped)$/, line);
        assert.ok(!parsed.types.has(name), `one TYPE line for ${name}`);
        parsed.types.set(name, rest);
      } else parsed.help.set(name, rest);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(sample, `a sample line: ${line}`);
    const [, name, labelText = '', valueText] = sample as unknown as [string, string, string | undefined, string];
    const labels: Record<string, string> = {};
    const labelPattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/y;
    for (let match = labelPattern.exec(labelText); match; match = labelPattern.exec(labelText)) {
      labels[match[1]!] = match[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      if (labelPattern.lastIndex === labelText.length) break;
    }
    assert.equal(labelPattern.lastIndex, labelText.length, `labels read to the end: ${line}`);
    const value = valueText === '+Inf' ? Infinity : valueText === '-Inf' ? -Infinity : Number(valueText);
    assert.ok(valueText === 'NaN' || !Number.isNaN(value), `a number: ${line}`);
    const family = parsed.types.has(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
    assert.ok(parsed.types.has(family), `${name} comes after the TYPE line of its family`);
    if (family !== name) assert.equal(parsed.types.get(family), 'histogram', `${name} belongs to a histogram`);
    parsed.samples.push({ name, labels, value });
  }
  for (const [name, type] of parsed.types) {
    assert.ok(parsed.help.has(name), `${name} has HELP`);
    if (type === 'counter') assert.match(name, /_total$/, `counter ${name} ends in _total`);
  }
  return parsed;
}

function value(parsed: Parsed, name: string, labels: Record<string, string> = {}): number | undefined {
  return parsed.samples.find((s) => s.name === name && JSON.stringify(s.labels) === JSON.stringify(labels))?.value;
}

describe('the text exposition', () => {
  it('escapes label values and help, and writes infinities as Prometheus reads them', () => {
    const text = renderExposition([
      {
        name: 'x_total',
        help: 'a \\ help\nover two lines',
        type: 'counter',
        samples: [{ name: 'x_total', labels: { path: 'C:\\dir "quoted"\nnext' }, value: Infinity }],
      },
    ]);
    assert.equal(text, '# HELP x_total a \\\\ help\\nover two lines\n# TYPE x_total counter\nx_total{path="C:\\\\dir \\"quoted\\"\\nnext"} +Inf\n');
    const parsed = parseExposition(text);
    assert.deepEqual(parsed.samples, [{ name: 'x_total', labels: { path: 'C:\\dir "quoted"\nnext' }, value: Infinity }]);
  });

  it('keeps one series per label set, in any key order, and refuses wrong labels or going down', () => {
    const counter = new Counter('things_total', 'Things.', ['a', 'b']);
    counter.inc({ a: '1', b: '2' });
    counter.inc({ b: '2', a: '1' }, 2);
    assert.deepEqual(counter.collect().samples, [{ name: 'things_total', labels: { a: '1', b: '2' }, value: 3 }]);
    assert.throws(() => counter.inc({ a: '1' }), /takes the labels a, b/);
    assert.throws(() => counter.inc({ a: '1', b: '2' }, -1), /cannot go down/);
    assert.throws(() => new Counter('things', 'Things.'), /_total/);
  });
});

describe('GET /metrics', () => {
  let t: TestApp;
  const now = Date.now();
  const iso = (offsetMs: number) => new Date(now + offsetMs).toISOString();
  /** Durations (seconds) of the settled jobs that count, per operation. */
  const durations: Record<string, number[]> = { upscale: [0.3, 4, 100], enhancer: [0.2, 2] };

  before(async () => {
    // No worker role: the jobs written here stay in the states the test gives them.
    t = await startTestApp({ roles: ['api'] });
    const repository = new JobRepository(t.database.db);
    const user = t.user.userId;
    const rows: JobRow[] = [];
    const waiting = (queue: 'light' | 'heavy', operation = 'upscale') => jobRow({ user_id: user, queue, operation });
    rows.push(waiting('light'), waiting('light'), waiting('light', 'enhancer'), waiting('heavy', 'furnish'), waiting('heavy', 'furnish'));
    // A claim that lapsed: the job waits for a worker again.
    rows.push(jobRow({ user_id: user, queue: 'light', lease_owner: 'gone', lease_expires_at: iso(-1000) }));
    const live = { lease_owner: 'worker', lease_expires_at: iso(3_600_000), started_at: iso(-5000), progress: 0.5 };
    rows.push(jobRow({ user_id: user, queue: 'heavy', operation: 'furnish', ...live }), jobRow({ user_id: user, queue: 'light', ...live }));
    for (const [operation, list] of Object.entries(durations)) {
      list.forEach((seconds, i) => {
        const failed = operation === 'enhancer' && i === 1;
        rows.push(
          jobRow({
            user_id: user,
            operation,
            status: failed ? 'failed' : 'success',
            ...(failed ? { error_code: 'invalid_image', error_status: 400, error_message: 'corrupt' } : { progress: 1 }),
            started_at: iso(-600_000),
            completed_at: iso(-600_000 + seconds * 1000),
          }),
        );
      });
    }
    // Settled without running (refused before it started; cancelled): no duration to count.
    rows.push(
      jobRow({ user_id: user, status: 'failed', error_code: 'processing_failed', error_status: 500, error_message: 'x', completed_at: iso(0) }),
      jobRow({ user_id: user, status: 'failed', error_code: 'job_cancelled', error_status: 409, error_message: 'x', completed_at: iso(0) }),
    );
    for (const row of rows) assert.ok(await repository.create(row));
    const statuses: DeliveryStatus[] = ['pending', 'pending', 'delivered', 'failed'];
    for (const [i, status] of statuses.entries()) {
      const delivery = deliveryRow({ id: `msg_${i}`, jobId: rows[i]!.id, userId: user, url: 'https://hooks.example.com/', payload: '{}', nextAttemptAt: iso(0), createdAt: iso(0) });
      await t.database.db.insertInto('webhook_deliveries').values({ ...delivery, status }).execute();
    }
  });
  after(() => t.close());

  const scrape = async () => {
    // No key: a scraper has none.
    const response = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
    return parseExposition(response.body);
  };

  it('reports queue depth and running jobs per queue from the database', async () => {
    const parsed = await scrape();
    assert.equal(parsed.types.get('roomcraft_queue_depth'), 'gauge');
    assert.equal(value(parsed, 'roomcraft_queue_depth', { queue: 'light' }), 4);
    assert.equal(value(parsed, 'roomcraft_queue_depth', { queue: 'heavy' }), 2);
    assert.equal(value(parsed, 'roomcraft_jobs_running', { queue: 'light' }), 1);
    assert.equal(value(parsed, 'roomcraft_jobs_running', { queue: 'heavy' }), 1);
  });

  it('counts jobs by state and operation as the database does', async () => {
    const parsed = await scrape();
    const expected = await t.database.db.selectFrom('jobs').select(['status', 'operation']).execute();
    const counts = new Map<string, number>();
    for (const row of expected) counts.set(`${row.status} ${row.operation}`, (counts.get(`${row.status} ${row.operation}`) ?? 0) + 1);
    const reported = parsed.samples.filter((s) => s.name === 'roomcraft_jobs');
    assert.equal(reported.length, counts.size);
    for (const sample of reported) assert.equal(sample.value, counts.get(`${sample.labels.state} ${sample.labels.operation}`), JSON.stringify(sample));
    assert.equal(value(parsed, 'roomcraft_jobs', { state: 'pending', operation: 'furnish' }), 3);
  });

  it('gives the durations of jobs that ran as a cumulative histogram per operation', async () => {
    const parsed = await scrape();
    assert.equal(parsed.types.get('roomcraft_job_duration_seconds'), 'histogram');
    for (const [operation, list] of Object.entries(durations)) {
      for (const bound of JOB_DURATION_BOUNDS) {
        const expected = list.filter((d) => d <= bound).length;
        assert.equal(value(parsed, 'roomcraft_job_duration_seconds_bucket', { operation, le: String(bound) }), expected, `${operation} le=${bound}`);
      }
      assert.equal(value(parsed, 'roomcraft_job_duration_seconds_bucket', { operation, le: '+Inf' }), list.length);
      assert.equal(value(parsed, 'roomcraft_job_duration_seconds_count', { operation }), list.length);
      const sum = value(parsed, 'roomcraft_job_duration_seconds_sum', { operation })!;
      // Times are stored with milliseconds; the engines' date arithmetic may add a rounding error far below that.
      assert.ok(Math.abs(sum - list.reduce((a, b) => a + b, 0)) < 0.001, `${operation} sum ${sum}`);
    }
    assert.equal(
      parsed.samples.filter((s) => s.name === 'roomcraft_job_duration_seconds_count').length,
      Object.keys(durations).length,
      'operations with no job that ran have no series',
    );
  });

  it('reports webhook deliveries by status, every status present', async () => {
    const parsed = await scrape();
    assert.equal(value(parsed, 'roomcraft_webhook_deliveries', { status: 'pending' }), 2);
    assert.equal(value(parsed, 'roomcraft_webhook_deliveries', { status: 'delivered' }), 1);
    assert.equal(value(parsed, 'roomcraft_webhook_deliveries', { status: 'failed' }), 1);
  });

  it('reports this process’s rate-limit counter and basics', async () => {
    const before = value(await scrape(), 'roomcraft_rate_limited_total', { policy: 'anonymous' });
    assert.ok(before !== undefined, 'both policies are reported from the start');
    rateLimited.inc({ policy: 'anonymous' });
    const parsed = await scrape();
    assert.equal(parsed.types.get('roomcraft_rate_limited_total'), 'counter');
    assert.equal(value(parsed, 'roomcraft_rate_limited_total', { policy: 'anonymous' }), before + 1);
    assert.ok(value(parsed, 'process_resident_memory_bytes')! > 0);
    assert.ok(value(parsed, 'process_cpu_seconds_total')! > 0);
    assert.ok(value(parsed, 'roomcraft_uptime_seconds')! >= 0);
    const started = value(parsed, 'process_start_time_seconds')!;
    assert.ok(started <= Date.now() / 1000 && started > Date.now() / 1000 - process.uptime() - 5);
  });
  it('counts each 429 of the rate limit under its policy', async () => {
    const limited = await startTestApp({ roles: ['api'], rateLimit: { perMinute: 1 } });
    try {
      const before = value(await scrape(), 'roomcraft_rate_limited_total', { policy: 'default' })!;
      // Calls until one is refused: a minute rolling over between two calls only means one more call.
      let refused = 0;
      while (refused === 0) {
        const response = await limited.app.inject({ method: 'GET', url: '/v1/styles', headers: limited.auth });
        if (response.statusCode === 429) refused += 1;
      }
      assert.equal(value(await scrape(), 'roomcraft_rate_limited_total', { policy: 'default' }), before + refused);
    } finally {
      await limited.close();
    }
  });
});
