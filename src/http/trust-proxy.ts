import net from 'node:net';
import { ConfigError } from '../config/config.js';

/** Names proxy-addr (Fastify's X-Forwarded-For parser) expands to the loopback, link-local and private ranges. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Fastify's `trustProxy` option from ROOMCRAFT_TRUST_PROXY: false when it is empty (the connection's address is the
 * client's, and an X-Forwarded-For from anyone is ignored), else the listed addresses and CIDRs. A request from one of
 * them has as its address the right-most X-Forwarded-For entry that is not itself a trusted proxy; from anyone else,
 * its own. Trusting every sender (`true`, `*`) is not offered: any client could then pick the address it is counted by.
 */
export function trustProxyOption(trusted: readonly string[]): false | string[] {
  if (trusted.length === 0) return false;
  for (const entry of trusted) {
    if (!isAddressOrRange(entry)) {
      throw new ConfigError(
        `ROOMCRAFT_TRUST_PROXY: "${entry}" is not an IP address, a CIDR (10.0.0.0/8, fd00::/8) or one of loopback, linklocal, uniquelocal`,
      );
    }
  }
  return [...trusted];
}

function isAddressOrRange(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}
