import type { RequestContext } from '../context.ts';
import {
  DEFAULT_MAX_WEBHOOK_ENDPOINTS,
  deleteEndpoint,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  redeliver,
  registerEndpoint,
  rotateSecret,
  sendTestEvent,
  type TargetPolicy,
  updateEndpoint,
} from '../domain/webhook-endpoints.ts';
import { HttpError } from '../http/errors.ts';
import { pagination, presentDelivery, presentEndpoint } from '../http/present.ts';
import type { CompanyRecord, EndpointRecord } from '../store/types.ts';
import type { HandlersFor } from './types.ts';

const policyOf = (ctx: RequestContext): TargetPolicy => ({ allowPrivate: ctx.config.webhookAllowPrivate, resolve: ctx.resolveHost });

/** The 400 of a URL that may not receive webhooks, naming its problem. */
const refusedTarget = (problem: string) => new HttpError(400, `Invalid request: url ${problem}`, { issues: [{ path: 'url', message: problem }] });

const noSuchEndpoint = (id: string) =>
  new HttpError(404, `No webhook endpoint ${id} in this company`, { issues: [{ path: 'id', message: 'no such webhook endpoint' }] });

async function endpointOr404(ctx: RequestContext, company: CompanyRecord, id: string): Promise<EndpointRecord> {
  const endpoint = await getEndpoint(ctx.store, company, id);
  if (!endpoint) throw noSuchEndpoint(id);
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
    const registered = await registerEndpoint(
      ctx.store,
      ctx.write,
      company,
      body,
      policyOf(ctx),
      ctx.config.maxWebhookEndpoints ?? DEFAULT_MAX_WEBHOOK_ENDPOINTS,
    );
    if (registered.outcome === 'target_refused') throw refusedTarget(registered.problem);
    if (registered.outcome === 'too_many_endpoints') {
      throw new HttpError(409, `This company has ${registered.max} webhook endpoints, as many as the server allows: delete one first.`, {
        code: 'too_many_endpoints',
      });
    }
    const { endpoint } = registered;
    return { status: 201, body: { success: true, message: 'Webhook created.', data: presentEndpoint(endpoint) } };
  },

  async listWebhooks({ company, query, ctx }) {
    const { items, total } = await listEndpoints(ctx.store, company, query);
    const data = items.map(presentEndpoint);
    return { status: 200, body: { success: true, message: 'Webhooks retrieved successfully.', data, pagination: pagination(total, query.page, query.limit) } };
  },

  async getWebhook({ company, params, ctx }) {
    const endpoint = await endpointOr404(ctx, company, params.id);
    return { status: 200, body: { success: true, message: 'Webhook retrieved successfully.', data: presentEndpoint(endpoint) } };
  },

  async updateWebhook({ company, params, body, ctx }) {
    // An unknown endpoint is a 404 whatever its new URL: looked up before the URL is judged.
    await endpointOr404(ctx, company, params.id);
    const updated = await updateEndpoint(ctx.store, ctx.write, company, params.id, body, policyOf(ctx));
    if (!updated) throw noSuchEndpoint(params.id);
    if (updated.outcome === 'target_refused') throw refusedTarget(updated.problem);
    return { status: 200, body: { success: true, message: 'Webhook updated.', data: presentEndpoint(updated.endpoint) } };
  },

  async deleteWebhook({ company, params, ctx }) {
    if (!(await deleteEndpoint(ctx.store, company, params.id))) throw noSuchEndpoint(params.id);
    return { status: 200, body: { success: true, message: 'Webhook deleted.', data: { id: params.id, deleted: true } } };
  },

  async rotateWebhookSecret({ company, params, body, ctx }) {
    const endpoint = await endpointOr404(ctx, company, params.id);
    const { secret, previousSecretExpiresAt } = await rotateSecret(ctx.store, ctx.write, endpoint, body.grace_period_s);
    return { status: 200, body: { success: true, message: 'Secret rotated.', data: { secret, previous_secret_expires_at: previousSecretExpiresAt } } };
  },

  async sendTestEvent({ company, params, body, ctx }) {
    const endpoint = await endpointOr404(ctx, company, params.id);
    const delivery = await sendTestEvent(ctx.store, ctx.write, company, endpoint, body.event_type);
    return { status: 202, body: { success: true, message: 'Test event queued.', data: presentDelivery(delivery) } };
  },

  async listWebhookDeliveries({ company, params, query, ctx }) {
    const endpoint = await endpointOr404(ctx, company, params.id);
    const { items, total } = await listDeliveries(ctx.store, endpoint, query);
    const data = items.map(presentDelivery);
    return {
      status: 200,
      body: { success: true, message: 'Deliveries retrieved successfully.', data, pagination: pagination(total, query.page, query.limit) },
    };
  },

  async redeliverWebhookDelivery({ company, params, ctx }) {
    const endpoint = await endpointOr404(ctx, company, params.id);
    const again = await redeliver(ctx.store, ctx.write, endpoint, params.deliveryId);
    if (!again)
      throw new HttpError(404, `No delivery ${params.deliveryId} for this endpoint`, { issues: [{ path: 'deliveryId', message: 'no such delivery' }] });
    return { status: 202, body: { success: true, message: 'Redelivery queued.', data: presentDelivery(again) } };
  },
};
