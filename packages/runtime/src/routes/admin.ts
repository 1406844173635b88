import { apiVersion } from '@engagekit/contract';
import { createCompany, listCompanies, newCompanyCode, storeAnswers } from '../domain/companies.ts';
import { importCustomers } from '../domain/customers.ts';
import { issueToken, listTokens, revokeCompanyTokens, revokeToken } from '../domain/tokens.ts';
import { HttpError } from '../http/errors.ts';
import { pagination, presentToken } from '../http/present.ts';
import type { HandlersFor } from './types.ts';

type AdminOperation =
  | 'getHealth'
  | 'getLiveness'
  | 'getReadiness'
  | 'createCompany'
  | 'listCompanies'
  | 'getCompany'
  | 'createToken'
  | 'listTokens'
  | 'revokeToken'
  | 'revokeCompanyTokens'
  | 'importCustomers';

/** Health, companies, tokens and customer import. The company of `{uuid}` is resolved (404) before these run. */
export const adminHandlers: HandlersFor<AdminOperation> = {
  async getHealth({ ctx }) {
    if (!(await storeAnswers(ctx.store))) throw new HttpError(503, 'Service unavailable: the database does not answer');
    const database = 'ok' as const;
    return {
      status: 200,
      body: {
        success: true,
        message: 'OK',
        data: { status: 'ok', database, version: ctx.config.version ?? '0.0.0', api_version: apiVersion, uptime_s: Math.round(performance.now()) / 1000 },
      },
    };
  },

  async getLiveness() {
    return { status: 200, body: { success: true, message: 'OK', data: { status: 'live' } } };
  },

  async getReadiness({ ctx }) {
    // Draining first: a load balancer stops sending before the listener closes, whatever the database says.
    if (ctx.draining) throw new HttpError(503, 'Service unavailable: this instance is draining before it stops', { code: 'draining' });
    if (!(await storeAnswers(ctx.store))) {
      throw new HttpError(503, 'Service unavailable: the database does not answer', { code: 'database_unavailable', headers: { 'retry-after': '1' } });
    }
    return { status: 200, body: { success: true, message: 'OK', data: { status: 'ready' } } };
  },

  async createCompany({ body, ctx }) {
    const companyId = body.company_id ?? newCompanyCode(ctx.ids);
    const created = await createCompany(ctx.store, ctx.write, { ...body, company_id: companyId }, ctx.ids);
    if (created.outcome === 'company_id_taken') {
      throw new HttpError(409, `Company id ${companyId} is already taken`, {
        issues: [{ path: 'company_id', message: 'is already taken by another company' }],
      });
    }
    return { status: 201, body: { success: true, message: 'Company created successfully.', data: created.company } };
  },

  async listCompanies({ query, ctx }) {
    const { items, total } = await listCompanies(ctx.store, query);
    return {
      status: 200,
      body: { success: true, message: 'Companies retrieved successfully.', data: items, pagination: pagination(total, query.page, query.limit) },
    };
  },

  async getCompany({ company }) {
    return { status: 200, body: { success: true, message: 'Company retrieved successfully.', data: company } };
  },

  async createToken({ company, body, ctx }) {
    const { token, record } = await issueToken(ctx.store, ctx.tokens.sign, ctx.write, company.uuid, { scopes: body.scopes, expiresInSeconds: body.expires_in });
    return {
      status: 201,
      body: {
        success: true,
        message: 'Token issued.',
        data: { id: record.id, token, token_type: 'Bearer', scopes: record.scopes, expires_at: record.expires_at },
      },
    };
  },

  async listTokens({ company, query, ctx }) {
    const { items, total } = await listTokens(ctx.store, company.uuid, query);
    return {
      status: 200,
      body: { success: true, message: 'Tokens retrieved successfully.', data: items.map(presentToken), pagination: pagination(total, query.page, query.limit) },
    };
  },

  async revokeToken({ company, params, ctx }) {
    const token = await revokeToken(ctx.store, company.uuid, params.tokenId, ctx.write.now);
    if (!token) throw new HttpError(404, `The company has no token with id ${params.tokenId}`);
    // This instance refuses it from the next request on; other instances once their copy is refreshed.
    ctx.tokens.forgetRevocations(company.uuid);
    return { status: 200, body: { success: true, message: 'Token revoked.', data: presentToken(token) } };
  },

  async revokeCompanyTokens({ company, ctx }) {
    const revoked = await revokeCompanyTokens(ctx.store, company.uuid, ctx.write.now);
    ctx.tokens.forgetRevocations(company.uuid);
    return { status: 200, body: { success: true, message: 'Tokens revoked.', data: { tokens_valid_after: revoked.valid_after, revoked: revoked.revoked } } };
  },

  async importCustomers({ company, body, ctx }) {
    const result = await importCustomers(ctx.store, ctx.write, company.uuid, body.customers);
    return { status: 200, body: { success: true, message: 'Customers imported.', data: result } };
  },
};
