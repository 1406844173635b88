import { type HttpHandler, http, passthrough } from 'msw';
import type { MockApi } from '../mock-api.ts';
import { MockNetworkError } from './faults.ts';

/** True when `url` is under one of the base URLs (same origin, and under its path when it has one). */
function underBase(url: string, bases: string[]): boolean {
  for (const base of bases) {
    if (!url.startsWith(base)) continue;
    const next = url.charAt(base.length);
    if (next === '' || next === '/' || next === '?' || next === '#') return true;
  }
  return false;
}

/**
 * The MSW handler that gives every request for the mock's base URLs to the mock. A simulated network
 * failure becomes MSW's network error, so the caller's fetch rejects with a TypeError.
 */
export function createMockHandlers(mock: MockApi): HttpHandler[] {
  const bases = [...new Set([mock.baseUrl, mock.orderBaseUrl])];
  return [
    http.all(
      ({ request }) => underBase(request.url, bases),
      async ({ request }) => {
        try {
          return await mock.handle(request);
        } catch (e) {
          if (e instanceof MockNetworkError || (e as Error)?.name === 'AbortError' || (e as Error)?.name === 'TimeoutError') return Response.error();
          throw e;
        }
      },
    ),
  ];
}

/** Lets the mock's own webhook deliveries to real receivers through untouched (no "unhandled request" warnings). */
export function webhookPassthroughHandler(): HttpHandler {
  return http.all(
    ({ request }) => request.headers.get('user-agent') === 'engagekit-webhooks/1',
    () => passthrough(),
  );
}
