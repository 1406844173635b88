/** The agency's sync: a company's customers re-derived from its orders, and its campaign statuses brought up to date. */
import type { Store } from '../store/ports.ts';
import type { CompanyRecord, CustomerSyncResult, WriteContext } from '../store/types.ts';
import { endFinishedRuns } from './campaign-runs.ts';
import { syncCustomers } from './customers.ts';

/** What a sync did. */
interface SyncResult {
  customers: CustomerSyncResult;
  /** The company's campaigns, and how many the sync moved on (runs whose chunks were all done, ended). */
  campaigns: { total: number; updated: number };
  synced_at: string;
}

/** Re-derives the company's customers, ends its runs that are done, and counts its campaigns. */
export async function syncCompany(store: Store, write: WriteContext, company: CompanyRecord): Promise<SyncResult> {
  const customers = await syncCustomers(store, write, company.uuid);
  const updated = await endFinishedRuns(store, company, new Date(write.now));
  const byStatus = await store.countCampaignsByStatus(company.uuid);
  const total = Object.values(byStatus).reduce((a, b) => a + b, 0);
  return { customers, campaigns: { total, updated }, synced_at: write.now };
}
