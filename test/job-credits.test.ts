import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { dataUrl, makeImage } from './helpers/fixtures.js';

describe('a job shows what it cost', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  async function creditsOf(authorization: string, path: string, payload: object): Promise<number> {
    const answer = await t.app.inject({ method: 'POST', url: path, headers: { authorization }, payload });
    assert.equal(answer.statusCode, 200, answer.body);
    const job = await t.app.inject({ method: 'GET', url: `/v1/job/${answer.headers['x-job-id'] as string}`, headers: { authorization } });
    assert.equal(job.statusCode, 200);
    return job.json().credits as number;
  }

  it('at the spec’s price for a live key, and nothing for a test key', async () => {
    const image = dataUrl(await makeImage(12, 8));
    assert.equal(await creditsOf(t.auth.authorization, '/v1/upscale', { url: image }), 1);
    assert.equal(await creditsOf(t.auth.authorization, '/v1/upscale_advanced', { url: image, scale: 2 }), 2);
    const tester = await t.createUser('tester@example.com', 'test');
    assert.equal(await creditsOf(`Bearer ${tester.key}`, '/v1/upscale_advanced', { url: image, scale: 2 }), 0);
  });
});
