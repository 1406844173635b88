import { type Issue, type OperationSpec, operations, toColonPath } from '@engagekit/contract';
import type { Context, Hono } from 'hono';
import type { RequestContext } from '../context.ts';
import { jsonAnswer } from '../http/answer.ts';
import { bearerToken, sha256Hex } from '../http/auth.ts';
import { readJsonBody } from '../http/body.ts';
import { errorBody, HttpError, validationError } from '../http/errors.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import { requiredMessage, toIssues } from '../http/validate.ts';
import type { CompanyRecord } from '../store/types.ts';
import type { Handlers } from './types.ts';

export type Env = { Variables: { requestId: string } };

/** The uuid of an agency call may come as a path prefix: `/{uuid}/agency/...`. */
const PREFIX = '/:prefixUuid{[0-9a-fA-F-]{36}}';

type Handler = (input: unknown) => Promise<{ status: number; body: unknown }>;

/** Answers an error thrown while serving a request (the app's one error answer). */
export type ErrorAnswer = (err: unknown, requestId: string, request: Request) => Response;

/** One operation's route: the operation, its handler, and the names of its path parameters. */
interface Route {
  op: OperationSpec;
  handler: Handler;
  names: string[];
  pattern: RegExp | undefined;
}

/** A leading `/{uuid}` before an agency path. */
const UUID_PREFIX = /^\/([0-9a-fA-F-]{36})(?=\/)/;

/** The path of a request URL, or undefined when it is percent-encoded (Hono decodes those). */
function pathOf(url: string): string | undefined {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start === -1) return '/';
  let end = url.length;
  for (let i = start; i < url.length; i++) {
    const ch = url.charCodeAt(i);
    if (ch === 63 /* ? */ || ch === 35 /* # */) {
      end = i;
      break;
    }
    if (ch === 37 /* % */) return undefined;
  }
  return url.slice(start, end);
}

/**
 * Registers every operation of the contract on `app`: its path and methods (and the path-prefix
 * form of agency calls), then for each request: authenticate (401), rate-limit (429), validate
 * params, query and body together (400 naming every field), resolve the company (404), authorize
 * (403), run the handler, and answer with its status and body.
 *
 * Returns the same routes as a direct dispatcher: it serves a request to an operation's exact path
 * and method without Hono's router and context, and returns undefined for anything else (other
 * paths, HEAD, percent-encoded paths), which the Hono app then serves.
 */
export function registerOperations(
  app: Hono<Env>,
  handlers: Handlers,
  limiter: RateLimiter,
  contextOf: (request: Request) => RequestContext,
  answerError: ErrorAnswer,
): (request: Request) => Promise<Response> | undefined {
  const byMethod = new Map<string, { agency: boolean; exact: Map<string, Route>; patterns: Route[] }[]>();
  const table = (method: string, agency: boolean) => {
    let tables = byMethod.get(method);
    if (!tables) {
      tables = [false, true].map((a) => ({ agency: a, exact: new Map(), patterns: [] }));
      byMethod.set(method, tables);
    }
    return tables[agency ? 1 : 0] as { exact: Map<string, Route>; patterns: Route[] };
  };
  for (const op of Object.values(operations) as OperationSpec[]) {
    const handler = handlers[op.operationId as keyof Handlers] as unknown as Handler;
    const run = (c: Context<Env>) => {
      const ctx = contextOf(c.req.raw);
      c.set('requestId', ctx.requestId);
      return serve(c.req.raw, c.req.param() as Record<string, string>, ctx, op, handler, limiter);
    };
    const names = [...op.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1] as string);
    const route: Route = {
      op,
      handler,
      names,
      pattern: names.length > 0 ? new RegExp(`^${op.path.replace(/\{[A-Za-z0-9_]+\}/g, '([^/]+)')}$`) : undefined,
    };
    for (const method of [op.method, ...(op.alsoAccepts ?? [])]) {
      app.on(method.toUpperCase(), toColonPath(op.path), run);
      if (op.surface === 'agency') app.on(method.toUpperCase(), `${PREFIX}${toColonPath(op.path)}`, run);
      const t = table(method.toUpperCase(), op.surface === 'agency');
      if (route.pattern) t.patterns.push(route);
      else t.exact.set(op.path, route);
    }
  }

  const find = (method: string, path: string, agencyOnly: boolean): { route: Route; params: Record<string, string> } | undefined => {
    for (const t of byMethod.get(method) ?? []) {
      if (agencyOnly && !t.agency) continue;
      const exact = t.exact.get(path);
      if (exact) return { route: exact, params: {} };
      for (const route of t.patterns) {
        const m = (route.pattern as RegExp).exec(path);
        if (!m) continue;
        const params: Record<string, string> = {};
        route.names.forEach((name, i) => {
          params[name] = m[i + 1] as string;
        });
        return { route, params };
      }
    }
    return undefined;
  };

  return (request) => {
    const path = pathOf(request.url);
    if (path === undefined) return undefined;
    let found = find(request.method, path, false);
    if (!found) {
      const prefix = UUID_PREFIX.exec(path);
      if (!prefix) return undefined;
      found = find(request.method, path.slice(prefix[0].length), true);
      if (!found) return undefined;
      found.params.prefixUuid = prefix[1] as string;
    }
    const ctx = contextOf(request);
    const { route, params } = found;
    return serve(request, params, ctx, route.op, route.handler, limiter).catch((err: unknown) => answerError(err, ctx.requestId, request));
  };
}

async function serve(request: Request, params: Record<string, string>, ctx: RequestContext, op: OperationSpec, handler: Handler, limiter: RateLimiter) {
  // 1. Authenticate.
  let tokenCompanyUuid: string | null = null;
  let scopes: string[] = [];
  let isAdmin = op.auth.kind === 'admin';
  if (op.auth.kind !== 'public') {
    const token = bearerToken(request);
    if (op.auth.kind === 'admin') {
      if (!(await ctx.tokens.isAdminToken(token))) throw new HttpError(401, 'Unauthorized: this call needs the admin token');
    } else if (op.auth.kind === 'admin-or-company' && (await ctx.tokens.isAdminToken(token))) {
      isAdmin = true;
    } else {
      const verified = ctx.tokens.verify(token, ctx.now);
      const claims = verified instanceof Promise ? await verified : verified;
      tokenCompanyUuid = claims.companyUuid;
      scopes = claims.scopes;
    }
    limiter.take(token, ctx.now.getTime());
  }

  // 2. Validate params, query and body, reporting every bad field at once.
  const rawParams: Record<string, string> = {};
  let prefixUuid: string | undefined;
  for (const [name, value] of Object.entries(params)) {
    if (name === 'prefixUuid') prefixUuid = value;
    else rawParams[name] = value;
  }
  const rawQuery: Record<string, string> = {};
  const url = request.url;
  const q = url.indexOf('?');
  if (q !== -1) {
    const hash = url.indexOf('#', q);
    for (const [k, v] of new URLSearchParams(url.slice(q + 1, hash === -1 ? undefined : hash))) rawQuery[k] = v;
  }
  if (prefixUuid && rawQuery.uuid === undefined) rawQuery.uuid = prefixUuid;
  if (op.surface === 'agency' && !rawQuery.uuid) {
    throw new HttpError(400, 'Bad Request: Missing uuid parameter', {
      issues: [{ path: 'uuid', message: 'is required (as ?uuid= or a /{uuid}/agency/... prefix)' }],
    });
  }
  const rawBody = op.body ? await readJsonBody(request) : undefined;
  // PostgreSQL text cannot hold NUL characters: refuse them here, naming the field, rather than fail deeper.
  if (hasNul(rawParams) || hasNul(rawQuery) || hasNul(rawBody)) {
    const nul = [...nulPaths(rawParams), ...nulPaths(rawQuery), ...nulPaths(rawBody)];
    throw validationError(nul.map((path) => ({ path, message: 'must not contain NUL (\\u0000) characters' })));
  }
  const issues: Issue[] = [];
  const input = { params: parsed(op.params, rawParams, issues), query: parsed(op.query, rawQuery, issues), body: parsed(op.body, rawBody, issues) };
  if (issues.length > 0) throw validationError(issues);

  // 3. Resolve the company the call acts for, then authorize.
  let company: CompanyRecord | null = null;
  const namedUuid = (input.query as { uuid?: string } | undefined)?.uuid ?? (input.params as { uuid?: string } | undefined)?.uuid;
  if (op.auth.kind === 'company') {
    if (op.surface === 'agency') {
      const found = ctx.company(namedUuid as string);
      company = found instanceof Promise ? await found : found;
      if (!company) throw new HttpError(404, 'No company found with the provided uuid');
      if (company.uuid !== tokenCompanyUuid) throw new HttpError(403, 'Forbidden: the token belongs to another company');
    } else {
      const found = ctx.company(tokenCompanyUuid as string);
      company = found instanceof Promise ? await found : found;
      if (!company) throw new HttpError(401, 'Unauthorized: the token’s company no longer exists');
      const companyId = (input.body as { company_id?: string } | undefined)?.company_id;
      if (companyId !== undefined && companyId !== company.company_id) {
        throw new HttpError(403, 'Forbidden: company_id is not the token’s company', {
          issues: [{ path: 'company_id', message: `must be the token’s company (${company.company_id})` }],
        });
      }
    }
    if (!scopes.includes(op.auth.scope)) throw new HttpError(403, `Forbidden: the token lacks the ${op.auth.scope} scope`);
  } else if (namedUuid) {
    const found = ctx.company(namedUuid);
    company = found instanceof Promise ? await found : found;
    if (!company) throw new HttpError(404, 'No company found with the provided uuid');
    if (op.auth.kind === 'admin-or-company' && !isAdmin && company.uuid !== tokenCompanyUuid) {
      throw new HttpError(403, 'Forbidden: the token belongs to another company');
    }
  }

  // 4. Run the operation: once per Idempotency-Key, a retry answering as the first request did.
  const idempotencyKey = op.method === 'get' ? undefined : (request.headers.get('idempotency-key') ?? undefined);
  const run = () => handler({ params: input.params, query: input.query, body: input.body, company, ctx });
  const { status, body, replayed } =
    idempotencyKey === undefined
      ? { ...(await run()), replayed: false }
      : await runOnce(ctx, idempotencyKey, tokenCompanyUuid ?? (isAdmin ? 'admin' : 'public'), request, rawBody, run);
  if (replayed) return jsonAnswer(body, status, ctx.requestId, { 'idempotent-replayed': 'true' });
  if (ctx.config.validateResponses) {
    const schema = (op.responses as Record<number, { schema: { safeParse(v: unknown): { success: boolean; error?: unknown } } } | undefined>)[status]?.schema;
    const r = schema?.safeParse(body);
    if (!r?.success)
      throw new Error(`${op.operationId} answered ${status} with a body that breaks the contract: ${JSON.stringify(r?.error ?? 'no such status')}`);
  }
  return jsonAnswer(body, status, ctx.requestId);
}

/** `raw` parsed by `schema` (undefined without one); its issues, if any, are added to `issues`. */
function parsed(schema: OperationSpec['body'], raw: unknown, issues: Issue[]): unknown {
  if (!schema) return undefined;
  const r = schema.safeParse(raw, { error: requiredMessage });
  if (r.success) return r.data;
  issues.push(...toIssues(r.error));
  return undefined;
}

/** Whether any string (or key) inside a parsed JSON value holds a NUL character. */
function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(hasNul);
  if (value && typeof value === 'object') {
    for (const key in value) if (key.includes('\u0000') || hasNul((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/** Paths of every string (or key) holding a NUL character inside a parsed JSON value. */
export function nulPaths(value: unknown): string[] {
  const found: string[] = [];
  const path: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (v.includes('\u0000')) found.push(path.join('.'));
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(String(i));
        walk(v[i]);
        path.pop();
      }
    } else if (v && typeof v === 'object') {
      for (const key of Object.keys(v)) {
        path.push(key);
        if (key.includes('\u0000')) found.push(path.join('.'));
        else walk((v as Record<string, unknown>)[key]);
        path.pop();
      }
    }
  };
  walk(value);
  return found;
}

const KEY_RE = /^[\x21-\x7e]{1,255}$/;

/**
 * Runs a write under an Idempotency-Key: the first request with the key runs and its answer (2xx or
 * 4xx) is kept for a day; a retry with the same key and the same request gets that answer again, with
 * `idempotent-replayed: true`. The same key with another request is a 400; one still running, a 409.
 */
async function runOnce(
  ctx: RequestContext,
  key: string,
  scope: string,
  req: Request,
  rawBody: unknown,
  run: () => Promise<{ status: number; body: unknown }>,
): Promise<{ status: number; body: unknown; replayed: boolean }> {
  if (!KEY_RE.test(key)) {
    throw new HttpError(400, 'Invalid request: the Idempotency-Key header must be 1 to 255 visible ASCII characters', {
      issues: [{ path: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }],
    });
  }
  const url = new URL(req.url);
  const hash = await sha256Hex(`${req.method} ${url.pathname}${url.search}\n${JSON.stringify(rawBody ?? null)}`);
  const begun = await ctx.store.beginIdempotent(scope, key, hash, ctx.write.now);
  if (begun.state === 'mismatch') {
    throw new HttpError(400, 'Invalid request: this Idempotency-Key was used with another request; use a new key for a new request', {
      code: 'idempotency_key_reused',
      issues: [{ path: 'Idempotency-Key', message: 'was used with another request' }],
    });
  }
  if (begun.state === 'in_progress') {
    throw new HttpError(409, 'A request with this Idempotency-Key is still running; retry when it has answered', { code: 'idempotency_in_progress' });
  }
  if (begun.state === 'replay') return { status: begun.status, body: begun.body, replayed: true };
  try {
    const result = await run();
    await ctx.store.finishIdempotent(scope, key, result.status, result.body);
    return { ...result, replayed: false };
  } catch (e) {
    // A client error is the request's answer and is kept; anything else may succeed on a retry.
    if (e instanceof HttpError && e.status < 500) await ctx.store.finishIdempotent(scope, key, e.status, errorBody(e, ctx.requestId));
    else await ctx.store.abandonIdempotent(scope, key);
    throw e;
  }
}
