import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/memory/store.ts';
import type { Store } from '../store/ports.ts';
import { COMPANY_CACHE_MS, createCompanyCache } from './company-cache.ts';

const acme = { uuid: '00000000-0000-4000-8000-000000000001', company_id: 'ACME', name: 'Acme', timezone: 'UTC', created_at: '2026-01-01T00:00:00.000Z' };

/** A store that counts its company reads. */
async function counting(): Promise<{ store: Store; reads: () => number }> {
  const inner = createMemoryStore();
  await inner.createCompany(acme);
  let reads = 0;
  return {
    store: {
      ...inner,
      getCompany(uuid) {
        reads++;
        return inner.getCompany(uuid);
      },
    },
    reads: () => reads,
  };
}

describe('createCompanyCache', () => {
  it('reads a company once while the cache holds it, and again once it has aged out', async () => {
    const { store, reads } = await counting();
    let now = 0;
    const company = createCompanyCache(store, () => now);
    expect(await company(acme.uuid)).toEqual(acme);
    now += COMPANY_CACHE_MS - 1;
    expect(await company(acme.uuid)).toEqual(acme);
    expect(reads()).toBe(1);
    now += 1;
    expect(await company(acme.uuid)).toEqual(acme);
    expect(reads()).toBe(2);
  });

  it('keeps no unknown uuid: a company created after a miss is found at once', async () => {
    const { store, reads } = await counting();
    const company = createCompanyCache(store, () => 0);
    const later = { ...acme, uuid: '00000000-0000-4000-8000-000000000002', company_id: 'LATER' };
    expect(await company(later.uuid)).toBeNull();
    await store.createCompany(later);
    expect(await company(later.uuid)).toEqual(later);
    expect(reads()).toBe(2);
  });

  it('finds a company by its uuid in upper case, as one entry with the lower-case one', async () => {
    const { store, reads } = await counting();
    const withLetters = { ...acme, uuid: '53d1bcd3-aaf0-45e1-9298-5395b6a27b61', company_id: 'LETTERS' };
    await store.createCompany(withLetters);
    const company = createCompanyCache(store, () => 0);
    expect(await company(withLetters.uuid.toUpperCase())).toEqual(withLetters);
    expect(await company(withLetters.uuid)).toEqual(withLetters);
    expect(reads()).toBe(1);
  });
});
