import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { trustProxyOption } from '../src/http/trust-proxy.js';
import { ConfigError } from '../src/config/config.js';

/** A bare app with Fastify's trustProxy set from the list, answering with the address it took for the client's. */
async function echoAddress(trusted: string[]) {
  const app = Fastify({ trustProxy: trustProxyOption(trusted) });
  app.get('/', async (request) => request.ip);
  await app.ready();
  return app;
}

describe('trusted proxies (ROOMCRAFT_TRUST_PROXY)', () => {
  it('believes X-Forwarded-For only from a listed proxy, so clients behind it are told apart', async () => {
    const app = await echoAddress(['10.0.0.0/8', '192.0.2.10']);
    const via = (remoteAddress: string, forwarded: string) =>
      app.inject({ method: 'GET', url: '/', remoteAddress, headers: { 'x-forwarded-for': forwarded } });
    assert.equal((await via('10.1.2.3', '198.51.100.7')).body, '198.51.100.7');
    assert.equal((await via('192.0.2.10', '198.51.100.8')).body, '198.51.100.8');
    // A chain of trusted proxies: the right-most address that is not one of them is the client's, so an address the
    // client wrote itself at the left of the header is not believed.
    assert.equal((await via('10.1.2.3', '203.0.113.66, 198.51.100.9, 10.9.9.9')).body, '198.51.100.9');
    // A sender that is not a listed proxy is counted by its own address whatever it forwards.
    assert.equal((await via('198.51.100.50', '203.0.113.1')).body, '198.51.100.50');
    await app.close();
  });

  it('ignores X-Forwarded-For altogether when no proxy is listed', async () => {
    assert.equal(trustProxyOption([]), false);
    const app = await echoAddress([]);
    const response = await app.inject({ method: 'GET', url: '/', remoteAddress: '10.1.2.3', headers: { 'x-forwarded-for': '198.51.100.7' } });
    assert.equal(response.body, '10.1.2.3');
    await app.close();
  });

  it('accepts addresses, CIDRs of both families and the named ranges, and refuses anything else naming the setting', () => {
    assert.deepEqual(trustProxyOption(['127.0.0.1', '10.0.0.0/8', 'fd00::/8', '::1', 'loopback', 'uniquelocal']), [
      '127.0.0.1',
      '10.0.0.0/8',
      'fd00::/8',
      '::1',
      'loopback',
      'uniquelocal',
    ]);
    for (const entry of ['*', 'true', 'proxy.internal', '10.0.0.0/33', 'fd00::/129', '10.0.0.0/8/1', '10.0.0.0/']) {
      assert.throws(() => trustProxyOption([entry]), (error: Error) => error instanceof ConfigError && error.message.includes('ROOMCRAFT_TRUST_PROXY') && error.message.includes(entry), entry);
    }
  });
});
