import { copy } from '../copy.ts';
import type { WebhookPort } from '../ports.ts';
import { iso, pageOffset, type WriteLease } from '../shared.ts';
import { SortedList } from '../sorted-list.ts';
import type { ClaimedDelivery, DeliveryRecord, EndpointRecord } from '../types.ts';
import { type MemoryState, page, requireState } from './state.ts';

/** Adds a pending delivery; what sending it needs when it is leased to the taker (see the dispatch's `queued`). */
export function addDelivery(state: MemoryState, delivery: DeliveryRecord, lease: WriteLease | null): ClaimedDelivery | null {
  state.deliveries.set(delivery.id, delivery);
  const list = state.deliveriesByEndpoint.get(delivery.endpoint_id) ?? new SortedList<DeliveryRecord>();
  state.deliveriesByEndpoint.set(delivery.endpoint_id, list);
  list.insert(delivery);
  return state.dispatch.queued(delivery, lease);
}

/** Removes a delivery (an undone write, or a pending one of a deleted endpoint). */
export function removeDelivery(state: MemoryState, delivery: DeliveryRecord): void {
  state.deliveries.delete(delivery.id);
  state.deliveriesByEndpoint.get(delivery.endpoint_id)?.remove(delivery);
  state.dispatch.forget(delivery.id);
}

/** The memory store's webhook endpoints and delivery log. */
export function memoryWebhooks(state: MemoryState): WebhookPort {
  return {
    async createEndpoint(endpoint) {
      const company = requireState(state, endpoint.company_uuid);
      if (state.endpoints.has(endpoint.id)) throw new Error(`A webhook endpoint with id "${endpoint.id}" exists already.`);
      const record: EndpointRecord = { ...copy(endpoint), created_at: iso(endpoint.created_at), updated_at: iso(endpoint.updated_at) };
      state.endpoints.set(record.id, record);
      company.endpointList.insert(record);
      return copy(record);
    },
    async getEndpoint(companyUuid, id) {
      const endpoint = state.endpoints.get(id);
      return endpoint && endpoint.company_uuid === companyUuid ? copy(endpoint) : null;
    },
    async listEndpoints(companyUuid, request) {
      const list = state.states.get(companyUuid)?.endpointList;
      return list ? page(list.slice(pageOffset(request), request.limit), list.size) : { items: [], total: 0 };
    },
    async allEndpoints(companyUuid) {
      return (state.states.get(companyUuid)?.endpointList.items ?? []).map(copy);
    },
    async updateEndpoint(companyUuid, id, patch, now) {
      const endpoint = state.endpoints.get(id);
      if (!endpoint || endpoint.company_uuid !== companyUuid) return null;
      for (const [key, value] of Object.entries(copy(patch))) if (value !== undefined) Object.assign(endpoint, { [key]: value });
      endpoint.updated_at = iso(now);
      return copy(endpoint);
    },
    async deleteEndpoint(companyUuid, id) {
      const endpoint = state.endpoints.get(id);
      if (!endpoint || endpoint.company_uuid !== companyUuid) return false;
      state.endpoints.delete(id);
      state.states.get(companyUuid)?.endpointList.remove(endpoint);
      for (const delivery of [...(state.deliveriesByEndpoint.get(id)?.items ?? [])]) {
        if (delivery.status === 'pending') removeDelivery(state, delivery);
      }
      return true;
    },

    async getDelivery(companyUuid, endpointId, id) {
      const delivery = state.deliveries.get(id);
      return delivery && delivery.company_uuid === companyUuid && delivery.endpoint_id === endpointId ? copy(delivery) : null;
    },
    async listDeliveries(companyUuid, endpointId, request) {
      const all = state.deliveriesByEndpoint.get(endpointId)?.items ?? [];
      const matching: DeliveryRecord[] = [];
      // Newest first: walk the oldest-first list backwards.
      for (let i = all.length - 1; i >= 0; i--) {
        const delivery = all[i] as DeliveryRecord;
        if (delivery.company_uuid === companyUuid && (request.status === undefined || delivery.status === request.status)) matching.push(delivery);
      }
      return page(matching.slice(pageOffset(request), pageOffset(request) + request.limit), matching.length);
    },
  };
}
