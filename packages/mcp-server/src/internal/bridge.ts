/**
 * The host side of the sandbox's `client`: one host function dispatching every method call by name
 * through the bridge table (the docs index's `methods`, made from the SDK's resources), to a real SDK
 * client. Calls are counted and logged, and in read-only mode a write is refused before it leaves the
 * host. List methods cross as page fetches: the sandbox asks for page N, the SDK fetches that page.
 */
import type { ClientOptions, EngageClient, FetchLike } from '@engagekit/sdk';
import { createClient } from '@engagekit/sdk';
import type { SdkMethod } from './docs-index.ts';
import type { RunLog } from './run-log.ts';
import type { HostFunction, RunControl } from './sandbox.ts';

/** The policy every call of a run is held to. */
export interface BridgePolicy {
  /** Only GET operations pass. */
  readOnly: boolean;
  /** API calls a run may make (page fetches count); the next one ends the run. */
  maxCalls: number;
}

/** What a call crossing the bridge asks for: `{ name, args, page }`. */
interface CallRequest {
  name: string;
  args: unknown[];
  /** Set for a page of a list: null for the page the arguments name. */
  page?: number | null;
}

/** How an error crosses back into the sandbox. */
interface CrossingError {
  name: string;
  message: string;
  status?: number;
  code?: string;
  requestId?: string;
  issues?: unknown;
  operation?: string;
}

/** What the code's calls reach: the SDK client's options without its fetch, and the fetch underneath. */
export interface BridgeTarget {
  clientOptions: Omit<ClientOptions, 'fetch'>;
  fetch: FetchLike;
}

const answer = (value: unknown) => JSON.stringify({ value });
const failure = (error: CrossingError) => JSON.stringify({ error });
/** The answer of a call that stopped the run: it comes once the run is over, when nothing reads it. */
const afterTheRun = (control: RunControl) =>
  new Promise<string>((resolve) =>
    control.signal.addEventListener('abort', () => resolve(failure({ name: 'Error', message: 'The run is over.' })), { once: true }),
  );

/** The `call` host function of one run, with its own SDK client. */
export function createCallBridge(options: {
  methods: SdkMethod[];
  target: BridgeTarget;
  policy: BridgePolicy;
  control: RunControl;
  log: RunLog;
}): HostFunction {
  const { methods, policy, control, log } = options;
  const byName = new Map(methods.map((m) => [m.name, m]));
  const client = createClient({ ...options.target.clientOptions, fetch: guardedFetch(options.target.fetch, policy, control) });
  let calls = 0;

  return (json) => {
    const request = JSON.parse(json) as CallRequest;
    const method = byName.get(request.name);
    if (!method) {
      return failure({ name: 'TypeError', message: `client.${request.name} is not a method of the client. It has: ${[...byName.keys()].join(', ')}.` });
    }
    const operation = `${method.name} (${method.httpMethod} ${method.path}, ${method.operationId})`;
    if (policy.readOnly && method.httpMethod !== 'GET') {
      const message = `Refused: client.${operation} is a write, and this server is read-only (--read-only lets only GET operations through). Nothing was sent.`;
      log.calls.push({ operation: method.name, operationId: method.operationId, method: method.httpMethod, ms: 0, error: 'refused: read-only' });
      control.stop({ kind: 'stopped', message });
      return afterTheRun(control);
    }
    if (calls >= policy.maxCalls) {
      const message = `Stopped at the API call limit: a run may make ${policy.maxCalls} API calls (page fetches count), and the code asked for one more (client.${method.name}). Ask for bigger pages (limit), or split the work over several runs.`;
      control.stop({ kind: 'stopped', message });
      return afterTheRun(control);
    }
    calls += 1;
    return invoke(client, method, request, log);
  };
}

/** Makes one call with the real SDK and logs it; resolves to the answer for the sandbox. */
async function invoke(client: EngageClient, method: SdkMethod, request: CallRequest, log: RunLog): Promise<string> {
  const started = performance.now();
  const record = { operation: method.name, operationId: method.operationId, method: method.httpMethod };
  const args = callArguments(method, request.args);
  const paged = method.pageParamsIndex !== undefined && request.page !== undefined;
  if (paged && request.page !== null) {
    const at = method.pageParamsIndex as number;
    const params = args[at];
    args[at] = { ...(params && typeof params === 'object' ? params : {}), page: request.page };
  }
  try {
    const fn = lookUp(client, method.name);
    const result = fn(...args) as unknown;
    if (paged) {
      const page = (await result) as PageLike;
      const requestId = page.requestId;
      log.calls.push({ ...record, page: page.page, status: page.response?.status, ...(requestId ? { requestId } : {}), ms: elapsed(started) });
      return answer(pageData(page));
    }
    const withResponse = (result as { withResponse?: () => Promise<{ data: unknown; status: number; requestId?: string }> }).withResponse;
    const { data, status, requestId } = withResponse ? await withResponse.call(result) : { data: await result, status: undefined, requestId: undefined };
    log.calls.push({ ...record, ...(status ? { status } : {}), ...(requestId ? { requestId } : {}), ms: elapsed(started) });
    return answer({ data: data ?? null, status, requestId });
  } catch (e) {
    const error = crossing(e, method.name);
    log.calls.push({
      ...record,
      ...(error.status ? { status: error.status } : {}),
      ...(error.requestId ? { requestId: error.requestId } : {}),
      ms: elapsed(started),
      error: `${error.name}: ${error.message}`,
    });
    return failure(error);
  }
}

/**
 * The arguments a call passes the SDK: the method's own (as many as its signature names), then its
 * request options cut down to those that change nothing but the call's own patience and identity
 * (`timeout`, `maxRetries` up to the default 2, `idempotencyKey`): no headers, so the code sends what
 * the SDK sends and nothing else.
 */
export function callArguments(method: SdkMethod, given: unknown): unknown[] {
  const args = Array.isArray(given) ? [...given] : [];
  const inside = method.signature.slice(method.signature.indexOf('(') + 1, method.signature.lastIndexOf(')'));
  const arity = inside.split(',').filter((p) => p.trim() !== '').length;
  const own = args.slice(0, arity);
  const options = args[arity];
  if (!options || typeof options !== 'object') return own;
  const o = options as Record<string, unknown>;
  const kept = {
    ...(typeof o.timeout === 'number' ? { timeout: o.timeout } : {}),
    ...(typeof o.maxRetries === 'number' ? { maxRetries: Math.min(Math.max(0, Math.floor(o.maxRetries)), 2) } : {}),
    ...(typeof o.idempotencyKey === 'string' ? { idempotencyKey: o.idempotencyKey } : {}),
  };
  // Optional arguments left out before the options (`list(undefined, options)`) stay in their places.
  while (own.length < arity) own.push(undefined);
  return [...own, kept];
}

/** What a page of the SDK offers that the sandbox's page is made from. */
interface PageLike {
  data: unknown[];
  page: number;
  total: number;
  nextPage: number | null;
  requestId?: string;
  response?: Response;
  pagination?: unknown;
  paging?: unknown;
}

/** A page's data fields, without the Response and the methods (the sandbox adds its own). */
function pageData(page: PageLike) {
  return {
    data: page.data,
    page: page.page,
    total: page.total,
    nextPage: page.nextPage,
    ...(page.pagination !== undefined ? { pagination: page.pagination } : {}),
    ...(page.paging !== undefined ? { paging: page.paging } : {}),
  };
}

/** The client's method at `campaigns.create`, bound to its resource. */
function lookUp(client: EngageClient, name: string): (...args: unknown[]) => unknown {
  let owner: unknown = client;
  const path = name.split('.');
  for (const key of path.slice(0, -1)) owner = (owner as Record<string, unknown>)[key];
  const fn = (owner as Record<string, unknown>)[path[path.length - 1] as string];
  if (typeof fn !== 'function') throw new TypeError(`The installed @engagekit/sdk has no client.${name}: is it older than this server?`);
  return fn.bind(owner) as (...args: unknown[]) => unknown;
}

/** An SDK error (or any other) as the sandbox gets it: its class name, message, status, code, issues and request id. */
export function crossing(e: unknown, operation: string): CrossingError {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e), operation };
  const fields = e as Error & { status?: unknown; code?: unknown; requestId?: unknown; issues?: unknown };
  return {
    name: e.name,
    message: e.message,
    operation,
    ...(typeof fields.status === 'number' ? { status: fields.status } : {}),
    ...(typeof fields.code === 'string' ? { code: fields.code } : {}),
    ...(typeof fields.requestId === 'string' ? { requestId: fields.requestId } : {}),
    ...(Array.isArray(fields.issues) ? { issues: fields.issues } : {}),
  };
}

/**
 * The fetch under a run's SDK client: it ends with the run (the run's signal aborts what is in flight)
 * and, in read-only mode, refuses anything but GET a second time, below the bridge's own check.
 */
function guardedFetch(fetch: FetchLike, policy: BridgePolicy, control: RunControl): FetchLike {
  return (url, init) => {
    const method = (init.method ?? 'GET').toUpperCase();
    if (policy.readOnly && method !== 'GET' && method !== 'HEAD') return Promise.reject(new Error(`Refused: ${method} ${url} in read-only mode.`));
    const signal = init.signal ? AbortSignal.any([init.signal, control.signal]) : control.signal;
    return fetch(url, { ...init, signal });
  };
}

const elapsed = (since: number) => Math.round((performance.now() - since) * 10) / 10;
