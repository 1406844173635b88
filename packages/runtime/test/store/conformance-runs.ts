/**
 * Store conformance: campaign runs in chunks, the leases instances hold their work under, and
 * idempotency keys taken over once their holder's lease runs out.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/ports.ts';
import type { CompanyRecord, CustomerRecord, MessageRecord } from '../../src/store/types.ts';
import type { CurrentStore } from './conformance.ts';
import { campaign, range, seedCompany, writer } from './conformance-fixtures.ts';

export const DUE = '2025-02-01T09:00:00.000Z';
export const at = (ms: number) => new Date(Date.parse(DUE) + ms).toISOString();

/** `count` customers of the company with the ids `cus_01`, `cus_02`... (in key order). */
export async function customers(store: Store, co: CompanyRecord, count: number): Promise<CustomerRecord[]> {
  const now = writer().ctx.now;
  const made = range(count).map(
    (i): CustomerRecord => ({
      id: `cus_${String(i + 1).padStart(2, '0')}`,
      company_uuid: co.uuid,
      phoneNumber: `+1415555${String(i).padStart(4, '0')}`,
      name: `C${i}`,
      firstName: `C${i}`,
      lastName: null,
      email: null,
      source: 'import',
      orders_count: 0,
      orders_amount: 0,
      created_at: now,
      updated_at: now,
    }),
  );
  await store.saveCustomers(made);
  return made;
}

/** A message of the run to one customer. */
const message = (co: CompanyRecord, campaignId: string, customerId: string, status: MessageRecord['status']): MessageRecord => ({
  id: `msg_${customerId}`,
  company_uuid: co.uuid,
  campaign_id: campaignId,
  customer_id: customerId,
  phone_number: '+14155550000',
  run_key: DUE,
  status,
  error: null,
  error_code: null,
  provider_message_id: null,
  variables: {},
  attempts: 0,
  next_attempt_at: null,
  created_at: DUE,
  updated_at: DUE,
});

/** Starts the runs due at DUE, `chunkSize` customers a chunk. */
export const start = (store: Store, chunkSize: number) => store.startDueRuns({ now: DUE, limit: 10, chunkSize, newId: writer().ctx.newId });

export function describeRunConformance(store: CurrentStore): void {
  describe('campaign runs in chunks', () => {
    it('starts a due run once: plans its chunks by customer key, the last open-ended, and sets the campaign running', async () => {
      const co = await seedCompany(store());
      await customers(store(), co, 5);
      const c = await store().createCampaign(campaign(co.uuid, 'big', DUE));
      expect((await start(store(), 2)).map((x) => x.id)).toEqual([c.id]);
      expect(await start(store(), 2)).toEqual([]);
      expect(await store().getCampaign(co.uuid, c.id)).toMatchObject({ status: 'running', next_run_at: DUE });
      expect(await store().nextCampaignDue('2025-01-01T00:00:00.000Z')).toBeNull();
      const chunks = await store().claimChunks({ now: DUE, leaseUntil: at(10_000), claimToken: 'ins_a', limit: 10 });
      expect(chunks.map(({ seq, after_id, through_id }) => ({ seq, after_id, through_id }))).toEqual([
        { seq: 1, after_id: null, through_id: 'cus_02' },
        { seq: 2, after_id: 'cus_02', through_id: 'cus_04' },
        { seq: 3, after_id: 'cus_04', through_id: null },
      ]);
      expect(chunks.every((chunk) => chunk.campaign.id === c.id)).toBe(true);
      const ids = async (i: number) => (await store().chunkCustomers(chunks[i] as (typeof chunks)[number])).map((x) => x.id);
      expect([await ids(0), await ids(1), await ids(2)]).toEqual([['cus_01', 'cus_02'], ['cus_03', 'cus_04'], ['cus_05']]);
    });

    it('gives each chunk to one of several claimers at once, and again to any once its lease has run out', async () => {
      const co = await seedCompany(store());
      await customers(store(), co, 8);
      await store().createCampaign(campaign(co.uuid, 'big', DUE));
      await start(store(), 2);
      const claims = await Promise.all(range(4).map((i) => store().claimChunks({ now: DUE, leaseUntil: at(10_000), claimToken: `ins_${i}`, limit: 2 })));
      const claimed = claims.flat().map((c) => c.id);
      expect(claimed).toHaveLength(4);
      expect(new Set(claimed).size).toBe(4);
      expect(claims.flat().some((c) => c.taken_over)).toBe(false);
      expect(await store().claimChunks({ now: at(5_000), leaseUntil: at(15_000), claimToken: 'ins_late', limit: 10 })).toEqual([]);
      const after = await store().claimChunks({ now: at(10_001), leaseUntil: at(20_000), claimToken: 'ins_late', limit: 10 });
      expect(after.map((c) => c.id).sort()).toEqual([...claimed].sort());
      // Their holders' leases ran out under their tokens: each claim now is a take-over.
      expect(after.every((c) => c.taken_over === true)).toBe(true);
    });

    it('claims the first chunk of each run due together before the second of any', async () => {
      const co = await seedCompany(store());
      await customers(store(), co, 6);
      const a = await store().createCampaign(campaign(co.uuid, 'a', DUE));
      const b = await store().createCampaign(campaign(co.uuid, 'b', DUE));
      await start(store(), 2);
      const first = await store().claimChunks({ now: DUE, leaseUntil: at(10_000), claimToken: 'ins_a', limit: 2 });
      expect(first.map((c) => [c.campaign_id, c.seq]).sort()).toEqual([
        [a.id, 1],
        [b.id, 1],
      ]);
    });

    it('keeps, renews, hands back and finishes a chunk only under its own token, and ends the run once', async () => {
      const co = await seedCompany(store());
      await customers(store(), co, 3);
      const c = await store().createCampaign(campaign(co.uuid, 'small', DUE));
      await start(store(), 2);
      const [one, two] = await store().claimChunks({ now: DUE, leaseUntil: at(10_000), claimToken: 'ins_a', limit: 2 });
      if (!one || !two) throw new Error('two chunks expected');
      expect(await store().holdsChunk(one.id, 'ins_a', at(5_000))).toBe(true);
      expect(await store().holdsChunk(one.id, 'ins_b', at(5_000))).toBe(false);
      await store().renewLeases('ins_a', at(60_000));
      await store().renewLeases('ins_b', at(90_000));
      expect(await store().holdsChunk(one.id, 'ins_a', at(30_000))).toBe(true);
      expect(await store().claimChunks({ now: at(30_000), leaseUntil: at(40_000), claimToken: 'ins_b', limit: 10 })).toEqual([]);
      await store().releaseChunk(two.id, 'ins_b');
      await store().releaseChunk(two.id, 'ins_a');
      expect(await store().holdsChunk(two.id, 'ins_a', at(30_000))).toBe(false);
      expect(await store().finishChunk(one.id, 'ins_b')).toBe(false);
      expect(await store().finishChunk(one.id, 'ins_a')).toBe(true);
      expect(await store().pendingChunks(c.id, DUE)).toBe(1);
      const [again] = await store().claimChunks({ now: at(30_000), leaseUntil: at(40_000), claimToken: 'ins_b', limit: 10 });
      expect(again?.id).toBe(two.id);
      await store().insertMessages([message(co, c.id, 'cus_01', 'pending'), message(co, c.id, 'cus_02', 'pending'), message(co, c.id, 'cus_03', 'pending')]);
      await store().updateMessages(
        [
          { id: 'msg_cus_01', status: 'read', error: null, error_code: null, provider_message_id: null },
          { id: 'msg_cus_02', status: 'failed', error: 'no', error_code: null, provider_message_id: null },
        ],
        at(1),
      );
      expect(await store().runTotals(c.id, DUE)).toEqual({ sent: 1, failed: 1 });
      expect((await store().listRunMessages(c.id, DUE, ['cus_02', 'cus_03'])).map((m) => m.status).sort()).toEqual(['failed', 'pending']);
      expect(await store().finishChunk(two.id, 'ins_b')).toBe(true);
      expect(await store().pendingChunks(c.id, DUE)).toBe(0);
      expect((await store().runningCampaigns(co.uuid)).map((x) => x.id)).toEqual([c.id]);
      const ended = { status: 'completed' as const, failure_reason: null, next_run_at: null, endDate: '2025-02-01' };
      expect(await store().finishRun(c.id, '2025-03-01T09:00:00.000Z', ended, at(2))).toBe(false);
      expect(await store().finishRun(c.id, DUE, ended, at(2))).toBe(true);
      expect(await store().finishRun(c.id, DUE, ended, at(3))).toBe(false);
      expect(await store().getCampaign(co.uuid, c.id)).toMatchObject(ended);
    });

    it('hands a chunk back until a time: nobody claims it before, anyone after', async () => {
      const co = await seedCompany(store());
      await customers(store(), co, 4);
      const c = await store().createCampaign(campaign(co.uuid, 'deferred', DUE));
      await start(store(), 2);
      const [one] = await store().claimChunks({ now: at(0), leaseUntil: at(10_000), claimToken: 'ins_a', limit: 1 });
      if (!one) throw new Error('no chunk claimed');
      await store().releaseChunk(one.id, 'ins_a', at(5_000));
      expect(await store().holdsChunk(one.id, 'ins_a', at(1_000))).toBe(false);
      const before = await store().claimChunks({ now: at(4_000), leaseUntil: at(14_000), claimToken: 'ins_b', limit: 10 });
      expect(before.map((k) => k.id)).not.toContain(one.id);
      const after = await store().claimChunks({ now: at(5_001), leaseUntil: at(15_000), claimToken: 'ins_b', limit: 10 });
      expect(after.map((k) => k.id)).toContain(one.id);
      expect(c.id).toBeTruthy();
    });
  });

  describe('idempotency keys', () => {
    const lease = (claimToken: string, ms: number) => ({ now: at(ms), claimToken, leaseUntil: at(ms + 10_000) });

    it('holds a key in progress while its lease lives (and is renewed), then lets the same request take it over', async () => {
      expect(await store().beginIdempotent('co', 'K', 'h1', lease('ins_a', 0))).toEqual({ state: 'new' });
      expect(await store().beginIdempotent('co', 'K', 'h1', lease('ins_b', 5_000))).toEqual({ state: 'in_progress', until: at(10_000) });
      await store().renewLeases('ins_a', at(30_000));
      expect(await store().beginIdempotent('co', 'K', 'h1', lease('ins_b', 20_000))).toEqual({ state: 'in_progress', until: at(30_000) });
      expect(await store().beginIdempotent('co', 'K', 'h2', lease('ins_b', 40_000))).toEqual({ state: 'mismatch' });
      expect(await store().beginIdempotent('co', 'K', 'h1', lease('ins_b', 40_000))).toEqual({ state: 'new' });
      expect(await store().beginIdempotent('co', 'K', 'h1', lease('ins_c', 45_000))).toEqual({ state: 'in_progress', until: at(50_000) });
    });

    it('keeps an answer only with the transaction it was stored in', async () => {
      await seedCompany(store());
      expect(await store().beginIdempotent('co', 'K', 'h1', lease('ins_a', 0))).toEqual({ state: 'new' });
      await expect(
        store().transaction(async (tx) => {
          await tx.finishIdempotent('co', 'K', 201, { kept: false });
          throw new Error('the request failed after its answer was written');
        }),
      ).rejects.toThrow('failed');
      expect(await store().beginIdempotent('co', 'K', 'h1', lease('ins_b', 60_000))).toEqual({ state: 'new' });
      await store().transaction((tx) => tx.finishIdempotent('co', 'K', 201, { kept: true }));
      expect(await store().beginIdempotent('co', 'K', 'h1', lease('ins_c', 120_000))).toEqual({ state: 'replay', status: 201, body: { kept: true } });
    });
  });
}
