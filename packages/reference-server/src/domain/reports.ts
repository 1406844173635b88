/** The campaign report: a company's campaigns by status, its message funnel, customers and orders, and its newest campaigns in detail. */
import { type CampaignStatus, campaignStatuses, type Report } from '@engagekit/contract';
import type { Store } from '../store/types.ts';

/** How many campaigns the report details, newest first. */
export const REPORT_DETAIL_LIMIT = 100;

/** The report of a company at `now`; null when the company has no customers (the API answers 404, as the public docs show). */
export async function buildReport(store: Store, companyUuid: string, now: string): Promise<Report | null> {
  const customers = await store.listCustomers(companyUuid, { page: 1, limit: 1 });
  if (customers.total === 0) return null;
  const counts = await store.countCampaignsByStatus(companyUuid);
  const by_status = Object.fromEntries(campaignStatuses.map((s) => [s, counts[s] ?? 0])) as Record<CampaignStatus, number>;
  const total = Object.values(by_status).reduce((a, b) => a + b, 0);
  const orders = await store.orderTotals(companyUuid);
  // The newest campaigns, up to REPORT_DETAIL_LIMIT: the last page(s) of the oldest-first list.
  const lastPage = Math.max(1, Math.ceil(total / REPORT_DETAIL_LIMIT));
  const recent = [
    ...(lastPage > 1 ? (await store.listCampaigns(companyUuid, { page: lastPage - 1, limit: REPORT_DETAIL_LIMIT })).items : []),
    ...(await store.listCampaigns(companyUuid, { page: lastPage, limit: REPORT_DETAIL_LIMIT })).items,
  ]
    .slice(-REPORT_DETAIL_LIMIT)
    .reverse();
  const messages = await store.messageTotals(companyUuid);
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
