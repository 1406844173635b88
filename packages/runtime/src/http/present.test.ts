import { Campaign, Customer, Delivery, Order, Template, WebhookEndpoint } from '@engagekit/contract';
import { describe, expect, it } from 'vitest';
import { campaign, company, endpoint, event, orderFields, template } from '../../test/store/conformance-fixtures.ts';
import { newOrderRecord } from '../domain/orders.ts';
import { pendingDelivery } from '../domain/webhooks.ts';
import { presentCampaign, presentCustomer, presentDelivery, presentEndpoint, presentOrder, presentTemplate } from './present.ts';

const now = '2026-01-05T08:00:00.000Z';
const write = { newId: (p: string) => `${p}_1`, now };
const co = company(1);

/** What the API shows of each kind of record, beside the contract's schema of it. */
const shown = [
  ['campaign', presentCampaign({ ...campaign(co.uuid, 'spring', now), seq: 1 }), Campaign],
  ['order', presentOrder(newOrderRecord('ord_1', co, 'ORD-1', orderFields(), now)), Order],
  [
    'customer',
    presentCustomer({
      id: 'cus_1',
      company_uuid: co.uuid,
      phoneNumber: '+14155550100',
      name: 'Asha Rao',
      firstName: 'Asha',
      lastName: 'Rao',
      email: null,
      source: 'orders',
      orders_count: 1,
      orders_amount: 10,
      created_at: now,
      updated_at: now,
    }),
    Customer,
  ],
  ['template', presentTemplate(template(co.uuid, 'tpl_1', now)), Template],
  ['endpoint', presentEndpoint(endpoint(co.uuid, 'wh_1', now)), WebhookEndpoint],
  ['delivery', presentDelivery(pendingDelivery(write, event(co, 'evt_1', now), 'wh_1')), Delivery],
] as const;

describe('presenters', () => {
  it.each(shown)('show a %s as exactly the contract schema’s fields, which it accepts', (_, value, schema) => {
    expect(Object.keys(value)).toEqual(Object.keys(schema.shape));
    expect(schema.strict().safeParse(value).error).toBeUndefined();
  });

  it('never show the store’s own fields', () => {
    for (const [, value] of shown) expect(Object.keys(value)).not.toEqual(expect.arrayContaining(['company_uuid']));
  });
});
