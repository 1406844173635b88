import { apiVersion } from '@engagekit/contract';
import { createCompany, listCompanies, newCompanyCode, storeAnswers } from '../domain/companies.ts';
import { importCustomers } from '../domain/customers.ts';
import { HttpError } from '../http/errors.ts';
import { pagination } from '../http/present.ts';
import { StoreConflictError } from '../store/types.ts';
import type { HandlersFor } from './types.ts';

/** Health, companies, tokens and customer import. The company of `{uuid}` is resolved (404) before these run. */
export const adminHandlers: HandlersFor<'getHealth' | 'createCompany' | 'listCompanies' | 'getCompany' | 'createToken' | 'importCustomers'> = {
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

  async createCompany({ body, ctx }) {
    const companyId = body.company_id ?? newCompanyCode(ctx.ids);
    try {
      const company = await createCompany(ctx.store, ctx.write, { ...body, company_id: companyId }, ctx.ids);
      return { status: 201, body: { success: true, message: 'Company created successfully.', data: company } };
    } catch (e) {
      if (e instanceof StoreConflictError) {
        throw new HttpError(409, `Company id ${companyId} is already taken`, {
          issues: [{ path: 'company_id', message: 'is already taken by another company' }],
        });
      }
      throw e;
    }
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
    const issued = await ctx.tokens.issue(company.uuid, { scopes: body.scopes, expiresInSeconds: body.expires_in, now: ctx.now });
    return {
      status: 201,
      body: {
        success: true,
        message: 'Token issued.',
        data: { token: issued.token, token_type: 'Bearer', scopes: issued.scopes, expires_at: issued.expiresAt.toISOString() },
      },
    };
  },

  async importCustomers({ company, body, ctx }) {
    const result = await importCustomers(ctx.store, ctx.write, company.uuid, body.customers);
    return { status: 200, body: { success: true, message: 'Customers imported.', data: result } };
  },
};
