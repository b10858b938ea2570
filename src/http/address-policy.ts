import ipaddr from 'ipaddr.js';
import { ConfigError } from '../config.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

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

// IPv6 forms that carry an IPv4 address: judged by the IPv4 address they lead to, so that
// ::ffff:127.0.0.1 or 64:ff9b::a00:1 cannot reach what 127.0.0.1 or 10.0.0.1 may not.
const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const SIIT = ipaddr.IPv6.parseCIDR('::ffff:0:0:0/96');
const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');

function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  if (address.match(NAT64) || address.match(SIIT)) {
    return new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
  }
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

function isAddress(text: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);
}

function matches(address: Address, range: Range): boolean {
  const forms = [address];
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    forms.push((address as ipaddr.IPv6).toIPv4Address());
  }
  return forms.some((form) => form.kind() === range[0].kind() && form.match(range));
}

/**
 * Which addresses outbound requests may reach: public unicast ones, plus whatever the operator
 * lists in QUIRE_OUTBOUND_ALLOW (host names, addresses, CIDR ranges).
 */
export class AddressPolicy {
  private readonly hosts = new Set<string>();
  private readonly ranges: Range[] = [];

  constructor(allow: readonly string[]) {
    for (const raw of allow) {
      const entry = bareHost(raw.trim());
      if (entry === '') continue;
      if (entry.includes('/')) {
        if (!ipaddr.isValidCIDR(entry)) {
          throw new ConfigError(
            'QUIRE_OUTBOUND_ALLOW',
            `"${raw}" is not a valid CIDR range such as 10.0.0.0/8`,
          );
        }
        this.ranges.push(ipaddr.parseCIDR(entry));
      } else if (isAddress(entry)) {
        const address = ipaddr.parse(entry);
        this.ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
      } else {
        this.hosts.add(entry);
      }
    }
  }

  /** A host name the operator listed may resolve anywhere: they vouched for the name itself. */
  allowsHost(host: string): boolean {
    return this.hosts.has(bareHost(host));
  }

  /** Why `address` may not be reached (such as "a loopback address"), or undefined when it may. */
  refusal(address: string): string | undefined {
    const bare = bareHost(address);
    if (!ipaddr.isValid(bare)) return 'not an IP address';
    const parsed = ipaddr.parse(bare);
    if (this.ranges.some((range) => matches(parsed, range))) return undefined;
    return specialRange(parsed);
  }
}
