/**
 * The domain's decision of which due webhook deliveries a claim takes, and in what order, that a store
 * carries out inside its claim: round the due endpoints, within each endpoint's and each company's
 * share. The memory store calls `fairClaimOrder`; the SQL store's claim statement writes the same rule
 * with window functions (`store/sql/dispatch.ts` of the reference server), and the store conformance
 * suite pins both. The dispatcher gives the shares (`claimDeliveries`' `perEndpoint`, `perCompany`).
 * Pure: it imports nothing, so a store may use it.
 */

/** What `fairClaimOrder` reads of a due delivery. */
interface DueDelivery {
  id: string;
  company_uuid: string;
  endpoint_id: string;
  next_attempt_at: string | null;
}

/** How many deliveries a claim may take of one endpoint and of one company, counting those held under live leases. */
interface ClaimShares {
  limit: number;
  perEndpoint: number;
  perCompany: number;
  /** Deliveries of the endpoint, or of the company, held under live leases (by any claimer). */
  heldByEndpoint: (endpointId: string) => number;
  heldByCompany: (companyUuid: string) => number;
}

/**
 * The deliveries a claim takes, in the order it takes them (see DispatchPort.claimDeliveries): each
 * endpoint's due deliveries ranked oldest due first (`next_attempt_at`, then id), its round; every
 * endpoint's first, then every endpoint's second..., oldest due first within a round; an endpoint gets at
 * most `perEndpoint` minus what it holds, a company at most `perCompany` minus what it holds (in that
 * order); `limit` in all.
 */
export function fairClaimOrder<T extends DueDelivery>(due: readonly T[], shares: ClaimShares): T[] {
  const byDue = (a: DueDelivery, b: DueDelivery) => {
    const x = a.next_attempt_at ?? '';
    const y = b.next_attempt_at ?? '';
    return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
  const inOrder = (a: { d: T; round: number }, b: { d: T; round: number }) => a.round - b.round || byDue(a.d, b.d);
  const rounds = new Map<string, number>();
  const ranked: { d: T; round: number }[] = [];
  for (const d of [...due].sort(byDue)) {
    const round = (rounds.get(d.endpoint_id) ?? 0) + 1;
    rounds.set(d.endpoint_id, round);
    if (round + shares.heldByEndpoint(d.endpoint_id) <= shares.perEndpoint) ranked.push({ d, round });
  }
  ranked.sort(inOrder);
  const taken = new Map<string, number>();
  const picked: T[] = [];
  for (const { d } of ranked) {
    const n = (taken.get(d.company_uuid) ?? 0) + 1;
    taken.set(d.company_uuid, n);
    if (n + shares.heldByCompany(d.company_uuid) <= shares.perCompany) picked.push(d);
  }
  return picked.slice(0, Math.max(0, shares.limit));
}
