/**
 * Where a request to the mock goes: a base URL's path prefix taken off, then the control endpoints,
 * the faults, or the app of the current generation; and while sample data loads, after it.
 */
import { matchOperation, type OperationId, splitAgencyPrefix } from '@engagekit/contract';
import { bearerToken, canonicalUuid, errorAnswer, HttpError, requestIdOf, type TokenService } from '@engagekit/runtime';
import { getPath } from 'hono/utils/url';
import type { MockClock } from './clock.ts';
import { CONTROL_PREFIX } from './control.ts';
import { type createFaults, delay, type FaultOptions, faultCode, MockNetworkError } from './faults.ts';
import type { Generations } from './generations.ts';
import { headersOf, type Journal, type RequestEnd } from './journal.ts';

/** A base URL split into its origin and its path prefix (no trailing slash). */
interface Base {
  origin: string;
  prefix: string;
}

/** Splits a base URL into its origin and its path prefix (no trailing slash). */
export function parseBase(url: string): Base {
  const u = new URL(url);
  return { origin: u.origin, prefix: u.pathname.replace(/\/+$/, '') };
}

/** What the router hands requests to and records them in. */
interface RouterParts {
  /** The base URLs with a path prefix; the app routes on the path after it. */
  prefixed: Base[];
  control: { fetch(request: Request): Response | Promise<Response> };
  faults: ReturnType<typeof createFaults>;
  journal: Journal;
  clock: MockClock;
  generations: Generations;
  /** Reads the company of the token of a request a fault answers, which never reaches the app. */
  tokens: TokenService;
}

/** The mock as a `Request -> Response` handler: `route` sends at once, `handle` first waits for sample data that is loading. */
export function createRouter(parts: RouterParts) {
  const { prefixed, control, faults, journal, clock, generations, tokens } = parts;

  /**
   * Faults, the control endpoints, then the app. A fault's delay follows `signal`, else the request's
   * own, read only then: under @hono/node-server reading a request's signal makes it an AbortController
   * (benchmark row mock.http.cpu.vs-node-http).
   */
  async function route(incoming: Request, signal?: AbortSignal): Promise<Response> {
    const request = prefixed.length === 0 ? incoming : await underBase(incoming, prefixed);
    // The path as the app routes on it: faults match the operation the app would answer.
    const path = getPath(request);
    if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) return control.fetch(request);
    const match = faults.size > 0 ? matchOperation(request.method, path) : undefined;
    const operationId = match?.operation.operationId;
    const fault = operationId && faults.take(operationId);
    if (match && operationId && fault) {
      const at = clock.now();
      // A request a fault answers, drops or holds until its client gives up is in the journal too; one only delayed goes on to the app, which logs it.
      const record = async (status: number | null, ended: RequestEnd) => {
        const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await jsonOf(request);
        const companyUuid = await companyOf(request, path, match.params);
        journal.record({ method: request.method, url: request.url, headers: headersOf(request), operationId, body, status, ended, companyUuid, at });
      };
      if (fault.delayMs) {
        try {
          await delay(fault.delayMs, signal ?? incoming.signal);
        } catch (e) {
          await record(null, 'aborted');
          throw e;
        }
      }
      if (fault.network || fault.status) await record(fault.network ? null : (fault.status as number), fault.network ? 'dropped' : 'answered');
      if (fault.network) throw new MockNetworkError(operationId);
      if (fault.status) return faultAnswer(operationId, fault, request);
    }
    return generations.serve(request);
  }

  function faultAnswer(operationId: OperationId, fault: FaultOptions, request: Request): Response {
    const status = fault.status as NonNullable<FaultOptions['status']>;
    const message = fault.message ?? `Simulated failure (engagekit mock): ${operationId} answered ${status}`;
    // Given, it goes with any status (a 409 `idempotency_in_progress` is one a client retries after it); else 0 where a client waits for one.
    const retryAfter = fault.retryAfter ?? (status === 429 || status === 503 ? 0 : undefined);
    const headers = retryAfter === undefined ? undefined : { 'retry-after': String(retryAfter) };
    return errorAnswer(
      new HttpError(status, message, { code: faultCode(fault), ...(headers ? { headers } : {}) }),
      requestIdOf(request, generations.current.ids),
    );
  }

  /**
   * The company of a request a fault answers, by the app's rule: the one an agency call (its `uuid`
   * query or `/{uuid}` prefix) or an admin call (its path) names, else its company token's.
   */
  async function companyOf(request: Request, path: string, params: Record<string, string>): Promise<string | null> {
    const named = new URL(request.url).searchParams.get('uuid') ?? splitAgencyPrefix(path).uuid ?? params.uuid;
    if (named) return canonicalUuid(named);
    try {
      return (await tokens.verify(bearerToken(request), clock.now())).companyUuid;
    } catch {
      return null;
    }
  }

  /** Every request: waits for sample data, when some is loading. `signal`: the caller's, when it is not the request's own (`mock.fetch`). */
  function handle(request: Request, signal?: AbortSignal): Promise<Response> {
    const gen = generations.current;
    if (gen.loading) return gen.ready.catch(() => {}).then(() => route(request, signal));
    return route(request, signal);
  }

  return { route, handle };
}

/** `request` with a base URL's path prefix taken off its URL. */
async function underBase(request: Request, prefixed: Base[]): Promise<Request> {
  const url = new URL(request.url);
  for (const base of prefixed) {
    if (url.origin !== base.origin || !(url.pathname === base.prefix || url.pathname.startsWith(`${base.prefix}/`))) continue;
    const path = url.pathname.slice(base.prefix.length) || '/';
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    return new Request(`${url.origin}${path}${url.search}`, { method: request.method, headers: request.headers, body, signal: request.signal });
  }
  return request;
}

/** A request's body as JSON; undefined when it is empty or not JSON. */
async function jsonOf(request: Request): Promise<unknown> {
  const text = await request.text().catch(() => '');
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}
