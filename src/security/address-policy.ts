import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type AddressRange = [Address, number];

/**
 * Decides which network addresses the service may connect to on behalf of a user-supplied URL.
 *
 * Default: only globally routable unicast addresses. Refused are private (10/8, 172.16/12, 192.168/16),
 * CGNAT (100.64/10, which also holds Alibaba's metadata 100.100.100.200), loopback, link-local (with
 * the 169.254.169.254 metadata service), unspecified, multicast, broadcast, reserved and documentation
 * ranges (192.0.0.0/24 holds Oracle's metadata 192.0.0.192), unique-local fc00::/7 (fd00:ec2::254) and
 * every IPv6 address outside the global unicast block 2000::/3. IPv6 forms that carry an IPv4 address
 * (IPv4-mapped ::ffff:a.b.c.d, IPv4-translated, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by that
 * IPv4 address; Teredo and IPv4-compatible ::a.b.c.d are refused outright.
 */
export interface AddressPolicy {
  /** Whether a connection to this IP address (v4 or v6, textual) is permitted; anything unparsable is not. */
  isAllowed(ip: string): boolean;
  /** Whether this hostname was named in the allow list, which opens whatever addresses it resolves to. */
  isHostAllowlisted(hostname: string): boolean;
}

/**
 * `allow` entries (Config['fetch']['allow']) open addresses the default refuses:
 * - a CIDR (`10.0.0.0/8`, `fd00::/8`) or a single IP (`127.0.0.1`, `::1`, `[::1]`) opens those addresses;
 * - anything else is a hostname, compared case-insensitively (trailing dot ignored) with the URL's host.
 * A malformed CIDR throws rather than silently becoming a hostname nobody uses.
 */
export function createAddressPolicy(allow: readonly string[]): AddressPolicy {
  const allowedRanges: AddressRange[] = [];
  const allowedHosts = new Set<string>();
  for (const entry of allow.map((e) => e.trim()).filter(Boolean)) {
    const range = parseRange(entry);
    if (range) allowedRanges.push(range);
    else allowedHosts.add(normaliseHostname(entry));
  }

  const isOpenedByAllowList = (address: Address): boolean =>
    allowedRanges.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits));

  const judge = (address: Address): boolean => {
    if (isOpenedByAllowList(address)) return true;
    if (address.kind() === 'ipv4') return address.range() === 'unicast';
    const v6 = address as ipaddr.IPv6;
    const embedded = embeddedIPv4(v6);
    if (embedded) return judge(embedded);
    return v6.match(GLOBAL_UNICAST) && v6.range() === 'unicast';
  };

  return {
    isAllowed(ip) {
      const address = parseAddress(ip);
      return address !== undefined && judge(address);
    },
    isHostAllowlisted(hostname) {
      return allowedHosts.has(normaliseHostname(hostname));
    },
  };
}

const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const IPV4_TRANSLATED = ipaddr.IPv6.parseCIDR('::ffff:0:0:0/96');
const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');

/** The IPv4 address a packet to this IPv6 address ends up at, for the forms where that is knowable. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const fromWords = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  if (address.isIPv4MappedAddress() || address.match(IPV4_TRANSLATED) || address.match(NAT64_WELL_KNOWN)) {
    return fromWords(p[6]!, p[7]!);
  }
  if (address.match(SIX_TO_FOUR)) return fromWords(p[1]!, p[2]!);
  return undefined;
}

function parseAddress(text: string): Address | undefined {
  const unbracketed = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  try {
    return ipaddr.parse(unbracketed);
  } catch {
    return undefined;
  }
}

function parseRange(entry: string): AddressRange | undefined {
  if (entry.includes('/')) {
    try {
      return ipaddr.parseCIDR(entry);
    } catch {
      throw new Error(`"${entry}" is not a valid CIDR (such as 10.0.0.0/8, 127.0.0.1/32 or fd00::/8)`);
    }
  }
  const address = parseAddress(entry);
  if (!address) return undefined;
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

function normaliseHostname(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, '');
}
