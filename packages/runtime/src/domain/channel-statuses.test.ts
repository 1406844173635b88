import { describe, expect, it } from 'vitest';
import type { MessageOutcome } from '../store/types.ts';
import type { ChannelStatus } from './channel.ts';
import { foldStatuses } from './channel-statuses.ts';

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
