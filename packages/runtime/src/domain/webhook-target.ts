import type { HostResolver } from '../context.ts';
import { nonGlobalReason, parseIp } from './ip-address.ts';

/** Names that reach the machine itself or a cloud's metadata service, whatever DNS says. */
const BLOCKED_NAMES = new Set(['localhost', 'metadata.google.internal', 'metadata']);

/** What an operator reads in every refusal of a private target: the setting that allows them. */
const ALLOW_HINT = 'a server run with WEBHOOK_ALLOW_PRIVATE=1 allows loopback and private targets';

/**
 * Thrown (or passed to a connection's callback) when a webhook would go to an address that may not
 * receive one: the message says why, as `webhookTargetProblem` does.
 */
export class WebhookTargetError extends Error {
  override readonly name = 'WebhookTargetError';
}

/**
 * Why the resolved address `address` of `host` may not receive webhooks, or null when it may (a
 * global unicast address). Any IPv4 address an IPv6 address embeds is judged as that IPv4 address.
 * The Node transport calls this in its connections' own DNS lookup, so the address checked is the
 * address connected to.
 */
export function resolvedAddressProblem(host: string, address: string): string | null {
  const why = nonGlobalReason(address);
  return why && `must be a public address: ${host} resolves to ${address} (${why}); ${ALLOW_HINT}`;
}

/** A URL's host as a name or address: without the brackets of an IPv6 literal or the trailing dot of a fully qualified name. */
function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * Why the host of `url` may not receive webhooks, judged without DNS, or null: a name that always
 * reaches the machine itself or a metadata service, or an IP address that is not global unicast.
 */
export function urlHostProblem(url: URL): string | null {
  const host = hostOf(url);
  if (BLOCKED_NAMES.has(host) || host.endsWith('.localhost') || host.endsWith('.internal')) return `must be a public address, not ${host}; ${ALLOW_HINT}`;
  const why = nonGlobalReason(host);
  return why && `must be a public address, not ${host} (${why}); ${ALLOW_HINT}`;
}

/**
 * What can be told of `url` as a webhook target without DNS: why it may not receive webhooks (null
 * when nothing so far refuses it), and the host name still to resolve and check (null when none is:
 * an address literal, private targets allowed, or a problem found already). See `webhookTargetProblem`.
 */
export function targetCheckWithoutDns(url: string, allowPrivate: boolean): { problem: string | null; lookup: string | null } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { problem: 'must be an absolute http(s) URL', lookup: null };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { problem: 'must be an http(s) URL', lookup: null };
  if (u.username || u.password) return { problem: 'must not carry credentials', lookup: null };
  if (allowPrivate) return { problem: null, lookup: null };
  const problem = urlHostProblem(u);
  const host = hostOf(u);
  return { problem, lookup: problem || parseIp(host) ? null : host };
}

/** Why the host name `host` may not receive webhooks once resolved by `resolve`: it does not resolve, or one of its addresses is not global unicast. */
export async function resolvedHostProblem(host: string, resolve: HostResolver): Promise<string | null> {
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return `its host ${host} does not resolve`;
  }
  for (const address of addresses) {
    const refused = resolvedAddressProblem(host, address);
    if (refused) return refused;
  }
  return null;
}

/**
 * Why `url` may not receive webhooks, or null when it may: it must be http(s), carry no credentials
 * and, unless `allowPrivate`, name a global unicast address: not loopback, private, link-local
 * (metadata), shared, documentation, multicast or reserved, nor an IPv6 form of any of them. A host
 * name is resolved when a resolver is given, and every address it resolves to is checked (at
 * registration, and before a delivery sent through a transport that cannot check the address it
 * connects to).
 */
export async function webhookTargetProblem(url: string, opts: { allowPrivate: boolean; resolve?: HostResolver | undefined }): Promise<string | null> {
  const { problem, lookup } = targetCheckWithoutDns(url, opts.allowPrivate);
  return lookup && opts.resolve ? resolvedHostProblem(lookup, opts.resolve) : problem;
}
