import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { syncCustomers } from '../../../runtime/src/domain/customers.ts';
import { newOrderRecord, upsertOrder } from '../../../runtime/src/domain/orders.ts';
import { pendingDelivery } from '../../../runtime/src/domain/webhooks.ts';
import type { Store } from '../../../runtime/src/store/ports.ts';
import { iso } from '../../../runtime/src/store/shared.ts';
import { exclusive, type Lock, shared } from '../../../runtime/src/store/types.ts';
import { forEveryStore } from '../../../runtime/test/every-store.ts';
import { company, endpoint, event, orderFields, writer } from '../../../runtime/test/store/conformance-fixtures.ts';
import { freshDatabase, migratedPgliteDump } from '../../test/helpers.ts';
import { truncateAll } from '../../test/sql-stores.ts';
import { openSqlStore, type SqlStore } from './index.ts';
import { findPgError } from './sql/errors.ts';

const databaseUrl = process.env.DATABASE_URL;

/** The PostgreSQL code of the error `transaction` rejects with (drizzle wraps a driver's error in `cause`). */
const rejectionCode = async (transaction: Promise<unknown>) =>
  findPgError(
    await transaction.then(
      () => undefined,
      (e: unknown) => e,
    ),
  )?.code;

forEveryStore((kind, makeStore) => {
  // The memory store sends nothing ahead, and has no foreign keys to refuse a write.
  describe.skipIf(kind === 'memory')('writes sent ahead', () => {
    async function setUp() {
      const store = await makeStore();
      const w = writer();
      const co = await store.createCompany(company(1));
      const order = () => newOrderRecord('ord_1', co, 'ORD-1', orderFields(), w.ctx.now);
      // No such company: the foreign key refuses it, and the transaction is aborted from there on.
      const refused = () => newOrderRecord('ord_2', company(2), 'ORD-2', orderFields(), w.ctx.now);
      return { store, co, order, refused, newEvent: () => event(co, 'evt_1', iso(w.ctx.now)) };
    }

    it('rejects a transaction with the error of a write it sent ahead, though later calls followed, and undoes it all', async () => {
      const { store, co, order, refused } = await setUp();
      const transaction = store.transaction(async (tx) => {
        await tx.saveOrder(order());
        await tx.saveOrder(refused());
        await tx.getOrder(co.uuid, 'ORD-1');
        return 'not reached';
      });
      expect(await rejectionCode(transaction)).toBe('23503');
      expect(await store.getOrder(co.uuid, 'ORD-1')).toBeNull();
      // The connection is whole again for the next transaction.
      await store.transaction((tx) => tx.saveOrder(order()));
      expect((await store.getOrder(co.uuid, 'ORD-1'))?.id).toBe('ord_1');
    });

    it('commits nothing when the body returns while a write it sent ahead fails: the COMMIT behind it rolls back', async () => {
      const { store, co, order, refused, newEvent } = await setUp();
      const transaction = store.transaction(async (tx) => {
        await tx.saveOrder(order());
        await tx.appendEvent(newEvent(), []);
        await tx.saveOrder(refused());
        return 'value';
      });
      expect(await rejectionCode(transaction)).toBe('23503');
      expect(await store.getOrder(co.uuid, 'ORD-1')).toBeNull();
      expect((await store.listEvents(co.uuid, { page: 1, limit: 10 })).total).toBe(0);
      // And one whose writes all succeed commits them, answered before it resolves.
      const committed = store.transaction(async (tx) => {
        await tx.saveOrder(order());
        await tx.appendEvent(newEvent(), []);
        return 'value';
      });
      expect(await committed).toBe('value');
      expect((await store.getOrder(co.uuid, 'ORD-1'))?.id).toBe('ord_1');
      expect((await store.listEvents(co.uuid, { page: 1, limit: 10 })).items.map((e) => e.id)).toEqual(['evt_1']);
    });
  });
});

describe('PGlite store', () => {
  let shared: SqlStore;
  beforeAll(async () => {
    shared = await openSqlStore({ memory: true, loadDataDir: await migratedPgliteDump() });
  });
  afterAll(async () => {
    await shared?.close();
  });

  it('keeps its data in a data dir across close and reopen', async () => {
    const root = await mkdtemp(join(tmpdir(), 'engagekit-store-'));
    try {
      // A nested path: the store creates the missing parents.
      const dataDir = join(root, 'nested', 'pgdata');
      const first = await openSqlStore({ dataDir });
      expect(first.kind).toBe('pglite');
      const w = writer();
      const co = await first.createCompany(company(1));
      const { order } = await upsertOrder(first, w.ctx, co, 'ORD-1', orderFields());
      await first.putSettingIfAbsent('jwt_key', 'kept');
      await first.close();

      const second = await openSqlStore({ dataDir });
      try {
        expect(await second.getCompany(co.uuid)).toEqual(co);
        expect(await second.getOrder(co.uuid, 'ORD-1')).toEqual(order);
        expect(await second.getSetting('jwt_key')).toBe('kept');
      } finally {
        await second.close();
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('re-derives a customer that is missing (created, in sync counts)', async () => {
    await truncateAll(shared);
    const w = writer();
    const co = await shared.createCompany(company(1));
    await upsertOrder(shared, w.ctx, co, 'ORD-1', orderFields({ totalAmount: 3 }));
    // Only possible behind the store's back: the memory store cannot lose a customer.
    await shared.db.execute(sql`delete from customers`);
    expect(await syncCustomers(shared, w.ctx, co.uuid)).toEqual({ total: 1, created: 1, updated: 0, removed: 0 });
    expect((await shared.listCustomers(co.uuid, { page: 1, limit: 10 })).items).toMatchObject([{ name: 'Ann Lee', orders_count: 1, orders_amount: 3 }]);
  });

  it('needs a databaseUrl, a dataDir or memory: true', async () => {
    await expect(openSqlStore({})).rejects.toThrow(/databaseUrl/);
  });
});

describe.skipIf(!databaseUrl)(
  `PostgreSQL store${databaseUrl ? '' : ' (skipped: DATABASE_URL is not set; set it to a server where the tests may create databases)'}`,
  () => {
    const drops: (() => Promise<void>)[] = [];

    /** A fresh database on the DATABASE_URL server, dropped after the suite. */
    async function freshUrl(): Promise<string> {
      const db = await freshDatabase('store');
      if (!db) throw new Error('DATABASE_URL is needed');
      drops.push(() => db.drop());
      return db.url;
    }

    afterAll(async () => {
      for (const drop of drops) await drop();
    });

    it('lets several instances open (and migrate) one new database at once', async () => {
      const url = await freshUrl();
      const stores = await Promise.all([1, 2, 3].map(() => openSqlStore({ databaseUrl: url })));
      try {
        expect(stores.map((s) => s.kind)).toEqual(['postgres', 'postgres', 'postgres']);
        const co = await stores[0]?.createCompany(company(1));
        expect(await stores[2]?.getCompany(co?.uuid ?? '')).toEqual(co);
      } finally {
        await Promise.all(stores.map((s) => s.close()));
      }
    });

    it('lists what several instances made in one instant in the order they made it, whichever instance reads', async () => {
      const url = await freshUrl();
      const [a, b] = await Promise.all([openSqlStore({ databaseUrl: url }), openSqlStore({ databaseUrl: url })]);
      try {
        const co = await a.createCompany(company(1));
        const now = writer().ctx.now;
        const customer = (id: string, phoneNumber: string) => ({
          id,
          company_uuid: co.uuid,
          phoneNumber,
          name: 'X',
          firstName: 'X',
          lastName: null,
          email: null,
          source: 'import' as const,
          orders_count: 0,
          orders_amount: 0,
          created_at: now,
          updated_at: now,
        });
        // Ids and phone numbers sort against the order they are made in.
        await a.saveCustomers([customer('cus_z', '+15550000030'), customer('cus_y', '+15550000020')]);
        await b.saveCustomers([customer('cus_m', '+15550000010')]);
        await a.saveCustomers([customer('cus_a', '+15550000005')]);
        for (const reader of [a, b]) {
          expect((await reader.listCustomers(co.uuid, { page: 1, limit: 10 })).items.map((c) => c.id)).toEqual(['cus_z', 'cus_y', 'cus_m', 'cus_a']);
        }
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    it('tells its own listeners of deliveries it queued once, and other instances through NOTIFY', async () => {
      const url = await freshUrl();
      const [a, b] = await Promise.all([openSqlStore({ databaseUrl: url }), openSqlStore({ databaseUrl: url })]);
      try {
        const heard = { a: 0, b: 0 };
        await a.onDeliveriesQueued(() => void heard.a++);
        await b.onDeliveriesQueued(() => void heard.b++);
        const w = writer();
        const co = await a.createCompany(company(1));
        await a.createEndpoint(endpoint(co.uuid, 'wh_1', w.ctx.now));
        const evt = event(co, 'evt_1', w.ctx.now);
        await a.transaction((tx) => tx.appendEvent(evt, [pendingDelivery(w.ctx, evt, 'wh_1')]));
        await vi.waitFor(() => expect(heard.b).toBe(1));
        // Time for a NOTIFY of a's own to come back, had it not been set aside.
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(heard).toEqual({ a: 1, b: 1 });
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    it('takes the locks of one call in their modes: shared holders together, an exclusive holder alone', async () => {
      const store = await openSqlStore({ databaseUrl: await freshUrl() });
      try {
        const held: string[] = [];
        let release: () => void = () => {};
        const releasing = new Promise<void>((resolve) => {
          release = resolve;
        });
        let first: () => void = () => {};
        const firstHolds = new Promise<void>((resolve) => {
          first = resolve;
        });
        // A lock is sent ahead of the transaction's next statement, which runs once it is held.
        const holds = async (tx: Store, locks: Lock[]) => {
          await tx.lock(locks);
          await tx.getSetting('after-the-lock');
        };
        // The first holds 'a' shared and 'b' exclusive until released.
        const holder = store.transaction(async (tx) => {
          await holds(tx, [shared('a'), exclusive('b')]);
          first();
          await releasing;
          held.push('first done');
        });
        await firstHolds;
        // A second shared holder of 'a' gets in at once; an exclusive one of 'a', or any of 'b', waits.
        await store.transaction((tx) => holds(tx, [shared('a')]).then(() => void held.push('shared a')));
        const waiters = [
          store.transaction((tx) => holds(tx, [exclusive('a')]).then(() => void held.push('exclusive a'))),
          store.transaction((tx) => holds(tx, [shared('b')]).then(() => void held.push('shared b'))),
        ];
        await new Promise((resolve) => setTimeout(resolve, 100));
        const heldBeforeRelease = [...held];
        release();
        expect(heldBeforeRelease).toEqual(['shared a']);
        await Promise.all([holder, ...waiters]);
        expect(held.slice(0, 2)).toEqual(['shared a', 'first done']);
        expect(held.slice(2).sort()).toEqual(['exclusive a', 'shared b']);
      } finally {
        await store.close();
      }
    });
  },
);
