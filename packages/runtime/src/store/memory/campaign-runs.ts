import { chunkEnds, chunkRanges, compareChunkClaims, compareDue, isDue, sendsChunks, waitsForRunAfter } from '../../rules/campaign-runs.ts';
import { advanceBar, advances, repeats } from '../../rules/message-status.ts';
import { copy } from '../copy.ts';
import type { CampaignRunPort } from '../ports.ts';
import { iso } from '../shared.ts';
import {
  type CampaignMessageTotals,
  type CampaignRecord,
  type ClaimedChunk,
  type CustomerRecord,
  countIntoFunnel,
  type MessageOutcome,
  type MessageRecord,
  type MessageTotals,
  noMessages,
  type RunChunk,
  type StatusWrite,
  topFailureCodes,
} from '../types.ts';

/** A chunk as the memory store keeps it, with its lease. */
interface HeldChunk extends RunChunk {
  /** Who holds it until when; a token of null: nobody, claimable from `until` (its messages' next attempt). */
  claim: { token: string | null; until: string } | null;
}

/** Whether a customer id falls in a chunk. */
const inChunk = (id: string, chunk: RunChunk) => (chunk.after_id === null || id > chunk.after_id) && (chunk.through_id === null || id <= chunk.through_id);

/** What the memory store's campaign runs need of its campaigns and customers. */
interface RunDeps {
  campaigns: () => Iterable<CampaignRecord>;
  campaignById: (id: string) => CampaignRecord | undefined;
  customersOf: (companyUuid: string) => Iterable<CustomerRecord>;
  setStatus: (campaign: CampaignRecord, status: CampaignRecord['status']) => void;
}

type MessageMethods = Pick<
  CampaignRunPort,
  'runTotals' | 'insertMessages' | 'updateMessages' | 'deferMessages' | 'applyStatuses' | 'listRunMessages' | 'messageTotals'
>;

/**
 * The campaign-run part of the memory store. `campaigns` lists every company's campaigns, `customersOf`
 * a company's customers; `setStatus` changes a campaign's status keeping the store's per-status counts right.
 */
export function createMemoryCampaignRuns(deps: RunDeps) {
  const chunks = new Map<string, HeldChunk>();
  const messages = memoryRunMessages();
  const methods: CampaignRunPort = { ...memoryRunChunks(deps, chunks), ...messages.methods };
  return {
    methods,
    campaignTotals: messages.campaignTotals,
    hasProviderId: messages.hasProviderId,
    /** Extends the leases of chunks held under `claimToken` that are not done. */
    renew(claimToken: string, leaseUntil: string): void {
      for (const chunk of chunks.values()) if (!chunk.done && chunk.claim?.token === claimToken) chunk.claim.until = leaseUntil;
    },
    /** What it keeps, for the store's snapshots. */
    state: { chunks, ...messages.state },
    clear() {
      chunks.clear();
      messages.clear();
    },
  };
}

/** A run's chunks in the memory store (`chunks`, with their leases), and the campaigns' runs they serve. */
function memoryRunChunks(deps: RunDeps, chunks: Map<string, HeldChunk>): Omit<CampaignRunPort, keyof MessageMethods> {
  const runChunks = (campaignId: string, runKey: string) => [...chunks.values()].filter((c) => c.campaign_id === campaignId && c.run_key === runKey);
  const shown = ({ claim: _, ...chunk }: HeldChunk): RunChunk => ({ ...chunk });
  return {
    async startDueRuns({ now, limit, chunkSize, newId }) {
      const due = [...deps.campaigns()].filter((c) => isDue(c, now)).sort(compareDue);
      return due.slice(0, limit).map((campaign) => {
        const runKey = campaign.next_run_at as string;
        if (runChunks(campaign.id, runKey).length === 0) {
          const ids = [...deps.customersOf(campaign.company_uuid)].map((c) => c.id).sort();
          for (const [i, bounds] of chunkRanges(chunkEnds(ids, chunkSize)).entries()) {
            const id = newId('chk');
            chunks.set(id, {
              id,
              company_uuid: campaign.company_uuid,
              campaign_id: campaign.id,
              run_key: runKey,
              seq: i + 1,
              ...bounds,
              done: false,
              claim: null,
            });
          }
        }
        deps.setStatus(campaign, 'running');
        campaign.updated_at = now;
        return copy(campaign);
      });
    },

    async nextCampaignDue(after) {
      let min: string | null = null;
      for (const c of deps.campaigns()) {
        const at = c.next_run_at;
        if (at && waitsForRunAfter(c, after) && (min === null || at < min)) min = at;
      }
      return min;
    },

    async claimChunks({ now, leaseUntil, claimToken, limit }) {
      const claimed: ClaimedChunk[] = [];
      const open = [...chunks.values()].filter((c) => !c.done && (c.claim === null || c.claim.until < now));
      open.sort(compareChunkClaims);
      for (const chunk of open) {
        if (claimed.length >= limit) break;
        const campaign = deps.campaignById(chunk.campaign_id);
        if (!campaign || !sendsChunks(campaign)) continue;
        // Still under another claimer's token when its lease ran out: that instance died, or stopped, holding it.
        const takenOver = chunk.claim !== null && chunk.claim.token !== null && chunk.claim.token !== claimToken;
        chunk.claim = { token: claimToken, until: leaseUntil };
        claimed.push({ ...shown(chunk), campaign: copy(campaign), ...(takenOver && { taken_over: true }) });
      }
      return claimed;
    },

    async chunkCustomers(chunk) {
      return [...deps.customersOf(chunk.company_uuid)]
        .filter((c) => inChunk(c.id, chunk))
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map(copy);
    },

    async holdsChunk(chunkId, claimToken, now) {
      const chunk = chunks.get(chunkId);
      const campaign = chunk && deps.campaignById(chunk.campaign_id);
      return chunk?.claim?.token === claimToken && chunk.claim.until >= now && campaign !== undefined && sendsChunks(campaign);
    },

    async finishChunk(chunkId, claimToken) {
      const chunk = chunks.get(chunkId);
      if (!chunk || chunk.claim?.token !== claimToken) return false;
      chunk.done = true;
      chunk.claim = null;
      return true;
    },

    async releaseChunk(chunkId, claimToken, until) {
      const chunk = chunks.get(chunkId);
      if (chunk?.claim?.token !== claimToken) return;
      // Held by nobody until then: the claim's time without its token.
      chunk.claim = until === undefined ? null : { token: null, until: iso(until) };
    },

    async runPlanned(campaignId, runKey) {
      return runChunks(campaignId, runKey).length > 0;
    },

    async closeChunks(campaignId) {
      let closed = 0;
      for (const chunk of chunks.values()) {
        if (chunk.campaign_id !== campaignId || chunk.done) continue;
        chunk.done = true;
        chunk.claim = null;
        closed++;
      }
      return closed;
    },

    async pendingChunks(campaignId, runKey) {
      return runChunks(campaignId, runKey).filter((c) => !c.done).length;
    },

    async runningCampaigns(companyUuid) {
      return [...deps.campaigns()].filter((c) => c.company_uuid === companyUuid && c.status === 'running').map(copy);
    },

    async finishRun(campaignId, runKey, patch, now) {
      const c = deps.campaignById(campaignId);
      if (c?.status !== 'running' || c.next_run_at !== runKey) return false;
      deps.setStatus(c, patch.status);
      c.failure_reason = patch.failure_reason;
      c.next_run_at = patch.next_run_at;
      c.endDate = patch.endDate;
      c.updated_at = now;
      return true;
    },
  };
}

/** A campaign's totals as the memory store keeps them: the funnel, its runs, and its failures by code ('' for none). */
type CampaignTally = MessageTotals & { runs: Set<string>; failures: Map<string, number> };

/** Each company's and campaign's message totals, kept as messages are counted in and out. */
function messageTallies() {
  const totals = new Map<string, { company: MessageTotals; campaigns: Map<string, CampaignTally> }>();

  function totalsFor(m: MessageRecord) {
    let t = totals.get(m.company_uuid);
    if (!t) {
      t = { company: noMessages(), campaigns: new Map() };
      totals.set(m.company_uuid, t);
    }
    let c = t.campaigns.get(m.campaign_id);
    if (!c) {
      c = { ...noMessages(), runs: new Set<string>(), failures: new Map() };
      t.campaigns.set(m.campaign_id, c);
    }
    return { company: t.company, campaign: c };
  }

  return {
    totals,
    /** Counts `m` into (n = 1) or out of (n = -1) its company's and campaign's totals. */
    count(m: MessageRecord, n: 1 | -1) {
      const t = totalsFor(m);
      countIntoFunnel(t.company, m.status, n);
      countIntoFunnel(t.campaign, m.status, n);
      if (m.status === 'failed') {
        const code = m.error_code === null ? '' : String(m.error_code);
        t.campaign.failures.set(code, (t.campaign.failures.get(code) ?? 0) + n);
      }
    },
    /** Counts a run of `m`'s campaign. */
    countRun: (m: MessageRecord) => totalsFor(m).campaign.runs.add(m.run_key),
    /** One campaign's message totals, with its runs, the last of them and its failures by code (all zero before its first run). */
    campaignTotals(companyUuid: string, campaignId: string): CampaignMessageTotals {
      const c = totals.get(companyUuid)?.campaigns.get(campaignId);
      if (!c) return { ...noMessages(), runs: 0, last_run_at: null, failed_by_code: [] };
      const { runs, failures, ...counts } = c;
      return { ...counts, runs: runs.size, last_run_at: [...runs].sort().at(-1) ?? null, failed_by_code: topFailureCodes(failures) };
    },
  };
}

/** Of `statuses`, those their message (`found`, each as it stands before they are applied) holds already (`repeats`). */
function repeatsAmong(statuses: readonly StatusWrite[], found: readonly (MessageRecord | undefined)[]): number {
  return statuses.filter((status, i) => {
    const m = found[i];
    return m !== undefined && repeats(m, status);
  }).length;
}

/** A run's messages in the memory store, with each company's and campaign's totals kept as they change. */
function memoryRunMessages() {
  const messages = new Map<string, MessageRecord>();
  /** `${campaign_id}\u0000${run_key}\u0000${customer_id}` -> message id. */
  const byRunCustomer = new Map<string, string>();
  /** A provider's message id -> the message's id. */
  const byProviderId = new Map<string, string>();
  const tallies = messageTallies();
  const { totals, count } = tallies;

  /** Moves `m` to `next` when that moves it forward (rules/message-status.ts). */
  function advance(m: MessageRecord, next: Omit<MessageOutcome, 'id'>, now: string) {
    if (!advances(m, next)) return;
    count(m, -1);
    m.status = next.status;
    m.error = next.error;
    m.error_code = next.error_code;
    if (next.provider_message_id !== null) {
      m.provider_message_id = next.provider_message_id;
      byProviderId.set(next.provider_message_id, m.id);
    }
    m.updated_at = now;
    count(m, 1);
  }

  /** The message a provider's status is for: by its own id while it has no provider id or this one, else by the provider's id. */
  function messageOf(status: StatusWrite): MessageRecord | undefined {
    const own = status.message_id === null ? undefined : messages.get(status.message_id);
    if (own && (own.provider_message_id === null || own.provider_message_id === status.provider_message_id)) return own;
    const id = byProviderId.get(status.provider_message_id);
    return id === undefined ? undefined : messages.get(id);
  }

  const methods: MessageMethods = {
    async runTotals(campaignId, runKey) {
      const counted = { sent: 0, failed: 0 };
      for (const m of messages.values()) {
        if (m.campaign_id !== campaignId || m.run_key !== runKey) continue;
        if (m.status === 'failed') counted.failed++;
        else if (m.status === 'sent' || m.status === 'delivered' || m.status === 'read') counted.sent++;
      }
      return counted;
    },

    async insertMessages(batch) {
      const inserted = new Set<string>();
      for (const message of batch) {
        const key = `${message.campaign_id}\u0000${message.run_key}\u0000${message.customer_id}`;
        if (byRunCustomer.has(key)) continue;
        byRunCustomer.set(key, message.id);
        const m = copy(message);
        messages.set(m.id, m);
        if (m.provider_message_id !== null) byProviderId.set(m.provider_message_id, m.id);
        count(m, 1);
        tallies.countRun(m);
        inserted.add(m.id);
      }
      return inserted;
    },

    async updateMessages(outcomes, now) {
      for (const { id, ...next } of outcomes) {
        const m = messages.get(id);
        if (m) advance(m, next, now);
      }
    },

    async deferMessages(deferrals, now) {
      for (const { id, ...deferral } of deferrals) {
        const m = messages.get(id);
        if (m?.status !== 'sending' && m?.status !== 'pending') continue;
        count(m, -1);
        Object.assign(m, {
          status: 'pending',
          ...deferral,
          next_attempt_at: deferral.next_attempt_at === null ? null : iso(deferral.next_attempt_at),
          updated_at: now,
        });
        count(m, 1);
      }
    },

    async applyStatuses(statuses, now) {
      // Of several statuses of one message, the one that moves it furthest (the SQL store picks the same).
      const found = statuses.map(messageOf);
      const repeated = repeatsAmong(statuses, found);
      const furthest = new Map<MessageRecord, StatusWrite>();
      statuses.forEach((status, i) => {
        const m = found[i];
        const seen = m && furthest.get(m);
        if (m && (!seen || advanceBar(status) > advanceBar(seen))) furthest.set(m, status);
      });
      for (const [m, status] of furthest) advance(m, status, now);
      return { found: found.map((m) => m !== undefined), repeated };
    },

    async listRunMessages(campaignId, runKey, customerIds) {
      return customerIds.flatMap((customerId) => {
        const id = byRunCustomer.get(`${campaignId}\u0000${runKey}\u0000${customerId}`);
        const m = id && messages.get(id);
        return m ? [copy(m)] : [];
      });
    },

    async messageTotals(companyUuid) {
      return { ...(totals.get(companyUuid)?.company ?? noMessages()) };
    },
  };
  return {
    methods,
    campaignTotals: tallies.campaignTotals,
    /** Whether a message has this provider id. */
    hasProviderId: (providerMessageId: string) => byProviderId.has(providerMessageId),
    state: { messages, byRunCustomer, byProviderId, totals },
    clear() {
      messages.clear();
      byRunCustomer.clear();
      byProviderId.clear();
      totals.clear();
    },
  };
}
