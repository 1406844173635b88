/**
 * What every resource method is made of: an openapi-fetch call turned into its data or a typed error,
 * a checked path parameter, and a paged list.
 */
import { APIPromise, type RawResult } from '../api-promise.ts';
import { APIError, EngageError } from '../errors.ts';
import { fetchPage, type ListOptions, type Page, PagePromise, type PageStyle } from '../pagination.ts';
import type { OperationId, Pagination } from '../types.ts';
import type { RequestOptions } from './request.ts';
import type { Call, CallInit, Transport } from './setup.ts';

/**
 * What an openapi-fetch call resolves to: `data` of a success (typed as the operation's JSON; a resource
 * call asks for it as text), or the parsed body of an error as `error`, with the answer.
 */
interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** The body of an operation's successful answer (its envelope). */
type BodyOf<R extends FetchResult> = NonNullable<R['data']>;

/** The envelope's `data` of an operation's successful answer: what its method resolves to. */
type DataOf<R extends FetchResult> = BodyOf<R> extends { data: infer D } ? D : never;

/** Calls `fn`, turning a synchronous throw (a bad argument) into a rejection, as callers of a promise expect. */
function settle<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return fn();
  } catch (err) {
    return Promise.reject(err);
  }
}

const notJson = (operationId: OperationId, cause?: unknown) =>
  new EngageError(`The answer to ${operationId} is not JSON: is baseUrl the engagekit API?`, cause === undefined ? undefined : { cause });

/**
 * Sends an openapi-fetch call (retried, timed out) and gives what came of it: the parsed body of a
 * successful answer, checked by the client's `validateResponse`; the `APIError` subclass of an error
 * status; an `EngageError` for a successful answer that is not JSON (a proxy's page, an empty body).
 */
async function answer<R extends FetchResult, D = BodyOf<R>>(
  transport: Transport,
  operationId: OperationId,
  options: RequestOptions | undefined,
  call: Call<R>,
  unwrap?: (body: BodyOf<R>) => D,
): Promise<RawResult<D>> {
  const { data: text, error, response } = await transport.send(options, call);
  if (!response.ok) throw APIError.from(response.status, error === '' ? undefined : error, response.headers);
  // openapi-fetch hands back the text (`parseAs: 'text'`), parsed here rather than by undici's
  // `Response.json()`: under Jest, that one's objects come from Node's realm, not the test file's, and
  // `assert.deepStrictEqual` finds them unequal to the test's own.
  let data: BodyOf<R>;
  try {
    data = JSON.parse(text as unknown as string);
  } catch (err) {
    throw notJson(operationId, err);
  }
  if (data === null || typeof data !== 'object') throw notJson(operationId);
  if (transport.validateResponse) await transport.validateResponse({ operationId, status: response.status, body: data });
  return { data: unwrap ? unwrap(data) : (data as D), response };
}

/** The envelope's `data`. */
const envelopeData = <D>(body: { data: D }): D => body.data;

/** Sends one call, resolving to the envelope's `data`; a bad argument or option (a throw) becomes a rejection. */
export function one<R extends FetchResult>(
  transport: Transport,
  operationId: OperationId,
  options: RequestOptions | undefined,
  call: Call<R>,
): APIPromise<DataOf<R>> {
  return new APIPromise(answer(transport, operationId, options, call, envelopeData as (body: BodyOf<R>) => DataOf<R>));
}

/** A path parameter that must be a non-empty string; `method` and `what` name it in the error. openapi-fetch encodes it. */
export function required(method: string, what: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new EngageError(`${method} needs ${what} (got ${JSON.stringify(value)})`);
  return value;
}

/**
 * A list, awaitable for its first page and iterable for every item: `call(page, init)` asks for a page,
 * `style` reads a page of its answer.
 */
export function list<R extends FetchResult, Item, Extra extends object>(
  transport: Transport,
  operationId: OperationId,
  options: (RequestOptions & ListOptions) | undefined,
  first: number | undefined,
  call: (page: number, init: CallInit) => Promise<R>,
  style: PageStyle<Item, BodyOf<R>, Extra>,
): PagePromise<Item, Page<Item> & Extra> {
  const firstPage = settle(() => fetchPage(first ?? 1, style, (page) => answer(transport, operationId, options, (init) => call(page, init))));
  return new PagePromise(firstPage, options);
}

/** A page of a list whose answer carries `pagination` (campaigns, webhook endpoints, deliveries, companies). */
export interface PaginatedPage<Item> extends Page<Item> {
  /** `{ total, page, limit, totalPages }` as the API sent it. */
  readonly pagination: Pagination;
}

/** The item of a list operation's answer. */
type ItemOf<R extends FetchResult> = BodyOf<R> extends { data: (infer I)[] } ? I : never;

/** Reads a page of an answer `{ data, pagination }`. */
const paginationStyle = <Item>({ data, pagination: p }: { data: Item[]; pagination: Pagination }) => ({
  data,
  page: p.page,
  total: p.total,
  nextPage: p.page < p.totalPages ? p.page + 1 : null,
  pagination: p,
});

/** A list whose answer is `{ data, pagination }` (campaigns, webhook endpoints, deliveries, companies). */
export function paginatedList<R extends FetchResult & { data?: { data: unknown[]; pagination: Pagination } }>(
  transport: Transport,
  operationId: OperationId,
  options: (RequestOptions & ListOptions) | undefined,
  first: number | undefined,
  call: (page: number, init: CallInit) => Promise<R>,
): PagePromise<ItemOf<R>, PaginatedPage<ItemOf<R>>> {
  const style = paginationStyle as PageStyle<ItemOf<R>, BodyOf<R>, { pagination: Pagination }>;
  return list(transport, operationId, options, first, call, style);
}
