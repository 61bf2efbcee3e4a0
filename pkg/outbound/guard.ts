// The outbound address guard: which destinations the product may call (https, public addresses,
// or ones SWITCHBOARD_OUTBOUND_ALLOW names), for the client's connections and for stored addresses.
import { BlockList, isIP } from 'node:net';
import { ConfigError, type Config } from '../config.js';

// IANA special-purpose blocks. For IPv6, everything outside global unicast 2000::/3 (loopback,
// unspecified, ULA fc00::/7, link-local fe80::/10, multicast ff00::/8…) plus the special blocks inside it.
const nonPublic = ranges([
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '::/3',
  '4000::/2',
  '8000::/1',
  '2001::/23',
  '2001:db8::/32',
  '2002::/16',
  '3fff::/20',
]);

// IPv4-mapped and NAT64 addresses reach the IPv4 address in their low 32 bits.
const embedsIPv4 = ranges(['::ffff:0:0/96', '64:ff9b::/96']);

/** Whether an IP address is publicly routable; one that embeds an IPv4 address is judged by that. */
export function isPublicAddress(address: string): boolean {
  return isIP(address) !== 0 && !nonPublic.has(embeddedIPv4(address) ?? address);
}

export interface Guard {
  allowsName(host: string): boolean;
  allowsAddress(address: string): boolean;
}

/** The guard of a SWITCHBOARD_OUTBOUND_ALLOW setting: public addresses, and the names and CIDRs it lists. */
export function parseAllowList(setting: string | undefined): Guard {
  const names = new Set<string>();
  const nets = ranges([]);
  for (const entry of (setting ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    if (nets.add(entry)) continue;
    if (entry.includes('/')) {
      throw new ConfigError(`invalid configuration: SWITCHBOARD_OUTBOUND_ALLOW: ${entry} is not a valid CIDR`);
    }
    names.add(normalizeName(entry));
  }
  return {
    allowsName: (host) => names.has(normalizeName(host)),
    allowsAddress: (address) => nets.has(embeddedIPv4(address) ?? address) || isPublicAddress(address),
  };
}

interface Ranges {
  /** Adds an address or CIDR; false when it is neither. */
  add(cidr: string): boolean;
  has(address: string): boolean;
}

// One BlockList per family: a single one would match IPv4 addresses against IPv6 rules
// (as ::ffff:a.b.c.d), so ::/3 would cover every IPv4 address.
function ranges(cidrs: string[]): Ranges {
  const lists = { ipv4: new BlockList(), ipv6: new BlockList() };
  const familyOf = (address: string) => (isIP(address) === 4 ? 'ipv4' : 'ipv6');
  const set: Ranges = {
    add(cidr) {
      const match = /^\[?([^\]/]+)\]?(?:\/(\d{1,3}))?$/.exec(cidr);
      if (!match || !isIP(match[1]!)) return false;
      const family = familyOf(match[1]!);
      const max = family === 'ipv4' ? 32 : 128;
      const prefix = match[2] === undefined ? max : Number(match[2]);
      if (prefix > max) return false;
      lists[family].addSubnet(match[1]!, prefix, family);
      return true;
    },
    has: (address) => lists[familyOf(address)].check(address, familyOf(address)),
  };
  for (const cidr of cidrs) set.add(cidr);
  return set;
}

function embeddedIPv4(address: string): string | undefined {
  if (isIP(address) !== 6 || !embedsIPv4.has(address)) return undefined;
  // The URL parser writes IPv6 canonically; an empty group there lies inside the zero run "::".
  const groups = new URL(`https://[${address}]/`).hostname.slice(1, -1).split(':');
  const [high, low] = groups.slice(-2).map((g) => parseInt(g || '0', 16)) as [number, number];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

function normalizeName(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}

/**
 * Why `raw` may not be a customer-side address (webhook receivers, callback URLs), or null when it
 * may: https, and a public host or one allowed. Names are judged again by the guarded lookup when called.
 */
export function destinationProblem(raw: string, config: Pick<Config, 'SWITCHBOARD_OUTBOUND_ALLOW'>): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be a URL';
  }
  if (url.protocol !== 'https:') return 'must be an https:// address';
  const guard = parseAllowList(config.SWITCHBOARD_OUTBOUND_ALLOW);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) return guard.allowsAddress(host) ? null : `${host} is not a public address`;
  const name = normalizeName(host);
  if (guard.allowsName(name)) return null;
  if (name === 'localhost' || name.endsWith('.localhost') || !name.includes('.')) return `${host} is not a public host name`;
  return null;
}
