/**
 * The resource methods of the company client: each sends its request through openapi-fetch's typed
 * methods, so its path, method, parameters and body are checked against the contract's `paths`.
 */
import { campaignControl } from './campaign-controls.ts';
import type { EngageClient } from './client.ts';
import { EngageError } from './errors.ts';
import { exact } from './internal/api-client.ts';
import { list, one, paginatedList, required } from './internal/calls.ts';
import type { Transport } from './internal/setup.ts';
import { bindToCompany, createWebhookEndpoints } from './webhook-endpoints.ts';

/** What the company client's resources need. */
interface ResourceConfig {
  uuid: string;
  transport: Transport;
  /** The openapi-fetch clients on `baseUrl` and `orderBaseUrl` (`client.api.agency`, `client.api.orders`). */
  api: EngageClient['api'];
  /** The default secret of `webhooks.unwrap`. */
  webhookSecret: string | readonly string[] | undefined;
}

/** The resources of `EngageClient`. */
export function createResources({ uuid, transport: t, api, webhookSecret }: ResourceConfig): Omit<EngageClient, 'api'> {
  const agency = exact(api.agency);
  const orders = exact(api.orders);
  const control = campaignControl(t, agency, 'campaigns');
  return {
    agency: {
      sync: (options) => one(t, 'sync', options, (init) => agency.POST('/agency/sync', { ...init, params: { query: { uuid } } })),
    },
    templates: {
      submit: (body, options) => one(t, 'submitTemplate', options, (init) => agency.POST('/agency/template', { ...init, params: { query: { uuid } }, body })),
      list: (params, options) =>
        paginatedList(t, 'listTemplates', options, params?.page, (page, init) =>
          agency.GET('/api/v2/companies/{uuid}/templates', { ...init, params: { path: { uuid }, query: { ...params, page } } }),
        ),
    },
    campaigns: {
      create: (body, options) =>
        one(t, 'createCampaign', options, (init) => agency.POST('/agency/createCampaign', { ...init, params: { query: { uuid } }, body })),
      list: (params, options) =>
        paginatedList(t, 'getCampaignData', options, params?.page, (page, init) =>
          agency.GET('/agency/getCampaignData', { ...init, params: { query: { ...params, page, uuid } } }),
        ),
      get: (id, options) =>
        one(t, 'getCampaign', options, (init) =>
          agency.GET('/agency/getCampaign/{id}', { ...init, params: { path: { id: required('campaigns.get', 'a campaign id', id) }, query: { uuid } } }),
        ),
      pause: (id, options) => control('pause', uuid, id, options),
      resume: (id, options) => control('resume', uuid, id, options),
      cancel: (id, options) => control('cancel', uuid, id, options),
    },
    customers: {
      list: (params, options) =>
        list(
          t,
          'getCustomers',
          options,
          params?.page,
          (page, init) => agency.GET('/agency/getCustomers', { ...init, params: { query: { ...params, page, uuid } } }),
          // The answer does not repeat its page number: it is the one asked for.
          ({ data, total, paging }, page) => ({ data, page, total, nextPage: paging.after, paging }),
        ),
    },
    reports: {
      get: (options) => one(t, 'reportingCampaign', options, (init) => agency.GET('/agency/reportingCampaign', { ...init, params: { query: { uuid } } })),
    },
    orders: {
      add: (body, options) => one(t, 'addOrder', options, (init) => orders.POST('/api/order/addOrder', { ...init, body })),
      update: (companyOrderId, body, options) =>
        one(t, 'updateOrder', options, (init) =>
          orders.PUT('/api/order/updateOrder/{orderId}', {
            ...init,
            params: { path: { orderId: required('orders.update', "the order's company_order_id", companyOrderId) } },
            body,
          }),
        ),
    },
    webhookEndpoints: bindToCompany(createWebhookEndpoints(t, agency, 'webhookEndpoints'), uuid),
    webhooks: {
      async unwrap(rawBody, headers, secret, options) {
        const secrets = secret ?? webhookSecret;
        if (secrets === undefined) {
          throw new EngageError(
            'webhooks.unwrap needs the endpoint secret ("whsec_...", shown when the endpoint was created): pass it as the third argument, or give createClient a webhookSecret.',
          );
        }
        // Loaded on first use, so the main entry does not carry the verification code.
        const { verifyWebhook } = await import('./webhooks.ts');
        return verifyWebhook(rawBody, headers, secrets, options);
      },
    },
  };
}
