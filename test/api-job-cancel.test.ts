import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JobRepository, type JobRow } from '../src/repositories/job-repository.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { jobRow } from './helpers/job-rows.js';
import { until } from './helpers/until.js';

const HOUR_MS = 3_600_000;

describe('DELETE /v1/job/{id} (extension): cancelling a job no worker has started', () => {
  let t: TestApp;
  let repository: JobRepository;

  before(async () => {
    // No worker role: a job written here stays pending and unclaimed until the test claims it itself.
    t = await startTestApp({ roles: ['api'] });
    repository = new JobRepository(t.database.db);
  });
  after(() => t.close());

  const cancel = (id: string, headers = t.auth) => t.app.inject({ method: 'DELETE', url: `/v1/job/${id}`, headers });
  const getJob = (id: string) => t.app.inject({ method: 'GET', url: `/v1/job/${id}`, headers: t.auth });
  const deliveriesOf = (jobId: string) => t.database.db.selectFrom('webhook_deliveries').selectAll().where('job_id', '=', jobId).execute();

  async function pendingJob(fields: Partial<JobRow> = {}): Promise<JobRow> {
    const job = jobRow({ user_id: t.user.userId, ...fields });
    assert.ok(await repository.create(job));
    return job;
  }

  it('settles a pending job as failed with job_cancelled and answers the job as GET /v1/job/{id} then shows it', async () => {
    const job = await pendingJob();
    const response = await cancel(job.id);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    assert.equal(body.status, 'failed');
    assert.equal(body.error.code, 'job_cancelled');
    assert.ok(body.completedAt);
    assert.deepEqual(body, (await getJob(job.id)).json());
    assert.deepEqual(await deliveriesOf(job.id), [], 'no webhook was asked for, none is sent');
  });

  it('announces a cancelled job that has a webhook with job.failed, recorded with the cancel', async () => {
    const job = await pendingJob({ webhook_url: 'https://hooks.example.com/roomcraft' });
    const cancelled = (await cancel(job.id)).json();
    const deliveries = await deliveriesOf(job.id);
    assert.equal(deliveries.length, 1);
    assert.equal(deliveries[0]!.url, 'https://hooks.example.com/roomcraft');
    assert.equal(deliveries[0]!.status, 'pending');
    const payload = JSON.parse(deliveries[0]!.payload);
    assert.equal(payload.type, 'job.failed');
    assert.deepEqual({ ...payload, type: undefined }, { ...cancelled, type: undefined });
  });

  it('refuses a job a worker holds a live claim on (409, already running) and leaves it running', async () => {
    const leaseUntil = new Date(Date.now() + HOUR_MS).toISOString();
    const job = await pendingJob({ lease_owner: 'another-worker', lease_expires_at: leaseUntil, started_at: new Date().toISOString() });
    const response = await cancel(job.id);
    assert.equal(response.statusCode, 409);
    const problem = response.json();
    assert.equal(problem.code, 'job_not_cancellable');
    assert.match(problem.detail, /already running/);
    const after = await repository.findById(job.id);
    assert.equal(after?.status, 'pending');
    assert.equal(after?.lease_owner, 'another-worker');
    assert.equal(after?.lease_expires_at, leaseUntil);
  });

  it('cancels a job whose worker’s claim lapsed (the worker is gone; the job waits for another)', async () => {
    const job = await pendingJob({ lease_owner: 'dead-worker', lease_expires_at: new Date(Date.now() - 1000).toISOString(), attempts: 1 });
    const response = await cancel(job.id);
    assert.equal(response.statusCode, 200);
    const row = await repository.findById(job.id);
    assert.equal(row?.status, 'failed');
    assert.equal(row?.error_code, 'job_cancelled');
    assert.equal(row?.lease_owner, null);
  });

  it('refuses a settled job (409, already settled), succeeded or cancelled before', async () => {
    const succeeded = await pendingJob({ status: 'success', progress: 1, completed_at: new Date().toISOString() });
    const done = await cancel(succeeded.id);
    assert.equal(done.statusCode, 409);
    assert.equal(done.json().code, 'job_not_cancellable');
    assert.match(done.json().detail, /already settled/);
    assert.equal((await getJob(succeeded.id)).json().status, 'success');

    const job = await pendingJob();
    assert.equal((await cancel(job.id)).statusCode, 200);
    const again = await cancel(job.id);
    assert.equal(again.statusCode, 409);
    assert.match(again.json().detail, /already settled/);
  });

  it('answers 404 for another user’s job, as for an unknown id, and leaves it pending', async () => {
    const other = await t.createUser('someone-else@example.com');
    const theirs = jobRow({ user_id: other.userId });
    assert.ok(await repository.create(theirs));
    const response = await cancel(theirs.id);
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().code, 'not_found');
    assert.equal((await repository.findById(theirs.id))?.status, 'pending');
    assert.equal((await cancel('no-such-job')).statusCode, 404);
  });

  it('lets exactly one of a cancel and a worker’s claim racing for the same job win', async () => {
    for (let round = 0; round < 20; round++) {
      const job = await pendingJob();
      const now = Date.now();
      // The claim sets off after 0 to 3 reads of the job, so that it meets the cancel at different points of its way
      // (before its read, between its read and its update, after it): the outcome varies, the rule must not.
      const claimAfterReads = async (reads: number) => {
        for (let i = 0; i < reads; i++) await repository.findById(job.id);
        return repository.claim(job.id, 'racing-worker', new Date(now).toISOString(), new Date(now + HOUR_MS).toISOString());
      };
      const [claimed, response] = await Promise.all([claimAfterReads(round % 4), cancel(job.id)]);
      const row = await repository.findById(job.id);
      if (claimed) {
        assert.equal(response.statusCode, 409, `round ${round}: the claim won, so the cancel is refused`);
        assert.equal(row?.status, 'pending');
        assert.equal(row?.lease_owner, 'racing-worker');
      } else {
        assert.equal(response.statusCode, 200, `round ${round}: the cancel won, so the claim got nothing`);
        assert.equal(row?.status, 'failed');
        assert.equal(row?.error_code, 'job_cancelled');
      }
    }
  });

  it('ends a synchronous request waiting for the job with the job_cancelled problem', async () => {
    const url = 'https://example.com/waiting-for-a-cancel.jpg';
    const waiting = t.app.inject({ method: 'POST', url: '/v1/upscale', headers: t.auth, payload: { url } });
    const job = await until(
      async () => t.database.db.selectFrom('jobs').select('id').where('request', 'like', `%${url}%`).executeTakeFirst(),
      { what: 'the synchronous request’s job to be written' },
    );
    assert.equal((await cancel(job.id)).statusCode, 200);
    const response = await waiting;
    assert.equal(response.statusCode, 409);
    assert.equal(response.json().code, 'job_cancelled');
    assert.equal(response.headers['x-job-id'], job.id);
  });

  it('is in the OpenAPI document with its 409', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const operation = document.paths['/v1/job/{id}'].delete;
    assert.ok(operation.responses['200']);
    assert.ok(operation.responses['409'].content['application/problem+json']);
  });
});
