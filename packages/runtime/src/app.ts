import { allowedMethods, splitAgencyPrefix } from '@engagekit/contract';
import { Hono, type MiddlewareHandler } from 'hono';
import { getPath } from 'hono/utils/url';
import { systemClock } from './clock.ts';
import { type AppDeps, type RequestContext, silentLogger } from './context.ts';
import { readRevocationCheck } from './domain/tokens.ts';
import { CORS_HEADERS, errorAnswer, NOSNIFF, PREFLIGHT_HEADERS } from './http/answer.ts';
import { createTokenService } from './http/auth.ts';
import { createCompanyCache } from './http/company-cache.ts';
import { HttpError } from './http/errors.ts';
import { createRateLimiter } from './http/rate-limit.ts';
import { requestIdOf } from './http/request-id.ts';
import { createRandomIds, type IdGenerator } from './ids.ts';
import { createLeases, type Leases } from './leases.ts';
import { adminHandlers } from './routes/admin.ts';
import { agencyHandlers } from './routes/agency.ts';
import { openApiRoute } from './routes/openapi.ts';
import { orderHandlers } from './routes/orders.ts';
import { type Env, registerOperations } from './routes/register.ts';
import { webhookHandlers } from './routes/webhooks.ts';
import type { Store } from './store/ports.ts';
import { isStoreUnavailable } from './store/types.ts';

/**
 * The reference API as a Hono app: a plain `fetch(Request) => Response` handler, so the same app
 * runs on a port (@hono/node-server), inside MSW, or called directly in tests.
 *
 * @example
 * const app = createApp({ store: createMemoryStore(), config: { jwtSecret, adminTokenHash, rateLimitPerMinute: 0, webhookAllowPrivate: true } });
 * const res = await app.request('/api/v2/health');
 */
export function createApp(deps: AppDeps) {
  const clock = deps.clock ?? systemClock;
  // What requests read and write: `useStore` points the app at another store and id sequence.
  let store = deps.store;
  let ids = deps.ids ?? createRandomIds();
  const logger = deps.logger ?? silentLogger;
  // A company's revocations are read from the store the app serves now (`useStore` moves it).
  const tokens = createTokenService(deps.config.jwtSecret, deps.config.adminTokenHash, {
    revocations: (companyUuid) => readRevocationCheck(store, companyUuid, clock.now().toISOString()),
  });
  let leases = deps.leases ?? createLeases({ store: deps.store, clock });
  const limiter = createRateLimiter(deps.config.rateLimitPerMinute);
  // Routes match the path without an agency path's `/{uuid}` prefix; the validate step reads the prefix itself.
  const app = new Hono<Env>({ getPath: (request) => splitAgencyPrefix(getPath(request)).path });
  const nowMs = () => clock.now().getTime();
  let company = createCompanyCache(store, nowMs);
  const onAnswered = deps.onAnswered;

  const newId = (prefix: string) => ids.newId(prefix);
  /** What the steps of a request and its handler get about it. */
  const contextOf = (request: Request): RequestContext => {
    const now = clock.now();
    return {
      store,
      config: deps.config,
      tokens,
      logger,
      resolveHost: deps.resolveHost,
      leases,
      company,
      requestId: requestIdOf(request, ids),
      now,
      write: { newId, now: now.toISOString() },
      ids,
    };
  };

  // Every request: its id and context first, so that every answer (and error) carries the id.
  app.use(async (c, next) => {
    const ctx = contextOf(c.req.raw);
    c.set('requestId', ctx.requestId);
    c.set('ctx', ctx);
    await next();
    if (onAnswered && !c.get('page')) {
      onAnswered({ request: c.req.raw, operationId: c.get('operationId') ?? null, body: c.get('body'), status: c.res.status, at: ctx.now });
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

  registerOperations(app, { ...agencyHandlers, ...orderHandlers, ...adminHandlers, ...webhookHandlers }, limiter, {
    validateResponses: deps.config.validateResponses,
  });
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
    const requestId = c.get('requestId') ?? requestIdOf(c.req.raw, ids);
    if (err instanceof HttpError) return errorAnswer(err, requestId);
    if (isStoreUnavailable(err)) {
      logger.warn({ err, requestId }, 'the database is unavailable');
      const retryAfter = String(err.retryAfterS);
      const message = `Service unavailable: the database is unavailable; retry in ${retryAfter} s`;
      return errorAnswer(new HttpError(503, message, { code: 'database_unavailable', headers: { 'retry-after': retryAfter } }), requestId);
    }
    logger.error({ err, requestId, method: c.req.method, path: new URL(c.req.url).pathname }, 'unhandled error');
    return errorAnswer(new HttpError(500, 'Something went wrong on the backend'), requestId);
  });
  return Object.assign(app, {
    /**
     * Serves `next` from the next request on, its new records named by `nextIds`, with the company
     * cache, the token revocations read and the rate limits emptied: as a new app would, without
     * registering the routes and building the router again. The mock's `reset()` and `restore()` do
     * this before every test (benchmark row `mock.partner-suite`: a fresh app cost each test case more
     * than its three calls).
     */
    useStore(next: Store, nextIds: IdGenerator, nextLeases?: Leases): void {
      store = next;
      ids = nextIds;
      if (nextLeases) leases = nextLeases;
      company = createCompanyCache(next, nowMs);
      tokens.forgetRevocations();
      limiter.clear();
    },
  });
}

export type App = ReturnType<typeof createApp>;
