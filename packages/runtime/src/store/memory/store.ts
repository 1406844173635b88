import { cloneGraph } from '../copy.ts';
import type { Store } from '../ports.ts';
import { SortedList } from '../sorted-list.ts';
import { createMemoryCampaignRuns } from './campaign-runs.ts';
import { memoryCampaigns } from './campaigns.ts';
import { memoryCompanies, memorySettings } from './companies.ts';
import { memoryCustomers } from './customers.ts';
import { createMemoryDispatch } from './dispatch.ts';
import { createMemoryIdempotency } from './idempotency.ts';
import { memoryKeptStatuses } from './kept-statuses.ts';
import { memoryOrders } from './orders.ts';
import { createMemorySendPace } from './send-pace.ts';
import { bumpStatus, type MemoryRecords, type MemoryState, newMemoryRecords } from './state.ts';
import { memoryTemplates } from './templates.ts';
import { memoryTokens } from './tokens.ts';
import { MemoryJournal } from './transaction-journal.ts';
import { memoryWebhooks } from './webhooks.ts';

/** Everything a memory store held at one moment: from `snapshot()`, for `restore()`. Opaque. */
export interface MemorySnapshot {
  readonly data: unknown;
}

/** The memory store: a Store that can also copy all it holds and go back to such a copy at once. */
export interface MemoryStore extends Store {
  /** A copy of everything held now. Take it between calls: it refuses while a transaction runs. */
  snapshot(): MemorySnapshot;
  /** Puts back what a snapshot held (it can be restored again). Like `snapshot()`, it refuses while a transaction runs. */
  restore(snapshot: MemorySnapshot): void;
}

/** Puts `source`'s contents into `target`'s containers (maps, sets, sorted lists, and objects of them), keeping the containers. */
function refill(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const key of Object.keys(target)) {
    const into = target[key];
    const from = source[key];
    if (into instanceof Map) {
      into.clear();
      for (const [k, v] of from as Map<unknown, unknown>) into.set(k, v);
    } else if (into instanceof Set) {
      into.clear();
      for (const v of from as Set<unknown>) into.add(v);
    } else if (into instanceof SortedList) {
      into.refillFrom(from as SortedList<never>);
    } else {
      refill(into as Record<string, unknown>, from as Record<string, unknown>);
    }
  }
}

/** The records of `state` (its containers, not copies). */
function pickRecords(state: MemoryState): MemoryRecords {
  return Object.fromEntries(RECORD_KEYS.map((key) => [key, state[key]])) as unknown as MemoryRecords;
}

/** The names of the records: those `newMemoryRecords` makes, and nothing of the parts with state of their own. */
const RECORD_KEYS = Object.keys(newMemoryRecords()) as (keyof MemoryRecords)[];

/** A fresh state: empty records, and the parts with state of their own over them. */
function newMemoryState(): MemoryState {
  const records = newMemoryRecords();
  const { states } = records;
  const runs = createMemoryCampaignRuns({
    campaigns: function* () {
      for (const company of states.values()) yield* company.campaigns;
    },
    campaignById: (id) => {
      for (const company of states.values()) {
        const c = company.campaignsById.get(id);
        if (c) return c;
      }
      return undefined;
    },
    customersOf: (companyUuid) => states.get(companyUuid)?.customers.values() ?? [],
    setStatus: (campaign, status) => {
      const company = states.get(campaign.company_uuid);
      if (!company || campaign.status === status) return;
      bumpStatus(company, campaign.status, -1);
      bumpStatus(company, status, 1);
      campaign.status = status;
    },
  });
  const dispatch = createMemoryDispatch({ deliveries: records.deliveries, endpoints: records.endpoints, events: records.events });
  const tx = new MemoryJournal();
  return { ...records, dispatch, runs, idempotency: createMemoryIdempotency(tx), pace: createMemorySendPace(), tx };
}

/** Every port of the memory store over `state` (every call outside a transaction), and `close`. */
function memoryPorts(state: MemoryState): Omit<Store, 'transaction' | 'lock'> {
  return {
    ...memorySettings(state),
    ...memoryCompanies(state),
    ...memoryTokens(state),
    ...memoryTemplates(state),
    ...memoryCampaigns(state),
    ...memoryOrders(state),
    ...memoryCustomers(state),
    ...memoryWebhooks(state),
    ...memoryKeptStatuses(state),
    ...state.dispatch.methods,
    ...state.runs.methods,
    ...state.idempotency.methods,
    ...state.pace.methods,
    async renewLeases(claimToken, leaseUntil) {
      state.dispatch.renew(claimToken, leaseUntil);
      state.runs.renew(claimToken, leaseUntil);
      state.idempotency.renew(claimToken, leaseUntil);
    },
    async close() {
      state.dispatch.clear();
      state.idempotency.clear();
      state.runs.clear();
      state.pace.clear();
      for (const held of [state.settings, state.companies, state.companyCodes, state.states, state.templates, state.templateReviews]) held.clear();
      for (const held of [state.endpoints, state.events, state.deliveries, state.deliveriesByEndpoint, state.keptStatuses]) held.clear();
    },
  };
}

/**
 * A `Store` in plain maps, for the in-process mock and fast tests. Every method does all its work
 * synchronously before it resolves, so concurrent calls cannot interleave inside one operation.
 * Records go in and come out as copies: a caller mutating one cannot change what is stored.
 *
 * @example
 * const store = createMemoryStore();
 * await store.createCompany({ uuid, company_id: 'ACME', name: 'Acme', timezone: 'UTC', created_at: now });
 */
export function createMemoryStore(): MemoryStore {
  const state = newMemoryState();
  const core = memoryPorts(state);
  /** Every container of what the store holds (records and indexes): what a snapshot copies. */
  const held = {
    ...pickRecords(state),
    dispatch: state.dispatch.state,
    idempotency: state.idempotency.state,
    runs: state.runs.state,
  };

  // Transactions run one at a time, and other calls wait while one runs: no call sees half of one.
  // A transaction that throws has its writes undone (the journal), so none of them stays.
  let queue: Promise<unknown> = Promise.resolve();
  let running: Promise<void> | undefined;
  const inTransaction: Store = {
    ...core,
    transaction: (fn) => fn(inTransaction),
    // Transactions already take turns: a lock would hold nothing more.
    lock: async () => {},
  };
  const outside = Object.fromEntries(
    Object.entries(core).map(([name, method]) => [
      name,
      (...args: unknown[]) => (running ? running.then(() => outside[name]?.(...args)) : (method as (...a: unknown[]) => Promise<unknown>)(...args)),
    ]),
  ) as Record<string, (...args: unknown[]) => Promise<unknown>>;

  async function transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    let end: () => void = () => {};
    running = new Promise((resolve) => {
      end = resolve;
    });
    state.tx.begin();
    let hooks: (() => void)[] = [];
    try {
      const result = await fn(inTransaction);
      hooks = state.tx.end(false);
      return result;
    } catch (error) {
      state.tx.end(true);
      throw error;
    } finally {
      running = undefined;
      end();
      for (const hook of hooks) hook();
    }
  }

  return {
    ...(outside as unknown as Omit<Store, 'transaction' | 'lock'>),
    transaction(fn) {
      const result = queue.then(() => transaction(fn));
      queue = result.catch(() => {});
      return result;
    },
    async lock() {
      throw new Error('Store.lock holds locks for a transaction: call it on the store transaction(fn) gives fn.');
    },
    snapshot() {
      if (running) throw new Error('snapshot() while a transaction runs: take it between calls.');
      return { data: cloneGraph(held) };
    },
    restore(snapshot) {
      if (running) throw new Error('restore() while a transaction runs: restore between calls.');
      // A copy of the copy, so the snapshot stays as it was for the next restore.
      refill(held, cloneGraph(snapshot.data) as Record<string, unknown>);
    },
  };
}
