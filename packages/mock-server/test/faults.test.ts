/** `fail()`: error answers in the standard envelope, dropped connections and latency, by operationId. */
import { errorCodes } from '@engagekit/contract';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { MockNetworkError, setupMockApi } from '../src/node.ts';
import { orderBody } from './helpers.ts';

const mock = setupMockApi();
afterEach(() => mock.reset());
afterAll(() => mock.close());

const auth = () => ({ authorization: `Bearer ${mock.company.token}`, 'content-type': 'application/json' });
const listCampaigns = (init: RequestInit = {}) => mock.fetch(`/agency/getCampaignData?uuid=${mock.company.uuid}`, { headers: auth(), ...init });
const addOrder = (id: string) =>
  mock.fetch('/api/order/addOrder', { method: 'POST', headers: auth(), body: JSON.stringify(orderBody(mock.company.company_id, id)) });

describe('fail()', () => {
  it('answers the next call with the status and the standard error envelope, then the real answer', async () => {
    mock.fail('getCampaignData', { status: 503 });
    const failed = await listCampaigns({ headers: { ...auth(), 'x-request-id': 'my-req-1' } });
    expect(failed.status).toBe(503);
    expect(failed.headers.get('x-request-id')).toBe('my-req-1');
    expect(failed.headers.get('retry-after')).toBe('0');
    expect(await failed.json()).toEqual({
      success: false,
      code: 'unavailable',
      message: 'Simulated failure (engagekit mock): getCampaignData answered 503',
      requestId: 'my-req-1',
    });
    expect((await listCampaigns()).status).toBe(200);
  });

  it('gives every status the contract’s code for it', async () => {
    for (const [status, code] of Object.entries(errorCodes)) {
      mock.fail('getCampaignData', { status: Number(status) as keyof typeof errorCodes });
      const res = await listCampaigns();
      expect(res.status).toBe(Number(status));
      expect(((await res.json()) as { code: string }).code).toBe(code);
    }
  });

  it('hits `times` calls, counts its hits, and stands until cleared with Infinity', async () => {
    const fault = mock.fail('addOrder', { status: 500, times: 2 });
    expect([(await addOrder('A')).status, (await addOrder('A')).status, (await addOrder('A')).status]).toEqual([500, 500, 201]);
    expect(fault).toMatchObject({ hits: 2, remaining: 0 });
    const standing = mock.fail('addOrder', { status: 429, retryAfter: 7, times: Number.POSITIVE_INFINITY });
    for (let i = 0; i < 5; i++) expect((await addOrder('B')).status).toBe(429);
    expect((await addOrder('B')).headers.get('retry-after')).toBe('7');
    standing.clear();
    expect((await addOrder('B')).status).toBe(201);
  });

  it('hits only its operation, in both the query and the path-prefix form of agency calls', async () => {
    mock.fail('getCampaignData', { status: 500, times: 2 });
    expect((await addOrder('X')).status).toBe(201);
    expect((await mock.fetch(`/agency/getCustomers?uuid=${mock.company.uuid}`, { headers: auth() })).status).toBe(200);
    expect((await mock.fetch(`/${mock.company.uuid}/agency/getCampaignData`, { headers: auth() })).status).toBe(500);
    expect((await listCampaigns()).status).toBe(500);
    expect(mock.faults()).toEqual([]);
  });

  it('takes a message and a code of your own', async () => {
    mock.fail('addOrder', { status: 400, message: 'Invalid request: the shop is closed', code: 'shop_closed' });
    expect(await (await addOrder('M')).json()).toMatchObject({ message: 'Invalid request: the shop is closed', code: 'shop_closed' });
  });

  it('drops the connection with network: true, so fetch rejects with a TypeError', async () => {
    mock.fail('addOrder', { network: true });
    const err = await addOrder('N').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect(err).toBeInstanceOf(MockNetworkError);
    expect((err as Error).message).toMatch(/addOrder/);
    expect((await addOrder('N')).status).toBe(201);
  });

  it('holds the answer back with delayMs, and an aborted request stops waiting as real fetch does', async () => {
    mock.fail('getCampaignData', { delayMs: 60_000 });
    const controller = new AbortController();
    const pending = listCampaigns({ signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('answers with the real result after the delay without a status, and with the error with one', async () => {
    mock.fail('getCampaignData', { delayMs: 20 });
    expect((await listCampaigns()).status).toBe(200);
    mock.fail('getCampaignData', { delayMs: 20, status: 500 });
    expect((await listCampaigns()).status).toBe(500);
  });

  it('sends retryAfter with any status it is given with, a 409 included', async () => {
    mock.fail('addOrder', { status: 409, code: 'idempotency_in_progress', retryAfter: 2 });
    const res = await addOrder('R');
    expect([res.status, res.headers.get('retry-after')]).toEqual([409, '2']);
    mock.fail('addOrder', { status: 409 });
    expect((await addOrder('R')).headers.get('retry-after')).toBeNull();
  });

  it('journals a request aborted while a fault held it back, with how it ended', async () => {
    mock.fail('getCampaignData', { delayMs: 60_000 });
    const controller = new AbortController();
    const pending = listCampaigns({ signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await vi.waitFor(() => expect(mock.requests()).toHaveLength(1));
    expect(mock.requests()[0]).toMatchObject({ operationId: 'getCampaignData', status: null, ended: 'aborted', companyUuid: mock.company.uuid });
    mock.fail('addOrder', { network: true });
    await addOrder('D').catch(() => {});
    mock.fail('addOrder', { status: 503 });
    await addOrder('E');
    await addOrder('F');
    expect(mock.requests({ operationId: 'addOrder' }).map((r) => [r.status, r.ended, r.companyUuid])).toEqual([
      [null, 'dropped', mock.company.uuid],
      [503, 'answered', mock.company.uuid],
      [201, 'answered', mock.company.uuid],
    ]);
  });

  it('refuses an unknown field, naming it, and retryAfter where no answer can carry it', () => {
    expect(() => mock.fail('addOrder', { status: 500, uuid: mock.company.uuid } as never)).toThrow(
      'fail(): unknown field "uuid": a fault takes operationId, status, times, delayMs, message, code, retryAfter, network.',
    );
    expect(() => mock.fail('addOrder', { network: true, retryAfter: 1 })).toThrow(/retryAfter goes with an error answer/);
    expect(() => mock.fail('addOrder', { delayMs: 5, retryAfter: 1 })).toThrow(/retryAfter goes with an error answer: give a status too/);
    expect(mock.faults()).toEqual([]);
  });

  it('refuses what it cannot do, saying what to use instead', () => {
    expect(() => mock.fail('nope' as never, { status: 500 })).toThrow(/not an operationId of the contract. Use one of: sync, submitTemplate/);
    expect(() => mock.fail('addOrder', { status: 418 as never })).toThrow(/status 418 is not an error status/);
    expect(() => mock.fail('addOrder', {})).toThrow(/give a status/);
    expect(() => mock.fail('addOrder', { status: 500, times: 0 })).toThrow(/times must be at least 1/);
  });
});

describe('POST /__mock/fail', () => {
  const post = (body: unknown) => mock.fetch('/__mock/fail', { method: 'POST', body: JSON.stringify(body) });

  it('refuses what fail() refuses, in the same words', async () => {
    const refused: [Record<string, unknown>, RegExp][] = [
      [{ operationId: 'nope', status: 500 }, /^"nope" is not an operationId of the contract. Use one of: sync, /],
      [{ operationId: 'addOrder', status: 418 }, /^status 418 is not an error status of the contract/],
      [{ operationId: 'addOrder' }, /^give a status/],
      [{ operationId: 'addOrder', status: 500, times: 0 }, /^times must be at least 1/],
      [{ operationId: 'addOrder', delayMs: -5 }, /^delayMs must be a number of milliseconds >= 0/],
      [{ status: 500 }, /^operationId is required/],
      [{ operationId: 'addOrder', status: 500, uuid: 'x' }, /^unknown field "uuid": a fault takes operationId, /],
    ];
    for (const [body, words] of refused) {
      const res = await post(body);
      expect(res.status).toBe(400);
      const { message } = (await res.json()) as { message: string };
      expect(message).toMatch(words);
      expect(() => mock.fail(body.operationId as never, body)).toThrow(`fail(): ${message}`);
    }
    expect(mock.faults()).toEqual([]);
  });

  it('names an unknown field in the 400’s issues', async () => {
    const res = await post({ operationId: 'addOrder', status: 500, uuid: 'x', times: 2, extra: 1 });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { issues: unknown }).issues).toEqual([
      { path: 'uuid', message: 'is not a field of this body' },
      { path: 'extra', message: 'is not a field of this body' },
    ]);
  });

  it('is one of the control bodies, each of which names an unknown field', async () => {
    const bodies: [string, Record<string, unknown>][] = [
      ['/__mock/reset', { seed: 1, uuid: 'x' }],
      ['/__mock/clock', { advance: 0, uuid: 'x' }],
      ['/__mock/channel/outcomes', { phoneNumber: '*', status: 'read', uuid: 'x' }],
      ['/__mock/restore', { id: 'snap_1', uuid: 'x' }],
      ['/__mock/snapshot', { uuid: 'x' }],
    ];
    for (const [path, body] of bodies) {
      const res = await mock.fetch(path, { method: 'POST', body: JSON.stringify(body) });
      expect([path, res.status]).toEqual([path, 400]);
      const answer = (await res.json()) as { message: string; issues: unknown };
      expect(answer.message).toMatch(/^unknown field "uuid": POST \/__mock\/[a-z/]+ takes /);
      expect(answer.issues).toEqual([{ path: 'uuid', message: 'is not a field of this body' }]);
    }
  });

  it('stands until cleared with "times": null, as fail() does with Infinity', async () => {
    const res = await post({ operationId: 'addOrder', status: 503, times: null });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { data: unknown }).data).toMatchObject({ operationId: 'addOrder', status: 503, times: null, remaining: null });
    for (let i = 0; i < 3; i++) expect((await addOrder('T')).status).toBe(503);
    expect(mock.faults()).toMatchObject([{ operationId: 'addOrder', times: Number.POSITIVE_INFINITY, hits: 3 }]);
  });
});
