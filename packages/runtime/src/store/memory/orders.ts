import { addDecimal, decimalToNumber, toDecimal } from '../../money.ts';
import { copy, frozen } from '../copy.ts';
import type { OrderPort } from '../ports.ts';
import { compareCreatedAt, iso, pageOffset, phoneOrdersOf } from '../shared.ts';
import type { ClaimedDelivery, OrderRecord } from '../types.ts';
import { type CompanyState, type MemoryState, page, requireState } from './state.ts';
import { addDelivery, removeDelivery } from './webhooks.ts';

function indexPhone(company: CompanyState, phone: string, companyOrderId: string, add: boolean): void {
  const ids = company.ordersByPhone.get(phone);
  if (add) {
    if (ids) ids.add(companyOrderId);
    else company.ordersByPhone.set(phone, new Set([companyOrderId]));
  } else if (ids) {
    ids.delete(companyOrderId);
    if (ids.size === 0) company.ordersByPhone.delete(phone);
  }
}

/**
 * Puts `order` in place of whatever order has its key (or removes that one, with `order` null); keeps
 * the indexes and the total. A replaced order keeps its place in the map, which is the order orders
 * were made in (listOrders' tie-break).
 */
function putOrder(company: CompanyState, companyOrderId: string, order: OrderRecord | null): OrderRecord | null {
  const previous = company.orders.get(companyOrderId) ?? null;
  if (previous) {
    company.orderAmount = addDecimal(company.orderAmount, toDecimal(previous.totalAmount), -1);
    indexPhone(company, previous.phoneNumber, companyOrderId, false);
    if (!order) company.orders.delete(companyOrderId);
  }
  if (order) {
    company.orderAmount = addDecimal(company.orderAmount, toDecimal(order.totalAmount));
    indexPhone(company, order.phoneNumber, companyOrderId, true);
    company.orders.set(companyOrderId, order);
  }
  return previous;
}

/** The memory store's orders and their outbox (events, and the pending deliveries an event fans out to). */
export function memoryOrders(state: MemoryState): OrderPort {
  const { tx } = state;
  return {
    async getOrder(companyUuid, companyOrderId) {
      const order = state.states.get(companyUuid)?.orders.get(companyOrderId);
      return order ? copy(order) : null;
    },
    async saveOrder(order) {
      const company = requireState(state, order.company_uuid);
      const existing = company.orders.get(order.company_order_id);
      const record = { ...copy(order), id: existing?.id ?? order.id, created_at: iso(order.created_at), updated_at: iso(order.updated_at) };
      const previous = putOrder(company, order.company_order_id, record);
      tx.undoable(() => putOrder(company, order.company_order_id, previous));
    },
    async listOrders(companyUuid, request) {
      const all = [...(state.states.get(companyUuid)?.orders.values() ?? [])].sort(compareCreatedAt);
      return page(all.slice(pageOffset(request), pageOffset(request) + request.limit), all.length);
    },
    async phoneOrders(companyUuid, phoneNumber) {
      const company = state.states.get(companyUuid);
      const orders = phoneOrdersOf([...(company?.ordersByPhone.get(phoneNumber) ?? [])].map((id) => company?.orders.get(id) as OrderRecord));
      return orders && { ...orders, latest: copy(orders.latest) };
    },
    async orderTotals(companyUuid) {
      const company = state.states.get(companyUuid);
      return company ? { total: company.orders.size, amount: decimalToNumber(company.orderAmount) } : { total: 0, amount: 0 };
    },

    async appendEvent(event, pending) {
      requireState(state, event.company_uuid);
      if (!state.events.has(event.id)) {
        // Never changed once written: frozen, and shared by snapshots (see `frozen`).
        state.events.set(event.id, frozen({ ...copy(event), created_at: iso(event.created_at) }));
        tx.undoable(() => state.events.delete(event.id));
      }
      const lease = state.dispatch.lease(pending);
      const claimed: ClaimedDelivery[] = [];
      for (const record of pending) {
        requireState(state, record.company_uuid);
        const delivery = { ...copy(record), created_at: iso(record.created_at) };
        const leased = addDelivery(state, delivery, lease);
        if (leased) claimed.push(leased);
        tx.undoable(() => removeDelivery(state, delivery));
      }
      tx.committed(() => state.dispatch.handOver(claimed));
    },
    async getEvent(id) {
      const event = state.events.get(id);
      return event ? copy(event) : null;
    },
    async listEvents(companyUuid, request) {
      const all = [...state.events.values()].filter((e) => e.company_uuid === companyUuid).sort(compareCreatedAt);
      return page(all.slice(pageOffset(request), pageOffset(request) + request.limit), all.length);
    },
  };
}
