/** The resource methods of the client: one call each, unwrapped to the resource. */
import { APIPromise, type RawResult } from './api-promise.ts';
import type { CampaignPage, CustomerPage, EngageClient, ListRequestOptions } from './client.ts';
import { EngageError } from './errors.ts';
import { type CallSpec, pathParam, type Requester, type RequestOptions } from './internal/request.ts';
import { fetchPage, PagePromise } from './pagination.ts';
import type { Campaign, CampaignListParams, CampaignListResponse, Customer, CustomerListParams, CustomerListResponse } from './types.ts';

/** Calls `fn`, turning a synchronous throw (a bad argument) into a rejection, as callers of a promise expect. */
function settle<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return fn();
  } catch (err) {
    return Promise.reject(err);
  }
}

/** The resources of `EngageClient`, over the request plumbing. */
export function createResources({ uuid, requester }: { uuid: string; requester: Requester }): Omit<EngageClient, 'api'> {
  /** Sends the call `spec` describes, resolving to the envelope's `data`; an argument `spec` refuses (by throwing) becomes a rejection. */
  const one = <T>(options: RequestOptions | undefined, spec: () => CallSpec): APIPromise<T> =>
    new APIPromise(settle(() => requester.call<T>(spec(), options, true)));

  const campaignPage = (params: CampaignListParams | undefined, options: ListRequestOptions | undefined) => {
    const raw = (page: number): Promise<RawResult<CampaignListResponse>> =>
      requester.call(
        { operationId: 'getCampaignData', method: 'GET', surface: 'agency', path: '/agency/getCampaignData', query: { ...params, page, uuid } },
        options,
      );
    const style = ({ data, pagination: p }: CampaignListResponse) => ({
      data,
      page: p.page,
      total: p.total,
      nextPage: p.page < p.totalPages ? p.page + 1 : null,
      pagination: p,
    });
    return new PagePromise<Campaign, CampaignPage>(
      settle(() => fetchPage(params?.page ?? 1, style, raw)),
      options,
    );
  };

  const customerPage = (params: CustomerListParams | undefined, options: ListRequestOptions | undefined) => {
    const raw = (page: number): Promise<RawResult<CustomerListResponse>> =>
      requester.call(
        { operationId: 'getCustomers', method: 'GET', surface: 'agency', path: '/agency/getCustomers', query: { ...params, page, uuid } },
        options,
      );
    // The answer does not repeat its page number: it is the one asked for.
    const style = ({ data, total, paging }: CustomerListResponse, page: number) => ({ data, page, total, nextPage: paging.after, paging });
    return new PagePromise<Customer, CustomerPage>(
      settle(() => fetchPage(params?.page ?? 1, style, raw)),
      options,
    );
  };

  /** A path parameter that must be a non-empty string. */
  const required = (method: string, what: string, value: unknown): string => {
    if (typeof value !== 'string' || value === '') throw new EngageError(`${method} needs ${what} (got ${JSON.stringify(value)})`);
    return pathParam(value);
  };

  return {
    agency: {
      sync: (options) => one(options, () => ({ operationId: 'sync', method: 'POST', surface: 'agency', path: '/agency/sync', query: { uuid } })),
    },
    templates: {
      submit: (body, options) =>
        one(options, () => ({ operationId: 'submitTemplate', method: 'POST', surface: 'agency', path: '/agency/template', query: { uuid }, body })),
    },
    campaigns: {
      create: (body, options) =>
        one(options, () => ({ operationId: 'createCampaign', method: 'POST', surface: 'agency', path: '/agency/createCampaign', query: { uuid }, body })),
      list: campaignPage,
      get: (id, options) =>
        one(options, () => ({
          operationId: 'getCampaign',
          method: 'GET',
          surface: 'agency',
          path: `/agency/getCampaign/${required('campaigns.get', 'a campaign id', id)}`,
          query: { uuid },
        })),
    },
    customers: { list: customerPage },
    reports: {
      get: (options) =>
        one(options, () => ({ operationId: 'reportingCampaign', method: 'GET', surface: 'agency', path: '/agency/reportingCampaign', query: { uuid } })),
    },
    orders: {
      add: (body, options) => one(options, () => ({ operationId: 'addOrder', method: 'POST', surface: 'orders', path: '/api/order/addOrder', body })),
      update: (companyOrderId, body, options) =>
        one(options, () => ({
          operationId: 'updateOrder',
          method: 'PUT',
          surface: 'orders',
          path: `/api/order/updateOrder/${required('orders.update', "the order's company_order_id", companyOrderId)}`,
          body,
        })),
    },
  };
}
