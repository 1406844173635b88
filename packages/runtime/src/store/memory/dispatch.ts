import { fairClaimOrder } from '../../rules/webhook-claims.ts';
import { copy } from '../copy.ts';
import type { Store } from '../ports.ts';
import { takerSlot, type WriteLease } from '../shared.ts';
import type { ClaimedDelivery, DeliveryRecord, EndpointRecord, EventRecord } from '../types.ts';

type DispatchMethods = Pick<Store, 'claimDeliveries' | 'finishAttempts' | 'nextDeliveryDue' | 'onDeliveriesQueued' | 'takeOnWrite'>;

/** The memory store's maps the dispatch methods read and change. */
interface DispatchMaps {
  deliveries: Map<string, DeliveryRecord>;
  endpoints: Map<string, EndpointRecord>;
  events: Map<string, EventRecord>;
}

/** What sending `d` needs, under `claimToken`; null when its endpoint is disabled or gone. */
function claimedOf(maps: DispatchMaps, d: DeliveryRecord, claimToken: string): ClaimedDelivery | null {
  const endpoint = maps.endpoints.get(d.endpoint_id);
  if (!endpoint?.enabled) return null;
  return {
    delivery: copy(d),
    endpoint: { id: endpoint.id, url: endpoint.url, secret: endpoint.secret, previous_secrets: copy(endpoint.previous_secrets) },
    payload: copy(maps.events.get(d.event_id)?.payload ?? {}),
    claimToken,
  };
}

/**
 * Records a finished attempt on its delivery, if the delivery is still pending under the attempt's
 * claim; a 410 disables its endpoint. Returns whether it was recorded.
 */
function recordAttempt(
  s: { maps: DispatchMaps; pending: Set<string>; claims: Map<string, { token: string; until: string }> },
  { id, claimToken, outcome }: Parameters<Store['finishAttempts']>[0][number],
  now: string,
): boolean {
  const d = s.maps.deliveries.get(id);
  if (!d || s.claims.get(id)?.token !== claimToken || d.status !== 'pending') return false;
  s.claims.delete(id);
  d.attempts.push(copy(outcome.attempt));
  d.attempt_count += 1;
  d.status = outcome.status === 'retry' ? 'pending' : outcome.status;
  d.next_attempt_at = outcome.status === 'retry' ? outcome.nextAttemptAt : null;
  if (d.status !== 'pending') s.pending.delete(id);
  const endpoint = s.maps.endpoints.get(d.endpoint_id);
  if (outcome.disableEndpoint && endpoint) {
    endpoint.enabled = false;
    endpoint.disabled_reason = outcome.disableEndpoint;
    endpoint.updated_at = now;
  }
  return true;
}

/**
 * The dispatch half of the memory store, over its maps. `queued` is called for every new pending
 * delivery and `forget` for one removed; the rest are the Store's dispatch methods.
 */
export function createMemoryDispatch(maps: DispatchMaps) {
  const pending = new Set<string>();
  const claims = new Map<string, { token: string; until: string }>();
  const listeners = new Set<() => void>();
  const taker = takerSlot();
  let notifyScheduled = false;

  const claimed = (d: DeliveryRecord, claimToken: string) => claimedOf(maps, d, claimToken);

  const methods: DispatchMethods = {
    async claimDeliveries({ now, leaseUntil, claimToken, limit, perEndpoint, perCompany }) {
      const due: DeliveryRecord[] = [];
      const byEndpoint = new Map<string, number>();
      const byCompany = new Map<string, number>();
      // Still under another claimer's claim whose lease ran out: that claimer died, or stopped, holding it.
      const lapsed = new Set<string>();
      for (const id of pending) {
        const d = maps.deliveries.get(id);
        if (d?.status !== 'pending') continue;
        const claim = claims.get(id);
        if (claim && claim.until >= now) {
          byEndpoint.set(d.endpoint_id, (byEndpoint.get(d.endpoint_id) ?? 0) + 1);
          byCompany.set(d.company_uuid, (byCompany.get(d.company_uuid) ?? 0) + 1);
          continue;
        }
        if (claim && claim.token !== claimToken) lapsed.add(id);
        if (!d.next_attempt_at || d.next_attempt_at > now) continue;
        if (!maps.endpoints.get(d.endpoint_id)?.enabled) continue;
        due.push(d);
      }
      const shares = {
        limit,
        perEndpoint,
        perCompany,
        heldByEndpoint: (endpointId: string) => byEndpoint.get(endpointId) ?? 0,
        heldByCompany: (companyUuid: string) => byCompany.get(companyUuid) ?? 0,
      };
      return fairClaimOrder(due, shares).map((d) => {
        claims.set(d.id, { token: claimToken, until: leaseUntil });
        const c = claimed(d, claimToken) as ClaimedDelivery;
        return lapsed.has(d.id) ? { ...c, taken_over: true } : c;
      });
    },

    async finishAttempts(finished, now) {
      const done = new Set<string>();
      for (const item of finished) if (recordAttempt({ maps, pending, claims }, item, now)) done.add(item.id);
      return done;
    },

    async nextDeliveryDue(after) {
      let min: string | null = null;
      for (const id of pending) {
        const at = maps.deliveries.get(id)?.next_attempt_at;
        if (at && (after === undefined || at > after) && (min === null || at < min)) min = at;
      }
      return min;
    },

    async onDeliveriesQueued(listener) {
      listeners.add(listener);
      return async () => {
        listeners.delete(listener);
      };
    },

    takeOnWrite: taker.set,
  };

  return {
    methods,
    /** What it keeps, for the store's snapshots (its listeners are not state). */
    state: { pending, claims },
    lease: taker.lease,
    /**
     * A new pending delivery. Leased (to the taker), it is claimed at once and what sending it needs is
     * returned, for `handOver` once it is committed; otherwise listeners hear of it.
     */
    queued(delivery: DeliveryRecord, lease: WriteLease | null): ClaimedDelivery | null {
      pending.add(delivery.id);
      if (lease) {
        claims.set(delivery.id, { token: lease.claimToken, until: lease.leaseUntil });
        return claimed(delivery, lease.claimToken);
      }
      if (notifyScheduled || listeners.size === 0) return null;
      notifyScheduled = true;
      queueMicrotask(() => {
        notifyScheduled = false;
        for (const l of listeners) l();
      });
      return null;
    },
    handOver: taker.handOver,
    /** Extends the leases of pending deliveries held under `claimToken`. */
    renew(claimToken: string, leaseUntil: string): void {
      for (const [id, claim] of claims) if (claim.token === claimToken && pending.has(id)) claim.until = leaseUntil;
    },
    forget(id: string) {
      pending.delete(id);
      claims.delete(id);
    },
    clear() {
      pending.clear();
      claims.clear();
      listeners.clear();
    },
  };
}
