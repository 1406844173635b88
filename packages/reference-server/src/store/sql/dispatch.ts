import type { ClaimedDelivery, DeliveryRecord, DispatchPort } from '@engagekit/runtime/store';
import { takerSlot } from '@engagekit/runtime/store';
import { sql } from 'drizzle-orm';
import type { SqlConnection, StoreDatabase } from './connection.ts';
import { boolValue, isoOrNull, jsonValue, rowsOf } from './raw.ts';
import { deliveries } from './schema.ts';

/** The channel a PostgreSQL store notifies on when deliveries are queued. */
export const DELIVERIES_CHANNEL = 'engagekit_deliveries';

/** The columns of a DeliveryRecord (the claim columns stay inside the store). */
export const deliveryColumns = {
  id: deliveries.id,
  company_uuid: deliveries.company_uuid,
  endpoint_id: deliveries.endpoint_id,
  event_id: deliveries.event_id,
  event_type: deliveries.event_type,
  status: deliveries.status,
  attempt_count: deliveries.attempt_count,
  next_attempt_at: deliveries.next_attempt_at,
  attempts: deliveries.attempts,
  created_at: deliveries.created_at,
};

/** Subscribes to a notification channel; resolves to an unsubscribe function. */
export type Listen = (channel: string, onNotify: () => void) => Promise<() => Promise<void>>;

/** Claims due deliveries with what sending them needs, in one statement (see DispatchPort.claimDeliveries). */
async function claimDeliveries(
  db: StoreDatabase,
  { now, leaseUntil, claimToken, limit, perEndpoint, perCompany }: Parameters<DispatchPort['claimDeliveries']>[0],
): Promise<ClaimedDelivery[]> {
  // One statement, the runtime's fairClaimOrder (rules/webhook-claims.ts) in SQL: rank each endpoint's due
  // rows (its round), count what live leases hold of each endpoint and company, keep an endpoint's
  // rounds up to perEndpoint, then a company's in claim order up to perCompany; then lock what it
  // picked with SKIP LOCKED (FOR UPDATE cannot sit beside a window function), checking again that each
  // row is still free, and lease it. A row still under another claimer's token was held by one whose
  // lease ran out (finishAttempts clears the token): a take-over, as claimChunks tells of chunks.
  const result = await db.execute(sql`
    WITH held AS (
      SELECT h.endpoint_id, h.company_uuid, count(*) AS n FROM deliveries AS h
       WHERE h.status = 'pending' AND h.locked_until >= ${now}
       GROUP BY h.endpoint_id, h.company_uuid),
    company_held AS (SELECT company_uuid, sum(n) AS n FROM held GROUP BY company_uuid),
    due AS (
      SELECT d2.id, d2.company_uuid, d2.next_attempt_at, coalesce(he.n, 0) AS endpoint_held,
             row_number() OVER (PARTITION BY d2.endpoint_id ORDER BY d2.next_attempt_at, d2.id) AS round
        FROM deliveries AS d2
        JOIN webhook_endpoints AS e2 ON e2.id = d2.endpoint_id
        LEFT JOIN held AS he ON he.endpoint_id = d2.endpoint_id
       WHERE d2.status = 'pending' AND d2.next_attempt_at <= ${now}
         AND (d2.locked_until IS NULL OR d2.locked_until < ${now})
         AND e2.enabled),
    shared AS (
      SELECT due.id, due.round, due.next_attempt_at, coalesce(hc.n, 0) AS company_held,
             row_number() OVER (PARTITION BY due.company_uuid ORDER BY due.round, due.next_attempt_at, due.id) AS in_company
        FROM due
        LEFT JOIN company_held AS hc ON hc.company_uuid = due.company_uuid
       WHERE due.round + due.endpoint_held <= ${perEndpoint}),
    picked AS (
      SELECT shared.id FROM shared
       WHERE shared.in_company + shared.company_held <= ${perCompany}
       ORDER BY shared.round, shared.next_attempt_at, shared.id
       LIMIT ${limit}),
    locked AS (
      SELECT d3.id, d3.claim_token AS held_by FROM deliveries AS d3
       WHERE d3.id IN (SELECT id FROM picked) AND d3.status = 'pending'
         AND (d3.locked_until IS NULL OR d3.locked_until < ${now})
         FOR UPDATE SKIP LOCKED)
    UPDATE deliveries AS d
       SET claim_token = ${claimToken}, locked_until = ${leaseUntil}
      FROM locked AS l, webhook_endpoints AS e, events AS ev
     WHERE d.id = l.id
       AND e.id = d.endpoint_id AND ev.id = d.event_id
    RETURNING d.id, d.company_uuid, d.endpoint_id, d.event_id, d.event_type, d.status, d.attempt_count,
              d.next_attempt_at, d.attempts, d.created_at, d.trace_context, e.url, e.secret, e.previous_secrets, ev.payload,
              l.held_by IS NOT NULL AND l.held_by <> ${claimToken} AS taken_over`);
  return rowsOf(result).map(
    (r): ClaimedDelivery => ({
      delivery: {
        id: r.id as string,
        company_uuid: r.company_uuid as string,
        endpoint_id: r.endpoint_id as string,
        event_id: r.event_id as string,
        event_type: r.event_type as string,
        status: r.status as DeliveryRecord['status'],
        attempt_count: Number(r.attempt_count),
        next_attempt_at: isoOrNull(r.next_attempt_at),
        attempts: jsonValue(r.attempts),
        created_at: isoOrNull(r.created_at) as string,
        ...(typeof r.trace_context === 'string' && { trace_context: r.trace_context }),
      },
      endpoint: { id: r.endpoint_id as string, url: r.url as string, secret: r.secret as string, previous_secrets: jsonValue(r.previous_secrets) },
      payload: jsonValue(r.payload),
      claimToken,
      ...(boolValue(r.taken_over) && { taken_over: true }),
    }),
  );
}

/** Records finished attempts, several in one statement (see DispatchPort.finishAttempts); gives the ids it recorded. */
async function finishAttempts(db: StoreDatabase, finished: Parameters<DispatchPort['finishAttempts']>[0], now: string): Promise<Set<string>> {
  if (finished.length === 0) return new Set();
  const input = finished.map(({ id, claimToken, outcome }) => ({
    id,
    claim_token: claimToken,
    attempt: outcome.attempt,
    status: outcome.status === 'retry' ? 'pending' : outcome.status,
    next_attempt_at: outcome.status === 'retry' ? outcome.nextAttemptAt : null,
    disable: outcome.disableEndpoint ?? null,
  }));
  // One statement for the whole batch: record every attempt and, on a 410, disable its endpoint.
  const done = await db.execute(sql`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
        AS x(id text, claim_token text, attempt jsonb, status text, next_attempt_at timestamptz, disable text)),
    finished AS (
      UPDATE deliveries AS d
         SET attempts = d.attempts || jsonb_build_array(i.attempt),
             attempt_count = d.attempt_count + 1,
             status = i.status,
             next_attempt_at = i.next_attempt_at,
             claim_token = NULL, locked_until = NULL
        FROM input AS i
       WHERE d.id = i.id AND d.claim_token = i.claim_token AND d.status = 'pending'
      RETURNING d.id, d.endpoint_id, i.disable),
    disabled AS (
      UPDATE webhook_endpoints AS e SET enabled = false, disabled_reason = f.disable, updated_at = ${now}
        FROM finished AS f
       WHERE f.disable IS NOT NULL AND e.id = f.endpoint_id
      RETURNING e.id)
    SELECT id FROM finished`);
  return new Set(rowsOf(done).map((r) => r.id as string));
}

/**
 * The SQL store's dispatch on `conn` (the pool, or one transaction). `committed` is what this process's
 * writes call after they commit; on PostgreSQL, `listen` also brings the other processes' NOTIFY.
 */
export function createSqlDispatch({ db }: SqlConnection, listen: Listen | undefined) {
  const listeners = new Set<() => void>();
  const taker = takerSlot();
  let unlisten: (() => Promise<void>) | undefined;
  const fire = () => {
    for (const l of listeners) l();
  };

  const methods: DispatchPort = {
    claimDeliveries: (claim) => claimDeliveries(db, claim),

    finishAttempts: (finished, now) => finishAttempts(db, finished, now),

    async nextDeliveryDue(after) {
      const later = after === undefined ? sql`` : sql` AND next_attempt_at > ${after}`;
      const [row] = rowsOf(await db.execute(sql`SELECT min(next_attempt_at) AS at FROM deliveries WHERE status = 'pending'${later}`));
      return isoOrNull(row?.at);
    },

    async onDeliveriesQueued(listener) {
      listeners.add(listener);
      if (listen && !unlisten) unlisten = await listen(DELIVERIES_CHANNEL, fire);
      return async () => {
        listeners.delete(listener);
        if (listeners.size === 0 && unlisten) {
          const stop = unlisten;
          unlisten = undefined;
          await stop();
        }
      };
    },

    takeOnWrite: taker.set,
  };

  return {
    methods,
    lease: taker.lease,
    /** This process queued deliveries and committed: `claimed` (those leased) go to the taker, the others wake the listeners. */
    committed(claimed: readonly ClaimedDelivery[] | null) {
      if (claimed) taker.handOver(claimed);
      else queueMicrotask(fire);
    },
    async close() {
      listeners.clear();
      await unlisten?.();
      unlisten = undefined;
    },
  };
}
