/** What a campaign run does with a provider's refusals, by their class (`domain/send-failures.ts`), on every store. */
import { afterEach, describe, expect, it } from 'vitest';
import { campaignFixture, RUN, runMessages } from '../../test/campaign-fixture.ts';
import { forEveryStore } from '../../test/every-store.ts';
import { recordingChannel } from '../../test/recording-channel.ts';
import { createScheduler } from '../campaigns/scheduler.ts';
import type { Store } from '../store/ports.ts';
import { resumeCampaign } from './campaign-control.ts';
import type { ChannelAdapter, OutboundMessage, SendResult } from './channel.ts';

/** The statuses of a message the provider took (the simulated channel's fates follow at once). */
const REACHED = /^(sent|delivered|read)$/;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A refusal the Cloud API answers with `code`. */
const refused = (code: number): SendResult => ({
  status: 'failed',
  providerMessageId: null,
  error: `WhatsApp answered 400: (#${code}) refused (code ${code})`,
  errorCode: code,
  failure: { httpStatus: 400, code, mayHaveReached: true },
  retryAfterMs: null,
});

/** A channel that records every send and answers `refuse(message, attempt)` when that gives a result, else sends; attempts count per customer from 1. */
function refusingChannel(refuse: (m: OutboundMessage, attempt: number) => SendResult | undefined): ChannelAdapter & { sent: OutboundMessage[] } {
  const inner = recordingChannel();
  const attempts = new Map<string, number>();
  const sent: OutboundMessage[] = [];
  return {
    ...inner,
    sent,
    async send(m) {
      sent.push(m);
      const attempt = (attempts.get(m.customerId) ?? 0) + 1;
      attempts.set(m.customerId, attempt);
      return refuse(m, attempt) ?? inner.send(m);
    },
  };
}

forEveryStore((kind, makeStore) => {
  describe('refusals by class', () => {
    let n = 0;

    async function fixture(customers: number) {
      const store = await makeStore();
      cleanups.push(() => store.close());
      const made = await campaignFixture(store, { seed: `refusals-${kind}-${n++}`, companyId: `REF${n}${kind}`, customers, clockAt: RUN });
      return { store, ...made, messages: () => runMessages(store, made.company.uuid, made.campaign.id) };
    }

    const statusOf = async (store: Store, uuid: string, id: string) => (await store.getCampaign(uuid, id))?.status;

    it('sends a message refused for now again after the backoff, and fails one refused for good with its code, not again', async () => {
      const { store, clock, ids, company, campaign, messages } = await fixture(4);
      // Customer 0 is refused twice for now (131000), customer 1 is undeliverable (131026).
      const channel = refusingChannel((m, attempt) =>
        m.to.endsWith('0000') && attempt <= 2 ? refused(131000) : m.to.endsWith('0001') ? refused(131026) : undefined,
      );
      const scheduler = createScheduler({ store, channel, clock, ids, chunkSize: 10, retry: { baseMs: 1000, maxAttempts: 5 } });
      await scheduler.tick();
      expect(await statusOf(store, company.uuid, campaign.id)).toBe('running');
      const waiting = (await messages()).find((m) => m.phone_number.endsWith('0000'));
      expect(waiting).toMatchObject({ status: 'pending', attempts: 1, error_code: 131000 });
      // Not before its next attempt, then again (500 to 1000 ms for the first retry, 2 to 4 s for the second).
      await scheduler.tick();
      expect(channel.sent.filter((m) => m.to.endsWith('0000'))).toHaveLength(1);
      clock.advance(1000);
      await scheduler.tick();
      expect((await messages()).find((m) => m.phone_number.endsWith('0000'))).toMatchObject({ status: 'pending', attempts: 2 });
      clock.advance(4000);
      await scheduler.tick();
      const done = await messages();
      expect(done.find((m) => m.phone_number.endsWith('0000'))).toMatchObject({ status: expect.stringMatching(REACHED), attempts: 2 });
      expect(done.find((m) => m.phone_number.endsWith('0001'))).toMatchObject({ status: 'failed', error_code: 131026, attempts: 0 });
      expect(channel.sent.filter((m) => m.to.endsWith('0001'))).toHaveLength(1);
      expect(channel.sent).toHaveLength(6);
      expect(await statusOf(store, company.uuid, campaign.id)).toBe('completed');
    });

    it('fails a message refused for now once it has had its attempts, with the last code', async () => {
      const { store, clock, ids, company, campaign, messages } = await fixture(1);
      const channel = refusingChannel(() => refused(130429));
      const scheduler = createScheduler({ store, channel, clock, ids, retry: { baseMs: 10, maxAttempts: 3 } });
      for (let i = 0; i < 5; i++) {
        await scheduler.tick();
        clock.advance(1000);
      }
      expect(channel.sent).toHaveLength(3);
      expect((await messages())[0]).toMatchObject({ status: 'failed', error_code: 130429, error: expect.stringMatching(/given up after 3 attempts/) });
      expect(await statusOf(store, company.uuid, campaign.id)).toBe('failed');
    });

    it('pauses the campaign on a template refusal, naming the code and template, sends nothing more, and the resume sends the rest', async () => {
      const { store, clock, ids, company, campaign, messages } = await fixture(6);
      let approved = false;
      const channel = refusingChannel((m) => (!approved && m.to.endsWith('0002') ? refused(132001) : undefined));
      const scheduler = createScheduler({ store, channel, clock, ids, chunkSize: 3, concurrency: 1 });
      await scheduler.tick();
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({
        status: 'paused',
        pause_reason: expect.stringMatching(/^WhatsApp error 132001 on template welcome: /),
      });
      const sentBefore = channel.sent.length;
      clock.advance(60_000);
      await scheduler.tick();
      expect(channel.sent).toHaveLength(sentBefore);
      expect((await messages()).find((m) => m.phone_number.endsWith('0002'))).toMatchObject({ status: 'pending', error_code: 132001 });
      approved = true;
      await resumeCampaign(store, company, campaign.id, clock.now());
      await scheduler.tick();
      expect(await statusOf(store, company.uuid, campaign.id)).toBe('completed');
      const all = await messages();
      expect(all).toHaveLength(6);
      expect(all.filter((m) => !REACHED.test(m.status))).toEqual([]);
      // Each customer messaged once, the refused one twice (refused, then sent).
      expect(channel.sent.filter((m) => m.to.endsWith('0002'))).toHaveLength(2);
      expect(new Set(channel.sent.map((m) => m.customerId)).size).toBe(6);
    });

    it('fails the run on a configuration refusal, with the code as its reason, and sends nothing more of it', async () => {
      const { store, clock, ids, company, campaign, messages } = await fixture(6);
      const channel = refusingChannel((m) => (m.to.endsWith('0001') ? refused(190) : undefined));
      const scheduler = createScheduler({ store, channel, clock, ids, chunkSize: 2, concurrency: 1 });
      await scheduler.tick();
      expect(await store.getCampaign(company.uuid, campaign.id)).toMatchObject({
        status: 'failed',
        failure_reason: expect.stringMatching(/^WhatsApp error 190 \(the access token\): /),
        next_run_at: null,
      });
      // The chunks before the refused one's went; those after it never ran, and never will.
      const sent = channel.sent.length;
      expect(sent).toBeLessThan(6);
      clock.advance(60_000);
      await scheduler.tick();
      expect(channel.sent).toHaveLength(sent);
      expect((await messages()).find((m) => m.phone_number.endsWith('0001'))).toMatchObject({ status: 'failed', error_code: 190 });
      // A failed campaign is not resumed.
      expect(await resumeCampaign(store, company, campaign.id, clock.now())).toMatchObject({ outcome: 'status_conflict' });
    });

    it('gives back the pair turn of a refused send: its retry waits the backoff, not the gap', async () => {
      const { store, clock, ids, company, campaign, messages } = await fixture(2);
      const channel = {
        ...refusingChannel((m, attempt) => (m.to.endsWith('0000') && attempt === 1 ? refused(131000) : undefined)),
        pace: { key: 'pn:given-back', perSecond: 1000, pairGapMs: 6000 },
      };
      const scheduler = createScheduler({ store, channel, clock, ids, retry: { baseMs: 1000, maxAttempts: 5 } });
      await scheduler.tick();
      clock.advance(1100);
      await scheduler.tick();
      expect(channel.sent.filter((m) => m.to.endsWith('0000'))).toHaveLength(2);
      expect((await messages()).find((m) => m.phone_number.endsWith('0000'))).toMatchObject({ status: expect.stringMatching(REACHED), attempts: 1 });
      expect(await statusOf(store, company.uuid, campaign.id)).toBe('completed');
    });

    it('keeps the pair rate: a customer messaged less than the gap ago waits for its turn, then gets the second campaign', async () => {
      const { store, clock, ids, company, campaign } = await fixture(3);
      const second = await store.createCampaign({ ...campaign, id: ids.newId('cmp'), name: 'hello again', status: 'scheduled', next_run_at: RUN });
      const channel = { ...refusingChannel(() => undefined), pace: { key: 'pn:pair', perSecond: 1000, pairGapMs: 6000 } };
      const scheduler = createScheduler({ store, channel, clock, ids, chunkSize: 10, concurrency: 2 });
      await scheduler.tick();
      // One campaign's three went; the other's wait their turn.
      expect(channel.sent).toHaveLength(3);
      clock.advance(5000);
      await scheduler.tick();
      expect(channel.sent).toHaveLength(3);
      clock.advance(1100);
      await scheduler.tick();
      expect(channel.sent).toHaveLength(6);
      for (const c of [campaign, second]) expect(await statusOf(store, company.uuid, c.id)).toBe('completed');
      // Each customer had one message of each campaign, and no attempt was spent waiting.
      expect(new Set(channel.sent.map((m) => `${m.campaignId}:${m.customerId}`)).size).toBe(6);
      expect((await runMessages(store, company.uuid, second.id)).every((m) => m.attempts === 0)).toBe(true);
    });
  });
});
