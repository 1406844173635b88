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
