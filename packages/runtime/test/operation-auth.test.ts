/**
 * Who may call what, for every operation of the contract (read from its operation table, so a new
 * operation cannot skip this): each is called by company tokens with every combination of scopes, by
 * another company's token and by the admin token, and each answer must be the one its `auth` documents:
 * 401 for a token of the wrong kind, 403 for a company token of another company or without the scope,
 * and otherwise anything but 401 and 403. Every status must also be one the document lists.
 */
import { type HttpMethod, type OperationSpec, operations, type Scope, statusesOf } from '@engagekit/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { createManualClock } from '../src/clock.ts';
import { hashToken } from '../src/http/auth.ts';
import { createSeededIds } from '../src/ids.ts';
import { createMemoryStore } from '../src/store/memory/store.ts';
import { sampleOrder } from './sample-order.ts';

const ADMIN_TOKEN = 'operation-auth-admin-token-0123456789';

/** The callers every operation is tried with. */
const CALLERS = ['agency', 'orders', 'agency+orders', 'other company', 'admin'] as const;
type CallerName = (typeof CALLERS)[number];

/** The scopes of each company token the test issues (another company's token has both, as issued without scopes). */
const SCOPES: Record<Exclude<CallerName, 'admin'>, Scope[]> = {
  agency: ['agency'],
  orders: ['orders'],
  'agency+orders': ['agency', 'orders'],
  'other company': ['agency', 'orders'],
};

/**
 * The status `op`'s auth documents for `caller`: 401 or 403 when refused, `allowed` when the request
 * goes on past authentication and authorization. Written by auth kind alone, not by operation.
 */
function expectedFor(op: OperationSpec, caller: CallerName): 401 | 403 | 'allowed' {
  const auth = op.auth;
  switch (auth.kind) {
    case 'public':
      return 'allowed';
    case 'admin':
      return caller === 'admin' ? 'allowed' : 401;
    case 'company':
    case 'admin-or-company':
      if (caller === 'admin') return auth.kind === 'admin-or-company' ? 'allowed' : 401;
      if (caller === 'other company') return 403;
      return SCOPES[caller].includes(auth.scope) ? 'allowed' : 403;
  }
}

/**
 * Bodies that pass validation, for the operations whose body needs more than `{}`: a request must get
 * past validation (400) to reach the scope and company check. An operation that needs one and has
 * none here fails below with a 400, saying so.
 */
const BODIES: Partial<Record<string, (company: { uuid: string; company_id: string }) => unknown>> = {
  submitTemplate: () => ({ template_name: 'welcome', phone_number: '6363978748', wam_id: 'wam-1' }),
  createCampaign: () => ({
    name: `spring ${crypto.randomUUID()}`,
    schedule_type: 'once',
    schedule: '2030-01-15T10:00:00Z',
    template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
  }),
  addOrder: (c) => sampleOrder(c.company_id, `AUTH-${crypto.randomUUID().slice(0, 8)}`),
  updateOrder: (c) => ({ company_id: c.company_id, firstName: 'Asha' }),
  createCompany: () => ({ name: 'Another' }),
  importCustomers: () => ({ customers: [{ phoneNumber: '+14155550100', firstName: 'Asha' }] }),
  createWebhook: () => ({ url: 'http://127.0.0.1:9/hooks' }),
};

describe('every operation, called by every kind of token', () => {
  const app = createApp({
    store: createMemoryStore(),
    clock: createManualClock(new Date('2026-01-05T08:00:00.000Z')),
    ids: createSeededIds(5),
    config: {
      jwtSecret: 'operation-auth-jwt-secret-0123456789abcdef',
      adminTokenHash: hashToken(ADMIN_TOKEN),
      rateLimitPerMinute: 0,
      webhookAllowPrivate: true,
      validateResponses: true,
    },
  });
  const send = async (method: string, path: string, token: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await app.request(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, text: await res.text() };
  };
  const admin = async (method: string, path: string, body: unknown) => {
    const r = await send(method, path, ADMIN_TOKEN, body);
    expect(r.status, r.text).toBeLessThan(300);
    return JSON.parse(r.text).data;
  };
  let other: { uuid: string; token: string };

  beforeAll(async () => {
    const { uuid } = await admin('POST', '/api/v2/companies', { name: 'Other' });
    other = { uuid, token: (await admin('POST', `/api/v2/companies/${uuid}/tokens`, {})).token };
  });

  /**
   * A company of its own for each case, with a token of each scope: what one case does (deleting,
   * revoking a company's tokens) cannot change what the next one is answered.
   */
  const freshCompany = async () => {
    const company: { uuid: string; company_id: string } = await admin('POST', '/api/v2/companies', { name: 'Scoped' });
    const tokens = { admin: ADMIN_TOKEN, 'other company': other.token } as Record<CallerName, string>;
    for (const caller of ['agency', 'orders', 'agency+orders'] as const) {
      tokens[caller] = (await admin('POST', `/api/v2/companies/${company.uuid}/tokens`, { scopes: SCOPES[caller] })).token;
    }
    return { company, tokens };
  };

  /** The request `op` answers past validation: the company's uuid where one is named, any id elsewhere. */
  const requestFor = (op: OperationSpec, company: { uuid: string; company_id: string }) => {
    const path = op.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => (name === 'uuid' ? company.uuid : 'no_such_id'));
    const query = op.surface === 'agency' ? `?uuid=${company.uuid}` : '';
    const body = op.body ? (BODIES[op.operationId]?.(company) ?? {}) : undefined;
    return { path: `${path}${query}`, body };
  };

  const cases = (Object.values(operations) as OperationSpec[]).flatMap((op) =>
    [op.method, ...(op.alsoAccepts ?? [])].flatMap((method: HttpMethod) => CALLERS.map((caller) => ({ op, method, caller }))),
  );

  it.each(cases)('$op.operationId ($method) by $caller', async ({ op, method, caller }) => {
    const { company, tokens } = await freshCompany();
    const { path, body } = requestFor(op, company);
    const { status, text } = await send(method.toUpperCase(), path, tokens[caller], body);
    const expected = expectedFor(op, caller);
    if (expected === 'allowed') {
      expect([401, 403], text).not.toContain(status);
      // Past validation, or a refusal would never have been reached: give the operation a body in BODIES.
      expect(status, text).not.toBe(400);
    } else {
      expect(status, text).toBe(expected);
    }
    expect(statusesOf(op, method), `${status} is not documented: ${text}`).toContain(status);
  });
});

describe('expectedFor', () => {
  it('takes webhook operations from tokens with the orders scope and the admin token, and refuses an agency-only token', () => {
    const op = operations.createWebhook as OperationSpec;
    expect(CALLERS.map((c) => expectedFor(op, c))).toEqual([403, 'allowed', 'allowed', 403, 'allowed']);
  });
});
