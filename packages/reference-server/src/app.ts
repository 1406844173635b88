import { type OperationSpec, operations } from '@engagekit/contract';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { systemClock } from './clock.ts';
import { type AppDeps, type RequestContext, silentLogger } from './context.ts';
import { createTokenService } from './http/auth.ts';
import { createCompanyCache } from './http/company-cache.ts';
import { errorBody, HttpError } from './http/errors.ts';
import { createRateLimiter } from './http/rate-limit.ts';
import { createRandomIds } from './ids.ts';
import { adminHandlers } from './routes/admin.ts';
import { agencyHandlers } from './routes/agency.ts';
import { docsRoutes } from './routes/docs.ts';
import { orderHandlers } from './routes/orders.ts';
import { type Env, registerOperations } from './routes/register.ts';
import { webhookHandlers } from './routes/webhooks.ts';
import { settingsRoutes } from './settings/page.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Path patterns of the contract, to tell a wrong method (405) from an unknown path (404). */
const knownPaths = (Object.values(operations) as OperationSpec[]).map((op) => ({
  re: new RegExp(`^(?:/[0-9a-fA-F-]{36})?${op.path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
  methods: [op.method, ...(op.alsoAccepts ?? [])].map((m) => m.toUpperCase()),
}));

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

  app.use(async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : ids.newId('req');
    const now = clock.now();
    const ctx: RequestContext = {
      store: deps.store,
      config: deps.config,
      tokens,
      logger,
      resolveHost: deps.resolveHost,
      company,
      requestId,
      now,
      write: { newId: (p) => ids.newId(p), now: now.toISOString() },
      ids,
    };
    c.set('requestId', requestId);
    c.set('ctx', ctx);
    await next();
    c.header('x-request-id', requestId);
  });

  // Bearer tokens, not cookies, carry the credentials: any origin may call the API from a browser.
  app.use(
    cors({
      origin: '*',
      allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowHeaders: ['authorization', 'content-type', 'idempotency-key', 'x-request-id'],
      exposeHeaders: ['x-request-id', 'retry-after'],
      maxAge: 600,
    }),
  );
  registerOperations(app, { ...agencyHandlers, ...orderHandlers, ...adminHandlers, ...webhookHandlers }, limiter);
  docsRoutes(app, deps.docsBundle);
  settingsRoutes(app);

  app.notFound((c) => {
    const path = new URL(c.req.url).pathname;
    const match = knownPaths.filter((p) => p.re.test(path));
    if (match.length > 0) {
      const allow = [...new Set(match.flatMap((m) => m.methods))].join(', ');
      throw new HttpError(405, `Method ${c.req.method} is not allowed on ${path}; use ${allow}`, { headers: { allow } });
    }
    throw new HttpError(404, `No route for ${c.req.method} ${path}`);
  });

  app.onError((err, c) => {
    const requestId = c.get('requestId') ?? 'unknown';
    c.header('x-request-id', requestId);
    if (err instanceof HttpError) {
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
      return c.json(errorBody(err, requestId), err.status);
    }
    logger.error({ err, requestId, method: c.req.method, path: new URL(c.req.url).pathname }, 'unhandled error');
    return c.json(errorBody(new HttpError(500, 'Something went wrong on the backend'), requestId), 500);
  });

  return app;
}

export type App = ReturnType<typeof createApp>;
