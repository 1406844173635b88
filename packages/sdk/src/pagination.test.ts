import { describe, expect, it } from 'vitest';
import { apiError, fakeFetch, json, type SeenRequest } from '../test/helpers/fake-fetch.ts';
import { createClient } from './create-client.ts';
import { InternalServerError } from './errors.ts';

const UUID = '53d1bcd3-aaf0-45e1-9298-5395b6a27b61';

/** A fake API holding `count` campaigns and `count` customers, paged the way the real one pages them. */
function fakeLists(count: number, opts: { failOnce?: number } = {}) {
  let failed = false;
  const pageOf = (req: SeenRequest) => {
    const page = Number(req.url.searchParams.get('page') ?? 1);
    const limit = Number(req.url.searchParams.get('limit') ?? 10);
    const items = Array.from({ length: count }, (_, i) => i + 1).slice((page - 1) * limit, page * limit);
    return { page, limit, items, totalPages: Math.ceil(count / limit) };
  };
  const f = fakeFetch((req) => {
    const { page, limit, items, totalPages } = pageOf(req);
    if (opts.failOnce === page && !failed) {
      failed = true;
      return apiError(500, 'internal_error', 'boom');
    }
    if (req.url.pathname === '/agency/getCampaignData') {
      return json(200, { success: true, message: 'ok', data: items.map((n) => ({ name: `c${n}` })), pagination: { total: count, page, limit, totalPages } });
    }
    return json(200, {
      success: true,
      message: 'ok',
      data: items.map((n) => ({ name: `p${n}` })),
      paging: { before: page > 1 ? page - 1 : null, after: page < totalPages ? page + 1 : null },
      total: count,
    });
  });
  const client = createClient({ baseUrl: 'http://api.test', token: 't', uuid: UUID, fetch: f.fetch, maxRetries: 0 });
  const pagesFetched = () => f.calls.map((c) => Number(c.url.searchParams.get('page')));
  return { client, calls: f.calls, pagesFetched };
}

const names = (xs: { name: string }[]) => xs.map((x) => x.name);

describe.each([
  ['campaigns', 'c'],
  ['customers', 'p'],
] as const)('%s.list', (resource, prefix) => {
  const list = (api: ReturnType<typeof fakeLists>, ...args: Parameters<ReturnType<typeof createClient>['campaigns']['list']>) =>
    resource === 'campaigns' ? api.client.campaigns.list(...args) : api.client.customers.list(...args);

  it('awaits to the first page, with the shared page fields', async () => {
    const api = fakeLists(5);
    const page = await list(api, { limit: 2 });
    expect(names(page.data)).toEqual([`${prefix}1`, `${prefix}2`]);
    expect(page).toMatchObject({ page: 1, total: 5, nextPage: 2 });
    expect(page.hasNextPage()).toBe(true);
    expect(api.calls[0]?.url.searchParams.get('uuid')).toBe(UUID);
    const last = await list(api, { limit: 2, page: 3 });
    expect(last).toMatchObject({ page: 3, nextPage: null, data: [{ name: `${prefix}5` }] });
    expect(last.hasNextPage()).toBe(false);
    await expect(last.getNextPage()).rejects.toBeInstanceOf(RangeError);
  });

  it('iterates every item across pages, fetching each page once', async () => {
    const api = fakeLists(7);
    const seen: string[] = [];
    for await (const item of list(api, { limit: 3 })) seen.push(item.name);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => `${prefix}${n}`));
    expect(api.pagesFetched()).toEqual([1, 2, 3]);
  });

  it('iterates pages with .pages(), starting at the page asked for', async () => {
    const api = fakeLists(7);
    const pages = [];
    for await (const page of list(api, { limit: 3, page: 2 }).pages()) pages.push(page.page);
    expect(pages).toEqual([2, 3]);
  });

  it('serves concurrent next() calls in order without fetching a page twice', async () => {
    const api = fakeLists(6);
    const it = list(api, { limit: 2 })[Symbol.asyncIterator]();
    const results = await Promise.all(Array.from({ length: 8 }, () => it.next()));
    expect(results.map((r) => (r.done ? 'done' : r.value.name))).toEqual([...[1, 2, 3, 4, 5, 6].map((n) => `${prefix}${n}`), 'done', 'done']);
    expect(api.pagesFetched()).toEqual([1, 2, 3]);
    const pages = list(api, { limit: 2 }).pages();
    const got = await Promise.all([pages.next(), pages.next(), pages.next(), pages.next()]);
    expect(got.map((r) => (r.done ? 'done' : r.value.page))).toEqual([1, 2, 3, 'done']);
  });

  it('shares one fetch between callers of getNextPage()', async () => {
    const api = fakeLists(4);
    const first = await list(api, { limit: 2 });
    const [a, b] = await Promise.all([first.getNextPage(), first.getNextPage()]);
    expect(a).toBe(b);
    expect(api.pagesFetched()).toEqual([1, 2]);
  });

  it('fetches only the pages toArray needs, and refuses to run without a bound', async () => {
    const api = fakeLists(50);
    expect(names(await list(api, { limit: 10 }).toArray({ max: 12 }))).toEqual(Array.from({ length: 12 }, (_, i) => `${prefix}${i + 1}`));
    expect(api.pagesFetched()).toEqual([1, 2]);
    expect(await list(api).toArray({ max: 0 })).toEqual([]);
    // @ts-expect-error toArray needs { max }
    await expect(list(api).toArray()).rejects.toThrow(/needs a bound/);
    await expect(list(api).toArray({ max: Number.POSITIVE_INFINITY })).rejects.toBeInstanceOf(TypeError);
  });

  it('stops fetching when the loop breaks', async () => {
    const api = fakeLists(30);
    for await (const item of list(api, { limit: 5 })) if (item.name === `${prefix}7`) break;
    expect(api.pagesFetched()).toEqual([1, 2]);
  });

  it('prefetches the next page while the caller works, when asked', async () => {
    const api = fakeLists(6);
    const it = list(api, { limit: 3 }, { prefetch: true })[Symbol.asyncIterator]();
    expect((await it.next()).value?.name).toBe(`${prefix}1`);
    // The page-2 request left with the first item, before anyone asked for item 4.
    expect(api.pagesFetched()).toEqual([1, 2]);
    const rest = [];
    for (let r = await it.next(); !r.done; r = await it.next()) rest.push(r.value.name);
    expect(rest).toHaveLength(5);
    expect(api.pagesFetched()).toEqual([1, 2]);
  });

  it('does not prefetch unless asked', async () => {
    const api = fakeLists(6);
    const it = list(api, { limit: 3 })[Symbol.asyncIterator]();
    for (let i = 0; i < 3; i++) await it.next();
    await new Promise((r) => setImmediate(r));
    expect(api.pagesFetched()).toEqual([1]);
  });

  it('rejects next() when a page fails, and fetches it again on the next call', async () => {
    const api = fakeLists(4, { failOnce: 2 });
    const it = list(api, { limit: 2 })[Symbol.asyncIterator]();
    await it.next();
    await it.next();
    await expect(it.next()).rejects.toBeInstanceOf(InternalServerError);
    expect((await it.next()).value?.name).toBe(`${prefix}3`);
    expect(api.pagesFetched()).toEqual([1, 2, 2]);
  });

  it('gives the first page with its HTTP answer', async () => {
    const api = fakeLists(3);
    const { data, status } = await list(api).withResponse();
    expect(status).toBe(200);
    expect(data.total).toBe(3);
  });
});

describe('page styles', () => {
  it('keeps the API’s own pagination and paging objects on the pages', async () => {
    const api = fakeLists(5);
    const campaigns = await api.client.campaigns.list({ limit: 2, page: 2 });
    expect(campaigns.pagination).toEqual({ total: 5, page: 2, limit: 2, totalPages: 3 });
    const customers = await api.client.customers.list({ limit: 2, page: 2 });
    expect(customers.paging).toEqual({ before: 1, after: 3 });
    expect(customers.page).toBe(2);
  });

  it('handles an empty list', async () => {
    const api = fakeLists(0);
    const page = await api.client.campaigns.list();
    expect(page).toMatchObject({ data: [], total: 0, nextPage: null });
    expect(await api.client.customers.list().toArray({ max: 10 })).toEqual([]);
  });
});
