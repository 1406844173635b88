import { type CampaignControlOutcome, cancelCampaign, PAUSED_BY_COMPANY, pauseCampaign, resumeCampaign } from '../domain/campaign-control.ts';
import { createCampaign, getCampaign, listCampaigns } from '../domain/campaigns.ts';
import { listCustomers } from '../domain/customers.ts';
import { buildReport } from '../domain/reports.ts';
import { syncCompany } from '../domain/sync.ts';
import { listTemplates, submitTemplate } from '../domain/templates.ts';
import { HttpError, validationError } from '../http/errors.ts';
import { pagination, paging, presentCampaign, presentCustomer, presentTemplate } from '../http/present.ts';
import type { HandlersFor } from './types.ts';

/** The 400 of a campaign whose template may not be sent: never submitted, or every submission of it refused. */
function templateNotUsable(name: string, statuses: readonly string[]): HttpError {
  const problem =
    statuses.length === 0
      ? `the template "${name}" was never submitted: submit it (POST /agency/template) with its wam_id first`
      : `the template "${name}" is ${statuses.join(' or ')} on every phone number it was submitted for, so no campaign can send it`;
  return new HttpError(400, `Template not usable: ${problem}`, {
    code: 'template_not_usable',
    issues: [{ path: 'template_payload.template_name', message: problem }],
  });
}

/** The 404 of a campaign id the company has none of. */
function campaignNotFound(id: string): HttpError {
  return new HttpError(404, 'No campaign data found.', { issues: [{ path: 'id', message: `no campaign ${id} in this company` }] });
}

/** What each control makes of a campaign, for its messages. */
const DONE = { pause: 'paused', resume: 'resumed', cancel: 'cancelled' } as const;

/** `scheduled, running or paused`. */
function either(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** The answer of a pause, resume or cancel: the campaign, or its 404 or 409. */
function controlled(action: keyof typeof DONE, id: string, outcome: CampaignControlOutcome | null) {
  if (outcome === null) throw campaignNotFound(id);
  const { campaign } = outcome;
  if (outcome.outcome === 'status_conflict') {
    throw new HttpError(409, `Campaign ${campaign.id} is ${campaign.status}: only a ${either(outcome.allowed)} campaign can be ${DONE[action]}.`, {
      code: 'campaign_status_conflict',
    });
  }
  const message = outcome.changed ? `Campaign ${DONE[action]}.` : `Campaign already ${campaign.status}.`;
  return { status: 200 as const, body: { success: true as const, message, data: presentCampaign(campaign) } };
}

/** The seven agency operations, the list of a company's templates, and a campaign's pause, resume and cancel. */
export const agencyHandlers: HandlersFor<
  | 'sync'
  | 'submitTemplate'
  | 'listTemplates'
  | 'createCampaign'
  | 'getCampaignData'
  | 'getCampaign'
  | 'pauseCampaign'
  | 'resumeCampaign'
  | 'cancelCampaign'
  | 'getCustomers'
  | 'reportingCampaign'
> = {
  async sync({ company, ctx }) {
    const data = await syncCompany(ctx.store, ctx.write, company);
    return { status: 200, body: { success: true, status: true, message: 'Sync Complete', data } };
  },

  async submitTemplate({ company, body, ctx }) {
    const template = await submitTemplate(ctx.store, ctx.write, company, body);
    return { status: 200, body: { success: true, message: 'Template data processed successfully', data: presentTemplate(template) } };
  },

  async listTemplates({ company, query, ctx }) {
    const { items, total } = await listTemplates(ctx.store, company, query);
    const data = items.map(presentTemplate);
    return { status: 200, body: { success: true, message: 'Templates retrieved successfully.', data, pagination: pagination(total, query.page, query.limit) } };
  },

  async createCampaign({ company, body, ctx }) {
    const created = await createCampaign(ctx.store, ctx.write, company, body, { requireUsableTemplates: ctx.config.requireUsableTemplates });
    if (created.outcome === 'schedule_refused') throw validationError([{ path: 'schedule', message: created.problem }]);
    if (created.outcome === 'template_not_usable') throw templateNotUsable(created.templateName, created.statuses);
    if (created.outcome === 'name_taken') {
      throw new HttpError(409, 'Campaign name already exists', { issues: [{ path: 'name', message: `a campaign named "${body.name}" already exists` }] });
    }
    return { status: 201, body: { success: true, message: 'Campaign created successfully.', data: presentCampaign(created.campaign) } };
  },

  async getCampaignData({ company, query, ctx }) {
    const { items, total } = await listCampaigns(ctx.store, company, query);
    const data = items.map(presentCampaign);
    return { status: 200, body: { success: true, message: 'Campaigns retrieved successfully.', data, pagination: pagination(total, query.page, query.limit) } };
  },

  async getCampaign({ company, params, ctx }) {
    const campaign = await getCampaign(ctx.store, company, params.id);
    if (!campaign) throw campaignNotFound(params.id);
    return { status: 200, body: { success: true, message: 'Successfully fetched campaign data.', data: presentCampaign(campaign) } };
  },

  async pauseCampaign({ company, params, ctx }) {
    return controlled('pause', params.id, await pauseCampaign(ctx.store, company, params.id, PAUSED_BY_COMPANY, ctx.now));
  },

  async resumeCampaign({ company, params, ctx }) {
    return controlled('resume', params.id, await resumeCampaign(ctx.store, company, params.id, ctx.now));
  },

  async cancelCampaign({ company, params, ctx }) {
    return controlled('cancel', params.id, await cancelCampaign(ctx.store, company, params.id, ctx.now));
  },

  async getCustomers({ company, query, ctx }) {
    const { items, total } = await listCustomers(ctx.store, company, query);
    const data = items.map(presentCustomer);
    return { status: 200, body: { success: true, message: 'Customer data fetched successfully', data, paging: paging(total, query.page, query.limit), total } };
  },

  async reportingCampaign({ company, ctx }) {
    const report = await buildReport(ctx.store, company.uuid, ctx.write.now);
    if (!report) throw new HttpError(404, 'Users not found with the provided uuid');
    return { status: 200, body: { success: true, message: 'Report retrieved successfully.', data: report } };
  },
};
