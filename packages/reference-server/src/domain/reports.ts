/** The campaign report: a company's campaigns by status, its message funnel, customers and orders, and its newest campaigns in detail. */
import { type CampaignStatus, campaignStatuses, type Report } from '@engagekit/contract';
import type { Store } from '../store/types.ts';

/** How many campaigns the report details, newest first. */
export const REPORT_DETAIL_LIMIT = 100;

/** The report of a company at `now`; null when the company has no customers (the API answers 404, as the public docs show). */
export async function buildReport(store: Store, companyUuid: string, now: string): Promise<Report | null> {
  // Reads that do not wait for each other go together: on PostgreSQL each takes a connection of the
  // pool, so the report waits for its longest chain of reads (the newest campaigns, then their message
  // totals) rather than for every read in turn (the server.report.1m-messages row).
  const [customers, orders, campaigns] = await Promise.all([
    store.listCustomers(companyUuid, { page: 1, limit: 1 }),
    store.orderTotals(companyUuid),
    campaignsWithMessages(store, companyUuid),
  ]);
  if (customers.total === 0) return null;
  const { by_status, total, recent, messages } = campaigns;
  const none = { total: 0, sent: 0, delivered: 0, read: 0, failed: 0, runs: 0, last_run_at: null };
  return {
    campaigns: { total, by_status },
    messages: messages.company,
    customers: { total: customers.total },
    orders,
    campaigns_detail: recent.map((c) => {
      const { runs, last_run_at, ...counts } = messages.campaigns.get(c.id) ?? none;
      return { id: c.id, name: c.name, status: c.status, runs, last_run_at, messages: counts };
    }),
    generated_at: now,
  };
}

/** The company's campaigns by status, its newest campaigns, and the message totals of the company and of those campaigns. */
async function campaignsWithMessages(store: Store, companyUuid: string) {
  const [counts, recent] = await Promise.all([store.countCampaignsByStatus(companyUuid), store.newestCampaigns(companyUuid, REPORT_DETAIL_LIMIT)]);
  const by_status = Object.fromEntries(campaignStatuses.map((s) => [s, counts[s] ?? 0])) as Record<CampaignStatus, number>;
  const total = Object.values(by_status).reduce((a, b) => a + b, 0);
  const messages = await store.messageTotals(
    companyUuid,
    recent.map((c) => c.id),
  );
  return { by_status, total, recent, messages };
}
