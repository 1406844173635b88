import type { RequestContext } from '../context.ts';
import { newWebhookSecret } from '../domain/secrets.ts';
import { webhookTargetProblem } from '../domain/webhook-target.ts';
import { deliverTo, testEvent } from '../domain/webhooks.ts';
import { HttpError } from '../http/errors.ts';
import { pagination, presentDelivery, presentEndpoint } from '../http/present.ts';
import type { CompanyRecord, EndpointRecord } from '../store/types.ts';
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
    const delivery = await deliverTo(ctx.store, ctx.write, testEvent(ctx.write, company, body.event_type), endpoint.id);
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
    const again = await deliverTo(ctx.store, ctx.write, event, params.id);
    return { status: 202, body: { success: true, message: 'Redelivery queued.', data: presentDelivery(again) } };
  },
};
