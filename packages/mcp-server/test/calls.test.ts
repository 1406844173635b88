/**
 * The call list is complete: a call that left the host is listed from the moment it starts, so when a
 * limit ends a run, the calls still in flight are waited for a bounded time and then listed with their
 * outcome, or as in flight, outcome unknown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Connected, connect } from './helpers.ts';
import { json, type StubApi, startStubApi } from './stub-api.ts';

const UUID = '53d1bcd3-aaf0-45e1-9298-5395b6a27b61';
const ORDER_MS = 1_500;
let stub: StubApi;
let hasty: Connected;
let patient: Connected;
beforeAll(async () => {
  stub = await startStubApi(async (req, res) => {
    if (req.method !== 'POST') return json(res, 404, { success: false, message: 'Not found', code: 'not_found' });
    // A slow order write, which the API commits all the same.
    await new Promise((resolve) => setTimeout(resolve, ORDER_MS));
    json(res, 201, { success: true, message: 'Order created', data: { company_order_id: 'O', version: 1 } });
  });
  const api = { baseUrl: stub.url, token: 'stub-token', uuid: UUID };
  hasty = await connect({ target: 'api', api, limits: { timeMs: 1_000, settleMs: 50 } });
  patient = await connect({ target: 'api', api, limits: { timeMs: 1_000, settleMs: 5_000 } });
});
afterAll(async () => {
  await hasty?.close();
  await patient?.close();
  await stub?.close();
});

/** Nine order writes, none awaited, then a wait that only the time limit ends. */
const code = `
  for (let i = 0; i < 9; i++) client.orders.add({ company_id: 'C', company_order_id: 'O-' + i, totalAmount: 1, firstName: 'A', phoneNumber: '+14155550100', postalCode: '1', streetAddress1: '1' });
  const stuck = await client.reports.get().catch(() => new Promise(() => {}));
  await stuck;
`;

describe('a run ended by its time limit while calls are in flight', () => {
  it('lists each call that left the host as in flight, outcome unknown, when they outlast the wait', async () => {
    const run = await hasty.execute(code);
    expect(run.error).toMatchObject({ name: 'LimitExceeded', limit: 'time' });
    const adds = run.calls.filter((c) => c.operation === 'orders.add');
    expect(adds).toHaveLength(9);
    for (const call of adds) expect(call).toMatchObject({ inFlight: true, error: 'in flight when the run ended: outcome unknown' });
    expect(run.text).toContain('9 still in flight when the run ended');
  });

  it('waits a bounded time for them, and lists their outcomes', async () => {
    const run = await patient.execute(code);
    expect(run.error).toMatchObject({ name: 'LimitExceeded', limit: 'time' });
    const adds = run.calls.filter((c) => c.operation === 'orders.add');
    expect(adds.map((c) => [c.status, c.inFlight])).toEqual(Array.from({ length: 9 }, () => [201, undefined]));
  });
});
