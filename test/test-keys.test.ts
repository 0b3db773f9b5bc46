import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { dataUrl, makeImage } from './helpers/fixtures.js';
import { drawTestWatermark, watermarkPlacement } from '../src/vision/watermark.js';
import type { RawImage } from '../src/vision/raw-image.js';

describe('the TEST watermark', () => {
  it('changes only the label’s pixels, and the change mask marks exactly those', () => {
    const width = 200;
    const height = 120;
    const image: RawImage = { data: new Uint8Array(width * height * 3).fill(90), width, height, channels: 3 };
    const mask: RawImage = { data: new Uint8Array(width * height), width, height, channels: 1 };
    drawTestWatermark(image, mask);
    const { left, top } = watermarkPlacement(width, height);
    let changed = 0;
    for (let pixel = 0; pixel < width * height; pixel++) {
      const x = pixel % width;
      const y = Math.floor(pixel / width);
      const differs = image.data[pixel * 3] !== 90;
      if (x < left || y < top) assert.ok(!differs && mask.data[pixel] === 0, `pixel ${x},${y} outside the label is untouched`);
      if (differs) {
        changed++;
        assert.equal(mask.data[pixel], 255, `changed pixel ${x},${y} is in the change mask`);
      }
    }
    // White ink and a dark plate: both brighter and darker pixels than the grey photo, i.e. letters one can read.
    assert.ok(image.data.some((v) => v > 200) && image.data.some((v) => v < 60));
    assert.ok(changed > 0 && changed < (width * height) / 10, `${changed} pixels changed`);
  });
});

describe('test keys: free, watermarked, capped per day', () => {
  let t: TestApp;
  let tester: { key: string };
  before(async () => {
    t = await startTestApp({ testKeys: { dailyJobs: 2 } });
    tester = await t.createUser('tester@example.com', 'test');
  });
  after(() => t.close());

  const upscale = (authorization: string, url: string) =>
    t.app.inject({ method: 'POST', url: '/v1/upscale', headers: { authorization }, payload: { url, scale: 2 } });

  it('gives a test key the live key’s result with the TEST label in its corner, then refuses its third job of the day', async () => {
    const photo = dataUrl(await makeImage(96, 64));
    const [live, test] = await Promise.all([upscale(t.auth.authorization, photo), upscale(`Bearer ${tester.key}`, photo)]);
    assert.equal(live.statusCode, 200, live.body);
    assert.equal(test.statusCode, 200, test.body);
    assert.equal(test.headers['x-credits-charged'], undefined, 'a test key pays nothing');
    const decode = (answer: typeof live) => sharp(Buffer.from(answer.json().base64 as string, 'base64')).raw().toBuffer({ resolveWithObject: true });
    const [a, b] = await Promise.all([decode(live), decode(test)]);
    const { width, height, channels } = a.info;
    const { left, top } = watermarkPlacement(width, height);
    let inLabel = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * channels;
        const same = a.data[i] === b.data[i] && a.data[i + 1] === b.data[i + 1] && a.data[i + 2] === b.data[i + 2];
        if (x < left || y < top) assert.ok(same, `pixel ${x},${y} outside the label is the live key's`);
        else if (!same) inLabel++;
      }
    }
    assert.ok(inLabel > 0, 'the label is drawn');

    const second = await upscale(`Bearer ${tester.key}`, photo);
    assert.equal(second.statusCode, 200, second.body);
    const third = await upscale(`Bearer ${tester.key}`, photo);
    assert.equal(third.statusCode, 429, third.body);
    assert.equal(third.json().code, 'test_key_daily_limit');
    assert.ok(Number(third.headers['retry-after']) > 0 && Number(third.headers['retry-after']) <= 86_400);
    const account = await t.app.inject({ method: 'GET', url: '/v1/account', headers: { authorization: `Bearer ${tester.key}` } });
    assert.deepEqual(account.json().testKeys, { dailyJobs: 2, jobsToday: 2 });
    assert.equal(account.json().plan, null);
  });
});
