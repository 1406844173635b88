import {
  findInJson,
  type HttpMethod,
  type Issue,
  MAX_ISSUES,
  type OperationSpec,
  operations,
  type Scope,
  splitAgencyPrefix,
  statusesOf,
  toColonPath,
} from '@engagekit/contract';
import type { Context, Hono, Handler as HonoHandler, MiddlewareHandler } from 'hono';
import { getPath } from 'hono/utils/url';
import type { Env, RequestContext } from '../context.ts';
import { isIdempotencyKey, runIdempotent } from '../domain/idempotency.ts';
import { jsonAnswer } from '../http/answer.ts';
import { bearerToken, sha256Hex } from '../http/auth.ts';
import { readJsonBody } from '../http/body.ts';
import { errorBody, HttpError, validationError } from '../http/errors.ts';
import { requiredMessage, toIssue } from '../http/validate.ts';
import type { Store } from '../store/ports.ts';
import type { CompanyRecord } from '../store/types.ts';
import type { Handlers } from './types.ts';

/** Who is calling: the admin, a company's token (its company and scopes), or nobody (public operations). */
interface Caller {
  admin: boolean;
  companyUuid: string | null;
  scopes: Scope[];
  /** The bearer token; null for public operations. */
  token: string | null;
}

/** A request's input once validated, with the body as it was sent (an Idempotency-Key compares it). */
interface OperationInput {
  params: unknown;
  query: unknown;
  body: unknown;
  rawBody: unknown;
}

type Handler = (input: unknown) => Promise<{ status: number; body: unknown }>;

/**
 * Registers every operation of the contract on `app`, at its path and methods (and the path-prefix
 * form of agency calls): `answer`, which runs the steps of the request in order, behind
 * `documentedOnly` when the app checks its answers (`validateResponses`).
 */
export function registerOperations(app: Hono<Env>, handlers: Handlers, options: { validateResponses?: boolean | undefined } = {}): void {
  for (const op of Object.values(operations) as OperationSpec[]) {
    const answerOp = answer(op, handlers[op.operationId as keyof Handlers] as unknown as Handler);
    // The `/{uuid}/agency/...` form of agency paths reaches these routes too: the app routes on the path without it.
    for (const method of [op.method, ...(op.alsoAccepts ?? [])]) {
      const path = toColonPath(op.path);
      if (options.validateResponses) app.on(method.toUpperCase(), path, documentedOnly(op, method), answerOp);
      else app.on(method.toUpperCase(), path, answerOp);
    }
  }
}

/**
 * For an app that checks its answers (`validateResponses`): an answer whose status the document does
 * not list for the operation becomes a logged 500. The statuses of the steps of `answer` are listed in
 * the contract's `stepStatuses`, and a step that answers another breaks it.
 */
function documentedOnly(op: OperationSpec, method: HttpMethod): MiddlewareHandler<Env> {
  const documented = new Set(statusesOf(op, method));
  return async (c, next) => {
    await next();
    if (!documented.has(c.res.status)) {
      throw new Error(`${op.operationId} answered ${c.res.status}, which the document does not list for ${method.toUpperCase()} ${op.path}`);
    }
  };
}

/**
 * Answers a request for `op` (and sets `operationId`, which operation it named), step by step in the
 * order of the contract's `stepStatuses`: authenticate (401), rate-limit (429), validate params, query
 * and body together (400 naming every field), resolve the company (404), authorize (403), then run the
 * handler and answer with its status and body. A step refuses by throwing an HttpError, which the
 * app's `onError` answers. The steps are plain functions called in turn, not a middleware each: this
 * serves the row mock.inprocess.vs-prism, where the layers cost more than the steps' own work.
 */
function answer(op: OperationSpec, handler: Handler): HonoHandler<Env> {
  return async (c) => {
    c.set('operationId', op.operationId);
    const ctx = c.get('ctx');
    const caller = await authenticate(op, c.req.raw, ctx);
    if (caller.companyUuid !== null) c.set('companyUuid', caller.companyUuid);
    rateLimit(caller, ctx);
    const input = await validate(op, c);
    const company = await resolveCompany(op, ctx, caller, input);
    if (company) c.set('companyUuid', company.uuid);
    authorize(op, caller, company, input);
    return run(op, handler, c.req.raw, ctx, caller, input, company);
  };
}

/** 401 unless the operation is public or its bearer token is one it takes: who is calling. */
async function authenticate(op: OperationSpec, request: Request, ctx: RequestContext): Promise<Caller> {
  if (op.auth.kind === 'public') return { admin: false, companyUuid: null, scopes: [], token: null };
  const token = bearerToken(request);
  if (op.auth.kind !== 'company' && (await ctx.tokens.isAdminToken(token))) return { admin: true, companyUuid: null, scopes: [], token };
  if (op.auth.kind === 'admin') throw new HttpError(401, 'Unauthorized: this call needs the admin token');
  const claims = await ctx.tokens.verify(token, ctx.now);
  return { admin: false, companyUuid: claims.companyUuid, scopes: claims.scopes, token };
}

/**
 * The rate limit's key for a caller: its company, or `admin` for the admin token; null for public
 * operations. Not the token's text: a company's tokens share one bucket, so issuing more tokens (or
 * spelling one another way) buys no more requests.
 */
function rateLimitKey(caller: Caller): string | null {
  if (caller.admin) return 'admin';
  return caller.companyUuid === null ? null : `company:${caller.companyUuid}`;
}

/** 429 with Retry-After when the caller (its company, or the admin) has no request left this minute. */
function rateLimit(caller: Caller, ctx: RequestContext): void {
  const key = rateLimitKey(caller);
  if (key !== null) ctx.limiter.take(key, ctx.now.getTime());
}

/** 400 naming the bad fields of the params, query and body at once (the first MAX_ISSUES, with their count); the input once valid. Sets `body` (for `onAnswered`) as soon as it is read. */
async function validate(op: OperationSpec, c: Context<Env>): Promise<OperationInput> {
  const request = c.req.raw;
  const rawParams = c.req.param() as Record<string, string>;
  const rawQuery: Record<string, string> = {};
  const url = request.url;
  const q = url.indexOf('?');
  if (q !== -1) {
    const hash = url.indexOf('#', q);
    let twice: Set<string> | undefined;
    for (const [k, v] of new URLSearchParams(url.slice(q + 1, hash === -1 ? undefined : hash))) {
      if (Object.hasOwn(rawQuery, k)) {
        twice ??= new Set();
        twice.add(k);
      }
      rawQuery[k] = v;
    }
    // Which of two values is meant cannot be known: say so rather than pick one.
    if (twice) throw validationError([...twice].map((path) => ({ path, message: 'is given more than once; give it once' })));
  }
  // An agency call names its company as ?uuid= or as a /{uuid} path prefix (the query wins).
  if (op.surface === 'agency' && rawQuery.uuid === undefined) {
    const prefixUuid = splitAgencyPrefix(getPath(request)).uuid;
    if (prefixUuid) rawQuery.uuid = prefixUuid;
  }
  if (op.surface === 'agency' && !rawQuery.uuid) {
    throw new HttpError(400, 'Bad Request: Missing uuid parameter', {
      issues: [{ path: 'uuid', message: 'is required (as ?uuid= or a /{uuid}/agency/... prefix)' }],
    });
  }
  const rawBody = op.body ? await readJsonBody(request) : undefined;
  c.set('body', rawBody);
  // PostgreSQL text cannot hold NUL characters: refuse them here, naming the field, rather than fail deeper.
  if (holdsNul(rawParams) || holdsNul(rawQuery) || holdsNul(rawBody)) {
    const nul = [...nulPaths(rawParams), ...nulPaths(rawQuery), ...nulPaths(rawBody)];
    throw validationError(nul.map((path) => ({ path, message: 'must not contain NUL (\\u0000) characters' })));
  }
  const found: FoundIssues = { issues: [], total: 0 };
  const input = { params: parsed(op.params, rawParams, found), query: parsed(op.query, rawQuery, found), body: parsed(op.body, rawBody, found), rawBody };
  if (found.total > 0) throw validationError(found.issues, undefined, found.total);
  return input;
}

/** The uuid a call names: its `uuid` query parameter (agency calls) or path parameter (admin calls). */
function namedUuid(input: OperationInput): string | undefined {
  return (input.query as { uuid?: string } | undefined)?.uuid ?? (input.params as { uuid?: string } | undefined)?.uuid;
}

/**
 * The company the call acts for: the one an agency or admin call names (404 when unknown), or for
 * order calls the token's own (401 when it no longer exists); null when none.
 */
async function resolveCompany(op: OperationSpec, ctx: RequestContext, caller: Caller, input: OperationInput): Promise<CompanyRecord | null> {
  if (op.auth.kind === 'company' && op.surface !== 'agency') {
    const company = await ctx.company(caller.companyUuid as string);
    if (!company) throw new HttpError(401, 'Unauthorized: the token’s company no longer exists');
    return company;
  }
  const uuid = namedUuid(input);
  if (!uuid) return null;
  const company = await ctx.company(uuid);
  if (!company) throw new HttpError(404, 'No company found with the provided uuid');
  return company;
}

/**
 * 403 when a company token acts for another company, names another company_id, or lacks the
 * operation's scope: every kind of auth a company token may call (`company`, `admin-or-company`) is
 * checked here, scope and company together. The admin token passes (it was let in by `authenticate`).
 */
function authorize(op: OperationSpec, caller: Caller, company: CompanyRecord | null, input: OperationInput): void {
  if (op.auth.kind === 'public' || op.auth.kind === 'admin' || caller.admin) return;
  // An order call's company is the token's own (resolveCompany); any other names one, which must be the token's.
  if (!company || company.uuid !== caller.companyUuid) throw new HttpError(403, 'Forbidden: the token belongs to another company');
  const companyId = (input.body as { company_id?: string } | undefined)?.company_id;
  if (op.surface === 'order' && companyId !== undefined && companyId !== company.company_id) {
    throw new HttpError(403, 'Forbidden: company_id is not the token’s company', {
      issues: [{ path: 'company_id', message: `must be the token’s company (${company.company_id})` }],
    });
  }
  if (!caller.scopes.includes(op.auth.scope)) {
    throw new HttpError(403, `Forbidden: the token lacks the ${op.auth.scope} scope, which ${op.operationId} needs`);
  }
}

/** Runs the operation's handler (once per Idempotency-Key, a retry answering as the first request did) and answers. */
async function run(
  op: OperationSpec,
  handler: Handler,
  request: Request,
  ctx: RequestContext,
  caller: Caller,
  input: OperationInput,
  company: CompanyRecord | null,
): Promise<Response> {
  const idempotencyKey = op.method === 'get' ? undefined : (request.headers.get('idempotency-key') ?? undefined);
  // Under an Idempotency-Key the handler runs in a transaction that also keeps the key's answer (`tx`).
  const execute = (tx?: Store) => handler({ params: input.params, query: input.query, body: input.body, company, ctx: tx ? { ...ctx, store: tx } : ctx });
  const scope = caller.companyUuid ?? (caller.admin ? 'admin' : 'public');
  const { status, body, replayed } =
    idempotencyKey === undefined ? { ...(await execute()), replayed: false } : await runOnce(ctx, idempotencyKey, scope, request, input.rawBody, execute);
  if (replayed) return jsonAnswer(body, status, ctx.requestId, { headers: { 'idempotent-replayed': 'true' } });
  if (ctx.config.validateResponses) {
    const schema = (op.responses as Record<number, { schema: { safeParse(v: unknown): { success: boolean; error?: unknown } } } | undefined>)[status]?.schema;
    const r = schema?.safeParse(body);
    if (!r?.success)
      throw new Error(`${op.operationId} answered ${status} with a body that breaks the contract: ${JSON.stringify(r?.error ?? 'no such status')}`);
  }
  return jsonAnswer(body, status, ctx.requestId);
}

/** The issues of a request's parts as an answer lists them (the first MAX_ISSUES), and how many there were. */
interface FoundIssues {
  issues: Issue[];
  total: number;
}

/**
 * `raw` parsed by `schema` (undefined without one); its issues, if any, are counted in `found` and
 * the first of them kept. One at a time: spreading 200,000 issues into a call's arguments overflows
 * the call stack.
 */
function parsed(schema: OperationSpec['body'], raw: unknown, found: FoundIssues): unknown {
  if (!schema) return undefined;
  const r = schema.safeParse(raw, { error: requiredMessage });
  if (r.success) return r.data;
  found.total += r.error.issues.length;
  for (const issue of r.error.issues) {
    if (found.issues.length === MAX_ISSUES) break;
    found.issues.push(toIssue(issue));
  }
  return undefined;
}

/**
 * Whether any string (or key) inside a parsed JSON value holds a NUL character. The fast path of the
 * NUL check of `validate`: nearly no request holds one, and this walk builds no paths, where
 * `nulPaths` builds one per value (benchmark rows mock.http.cpu.vs-node-http and
 * mock.inprocess.cpu.vs-hono). Without recursion, as `nulPaths`.
 */
export function holdsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (v && typeof v === 'object') {
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        if (key.includes('\u0000')) return true;
        stack.push((v as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/**
 * Paths of every string (or key) holding a NUL character inside a parsed JSON value, in document
 * order. It walks without recursion (findInJson): a body nested thousands deep must get its 400 from
 * validation, not overflow the call stack here.
 */
export function nulPaths(value: unknown): string[] {
  const found: string[] = [];
  findInJson(value, (v, path) => {
    if (typeof v === 'string' && v.includes('\u0000')) found.push(path.join('.'));
    if (v && typeof v === 'object' && !Array.isArray(v)) for (const key of Object.keys(v)) if (key.includes('\u0000')) found.push([...path, key].join('.'));
    return undefined;
  });
  return found;
}

/**
 * Runs a write under its Idempotency-Key (domain/idempotency.ts); the key's scope is the caller. A
 * malformed key, a key used with another request, and one whose first request still runs are refused
 * here; a client error's answer is kept as the request's answer.
 */
async function runOnce(
  ctx: RequestContext,
  key: string,
  scope: string,
  req: Request,
  rawBody: unknown,
  execute: (tx: Store) => Promise<{ status: number; body: unknown }>,
): Promise<{ status: number; body: unknown; replayed: boolean }> {
  if (!isIdempotencyKey(key)) {
    throw new HttpError(400, 'Invalid request: the Idempotency-Key header must be 1 to 255 visible ASCII characters', {
      issues: [{ path: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }],
    });
  }
  const url = new URL(req.url);
  const requestHash = await sha256Hex(`${req.method} ${url.pathname}${url.search}\n${JSON.stringify(rawBody ?? null)}`);
  const lease = { claimToken: ctx.leases.claimToken, leaseUntil: ctx.leases.until() };
  const keptAnswer = (e: unknown) => (e instanceof HttpError && e.status < 500 ? { status: e.status, body: errorBody(e, ctx.requestId) } : null);
  const ran = await runIdempotent(ctx.store, { scope, key, requestHash, now: ctx.write.now, ...lease }, execute, keptAnswer);
  if (ran.outcome === 'key_reused') {
    throw new HttpError(400, 'Invalid request: this Idempotency-Key was used with another request; use a new key for a new request', {
      code: 'idempotency_key_reused',
      issues: [{ path: 'Idempotency-Key', message: 'was used with another request' }],
    });
  }
  if (ran.outcome === 'in_progress') {
    throw new HttpError(409, 'A request with this Idempotency-Key is still running; retry when it has answered', {
      code: 'idempotency_in_progress',
      headers: { 'retry-after': String(ran.retryAfterS) },
    });
  }
  return ran;
}
