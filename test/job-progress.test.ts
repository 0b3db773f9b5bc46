import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JobRepository } from '../src/repositories/job-repository.js';
import { toJobView } from '../src/services/job-view.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { jobRow } from './helpers/job-rows.js';

const NOW = Date.parse('2025-03-01T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe('a job’s estimatedSecondsLeft (extension)', () => {
  const running = {
    user_id: 'u',
    lease_owner: 'worker',
    lease_expires_at: iso(NOW + 30_000),
    started_at: iso(NOW - 40_000),
    progress: 0.8,
  };

  it('extrapolates the progress linearly over the time since the attempt started', () => {
    // 40 s for 80 %: 10 s for the remaining 20 %.
    assert.equal(toJobView(jobRow(running), 'http://x', NOW).estimatedSecondsLeft, 10);
    assert.equal(toJobView(jobRow({ ...running, progress: 0.3 }), 'http://x', NOW).estimatedSecondsLeft, Math.ceil((40 * 0.7) / 0.3));
  });

  it('is absent where nothing honest can be said: waiting, a lapsed claim, no progress yet, settled', () => {
    const cases = {
      'never claimed': jobRow({ user_id: 'u', progress: 0.5 }),
      'claimed, not started': jobRow({ ...running, started_at: null }),
      'claim lapsed (the worker is gone)': jobRow({ ...running, lease_expires_at: iso(NOW - 1) }),
      'no progress reported yet': jobRow({ ...running, progress: 0 }),
      settled: jobRow({ ...running, status: 'success', progress: 1, lease_owner: null, lease_expires_at: null, completed_at: iso(NOW) }),
    };
    for (const [name, job] of Object.entries(cases)) {
      assert.equal('estimatedSecondsLeft' in toJobView(job, 'http://x', NOW), false, name);
    }
  });
});

describe('GET /v1/job/{id} of a running job', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ roles: ['api'] });
  });
  after(() => t.close());

  it('shows its progress and the estimate, which the OpenAPI schema lets through', async () => {
    const startedAt = Date.now() - 60_000;
    const job = jobRow({
      user_id: t.user.userId,
      lease_owner: 'worker',
      lease_expires_at: iso(Date.now() + 3_600_000),
      started_at: iso(startedAt),
      progress: 0.5,
    });
    assert.ok(await new JobRepository(t.database.db).create(job));
    const asked = Date.now();
    const body = (await t.app.inject({ method: 'GET', url: `/v1/job/${job.id}`, headers: t.auth })).json();
    const answered = Date.now();
    assert.equal(body.status, 'pending');
    assert.equal(body.progress, 0.5);
    // Half done: as long again as the time since it started, measured at some moment between asking and the answer,
    // however long the machine took over it.
    assert.ok(body.estimatedSecondsLeft >= Math.ceil((asked - startedAt) / 1000), String(body.estimatedSecondsLeft));
    assert.ok(body.estimatedSecondsLeft <= Math.ceil((answered - startedAt) / 1000), String(body.estimatedSecondsLeft));
  });
});
