import { allowedMethods, splitAgencyPrefix } from '@engagekit/contract';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { getPath } from 'hono/utils/url';
import { systemClock } from './clock.ts';
import type { AnsweredRequest, AppBindings, AppDeps, Env, RequestContext } from './context.ts';
import { readRevocationCheck } from './domain/tokens.ts';
import { CORS_HEADERS, errorAnswer, NOSNIFF, PREFLIGHT_HEADERS } from './http/answer.ts';
import { createTokenService, type TokenService } from './http/auth.ts';
import { createCompanyCache } from './http/company-cache.ts';
import { HttpError } from './http/errors.ts';
import { createRateLimiter, type RateLimiter } from './http/rate-limit.ts';
import { requestIdOf } from './http/request-id.ts';
import { createRandomIds } from './ids.ts';
import { createLeases } from './leases.ts';
import { silentLogger } from './logger.ts';
import type { RuntimeObserver } from './observer.ts';
import { adminHandlers } from './routes/admin.ts';
import { agencyHandlers } from './routes/agency.ts';
import { openApiRoute } from './routes/openapi.ts';
import { orderHandlers } from './routes/orders.ts';
import { registerOperations } from './routes/register.ts';
import { webhookHandlers } from './routes/webhooks.ts';
import { type CompanyRecord, isStoreUnavailable, type WriteContext } from './store/types.ts';

/**
 * The reference API as a Hono app: a plain `fetch(Request) => Response` handler, so the same app
 * runs on a port (@hono/node-server), inside MSW, or called directly in tests. A request is served
 * from the bindings it brings as Hono's env (`app.fetch(request, { store, ids, leases })`), else from
 * the store the app was made with.
 *
 * @example
 * const app = createApp({ store: createMemoryStore(), config: { jwtSecret, adminTokenHash, rateLimitPerMinute: 0, webhookAllowPrivate: true } });
 * const res = await app.request('/api/v2/health');
 * // Another store, for one request:
 * const other = await app.fetch(new Request('http://localhost/api/v2/health'), { store, ids: createRandomIds(), leases });
 */
export function createApp(deps: AppDeps) {
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? silentLogger;
  const tokens = createTokenService(deps.config.jwtSecret, deps.config.adminTokenHash);
  // Routes match the path without an agency path's `/{uuid}` prefix; the validate step reads the prefix itself.
  const app = new Hono<Env>({ getPath: (request) => splitAgencyPrefix(getPath(request)).path });
  const nowMs = () => clock.now().getTime();
  const onAnswered = deps.onAnswered;
  // What a request that brings no bindings is served from.
  const own: AppBindings | undefined = deps.store && {
    store: deps.store,
    ids: deps.ids ?? createRandomIds(),
    leases: deps.leases ?? createLeases({ store: deps.store, clock }),
  };

  /**
   * What the app keeps of each bindings it serves, made at its first request: a company cache, the
   * revocations read and the rate limits of their store. A store seen for the first time starts with
   * none, as a new app on it would (the mock's `reset()` and `restore()` hand the app a new store).
   */
  const kept = new WeakMap<AppBindings, Kept>();
  const keptOf = (bindings: AppBindings): Kept => {
    let found = kept.get(bindings);
    if (!found) {
      const { store } = bindings;
      found = {
        tokens: tokens.withRevocations((companyUuid) => readRevocationCheck(store, companyUuid, clock.now().toISOString())),
        company: createCompanyCache(store, nowMs),
        limiter: createRateLimiter(deps.config.rateLimitPerMinute),
        newId: (prefix) => bindings.ids.newId(prefix),
      };
      kept.set(bindings, found);
    }
    return found;
  };

  /** The bindings a request brought (Hono's env), else the app's own. */
  const bindingsOf = (env: Partial<AppBindings> | undefined): AppBindings => {
    if (env?.store) return env as AppBindings;
    if (own) return own;
    throw new Error('This app was made without a store: hand each request its bindings, app.fetch(request, { store, ids, leases })');
  };

  /** What the steps of a request and its handler get about it. */
  const contextOf = (request: Request, bindings: AppBindings): RequestContext => {
    const now = clock.now();
    const { store, ids, leases } = bindings;
    const { tokens, company, limiter, newId } = keptOf(bindings);
    return {
      store,
      config: deps.config,
      tokens,
      logger,
      resolveHost: deps.resolveHost,
      leases,
      company,
      limiter,
      requestId: requestIdOf(request, ids),
      now,
      draining: deps.draining?.() ?? false,
      write: writeContext(newId, now, deps.observer),
      ids,
    };
  };

  // Every request: its id and context first, so that every answer (and error) carries the id.
  app.use(async (c, next) => {
    const ctx = contextOf(c.req.raw, bindingsOf(c.env));
    c.set('requestId', ctx.requestId);
    c.set('ctx', ctx);
    await next();
    if (onAnswered && !c.get('page')) {
      onAnswered(answeredOf(c, ctx.now));
    }
  });
  // Operations answer with every header already (jsonAnswer); /openapi.json and the pages get the
  // request id, CORS headers and nosniff here.
  const pageHeaders: MiddlewareHandler<Env> = async (c, next) => {
    c.set('page', true);
    await next();
    c.header('x-request-id', c.get('requestId'));
    for (const [name, value] of Object.entries(CORS_HEADERS)) c.header(name, value);
    c.header('x-content-type-options', NOSNIFF);
  };
  app.options('*', (c) => new Response(null, { status: 204, headers: { ...PREFLIGHT_HEADERS, 'x-request-id': c.get('requestId') } }));

  const handlers = { ...agencyHandlers, ...orderHandlers, ...adminHandlers, ...webhookHandlers };
  registerOperations(app, handlers, { validateResponses: deps.config.validateResponses });
  openApiRoute(app, pageHeaders);
  deps.pages?.(app, pageHeaders);

  app.notFound((c) => {
    const path = new URL(c.req.url).pathname;
    // A known path with an allowed method only missed by its trailing slash: that is a 404, not a 405.
    const allow = allowedMethods(path.endsWith('/') && path.length > 1 ? path.slice(0, -1) : path);
    const error =
      allow.length > 0 && !allow.includes(c.req.method)
        ? new HttpError(405, `Method ${c.req.method} is not allowed on ${path}; use ${allow.join(', ')}`, { headers: { allow: allow.join(', ') } })
        : new HttpError(404, `No route for ${c.req.method} ${path}`);
    return errorAnswer(error, c.get('requestId'));
  });

  // The one answer to every error: its envelope for an HttpError, else a logged 500 that says nothing internal.
  app.onError((err, c) => {
    // No id yet only when the request's context could not be made.
    const requestId = c.get('requestId') ?? requestIdOf(c.req.raw, own?.ids ?? createRandomIds());
    if (err instanceof HttpError) return errorAnswer(err, requestId);
    if (isStoreUnavailable(err)) {
      logger.warn({ err, requestId }, 'the database is unavailable');
      deps.observer?.databaseUnavailable?.();
      const retryAfter = String(err.retryAfterS);
      const message = `Service unavailable: the database is unavailable; retry in ${retryAfter} s`;
      return errorAnswer(new HttpError(503, message, { code: 'database_unavailable', headers: { 'retry-after': retryAfter } }), requestId);
    }
    logger.error({ err, requestId, method: c.req.method, path: new URL(c.req.url).pathname }, 'unhandled error');
    return errorAnswer(new HttpError(500, 'Something went wrong on the backend'), requestId);
  });
  return app;
}

/** What `onAnswered` hears of a request the app answered. */
function answeredOf(c: Context<Env>, at: Date): AnsweredRequest {
  return {
    request: c.req.raw,
    operationId: c.get('operationId') ?? null,
    body: c.get('body'),
    status: c.res.status,
    at,
    companyUuid: c.get('companyUuid') ?? null,
  };
}

/** A request's writes at `now`: fresh ids, and the trace its webhook deliveries keep when the server traces (`RuntimeObserver.traceContext`). */
function writeContext(newId: (prefix: string) => string, now: Date, observer: RuntimeObserver | undefined): WriteContext {
  const write = new RequestWrites(newId, now);
  if (observer?.traceContext) write.traceContext = observer.traceContext.bind(observer);
  return write;
}

/**
 * The writes of one request (`WriteContext`). Its `now` is written as ISO-8601 when a write first
 * reads it: most requests read and write nothing, and formatting the date was a sizeable share of
 * what a read pays (benchmark rows mock.http.cpu.vs-node-http and mock.inprocess.cpu.vs-hono). A
 * class, so `now` is a getter of its prototype: pass the object on, never a spread copy of it.
 */
class RequestWrites implements WriteContext {
  readonly newId: (prefix: string) => string;
  traceContext?: () => string | null;
  readonly #at: Date;
  #now: string | undefined;

  constructor(newId: (prefix: string) => string, at: Date) {
    this.newId = newId;
    this.#at = at;
  }

  get now(): string {
    this.#now ??= this.#at.toISOString();
    return this.#now;
  }
}

/** What the app keeps of each bindings it serves (`createApp`). */
interface Kept {
  tokens: TokenService;
  company: (uuid: string) => Promise<CompanyRecord | null>;
  limiter: RateLimiter;
  /** The bindings' `ids.newId`, for a request's writes. */
  newId: (prefix: string) => string;
}

export type App = ReturnType<typeof createApp>;
