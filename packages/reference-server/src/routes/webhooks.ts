import type { EventType, Order } from '@engagekit/contract';
import type { RequestContext } from '../context.ts';
import { newWebhookSecret } from '../domain/secrets.ts';
import { webhookTargetProblem } from '../domain/webhook-target.ts';
import { HttpError } from '../http/errors.ts';
import { pagination, presentDelivery, presentEndpoint } from '../http/present.ts';
import type { CompanyRecord, EndpointRecord, EventRecord } from '../store/types.ts';
import type { HandlersFor } from './types.ts';

async function checkTarget(url: string, ctx: RequestContext) {
  const problem = await webhookTargetProblem(url, { allowPrivate: ctx.config.webhookAllowPrivate, resolve: ctx.resolveHost });
  if (problem) throw new HttpError(400, `Invalid request: url ${problem}`, { issues: [{ path: 'url', message: problem }] });
}

async function endpointOr404(ctx: RequestContext, company: CompanyRecord, id: string): Promise<EndpointRecord> {
  const endpoint = await ctx.store.getEndpoint(company.uuid, id);
  if (!endpoint) throw new HttpError(404, `No webhook endpoint ${id} in this company`, { issues: [{ path: 'id', message: 'no such webhook endpoint' }] });
  return endpoint;
}

/** A sample order for test events. */
function sampleOrder(company: CompanyRecord, now: string): Order {
  return {
    id: 'ord_test',
    company_id: company.company_id,
    company_order_id: 'TEST-ORDER',
    totalAmount: 1500.75,
    firstName: 'Test',
    lastName: 'Customer',
    phoneNumber: '+10000000000',
    email: null,
    postalCode: '56789',
    streetAddress1: '123 Main Street',
    streetAddress2: null,
    city: null,
    state: null,
    specialInstructions: null,
    products: [{ product_id: '101', quantity: 1, price: 1500.75 }],
    billingStreetAddress1: null,
    billingStreetAddress2: null,
    billingCity: null,
    billingState: null,
    billingPostalCode: null,
    companyOrderDate: now.slice(0, 10),
    companyOrderDueDate: null,
    companyOrderDeliveryStatus: 'Pending',
    companyOrderPaymentReference: null,
    companyOrderStatus: 'Processing',
    companyOrderDescription: 'A test event: no such order exists.',
    company_order_other_attributes_1: null,
    company_order_other_attributes_2: null,
    version: 1,
    created_at: now,
    updated_at: now,
  };
}

/** Webhook endpoints, secrets, test events and the delivery log. The company of `{uuid}` is resolved (404) before these run. */
export const webhookHandlers: HandlersFor<
  | 'createWebhook'
  | 'listWebhooks'
  | 'getWebhook'
  | 'updateWebhook'
  | 'deleteWebhook'
  | 'rotateWebhookSecret'
  | 'sendTestEvent'
  | 'listWebhookDeliveries'
  | 'redeliverWebhookDelivery'
> = {
  async createWebhook({ company, body, ctx }) {
    await checkTarget(body.url, ctx);
    const endpoint = await ctx.store.createEndpoint({
      id: ctx.write.newId('wh'),
      company_uuid: company.uuid,
      url: body.url,
      description: body.description,
      events: body.events,
      enabled: body.enabled,
      disabled_reason: null,
      secret: newWebhookSecret(),
      previous_secrets: [],
      created_at: ctx.write.now,
      updated_at: ctx.write.now,
    });
    return { status: 201, body: { success: true, message: 'Webhook created.', data: presentEndpoint(endpoint) } };
  },

  async listWebhooks({ company, query, ctx }) {
    const { items, total } = await ctx.store.listEndpoints(company.uuid, query);
    return {
      status: 200,
      body: {
        success: true,
        message: 'Webhooks retrieved successfully.',
        data: items.map(presentEndpoint),
        pagination: pagination(total, query.page, query.limit),
      },
    };
  },

  async getWebhook({ company, params, ctx }) {
    return {
      status: 200,
      body: { success: true, message: 'Webhook retrieved successfully.', data: presentEndpoint(await endpointOr404(ctx, company, params.id)) },
    };
  },

  async updateWebhook({ company, params, body, ctx }) {
    await endpointOr404(ctx, company, params.id);
    if (body.url !== undefined) await checkTarget(body.url, ctx);
    const patch = { ...body, ...(body.enabled === true ? { disabled_reason: null } : {}) };
    const updated = await ctx.store.updateEndpoint(company.uuid, params.id, patch, ctx.write.now);
    if (!updated) throw new HttpError(404, `No webhook endpoint ${params.id} in this company`);
    return { status: 200, body: { success: true, message: 'Webhook updated.', data: presentEndpoint(updated) } };
  },

  async deleteWebhook({ company, params, ctx }) {
    if (!(await ctx.store.deleteEndpoint(company.uuid, params.id))) {
      throw new HttpError(404, `No webhook endpoint ${params.id} in this company`, { issues: [{ path: 'id', message: 'no such webhook endpoint' }] });
    }
    return { status: 200, body: { success: true, message: 'Webhook deleted.', data: { id: params.id, deleted: true } } };
  },

  async rotateWebhookSecret({ company, params, body, ctx }) {
    const endpoint = await endpointOr404(ctx, company, params.id);
    const expiresAt = new Date(ctx.now.getTime() + body.grace_period_s * 1000).toISOString();
    const stillValid = endpoint.previous_secrets.filter((p) => p.expires_at > ctx.write.now);
    const previous = body.grace_period_s > 0 ? [...stillValid, { secret: endpoint.secret, expires_at: expiresAt }] : stillValid;
    const secret = newWebhookSecret();
    await ctx.store.updateEndpoint(company.uuid, params.id, { secret, previous_secrets: previous }, ctx.write.now);
    return {
      status: 200,
      body: { success: true, message: 'Secret rotated.', data: { secret, previous_secret_expires_at: body.grace_period_s > 0 ? expiresAt : null } },
    };
  },

  async sendTestEvent({ company, params, body, ctx }) {
    const endpoint = await endpointOr404(ctx, company, params.id);
    const id = ctx.write.newId('evt');
    const type: EventType = body.event_type;
    const event: EventRecord = {
      id,
      company_uuid: company.uuid,
      type,
      payload: { id, type, created_at: ctx.write.now, data: { order: sampleOrder(company, ctx.write.now) }, test: true },
      created_at: ctx.write.now,
    };
    const delivery = await ctx.store.enqueueDelivery(ctx.write, event, endpoint.id);
    return { status: 202, body: { success: true, message: 'Test event queued.', data: presentDelivery(delivery) } };
  },

  async listWebhookDeliveries({ company, params, query, ctx }) {
    await endpointOr404(ctx, company, params.id);
    const { items, total } = await ctx.store.listDeliveries(company.uuid, params.id, query);
    return {
      status: 200,
      body: {
        success: true,
        message: 'Deliveries retrieved successfully.',
        data: items.map(presentDelivery),
        pagination: pagination(total, query.page, query.limit),
      },
    };
  },

  async redeliverWebhookDelivery({ company, params, ctx }) {
    await endpointOr404(ctx, company, params.id);
    const delivery = await ctx.store.getDelivery(company.uuid, params.id, params.deliveryId);
    const event = delivery && (await ctx.store.getEvent(delivery.event_id));
    if (!delivery || !event)
      throw new HttpError(404, `No delivery ${params.deliveryId} for this endpoint`, { issues: [{ path: 'deliveryId', message: 'no such delivery' }] });
    const again = await ctx.store.enqueueDelivery(ctx.write, event, params.id);
    return { status: 202, body: { success: true, message: 'Redelivery queued.', data: presentDelivery(again) } };
  },
};
