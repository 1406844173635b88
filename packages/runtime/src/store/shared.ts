/** Helpers both store implementations share, so memory and SQL agree on time formats and order. */
import { sumAmounts } from '../money.ts';
import type { ClaimedDelivery, DeliveryRecord, DeliveryTaker, OrderRecord, PageRequest, PhoneOrders } from './types.ts';

/** A timestamp as ISO-8601 UTC with milliseconds (`2025-01-15T10:00:00.000Z`), whatever offset it came with. */
export function iso(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new Error(`Invalid timestamp: "${value}".`);
  return date.toISOString();
}

/** The number of rows a page skips. */
export function pageOffset(page: PageRequest): number {
  return (page.page - 1) * page.limit;
}

/**
 * Oldest first, by `created_at` alone: for a stable sort of records already in the order they were
 * made, which keeps that order among records of one instant (the SQL store's `created_seq`).
 */
export function compareCreatedAt(a: { created_at: string }, b: { created_at: string }): number {
  return a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0;
}

/**
 * What the orders of one phone number come to (null for none): their count, exact total, and the
 * most recently updated one, ties going to the larger id (the SQL store orders by the same).
 */
export function phoneOrdersOf(orders: readonly OrderRecord[]): PhoneOrders | null {
  let latest = orders[0];
  if (!latest) return null;
  for (const order of orders) {
    if (order.updated_at > latest.updated_at || (order.updated_at === latest.updated_at && order.id > latest.id)) latest = order;
  }
  return { count: orders.length, amount: sumAmounts(orders.map((order) => order.totalAmount)), latest };
}

/** What `fairClaimOrder` reads of a due delivery. */
export interface DueDelivery {
  id: string;
  company_uuid: string;
  endpoint_id: string;
  next_attempt_at: string | null;
}

/** How many deliveries a claim may take of one endpoint and of one company, counting those held under live leases. */
export interface ClaimShares {
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
 * order); `limit` in all. The SQL store's claim statement is this rule with window functions.
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

/** A lease of deliveries being written, to the taker of `takeOnWrite`. */
export interface WriteLease {
  claimToken: string;
  leaseUntil: string;
}

/** Where a store keeps its `takeOnWrite` takers, asks them for leases and hands each what it leased. */
export function takerSlot() {
  const takers = new Set<DeliveryTaker>();
  return {
    set(taker: DeliveryTaker): () => void {
      takers.add(taker);
      return () => void takers.delete(taker);
    },
    /** A lease of `deliveries` being written, from the first taker with room for them; null when none has. */
    lease(deliveries: readonly DeliveryRecord[]): WriteLease | null {
      for (const taker of takers) {
        const leaseUntil = taker.leaseUntil(deliveries);
        if (leaseUntil) return { claimToken: taker.claimToken, leaseUntil };
      }
      return null;
    },
    /** Hands committed deliveries to the taker that leased them (one that has stopped since gets nothing: their lease lapses). */
    handOver(claimed: readonly ClaimedDelivery[]): void {
      if (claimed.length === 0) return;
      for (const taker of takers) if (taker.claimToken === claimed[0]?.claimToken) taker.take([...claimed]);
    },
  };
}

/**
 * The ranges of a run's chunks from the ids that end them (every `chunkSize`-th customer by id, but
 * the last customer): after one id, through the next; the last chunk is open-ended, so it also takes
 * customers who came after the run was planned.
 */
export function chunkRanges(throughIds: readonly string[]): { after_id: string | null; through_id: string | null }[] {
  const ranges: { after_id: string | null; through_id: string | null }[] = [];
  let after: string | null = null;
  for (const through of throughIds) {
    ranges.push({ after_id: after, through_id: through });
    after = through;
  }
  ranges.push({ after_id: after, through_id: null });
  return ranges;
}
