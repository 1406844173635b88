import { copy } from '../copy.ts';
import type { CustomerPort } from '../ports.ts';
import { iso, pageOffset } from '../shared.ts';
import type { CustomerRecord } from '../types.ts';
import { type CompanyState, type MemoryState, page, requireState } from './state.ts';

/** Adds a customer; with the `seq` its removal gave, back at its place in the list. */
function addCustomer(company: CompanyState, customer: CustomerRecord, seq?: number): void {
  company.customers.set(customer.phoneNumber, customer);
  company.customerList.insert(customer, seq);
}

/** Removes a customer; its place in the list, for `addCustomer` to put it back (an undo). */
function removeCustomer(company: CompanyState, customer: CustomerRecord): number | undefined {
  company.customers.delete(customer.phoneNumber);
  return company.customerList.remove(customer);
}

/** The memory store's customers. */
export function memoryCustomers(state: MemoryState): CustomerPort {
  const { tx } = state;
  return {
    async getCustomers(companyUuid, phoneNumbers) {
      const company = state.states.get(companyUuid);
      return phoneNumbers.flatMap((phone) => {
        const customer = company?.customers.get(phone);
        return customer ? [copy(customer)] : [];
      });
    },
    async listCustomers(companyUuid, request) {
      const list = state.states.get(companyUuid)?.customerList;
      return list ? page(list.slice(pageOffset(request), request.limit), list.size) : { items: [], total: 0 };
    },
    async countCustomers(companyUuid) {
      return state.states.get(companyUuid)?.customerList.size ?? 0;
    },
    async saveCustomers(records) {
      for (const record of records) {
        const company = requireState(state, record.company_uuid);
        const existing = company.customers.get(record.phoneNumber);
        if (existing) {
          const before = copy(existing);
          // In place: the list keeps it where its (unchanged) created_at and id put it.
          Object.assign(existing, copy(record), { id: existing.id, created_at: existing.created_at, updated_at: iso(record.updated_at) });
          tx.undoable(() => Object.assign(existing, before));
        } else {
          const customer = { ...copy(record), created_at: iso(record.created_at), updated_at: iso(record.updated_at) };
          addCustomer(company, customer);
          tx.undoable(() => removeCustomer(company, customer));
        }
      }
    },
    async deleteCustomers(companyUuid, ids) {
      const company = state.states.get(companyUuid);
      if (!company) return;
      const doomed = new Set(ids);
      for (const customer of [...company.customers.values()]) {
        if (!doomed.has(customer.id)) continue;
        const seq = removeCustomer(company, customer);
        tx.undoable(() => addCustomer(company, customer, seq));
      }
    },
  };
}
