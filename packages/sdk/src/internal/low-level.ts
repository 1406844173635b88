/** The openapi-fetch client behind a low-level client, with its transport: loaded on first use (see `lazyClient`). */
import createFetchClient from 'openapi-fetch';
import type { LowLevelClient } from './lazy-client.ts';
import type { Requester } from './request.ts';
import { send } from './transport.ts';

/**
 * An openapi-fetch client on `baseUrl` sending `headers`, each request sent through `send` with the
 * client's fetch (looked up per request), retries, timeout and log.
 */
export function createLowLevelClient(baseUrl: string, headers: Record<string, string>, requester: Pick<Requester, 'sendOptions'>): LowLevelClient {
  return createFetchClient({ baseUrl, headers, fetch: (request) => send(request, requester.sendOptions(undefined)) });
}
