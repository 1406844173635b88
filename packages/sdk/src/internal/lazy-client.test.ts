import type { Middleware } from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import { json } from '../../test/helpers/fake-fetch.ts';
import { lazyClient } from './lazy-client.ts';
import { createLowLevelClient } from './low-level.ts';

const UUID = '53d1bcd3-aaf0-45e1-9298-5395b6a27b61';

/** A lazy client over a real openapi-fetch client, counting loads and recording the URLs it sends. */
function counted(fail = 0) {
  const urls: string[] = [];
  let loads = 0;
  const client = lazyClient(async () => {
    loads++;
    if (loads <= fail) throw new Error('chunk failed to load');
    const fetch = async (url: string, init: RequestInit) => {
      urls.push(url);
      return json(200, { success: true, message: 'OK', data: { seen: new Headers(init.headers).get('x-mw') } });
    };
    return createLowLevelClient('http://api.test', { authorization: 'Bearer tok' }, { sendOptions: () => ({ fetch, maxRetries: 0, timeout: 1000 }) });
  });
  return { client, urls, loads: () => loads };
}

describe('lazyClient', () => {
  it('loads nothing until the first request, then loads once', async () => {
    const { client, urls, loads } = counted();
    expect(loads()).toBe(0);
    const [a, b] = await Promise.all([client.GET('/api/v2/health'), client.GET('/api/v2/companies/{uuid}', { params: { path: { uuid: UUID } } })]);
    await client.request('get', '/api/v2/health');
    expect(loads()).toBe(1);
    expect(a.response.status).toBe(200);
    expect(b.response.status).toBe(200);
    expect(urls).toEqual(['http://api.test/api/v2/health', `http://api.test/api/v2/companies/${UUID}`, 'http://api.test/api/v2/health']);
  });

  it('applies use and eject made before the load, in order, and those after it at once', async () => {
    const { client } = counted();
    const tag = (value: string): Middleware => ({
      onRequest({ request }) {
        request.headers.set('x-mw', value);
        return request;
      },
    });
    const first = tag('first');
    const second = tag('second');
    client.use(first, second);
    client.eject(second);
    const before = await client.GET('/api/v2/health');
    expect((before.data as unknown as { data: { seen: string } }).data.seen).toBe('first');
    client.eject(first);
    client.use(second);
    const after = await client.GET('/api/v2/health');
    expect((after.data as unknown as { data: { seen: string } }).data.seen).toBe('second');
  });

  it('tries the load again after a failed one', async () => {
    const { client, loads } = counted(1);
    await expect(client.GET('/api/v2/health')).rejects.toThrow('chunk failed to load');
    expect((await client.GET('/api/v2/health')).response.status).toBe(200);
    expect(loads()).toBe(2);
  });
});
