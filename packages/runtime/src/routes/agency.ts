import { createCampaign, releaseAbandonedRuns, scheduleProblem } from '../domain/campaigns.ts';
import { syncCustomers } from '../domain/customers.ts';
import { buildReport } from '../domain/reports.ts';
import { HttpError, validationError } from '../http/errors.ts';
import { pagination, presentCampaign, presentCustomer } from '../http/present.ts';
import { StoreConflictError } from '../store/types.ts';
import type { HandlersFor } from './types.ts';

/** The seven agency operations. */
export const agencyHandlers: HandlersFor<
  'sync' | 'submitTemplate' | 'createCampaign' | 'getCampaignData' | 'getCampaign' | 'getCustomers' | 'reportingCampaign'
> = {
  async sync({ company, ctx }) {
    const customers = await syncCustomers(ctx.store, ctx.write, company.uuid);
    const released = await releaseAbandonedRuns(ctx.store, company.uuid, ctx.write.now);
    const byStatus = await ctx.store.countCampaignsByStatus(company.uuid);
    const total = Object.values(byStatus).reduce((a, b) => a + b, 0);
    return {
      status: 200,
      body: { success: true, status: true, message: 'Sync Complete', data: { customers, campaigns: { total, updated: released }, synced_at: ctx.write.now } },
    };
  },

  async submitTemplate({ company, body, ctx }) {
    const { now } = ctx.write;
    const template = await ctx.store.upsertTemplate({
      id: ctx.write.newId('tpl'),
      company_uuid: company.uuid,
      template_name: body.template_name,
      phone_number: body.phone_number,
      wam_id: body.wam_id ?? null,
      status: body.wam_id ? 'submitted' : 'failed',
      reason: body.wam_id ? null : 'No wam_id was given: the template was not submitted to WhatsApp.',
      created_at: now,
      updated_at: now,
    });
    const { company_uuid: _, ...data } = template;
    return { status: 200, body: { success: true, message: 'Template data processed successfully', data } };
  },

  async createCampaign({ company, body, ctx }) {
    const problem = scheduleProblem(body, company.timezone);
    if (problem) throw validationError([{ path: 'schedule', message: problem }]);
    try {
      const campaign = await createCampaign(ctx.store, ctx.write, company, body);
      return { status: 201, body: { success: true, message: 'Campaign created successfully.', data: presentCampaign(campaign) } };
    } catch (e) {
      if (e instanceof StoreConflictError) {
        throw new HttpError(409, 'Campaign name already exists', { issues: [{ path: 'name', message: `a campaign named "${body.name}" already exists` }] });
      }
      throw e;
    }
  },

  async getCampaignData({ company, query, ctx }) {
    const { items, total } = await ctx.store.listCampaigns(company.uuid, query);
    return {
      status: 200,
      body: {
        success: true,
        message: 'Campaigns retrieved successfully.',
        data: items.map(presentCampaign),
        pagination: pagination(total, query.page, query.limit),
      },
    };
  },

  async getCampaign({ company, params, ctx }) {
    const campaign = await ctx.store.getCampaign(company.uuid, params.id);
    if (!campaign) throw new HttpError(404, 'No campaign data found.', { issues: [{ path: 'id', message: `no campaign ${params.id} in this company` }] });
    return { status: 200, body: { success: true, message: 'Successfully fetched campaign data.', data: presentCampaign(campaign) } };
  },

  async getCustomers({ company, query, ctx }) {
    const { items, total } = await ctx.store.listCustomers(company.uuid, query);
    const last = Math.max(1, Math.ceil(total / query.limit));
    return {
      status: 200,
      body: {
        success: true,
        message: 'Customer data fetched successfully',
        data: items.map(presentCustomer),
        paging: { before: query.page > 1 ? Math.min(query.page - 1, last) : null, after: query.page < last ? query.page + 1 : null },
        total,
      },
    };
  },

  async reportingCampaign({ company, ctx }) {
    const report = await buildReport(ctx.store, company.uuid, ctx.write.now);
    if (!report) throw new HttpError(404, 'Users not found with the provided uuid');
    return { status: 200, body: { success: true, message: 'Report retrieved successfully.', data: report } };
  },
};
