/** Pausing, resuming and cancelling a campaign: what each comes to, and what a run does meanwhile, on every store. */
import { afterEach, describe, expect, it } from 'vitest';
import { campaignFixture, RUN, runMessages } from '../../test/campaign-fixture.ts';
import { forEveryStore } from '../../test/every-store.ts';
import { recordingChannel } from '../../test/recording-channel.ts';
import { createScheduler } from '../campaigns/scheduler.ts';
import type { CampaignRecord } from '../store/types.ts';
import { cancelCampaign, PAUSED_BY_COMPANY, pauseCampaign, resumeCampaign } from './campaign-control.ts';
import type { ChannelAdapter } from './channel.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

forEveryStore((kind, makeStore) => {
  describe('campaign controls', () => {
    let n = 0;

    async function fixture(customers: number, campaign: Partial<CampaignRecord> = {}) {
      const store = await makeStore();
      cleanups.push(() => store.close());
      return { store, ...(await campaignFixture(store, { seed: `control-${kind}-${n++}`, companyId: `CTL${n}${kind}`, customers, campaign })) };
    }

    /** A recording channel that calls `during` as its `at`-th send goes out (before it is answered). */
    function channelThat(at: number, during: () => Promise<unknown>): ChannelAdapter & { sent: { customerId: string }[] } {
      const inner = recordingChannel();
      return {
        ...inner,
        async send(m) {
          if (inner.sent.length + 1 === at) await during();
          return inner.send(m);
        },
      };
    }

    it('pauses a scheduled campaign, answers a second pause as it is, resumes it and cancels it for good', async () => {
      const { store, clock, company, campaign } = await fixture(1);
      const paused = await pauseCampaign(store, company, campaign.id, PAUSED_BY_COMPANY, clock.now());
      expect(paused).toMatchObject({ outcome: 'done', changed: true, campaign: { status: 'paused', pause_reason: 'paused by the company' } });
      // A second pause, with another reason, keeps the first.
      expect(await pauseCampaign(store, { uuid: company.uuid }, campaign.id, 'error 132001: template welcome', clock.now())).toMatchObject({
        outcome: 'done',
        changed: false,
        campaign: { status: 'paused', pause_reason: 'paused by the company' },
      });
      expect(await resumeCampaign(store, company, campaign.id, clock.now())).toMatchObject({
        outcome: 'done',
        changed: true,
        campaign: { status: 'scheduled', pause_reason: null, next_run_at: RUN },
      });
      expect(await resumeCampaign(store, company, campaign.id, clock.now())).toMatchObject({
        outcome: 'done',
        changed: false,
        campaign: { status: 'scheduled' },
      });
      const cancelled = await cancelCampaign(store, company, campaign.id, clock.now());
      expect(cancelled).toMatchObject({ outcome: 'done', changed: true, campaign: { status: 'cancelled', next_run_at: null, endDate: '2026-01-05' } });
      expect(await cancelCampaign(store, company, campaign.id, clock.now())).toMatchObject({ outcome: 'done', changed: false });
      expect(await pauseCampaign(store, company, campaign.id, PAUSED_BY_COMPANY, clock.now())).toMatchObject({
        outcome: 'status_conflict',
        action: 'pause',
        allowed: ['scheduled', 'running'],
        campaign: { status: 'cancelled' },
      });
      expect(await resumeCampaign(store, company, campaign.id, clock.now())).toMatchObject({ outcome: 'status_conflict', allowed: ['paused'] });
    });

    it('refuses to pause or cancel a completed campaign, and knows no campaign of another company', async () => {
      const { store, clock, ids, company, campaign } = await fixture(2);
      clock.set(new Date(RUN));
      await createScheduler({ store, channel: recordingChannel(), clock, ids }).tick();
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({ status: 'completed' });
      for (const outcome of [
        await pauseCampaign(store, company, campaign.id, PAUSED_BY_COMPANY, clock.now()),
        await resumeCampaign(store, company, campaign.id, clock.now()),
        await cancelCampaign(store, company, campaign.id, clock.now()),
      ]) {
        expect(outcome).toMatchObject({ outcome: 'status_conflict', campaign: { status: 'completed' } });
      }
      expect(await pauseCampaign(store, company, 'cmp_unknown', PAUSED_BY_COMPANY, clock.now())).toBeNull();
      expect(await resumeCampaign(store, { uuid: ids.uuid() }, campaign.id, clock.now())).toBeNull();
      expect(await cancelCampaign(store, { uuid: ids.uuid() }, campaign.id, clock.now())).toBeNull();
    });

    it('stops a paused run after the message in flight, then a resume sends the rest: one message per customer', async () => {
      const { store, clock, ids, company, campaign } = await fixture(6);
      clock.set(new Date(RUN));
      const channel = channelThat(3, () => pauseCampaign(store, company, campaign.id, PAUSED_BY_COMPANY, clock.now()));
      const scheduler = createScheduler({ store, channel, clock, ids, chunkSize: 2, concurrency: 1 });
      // The first chunk is done; the second hands itself back after its first message.
      expect(await scheduler.tick()).toBe(1);
      expect(channel.sent).toHaveLength(3);
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({ status: 'paused', pause_reason: 'paused by the company', next_run_at: RUN });
      expect(await store.pendingChunks(campaign.id, RUN)).toBe(2);
      // While paused, nothing more is sent, however often the scheduler looks.
      clock.advance(60_000);
      expect(await scheduler.tick()).toBe(0);
      expect(channel.sent).toHaveLength(3);
      // A message recorded before the pause and never handed over (a crash) waits, pending: the resumed run sends it.
      const customers = (await store.listCustomers(company.uuid, { page: 1, limit: 100 })).items;
      const messaged = new Set((await runMessages(store, company.uuid, campaign.id)).map((m) => m.customer_id));
      expect(messaged.size).toBe(3);
      const unsent = customers.find((c) => !messaged.has(c.id)) as (typeof customers)[number];
      await store.insertMessages([
        {
          id: 'msg_recorded',
          company_uuid: company.uuid,
          campaign_id: campaign.id,
          customer_id: unsent.id,
          phone_number: unsent.phoneNumber,
          run_key: RUN,
          status: 'pending',
          error: null,
          error_code: null,
          provider_message_id: null,
          variables: {},
          attempts: 0,
          next_attempt_at: null,
          created_at: clock.now().toISOString(),
          updated_at: clock.now().toISOString(),
        },
      ]);
      expect(await resumeCampaign(store, company, campaign.id, clock.now())).toMatchObject({ outcome: 'done', changed: true, campaign: { status: 'running' } });
      expect(await scheduler.tick()).toBe(2);
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({ status: 'completed', pause_reason: null, next_run_at: null });
      expect(channel.sent.map((m) => m.customerId).sort()).toEqual(customers.map((c) => c.id).sort());
      const messages = await runMessages(store, company.uuid, campaign.id);
      expect(messages).toHaveLength(6);
      expect(messages.every((m) => m.status === 'sent' || m.status === 'delivered' || m.status === 'read')).toBe(true);
      expect(messages.find((m) => m.customer_id === unsent.id)?.id).toBe('msg_recorded');
    });

    it('ends at once, on resume, a run whose chunks were all done while it was paused', async () => {
      const { store, clock, ids, company, campaign } = await fixture(2);
      clock.set(new Date(RUN));
      // Paused as its last message goes out: its last chunk is done, but a paused run is not ended.
      const channel = channelThat(2, () => pauseCampaign(store, company, campaign.id, PAUSED_BY_COMPANY, clock.now()));
      await createScheduler({ store, channel, clock, ids, chunkSize: 10 }).tick();
      expect(await store.pendingChunks(campaign.id, RUN)).toBe(0);
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({ status: 'paused' });
      clock.advance(5_000);
      expect(await resumeCampaign(store, company, campaign.id, clock.now())).toMatchObject({
        outcome: 'done',
        changed: true,
        campaign: { status: 'completed', pause_reason: null, next_run_at: null, endDate: '2026-01-05' },
      });
    });

    it('makes a campaign paused before its run due at once when its time passed meanwhile', async () => {
      const { store, clock, ids, company, campaign } = await fixture(3);
      await pauseCampaign(store, company, campaign.id, PAUSED_BY_COMPANY, clock.now());
      const channel = recordingChannel();
      const scheduler = createScheduler({ store, channel, clock, ids });
      clock.set(new Date('2026-01-05T10:00:00.000Z'));
      await scheduler.tick();
      expect(channel.sent).toHaveLength(0);
      expect(await resumeCampaign(store, company, campaign.id, clock.now())).toMatchObject({ campaign: { status: 'scheduled', next_run_at: RUN } });
      await scheduler.tick();
      expect(channel.sent).toHaveLength(3);
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({ status: 'completed' });
    });

    it('stops a cancelled run after the message in flight, and never runs a cancelled recurring campaign again', async () => {
      const { store, clock, ids, company, campaign } = await fixture(4, { schedule_type: 'recurring', days: { monday: ['09:00'] } });
      clock.set(new Date(RUN));
      const channel = channelThat(2, () => cancelCampaign(store, company, campaign.id, clock.now()));
      const scheduler = createScheduler({ store, channel, clock, ids, chunkSize: 10 });
      await scheduler.tick();
      expect(channel.sent).toHaveLength(2);
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({ status: 'cancelled', next_run_at: null, endDate: '2026-01-05' });
      // Its run's chunk is closed: no claim meets it again.
      expect(await store.pendingChunks(campaign.id, RUN)).toBe(0);
      expect(await store.nextCampaignDue(RUN)).toBeNull();
      clock.set(new Date('2026-01-12T09:00:00.000Z'));
      await scheduler.tick();
      expect(channel.sent).toHaveLength(2);
      expect(await resumeCampaign(store, company, campaign.id, clock.now())).toMatchObject({ outcome: 'status_conflict' });
    });
  });
});
