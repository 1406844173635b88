/**
 * Store conformance: a campaign's status changed only from the statuses given (pause, resume and
 * cancel), and a campaign that is not running has none of its chunks claimed or held.
 */
import { describe, expect, it } from 'vitest';
import type { CurrentStore } from './conformance.ts';
import { campaign, company, range, seedCompany, writer } from './conformance-fixtures.ts';
import { at, customers, DUE, start } from './conformance-runs.ts';

export function describeCampaignControlConformance(store: CurrentStore, racers: number): void {
  describe('campaign status changes', () => {
    it('changes a campaign only from the statuses given, with the fields given', async () => {
      const { uuid } = await seedCompany(store());
      const w = writer();
      const a = await store().createCampaign(campaign(uuid, 'a', w.ctx.now));
      const later = w.tick();
      expect(await store().updateCampaignIf(uuid, a.id, ['running', 'paused'], { status: 'cancelled' }, later)).toBeNull();
      expect(await store().getCampaign(uuid, a.id)).toEqual(a);
      const paused = await store().updateCampaignIf(uuid, a.id, ['scheduled', 'running'], { status: 'paused', pause_reason: 'paused by the company' }, later);
      expect(paused).toEqual({ ...a, status: 'paused', pause_reason: 'paused by the company', updated_at: later });
      expect(await store().getCampaign(uuid, a.id)).toEqual(paused);
      expect(await store().countCampaignsByStatus(uuid)).toEqual({ paused: 1 });
      const cancelled = await store().updateCampaignIf(
        uuid,
        a.id,
        ['scheduled', 'running', 'paused'],
        { status: 'cancelled', pause_reason: null, next_run_at: null, endDate: '2025-01-15' },
        w.tick(),
      );
      expect(cancelled).toMatchObject({ status: 'cancelled', pause_reason: null, next_run_at: null, endDate: '2025-01-15' });
      expect(await store().countCampaignsByStatus(uuid)).toEqual({ cancelled: 1 });
      expect(await store().updateCampaignIf(uuid, 'cmp_unknown', ['scheduled'], { status: 'paused' }, later)).toBeNull();
      expect(await store().updateCampaignIf(company(9).uuid, a.id, ['cancelled'], { status: 'paused' }, later)).toBeNull();
    });

    it(`changes a campaign once when ${racers} changes from the same status race`, async () => {
      const { uuid } = await seedCompany(store());
      const w = writer();
      const a = await store().createCampaign(campaign(uuid, 'a', w.ctx.now));
      const later = w.tick();
      const results = await Promise.all(
        range(racers).map((i) => store().updateCampaignIf(uuid, a.id, ['scheduled'], { status: 'paused', pause_reason: `racer ${i}` }, later)),
      );
      const won = results.filter((r) => r !== null);
      expect(won).toHaveLength(1);
      expect(await store().getCampaign(uuid, a.id)).toEqual(won[0]);
    });

    it('keeps a status change only with the transaction it was made in', async () => {
      const { uuid } = await seedCompany(store());
      const w = writer();
      const a = await store().createCampaign(campaign(uuid, 'a', w.ctx.now));
      await expect(
        store().transaction(async (tx) => {
          await tx.updateCampaignIf(uuid, a.id, ['scheduled'], { status: 'paused', pause_reason: 'why' }, w.tick());
          throw new Error('the request failed after the change');
        }),
      ).rejects.toThrow('failed');
      expect(await store().getCampaign(uuid, a.id)).toEqual(a);
      expect(await store().countCampaignsByStatus(uuid)).toEqual({ scheduled: 1 });
    });
  });

  describe('chunks of a campaign that is not running', () => {
    it('claims none of its chunks, and claims them again once it runs', async () => {
      const co = await seedCompany(store());
      await customers(store(), co, 4);
      const paused = await store().createCampaign(campaign(co.uuid, 'paused', DUE));
      const other = await store().createCampaign(campaign(co.uuid, 'other', DUE));
      await start(store(), 2);
      expect(await store().runPlanned(paused.id, DUE)).toBe(true);
      expect(await store().runPlanned(paused.id, '2025-03-01T09:00:00.000Z')).toBe(false);
      await store().updateCampaignIf(co.uuid, paused.id, ['running'], { status: 'paused', pause_reason: 'why' }, DUE);
      const claimed = await store().claimChunks({ now: DUE, leaseUntil: at(10_000), claimToken: 'ins_a', limit: 10 });
      expect(claimed.map((c) => c.campaign_id)).toEqual([other.id, other.id]);
      await store().updateCampaignIf(co.uuid, other.id, ['running'], { status: 'cancelled', next_run_at: null }, DUE);
      expect(await store().claimChunks({ now: at(20_000), leaseUntil: at(30_000), claimToken: 'ins_b', limit: 10 })).toEqual([]);
      await store().updateCampaignIf(co.uuid, paused.id, ['paused'], { status: 'running', pause_reason: null }, DUE);
      const resumed = await store().claimChunks({ now: at(20_000), leaseUntil: at(30_000), claimToken: 'ins_b', limit: 10 });
      expect(resumed.map((c) => [c.campaign_id, c.seq])).toEqual([
        [paused.id, 1],
        [paused.id, 2],
      ]);
      expect(resumed.every((c) => c.campaign.status === 'running')).toBe(true);
    });

    it('holds a chunk only while its campaign runs; handed back, it is claimed once the campaign runs again', async () => {
      const co = await seedCompany(store());
      await customers(store(), co, 2);
      const c = await store().createCampaign(campaign(co.uuid, 'c', DUE));
      await start(store(), 10);
      const [chunk] = await store().claimChunks({ now: DUE, leaseUntil: at(10_000), claimToken: 'ins_a', limit: 10 });
      if (!chunk) throw new Error('a chunk expected');
      expect(await store().holdsChunk(chunk.id, 'ins_a', at(1_000))).toBe(true);
      await store().updateCampaignIf(co.uuid, c.id, ['running'], { status: 'paused', pause_reason: 'why' }, at(1_000));
      expect(await store().holdsChunk(chunk.id, 'ins_a', at(2_000))).toBe(false);
      await store().releaseChunk(chunk.id, 'ins_a');
      expect(await store().pendingChunks(c.id, DUE)).toBe(1);
      await store().updateCampaignIf(co.uuid, c.id, ['paused'], { status: 'running', pause_reason: null }, at(3_000));
      const [again] = await store().claimChunks({ now: at(3_000), leaseUntil: at(13_000), claimToken: 'ins_b', limit: 10 });
      expect(again?.id).toBe(chunk.id);
      // Handed back, not taken over.
      expect(again?.taken_over).toBeUndefined();
      expect(await store().holdsChunk(chunk.id, 'ins_b', at(4_000))).toBe(true);
    });

    it('closes every chunk of a campaign not done, held or not, and no other campaign’s', async () => {
      const co = await seedCompany(store());
      await customers(store(), co, 4);
      const c = await store().createCampaign(campaign(co.uuid, 'closed', DUE));
      const other = await store().createCampaign(campaign(co.uuid, 'kept', DUE));
      await start(store(), 2);
      await store().claimChunks({ now: DUE, leaseUntil: at(10_000), claimToken: 'ins_a', limit: 1 });
      expect(await store().closeChunks(c.id)).toBe(2);
      expect(await store().pendingChunks(c.id, DUE)).toBe(0);
      expect(await store().pendingChunks(other.id, DUE)).toBe(2);
      expect(await store().closeChunks(c.id)).toBe(0);
    });
  });
}
