/**
 * The one conformance suite every `Store` implementation must pass (memory, PGlite, PostgreSQL).
 * Templates, tokens, orders, customers and webhooks live in sibling `conformance-*.ts` files; this file is the entry.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/ports.ts';
import { type CampaignRecord, type MessageRecord, StoreConflictError } from '../../src/store/types.ts';
import { describeCampaignControlConformance } from './conformance-campaign-control.ts';
import { campaign, company, range, seedCompany, writer } from './conformance-fixtures.ts';
import { describeOrderConformance } from './conformance-orders.ts';
import { describeRunConformance } from './conformance-runs.ts';
import { describeSendPaceConformance } from './conformance-send-pace.ts';
import { describeStatusConformance } from './conformance-statuses.ts';
import { describeTemplateConformance } from './conformance-templates.ts';
import { describeTokenConformance } from './conformance-tokens.ts';
import { describeWebhookConformance } from './conformance-webhooks.ts';

/** Options of the conformance suite. */
export interface StoreConformanceOptions {
  /** How many calls the race tests start at once (default 20). */
  racers?: number;
}

/** Gives the store of the running test. */
export type CurrentStore = () => Store;

/**
 * Registers the store conformance suite under `describe(name)`. `makeStore` runs before every test and
 * must give an empty store; the suite closes it after the test.
 *
 * @example
 * describeStoreConformance('memory', async () => createMemoryStore());
 */
export function describeStoreConformance(name: string, makeStore: () => Promise<Store>, opts: StoreConformanceOptions = {}): void {
  const racers = opts.racers ?? 20;
  describe(name, () => {
    let current: Store | undefined;
    const store: CurrentStore = () => {
      if (!current) throw new Error('No store: makeStore has not run.');
      return current;
    };
    beforeEach(async () => {
      current = await makeStore();
    });
    afterEach(async () => {
      await current?.close();
      current = undefined;
    });

    describe('settings', () => {
      it('returns null for a setting never stored', async () => {
        expect(await store().getSetting('admin_token_hash')).toBeNull();
      });

      it('keeps the first value given to putSettingIfAbsent', async () => {
        expect(await store().putSettingIfAbsent('jwt_key', 'first')).toBe('first');
        expect(await store().putSettingIfAbsent('jwt_key', 'second')).toBe('first');
        expect(await store().getSetting('jwt_key')).toBe('first');
      });

      it(`agrees on one value when ${racers} first starts race`, async () => {
        const values = await Promise.all(range(racers).map((i) => store().putSettingIfAbsent('jwt_key', `value-${i}`)));
        expect(new Set(values).size).toBe(1);
        expect(await store().getSetting('jwt_key')).toBe(values[0]);
      });
    });

    describe('companies', () => {
      it('returns a created company as stored, with created_at in UTC milliseconds', async () => {
        const created = await store().createCompany(company(1, { created_at: '2025-01-15T11:00:00+01:00' }));
        expect(created).toEqual({ ...company(1), created_at: '2025-01-15T10:00:00.000Z' });
        expect(await store().getCompany(created.uuid)).toEqual(created);
        expect(await store().getCompany(company(2).uuid)).toBeNull();
      });

      it('throws StoreConflictError(company_id) given a taken company_id', async () => {
        await seedCompany(store(), 1);
        const duplicate = store().createCompany(company(2, { company_id: 'CO1' }));
        await expect(duplicate).rejects.toBeInstanceOf(StoreConflictError);
        await expect(store().createCompany(company(3, { company_id: 'CO1' }))).rejects.toMatchObject({ name: 'StoreConflictError', field: 'company_id' });
        expect(await store().getCompany(company(2).uuid)).toBeNull();
      });

      it('lists companies oldest first, then in the order they were made, one page at a time', async () => {
        // Inserted out of order; 2 and 4 share a created_at, so the order they were made in decides (4 first, though its uuid sorts after 2's).
        const times = {
          1: '2025-01-03T00:00:00.000Z',
          2: '2025-01-02T00:00:00.000Z',
          3: '2025-01-01T00:00:00.000Z',
          4: '2025-01-02T00:00:00.000Z',
          5: '2025-01-04T00:00:00.000Z',
        };
        for (const n of [4, 1, 5, 2, 3] as const) await seedCompany(store(), n, { created_at: times[n] });
        const first = await store().listCompanies({ page: 1, limit: 2 });
        expect(first.total).toBe(5);
        expect(first.items.map((c) => c.company_id)).toEqual(['CO3', 'CO4']);
        expect((await store().listCompanies({ page: 2, limit: 2 })).items.map((c) => c.company_id)).toEqual(['CO2', 'CO1']);
        expect((await store().listCompanies({ page: 3, limit: 2 })).items.map((c) => c.company_id)).toEqual(['CO5']);
        expect(await store().listCompanies({ page: 4, limit: 2 })).toEqual({ items: [], total: 5 });
      });
    });

    describe('campaigns', () => {
      it('assigns seq 1, 2, 3 per company and reads campaigns back', async () => {
        const a = await seedCompany(store(), 1);
        const b = await seedCompany(store(), 2);
        const now = writer().ctx.now;
        const created = [];
        for (const name of ['one', 'two', 'three']) created.push(await store().createCampaign(campaign(a.uuid, name, now)));
        expect(created.map((c) => c.seq)).toEqual([1, 2, 3]);
        expect((await store().createCampaign(campaign(b.uuid, 'one', now))).seq).toBe(1);
        expect(await store().getCampaign(a.uuid, created[1]?.id ?? '')).toEqual({ ...campaign(a.uuid, 'two', now), seq: 2 });
        expect(await store().getCampaign(b.uuid, created[1]?.id ?? '')).toBeNull();
        expect(await store().getCampaign(a.uuid, 'cmp_unknown')).toBeNull();
      });

      it('answers many reads at once as it answers them one at a time (the SQL stores batch them)', async () => {
        const a = await seedCompany(store(), 1);
        const b = await seedCompany(store(), 2);
        const now = writer().ctx.now;
        const ids: string[] = [];
        for (const name of ['one', 'two', 'three']) ids.push((await store().createCampaign(campaign(a.uuid, name, now, { id: `cmp_${name}` }))).id);
        await store().createCampaign(campaign(b.uuid, 'four', now, { id: 'cmp_four' }));
        // Duplicates, a miss, and another company's campaign asked for under the wrong company.
        const keys = range(60).map((i) =>
          i % 7 === 5 ? [a.uuid, 'cmp_unknown'] : i % 7 === 6 ? [a.uuid, 'cmp_four'] : i % 11 === 0 ? [b.uuid, 'cmp_four'] : [a.uuid, ids[i % 3] as string],
        );
        const alone = [];
        for (const [uuid, id] of keys) alone.push(await store().getCampaign(uuid as string, id as string));
        const together = await Promise.all(keys.map(([uuid, id]) => store().getCampaign(uuid as string, id as string)));
        expect(together).toEqual(alone);
        expect(together.filter((c) => c === null)).toHaveLength(alone.filter((c) => c === null).length);
        expect(together.map((c) => c?.name ?? null)).toEqual(
          keys.map(([uuid, id]) => (id === 'cmp_unknown' || (id === 'cmp_four' && uuid === a.uuid) ? null : (id as string).slice(4))),
        );
        // Every reader gets a record of its own.
        const [first, second] = together.filter((c) => c?.id === 'cmp_one') as CampaignRecord[];
        (first as { template_payload: { template_name: string } }).template_payload.template_name = 'changed';
        expect((second as { template_payload: { template_name: string } }).template_payload.template_name).toBe('promo');
      });

      it('keeps timestamps as ISO-8601 UTC with milliseconds', async () => {
        const { uuid } = await seedCompany(store());
        const created = await store().createCampaign(
          campaign(uuid, 'tz', '2025-01-15T12:30:00+02:00', { schedule: '2025-02-01T09:00:00Z', next_run_at: '2025-02-01T10:00:00+01:00' }),
        );
        expect(created).toMatchObject({
          schedule: '2025-02-01T09:00:00.000Z',
          next_run_at: '2025-02-01T09:00:00.000Z',
          created_at: '2025-01-15T10:30:00.000Z',
        });
      });

      it('throws StoreConflictError(name) given a duplicate name, and the next seq stays dense', async () => {
        const { uuid } = await seedCompany(store());
        const now = writer().ctx.now;
        await store().createCampaign(campaign(uuid, 'promo', now));
        await expect(store().createCampaign(campaign(uuid, 'promo', now, { id: 'cmp_other' }))).rejects.toMatchObject({
          name: 'StoreConflictError',
          field: 'name',
        });
        expect(await store().getCampaign(uuid, 'cmp_other')).toBeNull();
        expect((await store().createCampaign(campaign(uuid, 'next', now))).seq).toBe(2);
      });

      it('pages campaigns by seq with a total', async () => {
        const { uuid } = await seedCompany(store());
        const now = writer().ctx.now;
        for (const n of range(5)) await store().createCampaign(campaign(uuid, `c${n + 1}`, now));
        const page = async (p: number) => (await store().listCampaigns(uuid, { page: p, limit: 2 })).items.map((c) => [c.seq, c.name]);
        expect(await page(1)).toEqual([
          [1, 'c1'],
          [2, 'c2'],
        ]);
        expect(await page(3)).toEqual([[5, 'c5']]);
        expect(await store().listCampaigns(uuid, { page: 4, limit: 2 })).toEqual({ items: [], total: 5 });
        expect(await store().listCampaigns(company(9).uuid, { page: 1, limit: 2 })).toEqual({ items: [], total: 0 });
      });

      it('gives the newest campaigns, newest first', async () => {
        const { uuid } = await seedCompany(store());
        const now = writer().ctx.now;
        for (const n of range(5)) await store().createCampaign(campaign(uuid, `c${n + 1}`, now));
        const none = { total: 0, sent: 0, delivered: 0, read: 0, failed: 0, runs: 0, last_run_at: null, failed_by_code: [] };
        expect(await store().newestCampaigns(uuid, 3)).toEqual(
          ['c5', 'c4', 'c3'].map((name) => ({ id: expect.any(String), name, status: 'scheduled', messages: none })),
        );
        expect((await store().newestCampaigns(uuid, 100)).map((c) => c.name)).toEqual(['c5', 'c4', 'c3', 'c2', 'c1']);
        expect(await store().newestCampaigns(company(9).uuid, 3)).toEqual([]);
      });

      it('gives an empty page, with the total, for the last page a request may ask for', async () => {
        const { uuid } = await seedCompany(store());
        await store().createCampaign(campaign(uuid, 'c1', writer().ctx.now));
        expect(await store().listCampaigns(uuid, { page: 1_000_000_000, limit: 100 })).toEqual({ items: [], total: 1 });
      });

      it('updates only the given fields and counts campaigns by status', async () => {
        const { uuid } = await seedCompany(store());
        const w = writer();
        const a = await store().createCampaign(campaign(uuid, 'a', w.ctx.now));
        await store().createCampaign(campaign(uuid, 'b', w.ctx.now));
        const later = w.tick();
        const updated = await store().updateCampaign(uuid, a.id, { status: 'completed', endDate: '2025-02-01', next_run_at: null }, later);
        expect(updated).toEqual({ ...a, status: 'completed', endDate: '2025-02-01', next_run_at: null, updated_at: later });
        expect(await store().updateCampaign(uuid, a.id, { status: 'running' }, later)).toMatchObject({ status: 'running', endDate: '2025-02-01' });
        expect(await store().getCampaign(uuid, a.id)).toMatchObject({ status: 'running', endDate: '2025-02-01', next_run_at: null });
        expect(await store().updateCampaign(uuid, 'cmp_unknown', { status: 'paused' }, later)).toBeNull();
        expect(await store().updateCampaign(company(9).uuid, a.id, { status: 'paused' }, later)).toBeNull();
        expect(await store().countCampaignsByStatus(uuid)).toEqual({ running: 1, scheduled: 1 });
        expect(await store().countCampaignsByStatus(company(9).uuid)).toEqual({});
      });

      it('totals no messages for a company or campaign that has none', async () => {
        const { uuid } = await seedCompany(store());
        await store().createCampaign(campaign(uuid, 'a', writer().ctx.now));
        const none = { total: 0, sent: 0, delivered: 0, read: 0, failed: 0 };
        expect(await store().messageTotals(uuid)).toEqual(none);
        expect(await store().messageTotals(company(9).uuid)).toEqual(none);
        expect((await store().newestCampaigns(uuid, 5)).map((c) => c.messages)).toEqual([{ ...none, runs: 0, last_run_at: null, failed_by_code: [] }]);
      });

      it("totals each campaign's messages and runs, and the company's, from the messages' writes", async () => {
        const { uuid } = await seedCompany(store());
        const other = await seedCompany(store(), 2);
        const now = writer().ctx.now;
        const a = await store().createCampaign(campaign(uuid, 'a', now));
        const b = await store().createCampaign(campaign(uuid, 'b', now));
        const c = await store().createCampaign(campaign(other.uuid, 'c', now));
        const message = (on: CampaignRecord, run: string, n: number): MessageRecord => ({
          id: `msg_${on.name}_${run}_${n}`,
          company_uuid: on.company_uuid,
          campaign_id: on.id,
          customer_id: `cus_${n}`,
          phone_number: `+1415000000${n}`,
          run_key: run,
          status: 'pending',
          error: null,
          error_code: null,
          provider_message_id: null,
          variables: {},
          attempts: 0,
          next_attempt_at: null,
          created_at: now,
          updated_at: now,
        });
        const [first, second] = ['2025-01-01T09:00:00.000Z', '2025-01-08T09:00:00.000Z'];
        const sent = [...range(3).map((n) => message(a, first, n)), ...range(2).map((n) => message(a, second, n)), message(b, first, 0), message(c, first, 0)];
        await store().insertMessages(sent);
        const outcome = (m: MessageRecord, status: MessageRecord['status']) => ({
          id: m.id,
          status,
          error: status === 'failed' ? 'rejected' : null,
          error_code: status === 'failed' ? 131026 : null,
          provider_message_id: status === 'pending' || status === 'sending' ? null : `wamid.${m.id}`,
        });
        const [a0, a1, a2, a3, , b0, c0] = sent as [MessageRecord, MessageRecord, MessageRecord, MessageRecord, MessageRecord, MessageRecord, MessageRecord];
        await store().updateMessages(
          [outcome(a0, 'sent'), outcome(a1, 'delivered'), outcome(a2, 'failed'), outcome(a3, 'read'), outcome(b0, 'read'), outcome(c0, 'failed')],
          now,
        );
        await store().updateMessages([outcome(a0, 'read')], now);
        expect(await store().newestCampaigns(uuid, 5)).toEqual([
          {
            id: b.id,
            name: 'b',
            status: 'scheduled',
            messages: { total: 1, sent: 1, delivered: 1, read: 1, failed: 0, runs: 1, last_run_at: first, failed_by_code: [] },
          },
          {
            id: a.id,
            name: 'a',
            status: 'scheduled',
            messages: { total: 5, sent: 3, delivered: 3, read: 2, failed: 1, runs: 2, last_run_at: second, failed_by_code: [{ code: 131026, count: 1 }] },
          },
        ]);
        expect(await store().messageTotals(uuid)).toEqual({ total: 6, sent: 4, delivered: 4, read: 3, failed: 1 });
        expect(await store().messageTotals(other.uuid)).toEqual({ total: 1, sent: 0, delivered: 0, read: 0, failed: 1 });
      });

      it('finds the earliest due time of a scheduled campaign after a moment, across companies', async () => {
        const a = await seedCompany(store());
        const b = await seedCompany(store(), 2);
        const now = writer().ctx.now;
        await store().createCampaign(campaign(a.uuid, 'early', now, { next_run_at: '2025-02-01T09:00:00.000Z' }));
        await store().createCampaign(campaign(a.uuid, 'paused', now, { status: 'paused', next_run_at: '2025-02-01T08:00:00.000Z' }));
        await store().createCampaign(campaign(b.uuid, 'later', now, { next_run_at: '2025-02-03T09:00:00.000Z' }));
        await store().createCampaign(campaign(b.uuid, 'none', now, { next_run_at: null }));
        expect(await store().nextCampaignDue('2025-01-31T00:00:00.000Z')).toBe('2025-02-01T09:00:00.000Z');
        expect(await store().nextCampaignDue('2025-02-01T09:00:00.000Z')).toBe('2025-02-03T09:00:00.000Z');
        expect(await store().nextCampaignDue('2025-02-03T09:00:00.000Z')).toBeNull();
      });

      it(`lets exactly one of ${racers} simultaneous creates with one name win`, async () => {
        const { uuid } = await seedCompany(store());
        const now = writer().ctx.now;
        const results = await Promise.allSettled(range(racers).map((i) => store().createCampaign(campaign(uuid, 'launch', now, { id: `cmp_race_${i}` }))));
        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(racers - 1);
        for (const error of lost) expect(error).toMatchObject({ name: 'StoreConflictError', field: 'name' });
        expect(won[0]?.value.seq).toBe(1);
        expect((await store().listCampaigns(uuid, { page: 1, limit: 100 })).total).toBe(1);
      });

      it(`gives ${racers} simultaneous creates with different names the distinct seqs 1..${racers}`, async () => {
        const { uuid } = await seedCompany(store());
        const now = writer().ctx.now;
        const created = await Promise.all(range(racers).map((i) => store().createCampaign(campaign(uuid, `wave-${i}`, now))));
        expect(created.map((c) => c.seq).sort((x, y) => x - y)).toEqual(range(racers).map((i) => i + 1));
        const listed = await store().listCampaigns(uuid, { page: 1, limit: 100 });
        expect(listed.items.map((c) => c.seq)).toEqual(range(racers).map((i) => i + 1));
      });
    });

    describeTemplateConformance(store);
    describeTokenConformance(store);
    describeOrderConformance(store);
    describeWebhookConformance(store);
    describeRunConformance(store);
    describeCampaignControlConformance(store, racers);
    describeStatusConformance(store);
    describeSendPaceConformance(store);
  });
}
