/** What every resource method is made of: one call unwrapped to its data, a checked path parameter, a paged list. */
import { APIPromise, type RawResult } from '../api-promise.ts';
import { EngageError } from '../errors.ts';
import { fetchPage, type ListOptions, type Page, PagePromise } from '../pagination.ts';
import type { OperationId, Pagination } from '../types.ts';
import { type CallSpec, pathParam, type Requester, type RequestOptions } from './request.ts';

/** Calls `fn`, turning a synchronous throw (a bad argument) into a rejection, as callers of a promise expect. */
export function settle<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return fn();
  } catch (err) {
    return Promise.reject(err);
  }
}

/** Sends the call `spec` describes, resolving to the envelope's `data`; an argument `spec` refuses (by throwing) becomes a rejection. */
export function one<T>(requester: Requester, options: RequestOptions | undefined, spec: () => CallSpec): APIPromise<T> {
  return new APIPromise(settle(() => requester.call<T>(spec(), options, true)));
}

/** A path parameter that must be a non-empty string, encoded for the path; `method` and `what` name it in the error. */
export function required(method: string, what: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new EngageError(`${method} needs ${what} (got ${JSON.stringify(value)})`);
  return pathParam(value);
}

/** A page of a list whose answer carries `pagination` (campaigns, webhook endpoints, deliveries, companies). */
export interface PaginatedPage<Item> extends Page<Item> {
  /** `{ total, page, limit, totalPages }` as the API sent it. */
  readonly pagination: Pagination;
}

/** A GET of a list whose answer is `{ data, pagination }`. */
export interface PaginatedListSpec {
  operationId: OperationId;
  /** The path with its parameters in place; built inside, so a bad argument becomes a rejection. */
  path: () => string;
  /** The query of page `page` (with `limit`, filters, the agency `uuid`). */
  query: (page: number) => Record<string, string | number | boolean | null | undefined>;
  /** The first page to fetch (default 1). */
  page: number | undefined;
}

/** A list in the `pagination` page style, awaitable for its first page and iterable for every item. */
export function paginatedList<Item, P extends PaginatedPage<Item>>(
  requester: Requester,
  spec: PaginatedListSpec,
  options: (RequestOptions & ListOptions) | undefined,
): PagePromise<Item, P> {
  const first = settle(() => {
    const path = spec.path();
    const raw = (page: number): Promise<RawResult<{ data: Item[]; pagination: Pagination }>> =>
      requester.call({ operationId: spec.operationId, method: 'GET', path, query: spec.query(page) }, options);
    const style = ({ data, pagination: p }: { data: Item[]; pagination: Pagination }) => ({
      data,
      page: p.page,
      total: p.total,
      nextPage: p.page < p.totalPages ? p.page + 1 : null,
      pagination: p,
    });
    return fetchPage(spec.page ?? 1, style, raw) as Promise<P>;
  });
  return new PagePromise<Item, P>(first, options);
}
