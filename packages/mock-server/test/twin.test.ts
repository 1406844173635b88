/**
 * The mock as a twin of the server: a clock the test moves, campaigns that run, channel outcomes and
 * the request journal. The campaign rules themselves are the shared scenarios of campaigns.test.ts.
 */
import { createClient } from '@engagekit/sdk';
import { verifyWebhook } from '@engagekit/sdk/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { parseDuration } from '../src/internal/clock.ts';
import { type MockApiOptions, type MockWebhook, setupMockApi } from '../src/node.ts';
import { campaignBody, orderBody } from './helpers.ts';

const mocks: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const m of mocks.splice(0)) await m.close();
});

/** A mock on a manual clock at `start`, and an SDK client on it. */
function twin(start = '2026-03-01T08:00:00.000Z', options: MockApiOptions = {}) {
  const mock = setupMockApi({ clock: 'manual', seed: 1, ...options });
  mocks.push(mock);
  mock.clock.set(start);
  const client = createClient({ baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid, fetch: mock.fetch, maxRetries: 0 });
  return { mock, client };
}

const CUSTOMERS = [
  ['C-1', '+919800000001', 'Asha'],
  ['C-2', '+919800000002', 'Ravi'],
  ['C-3', '+919800000003', 'Meera'],
] as const;

async function addCustomers(mock: ReturnType<typeof twin>['mock'], client: ReturnType<typeof twin>['client']) {
  for (const [id, phoneNumber, firstName] of CUSTOMERS) await client.orders.add({ ...orderBody(mock.company.company_id, id), phoneNumber, firstName });
}

describe('a manual clock', () => {
  it('runs a campaign when advance() reaches its time: a message per customer, rendered, counted in the report', async () => {
    const { mock, client } = twin();
    await addCustomers(mock, client);
    const campaign = await client.campaigns.create({ ...campaignBody('launch'), schedule: '2026-03-01T09:00:00Z' });
    await mock.clock.advance('59m');
    expect(mock.messages()).toEqual([]);
    await mock.clock.advance('1m');
    expect(mock.clock.now().toISOString()).toBe('2026-03-01T09:00:00.000Z');
    const messages = mock.messages({ campaignId: campaign.id }).sort((a, b) => a.to.localeCompare(b.to));
    expect(messages.map((m) => [m.to, m.variables.first_name, m.template.body])).toEqual(CUSTOMERS.map(([, phone, name]) => [phone, name, [name]]));
    expect(messages[0]).toMatchObject({ runKey: '2026-03-01T09:00:00.000Z', at: '2026-03-01T09:00:00.000Z', template: { name: 'welcome' } });
    expect((await client.campaigns.get(campaign.id)).status).toMatch(/completed|failed/);
    const report = await client.reports.get();
    expect(report.messages.total).toBe(3);
  });

  it('takes channel outcomes per number and for every number, with a reason for failures', async () => {
    const { mock, client } = twin();
    await addCustomers(mock, client);
    mock.channel.outcome('*', 'read');
    mock.channel.outcome('+919800000002', 'failed', { reason: 'not on WhatsApp' });
    expect(mock.channel.outcomes()).toEqual({ '*': { status: 'read' }, '+919800000002': { status: 'failed', reason: 'not on WhatsApp' } });
    await client.campaigns.create({ ...campaignBody('outcomes'), schedule: '2026-03-01T08:30:00Z' });
    await mock.clock.advance('30m');
    expect(
      mock
        .messages()
        .map((m) => [m.to, m.status, m.error])
        .sort(),
    ).toEqual([
      ['+919800000001', 'read', null],
      ['+919800000002', 'failed', 'not on WhatsApp'],
      ['+919800000003', 'read', null],
    ]);
    expect((await client.reports.get()).messages).toMatchObject({ total: 3, read: 2, failed: 1 });
    expect(() => mock.channel.outcome('*', 'bounced' as 'sent')).toThrow(/status must be one of sent, delivered, read, failed/);
  });

  it('gives the same messages under the same seed, and nothing of the last test after reset()', async () => {
    const run = async () => {
      const { mock, client } = twin();
      await addCustomers(mock, client);
      await client.campaigns.create({ ...campaignBody('seeded'), schedule: '2026-03-01T08:05:00Z' });
      await mock.clock.advance('5m');
      const first = mock.messages();
      await mock.reset();
      expect(mock.messages()).toEqual([]);
      expect(mock.clock.now().toISOString()).not.toBe('2026-03-01T08:05:00.000Z');
      return first;
    };
    expect(await run()).toEqual(await run());
  });

  it('retries a webhook when advance() reaches the retry, signed at the mock’s time', async () => {
    const { mock, client } = twin();
    let calls = 0;
    mock.onWebhook(() => (++calls === 1 ? new Response(null, { status: 500 }) : undefined));
    await client.orders.add(orderBody(mock.company.company_id, 'W-1'));
    const first = await mock.waitForWebhook();
    expect(first.status).toBe(500);
    expect(mock.webhooks).toHaveLength(1);
    await mock.clock.advance('1s');
    expect(mock.webhooks.map((w) => w.status)).toEqual([500, 200]);
    const retry = mock.webhooks[1] as MockWebhook;
    const event = await verifyWebhook(retry.rawBody, retry.headers, mock.webhookSecret, { now: mock.clock.now() });
    expect(event).toMatchObject({ type: 'order.created', data: { order: { company_order_id: 'W-1' } } });
    // Signed at the retry's time on the mock's clock, which advance() moved to it (the schedule's 0.1 s, with jitter).
    expect(Number(retry.headers['webhook-timestamp'])).toBe(Math.floor(Date.parse('2026-03-01T08:00:00.000Z') / 1000));
    expect(mock.clock.now().toISOString()).toBe('2026-03-01T08:00:01.000Z');
  });

  it('expires tokens by the mock’s time', async () => {
    const { mock } = twin();
    const issued = await mock.fetch(`/api/v2/companies/${mock.company.uuid}/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ expires_in: 3600 }),
    });
    expect(issued.status).toBe(201);
    const { token } = ((await issued.json()) as { data: { token: string } }).data;
    const call = () => mock.fetch(`/agency/getCampaignData?uuid=${mock.company.uuid}`, { headers: { authorization: `Bearer ${token}` } });
    expect((await call()).status).toBe(200);
    await mock.clock.advance('61m');
    expect((await call()).status).toBe(401);
  });

  it('refuses a duration or a time it cannot read, and moving the real clock', async () => {
    const { mock } = twin();
    await expect(mock.clock.advance('soon')).rejects.toThrow(/"soon" is not a duration/);
    await expect(mock.clock.advance(-1)).rejects.toThrow(/is not a duration/);
    expect(() => mock.clock.set('yesterday')).toThrow(/"yesterday" is not a time/);
    expect([parseDuration(1500), parseDuration('90s'), parseDuration('90m'), parseDuration('2h'), parseDuration('1.5d'), parseDuration('250ms')]).toEqual([
      1500, 90_000, 5_400_000, 7_200_000, 129_600_000, 250,
    ]);
    const real = setupMockApi();
    mocks.push(real);
    expect(real.clock.manual).toBe(false);
    await expect(real.clock.advance('1h')).rejects.toThrow(/needs a manual clock: setupMockApi\(\{ clock: 'manual' \}\)/);
    expect(() => real.clock.set(0)).toThrow(/needs a manual clock/);
  });

  it('refuses a date that does not exist rather than move it to another day, in-process and through the control API naming set', async () => {
    const { mock } = twin();
    for (const impossible of ['2030-02-30T00:00:00Z', '2030-04-31T00:00:00Z', '2031-02-29T00:00:00Z']) {
      expect(() => mock.clock.set(impossible)).toThrow(
        `clock.set(): "${impossible}" is not a time: must be a real date: ${impossible.slice(0, 10)} does not exist`,
      );
      const res = await mock.fetch('/__mock/clock', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ set: impossible }),
      });
      expect(res.status).toBe(400);
      expect((await res.json()).issues).toEqual([{ path: 'set', message: `must be a real date: ${impossible.slice(0, 10)} does not exist` }]);
    }
    expect(() => mock.clock.set('2030-01-15T24:00:00Z')).toThrow(/must be a real time of day/);
    expect(mock.clock.now().toISOString()).toBe('2026-03-01T08:00:00.000Z');
    mock.clock.set('2028-02-29T12:00:00+05:30');
    expect(mock.clock.now().toISOString()).toBe('2028-02-29T06:30:00.000Z');
  });
});

describe('the request journal', () => {
  it('lists what the code sent: operation, path, query, body, redacted headers and the status answered', async () => {
    const { mock, client } = twin();
    await client.orders.add(orderBody(mock.company.company_id, 'J-1'));
    await expect(client.campaigns.get('cmp_missing')).rejects.toMatchObject({ status: 404 });
    await mock.fetch('/no/such/path');
    const adds = mock.requests({ operationId: 'addOrder' });
    expect(adds).toHaveLength(1);
    expect(adds[0]).toMatchObject({
      method: 'POST',
      path: '/api/order/addOrder',
      operationId: 'addOrder',
      query: {},
      body: { company_order_id: 'J-1', company_id: mock.company.company_id },
      status: 201,
      at: '2026-03-01T08:00:00.000Z',
    });
    expect(adds[0]?.headers.authorization).toBe('Bearer [redacted]');
    expect(mock.requests().map((r) => [r.operationId, r.status, r.query.uuid ?? null])).toEqual([
      ['addOrder', 201, null],
      ['getCampaign', 404, mock.company.uuid],
      [null, 404, null],
    ]);
  });

  it('filters by company: the one a call names, or an order call’s token’s, fault-answered calls too', async () => {
    const { mock, client } = twin();
    const admin = { authorization: `Bearer ${mock.adminToken}`, 'content-type': 'application/json' };
    const made = await mock.fetch('/api/v2/companies', { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Other shop', company_id: 'OTHER01' }) });
    const other = ((await made.json()) as { data: { uuid: string } }).data.uuid;
    const issued = await mock.fetch(`/api/v2/companies/${other}/tokens`, { method: 'POST', headers: admin, body: '{}' });
    const otherToken = ((await issued.json()) as { data: { token: string } }).data.token;
    const otherClient = createClient({ baseUrl: mock.baseUrl, token: otherToken, uuid: other, fetch: mock.fetch, maxRetries: 0 });
    await client.orders.add(orderBody(mock.company.company_id, 'U-1'));
    await otherClient.orders.add(orderBody('OTHER01', 'U-2'));
    mock.fail('addOrder', { status: 503 });
    await expect(otherClient.orders.add(orderBody('OTHER01', 'U-3'))).rejects.toMatchObject({ status: 503 });
    await otherClient.campaigns.list();
    const ofOther = mock.requests({ uuid: other.toUpperCase() });
    // createCompany names no company (it makes one): it is the admin's, no company's.
    expect(ofOther.map((r) => [r.operationId, r.status])).toEqual([
      ['createToken', 201],
      ['addOrder', 201],
      ['addOrder', 503],
      ['getCampaignData', 200],
    ]);
    expect(mock.requests({ uuid: mock.company.uuid }).map((r) => r.operationId)).toEqual(['addOrder']);
    const overHttp = (await (await mock.fetch(`/__mock/requests?uuid=${other}&operationId=addOrder`)).json()) as { data: { companyUuid: string }[] };
    expect(overHttp.data.map((r) => r.companyUuid)).toEqual([other, other]);
  });

  it('keeps the headers a request had when it was answered: names in lower case, repeated values joined', async () => {
    const { mock } = twin();
    const headers = new Headers({ Authorization: `Bearer ${mock.company.token}`, 'X-Trace': 'first' });
    headers.append('x-tag', 'a');
    headers.append('X-Tag', 'b');
    const request = new Request(`${mock.baseUrl}/agency/getCampaign/cmp_missing?uuid=${mock.company.uuid}`, { headers });
    expect((await mock.fetch(request)).status).toBe(404);
    // Changed after the answer: the journal still has what was sent.
    request.headers.set('x-trace', 'changed');
    const [sent] = mock.requests();
    expect(sent?.headers).toEqual({ authorization: 'Bearer [redacted]', 'x-tag': 'a, b', 'x-trace': 'first' });
    expect(Object.keys(sent?.headers ?? {})).toEqual(['authorization', 'x-tag', 'x-trace']);
  });

  it('logs requests a fault answered, filters by time, and forgets on reset() and clearRequests()', async () => {
    const { mock, client } = twin();
    mock.fail('addOrder', { status: 503 });
    await expect(client.orders.add(orderBody(mock.company.company_id, 'F-1'))).rejects.toMatchObject({ status: 503 });
    await mock.clock.advance('1h');
    await client.orders.add(orderBody(mock.company.company_id, 'F-2'));
    expect(mock.requests({ operationId: 'addOrder' }).map((r) => [r.status, (r.body as { company_order_id: string }).company_order_id])).toEqual([
      [503, 'F-1'],
      [201, 'F-2'],
    ]);
    expect(mock.requests({ since: '2026-03-01T08:30:00Z' }).map((r) => r.status)).toEqual([201]);
    expect(() => mock.requests({ since: 'later' })).toThrow(/since "later" is not a time/);
    expect(() => mock.requests({ since: '2026-02-29T08:30:00Z' })).toThrow(
      'requests(): since "2026-02-29T08:30:00Z" is not a time: must be a real date: 2026-02-29 does not exist',
    );
    const refused = await mock.fetch('/__mock/requests?since=2026-02-30T08:30:00Z');
    expect(refused.status).toBe(400);
    expect((await refused.json()).issues).toEqual([{ path: 'since', message: 'must be a real date: 2026-02-30 does not exist' }]);
    mock.clearRequests();
    expect(mock.requests()).toEqual([]);
    await client.orders.add(orderBody(mock.company.company_id, 'F-3'));
    await mock.reset();
    expect(mock.requests()).toEqual([]);
  });

  it('keeps the newest requestLog requests, and none with 0', async () => {
    const { mock } = twin(undefined, { requestLog: 3 });
    for (let i = 0; i < 10; i++)
      await mock.fetch(`/agency/getCampaign/cmp_${i}?uuid=${mock.company.uuid}`, { headers: { authorization: `Bearer ${mock.company.token}` } });
    expect(mock.requests().map((r) => r.path)).toEqual(['/agency/getCampaign/cmp_7', '/agency/getCampaign/cmp_8', '/agency/getCampaign/cmp_9']);
    const { mock: silent } = twin(undefined, { requestLog: 0 });
    await silent.fetch('/api/v2/health');
    expect(silent.requests()).toEqual([]);
  });
});

describe('snapshot and restore', () => {
  it('put back the records, the id sequence, the clock, channel outcomes and messages, as often as asked', async () => {
    const { mock, client } = twin();
    await addCustomers(mock, client);
    const campaign = await client.campaigns.create({ ...campaignBody('snapped'), schedule: '2026-03-01T09:00:00Z' });
    mock.channel.outcome('+919800000001', 'failed');
    const snap = mock.snapshot();
    const nextIds: string[] = [];
    for (let round = 0; round < 2; round++) {
      const order = await client.orders.add(orderBody(mock.company.company_id, 'AFTER'));
      nextIds.push(order.id);
      mock.fail('getCampaign', { status: 500 });
      mock.channel.outcome('*', 'read');
      await mock.clock.advance('2h');
      expect(mock.messages({ campaignId: campaign.id })).toHaveLength(3);
      await mock.restore(snap);
      expect(mock.clock.now().toISOString()).toBe('2026-03-01T08:00:00.000Z');
      expect(mock.messages()).toEqual([]);
      expect(mock.channel.outcomes()).toEqual({ '+919800000001': { status: 'failed' } });
      expect(mock.requests()).toEqual([]);
      expect(mock.faults()).toEqual([]);
    }
    // The same ids come after a restore as came after the snapshot: a test sees the same ids whichever ran before it.
    expect(nextIds[0]).toBe(nextIds[1]);
    expect((await client.campaigns.get(campaign.id)).status).toBe('scheduled');
    expect((await mock.state()).orders.map((o) => o.company_order_id).sort()).toEqual(['C-1', 'C-2', 'C-3']);
    await mock.clock.advance('1h');
    expect(
      mock
        .messages()
        .map((m) => m.status)
        .filter((s) => s === 'failed').length,
    ).toBeGreaterThanOrEqual(1);
  });

  it('restores a mock on the real clock, and keeps a snapshot apart from later changes', async () => {
    const mock = setupMockApi({ seed: 2 });
    mocks.push(mock);
    const client = createClient({ baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid, fetch: mock.fetch });
    const empty = mock.snapshot();
    await client.orders.add(orderBody(mock.company.company_id, 'R-1'));
    await mock.restore(empty);
    expect((await mock.state()).orders).toEqual([]);
    await client.orders.add(orderBody(mock.company.company_id, 'R-2'));
    expect((await mock.state()).orders.map((o) => o.company_order_id)).toEqual(['R-2']);
  });
});
