/** Companies and the deployment's own state: a company's making and listing, and whether the store answers. */
import type { IdGenerator } from '../ids.ts';
import type { Store } from '../store/ports.ts';
import { type CompanyRecord, isStoreConflict, type Page, type PageRequest, type WriteContext } from '../store/types.ts';

/** What a new company is given. */
export interface NewCompany {
  name: string;
  company_id: string;
  timezone: string;
  /** Its uuid; a fresh one by default. */
  uuid?: string | undefined;
}

/** A company code for a company that was given none: `CMP` and twelve characters of a fresh id. */
export function newCompanyCode(ids: IdGenerator): string {
  return `CMP${ids.newId('x').slice(2, 14).toUpperCase()}`;
}

/** What making a company came to: the company, or another company holding its `company_id` already. */
export type CompanyCreation = { outcome: 'created'; company: CompanyRecord } | { outcome: 'company_id_taken' };

/**
 * Makes a company (with a fresh uuid unless given one), unless another company holds its `company_id`
 * (the store's constraint decides, so two requests at once cannot both take it).
 */
export async function createCompany(store: Store, write: WriteContext, company: NewCompany, ids: Pick<IdGenerator, 'uuid'>): Promise<CompanyCreation> {
  try {
    const created = await store.createCompany({
      uuid: company.uuid ?? ids.uuid(),
      company_id: company.company_id,
      name: company.name,
      timezone: company.timezone,
      created_at: write.now,
    });
    return { outcome: 'created', company: created };
  } catch (e) {
    if (isStoreConflict(e)) return { outcome: 'company_id_taken' };
    throw e;
  }
}

/** The company of `uuid` (in its canonical lower case); null when there is none. */
export function getCompany(store: Store, uuid: string): Promise<CompanyRecord | null> {
  return store.getCompany(uuid);
}

/** Every company, a page at a time, oldest first. */
export function listCompanies(store: Store, page: PageRequest): Promise<Page<CompanyRecord>> {
  return store.listCompanies(page);
}

/** Whether the database answers (what health reports as its state), asked ahead of the reads waiting for it. */
export async function storeAnswers(store: Store): Promise<boolean> {
  try {
    await store.ping();
    return true;
  } catch {
    return false;
  }
}
