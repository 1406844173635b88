/**
 * A company with customers and a campaign due at RUN, on a store a test gives: what the campaign run
 * tests (campaigns, controls, refusals) start from.
 */
import { createManualClock } from '../src/clock.ts';
import { importCustomers } from '../src/domain/customers.ts';
import { createSeededIds } from '../src/ids.ts';
import type { Store } from '../src/store/ports.ts';
import type { CampaignRecord, CompanyRecord } from '../src/store/types.ts';

/** When the fixture's campaign is due: its first run's key (a Monday, 09:00 UTC). */
export const RUN = '2026-01-05T09:00:00.000Z';

/**
 * Creates a company (`companyId`) with `customers` customers (+14155550000 on, first names C0 on) and a
 * `once` campaign `hello` of the template `welcome` (its body's variable the customer's first name), due
 * at RUN, with `campaign`'s fields over it. The clock starts at `clockAt` (default an hour before RUN);
 * ids are seeded with `seed`.
 */
export async function campaignFixture(
  store: Store,
  options: { seed: string; companyId: string; customers: number; campaign?: Partial<CampaignRecord>; clockAt?: string },
) {
  const clock = createManualClock(new Date(options.clockAt ?? '2026-01-05T08:00:00.000Z'));
  const ids = createSeededIds(options.seed);
  const now = clock.now().toISOString();
  const company: CompanyRecord = { uuid: ids.uuid(), company_id: options.companyId, name: 'Runner', timezone: 'UTC', created_at: now };
  await store.createCompany(company);
  await importCustomers(
    store,
    { newId: ids.newId, now },
    company.uuid,
    Array.from({ length: options.customers }, (_, i) => ({ phoneNumber: `+1415555${String(i).padStart(4, '0')}`, firstName: `C${i}` })),
  );
  const campaign = await store.createCampaign({
    id: ids.newId('cmp'),
    company_uuid: company.uuid,
    name: 'hello',
    status: 'scheduled',
    pause_reason: null,
    failure_reason: null,
    schedule_type: 'once',
    schedule: RUN,
    days: null,
    template_payload: {
      template_name: 'welcome',
      language: 'en',
      header_variable: [],
      body_variable: ['first_name'],
      variables: { first_name: '{{customer.firstName}}' },
    },
    endDate: null,
    next_run_at: RUN,
    created_at: now,
    updated_at: now,
    ...options.campaign,
  });
  return { clock, ids, company, campaign };
}

/** The messages of the campaign's run at RUN, to each of the company's customers. */
export async function runMessages(store: Store, companyUuid: string, campaignId: string) {
  const customers = (await store.listCustomers(companyUuid, { page: 1, limit: 100 })).items.map((c) => c.id);
  return store.listRunMessages(campaignId, RUN, customers);
}
