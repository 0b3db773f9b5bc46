import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import { generateWebhookSecret, signWebhook, verifyWebhook, webhookHeaders } from '../src/security/webhook-signature.js';

// 32 bytes 0x00..0x1f: a key whose MAC the test computes itself from the scheme's definition.
const KEY = Buffer.from(Array.from({ length: 32 }, (_, i) => i));
const SECRET = `whsec_${KEY.toString('base64')}`;
const ID = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
const TIMESTAMP = 1_700_000_000;
const BODY = '{"id":"job_1","status":"success","output":"https://example.com/o.jpg"}';
const AT_TIMESTAMP = new Date(TIMESTAMP * 1000);

function expectedSignature(key: Buffer, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')}`;
}

describe('webhook signatures', () => {
  test('signs "id.timestamp.body" with HMAC-SHA256 under the decoded secret (known answer)', () => {
    assert.equal(signWebhook(SECRET, ID, TIMESTAMP, BODY), expectedSignature(KEY, ID, TIMESTAMP, BODY));
    assert.equal(signWebhook(SECRET, ID, TIMESTAMP, Buffer.from(BODY)), expectedSignature(KEY, ID, TIMESTAMP, BODY));
  });

  test('reproduces the reference vector of the Standard Webhooks specification', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
    const body = '{"test": 2432232314}';
    const signature = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
    assert.equal(signWebhook(secret, id, 1614265330, body), signature);
    const headers = { 'webhook-id': id, 'webhook-timestamp': '1614265330', 'webhook-signature': signature };
    assert.equal(verifyWebhook(secret, headers, body, { now: new Date(1614265330_000) }), true);
  });

  test('generates whsec_ secrets of 32 random bytes', () => {
    const a = generateWebhookSecret();
    const b = generateWebhookSecret();
    assert.match(a, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(a.slice('whsec_'.length), 'base64').length, 32);
    assert.notEqual(a, b);
  });

  test('refuses secrets that are not base64 of 24 to 64 bytes', () => {
    assert.throws(() => signWebhook('whsec_c2hvcnQ=', ID, TIMESTAMP, BODY));
    assert.throws(() => signWebhook('whsec_not base64 at all, not at all!!', ID, TIMESTAMP, BODY));
  });

  test('builds the Standard Webhooks headers', () => {
    assert.deepEqual(webhookHeaders(SECRET, ID, TIMESTAMP, BODY), {
      'webhook-id': ID,
      'webhook-timestamp': String(TIMESTAMP),
      'webhook-signature': expectedSignature(KEY, ID, TIMESTAMP, BODY),
      'content-type': 'application/json',
    });
  });

  describe('verification', () => {
    const headers = webhookHeaders(SECRET, ID, TIMESTAMP, BODY);
    const at = { now: AT_TIMESTAMP };

    test('accepts a genuine message, from a plain header object or a fetch Headers', () => {
      assert.equal(verifyWebhook(SECRET, headers, BODY, at), true);
      assert.equal(verifyWebhook(SECRET, new Headers(headers), Buffer.from(BODY), at), true);
      const mixedCase = { 'Webhook-Id': ID, 'Webhook-Timestamp': String(TIMESTAMP), 'Webhook-Signature': headers['webhook-signature'] };
      assert.equal(verifyWebhook(SECRET, mixedCase, BODY, at), true);
    });

    test('rejects an altered body, id or timestamp, and another secret', () => {
      assert.equal(verifyWebhook(SECRET, headers, BODY.replace('success', 'failed'), at), false);
      assert.equal(verifyWebhook(SECRET, { ...headers, 'webhook-id': 'msg_other' }, BODY, at), false);
      assert.equal(verifyWebhook(SECRET, { ...headers, 'webhook-timestamp': String(TIMESTAMP + 1) }, BODY, at), false);
      assert.equal(verifyWebhook(generateWebhookSecret(), headers, BODY, at), false);
    });

    test('rejects timestamps outside the tolerance, either way', () => {
      const late = new Date((TIMESTAMP + 301) * 1000);
      const early = new Date((TIMESTAMP - 301) * 1000);
      assert.equal(verifyWebhook(SECRET, headers, BODY, { now: late }), false);
      assert.equal(verifyWebhook(SECRET, headers, BODY, { now: early }), false);
      assert.equal(verifyWebhook(SECRET, headers, BODY, { now: new Date((TIMESTAMP + 300) * 1000) }), true);
      assert.equal(verifyWebhook(SECRET, headers, BODY, { now: late, toleranceSeconds: 600 }), true);
    });

    test('rejects missing or malformed headers', () => {
      const { 'webhook-signature': _signature, ...unsigned } = headers;
      assert.equal(verifyWebhook(SECRET, unsigned, BODY, at), false);
      assert.equal(verifyWebhook(SECRET, { ...headers, 'webhook-timestamp': '1.7e9' }, BODY, at), false);
      assert.equal(verifyWebhook(SECRET, { ...headers, 'webhook-signature': '' }, BODY, at), false);
      const bareMac = headers['webhook-signature'].slice('v1,'.length);
      assert.equal(verifyWebhook(SECRET, { ...headers, 'webhook-signature': bareMac }, BODY, at), false);
    });

    test('accepts any one of several space-separated signatures (secret rotation)', () => {
      const old = signWebhook(generateWebhookSecret(), ID, TIMESTAMP, BODY);
      const current = headers['webhook-signature'];
      const unknownVersion = `v1a,${current.slice('v1,'.length)}`;
      for (const list of [`${old} ${current}`, `${current} ${old}`, `${unknownVersion} ${current}`]) {
        assert.equal(verifyWebhook(SECRET, { ...headers, 'webhook-signature': list }, BODY, at), true, list);
      }
      assert.equal(verifyWebhook(SECRET, { ...headers, 'webhook-signature': `${old} ${unknownVersion}` }, BODY, at), false);
    });
  });
});
