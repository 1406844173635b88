import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { AddOrderBody, CreateCampaignBody, CreateTokenBody, operations, UpdateOrderBody } from '../src/index.ts';

/** The dot-paths of every issue a parse reports. */
function issuePaths(schema: z.ZodType, input: unknown): string[] {
  const r = schema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
}

const order = {
  company_id: 'VERPL000972024',
  company_order_id: 'ORD-001',
  totalAmount: 1500.75,
  firstName: 'John',
  phoneNumber: '+1234567890',
  postalCode: '56789',
  streetAddress1: '123 Main Street',
};

const campaign = {
  name: 'spring',
  schedule_type: 'once',
  schedule: '2025-01-15T10:00:00Z',
  template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: 'Asha' } },
};

describe('AddOrderBody', () => {
  it('accepts the seven mandatory fields alone', () => {
    expect(issuePaths(AddOrderBody, order)).toEqual([]);
  });

  it.each(Object.keys(order))('names %s when it is missing', (field) => {
    const { [field as keyof typeof order]: _gone, ...rest } = order;
    expect(issuePaths(AddOrderBody, rest)).toEqual([field]);
  });

  it.each(['1234567890', '+0123456789', '+12 345 678', '+12345', 'phone'])('refuses the phone number %j', (phoneNumber) => {
    expect(issuePaths(AddOrderBody, { ...order, phoneNumber })).toEqual(['phoneNumber']);
  });

  it('refuses a negative amount, at the top and in a product', () => {
    expect(issuePaths(AddOrderBody, { ...order, totalAmount: -1 })).toEqual(['totalAmount']);
    expect(issuePaths(AddOrderBody, { ...order, products: [{ product_id: '1', quantity: 1, price: -0.01 }] })).toEqual(['products.0.price']);
  });

  it('refuses an amount given as text', () => {
    expect(issuePaths(AddOrderBody, { ...order, totalAmount: '1500' })).toEqual(['totalAmount']);
  });

  it.each(['2024-02-30', '2024-13-01', '15/11/2024', '2024-11-15T00:00:00Z'])('refuses the date %j', (companyOrderDate) => {
    expect(issuePaths(AddOrderBody, { ...order, companyOrderDate })).toEqual(['companyOrderDate']);
  });

  it('accepts a leap day', () => {
    expect(issuePaths(AddOrderBody, { ...order, companyOrderDate: '2024-02-29' })).toEqual([]);
  });

  it('lists every bad field at once', () => {
    expect(issuePaths(AddOrderBody, { ...order, phoneNumber: '123', totalAmount: -5, email: 'nope' }).sort()).toEqual(['email', 'phoneNumber', 'totalAmount']);
  });
});

describe('UpdateOrderBody', () => {
  it('needs company_id and nothing else', () => {
    expect(issuePaths(UpdateOrderBody, { company_id: 'VERPL000972024' })).toEqual([]);
    expect(issuePaths(UpdateOrderBody, { firstName: 'Jane' })).toEqual(['company_id']);
  });

  it('still checks the fields it is given', () => {
    expect(issuePaths(UpdateOrderBody, { company_id: 'VERPL000972024', phoneNumber: '98765' })).toEqual(['phoneNumber']);
  });
});

describe('CreateCampaignBody', () => {
  it('accepts a once campaign', () => {
    expect(issuePaths(CreateCampaignBody, campaign)).toEqual([]);
  });

  it('refuses a body that is no object with an issue, without throwing', () => {
    for (const body of [null, 'x', 1, []]) expect(issuePaths(CreateCampaignBody, body)).toEqual(['']);
  });

  it('refuses an unknown schedule type', () => {
    expect(issuePaths(CreateCampaignBody, { ...campaign, schedule_type: 'weekly' })).toEqual(['schedule_type']);
  });

  it('needs days for a recurring campaign', () => {
    expect(issuePaths(CreateCampaignBody, { ...campaign, schedule_type: 'recurring' })).toEqual(['days']);
    expect(issuePaths(CreateCampaignBody, { ...campaign, schedule_type: 'recurring', days: { monday: ['09:00'] } })).toEqual([]);
  });

  it('refuses an unknown day and a 12-hour time', () => {
    expect(issuePaths(CreateCampaignBody, { ...campaign, schedule_type: 'recurring', days: { mondey: ['09:00'] } })).toEqual(['days']);
    expect(issuePaths(CreateCampaignBody, { ...campaign, schedule_type: 'recurring', days: { monday: ['9:00 PM'] } })).toEqual(['days.monday.0']);
    expect(issuePaths(CreateCampaignBody, { ...campaign, schedule_type: 'recurring', days: { monday: ['24:00'] } })).toEqual(['days.monday.0']);
  });

  it.each([
    ['2030-02-30T00:00:00Z', 'must be a real date: 2030-02-30 does not exist'],
    ['2030-04-31T00:00:00Z', 'must be a real date: 2030-04-31 does not exist'],
    ['2031-02-29T00:00:00Z', 'must be a real date: 2031-02-29 does not exist'],
    ['2100-02-29T12:00:00+05:30', 'must be a real date: 2100-02-29 does not exist'],
    ['2030-13-01T00:00:00Z', 'must be a real date: 2030-13-01 does not exist'],
    ['2030-00-10T00:00:00Z', 'must be a real date: 2030-00-10 does not exist'],
    ['2030-01-00T00:00:00Z', 'must be a real date: 2030-01-00 does not exist'],
    ['2030-01-15T24:00:00Z', 'must be a real time of day: 24:00:00 does not exist (00:00:00 to 23:59:59)'],
    ['2030-01-15T10:60:00Z', 'must be a real time of day: 10:60:00 does not exist (00:00:00 to 23:59:59)'],
    ['2030-01-15T10:00:60Z', 'must be a real time of day: 10:00:60 does not exist (00:00:00 to 23:59:59)'],
    ['2030-01-15T10:00:00+24:00', 'must have a real time zone offset: 24:00 is not one (at most 23:59)'],
    ['2030-01-15T10:00:00-05:60', 'must have a real time zone offset: 05:60 is not one (at most 23:59)'],
  ])('refuses the impossible schedule %j, naming schedule, rather than move it to another day', (schedule, message) => {
    const r = CreateCampaignBody.safeParse({ ...campaign, schedule });
    expect(r.success ? [] : r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))).toEqual([{ path: 'schedule', message }]);
  });

  it('accepts real dates at the edges of months and leap years', () => {
    for (const schedule of ['2028-02-29T00:00:00Z', '2000-02-29T23:59:59.999Z', '2030-04-30T10:00:00-12:00', '2030-12-31T23:59:59+14:00']) {
      expect(issuePaths(CreateCampaignBody, { ...campaign, schedule }), schedule).toEqual([]);
    }
  });

  it('refuses a schedule without a time zone', () => {
    expect(issuePaths(CreateCampaignBody, { ...campaign, schedule: '2025-01-15 10:00' })).toEqual(['schedule']);
    expect(issuePaths(CreateCampaignBody, { ...campaign, schedule: '2025-01-15T10:00:00' })).toEqual(['schedule']);
  });

  it('names a declared variable that has no value', () => {
    const template_payload = { template_name: 'welcome', header_variable: ['city'], body_variable: ['first_name'], variables: { first_name: 'Asha' } };
    expect(issuePaths(CreateCampaignBody, { ...campaign, template_payload })).toEqual(['template_payload.variables.city']);
  });

  it('names a value for a variable the template does not declare', () => {
    const template_payload = { template_name: 'welcome', body_variable: [], variables: { coupon: 'X' } };
    expect(issuePaths(CreateCampaignBody, { ...campaign, template_payload })).toEqual(['template_payload.variables.coupon']);
  });

  it('names the missing fields', () => {
    expect(issuePaths(CreateCampaignBody, {}).sort()).toEqual(['name', 'schedule', 'schedule_type', 'template_payload']);
  });
});

describe('page and limit', () => {
  const query = operations.getCampaignData.query;
  const uuid = '53d1bcd3-aaf0-45e1-9298-5395b6a27b61';

  it('default to page 1 and limit 10', () => {
    expect(query.parse({ uuid })).toEqual({ uuid, page: 1, limit: 10 });
  });

  it('take numbers from query strings', () => {
    expect(query.parse({ uuid, page: '3', limit: '100' })).toMatchObject({ page: 3, limit: 100 });
  });

  it.each([
    [{ page: '0' }, 'page'],
    [{ page: '-1' }, 'page'],
    [{ page: '1.5' }, 'page'],
    [{ page: 'two' }, 'page'],
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
  ])('refuse %j', (bad, field) => {
    expect(issuePaths(query, { uuid, ...bad })).toEqual([field]);
  });

  it('name a missing or malformed uuid', () => {
    expect(issuePaths(query, {})).toEqual(['uuid']);
    expect(issuePaths(query, { uuid: '12345' })).toEqual(['uuid']);
  });
});

describe('CreateTokenBody', () => {
  it('refuses an unknown or repeated scope and a too-short expiry', () => {
    expect(issuePaths(CreateTokenBody, { scopes: ['admin'] })).toEqual(['scopes.0']);
    expect(issuePaths(CreateTokenBody, { scopes: ['orders', 'orders'] })).toEqual(['scopes']);
    expect(issuePaths(CreateTokenBody, { expires_in: 5 })).toEqual(['expires_in']);
  });
});
