import { EventType, Order, WebhookEvent } from '@engagekit/contract';
import { describe, expect, it } from 'vitest';
import { company } from '../../test/store/conformance-fixtures.ts';
import { testEvent } from './webhook-endpoints.ts';

const write = { newId: (prefix: string) => `${prefix}_1`, now: '2026-01-05T08:00:00.000Z' };

describe('testEvent', () => {
  it.each(EventType.options)('sends a %s event whose sample order the contract’s Order accepts, field for field', (type) => {
    const { payload } = testEvent(write, company(1), type);
    expect(WebhookEvent.safeParse(payload).error).toBeUndefined();
    expect(Order.strict().safeParse((payload.data as { order: unknown }).order).error).toBeUndefined();
    expect(payload).toMatchObject({ type, test: true, data: { order: { company_id: 'CO1', company_order_id: 'TEST-ORDER', companyOrderDate: '2026-01-05' } } });
  });
});
