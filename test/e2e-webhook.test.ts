import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { startImageServer, type ImageServer } from './helpers/image-server.js';
import { makeImage } from './helpers/fixtures.js';
import { verifyWebhook } from '../src/security/webhook-signature.js';
import { withDeadline } from './helpers/until.js';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A client's webhook endpoint on loopback that verifies each delivery with the user's secret before accepting it. */
async function startReceiver(secret: () => string) {
  const received: Received[] = [];
  let notify: (() => void) | undefined;
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const valid = verifyWebhook(secret(), request.headers as Record<string, string>, body);
      received.push({ headers: request.headers, body });
      response.writeHead(valid ? 204 : 401).end();
      notify?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/roomcraft`,
    received,
    next: () => new Promise<void>((resolve) => (notify = resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('end to end over a listening socket', () => {
  let t: TestApp;
  let images: ImageServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let base: string;

  before(async () => {
    receiver = await startReceiver(() => t.user.webhookSecret);
    images = await startImageServer();
    // The API itself listens on loopback; output URLs must point at it for the client to download them.
    t = await startTestApp({ port: 0, host: '127.0.0.1' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await t.close();
    await images.close();
    await receiver.close();
  });

  it('accepts a job, POSTs a signed webhook on completion, and serves the output', async () => {
    const delivered = receiver.next();
    const response = await fetch(`${base}/v1/upscale`, {
      method: 'POST',
      headers: { ...t.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ url: images.serve('room.png', await makeImage(24, 16)), webhook: receiver.url }),
    });
    assert.equal(response.status, 200);
    assert.ok(response.headers.get('ratelimit'));
    const ack = (await response.json()) as { id: string; status: string };
    assert.equal(ack.status, 'pending');

    await withDeadline(delivered, `the webhook of job ${ack.id}`);
    const [delivery] = receiver.received;
    assert.ok(delivery);
    assert.ok(verifyWebhook(t.user.webhookSecret, delivery.headers as Record<string, string>, delivery.body));
    assert.match(delivery.headers['webhook-id'] as string, /^msg_/);
    assert.equal(delivery.headers['content-type'], 'application/json');
    const payload = JSON.parse(delivery.body);
    assert.equal(payload.type, 'job.succeeded');
    assert.equal(payload.id, ack.id);
    assert.equal(payload.status, 'success');
    assert.equal(payload.mode, 'upscale');

    // The output URL is built from the configured public URL; fetch the same path from the listening server.
    const image = await fetch(`${base}${new URL(payload.output).pathname}`);
    assert.equal(image.status, 200);
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    assert.deepEqual([meta.width, meta.height], [48, 32]);

    const job = await (await fetch(`${base}/v1/job/${ack.id}`, { headers: t.auth })).json();
    assert.equal((job as { output: string }).output, payload.output);
  });

  it('sends the webhook for a failed job too', async () => {
    const delivered = receiver.next();
    const before = receiver.received.length;
    const response = await fetch(`${base}/v1/upscale`, {
      method: 'POST',
      headers: { ...t.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://10.20.30.40/room.jpg', webhook: receiver.url }),
    });
    const ack = (await response.json()) as { id: string };
    await withDeadline(delivered, `the webhook of job ${ack.id}`);
    const payload = JSON.parse(receiver.received[before]!.body);
    assert.equal(payload.type, 'job.failed');
    assert.equal(payload.id, ack.id);
    assert.equal(payload.status, 'failed');
    assert.equal(payload.error.code, 'fetch_refused');
  });
});
