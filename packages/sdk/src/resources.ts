/** The resource methods of the client: one openapi-fetch call each, unwrapped to the resource. */
import type { Client } from 'openapi-fetch';
import { APIPromise, type RawResult } from './api-promise.ts';
import type { CampaignPage, CustomerPage, EngageClient, ListRequestOptions } from './client.ts';
import { EngageError } from './errors.ts';
import type { paths } from './generated/paths.ts';
import type { Requester, RequestOptions } from './internal/request.ts';
import { fetchPage, PagePromise } from './pagination.ts';
import type { Campaign, CampaignListParams, CampaignListResponse, Customer, CustomerListParams, CustomerListResponse } from './types.ts';

type Api = Client<paths, 'application/json'>;

/** Runs `fn` so that a synchronous throw (a bad option) becomes a rejection, as callers of a promise expect. */
function startAsync<T>(fn: () => Promise<T>): Promise<T> {
  return Promise.resolve().then(fn);
}

/** The resources of `EngageClient`, over its low-level clients. */
export function createResources({
  api,
  uuid,
  requester,
}: {
  api: { agency: Api; orders: Api };
  uuid: string;
  requester: Requester;
}): Omit<EngageClient, 'api'> {
  const init = (options: RequestOptions | undefined) => ({ headers: options?.headers, fetch: requester.fetchFor(options) });
  /** Unwraps the envelope's `data`. */
  const call = <T>(run: () => Promise<RawResult<{ data: T }>>): APIPromise<T> =>
    new APIPromise(startAsync(run).then(({ data, response }) => ({ data: data.data, response })));

  const campaignPage = (params: CampaignListParams | undefined, options: ListRequestOptions | undefined) => {
    const raw = (page: number) =>
      requester.run('getCampaignData', api.agency.GET('/agency/getCampaignData', { params: { query: { ...params, page, uuid } }, ...init(options) }));
    const style = ({ data, pagination: p }: CampaignListResponse) => ({
      data,
      page: p.page,
      total: p.total,
      nextPage: p.page < p.totalPages ? p.page + 1 : null,
      pagination: p,
    });
    return new PagePromise<Campaign, CampaignPage>(
      startAsync(() => fetchPage(params?.page ?? 1, style, raw)),
      options,
    );
  };

  const customerPage = (params: CustomerListParams | undefined, options: ListRequestOptions | undefined) => {
    const raw = (page: number) =>
      requester.run('getCustomers', api.agency.GET('/agency/getCustomers', { params: { query: { ...params, page, uuid } }, ...init(options) }));
    // The answer does not repeat its page number: it is the one asked for.
    const style = ({ data, total, paging }: CustomerListResponse, page: number) => ({ data, page, total, nextPage: paging.after, paging });
    return new PagePromise<Customer, CustomerPage>(
      startAsync(() => fetchPage(params?.page ?? 1, style, raw)),
      options,
    );
  };

  return {
    agency: {
      sync: (options) => call(() => requester.run('sync', api.agency.POST('/agency/sync', { params: { query: { uuid } }, ...init(options) }))),
    },
    templates: {
      submit: (body, options) =>
        call(() => requester.run('submitTemplate', api.agency.POST('/agency/template', { params: { query: { uuid } }, body, ...init(options) }))),
    },
    campaigns: {
      create: (body, options) =>
        call(() => requester.run('createCampaign', api.agency.POST('/agency/createCampaign', { params: { query: { uuid } }, body, ...init(options) }))),
      list: campaignPage,
      get: (id, options) =>
        call(() => {
          if (typeof id !== 'string' || id === '') throw new EngageError(`campaigns.get needs a campaign id (got ${JSON.stringify(id)})`);
          return requester.run('getCampaign', api.agency.GET('/agency/getCampaign/{id}', { params: { path: { id }, query: { uuid } }, ...init(options) }));
        }),
    },
    customers: { list: customerPage },
    reports: {
      get: (options) =>
        call(() => requester.run('reportingCampaign', api.agency.GET('/agency/reportingCampaign', { params: { query: { uuid } }, ...init(options) }))),
    },
    orders: {
      add: (body, options) => call(() => requester.run('addOrder', api.orders.POST('/api/order/addOrder', { body, ...init(options) }))),
      update: (companyOrderId, body, options) =>
        call(() => {
          if (typeof companyOrderId !== 'string' || companyOrderId === '') {
            throw new EngageError(`orders.update needs the order's company_order_id (got ${JSON.stringify(companyOrderId)})`);
          }
          return requester.run(
            'updateOrder',
            api.orders.PUT('/api/order/updateOrder/{orderId}', { params: { path: { orderId: companyOrderId } }, body, ...init(options) }),
          );
        }),
    },
  };
}
