/**
 * The statuses openapi.yaml lists are exactly what the server answers: every operation, with every
 * method it accepts, is driven to every status the document lists for it, and every answer on the way
 * must be one the document lists (with a body of the documented shape).
 */
import { ErrorResponse, type HttpMethod, type OperationSpec, operations } from '@engagekit/contract';
import { createOpenApiDocument } from '@engagekit/contract/document';
import { beforeAll, describe, expect, it } from 'vitest';
import type { createManualClock } from '../../runtime/src/clock.ts';
import { createMemoryStore } from '../../runtime/src/store/memory/store.ts';
import type { Store } from '../../runtime/src/store/ports.ts';
import { StoreUnavailableError } from '../../runtime/src/store/types.ts';
import { sampleOrder } from './helpers.ts';
import { inProcessApp, TEST_ADMIN_TOKEN } from './in-process.ts';

type Fetch = (path: string, init?: RequestInit) => Promise<Response>;
interface Call {
  path: string;
  query?: string;
  token?: string | null;
  body?: string;
  headers?: Record<string, string>;
}

const documented = createOpenApiDocument().paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
const listed = (op: OperationSpec, method: HttpMethod) => Object.keys(documented[op.path]?.[method]?.responses ?? {}).map(Number);
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
const UNKNOWN_ID = 'no_such_id';

/**
 * A store whose `beginIdempotent`, once `hold` is set, keeps the request that claimed a key waiting
 * (the next call goes through): a request with an Idempotency-Key stays "still running".
 */
function holdingStore(store: Store) {
  const gate = { hold: null as Promise<void> | null, reached: () => {} };
  const held = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key !== 'beginIdempotent' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        const begun = await value.apply(target, args);
        const hold = gate.hold;
        if (hold) {
          gate.hold = null;
          gate.reached();
          await hold;
        }
        return begun;
      };
    },
  });
  return { store: held, gate };
}

/** A store every method of which fails with `error`. */
const failingWith = (error: () => Error) =>
  new Proxy({} as Store, {
    get: (_t, key) => (key === 'then' ? undefined : () => Promise.reject(error())),
  });
/** A store that fails as a broken database does (500), and one that says it is unavailable (503). */
const failingStore = failingWith(() => new Error('the database went away'));
const unavailableStore = failingWith(() => new StoreUnavailableError('the database refuses connections'));

describe('every documented status, provoked', () => {
  let w: Awaited<ReturnType<typeof world>>;
  const seen = new Map<string, Set<number>>();

  async function world() {
    const { store, gate } = holdingStore(createMemoryStore());
    const main = await inProcessApp({ store, config: { webhookAllowPrivate: true } });
    const limited = await inProcessApp({ store, config: { webhookAllowPrivate: true, rateLimitPerMinute: 1 } });
    const failing = await inProcessApp({ store: failingStore });
    const unavailable = await inProcessApp({ store: unavailableStore });
    // Health survives a failing database (503): its fault is the server's clock failing.
    const brokenClock = {
      now: () => {
        throw new Error('the clock failed');
      },
    } as unknown as ReturnType<typeof createManualClock>;
    const failingClock = await inProcessApp({ clock: brokenClock });
    const admin = async (method: string, path: string, body?: unknown) => {
      const res = await main.fetch(path, {
        method,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      });
      expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(300);
      return (await res.json()).data;
    };
    const company = async (name: string) => {
      const c = await admin('POST', '/api/v2/companies', { name });
      const token = async (scopes?: string[]) => (await admin('POST', `/api/v2/companies/${c.uuid}/tokens`, scopes ? { scopes } : {})).token as string;
      return {
        uuid: c.uuid as string,
        companyId: c.company_id as string,
        token: await token(),
        agencyOnly: await token(['agency']),
        ordersOnly: await token(['orders']),
      };
    };
    const a = await company('Alpha');
    const b = await company('Beta');
    // Revoking every token of a company refuses the ones the other operations call with: its own company.
    const revoking = await company('Revoking');
    const call = (method: string, path: string, token: string, body: unknown) =>
      main.fetch(path, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await call('POST', '/api/order/addOrder', a.token, sampleOrder(a.companyId, 'ORD-1'));
    await call('POST', `/agency/template?uuid=${a.uuid}`, a.token, { template_name: 'welcome', phone_number: '6363978748', wam_id: 'wam1' });
    const campaign = (await (await call('POST', `/agency/createCampaign?uuid=${a.uuid}`, a.token, campaignBody('spring'))).json()).data;
    /** A new campaign of `a`'s, scheduled: one to cancel. */
    const newCampaign = async () =>
      (await (await call('POST', `/agency/createCampaign?uuid=${a.uuid}`, a.token, campaignBody(next()))).json()).data.id as string;
    // A cancelled campaign: pausing or resuming it is a conflict.
    const cancelledId = await newCampaign();
    await admin('POST', `/api/v2/companies/${a.uuid}/campaigns/${cancelledId}/cancel`);
    const endpoint = await admin('POST', `/api/v2/companies/${a.uuid}/webhooks`, { url: 'http://127.0.0.1:9/hook' });
    const delivery = await admin('POST', `/api/v2/companies/${a.uuid}/webhooks/${endpoint.id}/test`, {});
    return {
      main,
      limited,
      failing,
      unavailable,
      failingClock,
      gate,
      admin,
      a,
      b,
      revoking,
      campaignId: campaign.id as string,
      newCampaign,
      cancelledId,
      endpointId: endpoint.id as string,
      deliveryId: delivery.id as string,
    };
  }

  const campaignBody = (name: string) => ({
    name,
    schedule_type: 'once',
    schedule: '2030-01-15T10:00:00Z',
    template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
  });
  let unique = 0;
  const next = () => `n${++unique}`;

  /** A request the operation answers with success: the company is `a`, ids are ones that exist. */
  async function valid(op: OperationSpec): Promise<Call> {
    const { a } = w;
    const webhooks = `/api/v2/companies/${a.uuid}/webhooks`;
    const json = (v: unknown) => JSON.stringify(v);
    switch (op.operationId) {
      case 'sync':
      case 'getCampaignData':
      case 'getCustomers':
      case 'reportingCampaign':
        return { path: op.path, query: `uuid=${a.uuid}`, token: a.token, ...(op.method === 'post' ? { body: '{}' } : {}) };
      case 'submitTemplate':
        return { path: op.path, query: `uuid=${a.uuid}`, token: a.token, body: json({ template_name: next(), phone_number: '6363978748', wam_id: 'wam' }) };
      case 'listTemplates':
        return { path: `/api/v2/companies/${a.uuid}/templates` };
      case 'createCampaign':
        return { path: op.path, query: `uuid=${a.uuid}`, token: a.token, body: json(campaignBody(next())) };
      case 'getCampaign':
        return { path: `/agency/getCampaign/${w.campaignId}`, query: `uuid=${a.uuid}`, token: a.token };
      // Pausing and resuming one campaign, again and again: each answers 200 (changed, or as it is).
      case 'pauseCampaign':
        return { path: `/api/v2/companies/${a.uuid}/campaigns/${w.campaignId}/pause`, token: a.token };
      case 'resumeCampaign':
        return { path: `/api/v2/companies/${a.uuid}/campaigns/${w.campaignId}/resume` };
      case 'cancelCampaign':
        return { path: `/api/v2/companies/${a.uuid}/campaigns/${await w.newCampaign()}/cancel`, token: a.token };
      case 'addOrder':
        return { path: op.path, token: a.token, body: json(sampleOrder(a.companyId, next())) };
      case 'updateOrder':
        return { path: '/api/order/updateOrder/ORD-1', token: a.token, body: json({ company_id: a.companyId, firstName: next() }) };
      case 'getHealth':
      case 'getLiveness':
      case 'getReadiness':
        return { path: op.path, token: null };
      case 'createCompany':
        return { path: op.path, body: json({ name: next() }) };
      case 'listCompanies':
        return { path: op.path };
      case 'getCompany':
        return { path: `/api/v2/companies/${a.uuid}` };
      case 'createToken':
        return { path: `/api/v2/companies/${a.uuid}/tokens`, body: '{}' };
      case 'listTokens':
        return { path: `/api/v2/companies/${a.uuid}/tokens` };
      case 'revokeToken':
        return { path: `/api/v2/companies/${a.uuid}/tokens/${(await w.admin('POST', `/api/v2/companies/${a.uuid}/tokens`, {})).id}` };
      case 'revokeCompanyTokens':
        return { path: `/api/v2/companies/${w.revoking.uuid}/tokens` };
      case 'importCustomers':
        return { path: `/api/v2/companies/${a.uuid}/customers`, body: json({ customers: [{ phoneNumber: '+14155550100', firstName: next() }] }) };
      case 'createWebhook':
        return { path: webhooks, body: json({ url: `http://127.0.0.1:9/${next()}` }) };
      case 'listWebhooks':
        return { path: webhooks };
      case 'getWebhook':
        return { path: `${webhooks}/${w.endpointId}` };
      case 'updateWebhook':
        return { path: `${webhooks}/${w.endpointId}`, body: json({ description: next() }) };
      case 'deleteWebhook':
        return { path: `${webhooks}/${(await w.admin('POST', webhooks, { url: 'http://127.0.0.1:9/gone' })).id}` };
      case 'rotateWebhookSecret':
        return { path: `${webhooks}/${w.endpointId}/rotate-secret`, body: '{}' };
      case 'sendTestEvent':
        return { path: `${webhooks}/${w.endpointId}/test`, body: '{}' };
      case 'listWebhookDeliveries':
        return { path: `${webhooks}/${w.endpointId}/deliveries` };
      case 'redeliverWebhookDelivery':
        return { path: `${webhooks}/${w.endpointId}/deliveries/${w.deliveryId}/redeliver` };
    }
    throw new Error(`no valid request for ${op.operationId}: add one`);
  }

  /** `valid` with the company's UUID, or the resource's id, swapped for one that does not exist. */
  function unknown(op: OperationSpec, call: Call, what: 'company' | 'resource'): Call | null {
    const { a } = w;
    if (what === 'company') {
      if (call.path.includes(w.revoking.uuid)) return { ...call, path: call.path.replace(w.revoking.uuid, UNKNOWN_UUID) };
      if (!call.query?.includes(a.uuid) && !call.path.includes(a.uuid)) return null;
      return { ...call, path: call.path.replace(a.uuid, UNKNOWN_UUID), ...(call.query ? { query: call.query.replace(a.uuid, UNKNOWN_UUID) } : {}) };
    }
    if (op.operationId === 'reportingCampaign') return { ...call, query: `uuid=${w.b.uuid}`, token: w.b.token };
    if (op.operationId === 'updateOrder') return { ...call, path: '/api/order/updateOrder/NO-SUCH-ORDER' };
    if (op.operationId === 'redeliverWebhookDelivery') return { ...call, path: call.path.replace(w.deliveryId, UNKNOWN_ID) };
    for (const id of [w.campaignId, w.endpointId]) if (call.path.includes(id)) return { ...call, path: call.path.replace(id, UNKNOWN_ID) };
    if (op.operationId === 'cancelCampaign') return { ...call, path: call.path.replace(/campaigns\/[^/]+/, `campaigns/${UNKNOWN_ID}`) };
    if (op.operationId === 'revokeToken') return { ...call, path: call.path.replace(/[^/]+$/, UNKNOWN_ID) };
    if (op.operationId === 'deleteWebhook') return { ...call, path: call.path.replace(/[^/]+$/, UNKNOWN_ID) };
    return null;
  }

  /** Requests that each must answer `status`. */
  async function provoke(
    op: OperationSpec,
    status: number,
  ): Promise<{ app?: 'main' | 'failing' | 'unavailable' | 'failingClock' | 'limited'; calls: Call[]; note: string }> {
    const call = await valid(op);
    const { a, b } = w;
    switch (status) {
      case 200:
      case 201:
      case 202:
        if (op.operationId === 'addOrder' && status === 200) {
          const again = { ...call, body: JSON.stringify(sampleOrder(a.companyId, 'ORD-1')) };
          return { calls: [again], note: 'an order that exists' };
        }
        return { calls: [call], note: 'a valid request' };
      case 400: {
        const calls: Call[] = [{ ...call, query: `${call.query ? `${call.query}&` : ''}x=1&x=2` }];
        if (op.body) calls.push({ ...call, body: '[1]' });
        if (op.method !== 'get') calls.push({ ...call, headers: { 'idempotency-key': 'two words' } });
        return { calls, note: 'a query parameter twice; a body of the wrong type; a bad Idempotency-Key' };
      }
      case 401:
        return {
          calls: [
            { ...call, token: '' },
            { ...call, token: 'not.a.jwt' },
          ],
          note: 'no token; a malformed one',
        };
      case 403: {
        const other = op.auth.kind === 'company' && op.surface !== 'agency' ? a.agencyOnly : b.token;
        return { calls: [{ ...call, token: other }], note: 'another company’s token, or one without the scope' };
      }
      case 404: {
        const calls = [unknown(op, call, 'company'), op.errors.includes(404) ? unknown(op, call, 'resource') : null].filter((c): c is Call => c !== null);
        return { calls, note: 'an unknown company or resource' };
      }
      case 409: {
        const calls: Call[] = [];
        if (op.operationId === 'createCampaign') calls.push({ ...call, body: JSON.stringify(campaignBody('spring')) });
        if (op.operationId === 'createCompany') calls.push({ ...call, body: JSON.stringify({ name: 'Again', company_id: a.companyId }) });
        if (op.operationId === 'pauseCampaign' || op.operationId === 'resumeCampaign')
          calls.push({ ...call, path: call.path.replace(w.campaignId, w.cancelledId) });
        return { calls, note: 'a name or code taken; a cancelled campaign paused or resumed; an Idempotency-Key still running (below)' };
      }
      case 413:
        return { calls: [{ ...call, body: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }) }], note: 'a body over 1 MB' };
      case 415:
        return { calls: [{ ...call, body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }], note: 'a form body' };
      case 429:
        return { app: 'limited', calls: [call, call], note: 'a second request in a minute of one' };
      case 500:
        return op.operationId === 'getHealth' || op.operationId === 'getLiveness' || op.operationId === 'getReadiness'
          ? { app: 'failingClock', calls: [call], note: 'the clock fails' }
          : { app: 'failing', calls: [call], note: 'the database fails' };
      case 503:
        return { app: 'unavailable', calls: [call], note: 'the database is unavailable' };
    }
    return { calls: [], note: `no way to provoke ${status}` };
  }

  async function send(fetch: Fetch, op: OperationSpec, method: HttpMethod, c: Call, faults = false): Promise<Response> {
    const token = c.token === undefined ? TEST_ADMIN_TOKEN : c.token;
    // A GET carries no body.
    if (method === 'get') c = { ...c, body: undefined };
    const headers: Record<string, string> = {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(c.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...c.headers,
    };
    const res = await fetch(`${c.path}${c.query ? `?${c.query}` : ''}`, {
      method: method.toUpperCase(),
      headers,
      ...(c.body !== undefined ? { body: c.body } : {}),
    });
    const key = `${op.operationId} ${method}`;
    if (!seen.has(key)) seen.set(key, new Set());
    seen.get(key)?.add(res.status);
    const text = await res.clone().text();
    expect(listed(op, method), `${method.toUpperCase()} ${c.path} answered ${res.status}, which the document does not list: ${text}`).toContain(res.status);
    // A 500 is for faults: the server turns a status the document does not list into one.
    if (!faults) expect(res.status, `${method.toUpperCase()} ${c.path}: ${text}`).not.toBe(500);
    if (res.status >= 400) expect(ErrorResponse.safeParse(JSON.parse(text)).error).toBeUndefined();
    return res;
  }

  beforeAll(async () => {
    w = await world();
  });

  const cases = (Object.values(operations) as OperationSpec[]).flatMap((op) => [op.method, ...(op.alsoAccepts ?? [])].map((method) => ({ op, method })));

  // Every provocation is tried on every operation: one the document does not list a status for must
  // still get an answer the document lists.
  const provocations = [200, 201, 202, 400, 401, 403, 404, 409, 413, 415, 429, 500, 503];
  describe.each(cases)('$op.operationId ($method)', ({ op, method }) => {
    const statuses = provocations.map((status) => ({ status, listed: listed(op, method).includes(status) }));
    it.each(statuses)('$status (listed: $listed)', async ({ status, listed: isListed }) => {
      if (isListed && status === 409 && method !== 'get') {
        // A retry while the first request with its Idempotency-Key still runs.
        const first = await valid(op);
        const reached = new Promise<void>((ok) => {
          w.gate.reached = ok;
        });
        let release = () => {};
        w.gate.hold = new Promise((ok) => {
          release = ok;
        });
        const keyed = { ...first, headers: { 'idempotency-key': `k-${next()}` } };
        const running = send(w.main.fetch, op, method, keyed);
        await reached;
        const retry = await send(w.main.fetch, op, method, keyed);
        w.gate.hold = null;
        release();
        expect(retry.status).toBe(409);
        expect((await running).status).toBeLessThan(300);
      }
      const { app = 'main', calls, note } = await provoke(op, status);
      const answers: number[] = [];
      for (const c of calls) answers.push((await send(w[app].fetch, op, method, c, app === 'failing' || app === 'failingClock')).status);
      if (!isListed || (status === 409 && method !== 'get')) return;
      expect(calls.length, `no request provokes ${status}`).toBeGreaterThan(0);
      // The rate limit lets the first request of the minute through; the others must all answer `status`.
      const counted = app === 'limited' ? answers.slice(-1) : answers;
      expect(counted, note).toEqual(counted.map(() => status));
    });
  });

  it('saw every documented status of every operation', () => {
    for (const { op, method } of cases) {
      const missing = listed(op, method).filter((s) => !seen.get(`${op.operationId} ${method}`)?.has(s));
      expect(missing, `${op.operationId} ${method}`).toEqual([]);
    }
  });
});
