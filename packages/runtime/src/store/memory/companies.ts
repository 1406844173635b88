import { copy } from '../copy.ts';
import type { CompanyPort, SettingsPort } from '../ports.ts';
import { iso, pageOffset } from '../shared.ts';
import { type CompanyRecord, StoreConflictError } from '../types.ts';
import { type MemoryState, newCompanyState, page } from './state.ts';

/** The memory store's settings. */
export function memorySettings(state: MemoryState): SettingsPort {
  return {
    async ping() {},
    async getSetting(key) {
      return state.settings.get(key) ?? null;
    },
    async putSettingIfAbsent(key, value) {
      if (!state.settings.has(key)) state.settings.set(key, value);
      return state.settings.get(key) as string;
    },
  };
}

/** The memory store's companies. */
export function memoryCompanies(state: MemoryState): CompanyPort {
  return {
    async createCompany(company) {
      if (state.companyCodes.has(company.company_id))
        throw new StoreConflictError('company_id', `A company with company_id "${company.company_id}" exists already.`);
      if (state.companies.has(company.uuid)) throw new Error(`A company with uuid "${company.uuid}" exists already.`);
      const record = { ...copy(company), created_at: iso(company.created_at) };
      state.companies.set(record.uuid, record);
      state.companyCodes.add(record.company_id);
      state.companyList.insert({ id: record.uuid, created_at: record.created_at });
      state.states.set(record.uuid, newCompanyState());
      return copy(record);
    },
    async getCompany(uuid) {
      const company = state.companies.get(uuid);
      return company ? copy(company) : null;
    },
    async listCompanies(request) {
      const items = state.companyList.slice(pageOffset(request), request.limit).map((entry) => state.companies.get(entry.id) as CompanyRecord);
      return page(items, state.companyList.size);
    },
  };
}
