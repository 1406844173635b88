/**
 * The server's HTTP side of its metrics: each API answer timed by its operation, and `GET /metrics`
 * (Prometheus' text format) on the scrape port, or on PORT for the admin token.
 */
import { matchOperation, splitAgencyPrefix } from '@engagekit/contract';
import { bearerToken } from '@engagekit/runtime';
import { getPath } from 'hono/utils/url';
import type { ServerMetrics } from './metrics.ts';

/** A fetch handler, as @hono/node-server serves. */
export type FetchHandler = (req: Request) => Response | Promise<Response>;

/**
 * The operationId a request names, for the metrics' label: `none` for a path or method of none. The
 * path read as the app routes it (hono's `getPath`), without parsing the URL whole: every request
 * pays this, and `/metrics`'s check before it.
 */
function operationOf(req: Request): string {
  const { path } = splitAgencyPrefix(getPath(req));
  return matchOperation(req.method, path)?.operation.operationId ?? 'none';
}

/** The app's fetch, each answer of an API operation timed into the metrics; `named` hears of each request's operation (the trace's span name). */
export function timed(fetch: FetchHandler, metrics: ServerMetrics, named?: (method: string, operationId: string) => void): FetchHandler {
  return async (req) => {
    const started = performance.now();
    const operationId = operationOf(req);
    named?.(req.method, operationId);
    const res = await fetch(req);
    metrics.request(operationId, res.status, (performance.now() - started) / 1000);
    return res;
  };
}

/** `GET /metrics`: Prometheus' text format. */
export async function metricsAnswer(req: Request, metrics: ServerMetrics): Promise<Response> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return new Response('Method not allowed: use GET\n', { status: 405, headers: { allow: 'GET' } });
  return new Response(await metrics.scrape(), { headers: { 'content-type': metrics.registry.contentType } });
}

/**
 * `/metrics` on PORT, for the admin token only (as a bearer token), beside the app; on METRICS_PORT
 * it is served alone, with no token (`scrapeOnly`). `isAdminToken` is the token service's check.
 */
export function withAdminMetrics(fetch: FetchHandler, metrics: ServerMetrics, isAdminToken: (token: string) => Promise<boolean>): FetchHandler {
  return async (req) => {
    if (getPath(req) !== '/metrics') return fetch(req);
    const token = bearerTokenOrNull(req);
    if (token === null || !(await isAdminToken(token))) {
      return new Response('Unauthorized: /metrics needs the admin token as a bearer token (or set METRICS_PORT for a scrape port without one)\n', {
        status: 401,
        headers: { 'www-authenticate': 'Bearer' },
      });
    }
    return metricsAnswer(req, metrics);
  };
}

/** The request's bearer token by the API's own rule (`bearerToken`), or null when it brings none. */
function bearerTokenOrNull(req: Request): string | null {
  try {
    return bearerToken(req);
  } catch {
    return null;
  }
}

/** The METRICS_PORT listener's handler: `/metrics` with no token, and nothing else. */
export function scrapeOnly(metrics: ServerMetrics): FetchHandler {
  return (req) => (getPath(req) === '/metrics' ? metricsAnswer(req, metrics) : new Response('Not found: this port serves /metrics only\n', { status: 404 }));
}
