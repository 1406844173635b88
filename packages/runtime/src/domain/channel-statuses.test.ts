import { describe, expect, it } from 'vitest';
import { campaign, seedCompany, writer } from '../../test/store/conformance-fixtures.ts';
import { createMemoryStore } from '../store/memory/store.ts';
import type { MessageOutcome } from '../store/types.ts';
import type { ChannelStatus } from './channel.ts';
import { applyChannelStatuses, foldStatuses } from './channel-statuses.ts';

const sent = (id: string): MessageOutcome => ({ id, status: 'sent', error: null, error_code: null, provider_message_id: `p_${id}` });
const status = (id: string, s: ChannelStatus['status'], extra: Partial<ChannelStatus> = {}): ChannelStatus => ({
  providerMessageId: `p_${id}`,
  messageId: id,
  status: s,
  at: '2026-01-05T09:00:00.000Z',
  error: null,
  ...extra,
});

describe('foldStatuses', () => {
  it("writes a slice's own statuses with its outcomes, the furthest of each, and returns the others", () => {
    const folded = foldStatuses(
      [sent('a'), sent('b'), sent('c'), { id: 'd', status: 'failed', error: 'the channel failed: reset', error_code: null, provider_message_id: null }],
      [
        status('a', 'delivered'),
        status('a', 'read'),
        status('b', 'failed', { error: { code: 131026, title: 'Message undeliverable' } }),
        status('d', 'sent'),
        status('z', 'read'),
        status('y', 'delivered', { messageId: null }),
      ],
    );
    expect(folded.outcomes).toEqual([
      { id: 'a', status: 'read', error: null, error_code: null, provider_message_id: 'p_a' },
      { id: 'b', status: 'failed', error: 'Message undeliverable', error_code: 131026, provider_message_id: 'p_b' },
      sent('c'),
      // A failure recorded without the provider is corrected by the provider's word, as applyChannelStatuses does.
      { id: 'd', status: 'sent', error: null, error_code: null, provider_message_id: 'p_d' },
    ]);
    expect(folded.rest.map((s) => s.providerMessageId)).toEqual(['p_z', 'p_y']);
  });

  it('moves nothing back: a status behind its outcome changes nothing', () => {
    const read: MessageOutcome = { ...sent('a'), status: 'read' };
    expect(foldStatuses([read], [status('a', 'delivered'), status('a', 'failed')])).toEqual({ outcomes: [read], rest: [] });
  });
});

describe('applyChannelStatuses', () => {
  it('counts as repeats a status given twice in the batch and one its message held before, but no sent and no kept one', async () => {
    const store = createMemoryStore();
    const { now } = writer().ctx;
    const co = await seedCompany(store);
    const c = await store.createCampaign(campaign(co.uuid, 'repeats', now));
    await store.insertMessages(
      ['a', 'b'].map((id) => ({
        id,
        company_uuid: co.uuid,
        campaign_id: c.id,
        customer_id: `cus_${id}`,
        phone_number: '+14155550000',
        run_key: now,
        status: 'sent' as const,
        error: null,
        error_code: null,
        provider_message_id: `p_${id}`,
        variables: {},
        attempts: 0,
        next_attempt_at: null,
        created_at: now,
        updated_at: now,
      })),
    );
    let n = 0;
    const apply = (statuses: ChannelStatus[]) => applyChannelStatuses(store, statuses, (p) => `${p}_${n++}`, now);
    // The sents repeat the send's answer, which is not told apart from the provider's own; the second delivered of a is a repeat.
    expect(await apply([status('a', 'sent'), status('a', 'delivered'), status('a', 'delivered'), status('b', 'sent'), status('z', 'read')])).toEqual({
      matched: 2,
      kept: 1,
      repeated: 1,
    });
    // a's delivered again, in a later write, and z's read again (kept: no message holds it).
    expect(await apply([status('a', 'delivered'), status('b', 'read'), status('z', 'read')])).toEqual({ matched: 2, kept: 1, repeated: 1 });
  });
});
