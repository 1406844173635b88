/**
 * Store conformance: a provider's statuses move messages forward only (`rules/message-status.ts`),
 * found by the message's own id or the provider's, with the report's counts moving with them; and the
 * statuses kept until their message is known.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/ports.ts';
import type { CampaignRecord, KeptStatusRecord, MessageRecord, StatusWrite } from '../../src/store/types.ts';
import type { CurrentStore } from './conformance.ts';
import { campaign, range, seedCompany, writer } from './conformance-fixtures.ts';

const RUN = '2025-02-01T09:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(RUN) + ms).toISOString();

/** A campaign with `n` messages, `msg_0`..., in `status`, the provider id `wamid.<i>` given to those past `sending`. */
async function messages(store: Store, n: number, status: MessageRecord['status'] = 'sending'): Promise<CampaignRecord> {
  const co = await seedCompany(store);
  const c = await store.createCampaign(campaign(co.uuid, 'statuses', writer().ctx.now));
  await store.insertMessages(
    range(n).map((i) => ({
      id: `msg_${i}`,
      company_uuid: co.uuid,
      campaign_id: c.id,
      customer_id: `cus_${i}`,
      phone_number: `+1415555${String(i).padStart(4, '0')}`,
      run_key: RUN,
      status,
      error: null,
      error_code: null,
      provider_message_id: status === 'pending' || status === 'sending' ? null : `wamid.${i}`,
      variables: {},
      attempts: 0,
      next_attempt_at: null,
      created_at: RUN,
      updated_at: RUN,
    })),
  );
  return c;
}

/** A status of message i, found by the provider's id (and by its own id with `own`). */
const status = (i: number, s: StatusWrite['status'], opts: { own?: boolean; code?: number } = {}): StatusWrite => ({
  message_id: opts.own ? `msg_${i}` : null,
  provider_message_id: `wamid.${i}`,
  status: s,
  error: s === 'failed' ? 'Message undeliverable' : null,
  error_code: s === 'failed' ? (opts.code ?? 131026) : null,
});

const statusOf = async (store: Store, c: CampaignRecord, i: number) => (await store.listRunMessages(c.id, RUN, [`cus_${i}`]))[0];
const totals = async (store: Store, c: CampaignRecord) => (await store.newestCampaigns(c.company_uuid, 1))[0]?.messages;

export function describeStatusConformance(store: CurrentStore): void {
  describe('provider statuses', () => {
    it('move a message forward only: duplicates and older statuses change nothing, read without delivered counts as both', async () => {
      const c = await messages(store(), 4, 'sent');
      expect(await store().applyStatuses([status(0, 'delivered'), status(1, 'read'), status(2, 'delivered'), status(9, 'read')], at(1))).toEqual({
        found: [true, true, true, false],
        repeated: 0,
      });
      // Judged against the messages before the write: msg_0's delivered is held already; msg_1 is read, not
      // delivered; msg_2 is delivered, not read (twice here: that is the caller's to count); a sent never counts.
      expect(
        await store().applyStatuses([status(0, 'delivered'), status(1, 'delivered'), status(1, 'sent'), status(2, 'read'), status(2, 'read')], at(2)),
      ).toEqual({ found: [true, true, true, true, true], repeated: 1 });
      expect(await store().applyStatuses([status(2, 'read'), status(3, 'sent')], at(3))).toEqual({ found: [true, true], repeated: 1 });
      expect((await statusOf(store(), c, 0))?.status).toBe('delivered');
      expect((await statusOf(store(), c, 1))?.status).toBe('read');
      expect(await statusOf(store(), c, 2)).toMatchObject({ status: 'read', updated_at: at(2) });
      expect(await totals(store(), c)).toMatchObject({ total: 4, sent: 4, delivered: 3, read: 2, failed: 0 });
    });

    it('fail a sent message with its code, but never one delivered or read; the report counts failures by code', async () => {
      const c = await messages(store(), 4, 'sent');
      await store().applyStatuses([status(3, 'read')], at(1));
      await store().applyStatuses([status(0, 'failed'), status(1, 'failed', { code: 131049 }), status(2, 'failed'), status(3, 'failed')], at(2));
      expect(await statusOf(store(), c, 0)).toMatchObject({ status: 'failed', error: 'Message undeliverable', error_code: 131026 });
      expect((await statusOf(store(), c, 3))?.status).toBe('read');
      // A provider's failure is final: a late `sent` or `delivered` leaves it failed; the same failure again is a repeat.
      expect(await store().applyStatuses([status(0, 'delivered'), status(1, 'failed', { code: 131049 })], at(3))).toEqual({ found: [true, true], repeated: 1 });
      expect((await statusOf(store(), c, 0))?.status).toBe('failed');
      expect(await totals(store(), c)).toMatchObject({
        total: 4,
        sent: 1,
        failed: 3,
        failed_by_code: [
          { code: 131026, count: 2 },
          { code: 131049, count: 1 },
        ],
      });
    });

    it("find a message by its own id before the send's answer names it, and the late answer moves it no further back", async () => {
      const c = await messages(store(), 2, 'sending');
      expect((await store().applyStatuses([status(0, 'read', { own: true }), status(1, 'delivered')], at(1))).found).toEqual([true, false]);
      expect(await statusOf(store(), c, 0)).toMatchObject({ status: 'read', provider_message_id: 'wamid.0' });
      await store().updateMessages([{ id: 'msg_0', status: 'sent', error: null, error_code: null, provider_message_id: 'wamid.0' }], at(2));
      expect(await statusOf(store(), c, 0)).toMatchObject({ status: 'read', provider_message_id: 'wamid.0' });
      // Another app's callback data naming the same id does not take a message that has another provider id.
      expect(await store().applyStatuses([{ ...status(5, 'failed'), message_id: 'msg_0' }], at(3))).toEqual({ found: [false], repeated: 0 });
      expect((await statusOf(store(), c, 0))?.status).toBe('read');
    });

    it('correct a failure recorded without the provider (an interrupted hand-off) once the provider reports the message', async () => {
      const c = await messages(store(), 2, 'sending');
      const interrupted = (i: number) => ({ id: `msg_${i}`, status: 'failed' as const, error: 'interrupted', error_code: null, provider_message_id: null });
      await store().updateMessages([interrupted(0), interrupted(1)], at(1));
      expect(await totals(store(), c)).toMatchObject({ failed: 2, failed_by_code: [{ code: null, count: 2 }] });
      await store().applyStatuses([status(0, 'sent', { own: true })], at(2));
      expect(await statusOf(store(), c, 0)).toMatchObject({ status: 'sent', error: null, provider_message_id: 'wamid.0' });
      // An interrupted hand-off does not undo what the provider reported.
      await store().updateMessages([interrupted(0)], at(3));
      expect((await statusOf(store(), c, 0))?.status).toBe('sent');
      expect(await totals(store(), c)).toMatchObject({ sent: 1, failed: 1, failed_by_code: [{ code: null, count: 1 }] });
    });

    it('put messages still sending back to pending, with their attempts, next attempt and refusal; others stay as they are', async () => {
      const c = await messages(store(), 3, 'sending');
      await store().updateMessages([{ id: 'msg_2', status: 'sent', error: null, error_code: null, provider_message_id: 'wamid.2' }], at(1));
      const refusal = { error: 'Rate limit hit', error_code: 130429 };
      await store().deferMessages(
        [
          { id: 'msg_0', attempts: 1, next_attempt_at: at(2_000), ...refusal },
          { id: 'msg_1', attempts: 2, next_attempt_at: null, error: 'Template paused', error_code: 132015 },
          { id: 'msg_2', attempts: 1, next_attempt_at: at(2_000), ...refusal },
        ],
        at(2),
      );
      expect(await statusOf(store(), c, 0)).toMatchObject({
        status: 'pending',
        attempts: 1,
        next_attempt_at: at(2_000),
        ...refusal,
        provider_message_id: null,
      });
      expect(await statusOf(store(), c, 1)).toMatchObject({ status: 'pending', attempts: 2, next_attempt_at: null, error_code: 132015 });
      expect(await statusOf(store(), c, 2)).toMatchObject({ status: 'sent', attempts: 0, next_attempt_at: null });
      // Pending messages count in the total only; a refusal for now is no failure.
      expect(await totals(store(), c)).toMatchObject({ total: 3, sent: 1, failed: 0, failed_by_code: [] });
    });

    it('keep statuses that found no message until one has their provider id, and forget them when they expire', async () => {
      const c = await messages(store(), 2, 'sending');
      const kept = (i: number, id: string, receivedAt: string): KeptStatusRecord => ({
        ...status(i, 'delivered'),
        id,
        at: receivedAt,
        received_at: receivedAt,
      });
      await store().keepStatuses([kept(0, 'sts_a', at(1)), kept(1, 'sts_b', at(2)), kept(7, 'sts_c', at(0))]);
      expect(await store().matchedKeptStatuses(10)).toEqual([]);
      await store().updateMessages([{ id: 'msg_0', status: 'sent', error: null, error_code: null, provider_message_id: 'wamid.0' }], at(3));
      expect(await store().matchedKeptStatuses(10)).toEqual([kept(0, 'sts_a', at(1))]);
      await store().dropKeptStatuses(['sts_a']);
      expect(await store().matchedKeptStatuses(10)).toEqual([]);
      expect(await store().expireKeptStatuses(at(2))).toBe(1);
      await store().updateMessages([{ id: 'msg_1', status: 'sent', error: null, error_code: null, provider_message_id: 'wamid.1' }], at(4));
      expect((await store().matchedKeptStatuses(10)).map((k) => k.id)).toEqual(['sts_b']);
      expect(c.id).toBeTruthy();
    });
  });
}
