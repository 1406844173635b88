import type { HostResolver } from '../context.ts';

/** IPv4 ranges no webhook may target: loopback, private, link-local (cloud metadata), CGNAT, "this network", multicast, reserved. */
const BLOCKED_V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

function v4ToInt(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    n = n * 256 + Number(p);
  }
  return n;
}

/** True when `ip` (v4 or v6 text) is loopback, private, link-local, metadata or otherwise not public. */
export function isPrivateAddress(ip: string): boolean {
  const addr = ip.replace(/^\[|\]$/g, '').toLowerCase();
  const v4 = v4ToInt(addr);
  if (v4 !== null) {
    return BLOCKED_V4.some(([base, bits]) => {
      const b = v4ToInt(base) as number;
      const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
      return (v4 & mask) >>> 0 === (b & mask) >>> 0;
    });
  }
  if (!addr.includes(':')) return false;
  if (addr === '::' || addr === '::1') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(addr);
  if (mapped?.[1]) return isPrivateAddress(mapped[1]);
  const first = Number.parseInt(addr.split(':')[0] || '0', 16);
  return (
    (first & 0xfe00) === 0xfc00 /* fc00::/7 unique local */ || (first & 0xffc0) === 0xfe80 /* fe80::/10 link-local */ || (first & 0xff00) === 0xff00
  ); /* multicast */
}

const BLOCKED_NAMES = new Set(['localhost', 'metadata.google.internal', 'metadata']);

/**
 * Why `url` may not receive webhooks, or null when it may: it must be http(s) to a public address.
 * Host names are resolved (when a resolver is given) and every address they resolve to is checked,
 * at registration and again before each delivery, since DNS can change.
 */
export async function webhookTargetProblem(url: string, opts: { allowPrivate: boolean; resolve?: HostResolver | undefined }): Promise<string | null> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'must be an absolute http(s) URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'must be an http(s) URL';
  if (u.username || u.password) return 'must not carry credentials';
  if (opts.allowPrivate) return null;
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (BLOCKED_NAMES.has(host) || host.endsWith('.localhost') || host.endsWith('.internal')) return `must be a public address, not ${host}`;
  if (isPrivateAddress(host)) return `must be a public address, not ${host} (loopback, private, link-local and metadata addresses are refused)`;
  if (opts.resolve && v4ToInt(host) === null && !host.includes(':')) {
    let addresses: string[];
    try {
      addresses = await opts.resolve(host);
    } catch {
      return `its host ${host} does not resolve`;
    }
    const bad = addresses.find(isPrivateAddress);
    if (bad) return `must be a public address: ${host} resolves to ${bad}`;
  }
  return null;
}
