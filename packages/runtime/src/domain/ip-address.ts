/**
 * IP addresses in text, parsed without Node built-ins (the mock runs this code in browsers too), and
 * which of them are global unicast: the only addresses a webhook may be sent to (webhook-target.ts).
 */

/** An IP address: IPv4 as an unsigned 32-bit number, IPv6 as its eight 16-bit groups. */
type IpAddress = { version: 4; value: number } | { version: 6; groups: number[] };

/** `a.b.c.d` in decimal as an unsigned 32-bit number, or null when `text` is not one. */
function parseIPv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    n = n * 256 + Number(p);
  }
  return n;
}

/** Hex groups separated by colons (`a:b:c`), or null when one is not 1 to 4 hex digits. */
function hexGroups(text: string): number[] | null {
  if (text === '') return [];
  const groups: number[] = [];
  for (const g of text.split(':')) {
    if (!/^[0-9a-f]{1,4}$/i.test(g)) return null;
    groups.push(Number.parseInt(g, 16));
  }
  return groups;
}

/** The eight groups of an IPv6 address (`::` and a dotted IPv4 tail allowed, a `%zone` ignored), or null. */
function parseIPv6(text: string): number[] | null {
  let rest = text.replace(/%.*$/, '');
  let tail: number[] = [];
  const lastColon = rest.lastIndexOf(':');
  if (lastColon === -1) return null;
  if (rest.includes('.', lastColon)) {
    const v4 = parseIPv4(rest.slice(lastColon + 1));
    if (v4 === null) return null;
    tail = [v4 >>> 16, v4 & 0xffff];
    // Keep the colon before the IPv4 part when it is the second of a `::`.
    rest = rest.slice(0, rest[lastColon - 1] === ':' ? lastColon + 1 : lastColon);
  }
  const halves = rest.split('::');
  if (halves.length > 2) return null;
  const head = hexGroups(halves[0] as string);
  const tailHex = halves.length === 2 ? hexGroups(halves[1] as string) : [];
  if (!head || !tailHex) return null;
  const given = head.length + tailHex.length + tail.length;
  if (halves.length === 1) return given === 8 ? [...head, ...tail] : null;
  if (given > 7) return null;
  return [...head, ...Array<number>(8 - given).fill(0), ...tailHex, ...tail];
}

/**
 * `text` as an IP address: dotted-decimal IPv4, or IPv6 in any of its text forms (brackets, `::`, an
 * IPv4 tail, a zone); null for anything else (a host name).
 *
 * @example parseIp('[::ffff:127.0.0.1]') // { version: 6, groups: [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1] }
 */
export function parseIp(text: string): IpAddress | null {
  const bare = text.replace(/^\[(.*)\]$/, '$1');
  const v4 = parseIPv4(bare);
  if (v4 !== null) return { version: 4, value: v4 };
  const groups = bare.includes(':') ? parseIPv6(bare) : null;
  return groups ? { version: 6, groups } : null;
}

/** An IPv4 number in dotted-decimal text. */
function formatIPv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].join('.');
}

/**
 * The IPv4 ranges that are not global unicast: the IANA IPv4 special-purpose registry's entries that
 * are not globally reachable, with multicast and the reserved block. Everything else is global.
 */
const NON_GLOBAL_V4: readonly (readonly [base: string, bits: number, what: string])[] = [
  ['0.0.0.0', 8, '"this network"'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared address space (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local, where cloud metadata services answer'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'deprecated 6to4 relay anycast'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const V4_RANGES = NON_GLOBAL_V4.map(([base, bits, what]) => {
  const mask = (0xffffffff << (32 - bits)) >>> 0;
  return { net: ((parseIPv4(base) as number) & mask) >>> 0, mask, what };
});

/** What the IPv4 address `value` is when it is not global unicast (e.g. `'loopback'`); null when it is. */
function ipv4Problem(value: number): string | null {
  return V4_RANGES.find((r) => (value & r.mask) >>> 0 === r.net)?.what ?? null;
}

/**
 * What the IPv6 address `g` is when it is not global unicast; null when it is. Global unicast is
 * 2000::/3 less the IANA IPv6 special-purpose ranges that are not globally reachable. An IPv6 address
 * that embeds an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64's well-known prefix, 6to4) is
 * judged as that IPv4 address: that is where a packet to it ends up.
 */
function ipv6Problem(g: number[]): string | null {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const low32 = ((g6 << 16) | g7) >>> 0;
  const embedded = (form: string, v4: number) => {
    const what = ipv4Problem(v4);
    return what && `${form} of ${formatIPv4(v4)}, ${what}`;
  };
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0) {
    if (g5 === 0xffff) return embedded('the IPv4-mapped form', low32);
    if (g5 === 0) {
      if (low32 === 0) return 'unspecified';
      if (low32 === 1) return 'loopback';
      return embedded('the IPv4-compatible form', low32);
    }
  }
  if (g0 === 0x64 && g1 === 0xff9b) {
    if (g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return embedded('the NAT64 form (64:ff9b::/96)', low32);
    // RFC 8215: a NAT64 prefix of the local network, which may embed the IPv4 address at any of
    // RFC 6052's positions; what it reaches is local by definition.
    if (g2 === 1) return 'local-use NAT64 (64:ff9b:1::/48)';
  }
  if (g0 === 0x2002) return embedded('the 6to4 form (2002::/16)', ((g1 << 16) | g2) >>> 0);
  if ((g0 & 0xe000) !== 0x2000) {
    if ((g0 & 0xfe00) === 0xfc00) return 'unique local (fc00::/7)';
    if ((g0 & 0xffc0) === 0xfe80) return 'link-local (fe80::/10)';
    if ((g0 & 0xffc0) === 0xfec0) return 'site-local, deprecated (fec0::/10)';
    if ((g0 & 0xff00) === 0xff00) return 'multicast (ff00::/8)';
    return 'not global unicast (outside 2000::/3)';
  }
  if (g0 === 0x2001 && g1 === 0) {
    // The client's IPv4 address is the last 32 bits inverted, and the packet goes through a relay of
    // the sender's choosing: refused rather than judged.
    return 'Teredo (2001::/32), which is refused';
  }
  if (g0 === 0x2001 && g1 < 0x200) return 'IETF protocol assignments (2001::/23)';
  if (g0 === 0x2001 && g1 === 0xdb8) return 'documentation (2001:db8::/32)';
  if (g0 === 0x3fff && g1 < 0x1000) return 'documentation (3fff::/20)';
  return null;
}

/**
 * What `address` is when it is not a global unicast address, as a person reads it (`'loopback'`,
 * `'the IPv4-mapped form of 10.0.0.1, private'`); null for a global unicast address, and for text that
 * is no IP address (a host name).
 *
 * @example nonGlobalReason('::ffff:7f00:1') // 'the IPv4-mapped form of 127.0.0.1, loopback'
 */
export function nonGlobalReason(address: string): string | null {
  const ip = parseIp(address);
  if (!ip) return null;
  return ip.version === 4 ? ipv4Problem(ip.value) : ipv6Problem(ip.groups);
}
