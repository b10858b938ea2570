import ipaddr from 'ipaddr.js';
import { ConfigError } from '../config.js';
import { type Address, type AllowEntry, hostIPv4, parseAllowEntry, type Range } from './allow-list.js';

/** What a refused range is called in messages, so an operator knows what they would be allowing. */
const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a unique-local (private) address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  unspecified: 'an unspecified address',
  reserved: 'a reserved address',
};

// IPv6 forms that carry an IPv4 address are judged by it, so that ::ffff:127.0.0.1,
// ::127.0.0.1 or 64:ff9b::a00:1 cannot reach what 127.0.0.1 or 10.0.0.1 may not; 6to4 (a v6
// network behind that IPv4 router) is judged by it too.
const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');

function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const host = hostIPv4(address);
  if (host) return host;
  const p = address.parts;
  if (address.match(SIX_TO_FOUR))
    return new ipaddr.IPv4([p[1]! >> 8, p[1]! & 0xff, p[2]! >> 8, p[2]! & 0xff]);
  return undefined;
}

/** Why `address` is not a public unicast address, or undefined when it is. */
function specialRange(address: Address): string | undefined {
  if (address.kind() === 'ipv6') {
    const v4 = embeddedIPv4(address as ipaddr.IPv6);
    if (v4) return specialRange(v4);
  }
  // Only plain unicast passes: anything else ipaddr.js names (documentation, benchmarking,
  // Teredo, ...) is refused rather than enumerated, so a range we forgot fails closed.
  const range = address.range();
  if (range === 'unicast') return undefined;
  return RANGE_NAMES[range] ?? `a special-purpose (${range}) address`;
}

/** Host names compare without case, brackets or the root's trailing dot. */
export function bareHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

/** An address and the IPv4 address it stands for, if any: an entry of either form matches. */
function forms(address: Address): Address[] {
  const v4 = address.kind() === 'ipv6' ? hostIPv4(address as ipaddr.IPv6) : undefined;
  return v4 ? [address, v4] : [address];
}

function inRange(address: Address, range: Range): boolean {
  return forms(address).some((form) => form.kind() === range[0].kind() && form.match(range));
}

const portsOf = (entries: AllowEntry[]) => entries.map((e) => e.port).filter((p) => p !== undefined);

/**
 * Which addresses outbound requests may reach: public unicast ones, plus whatever the operator
 * lists in QUIRE_OUTBOUND_ALLOW (host names, addresses, CIDR ranges, each for every port or,
 * written `entry:port`, for one; see allow-list.ts).
 */
export class AddressPolicy {
  private readonly hosts: Array<AllowEntry & { kind: 'host' }> = [];
  private readonly ranges: Array<AllowEntry & { kind: 'range' }> = [];

  constructor(allow: readonly string[]) {
    for (const raw of allow) {
      if (raw.trim() === '') continue;
      const entry = parseAllowEntry(raw);
      if ('error' in entry) throw new ConfigError('QUIRE_OUTBOUND_ALLOW', entry.error);
      if (entry.kind === 'host') this.hosts.push(entry);
      else this.ranges.push(entry);
    }
  }

  /** A host name the operator listed may resolve anywhere: they vouched for the name itself. */
  allowsHost(host: string, port: number): boolean {
    const name = bareHost(host);
    return this.hosts.some(
      (entry) => entry.host === name && (entry.port === undefined || entry.port === port),
    );
  }

  /**
   * Why `address` may not be reached on `port` (such as "a loopback address"), or undefined
   * when it may.
   */
  refusal(address: string, port: number): string | undefined {
    const bare = bareHost(address);
    if (!ipaddr.isValid(bare)) return 'not an IP address';
    const parsed = ipaddr.parse(bare);
    const listed = this.ranges.filter((entry) => inRange(parsed, entry.range));
    if (listed.some((entry) => entry.port === undefined || entry.port === port)) return undefined;
    const reason = specialRange(parsed);
    if (reason === undefined || listed.length === 0) return reason;
    return `${reason} (allowed on port ${portsOf(listed).join(', ')} only, not ${port})`;
  }
}
