/** The resource methods of the company client: one call each, unwrapped to the resource. */
import type { CampaignPage, CustomerPage, EngageClient, ListRequestOptions } from './client.ts';
import { EngageError } from './errors.ts';
import { one, paginatedList, required, settle } from './internal/calls.ts';
import type { CallSpec, Requester, RequestOptions } from './internal/request.ts';
import { fetchPage, PagePromise } from './pagination.ts';
import type { Campaign, CampaignListParams, Customer, CustomerListParams, CustomerListResponse } from './types.ts';
import { bindToCompany, createWebhookEndpoints } from './webhook-endpoints.ts';

/** What the company client's resources need beside the plumbing. */
export interface ResourceConfig {
  uuid: string;
  requester: Requester;
  /** The default secret of `webhooks.unwrap`. */
  webhookSecret: string | readonly string[] | undefined;
}

/** The resources of `EngageClient`, over the request plumbing. */
export function createResources({ uuid, requester, webhookSecret }: ResourceConfig): Omit<EngageClient, 'api'> {
  const call = <T>(options: RequestOptions | undefined, spec: () => CallSpec) => one<T>(requester, options, spec);

  const campaignPage = (params: CampaignListParams | undefined, options: ListRequestOptions | undefined) =>
    paginatedList<Campaign, CampaignPage>(
      requester,
      { operationId: 'getCampaignData', path: () => '/agency/getCampaignData', query: (page) => ({ ...params, page, uuid }), page: params?.page },
      options,
    );

  const customerPage = (params: CustomerListParams | undefined, options: ListRequestOptions | undefined) => {
    const raw = (page: number) =>
      requester.call<CustomerListResponse>(
        { operationId: 'getCustomers', method: 'GET', path: '/agency/getCustomers', query: { ...params, page, uuid } },
        options,
      );
    // The answer does not repeat its page number: it is the one asked for.
    const style = ({ data, total, paging }: CustomerListResponse, page: number) => ({ data, page, total, nextPage: paging.after, paging });
    return new PagePromise<Customer, CustomerPage>(
      settle(() => fetchPage(params?.page ?? 1, style, raw)),
      options,
    );
  };

  return {
    agency: {
      sync: (options) => call(options, () => ({ operationId: 'sync', method: 'POST', path: '/agency/sync', query: { uuid } })),
    },
    templates: {
      submit: (body, options) => call(options, () => ({ operationId: 'submitTemplate', method: 'POST', path: '/agency/template', query: { uuid }, body })),
    },
    campaigns: {
      create: (body, options) =>
        call(options, () => ({ operationId: 'createCampaign', method: 'POST', path: '/agency/createCampaign', query: { uuid }, body })),
      list: campaignPage,
      get: (id, options) =>
        call(options, () => ({
          operationId: 'getCampaign',
          method: 'GET',
          path: `/agency/getCampaign/${required('campaigns.get', 'a campaign id', id)}`,
          query: { uuid },
        })),
    },
    customers: { list: customerPage },
    reports: {
      get: (options) => call(options, () => ({ operationId: 'reportingCampaign', method: 'GET', path: '/agency/reportingCampaign', query: { uuid } })),
    },
    orders: {
      add: (body, options) => call(options, () => ({ operationId: 'addOrder', method: 'POST', surface: 'orders', path: '/api/order/addOrder', body })),
      update: (companyOrderId, body, options) =>
        call(options, () => ({
          operationId: 'updateOrder',
          method: 'PUT',
          surface: 'orders',
          path: `/api/order/updateOrder/${required('orders.update', "the order's company_order_id", companyOrderId)}`,
          body,
        })),
    },
    webhookEndpoints: bindToCompany(createWebhookEndpoints(requester, 'webhookEndpoints'), uuid),
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
