import type { CampaignStatus } from '@engagekit/contract';
import { campaignStatuses } from '@engagekit/contract';
import { nextRecurringRun } from '../domain/schedule.ts';
import { HttpError } from '../http/errors.ts';
import { pagination, presentCampaign, presentCustomer } from '../http/present.ts';
import { StoreConflictError } from '../store/types.ts';
import type { HandlersFor } from './types.ts';

/** How many campaigns the report details, newest first. */
export const REPORT_DETAIL_LIMIT = 100;

/** The seven agency operations. */
export const agencyHandlers: HandlersFor<
  'sync' | 'submitTemplate' | 'createCampaign' | 'getCampaignData' | 'getCampaign' | 'getCustomers' | 'reportingCampaign'
> = {
  async sync({ company, ctx }) {
    const customers = await ctx.store.syncCustomers(ctx.write, company.uuid);
    // A run whose runner died shows `scheduled` again at once (the scheduler resumes it).
    const released = await ctx.store.releaseExpiredCampaignClaims(company.uuid, ctx.write.now);
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
    const schedule = new Date(body.schedule);
    const nextRun = body.schedule_type === 'once' ? schedule : nextRecurringRun(body.days ?? {}, company.timezone, schedule);
    try {
      const campaign = await ctx.store.createCampaign({
        id: ctx.write.newId('cmp'),
        company_uuid: company.uuid,
        name: body.name,
        status: 'scheduled',
        schedule_type: body.schedule_type,
        schedule: schedule.toISOString(),
        days: body.schedule_type === 'recurring' ? (body.days ?? null) : null,
        template_payload: body.template_payload,
        endDate: null,
        next_run_at: nextRun ? nextRun.toISOString() : null,
        created_at: ctx.write.now,
        updated_at: ctx.write.now,
      });
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
    const customers = await ctx.store.listCustomers(company.uuid, { page: 1, limit: 1 });
    if (customers.total === 0) throw new HttpError(404, 'Users not found with the provided uuid');
    const counts = await ctx.store.countCampaignsByStatus(company.uuid);
    const by_status = Object.fromEntries(campaignStatuses.map((s) => [s, counts[s] ?? 0])) as Record<CampaignStatus, number>;
    const total = Object.values(by_status).reduce((a, b) => a + b, 0);
    const orders = await ctx.store.orderTotals(company.uuid);
    // The newest campaigns, up to REPORT_DETAIL_LIMIT: the last page(s) of the oldest-first list.
    const lastPage = Math.max(1, Math.ceil(total / REPORT_DETAIL_LIMIT));
    const recent = [
      ...(lastPage > 1 ? (await ctx.store.listCampaigns(company.uuid, { page: lastPage - 1, limit: REPORT_DETAIL_LIMIT })).items : []),
      ...(await ctx.store.listCampaigns(company.uuid, { page: lastPage, limit: REPORT_DETAIL_LIMIT })).items,
    ]
      .slice(-REPORT_DETAIL_LIMIT)
      .reverse();
    const messages = await ctx.store.messageTotals(company.uuid);
    const none = { total: 0, sent: 0, delivered: 0, read: 0, failed: 0, runs: 0, last_run_at: null };
    return {
      status: 200,
      body: {
        success: true,
        message: 'Report retrieved successfully.',
        data: {
          campaigns: { total, by_status },
          messages: messages.company,
          customers: { total: customers.total },
          orders,
          campaigns_detail: recent.map((c) => {
            const { runs, last_run_at, ...counts } = messages.campaigns.get(c.id) ?? none;
            return { id: c.id, name: c.name, status: c.status, runs, last_run_at, messages: counts };
          }),
          generated_at: ctx.write.now,
        },
      },
    };
  },
};
