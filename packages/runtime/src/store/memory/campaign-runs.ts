import { copy } from '../copy.ts';
import {
  type CampaignMessageTotals,
  type CampaignRecord,
  type CampaignRunPort,
  countIntoFunnel,
  type MessageRecord,
  type MessageTotals,
  noMessages,
} from '../types.ts';

/**
 * The campaign-run half of the memory store. `campaigns` lists every company's campaigns; `setStatus`
 * changes one's status keeping the store's per-status counts right.
 */
export function createMemoryCampaignRuns(deps: {
  campaigns: () => Iterable<CampaignRecord>;
  campaignById: (id: string) => CampaignRecord | undefined;
  setStatus: (campaign: CampaignRecord, status: CampaignRecord['status']) => void;
}) {
  const claims = new Map<string, { token: string; until: string }>();
  const messages = new Map<string, MessageRecord>();
  /** `${campaign_id}\u0000${run_key}\u0000${customer_id}` -> message id. */
  const byRunCustomer = new Map<string, string>();
  const totals = new Map<string, { company: MessageTotals; campaigns: Map<string, MessageTotals & { runs: Set<string> }> }>();

  function totalsFor(m: MessageRecord) {
    let t = totals.get(m.company_uuid);
    if (!t) {
      t = { company: noMessages(), campaigns: new Map() };
      totals.set(m.company_uuid, t);
    }
    let c = t.campaigns.get(m.campaign_id);
    if (!c) {
      c = { ...noMessages(), runs: new Set<string>() };
      t.campaigns.set(m.campaign_id, c);
    }
    return { company: t.company, campaign: c };
  }

  const methods: CampaignRunPort = {
    async claimDueCampaigns({ statuses, now, leaseUntil, claimToken, limit }) {
      const due: CampaignRecord[] = [];
      for (const c of deps.campaigns()) {
        if (!statuses.includes(c.status) || !c.next_run_at || c.next_run_at > now) continue;
        const claim = claims.get(c.id);
        if (claim && claim.until >= now) continue;
        due.push(c);
      }
      due.sort((a, b) => ((a.next_run_at as string) < (b.next_run_at as string) ? -1 : a.next_run_at === b.next_run_at ? (a.id < b.id ? -1 : 1) : 1));
      return due.slice(0, limit).map((c) => {
        claims.set(c.id, { token: claimToken, until: leaseUntil });
        deps.setStatus(c, 'running');
        c.updated_at = now;
        return copy(c);
      });
    },

    async nextCampaignDue(statuses, after) {
      let min: string | null = null;
      for (const c of deps.campaigns()) {
        const at = c.next_run_at;
        if (at && at > after && statuses.includes(c.status) && (min === null || at < min)) min = at;
      }
      return min;
    },

    async extendCampaignClaim(id, claimToken, leaseUntil) {
      const claim = claims.get(id);
      if (claim?.token !== claimToken) return false;
      claim.until = leaseUntil;
      return true;
    },

    async finishCampaignRun(id, claimToken, patch, now) {
      const c = deps.campaignById(id);
      if (!c || claims.get(id)?.token !== claimToken) return false;
      claims.delete(id);
      deps.setStatus(c, patch.status);
      c.next_run_at = patch.next_run_at;
      c.endDate = patch.endDate;
      c.updated_at = now;
      return true;
    },

    async insertMessages(batch) {
      const inserted = new Set<string>();
      for (const message of batch) {
        const key = `${message.campaign_id}\u0000${message.run_key}\u0000${message.customer_id}`;
        if (byRunCustomer.has(key)) continue;
        byRunCustomer.set(key, message.id);
        messages.set(message.id, copy(message));
        const t = totalsFor(message);
        countIntoFunnel(t.company, message.status, 1);
        countIntoFunnel(t.campaign, message.status, 1);
        t.campaign.runs.add(message.run_key);
        inserted.add(message.id);
      }
      return inserted;
    },

    async updateMessages(outcomes, now) {
      for (const { id, ...patch } of outcomes) {
        const m = messages.get(id);
        if (!m) continue;
        const t = totalsFor(m);
        countIntoFunnel(t.company, m.status, -1);
        countIntoFunnel(t.campaign, m.status, -1);
        Object.assign(m, patch, { updated_at: now });
        countIntoFunnel(t.company, m.status, 1);
        countIntoFunnel(t.campaign, m.status, 1);
      }
    },

    async listRunMessages(campaignId, runKey) {
      return [...messages.values()].filter((m) => m.campaign_id === campaignId && m.run_key === runKey).map((m) => copy(m));
    },

    async messageTotals(companyUuid) {
      return { ...(totals.get(companyUuid)?.company ?? noMessages()) };
    },

    async releaseExpiredCampaignClaims(companyUuid, now, status) {
      let released = 0;
      for (const c of deps.campaigns()) {
        const claim = claims.get(c.id);
        if (c.company_uuid !== companyUuid || c.status !== 'running' || !claim || claim.until >= now) continue;
        claims.delete(c.id);
        deps.setStatus(c, status);
        c.updated_at = now;
        released++;
      }
      return released;
    },
  };
  return {
    methods,
    /** One campaign's message totals, with its runs and the last of them (all zero before its first run). */
    campaignTotals(companyUuid: string, campaignId: string): CampaignMessageTotals {
      const c = totals.get(companyUuid)?.campaigns.get(campaignId);
      if (!c) return { ...noMessages(), runs: 0, last_run_at: null };
      const { runs, ...counts } = c;
      return { ...counts, runs: runs.size, last_run_at: [...runs].sort().at(-1) ?? null };
    },
    /** What it keeps, for the store's snapshots. */
    state: { claims, messages, byRunCustomer, totals },
    clear() {
      claims.clear();
      messages.clear();
      byRunCustomer.clear();
      totals.clear();
    },
  };
}
