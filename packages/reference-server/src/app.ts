import { type OperationSpec, operations } from '@engagekit/contract';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { systemClock } from './clock.ts';
import { type AppDeps, type RequestContext, silentLogger } from './context.ts';
import { CORS_HEADERS, jsonAnswer, PREFLIGHT_HEADERS } from './http/answer.ts';
import { createTokenService } from './http/auth.ts';
import { createCompanyCache } from './http/company-cache.ts';
import { errorBody, HttpError } from './http/errors.ts';
import { createRateLimiter } from './http/rate-limit.ts';
import { createRandomIds } from './ids.ts';
import { adminHandlers } from './routes/admin.ts';
import { agencyHandlers } from './routes/agency.ts';
import { docsRoutes } from './routes/docs.ts';
import { orderHandlers } from './routes/orders.ts';
import { type Env, type ErrorAnswer, registerOperations } from './routes/register.ts';
import { webhookHandlers } from './routes/webhooks.ts';
import { settingsRoutes } from './settings/page.ts';
import type { WriteContext } from './store/types.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Path patterns of the contract, to tell a wrong method (405) from an unknown path (404). */
const knownPaths = (Object.values(operations) as OperationSpec[]).map((op) => ({
  re: new RegExp(`^(?:/[0-9a-fA-F-]{36})?${op.path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
  methods: [op.method, ...(op.alsoAccepts ?? [])].map((m) => m.toUpperCase()),
}));

/** Ids and the time for a request's store writes; the time is formatted only when a write asks for it. */
class RequestWrite implements WriteContext {
  readonly newId: (prefix: string) => string;
  readonly #at: Date;
  #iso: string | undefined;
  constructor(newId: (prefix: string) => string, at: Date) {
    this.newId = newId;
    this.#at = at;
  }
  get now(): string {
    this.#iso ??= this.#at.toISOString();
    return this.#iso;
  }
}

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
  const ids = deps.ids ?? createRandomIds();
  const logger = deps.logger ?? silentLogger;
  const tokens = createTokenService(deps.config.jwtSecret, deps.config.adminTokenHash);
  const limiter = createRateLimiter(deps.config.rateLimitPerMinute);
  const app = new Hono<Env>();
  const company = createCompanyCache(deps.store, () => clock.now().getTime());

  /** The request's id: the caller's `x-request-id` when well-formed, else a new one. */
  const requestIdOf = (request: Request): string => {
    const incoming = request.headers.get('x-request-id');
    return incoming && REQUEST_ID.test(incoming) ? incoming : ids.newId('req');
  };
  const newId = (prefix: string) => ids.newId(prefix);
  /** What an operation's handler gets about its request. */
  const contextOf = (request: Request): RequestContext => {
    const now = clock.now();
    return {
      store: deps.store,
      config: deps.config,
      tokens,
      logger,
      resolveHost: deps.resolveHost,
      company,
      requestId: requestIdOf(request),
      now,
      write: new RequestWrite(newId, now),
      ids,
    };
  };
  /** The answer to an error: its envelope for an HttpError, else a logged 500. */
  const answerError: ErrorAnswer = (err, requestId, request) => {
    if (err instanceof HttpError) return jsonAnswer(errorBody(err, requestId), err.status, requestId, err.headers);
    logger.error({ err, requestId, method: request.method, path: new URL(request.url).pathname }, 'unhandled error');
    return jsonAnswer(errorBody(new HttpError(500, 'Something went wrong on the backend'), requestId), 500, requestId);
  };
  /** Sets the request id of a request Hono serves, for its error answer. */
  const honoRequestId = (c: Context<Env>) => {
    const requestId = requestIdOf(c.req.raw);
    c.set('requestId', requestId);
    return requestId;
  };

  // Operations answer with every header already (jsonAnswer); the pages get the request id and CORS headers here.
  const pageHeaders: MiddlewareHandler<Env> = async (c, next) => {
    const requestId = honoRequestId(c);
    await next();
    c.header('x-request-id', requestId);
    for (const [name, value] of Object.entries(CORS_HEADERS)) c.header(name, value);
  };
  for (const path of ['/openapi.json', '/docs', '/docs/*', '/settings', '/settings/*']) app.use(path, pageHeaders);
  app.options('*', (c) => new Response(null, { status: 204, headers: { ...PREFLIGHT_HEADERS, 'x-request-id': honoRequestId(c) } }));

  const direct = registerOperations(app, { ...agencyHandlers, ...orderHandlers, ...adminHandlers, ...webhookHandlers }, limiter, contextOf, answerError);
  docsRoutes(app, deps.docsBundle);
  settingsRoutes(app);

  app.notFound((c) => {
    const path = new URL(c.req.url).pathname;
    const match = knownPaths.filter((p) => p.re.test(path));
    // A known path with an allowed method only missed by its trailing slash: that is a 404, not a 405.
    if (match.length > 0 && !match.some((m) => m.methods.includes(c.req.method))) {
      const allow = [...new Set(match.flatMap((m) => m.methods))].join(', ');
      throw new HttpError(405, `Method ${c.req.method} is not allowed on ${path}; use ${allow}`, { headers: { allow } });
    }
    throw new HttpError(404, `No route for ${c.req.method} ${path}`);
  });

  app.onError((err, c) => answerError(err, c.get('requestId') ?? honoRequestId(c), c.req.raw));

  // Operation requests skip Hono's router and context (the same routes, matched directly); the rest go through Hono.
  const honoFetch = app.fetch;
  app.fetch = (request, env, executionCtx) => direct(request) ?? honoFetch(request, env, executionCtx);
  return app;
}

export type App = ReturnType<typeof createApp>;
