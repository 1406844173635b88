/**
 * Pagination: one interface over the API's two page styles (campaigns' `pagination`, customers' `paging`).
 * A list call returns a `PagePromise`: awaitable (the first page) and async-iterable (every item).
 */
import { type RawResult, type WithResponse, withResponse } from './api-promise.ts';

/** One page of a list. */
export interface Page<Item> {
  /** The items of this page, oldest first. */
  readonly data: Item[];
  /** This page's number, from 1. */
  readonly page: number;
  /** Items in the whole list. */
  readonly total: number;
  /** The next page's number, or null on the last page. */
  readonly nextPage: number | null;
  /** The HTTP answer of this page. */
  readonly response: Response;
  /** The `x-request-id` of this page's answer. */
  readonly requestId: string | undefined;
  /** Whether a page follows this one. */
  hasNextPage(): boolean;
  /**
   * Fetches the next page (once: later calls share the same promise). Rejects with a `RangeError` on
   * the last page.
   */
  getNextPage(): Promise<this>;
}

/** What a page style reads from one answer. */
interface PageShape<Item> {
  data: Item[];
  page: number;
  total: number;
  nextPage: number | null;
}

/** Fetches page `n` of a list, as a raw result. */
type FetchPage<Body> = (page: number) => Promise<RawResult<Body>>;

/** Reads a page style from one answer to the request for page `requested`. */
export type PageStyle<Item, Body, Extra> = (body: Body, requested: number) => PageShape<Item> & Extra;

/**
 * Fetches page `requested` and builds its page object: the shared fields plus the style's own
 * (`pagination`, `paging`).
 */
export async function fetchPage<Item, Body, Extra extends object>(
  requested: number,
  style: PageStyle<Item, Body, Extra>,
  fetchRaw: FetchPage<Body>,
): Promise<Page<Item> & Extra> {
  const raw = await fetchRaw(requested);
  const { data, page, total, nextPage, ...extra } = style(raw.data, requested);
  let next: Promise<Page<Item> & Extra> | undefined;
  const self = {
    ...(extra as unknown as Extra),
    data,
    page,
    total,
    nextPage,
    response: raw.response,
    requestId: raw.response.headers.get('x-request-id') ?? undefined,
    hasNextPage: () => nextPage !== null,
    getNextPage() {
      if (nextPage === null) return Promise.reject(new RangeError(`Page ${page} is the last page; check hasNextPage() first.`));
      if (!next) {
        const p = fetchPage(nextPage, style, fetchRaw);
        next = p;
        // A failed fetch is not remembered: calling again tries again.
        p.catch(() => {
          if (next === p) next = undefined;
        });
      }
      return next;
    },
  };
  return self as Page<Item> & Extra;
}

/** Options of list calls, beside the request options. */
export interface ListOptions {
  /** While you work through a page, fetch the next one in the background (default false). */
  prefetch?: boolean;
}

const noop = () => {};
const DONE = { done: true, value: undefined } as const;

/** Serializes `next()` calls: each waits for the one before, so concurrent calls never race or fetch twice. */
function serialized<T>(step: () => Promise<IteratorResult<T>>, onReturn: () => void): AsyncIterableIterator<T> {
  let chain: Promise<unknown> = Promise.resolve();
  return {
    next() {
      const result = chain.then(step);
      chain = result.catch(noop);
      return result;
    },
    async return() {
      onReturn();
      return DONE;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/**
 * The result of a list call. `await` it for the first page; `for await` it for every item (pages are
 * fetched as needed, each once); `.pages()` for every page; `.toArray({ max })` for a bounded array.
 *
 * @example
 * const first = await client.campaigns.list({ limit: 50 });
 * for await (const campaign of client.campaigns.list({ limit: 100 })) console.log(campaign.name);
 * const some = await client.customers.list().toArray({ max: 500 });
 */
export class PagePromise<Item, P extends Page<Item>> implements PromiseLike<P>, AsyncIterable<Item> {
  readonly #first: Promise<P>;
  readonly #prefetch: boolean;

  constructor(first: Promise<P>, options: ListOptions = {}) {
    this.#first = first;
    this.#prefetch = options.prefetch === true;
  }

  /** Like `Promise.prototype.then`, on the first page. */
  // biome-ignore lint/suspicious/noThenProperty: a PagePromise is a thenable on purpose, so `await` gives the first page.
  then<A = P, B = never>(
    onfulfilled?: ((value: P) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#first.then(onfulfilled, onrejected);
  }

  /** Like `Promise.prototype.catch`. */
  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<P | B> {
    return this.#first.then(undefined, onrejected);
  }

  /** Like `Promise.prototype.finally`. */
  finally(onfinally?: (() => void) | null): Promise<P> {
    return this.#first.finally(onfinally);
  }

  /** The first page with the HTTP status, headers and request id of its answer. */
  withResponse(): Promise<WithResponse<P>> {
    return this.#first.then((page) => withResponse({ data: page, response: page.response }));
  }

  /** Every page, from this call's page on. Concurrent `next()` calls are served in order, each page fetched once. */
  pages(): AsyncIterableIterator<P> {
    let current: P | undefined;
    let done = false;
    return serialized<P>(
      async () => {
        if (done) return DONE;
        if (current && !current.hasNextPage()) {
          done = true;
          return DONE;
        }
        const page: P = current ? await current.getNextPage() : await this.#first;
        current = page;
        if (this.#prefetch && page.hasNextPage()) page.getNextPage().catch(noop);
        return { done: false, value: page };
      },
      () => {
        done = true;
      },
    );
  }

  /** Every item of every page, oldest first. */
  [Symbol.asyncIterator](): AsyncIterableIterator<Item> {
    const pages = this.pages();
    let items: Item[] = [];
    let index = 0;
    let done = false;
    return serialized<Item>(
      async () => {
        while (index >= items.length) {
          if (done) return DONE;
          const r = await pages.next();
          if (r.done) {
            done = true;
            return DONE;
          }
          items = r.value.data;
          index = 0;
        }
        return { done: false, value: items[index++] as Item };
      },
      () => {
        done = true;
        void pages.return?.();
      },
    );
  }

  /**
   * Up to `max` items, fetching only the pages needed. `max` is required: a list can be long, so say how
   * much you are ready to hold.
   */
  async toArray(options: { max: number }): Promise<Item[]> {
    const max = options?.max;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 0) {
      throw new TypeError(
        `toArray() needs a bound: pass { max: <whole number >= 0> } (got ${JSON.stringify(options)}). Use \`for await\` to walk a list of any length.`,
      );
    }
    const out: Item[] = [];
    if (max === 0) return out;
    for await (const item of this) {
      out.push(item);
      if (out.length >= max) break;
    }
    return out;
  }

  get [Symbol.toStringTag](): string {
    return 'PagePromise';
  }
}
