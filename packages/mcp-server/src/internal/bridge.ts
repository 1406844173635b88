/**
 * The host side of the sandbox's `client`: one host function through which every method call, page and
 * list step crosses, to a real SDK client. Lists stay the SDK's own: the host holds each list's
 * `PagePromise`, its pages and its page iterators, and the sandbox steps them by id, so which page comes
 * next, and whether one does, is the SDK's answer. Every request that leaves the host is counted and
 * listed below the SDK, at its fetch (retries and page fetches included), and in read-only mode a write
 * is refused before it leaves.
 */
import type { ClientOptions, EngageClient, FetchLike } from '@engagekit/sdk';
import { createClient } from '@engagekit/sdk';
import { type CrossingError, crossing } from './crossing.ts';
import type { SdkMethod } from './docs-index.ts';
import type { RunLog } from './run-log.ts';
import type { HostFunction, RunControl } from './sandbox.ts';

/** The policy every call of a run is held to. */
export interface BridgePolicy {
  /** Only GET operations pass. */
  readOnly: boolean;
  /** Requests a run may send (page fetches and retries count); the next one ends the run. */
  maxCalls: number;
}

/**
 * What crosses the bridge: a method call (`call`), or a step of a list the host holds: its first page
 * (`first`), a page's next (`next`), a page iterator (`pages`, then `step`), or `toArray`.
 */
type CallRequest =
  | { op: 'call'; name: string; args: unknown[] }
  | { op: 'first'; list: number }
  | { op: 'next'; page: number }
  | { op: 'pages'; list: number }
  | { op: 'step'; iter: number }
  | { op: 'toArray'; list: number; options: unknown };

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

/** What the SDK's pages offer that the sandbox's page is made from. */
interface PageLike {
  data: unknown[];
  page: number;
  total: number;
  nextPage: number | null;
  pagination?: unknown;
  paging?: unknown;
  hasNextPage(): boolean;
  getNextPage(): Promise<PageLike>;
}

/** What the SDK's list calls return. */
interface ListLike extends PromiseLike<PageLike> {
  pages(): AsyncIterator<PageLike>;
  toArray(options: { max: number }): Promise<unknown[]>;
}

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
  const client = createClient({ ...options.target.clientOptions, fetch: accountedFetch(options.target.fetch, methods, policy, control, log) });
  // The SDK's objects the sandbox holds by id (lists, pages and page iterators), each with its list's method.
  const held: { object: unknown; name: string }[] = [];
  const hold = (object: unknown, name: string) => held.push({ object, name }) - 1;
  const page = (p: PageLike, name: string) => ({
    id: hold(p, name),
    data: p.data,
    page: p.page,
    total: p.total,
    nextPage: p.nextPage,
    hasNext: p.hasNextPage(),
    ...(p.pagination !== undefined ? { pagination: p.pagination } : {}),
    ...(p.paging !== undefined ? { paging: p.paging } : {}),
  });
  const settle = (name: string, work: () => Promise<unknown>) =>
    work().then(
      (value) => answer(value),
      (e: unknown) => failure(crossing(e, name)),
    );

  return (json) => {
    const request = JSON.parse(json) as CallRequest;
    if (request.op !== 'call') {
      const at = 'list' in request ? request.list : 'page' in request ? request.page : request.iter;
      const entry = held[at];
      if (!entry) return failure({ name: 'TypeError', message: 'That list is not one of this run’s.' });
      const { name } = entry;
      const object = entry.object as ListLike & PageLike & AsyncIterator<PageLike>;
      if (request.op === 'first') return settle(name, async () => page(await object, name));
      if (request.op === 'next') return settle(name, async () => page(await object.getNextPage(), name));
      if (request.op === 'pages') return answer({ iter: hold(object.pages(), name) });
      if (request.op === 'step')
        return settle(name, async () => {
          const step = await object.next();
          return step.done ? { done: true } : { page: page(step.value, name) };
        });
      return settle(name, () => object.toArray(request.options as { max: number }));
    }
    const method = byName.get(request.name);
    if (!method) {
      return failure({ name: 'TypeError', message: `client.${request.name} is not a method of the client. It has: ${[...byName.keys()].join(', ')}.` });
    }
    if (policy.readOnly && method.httpMethod !== 'GET') {
      const message = `client.${method.name} (${method.httpMethod} ${method.path}, ${method.operationId}) is a write, and this server is read-only (--read-only lets only GET operations through). Nothing was sent.`;
      log.begin({ operation: method.name, operationId: method.operationId, method: method.httpMethod }).done({ error: 'refused: read-only' });
      control.stop({ kind: 'read-only', message });
      return afterTheRun(control);
    }
    let args: unknown[];
    try {
      args = callArguments(method, request.args);
    } catch (e) {
      return failure(crossing(e, method.name));
    }
    let result: unknown;
    try {
      result = lookUp(client, method.name)(...args);
    } catch (e) {
      return failure(crossing(e, method.name));
    }
    if (method.pageParamsIndex !== undefined) {
      // The SDK fetches the first page at once; the sandbox reads it (and the rest) through the list's id.
      (result as ListLike).then(undefined, () => {});
      return answer({ list: hold(result, method.name) });
    }
    return settle(method.name, async () => {
      const { data, status, requestId, response } = await (
        result as { withResponse(): Promise<{ data: unknown; status: number; requestId?: string; response: Response }> }
      ).withResponse();
      const replayed = response.headers.get('idempotent-replayed') === 'true';
      return { data: data ?? null, status, requestId, ...(replayed ? { replayed } : {}) };
    });
  };
}

/** The request options a call may pass through the bridge: they change nothing but the call's own patience and identity. */
const PASSED_OPTIONS = ['timeout', 'maxRetries', 'idempotencyKey'];

/**
 * The arguments a call passes the SDK: the method's own (as many as the SDK's method table gives it),
 * then its request options, of which only `timeout`, `maxRetries` (up to the default 2) and
 * `idempotencyKey` pass: no headers, so the code sends what the SDK sends and nothing else. Any other
 * option is refused with a TypeError naming it, rather than dropped.
 */
export function callArguments(method: SdkMethod, given: unknown): unknown[] {
  const args = Array.isArray(given) ? [...given] : [];
  const own = args.slice(0, method.arity);
  const options = args[method.arity];
  // Optional arguments left out before the options (`list(undefined, options)`) stay in their places.
  while (own.length < method.arity && options !== undefined) own.push(undefined);
  if (options === undefined || options === null) return own;
  if (typeof options !== 'object') throw new TypeError(`client.${method.name}'s request options must be an object, not ${typeof options}.`);
  const o = options as Record<string, unknown>;
  const other = Object.keys(o).filter((k) => !PASSED_OPTIONS.includes(k));
  if (other.length) {
    throw new TypeError(
      `client.${method.name} was given the request option${other.length > 1 ? 's' : ''} ${other.join(', ')}, which the sandbox does not pass on: only ${PASSED_OPTIONS.join(', ')} do. Nothing was sent.`,
    );
  }
  const kept = {
    ...(typeof o.timeout === 'number' ? { timeout: o.timeout } : {}),
    ...(typeof o.maxRetries === 'number' ? { maxRetries: Math.min(Math.max(0, Math.floor(o.maxRetries)), 2) } : {}),
    ...(typeof o.idempotencyKey === 'string' ? { idempotencyKey: o.idempotencyKey } : {}),
  };
  return [...own, kept];
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

/** Which method of the table a request is, by its HTTP method and path. */
function operationFinder(methods: SdkMethod[]): (method: string, url: string) => SdkMethod | undefined {
  const routes = methods.map((m) => ({ m, re: new RegExp(`${m.path.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));
  return (method, url) => {
    const { pathname } = new URL(url);
    return routes.find((r) => r.m.httpMethod === method && r.re.test(pathname))?.m;
  };
}

/**
 * The fetch under a run's SDK client. Each request that leaves through it is counted against the
 * run's call limit and listed as it starts (its outcome filled in when it ends); it ends with the run
 * (the run's signal aborts what is in flight); and in read-only mode it refuses anything but GET a second
 * time, below the bridge's own check.
 */
function accountedFetch(fetch: FetchLike, methods: SdkMethod[], policy: BridgePolicy, control: RunControl, log: RunLog): FetchLike {
  const find = operationFinder(methods);
  let calls = 0;
  return (url, init) => {
    const method = (init.method ?? 'GET').toUpperCase();
    if (policy.readOnly && method !== 'GET' && method !== 'HEAD') return Promise.reject(new Error(`${method} ${url} refused in read-only mode.`));
    const found = find(method, url);
    const name = found?.name ?? `${method} ${new URL(url).pathname}`;
    if (calls >= policy.maxCalls) {
      const message = `Stopped at the API call limit: a run may make ${policy.maxCalls} API calls (page fetches and retries count), and the code asked for one more (client.${name}). Ask for bigger pages (limit), or split the work over several runs.`;
      control.stop({ kind: 'calls', message });
      return Promise.reject(new Error('The run is over: it reached its API call limit.'));
    }
    calls += 1;
    const pageParam = found?.pageParamsIndex !== undefined ? new URL(url).searchParams.get('page') : null;
    const call = log.begin({
      operation: name,
      ...(found ? { operationId: found.operationId } : {}),
      method,
      ...(pageParam !== null ? { page: Number(pageParam) } : {}),
    });
    const signal = init.signal ? AbortSignal.any([init.signal, control.signal]) : control.signal;
    return fetch(url, { ...init, signal }).then(
      (response) => {
        const requestId = response.headers.get('x-request-id');
        const replayed = response.headers.get('idempotent-replayed') === 'true';
        call.done({ status: response.status, ...(requestId ? { requestId } : {}), ...(replayed ? { replayed } : {}) });
        return response;
      },
      (e: unknown) => {
        call.done({ error: `no answer: ${crossing(e).message}` });
        throw e;
      },
    );
  };
}
