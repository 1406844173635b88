/** Hostile input gets a 400 naming the field, never a 5xx: free-form values past their limits, a query parameter given twice. */
import { FREE_FORM_LIMITS } from '@engagekit/contract';
import { describe, expect, it } from 'vitest';
import { sampleOrder } from './helpers.ts';
import { inProcessApp, TEST_ADMIN_TOKEN } from './in-process.ts';

async function asCompany() {
  const { fetch } = await inProcessApp();
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const company = (await (await fetch('/api/v2/companies', { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Acme' }) })).json()).data;
  const token = (await (await fetch(`/api/v2/companies/${company.uuid}/tokens`, { method: 'POST', headers: admin, body: '{}' })).json()).data.token;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const addOrder = (attributes: unknown) =>
    fetch('/api/order/addOrder', {
      method: 'POST',
      headers,
      body: JSON.stringify(sampleOrder(company.company_id, 'H-1', { company_order_other_attributes_1: attributes })),
    });
  return { fetch, company, headers, addOrder };
}

/** `{ a: { a: ... } }`, `levels` objects deep, built as text (no recursion anywhere). */
const nestedJson = (levels: number) => `${'{"a":'.repeat(levels - 1)}{"a":1}${'}'.repeat(levels - 1)}`;

describe('free-form order attributes', () => {
  it('answer 400 naming the field to an object nested 5,000 levels deep, and the order is not stored', async () => {
    const { fetch, company, headers } = await asCompany();
    const body = JSON.stringify(sampleOrder(company.company_id, 'DEEP')).replace(/}$/, `,"company_order_other_attributes_1":${nestedJson(5000)}}`);
    const res = await fetch('/api/order/addOrder', { method: 'POST', headers, body });
    expect(res.status).toBe(400);
    const answer = await res.json();
    expect(answer.issues[0].path).toMatch(/^company_order_other_attributes_1\.a\.a/);
    expect(answer.issues[0].message).toMatch(/nests too deep/);
    expect((await (await fetch(`/agency/getCustomers?uuid=${company.uuid}`, { headers })).json()).data).toEqual([]);
  });

  it(`take ${FREE_FORM_LIMITS.depth} levels, and refuse too many entries or too long a string`, async () => {
    const { addOrder } = await asCompany();
    expect((await addOrder(JSON.parse(nestedJson(FREE_FORM_LIMITS.depth - 1)))).status).toBe(201);
    const many = await addOrder({ list: Array.from({ length: FREE_FORM_LIMITS.entries + 1 }, (_, i) => i) });
    expect(many.status).toBe(400);
    expect((await many.json()).issues[0]).toMatchObject({ path: 'company_order_other_attributes_1.list', message: expect.stringMatching(/holds too much/) });
    const long = await addOrder({ note: 'x'.repeat(FREE_FORM_LIMITS.stringLength + 1) });
    expect((await long.json()).issues[0]).toMatchObject({ path: 'company_order_other_attributes_1.note' });
  });
});

describe('query parameters', () => {
  it('answer 400 naming a parameter given twice', async () => {
    const { fetch, company, headers } = await asCompany();
    const res = await fetch(`/agency/getCampaignData?uuid=${company.uuid}&page=1&page=2`, { headers });
    expect(res.status).toBe(400);
    expect((await res.json()).issues).toEqual([{ path: 'page', message: 'is given more than once; give it once' }]);
  });
});
