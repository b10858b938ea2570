import ipaddr from 'ipaddr.js';

/**
 * Entries of QUIRE_OUTBOUND_ALLOW: a host name, an address or a CIDR range, each optionally with
 * a port. `127.0.0.1:8080` allows that port only; a bare entry allows every port. IPv6 takes a
 * port in brackets (`[::1]:8080`, `[fd00::/8]:443`); a bare IPv6 entry (`::1`, `fd00::/8`) has
 * none. Read by config.ts (to refuse a bad value at start) and by the address policy.
 */

export type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type Range = [Address, number];

export type AllowEntry = ({ kind: 'host'; host: string } | { kind: 'range'; range: Range }) & {
  /** Undefined: every port. */
  port?: number;
};

/**
 * The IPv4 address an IPv6 address stands for when it names an IPv4 host: IPv4-mapped
 * (`::ffff:127.0.0.1`), IPv4-compatible (`::127.0.0.1`, deprecated but still parsed), SIIT
 * (`::ffff:0:127.0.0.1`) and NAT64 (`64:ff9b::127.0.0.1`). `::` and `::1` are IPv6's own.
 */
export function hostIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const v4 = () => new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  const zeros = (from: number, to: number) => p.slice(from, to).every((part) => part === 0);
  if (zeros(0, 6) && (p[6] !== 0 || p[7]! > 1)) return v4(); // ::a.b.c.d
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return v4(); // ::ffff:0:a.b.c.d
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) return v4(); // 64:ff9b::a.b.c.d
  return undefined;
}

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*$/;

function parsePort(text: string | undefined): number | undefined | 'invalid' {
  if (text === undefined) return undefined;
  if (!/^\d{1,5}$/.test(text)) return 'invalid';
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : 'invalid';
}

/** An address entry, judged by its IPv4 address when it stands for one. */
function single(address: Address): Range {
  const v4 = address.kind() === 'ipv6' ? hostIPv4(address as ipaddr.IPv6) : undefined;
  return v4 ? [v4, 32] : [address, address.kind() === 'ipv4' ? 32 : 128];
}

/** One entry as written, or the reason it is not one (for the start-up error). */
export function parseAllowEntry(written: string): AllowEntry | { error: string } {
  const raw = written.trim();
  const text = raw.toLowerCase();
  let host: string;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(text);
  if (bracketed) {
    host = bracketed[1]!;
    portText = bracketed[2];
    if (!host.includes(':')) return { error: `"${raw}": only IPv6 addresses go in brackets` };
  } else if ((text.match(/:/g) ?? []).length === 1) {
    [host = '', portText] = text.split(':');
  } else {
    host = text;
  }
  const port = parsePort(portText);
  if (port === 'invalid') return { error: `"${raw}" has an invalid port; use a number from 1 to 65535` };
  const withPort = port === undefined ? {} : { port };

  if (host.includes('/')) {
    if (!ipaddr.isValidCIDR(host)) {
      return { error: `"${raw}" is not a valid CIDR range such as 10.0.0.0/8 or fd00::/8` };
    }
    return { kind: 'range', range: ipaddr.parseCIDR(host), ...withPort };
  }
  if (ipaddr.IPv4.isValidFourPartDecimal(host) || ipaddr.IPv6.isValid(host)) {
    return { kind: 'range', range: single(ipaddr.parse(host)), ...withPort };
  }
  const name = host.replace(/\.$/, '');
  if (!HOST_NAME.test(name) || /^[\d.]+$/.test(name)) {
    return {
      error: `"${raw}" is neither a host name, an address nor a CIDR range (with an optional :port)`,
    };
  }
  return { kind: 'host', host: name, ...withPort };
}
