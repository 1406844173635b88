import { getCompany } from '../domain/companies.ts';
import { canonicalUuid } from '../ids.ts';
import type { Store } from '../store/ports.ts';
import type { CompanyRecord } from '../store/types.ts';

/** How long a company read stays cached. Companies never change once created; the bound only limits staleness after a mock reset. */
export const COMPANY_CACHE_MS = 5_000;
const MAX_ENTRIES = 10_000;

/**
 * Looks companies up by uuid, in its canonical lower case (`canonicalUuid`: an upper-case uuid finds
 * its company), through a small time-bounded cache; unknown uuids are not cached. Every
 * company call reads its company: this cache serves the benchmark row `server.read.pg.vs-node-http`.
 */
export function createCompanyCache(store: Store, nowMs: () => number): (uuid: string) => Promise<CompanyRecord | null> {
  const cache = new Map<string, { company: CompanyRecord; at: number }>();
  return async (given) => {
    const uuid = canonicalUuid(given);
    const hit = cache.get(uuid);
    const now = nowMs();
    if (hit && now - hit.at < COMPANY_CACHE_MS) return hit.company;
    const company = await getCompany(store, uuid);
    if (company) {
      if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
      cache.set(uuid, { company, at: now });
    } else {
      cache.delete(uuid);
    }
    return company;
  };
}
