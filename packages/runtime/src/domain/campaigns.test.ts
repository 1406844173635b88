/** The campaign rules (which campaigns are due, a run, what a run leaves), run through the scheduler on every store. */
import { afterEach, describe, expect, it } from 'vitest';
import { campaignFixture, runMessages } from '../../test/campaign-fixture.ts';
import { type CampaignWorld, describeCampaignScenarios } from '../../test/campaign-scenarios.ts';
import { forEveryStore } from '../../test/every-store.ts';
import { recordingChannel, togetherChannel } from '../../test/recording-channel.ts';
import { createScheduler } from '../campaigns/scheduler.ts';
import { createManualClock } from '../clock.ts';
import { createSeededIds } from '../ids.ts';
import { createLeases } from '../leases.ts';
import { createRuntime } from '../runtime.ts';
import type { Store } from '../store/ports.ts';
import type { CampaignRecord, CompanyRecord } from '../store/types.ts';
import { createCampaign } from './campaigns.ts';
import { type ChannelAdapter, createSimulatedChannel } from './channel.ts';
import { importCustomers } from './customers.ts';
import { buildReport } from './reports.ts';

/** A campaign's message totals, as the report reads them. */
async function totalsOf(store: Store, campaign: CampaignRecord) {
  const summary = (await store.newestCampaigns(campaign.company_uuid, 1000)).find((c) => c.id === campaign.id);
  if (!summary) throw new Error(`campaign ${campaign.id} not found`);
  return summary.messages;
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

forEveryStore((kind, makeStore) => {
  describe('campaign runs', () => {
    const storeFor = async () => {
      const store = await makeStore();
      cleanups.push(() => store.close());
      return store;
    };
    let n = 0;

    async function fixture(customers: number, campaign: Partial<CampaignRecord> = {}) {
      const store = await storeFor();
      return { store, ...(await campaignFixture(store, { seed: `${kind}-${n++}`, companyId: `RUN${n}${kind}`, customers, campaign })) };
    }

    it('runs a once campaign at its time: one message per customer, rendered, then completed', async () => {
      const { store, clock, ids, company, campaign } = await fixture(5);
      const channel = recordingChannel();
      const scheduler = createScheduler({ store, channel, clock, ids, chunkSize: 2 });
      expect(await scheduler.tick()).toBe(0);
      clock.set(new Date('2026-01-05T09:00:00.000Z'));
      // Three chunks: two customers, two, and the last one.
      expect(await scheduler.tick()).toBe(3);
      expect(channel.sent.map((m) => m.template.body[0]).sort()).toEqual(['C0', 'C1', 'C2', 'C3', 'C4']);
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({ status: 'completed', next_run_at: null, endDate: '2026-01-05' });
      expect(await store.messageTotals(company.uuid)).toEqual({ total: 5, sent: 5, delivered: expect.any(Number), read: expect.any(Number), failed: 0 });
      expect(await totalsOf(store, campaign)).toMatchObject({ total: 5, runs: 1, last_run_at: '2026-01-05T09:00:00.000Z' });
      expect(await scheduler.tick()).toBe(0);
    });

    it('runs a recurring campaign at each listed time and stays scheduled', async () => {
      const { store, clock, ids, company, campaign } = await fixture(2, { schedule_type: 'recurring', days: { monday: ['09:00', '18:30'] } });
      const channel = recordingChannel();
      const scheduler = createScheduler({ store, channel, clock, ids });
      clock.set(new Date('2026-01-05T09:00:30.000Z'));
      await scheduler.tick();
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({ status: 'scheduled', next_run_at: '2026-01-05T18:30:00.000Z' });
      clock.set(new Date('2026-01-05T18:30:00.000Z'));
      await scheduler.tick();
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({ status: 'scheduled', next_run_at: '2026-01-12T09:00:00.000Z' });
      expect(channel.sent).toHaveLength(4);
      expect((await totalsOf(store, campaign)).runs).toBe(2);
    });

    it('marks a run failed when every message failed', async () => {
      const { store, clock, ids, company, campaign } = await fixture(3);
      clock.set(new Date('2026-01-05T09:00:00.000Z'));
      await createScheduler({ store, channel: createSimulatedChannel({ failureRate: 1 }), clock, ids }).tick();
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({ status: 'failed' });
    });

    it('runs a due time once when two schedulers tick together', async () => {
      const { store, clock, ids, company } = await fixture(20);
      clock.set(new Date('2026-01-05T09:00:00.000Z'));
      const a = recordingChannel();
      const b = recordingChannel();
      await Promise.all([createScheduler({ store, channel: a, clock, ids }).tick(), createScheduler({ store, channel: b, clock, ids }).tick()]);
      expect(a.sent.length + b.sent.length).toBe(20);
      expect((await store.messageTotals(company.uuid)).total).toBe(20);
    });

    it('keeps its chunk through slow sends longer than a lease while its leases are renewed, so no other runner takes it over', async () => {
      const { store, clock, ids, company, campaign } = await fixture(8);
      clock.set(new Date('2026-01-05T09:00:00.000Z'));
      const other = createScheduler({ store, channel: recordingChannel(), clock, ids });
      const inner = recordingChannel();
      const leases = createLeases({ store, clock });
      const takenOver: number[] = [];
      const slow: ChannelAdapter = {
        name: 'slow',
        async send(m) {
          clock.advance(4_000); // each answer takes 4 s: the chunk of 8 takes 32 s, past the 10 s lease
          await store.renewLeases(leases.claimToken, leases.until()); // what the instance's lease timer does meanwhile
          takenOver.push(await other.tick());
          return inner.send(m);
        },
      };
      expect(await createScheduler({ store, channel: slow, clock, ids, leases }).tick()).toBe(1);
      expect(takenOver).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
      expect(inner.sent).toHaveLength(8);
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({ status: 'completed' });
    });

    it('takes over the chunk of a runner that died once its lease runs out: its message in a provider’s hands is marked failed, nobody is messaged twice', async () => {
      const { store, clock, ids, company, campaign } = await fixture(8);
      clock.set(new Date('2026-01-05T09:00:00.000Z'));
      const dying = recordingChannel(4); // hangs forever on its 4th send: a crash mid-run, in the second chunk
      void createScheduler({ store, channel: dying, clock, ids, leases: createLeases({ store, clock, leaseMs: 30_000 }), chunkSize: 3, concurrency: 1 }).tick();
      await dying.hung;
      const second = recordingChannel();
      const other = createScheduler({ store, channel: second, clock, ids, leases: createLeases({ store, clock, leaseMs: 30_000 }) });
      expect(await other.tick()).toBe(1); // the third chunk, which nobody held; the second's lease still holds
      clock.advance(31_000);
      expect(await other.tick()).toBe(1);
      const phones = [...dying.sent, ...second.sent].map((m) => m.to);
      expect(new Set(phones).size).toBe(phones.length);
      expect(second.sent).toHaveLength(4);
      const run = await runMessages(store, company.uuid, campaign.id);
      expect(run).toHaveLength(8);
      expect(run.filter((m) => m.status === 'failed')).toEqual([expect.objectContaining({ error: expect.stringContaining('interrupted') })]);
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({ status: 'completed' });
    });

    it('sends what a runner that died had recorded when its channel reaches nobody outside the process: no message is interrupted', async () => {
      const { store, clock, ids, company, campaign } = await fixture(8);
      clock.set(new Date('2026-01-05T09:00:00.000Z'));
      const dying = recordingChannel(5, Number.POSITIVE_INFINITY, false); // in-process: the chunk in flight had left nothing
      void createScheduler({ store, channel: dying, clock, ids, leases: createLeases({ store, clock, leaseMs: 30_000 }), chunkSize: 3, concurrency: 1 }).tick();
      await dying.hung;
      clock.advance(31_000);
      const second = recordingChannel(undefined, Number.POSITIVE_INFINITY, false);
      expect(await createScheduler({ store, channel: second, clock, ids }).tick()).toBe(2);
      const run = await runMessages(store, company.uuid, campaign.id);
      expect(run).toHaveLength(8);
      expect(run.filter((m) => m.status === 'failed')).toEqual([]);
      // The second chunk's three, recorded before the crash, are sent after it; the third chunk's two.
      expect(second.sent.map((m) => m.to).sort()).toEqual(
        [...dying.sent.slice(3), ...second.sent]
          .map((m) => m.to)
          .slice(-5)
          .sort(),
      );
      expect(await store.messageTotals(company.uuid)).toMatchObject({ total: 8, sent: 8, failed: 0 });
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({ status: 'completed' });
    });

    it('sends a slice at a time through a channel that takes many messages in flight, counting every message', async () => {
      const { store, clock, ids, company, campaign } = await fixture(7);
      clock.set(new Date('2026-01-05T09:00:00.000Z'));
      const channel = recordingChannel(undefined, Number.POSITIVE_INFINITY);
      expect(await createScheduler({ store, channel, clock, ids, chunkSize: 3 }).tick()).toBe(3);
      expect(channel.sent.map((m) => m.template.body[0]).sort()).toEqual(['C0', 'C1', 'C2', 'C3', 'C4', 'C5', 'C6']);
      expect(await store.messageTotals(company.uuid)).toMatchObject({ total: 7, sent: 7, failed: 0 });
      expect(await totalsOf(store, campaign)).toMatchObject({ total: 7, sent: 7, runs: 1 });
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({ status: 'completed' });
    });

    it('takes over a many-in-flight chunk of a provider’s channel: the slice left without answers is marked failed, nobody is messaged twice', async () => {
      const { store, clock, ids, company, campaign } = await fixture(8);
      clock.set(new Date('2026-01-05T09:00:00.000Z'));
      const dying = recordingChannel(5, Number.POSITIVE_INFINITY); // the second chunk (customers 4 to 6) never gets all its answers
      void createScheduler({ store, channel: dying, clock, ids, leases: createLeases({ store, clock, leaseMs: 30_000 }), chunkSize: 3, concurrency: 1 }).tick();
      await dying.hung;
      clock.advance(31_000);
      const second = recordingChannel();
      expect(await createScheduler({ store, channel: second, clock, ids }).tick()).toBe(2);
      const phones = [...dying.sent, ...second.sent].map((m) => m.to);
      expect(new Set(phones).size).toBe(phones.length);
      expect(second.sent).toHaveLength(2);
      const run = await runMessages(store, company.uuid, campaign.id);
      expect(run).toHaveLength(8);
      expect(run.filter((m) => m.status === 'failed').map((m) => m.error)).toEqual(Array(3).fill(expect.stringContaining('interrupted')));
      expect(await store.messageTotals(company.uuid)).toMatchObject({ total: 8, sent: 5, failed: 3 });
    });

    it('judges a resumed run on all its messages: sends before the crash make it completed though every later one failed', async () => {
      const { store, clock, ids, company, campaign } = await fixture(6);
      clock.set(new Date('2026-01-05T09:00:00.000Z'));
      const dying = recordingChannel(4);
      void createScheduler({ store, channel: dying, clock, ids, leases: createLeases({ store, clock, leaseMs: 30_000 }), chunkSize: 3, concurrency: 1 }).tick();
      await dying.hung;
      clock.advance(31_000);
      await createScheduler({ store, channel: createSimulatedChannel({ failureRate: 1 }), clock, ids }).tick();
      const run = await runMessages(store, company.uuid, campaign.id);
      expect(run.filter((m) => m.status !== 'failed')).toHaveLength(3);
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({ status: 'completed' });
    });

    it('shares one big run between two schedulers, each running chunks of it', async () => {
      const { store, clock, ids, company } = await fixture(12);
      clock.set(new Date('2026-01-05T09:00:00.000Z'));
      const a = recordingChannel();
      const b = recordingChannel();
      // The run planned first: a scheduler that finds no chunk to claim ends its tick, and the two start together.
      await store.startDueRuns({ now: clock.now().toISOString(), limit: 1, chunkSize: 2, newId: ids.newId });
      const tick = (channel: ChannelAdapter) => createScheduler({ store, channel, clock, ids, chunkSize: 2, concurrency: 1 }).tick();
      await Promise.all([tick(a), tick(b)]);
      expect(a.sent.length).toBeGreaterThan(0);
      expect(b.sent.length).toBeGreaterThan(0);
      expect(new Set([...a.sent, ...b.sent].map((m) => m.to)).size).toBe(12);
      expect((await store.messageTotals(company.uuid)).total).toBe(12);
    });

    it('starts campaigns due together together: the first chunk of each before the second of any', async () => {
      const { store, clock, ids, company, campaign } = await fixture(6);
      const other = await store.createCampaign({ ...campaign, id: ids.newId('cmp'), name: 'second', status: 'scheduled' });
      clock.set(new Date('2026-01-05T09:00:00.000Z'));
      const channel = togetherChannel(2);
      await createScheduler({ store, channel, clock, ids, chunkSize: 2, concurrency: 2 }).tick();
      // Two chunks at once: one of each campaign, their messages in flight together.
      expect(channel.together()).toBe(true);
      expect(await store.getCampaign(company.uuid, other.id)).toMatchObject({ status: 'completed' });
    });
  });
});

/** The shared campaign scenarios on the reference runtime (what the server runs), with a clock the test moves, on every store. */
forEveryStore((kind, makeStore) => {
  let n = 0;
  describeCampaignScenarios('campaign scenarios on the reference runtime', async (start, timeZone): Promise<CampaignWorld> => {
    const store = await makeStore();
    const clock = createManualClock(new Date(start));
    const ids = createSeededIds(`scenario-${kind}-${n++}`);
    const sent: ReturnType<CampaignWorld['sent']> = [];
    let failing = false;
    const simulated = createSimulatedChannel({ failureRate: 0 });
    const channel: ChannelAdapter = {
      name: 'scenario',
      async send(m) {
        sent.push({ campaignId: m.campaignId, to: m.to, body: m.template.body, runKey: m.runKey });
        return failing ? { status: 'failed', providerMessageId: null, error: 'failed: the scenario says so' } : simulated.send(m);
      },
    };
    const config = { jwtSecret: 'x'.repeat(32), adminTokenHash: 'unused', rateLimitPerMinute: 0, webhookAllowPrivate: true };
    const runtime = createRuntime({ store, clock, ids, channel, config });
    const company: CompanyRecord = { uuid: ids.uuid(), company_id: `SCN${n}`, name: 'Scenario', timezone: timeZone, created_at: start };
    await store.createCompany(company);
    const write = () => ({ newId: ids.newId, now: clock.now().toISOString() });
    return {
      async addCustomers(count) {
        const rows = Array.from({ length: count }, (_, i) => ({ phoneNumber: `+1415555${String(i).padStart(4, '0')}`, firstName: `C${i}` }));
        await importCustomers(store, write(), company.uuid, rows);
      },
      async createCampaign(campaign) {
        const created = await createCampaign(store, write(), company, campaign);
        if (created.outcome !== 'created') throw new Error(`campaign not created: ${created.outcome}`);
        return created.campaign;
      },
      async campaign(id) {
        const found = await store.getCampaign(company.uuid, id);
        if (!found) throw new Error(`no campaign ${id}`);
        return found;
      },
      runUntil: (until) => runtime.advanceTo(new Date(until), (time) => clock.set(time)),
      sent: () => sent,
      failEveryMessage() {
        failing = true;
      },
      reportedMessages: async () => (await buildReport(store, company.uuid, clock.now().toISOString()))?.messages.total ?? 0,
      close: () => runtime.close(),
    };
  });
});
