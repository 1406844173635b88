/**
 * The outbox: an event appended with its pending deliveries in one statement, in the transaction of
 * the change it reports, and how this process's dispatcher hears of them.
 */
import { type ClaimedDelivery, type DeliveryRecord, type EndpointRecord, type EventRecord, iso, type WriteLease } from '@engagekit/runtime/store';
import { type SQL, sql } from 'drizzle-orm';
import { builtOnce, placeholders, rowValues } from './built-once.ts';
import type { SqlConnection, StoreDatabase } from './connection.ts';
import { DELIVERIES_CHANNEL } from './dispatch.ts';
import { jsonValue, type Row, rowsOf } from './raw.ts';
import { deliveries, events, recordColumns } from './schema.ts';

/** How the deliveries the SQL store writes reach this process's dispatcher. */
export interface Outbox {
  /** The taker's lease of `deliveries` being written, or null. */
  lease(deliveries: readonly DeliveryRecord[]): WriteLease | null;
  /** Deliveries were written: `claimed` are those leased (to an enabled endpoint), null when none was leased. */
  written(claimed: readonly ClaimedDelivery[] | null): void;
}

// What an insert gives (the database numbers `created_seq`); a delivery's claim columns too.
const eventTableColumns = recordColumns(events);
const deliveryTableColumns = recordColumns(deliveries);

/**
 * One statement appending an event and its deliveries (the rows to insert; drizzle puts each query in
 * parentheses). Without `leasedTo` it ends in a NOTIFY, which the other processes on the database hear
 * at commit; with it (the ids of the deliveries' endpoints) it reads back the sending details of those
 * endpoints that are enabled, and the payload of an event appended before (the statement does not see
 * its own insert: null for a new one).
 */
function appendStatement(db: StoreDatabase, event: Record<string, unknown>, added: object[], leasedTo: SQL | null) {
  const appendedSql = db
    .insert(events)
    .values(event as never)
    .onConflictDoNothing();
  const addedSql = db.insert(deliveries).values(added as never);
  if (!leasedTo) return db.execute(sql`WITH appended AS ${appendedSql}, added AS ${addedSql} SELECT pg_notify(${DELIVERIES_CHANNEL}, '')`);
  return db.execute(sql`
    WITH appended AS ${appendedSql}, added AS ${addedSql}
    SELECT e.id, e.url, e.secret, e.previous_secrets, (SELECT ev.payload FROM events AS ev WHERE ev.id = ${event.id}) AS stored_payload
      FROM webhook_endpoints AS e WHERE e.id = ANY(${leasedTo}) AND e.enabled`);
}

// An order write's event, alone or with one delivery, by statements built once (webhooks.latency.p50;
// see built-once.ts).
const eventPlaceholders = placeholders(eventTableColumns, 'event_');
const oneDeliveryPlaceholders = [placeholders(deliveryTableColumns, 'delivery_')];
const appendEventStatement = builtOnce('engagekit_append_event', (db) =>
  db
    .insert(events)
    .values(eventPlaceholders as never)
    .onConflictDoNothing(),
);
const appendWithDeliveryStatement = builtOnce('engagekit_append_event_delivery', (db) => appendStatement(db, eventPlaceholders, oneDeliveryPlaceholders, null));
const appendLeasedStatement = builtOnce('engagekit_append_event_leased', (db) =>
  appendStatement(db, eventPlaceholders, oneDeliveryPlaceholders, sql`${sql.placeholder('endpointIds')}::text[]`),
);

/** The deliveries leased under `lease` whose endpoint came back enabled (`rows`), with what sending them needs. */
function claimedOf(rows: Row[], records: DeliveryRecord[], event: EventRecord, lease: WriteLease): ClaimedDelivery[] {
  // An event appended before keeps its payload (the statement does not see its own insert: null for a new one).
  const stored = rows[0]?.stored_payload;
  const payload = stored === null || stored === undefined ? event.payload : jsonValue<EventRecord['payload']>(stored);
  const endpoints = new Map(rows.map((r) => [r.id as string, r]));
  const claimed: ClaimedDelivery[] = [];
  for (const delivery of records) {
    const e = endpoints.get(delivery.endpoint_id);
    if (!e) continue;
    const endpoint = {
      id: delivery.endpoint_id,
      url: e.url as string,
      secret: e.secret as string,
      previous_secrets: jsonValue<EndpointRecord['previous_secrets']>(e.previous_secrets),
    };
    claimed.push({ delivery, endpoint, payload, claimToken: lease.claimToken });
  }
  return claimed;
}

/** Appends `event` and its `pending` deliveries on `conn` (see OrderPort.appendEvent); `outbox` hears of the deliveries. */
export async function appendEvent(conn: SqlConnection, outbox: Outbox, event: EventRecord, pending: readonly DeliveryRecord[]): Promise<void> {
  const row = { ...event, created_at: iso(event.created_at) };
  const values = rowValues(eventTableColumns, row, 'event_');
  if (pending.length === 0) {
    await appendEventStatement(conn, values);
    return;
  }
  const records = pending.map((r) => ({ ...r, created_at: iso(r.created_at) }));
  const lease = outbox.lease(records);
  // One delivery (an order write's usual case: one endpoint) by a statement built once; more by one built for them.
  const withDelivery = (record: object) => ({ ...values, ...rowValues(deliveryTableColumns, record, 'delivery_') });
  if (!lease) {
    // With a NOTIFY the other processes on the database hear at commit (this one through `outbox`).
    const [only] = records;
    if (only && records.length === 1) await appendWithDeliveryStatement(conn, withDelivery(only));
    else await appendStatement(conn.db, row, records, null);
    outbox.written(null);
    return;
  }
  // Leased to this process's dispatcher, which gets them at commit: no NOTIFY, and the sending
  // details of their enabled endpoints come back with the write.
  const leased = records.map((r) => ({ ...r, claim_token: lease.claimToken, locked_until: lease.leaseUntil }));
  const endpointIds = [...new Set(records.map((r) => r.endpoint_id))];
  const [only] = leased;
  const rows =
    only && leased.length === 1
      ? await appendLeasedStatement(conn, { ...withDelivery(only), endpointIds })
      : rowsOf(await appendStatement(conn.db, row, leased, sql`${sql.param(endpointIds)}::text[]`));
  outbox.written(claimedOf(rows, records, event, lease));
}
