/**
 * A rehearsal never leaves the process: a webhook endpoint registered in one is recorded, shown to the
 * code and in the report, and sent nowhere. Its Date is the mock's clock.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Connected, connect, SHOP_DATA } from './helpers.ts';

let mcp: Connected;
let received = 0;
let listener: ReturnType<typeof createServer>;
let url: string;
beforeAll(async () => {
  listener = createServer((req, res) => {
    received += 1;
    req.resume();
    res.end('ok');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/hooks`;
  mcp = await connect({ target: 'mock', mockData: SHOP_DATA, mockSeed: 7 });
});
afterAll(async () => {
  await mcp.close();
  await new Promise((resolve) => listener.close(resolve));
});

describe('a rehearsal', () => {
  it('records the webhooks of an endpoint on loopback, shows them, and sends none', async () => {
    const run = await mcp.execute(`
      await client.webhookEndpoints.create({ url: '${url}', events: ['order.created'] });
      await client.orders.add({ company_id: (await client.company.get()).company_id, company_order_id: 'W-1', totalAmount: 10, firstName: 'Ada', phoneNumber: '+14155550100', postalCode: '94107', streetAddress1: '1 Market St' });
      await mock.clock.advance('1m');
      return mock.webhooks().filter((w) => w.url === '${url}');
    `);
    expect(run.isError, run.text).toBe(false);
    expect(run.result).toEqual([{ url, type: 'order.created', eventId: expect.any(String) }]);
    expect(run.webhooks).toEqual(expect.arrayContaining([{ url, type: 'order.created', eventId: expect.any(String) }]));
    expect(run.text).toContain('Webhooks the mock recorded');
    expect(run.text).toContain(`order.created`);
    // Time for a stray delivery to arrive, had one been sent.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received).toBe(0);
  });

  it('gives Date the mock’s clock: new Date() and Date.now() read it, a Date of a value is the value', async () => {
    const run = await mcp.execute(`
      mock.clock.set('2030-01-01T00:00:00Z');
      await mock.clock.advance('90m');
      return { now: new Date().toISOString(), ms: Date.now(), clock: mock.clock.now().toISOString(), epoch: new Date(0).toISOString(), isDate: new Date() instanceof Date, parsed: Date.parse('2020-01-01T00:00:00Z') };
    `);
    expect(run.result).toEqual({
      now: '2030-01-01T01:30:00.000Z',
      ms: Date.parse('2030-01-01T01:30:00Z'),
      clock: '2030-01-01T01:30:00.000Z',
      epoch: '1970-01-01T00:00:00.000Z',
      isDate: true,
      parsed: Date.parse('2020-01-01T00:00:00Z'),
    });
  });
});
