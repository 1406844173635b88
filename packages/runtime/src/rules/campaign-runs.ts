/**
 * The domain's decisions about campaign runs that a store carries out inside its own reads and
 * writes: which campaigns are due and in what order their runs start, where a run's chunks end, whose
 * chunks are claimed and sent, and the order they are claimed in. The memory store calls these; the
 * SQL store writes the same rules in its statements (`store/sql/run-chunks.ts` of the reference
 * server), and the store conformance suite pins both. Pure: they import nothing but record types, so a store may use them.
 */
import type { CampaignRecord, RunChunk } from '../store/types.ts';

/** Whether the campaign waits for a run later than `after`: `scheduled`, with its next run after that (what `nextCampaignDue` looks for). */
export function waitsForRunAfter(campaign: Pick<CampaignRecord, 'status' | 'next_run_at'>, after: string): boolean {
  return campaign.status === 'scheduled' && campaign.next_run_at !== null && campaign.next_run_at > after;
}

/** Whether the campaign's run is due at `now`: `scheduled`, with its next run at or before `now`. */
export function isDue(campaign: Pick<CampaignRecord, 'status' | 'next_run_at'>, now: string): boolean {
  return campaign.status === 'scheduled' && campaign.next_run_at !== null && campaign.next_run_at <= now;
}

/**
 * Whether a campaign's chunks may be claimed and sent: only while it is `running`. A paused or
 * cancelled campaign's chunks wait, and a chunk under way hands itself back at its next slice.
 */
export function sendsChunks(campaign: Pick<CampaignRecord, 'status'>): boolean {
  return campaign.status === 'running';
}

/** The order due runs start in: earliest due first, then by campaign id. */
export function compareDue(a: Pick<CampaignRecord, 'id' | 'next_run_at'>, b: Pick<CampaignRecord, 'id' | 'next_run_at'>): number {
  const x = a.next_run_at ?? '';
  const y = b.next_run_at ?? '';
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The customer ids that end a run's chunks, from the company's customer ids in order: every `chunkSize`-th, but the last customer. */
export function chunkEnds(sortedIds: readonly string[], chunkSize: number): string[] {
  return sortedIds.filter((_, i) => (i + 1) % chunkSize === 0 && i < sortedIds.length - 1);
}

/**
 * The ranges of a run's chunks from the ids that end them (`chunkEnds`): after one id, through the
 * next; the last chunk is open-ended, so it also takes customers who came after the run was planned.
 */
export function chunkRanges(throughIds: readonly string[]): { after_id: string | null; through_id: string | null }[] {
  const ranges: { after_id: string | null; through_id: string | null }[] = [];
  let after: string | null = null;
  for (const through of throughIds) {
    ranges.push({ after_id: after, through_id: through });
    after = through;
  }
  ranges.push({ after_id: after, through_id: null });
  return ranges;
}

/**
 * The order open chunks are claimed in: of the earliest runs first, and of those the first chunk of
 * each run before the second of any (runs due together start together), then by campaign id.
 */
export function compareChunkClaims(a: Pick<RunChunk, 'run_key' | 'seq' | 'campaign_id'>, b: Pick<RunChunk, 'run_key' | 'seq' | 'campaign_id'>): number {
  if (a.run_key !== b.run_key) return a.run_key < b.run_key ? -1 : 1;
  return a.seq - b.seq || (a.campaign_id < b.campaign_id ? -1 : a.campaign_id > b.campaign_id ? 1 : 0);
}
