/**
 * Hostile input gets a 400 naming the field, never a 5xx: free-form values past their limits, a body
 * nested too deep, a query parameter given twice, a string that is not well-formed Unicode.
 */
import { FREE_FORM_LIMITS } from '@engagekit/contract';
import { describe, expect, it } from 'vitest';
import type { Store } from '../../runtime/src/store/ports.ts';
import { openSqlStore } from '../src/store/index.ts';
import { migratedPgliteDump, sampleOrder } from './helpers.ts';
import { inProcessApp, TEST_ADMIN_TOKEN } from './in-process.ts';

async function asCompany(store?: Store) {
  const { fetch } = await inProcessApp(store ? { store } : {});
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

describe('bodies nested deeper than any operation takes', () => {
  it('answer 400 with an Idempotency-Key too, where the key’s request is kept as text', async () => {
    const { fetch, company } = await asCompany();
    const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': 'deep-1' };
    const res = await fetch(`/api/v2/companies/${company.uuid}/tokens`, { method: 'POST', headers: admin, body: nestedJson(5000) });
    expect(res.status).toBe(400);
    expect((await res.json()).issues).toEqual([{ path: expect.stringMatching(/^a\.a\.a/), message: expect.stringMatching(/nests too deep/) }]);
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

describe('strings that are not well-formed Unicode', () => {
  it('answer 400 naming the field to a lone surrogate in an order, on PGlite as in memory, and nothing is stored', async () => {
    const store = await openSqlStore({ memory: true, loadDataDir: await migratedPgliteDump() });
    try {
      for (const { fetch, company, headers } of [await asCompany(), await asCompany(store)]) {
        const order = JSON.stringify(sampleOrder(company.company_id, 'LONE'));
        for (const [extra, path] of [
          ['"company_order_other_attributes_1":{"note":"a\\ud800b"}', 'company_order_other_attributes_1.note'],
          ['"specialInstructions":"\\udc00"', 'specialInstructions'],
        ]) {
          const res = await fetch('/api/order/addOrder', { method: 'POST', headers, body: order.replace(/}$/, `,${extra}}`) });
          expect(res.status).toBe(400);
          expect((await res.json()).issues).toEqual([{ path, message: expect.stringMatching(/well-formed Unicode/) }]);
        }
        expect((await (await fetch(`/agency/getCustomers?uuid=${company.uuid}`, { headers })).json()).data).toEqual([]);
      }
    } finally {
      await store.close();
    }
  });
});

describe('bytes that are not UTF-8', () => {
  it('answer 400 naming the byte offset, on PGlite as in memory, and nothing is stored', async () => {
    const store = await openSqlStore({ memory: true, loadDataDir: await migratedPgliteDump() });
    try {
      for (const { fetch, company, headers } of [await asCompany(), await asCompany(store)]) {
        // "José" in ISO-8859-1 inside a UTF-8 body: the é is the lone byte 0xe9.
        const [before, after] = JSON.stringify(sampleOrder(company.company_id, 'LATIN')).split('"Asha"') as [string, string];
        const encoder = new TextEncoder();
        const body = Uint8Array.from([...encoder.encode(`${before}"Jos`), 0xe9, ...encoder.encode(`"${after}`)]);
        const res = await fetch('/api/order/addOrder', { method: 'POST', headers, body });
        expect(res.status).toBe(400);
        const offset = encoder.encode(`${before}"Jos`).byteLength;
        expect((await res.json()).issues).toEqual([
          { path: '', message: `is not valid UTF-8: the bytes from offset ${offset} (0xe9) do not make a character` },
        ]);
        expect((await (await fetch(`/agency/getCustomers?uuid=${company.uuid}`, { headers })).json()).data).toEqual([]);
      }
    } finally {
      await store.close();
    }
  });

  it('answer 415 naming the charset to a body declared in another charset, and take utf-8 however it is written', async () => {
    const { fetch, company, headers } = await asCompany();
    const order = (id: string) => JSON.stringify(sampleOrder(company.company_id, id));
    const latin = await fetch('/api/order/addOrder', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json; charset=iso-8859-1' },
      body: order('L-1'),
    });
    expect(latin.status).toBe(415);
    const refused = await latin.json();
    expect(refused.message).toMatch(/charset must be utf-8, not iso-8859-1/);
    expect(refused.issues).toEqual([{ path: '', message: 'the body was sent in charset iso-8859-1; only utf-8 is read' }]);
    for (const [i, charset] of ['UTF-8', 'utf8', '"utf-8"'].entries()) {
      const res = await fetch('/api/order/addOrder', {
        method: 'POST',
        headers: { ...headers, 'content-type': `application/json; charset=${charset}` },
        body: order(`U-${i}`),
      });
      expect(res.status, charset).toBe(201);
    }
  });
});

describe('campaign schedules at the ends of time', () => {
  const campaign = (name: string, schedule_type: string, schedule: string) =>
    JSON.stringify({ name, schedule_type, schedule, days: { monday: ['09:00'] }, template_payload: { template_name: 't' } });

  it('answer 400 naming schedule when it or the first run falls outside years 0001 to 9999 in UTC, on PGlite as in memory', async () => {
    const store = await openSqlStore({ memory: true, loadDataDir: await migratedPgliteDump() });
    try {
      for (const { fetch, company, headers } of [await asCompany(), await asCompany(store)]) {
        const create = (body: string) => fetch(`/agency/createCampaign?uuid=${company.uuid}`, { method: 'POST', headers, body });
        for (const [type, schedule] of [
          ['once', '9999-12-31T23:00:00-12:00'],
          ['once', '0000-01-01T00:00:00+01:00'],
          ['once', '0000-01-01T00:00:00Z'],
          ['recurring', '9999-12-31T23:59:59.971Z'],
        ] as const) {
          const res = await create(campaign(`${type} ${schedule}`, type, schedule));
          expect(res.status, `${type} ${schedule}`).toBe(400);
          expect((await res.json()).issues).toEqual([{ path: 'schedule', message: expect.stringMatching(/9999/) }]);
        }
        const first = await create(campaign('first', 'recurring', '0001-01-01T00:00:00Z'));
        expect(first.status).toBe(201);
        expect((await first.json()).data).toMatchObject({ startDate: '0001-01-01', next_run_at: '0001-01-01T09:00:00.000Z' });
        expect((await create(campaign('last', 'once', '9999-12-31T23:59:59Z'))).status).toBe(201);
      }
    } finally {
      await store.close();
    }
  });
});

describe('dates that do not exist', () => {
  it('answer 400 naming the field, for a campaign schedule and order dates, rather than move them to another day', async () => {
    const { fetch, company, headers } = await asCompany();
    for (const schedule of ['2030-02-30T00:00:00Z', '2030-04-31T00:00:00Z', '2031-02-29T00:00:00Z']) {
      const body = JSON.stringify({ name: schedule, schedule_type: 'once', schedule, template_payload: { template_name: 't' } });
      const res = await fetch(`/agency/createCampaign?uuid=${company.uuid}`, { method: 'POST', headers, body });
      expect(res.status, schedule).toBe(400);
      expect((await res.json()).issues).toEqual([{ path: 'schedule', message: `must be a real date: ${schedule.slice(0, 10)} does not exist` }]);
    }
    const order = sampleOrder(company.company_id, 'FEB', { companyOrderDate: '2024-02-31', companyOrderDueDate: '2031-02-29' });
    const res = await fetch('/api/order/addOrder', { method: 'POST', headers, body: JSON.stringify(order) });
    expect(res.status).toBe(400);
    expect((await res.json()).issues.map((i: { path: string }) => i.path)).toEqual(['companyOrderDate', 'companyOrderDueDate']);
    const campaigns = await (await fetch(`/agency/getCampaignData?uuid=${company.uuid}`, { headers })).json();
    expect(campaigns.data).toEqual([]);
  });
});

describe('order dates', () => {
  it('answer 400 naming the field to a date in the year 0000, which PostgreSQL has not, on PGlite as in memory', async () => {
    const store = await openSqlStore({ memory: true, loadDataDir: await migratedPgliteDump() });
    try {
      for (const { fetch, company, headers } of [await asCompany(), await asCompany(store)]) {
        const early = sampleOrder(company.company_id, 'EARLY', { companyOrderDate: '0000-12-31', companyOrderDueDate: '0001-01-01' });
        const res = await fetch('/api/order/addOrder', { method: 'POST', headers, body: JSON.stringify(early) });
        expect(res.status).toBe(400);
        expect((await res.json()).issues).toEqual([{ path: 'companyOrderDate', message: 'must be 0001-01-01 or later' }]);
        const first = sampleOrder(company.company_id, 'FIRST', { companyOrderDate: '0001-01-01', companyOrderDueDate: '9999-12-31' });
        expect((await fetch('/api/order/addOrder', { method: 'POST', headers, body: JSON.stringify(first) })).status).toBe(201);
        const update = { company_id: company.company_id, companyOrderDueDate: '0000-01-01' };
        const updated = await fetch('/api/order/updateOrder/FIRST', { method: 'PUT', headers, body: JSON.stringify(update) });
        expect((await updated.json()).issues).toEqual([{ path: 'companyOrderDueDate', message: 'must be 0001-01-01 or later' }]);
      }
    } finally {
      await store.close();
    }
  });
});

/** Well above what these take here (under 0.8 s each on a loaded machine), well below the seconds they took when each issue was answered. */
const FAST_MS = 5_000;

describe('bodies whose errors would be large', () => {
  /** Sends `body` as `company`, and checks it is refused with a 400 under 64 KB listing at most 100 issues; the answer, its size and time. */
  async function refused(send: () => Promise<Response>) {
    const started = performance.now();
    const res = await send();
    const text = await res.text();
    const ms = performance.now() - started;
    const bytes = new TextEncoder().encode(text).byteLength;
    expect(res.status, text.slice(0, 500)).toBe(400);
    expect(bytes).toBeLessThan(64 * 1024);
    const answer = JSON.parse(text) as { issues: { path: string; message: string }[]; issues_total: number; message: string };
    expect(answer.issues.length).toBeLessThanOrEqual(100);
    return { answer, bytes, ms };
  }
  const webhookWith = (events: unknown[]) => JSON.stringify({ url: 'https://hooks.example.com/h', events });

  it('answer a 400 under 64 KB, fast, to createWebhook with 200,000 or 100,000 invalid events', async () => {
    const { fetch, company, headers } = await asCompany();
    for (const count of [200_000, 100_000]) {
      const body = webhookWith(Array.from({ length: count }, () => 'x'));
      expect(body.length).toBeLessThan(1024 * 1024);
      const { answer, ms } = await refused(() => fetch(`/api/v2/companies/${company.uuid}/webhooks`, { method: 'POST', headers, body }));
      expect(answer.issues).toEqual([{ path: 'events', message: 'must list at most 2 event types, each once' }]);
      expect(answer.issues_total).toBe(1);
      expect(ms).toBeLessThan(FAST_MS);
    }
  });

  it('answer a 400 under 64 KB, fast, to createCampaign with 75,000 undeclared variables', async () => {
    const { fetch, company, headers } = await asCompany();
    const variables = Object.fromEntries(Array.from({ length: 75_000 }, (_, i) => [`v${i}`, 'x']));
    const body = JSON.stringify({ name: 'many', schedule_type: 'once', schedule: '2030-01-15T10:00:00Z', template_payload: { template_name: 't', variables } });
    expect(body.length).toBeLessThan(1024 * 1024);
    const { answer, ms } = await refused(() => fetch(`/agency/createCampaign?uuid=${company.uuid}`, { method: 'POST', headers, body }));
    expect(answer.issues).toEqual([{ path: 'template_payload.variables', message: expect.stringMatching(/at most 60 values/) }]);
    expect(ms).toBeLessThan(FAST_MS);
    // Values of the wrong type are each an issue of zod's before the keys are counted: gathered without overflowing.
    const numbers = Object.fromEntries(Array.from({ length: 75_000 }, (_, i) => [i.toString(36), 1]));
    const typed = JSON.stringify({
      name: 'typed',
      schedule_type: 'once',
      schedule: '2030-01-15T10:00:00Z',
      template_payload: { template_name: 't', variables: numbers },
    });
    expect(typed.length).toBeLessThan(1024 * 1024);
    const wrong = await refused(() => fetch(`/agency/createCampaign?uuid=${company.uuid}`, { method: 'POST', headers, body: typed }));
    expect(wrong.answer.issues_total).toBe(75_000);
    expect(wrong.answer.issues).toHaveLength(100);
    expect(wrong.ms).toBeLessThan(FAST_MS);
  });

  it('list the first 100 issues of many and count them all, however the body is laid out', async () => {
    const { fetch, company, headers } = await asCompany();
    // A query parameter given twice, many times over: one issue each.
    const query = Array.from({ length: 3000 }, (_, i) => `p${i}=1&p${i}=2`).join('&');
    const twice = await refused(() => fetch(`/agency/getCampaignData?uuid=${company.uuid}&${query}`, { headers }));
    expect(twice.answer).toMatchObject({ issues_total: 3000, message: expect.stringMatching(/and 2995 more$/) });
    expect(twice.answer.issues).toHaveLength(100);
    // 50,000 strings holding NUL characters.
    const nul = JSON.stringify({ url: 'https://hooks.example.com/h', events: Array.from({ length: 50_000 }, () => 'a\u0000') });
    const nuls = await refused(() => fetch(`/api/v2/companies/${company.uuid}/webhooks`, { method: 'POST', headers, body: nul }));
    expect(nuls.answer.issues_total).toBe(50_000);
    expect(nuls.answer.issues[99]).toEqual({ path: 'events.99', message: 'must not contain NUL (\\u0000) characters' });
  });

  it('clip issues that echo what was sent, so that long keys cannot make the answer large', async () => {
    const { fetch, company, headers } = await asCompany();
    // 50 undeclared variables, each named by 15,000 characters: the message names each.
    const variables = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${i}${'n'.repeat(15_000)}`, 'x']));
    const body = JSON.stringify({ name: 'long', schedule_type: 'once', schedule: '2030-01-15T10:00:00Z', template_payload: { template_name: 't', variables } });
    const { answer, bytes } = await refused(() => fetch(`/agency/createCampaign?uuid=${company.uuid}`, { method: 'POST', headers, body }));
    expect(answer.issues_total).toBe(50);
    expect(answer.issues[0]?.message).toMatch(/^"0n+… \(\d+ characters\)$/);
    expect(answer.issues[0]?.path).toMatch(/^template_payload\.variables\.0n+… \(15028 characters\)$/);
    expect(bytes).toBeLessThan(64 * 1024);
    // Days a strict object refuses: named, the first five of them, and counted.
    const days = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`day${i}`, ['09:00']]));
    const recurring = JSON.stringify({
      name: 'days',
      schedule_type: 'recurring',
      schedule: '2030-01-15T10:00:00Z',
      days,
      template_payload: { template_name: 't' },
    });
    const unknown = await refused(() => fetch(`/agency/createCampaign?uuid=${company.uuid}`, { method: 'POST', headers, body: recurring }));
    expect(unknown.answer.issues).toEqual([{ path: 'days', message: 'unknown day: day0, day1, day2, day3, day4 and 19995 more (use monday..sunday)' }]);
  });
});
