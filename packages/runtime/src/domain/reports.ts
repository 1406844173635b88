/** The campaign report: a company's campaigns by status, its message funnel, customers and orders, and its newest campaigns in detail. */
import { type CampaignStatus, campaignStatuses, type Report } from '@engagekit/contract';
import type { Store } from '../store/ports.ts';

/** How many campaigns the report details, newest first. */
export const REPORT_DETAIL_LIMIT = 100;

/** The report of a company at `now`; null when the company has no customers (the API answers 404, as the public docs show). */
export async function buildReport(store: Store, companyUuid: string, now: string): Promise<Report | null> {
  // No read waits for another: on PostgreSQL each takes a connection of the pool, so the report waits
  // for its longest read, not for every read in turn (the server.report.1m-messages row).
  const [customerCount, orders, counts, messages, recent] = await Promise.all([
    store.countCustomers(companyUuid),
    store.orderTotals(companyUuid),
    store.countCampaignsByStatus(companyUuid),
    store.messageTotals(companyUuid),
    store.newestCampaigns(companyUuid, REPORT_DETAIL_LIMIT),
  ]);
  if (customerCount === 0) return null;
  const by_status = Object.fromEntries(campaignStatuses.map((s) => [s, counts[s] ?? 0])) as Record<CampaignStatus, number>;
  return {
    campaigns: { total: Object.values(by_status).reduce((a, b) => a + b, 0), by_status },
    messages,
    customers: { total: customerCount },
    orders,
    campaigns_detail: recent.map(({ id, name, status, messages: { runs, last_run_at, failed_by_code, ...counts } }) => ({
      id,
      name,
      status,
      runs,
      last_run_at,
      messages: counts,
      failed_by_code,
    })),
    generated_at: now,
  };
}
