import {
  type CampaignRecord,
  type ClaimedDelivery,
  copy,
  countIntoFunnel,
  type DeliveryRecord,
  type EndpointRecord,
  type EventRecord,
  iso,
  noMessages,
  pageOffset,
  type Store,
  StoreConflictError,
  type WriteLease,
} from '@engagekit/runtime/store';
import { and, count, desc, eq, gt, lte, type SQL, sql } from 'drizzle-orm';
import { batchedRead, distinctKeys } from './batched-read.ts';
import { builtOnce, placeholders, rowValues } from './built-once.ts';
import { campaignColumns, createSqlCampaignRuns } from './campaign-runs.ts';
import { createSqlDispatch, DELIVERIES_CHANNEL, deliveryColumns, type Listen } from './dispatch.ts';
import { createSqlIdempotency } from './idempotency.ts';
import { advisoryLocks, customerColumns, orderColumns, type SqlDatabase, sqlOrders } from './orders.ts';
import { jsonValue, rowsOf } from './raw.ts';
import { campaigns, companies, customers, deliveries, events, orders, recordColumns, settings, templates, webhookEndpoints } from './schema.ts';
import { inTransaction, type WritesAhead } from './writes-ahead.ts';

/** The fields of a PostgreSQL error the store looks at (node-postgres and PGlite both set them; drizzle wraps them in `cause`). */
interface PgErrorFields {
  code: string;
  constraint?: string;
}

/** The PostgreSQL error behind `error` (drizzle wraps driver errors in a `DrizzleQueryError`), if any. */
export function findPgError(error: unknown): PgErrorFields | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const candidate = current as { code?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) return candidate as PgErrorFields;
    current = candidate.cause;
  }
  return undefined;
}

/** Turns a unique violation (23505) of `constraint` into `conflict`; any other error comes back as it was. */
function mapUniqueViolation(error: unknown, constraint: string, conflict: () => StoreConflictError): unknown {
  const pg = findPgError(error);
  return pg?.code === '23505' && pg.constraint === constraint ? conflict() : error;
}

const endpointColumns = recordColumns(webhookEndpoints);
const templateColumns = recordColumns(templates);
const eventColumns = recordColumns(events);
/** The company's endpoints, read in every order write (webhooks.latency.p50; see built-once.ts). */
const allEndpointsStatement = builtOnce<EndpointRecord>(
  (db) =>
    db
      .select(endpointColumns)
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.company_uuid, sql.placeholder('companyUuid')))
      .orderBy(webhookEndpoints.created_at, webhookEndpoints.created_seq),
  endpointColumns,
);

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
function appendStatement(db: SqlDatabase, event: Record<string, unknown>, added: object[], leasedTo: SQL | null) {
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

// An order write's event, alone or with one delivery, by statements built once (webhooks.latency.p50:
// building the statement took 135-210 µs of CPU an order, running it built once 13-18; see built-once.ts).
const eventPlaceholders = placeholders(eventTableColumns, 'event_');
const oneDeliveryPlaceholders = [placeholders(deliveryTableColumns, 'delivery_')];
const appendEventStatement = builtOnce((db) =>
  db
    .insert(events)
    .values(eventPlaceholders as never)
    .onConflictDoNothing(),
);
const appendWithDeliveryStatement = builtOnce((db) => appendStatement(db, eventPlaceholders, oneDeliveryPlaceholders, null));
const leasedFields = { id: sql`id`, url: sql`url`, secret: sql`secret`, previous_secrets: sql`previous_secrets`, stored_payload: sql`stored_payload` };
const appendLeasedStatement = builtOnce<Record<string, unknown>>(
  (db) => appendStatement(db, eventPlaceholders, oneDeliveryPlaceholders, sql`${sql.placeholder('endpointIds')}::text[]`),
  leasedFields,
);

/** The largest value of a PostgreSQL `integer` column. */
const MAX_INT32 = 2_147_483_647;

// The reads of a page of campaigns (getCampaignData) and of a report (reportingCampaign), built once:
// drizzle builds a statement's text from its parts each time it runs, and under the load of the row
// server.rss that building was a quarter of all the server allocated (see built-once.ts; BENCHMARKS.md,
// "Round two, sixteenth pass").
const campaignPageStatement = builtOnce<CampaignRecord>(
  (db) =>
    db
      .select(campaignColumns)
      .from(campaigns)
      .where(
        and(eq(campaigns.company_uuid, sql.placeholder('companyUuid')), gt(campaigns.seq, sql.placeholder('from')), lte(campaigns.seq, sql.placeholder('to'))),
      )
      .orderBy(campaigns.seq),
  campaignColumns,
);
const campaignSeqFields = { seq: companies.campaign_seq };
const campaignSeqStatement = builtOnce<{ seq: number }>(
  (db) =>
    db
      .select(campaignSeqFields)
      .from(companies)
      .where(eq(companies.uuid, sql.placeholder('companyUuid'))),
  campaignSeqFields,
);
const statusCountFields = { status: campaigns.status, n: count() };
const statusCountsStatement = builtOnce<{ status: string; n: number }>(
  (db) =>
    db
      .select(statusCountFields)
      .from(campaigns)
      .where(eq(campaigns.company_uuid, sql.placeholder('companyUuid')))
      .groupBy(campaigns.status),
  statusCountFields,
);
const orderTotalFields = { total: count(), amount: sql<string>`coalesce(sum(${orders.totalAmount}), 0)::text`.mapWith(Number) };
const orderTotalsStatement = builtOnce<{ total: number; amount: number }>(
  (db) =>
    db
      .select(orderTotalFields)
      .from(orders)
      .where(eq(orders.company_uuid, sql.placeholder('companyUuid'))),
  orderTotalFields,
);
const countFields = { n: count() };
const customerCountStatement = builtOnce<{ n: number }>(
  (db) =>
    db
      .select(countFields)
      .from(customers)
      .where(eq(customers.company_uuid, sql.placeholder('companyUuid'))),
  countFields,
);
// One statement, one row a campaign: the unique (company_uuid, seq) index read backwards for the last
// `limit` campaigns, then each one's count rows and runs found by its key (the primary keys of
// message_counts and campaign_runs). Reading the newest campaigns, then their counts by a list of ids,
// took two round trips and scanned the company's count rows (server.report.1m-messages).
const newestCampaignsStatement = builtOnce((db) =>
  db.execute(sql`
    SELECT c.id, c.name, c.status, m.counts, r.runs, r.last_run_at
      FROM (SELECT id, name, status, seq FROM campaigns WHERE company_uuid = ${sql.placeholder('companyUuid')} ORDER BY seq DESC LIMIT ${sql.placeholder('limit')}) AS c
      LEFT JOIN LATERAL (SELECT json_object_agg(status, n) AS counts FROM message_counts WHERE campaign_id = c.id) AS m ON true
      LEFT JOIN LATERAL (SELECT count(*)::int AS runs, max(run_key) AS last_run_at FROM campaign_runs WHERE campaign_id = c.id) AS r ON true
     ORDER BY c.seq DESC`),
);

const companyColumns = {
  uuid: companies.uuid,
  company_id: companies.company_id,
  name: companies.name,
  timezone: companies.timezone,
  created_at: companies.created_at,
};

/** Only the keys whose value is given (`undefined` means "leave as it is"). */
function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** How the SQL store reads, by driver (its speed, not its behaviour). */
export interface SqlStoreTuning {
  /**
   * Campaign reads' queries in flight at once (see batchedRead): 4 on a PostgreSQL pool; 1 on PGlite,
   * whose thread runs one query at a time, so the reads that wait for it all share its next query
   * (server.read.pglite.vs-node-http: 0.176-0.21 with 4, 0.206-0.264 with 1, in turns).
   */
  readConcurrency: number;
}

/**
 * The `Store` over a drizzle database (PGlite or node-postgres, already migrated). `close` releases
 * the driver. Use `openSqlStore`, which opens, migrates and wires this up.
 */
export function createSqlStore(db: SqlDatabase, close: () => Promise<void>, tuning: SqlStoreTuning, listen?: Listen): Store {
  const dispatch = createSqlDispatch(db, listen);
  // The hottest reads, as prepared statements: planned once per connection, built once here.
  const getCompanyStatement = db
    .select(companyColumns)
    .from(companies)
    .where(eq(companies.uuid, sql.placeholder('uuid')))
    .prepare('engagekit_get_company');
  const getCampaignStatement = db
    .select(campaignColumns)
    .from(campaigns)
    .where(and(eq(campaigns.company_uuid, sql.placeholder('companyUuid')), eq(campaigns.id, sql.placeholder('id'))))
    .prepare('engagekit_get_campaign');
  // Campaign reads by many requests at once share queries while the database is busy (see batchedRead;
  // it serves the benchmark row server.read.pg.vs-node-http: 0.16 of node:http without it, 0.34 with it):
  // each query costs a round trip (to PostgreSQL over the network; to PGlite, a message to its thread)
  // and the database's work per statement, which one query for many keys shares. A key the batch names
  // more than once is read once, and each caller still gets a record of its own (see distinctKeys).
  const getCampaignsStatement = db
    .select({ ord: sql<number>`k.ord`.mapWith(Number), ...campaignColumns })
    .from(sql`unnest(${sql.placeholder('companyUuids')}::text[], ${sql.placeholder('ids')}::text[]) with ordinality as k(company_uuid, id, ord)`)
    .innerJoin(campaigns, and(eq(campaigns.company_uuid, sql`k.company_uuid`), eq(campaigns.id, sql`k.id`)))
    .prepare('engagekit_get_campaigns');
  const readCampaign = batchedRead<{ companyUuid: string; id: string }, CampaignRecord>({
    concurrency: tuning.readConcurrency,
    maxBatch: 64,
    one: async (key) => ((await getCampaignStatement.execute(key))[0] as CampaignRecord | undefined) ?? null,
    many: distinctKeys(
      (key) => `${key.companyUuid}/${key.id}`,
      copy,
      async (keys) => {
        const rows = await getCampaignsStatement.execute({ companyUuids: keys.map((k) => k.companyUuid), ids: keys.map((k) => k.id) });
        const found: (CampaignRecord | null)[] = keys.map(() => null);
        for (const { ord, ...campaign } of rows) found[ord - 1] = campaign as CampaignRecord;
        return found;
      },
    ),
  });
  const store: Store = {
    // Outside a transaction each statement commits as it ends: what it queued is handed over at once.
    ...sqlMethods(db, { lease: dispatch.lease, written: dispatch.committed }),
    async getCompany(uuid) {
      const [row] = await getCompanyStatement.execute({ uuid });
      return row ?? null;
    },
    getCampaign(companyUuid, id) {
      return readCampaign({ companyUuid, id });
    },
    ...dispatch.methods,
    async transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
      const written: (readonly ClaimedDelivery[] | null)[] = [];
      const result = await inTransaction(
        (work: (tx: SqlDatabase) => Promise<T>) => db.transaction(work),
        (tx, ahead) => fn(transactionStore(tx, { lease: dispatch.lease, written: (claimed) => written.push(claimed) }, ahead)),
      );
      // The dispatcher here gets (or hears of) deliveries once they are committed; other processes hear through NOTIFY.
      for (const claimed of written) dispatch.committed(claimed);
      return result;
    },
    async lock() {
      throw new Error('Store.lock holds locks for a transaction: call it on the store transaction(fn) gives fn.');
    },
    async close() {
      await dispatch.close();
      await close();
    },
  };
  return store;
}

/**
 * The store inside a drizzle transaction: every method runs in it, and `lock` takes advisory locks until
 * it ends. The locks, the order and customer upserts and the events appended, whose answers no later
 * call of the transaction reads (an event's leased deliveries reach the dispatcher after the commit),
 * are sent ahead (see writes-ahead.ts).
 */
function transactionStore(tx: SqlDatabase, outbox: Outbox, ahead: WritesAhead): Store {
  const methods = sqlMethods(tx, outbox);
  const store: Store = {
    ...methods,
    saveOrder: (order) => ahead.send(methods.saveOrder(order)),
    saveCustomers: (records) => ahead.send(methods.saveCustomers(records)),
    appendEvent: (event, pending) => ahead.send(methods.appendEvent(event, pending)),
    ...createSqlDispatch(tx, undefined).methods,
    // A transaction inside: the same one (the domain's use cases nest).
    transaction: (fn) => fn(store),
    lock: (locks) => ahead.send(advisoryLocks(tx, locks)),
    async close() {
      throw new Error('A transaction store cannot be closed: close the store.');
    },
    takeOnWrite() {
      throw new Error('takeOnWrite is for the store, not for one of its transactions.');
    },
  };
  return store;
}

/** How the deliveries the SQL store writes reach this process's dispatcher. */
interface Outbox {
  /** The taker's lease of `count` deliveries being written, or null. */
  lease(count: number): WriteLease | null;
  /** Deliveries were written: `claimed` are those leased (to an enabled endpoint), null when none was leased. */
  written(claimed: readonly ClaimedDelivery[] | null): void;
}

/**
 * The Store's methods over `db` (the pool, or one transaction), but for transactions and closing;
 * `outbox` hears of the deliveries they write.
 */
function sqlMethods(db: SqlDatabase, outbox: Outbox): Omit<Store, 'transaction' | 'lock' | 'close' | keyof ReturnType<typeof createSqlDispatch>['methods']> {
  async function total(
    table: typeof companies | typeof campaigns | typeof customers | typeof orders | typeof events | typeof webhookEndpoints | typeof deliveries,
    where: SQL | undefined,
  ): Promise<number> {
    const [row] = await db.select({ n: count() }).from(table).where(where);
    return row?.n ?? 0;
  }

  return {
    async getSetting(key) {
      const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
      return row?.value ?? null;
    },
    async putSettingIfAbsent(key, value) {
      await db.insert(settings).values({ key, value }).onConflictDoNothing();
      const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
      if (!row) throw new Error(`Setting "${key}" was removed while it was being stored.`);
      return row.value;
    },

    async createCompany(company) {
      try {
        const [row] = await db
          .insert(companies)
          .values({ ...company, created_at: iso(company.created_at) })
          .returning(companyColumns);
        if (!row) throw new Error('The company was not inserted.');
        return row;
      } catch (error) {
        throw mapUniqueViolation(
          error,
          'companies_company_id_unique',
          () => new StoreConflictError('company_id', `A company with company_id "${company.company_id}" exists already.`),
        );
      }
    },
    async getCompany(uuid) {
      const [row] = await db.select(companyColumns).from(companies).where(eq(companies.uuid, uuid));
      return row ?? null;
    },
    async listCompanies(page) {
      const items = await db
        .select(companyColumns)
        .from(companies)
        .orderBy(companies.created_at, companies.created_seq)
        .limit(page.limit)
        .offset(pageOffset(page));
      return { items, total: await total(companies, undefined) };
    },

    async upsertTemplate(template) {
      const [row] = await db
        .insert(templates)
        .values({ ...template, created_at: iso(template.created_at), updated_at: iso(template.updated_at) })
        .onConflictDoUpdate({
          target: [templates.company_uuid, templates.template_name, templates.phone_number],
          set: { wam_id: sql`excluded.wam_id`, status: sql`excluded.status`, reason: sql`excluded.reason`, updated_at: sql`excluded.updated_at` },
        })
        .returning(templateColumns);
      if (!row) throw new Error('The template was not written.');
      return row;
    },

    async listTemplates(companyUuid) {
      return db.select(templateColumns).from(templates).where(eq(templates.company_uuid, companyUuid)).orderBy(templates.created_at, templates.created_seq);
    },

    async createCampaign(campaign) {
      try {
        return await db.transaction(async (tx) => {
          // The company row is the per-company counter: concurrent creates queue on its lock and get dense seqs;
          // a create that fails (a duplicate name) rolls its increment back.
          const [counter] = await tx
            .update(companies)
            .set({ campaign_seq: sql`${companies.campaign_seq} + 1` })
            .where(eq(companies.uuid, campaign.company_uuid))
            .returning({ seq: companies.campaign_seq });
          if (!counter) throw new Error(`Unknown company "${campaign.company_uuid}": create it before its campaigns.`);
          const [row] = await tx
            .insert(campaigns)
            .values({ ...campaign, seq: counter.seq })
            .returning(campaignColumns);
          if (!row) throw new Error('The campaign was not inserted.');
          return row;
        });
      } catch (error) {
        throw mapUniqueViolation(
          error,
          'campaigns_company_name_unique',
          () => new StoreConflictError('name', `A campaign named "${campaign.name}" exists already.`),
        );
      }
    },
    async getCampaign(companyUuid, id) {
      const [row] = await db
        .select(campaignColumns)
        .from(campaigns)
        .where(and(eq(campaigns.company_uuid, companyUuid), eq(campaigns.id, id)));
      return row ?? null;
    },
    async listCampaigns(companyUuid, page) {
      // Campaigns are never deleted and seqs are dense, so a page is a seq range read from the unique index,
      // and the total is the company's last seq (counting the rows would read all of them on every page).
      // seq is a 32-bit integer: bounds past its largest value are held to it (such a page is empty), or
      // PostgreSQL refuses the parameter.
      // The page and the total are read together (on PostgreSQL, on connections of their own).
      const from = Math.min(pageOffset(page), MAX_INT32);
      const [items, [counter]] = await Promise.all([
        campaignPageStatement(db, { companyUuid, from, to: Math.min(from + page.limit, MAX_INT32) }),
        campaignSeqStatement(db, { companyUuid }),
      ]);
      return { items, total: counter?.seq ?? 0 };
    },
    async updateCampaign(companyUuid, id, patch, now) {
      const changes: Partial<CampaignRecord> = definedOnly({ status: patch.status, endDate: patch.endDate, next_run_at: patch.next_run_at });
      const [row] = await db
        .update(campaigns)
        .set({ ...changes, updated_at: iso(now) })
        .where(and(eq(campaigns.company_uuid, companyUuid), eq(campaigns.id, id)))
        .returning(campaignColumns);
      return row ?? null;
    },
    async countCampaignsByStatus(companyUuid) {
      const rows = await statusCountsStatement(db, { companyUuid });
      return Object.fromEntries(rows.map((row) => [row.status, row.n]));
    },
    async newestCampaigns(companyUuid, limit) {
      const rows = rowsOf(await newestCampaignsStatement(db, { companyUuid, limit }));
      return rows.map((row) => {
        const messages = { ...noMessages(), runs: Number(row.runs), last_run_at: (row.last_run_at as string | null) ?? null };
        for (const [status, n] of Object.entries(jsonValue<Record<string, number> | null>(row.counts) ?? {})) countIntoFunnel(messages, status, Number(n));
        return { id: row.id as string, name: row.name as string, status: row.status as CampaignRecord['status'], messages };
      });
    },

    async listOrders(companyUuid, page) {
      const where = eq(orders.company_uuid, companyUuid);
      const items = await db
        .select(orderColumns)
        .from(orders)
        .where(where)
        .orderBy(orders.created_at, orders.created_seq)
        .limit(page.limit)
        .offset(pageOffset(page));
      return { items, total: await total(orders, where) };
    },
    async orderTotals(companyUuid) {
      const [row] = await orderTotalsStatement(db, { companyUuid });
      return { total: row?.total ?? 0, amount: row?.amount ?? 0 };
    },

    async listCustomers(companyUuid, page) {
      const where = eq(customers.company_uuid, companyUuid);
      // The page and the total are read together (on PostgreSQL, on connections of their own).
      const [items, n] = await Promise.all([
        db.select(customerColumns).from(customers).where(where).orderBy(customers.created_at, customers.created_seq).limit(page.limit).offset(pageOffset(page)),
        total(customers, where),
      ]);
      return { items, total: n };
    },
    async countCustomers(companyUuid) {
      const [row] = await customerCountStatement(db, { companyUuid });
      return row?.n ?? 0;
    },

    async createEndpoint(endpoint) {
      const [row] = await db
        .insert(webhookEndpoints)
        .values({ ...endpoint, created_at: iso(endpoint.created_at), updated_at: iso(endpoint.updated_at) })
        .returning(endpointColumns);
      if (!row) throw new Error('The webhook endpoint was not inserted.');
      return row;
    },
    async getEndpoint(companyUuid, id) {
      const [row] = await db
        .select(endpointColumns)
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.company_uuid, companyUuid), eq(webhookEndpoints.id, id)));
      return row ?? null;
    },
    async listEndpoints(companyUuid, page) {
      const where = eq(webhookEndpoints.company_uuid, companyUuid);
      const items = await db
        .select(endpointColumns)
        .from(webhookEndpoints)
        .where(where)
        .orderBy(webhookEndpoints.created_at, webhookEndpoints.created_seq)
        .limit(page.limit)
        .offset(pageOffset(page));
      return { items, total: await total(webhookEndpoints, where) };
    },
    async updateEndpoint(companyUuid, id, patch, now) {
      const changes: Partial<EndpointRecord> = definedOnly(patch);
      const [row] = await db
        .update(webhookEndpoints)
        .set({ ...changes, updated_at: iso(now) })
        .where(and(eq(webhookEndpoints.company_uuid, companyUuid), eq(webhookEndpoints.id, id)))
        .returning(endpointColumns);
      return row ?? null;
    },
    async deleteEndpoint(companyUuid, id) {
      return db.transaction(async (tx) => {
        const deleted = await tx
          .delete(webhookEndpoints)
          .where(and(eq(webhookEndpoints.company_uuid, companyUuid), eq(webhookEndpoints.id, id)))
          .returning({ id: webhookEndpoints.id });
        if (deleted.length === 0) return false;
        // Finished deliveries stay as history; pending ones would go nowhere.
        await tx.delete(deliveries).where(and(eq(deliveries.endpoint_id, id), eq(deliveries.status, 'pending')));
        return true;
      });
    },

    async allEndpoints(companyUuid) {
      return allEndpointsStatement(db, { companyUuid });
    },

    async appendEvent(event, pending) {
      const row = { ...event, created_at: iso(event.created_at) };
      const values = rowValues(eventTableColumns, row, 'event_');
      if (pending.length === 0) {
        await appendEventStatement(db, values);
        return;
      }
      const records = pending.map((r) => ({ ...r, created_at: iso(r.created_at) }));
      const lease = outbox.lease(records.length);
      // One delivery (an order write's usual case: one endpoint) by a statement built once; more by one built for them.
      const withDelivery = (record: object) => ({ ...values, ...rowValues(deliveryTableColumns, record, 'delivery_') });
      if (!lease) {
        // With a NOTIFY the other processes on the database hear at commit (this one through `outbox`).
        const [only] = records;
        if (only && records.length === 1) await appendWithDeliveryStatement(db, withDelivery(only));
        else await appendStatement(db, row, records, null);
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
          ? await appendLeasedStatement(db, { ...withDelivery(only), endpointIds })
          : rowsOf(await appendStatement(db, row, leased, sql`${sql.param(endpointIds)}::text[]`));
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
      outbox.written(claimed);
    },
    async getDelivery(companyUuid, endpointId, id) {
      const [row] = await db
        .select(deliveryColumns)
        .from(deliveries)
        .where(and(eq(deliveries.company_uuid, companyUuid), eq(deliveries.endpoint_id, endpointId), eq(deliveries.id, id)));
      return row ?? null;
    },
    async getEvent(id) {
      const [row] = await db.select(eventColumns).from(events).where(eq(events.id, id));
      return row ?? null;
    },
    async listEvents(companyUuid, page) {
      const where = eq(events.company_uuid, companyUuid);
      const items = await db
        .select(eventColumns)
        .from(events)
        .where(where)
        .orderBy(events.created_at, events.created_seq)
        .limit(page.limit)
        .offset(pageOffset(page));
      return { items, total: await total(events, where) };
    },
    async listDeliveries(companyUuid, endpointId, page) {
      const where = and(
        eq(deliveries.company_uuid, companyUuid),
        eq(deliveries.endpoint_id, endpointId),
        page.status === undefined ? undefined : eq(deliveries.status, page.status),
      );
      const items: DeliveryRecord[] = await db
        .select(deliveryColumns)
        .from(deliveries)
        .where(where)
        .orderBy(desc(deliveries.created_at), desc(deliveries.created_seq))
        .limit(page.limit)
        .offset(pageOffset(page));
      return { items, total: await total(deliveries, where) };
    },

    ...sqlOrders(db),
    ...createSqlCampaignRuns(db),
    ...createSqlIdempotency(db),
  };
}
