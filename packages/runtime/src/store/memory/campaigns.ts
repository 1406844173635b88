import { copy } from '../copy.ts';
import type { CampaignPort } from '../ports.ts';
import { iso, pageOffset } from '../shared.ts';
import { type CampaignRecord, type CampaignStatusPatch, StoreConflictError } from '../types.ts';
import { bumpStatus, type CompanyState, type MemoryState, page, requireState } from './state.ts';

/** Writes the fields `patch` gives (its status kept in the company's per-status counts) and `updated_at`. */
function applyPatch(company: CompanyState, campaign: CampaignRecord, patch: Partial<CampaignStatusPatch>, now: string): void {
  if (patch.status !== undefined && patch.status !== campaign.status) {
    bumpStatus(company, campaign.status, -1);
    bumpStatus(company, patch.status, 1);
    campaign.status = patch.status;
  }
  if (patch.pause_reason !== undefined) campaign.pause_reason = patch.pause_reason;
  if (patch.failure_reason !== undefined) campaign.failure_reason = patch.failure_reason;
  if (patch.endDate !== undefined) campaign.endDate = patch.endDate;
  if (patch.next_run_at !== undefined) campaign.next_run_at = patch.next_run_at === null ? null : iso(patch.next_run_at);
  campaign.updated_at = iso(now);
}

/** The memory store's campaigns. */
export function memoryCampaigns(state: MemoryState): CampaignPort {
  return {
    async createCampaign(campaign) {
      const company = requireState(state, campaign.company_uuid);
      if (company.campaignNames.has(campaign.name)) throw new StoreConflictError('name', `A campaign named "${campaign.name}" exists already.`);
      const record: CampaignRecord = {
        ...copy(campaign),
        schedule: iso(campaign.schedule),
        next_run_at: campaign.next_run_at === null ? null : iso(campaign.next_run_at),
        created_at: iso(campaign.created_at),
        updated_at: iso(campaign.updated_at),
        seq: company.campaigns.length + 1,
      };
      company.campaigns.push(record);
      company.campaignsById.set(record.id, record);
      company.campaignNames.add(record.name);
      bumpStatus(company, record.status, 1);
      return copy(record);
    },
    async getCampaign(companyUuid, id) {
      const campaign = state.states.get(companyUuid)?.campaignsById.get(id);
      return campaign ? copy(campaign) : null;
    },
    async listCampaigns(companyUuid, request) {
      const all = state.states.get(companyUuid)?.campaigns ?? [];
      // seq in ((page-1)*limit, page*limit]: the same window the SQL store reads from its index.
      return page(all.slice(pageOffset(request), pageOffset(request) + request.limit), all.length);
    },
    async updateCampaign(companyUuid, id, patch, now) {
      const company = state.states.get(companyUuid);
      const campaign = company?.campaignsById.get(id);
      if (!company || !campaign) return null;
      applyPatch(company, campaign, patch, now);
      return copy(campaign);
    },
    async updateCampaignIf(companyUuid, id, from, patch, now) {
      const company = state.states.get(companyUuid);
      const campaign = company?.campaignsById.get(id);
      if (!company || !campaign || !from.includes(campaign.status)) return null;
      const { status, pause_reason, failure_reason, next_run_at, endDate, updated_at } = campaign;
      state.tx.undoable(() => applyPatch(company, campaign, { status, pause_reason, failure_reason, next_run_at, endDate }, updated_at));
      applyPatch(company, campaign, patch, now);
      return copy(campaign);
    },
    async countCampaignsByStatus(companyUuid) {
      return Object.fromEntries(state.states.get(companyUuid)?.campaignsByStatus ?? []);
    },
    async newestCampaigns(companyUuid, limit) {
      const all = state.states.get(companyUuid)?.campaigns ?? [];
      return all
        .slice(-limit)
        .reverse()
        .map(({ id, name, status }) => ({ id, name, status, messages: state.runs.campaignTotals(companyUuid, id) }));
    },
  };
}
