/**
 * Webhook endpoints: what an endpoint is made of, where it may point, how its secret rotates, and its
 * delivery log (a test event, a redelivery). The server's API and the mock make endpoints through these.
 */
import type { AddOrderBody, EventType } from '@engagekit/contract';
import type { HostResolver } from '../context.ts';
import type { Store } from '../store/ports.ts';
import { iso } from '../store/shared.ts';
import {
  type CompanyRecord,
  type DeliveryRecord,
  type EndpointRecord,
  type EventRecord,
  exclusive,
  type Page,
  type PageRequest,
  type WriteContext,
} from '../store/types.ts';
import { newOrderRecord, orderSnapshot } from './orders.ts';
import { newWebhookSecret } from './secrets.ts';
import { resolvedHostProblem, targetCheckWithoutDns, webhookTargetProblem } from './webhook-target.ts';
import { deliverTo } from './webhooks.ts';

/** Where webhooks may go: public addresses only, unless private targets are allowed (tests, development). */
export interface TargetPolicy {
  allowPrivate: boolean;
  resolve?: HostResolver | undefined;
}

/** What a new endpoint is given. */
export interface NewEndpoint {
  url: string;
  description?: string | undefined;
  /** The event types it receives; empty for every type. */
  events?: EventType[] | undefined;
  enabled?: boolean | undefined;
  /** Its signing secret; a new one by default. */
  secret?: string | undefined;
}

/** What making an endpoint came to: the endpoint, or why its URL may not receive webhooks. */
export type EndpointCreation = { outcome: 'created'; endpoint: EndpointRecord } | { outcome: 'target_refused'; problem: string };

/** Writes a new endpoint of the company, with a secret of its own, once its URL has been judged. */
function insertEndpoint(store: Store, write: WriteContext, company: CompanyRecord, endpoint: NewEndpoint): Promise<EndpointRecord> {
  return store.createEndpoint({
    id: write.newId('wh'),
    company_uuid: company.uuid,
    url: endpoint.url,
    description: endpoint.description ?? '',
    events: endpoint.events ?? [],
    enabled: endpoint.enabled ?? true,
    disabled_reason: null,
    secret: endpoint.secret ?? newWebhookSecret(),
    previous_secrets: [],
    created_at: write.now,
    updated_at: write.now,
  });
}

/**
 * A new endpoint of the company, with a secret of its own, unless its URL may not receive webhooks
 * under `policy` (`webhookTargetProblem`). Without the cap's check: for the deployment's own endpoint
 * (the mock's); the API registers through `registerEndpoint`.
 */
export async function createEndpoint(
  store: Store,
  write: WriteContext,
  company: CompanyRecord,
  endpoint: NewEndpoint,
  policy: TargetPolicy,
): Promise<EndpointCreation> {
  const { problem, lookup } = targetCheckWithoutDns(endpoint.url, policy.allowPrivate);
  // Nothing is awaited before the write unless a host name must be resolved: the memory store then
  // holds the endpoint when this returns, as the mock's own endpoint, made at start and by every reset, needs.
  const refused = lookup && policy.resolve ? await resolvedHostProblem(lookup, policy.resolve) : problem;
  if (refused) return { outcome: 'target_refused', problem: refused };
  return { outcome: 'created', endpoint: await insertEndpoint(store, write, company, endpoint) };
}

/** Webhook endpoints a company may have unless the deployment sets another cap. */
export const DEFAULT_MAX_WEBHOOK_ENDPOINTS = 20;

/** What registering an endpoint came to: the endpoint, why its URL may not receive webhooks, or the company's cap, which it has reached. */
type EndpointRegistration = EndpointCreation | { outcome: 'too_many_endpoints'; max: number };

/**
 * A new endpoint of the company, as the API makes one: refused when its URL may not receive webhooks
 * under `policy`, and once the company has `max` endpoints (enabled or not), so that one company's
 * receivers cannot take every delivery slot. The count and the write hold the company's endpoint lock,
 * so requests at once on several instances cannot pass the cap; the URL is judged (DNS included) before
 * the lock is taken.
 */
export async function registerEndpoint(
  store: Store,
  write: WriteContext,
  company: CompanyRecord,
  endpoint: NewEndpoint,
  policy: TargetPolicy,
  max: number = DEFAULT_MAX_WEBHOOK_ENDPOINTS,
): Promise<EndpointRegistration> {
  const problem = await webhookTargetProblem(endpoint.url, policy);
  if (problem) return { outcome: 'target_refused', problem };
  return store.transaction(async (tx) => {
    await tx.lock([exclusive(`webhook-endpoints:${company.uuid}`)]);
    const { total } = await tx.listEndpoints(company.uuid, { page: 1, limit: 1 });
    if (total >= max) return { outcome: 'too_many_endpoints', max };
    return { outcome: 'created', endpoint: await insertEndpoint(tx, write, company, endpoint) };
  });
}

/** The company's endpoints, a page of them, oldest first. */
export function listEndpoints(store: Store, company: CompanyRecord, page: PageRequest): Promise<Page<EndpointRecord>> {
  return store.listEndpoints(company.uuid, page);
}

/** One endpoint of the company; null when it has none by that id. */
export function getEndpoint(store: Store, company: CompanyRecord, id: string): Promise<EndpointRecord | null> {
  return store.getEndpoint(company.uuid, id);
}

/** What an endpoint's update may change. */
type EndpointChanges = Partial<Pick<EndpointRecord, 'url' | 'description' | 'events' | 'enabled'>>;

/** What updating an endpoint came to: the endpoint as it is now, or why its new URL may not receive webhooks. */
type EndpointUpdate = { outcome: 'updated'; endpoint: EndpointRecord } | { outcome: 'target_refused'; problem: string };

/**
 * Applies `changes`, unless a new URL may not receive webhooks under `policy`; enabling an endpoint
 * clears why it was disabled. Null when the company has no such endpoint.
 */
export async function updateEndpoint(
  store: Store,
  write: WriteContext,
  company: CompanyRecord,
  id: string,
  changes: EndpointChanges,
  policy: TargetPolicy,
): Promise<EndpointUpdate | null> {
  const problem = changes.url === undefined ? null : await webhookTargetProblem(changes.url, policy);
  if (problem) return { outcome: 'target_refused', problem };
  const endpoint = await store.updateEndpoint(company.uuid, id, { ...changes, ...(changes.enabled === true ? { disabled_reason: null } : {}) }, write.now);
  return endpoint && { outcome: 'updated', endpoint };
}

/** Deletes the endpoint and its pending deliveries; false when the company has no such endpoint. */
export function deleteEndpoint(store: Store, company: CompanyRecord, id: string): Promise<boolean> {
  return store.deleteEndpoint(company.uuid, id);
}

/**
 * Gives the endpoint a new secret. With a grace period, the old secret keeps signing beside the new
 * one until it ends (those of earlier rotations still in theirs too), so receivers can move over.
 */
export async function rotateSecret(
  store: Store,
  write: WriteContext,
  endpoint: EndpointRecord,
  gracePeriodS: number,
): Promise<{ secret: string; previousSecretExpiresAt: string | null }> {
  const expiresAt = new Date(Date.parse(write.now) + gracePeriodS * 1000).toISOString();
  const stillValid = endpoint.previous_secrets.filter((p) => p.expires_at > write.now);
  const previous = gracePeriodS > 0 ? [...stillValid, { secret: endpoint.secret, expires_at: expiresAt }] : stillValid;
  const secret = newWebhookSecret();
  await store.updateEndpoint(endpoint.company_uuid, endpoint.id, { secret, previous_secrets: previous }, write.now);
  return { secret, previousSecretExpiresAt: gracePeriodS > 0 ? expiresAt : null };
}

/**
 * The order a test event carries, as addOrder would take it (`satisfies` its body): a new mandatory
 * field of the contract is a type error here until the sample gives it a value, so the event never
 * carries null where `Order` says otherwise.
 */
function sampleOrderFields(today: string) {
  return {
    totalAmount: 1500.75,
    firstName: 'Test',
    lastName: 'Customer',
    phoneNumber: '+10000000000',
    postalCode: '56789',
    streetAddress1: '123 Main Street',
    products: [{ product_id: '101', quantity: 1, price: 1500.75 }],
    companyOrderDate: today,
    companyOrderDeliveryStatus: 'Pending',
    companyOrderStatus: 'Processing',
    companyOrderDescription: 'A test event: no such order exists.',
  } satisfies Omit<AddOrderBody, 'company_id' | 'company_order_id'>;
}

/** A test event of `type` for the company: a sample order that exists nowhere, marked `test: true`. */
export function testEvent(write: WriteContext, company: CompanyRecord, type: EventType): EventRecord {
  const id = write.newId('evt');
  const now = iso(write.now);
  const order = newOrderRecord('ord_test', company, 'TEST-ORDER', sampleOrderFields(now.slice(0, 10)), now);
  return { id, company_uuid: company.uuid, type, payload: { id, type, created_at: now, data: { order: orderSnapshot(order) }, test: true }, created_at: now };
}

/** Queues a test event of `type` (a sample order marked `test: true`) to the endpoint. */
export function sendTestEvent(store: Store, write: WriteContext, company: CompanyRecord, endpoint: EndpointRecord, type: EventType): Promise<DeliveryRecord> {
  return deliverTo(store, write, testEvent(write, company, type), endpoint.id);
}

/** The endpoint's deliveries, newest first. */
export function listDeliveries(
  store: Store,
  endpoint: EndpointRecord,
  page: PageRequest & { status?: DeliveryRecord['status'] },
): Promise<Page<DeliveryRecord>> {
  return store.listDeliveries(endpoint.company_uuid, endpoint.id, page);
}

/** Queues the event of one of the endpoint's deliveries again; null when it has no such delivery. */
export async function redeliver(store: Store, write: WriteContext, endpoint: EndpointRecord, deliveryId: string): Promise<DeliveryRecord | null> {
  const delivery = await store.getDelivery(endpoint.company_uuid, endpoint.id, deliveryId);
  const event = delivery && (await store.getEvent(delivery.event_id));
  return event ? deliverTo(store, write, event, endpoint.id) : null;
}
