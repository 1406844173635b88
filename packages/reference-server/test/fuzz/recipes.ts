/**
 * What the property fuzzer sends, as small recipes: an operation, its params, query and body derived
 * from the contract's schemas (mostly valid, with known ids in the right places), the credentials,
 * maybe an Idempotency-Key, and maybe one hostile mutation. A recipe names known ids by placeholders
 * (`@company`, `@campaign:3`) that `realize` (realize.ts) resolves against what the server holds, so a
 * failing recipe stays short enough to read.
 */
import { type OperationSpec, operations } from '@engagekit/contract';
import fc from 'fast-check';
import { arbitraryFromSchema, type JsonSchema, jsonSchemaOf, type SchemaHint } from './schema-arbitrary.ts';

/** Whose credentials a request carries. */
export type Credentials = 'admin' | 'company' | 'agencyOnly' | 'ordersOnly' | 'otherCompany' | 'none' | 'garbage';

/** Where in a request a mutation lands; `at` picks one of the candidates there, `freeForm` prefers a free-form field. */
export interface Place {
  where: 'body' | 'query' | 'path';
  at: number;
  freeForm: boolean;
}

/** One hostile change to an otherwise generated request. */
export type Mutation =
  | { kind: 'deep'; levels: number; container: 'object' | 'array'; place: Place }
  | { kind: 'bigArray'; size: number; item: string; place: Place }
  | { kind: 'nul'; inKey: boolean; place: Place }
  | { kind: 'loneSurrogate'; inKey: boolean; place: Place }
  | { kind: 'numberEdge'; text: string; place: Place }
  | { kind: 'protoKey'; key: string; value: string; place: Place }
  | { kind: 'duplicateQuery'; place: Place }
  | { kind: 'unknownParam'; where: 'query' | 'body'; name: string }
  | { kind: 'wrongType'; as: WrongType; place: Place }
  | { kind: 'hugeString'; length: number; place: Place }
  | { kind: 'contentType'; value: string | null }
  | { kind: 'notJson'; text: string };

export type WrongType = 'string' | 'number' | 'object' | 'array' | 'boolean' | 'null';

/** A request to send, before placeholders are resolved and mutations applied. */
export interface Recipe {
  operationId: string;
  /** Upper case: the operation's method or one it also accepts. */
  method: string;
  /** Agency calls only: the company as a `/{uuid}` path prefix instead of `?uuid=`. */
  uuidInPath: boolean;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  /** Undefined when the operation takes no body. */
  body: unknown;
  credentials: Credentials;
  /** Sent to the same server with a rate limit its tokens have used up: once authenticated, a 429. */
  rateLimited: boolean;
  /**
   * An Idempotency-Key (writes only), and whether the request is sent again with it: `after` the first
   * answer (which must come back the same), or `together` with the first (one may be a 409 while the
   * other runs, but never may both run).
   */
  idempotency: { key: string; repeat: 'no' | 'after' | 'together' } | undefined;
  mutation: Mutation | undefined;
}

const known = (name: string, choices = 8) => fc.nat(choices - 1).map((i) => `@${name}:${i}`);

/** Mostly `value`, now and then what the schema gives (unknown ids, other shapes). */
const mostly = (value: fc.Arbitrary<unknown>, follow: () => fc.Arbitrary<unknown>, weight = 8) =>
  fc.oneof({ weight, arbitrary: value }, { weight: 10 - weight, arbitrary: follow() });

const TIME_ZONES = ['UTC', 'Asia/Kolkata', 'America/New_York', 'Europe/Paris', 'Pacific/Kiritimati', 'America/St_Johns', 'Australia/Lord_Howe'];
const REFUSED_URLS = [
  'http://127.0.0.1/hook',
  'http://169.254.169.254/latest/meta-data',
  'http://[::1]/hook',
  'http://localhost:8080/',
  'http://10.0.0.7/x',
  'ftp://files.example.com/x',
  'https://user:secret@example.com/hook',
  'not a url',
];
const webhookOps = new Set(
  Object.values(operations as Record<string, OperationSpec>)
    .filter((o) => o.auth.kind === 'admin-or-company')
    .map((o) => o.operationId),
);

/** Known values at the places where the handlers look things up, so most requests find what they name. */
function hintFor(op: OperationSpec, part: 'params' | 'query' | 'body'): SchemaHint {
  return (path, _schema, follow) => {
    const at = path.join('.');
    if (part !== 'body') {
      if (at === 'uuid')
        return fc.oneof({ weight: 8, arbitrary: fc.constant('@company') }, { weight: 1, arbitrary: fc.constant('@other') }, { weight: 1, arbitrary: follow() });
      if (at === 'id' && op.operationId === 'getCampaign') return mostly(known('campaign'), follow, 7);
      if (at === 'id' && op.operationId === 'deleteWebhook') return mostly(known('spareWebhook'), follow, 7);
      if (at === 'id' && webhookOps.has(op.operationId))
        return fc.oneof({ weight: 7, arbitrary: fc.constant('@webhook') }, { weight: 1, arbitrary: known('spareWebhook') }, { weight: 2, arbitrary: follow() });
      if (at === 'deliveryId') return mostly(known('delivery'), follow, 7);
      if (at === 'orderId') return mostly(known('order'), follow, 7);
      return undefined;
    }
    if (at === 'company_id' && op.surface === 'order')
      return fc.oneof(
        { weight: 8, arbitrary: fc.constant('@companyCode') },
        { weight: 1, arbitrary: fc.constant('@otherCode') },
        { weight: 1, arbitrary: follow() },
      );
    if (at === 'company_order_id') return mostly(known('order'), follow, 2);
    if (at === 'company_id' && op.operationId === 'createCompany') return mostly(fc.constant('@companyCode'), follow, 1);
    if (at === 'timezone') return mostly(fc.constantFrom(...TIME_ZONES), follow, 8);
    if (at === 'name' && op.operationId === 'createCampaign') return mostly(fc.constant('Fuzz campaign'), follow, 1);
    if (at === 'url') return fc.oneof({ weight: 8, arbitrary: follow() }, { weight: 2, arbitrary: fc.constantFrom(...REFUSED_URLS) });
    return undefined;
  };
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const unique = (v: unknown) => (Array.isArray(v) ? [...new Set(v)] : v);

/**
 * The rules across fields that a JSON Schema cannot say, kept by most generated bodies: a campaign's
 * values match the variables its template declares and a recurring one lists days; event types and
 * scopes are not repeated.
 */
const crossFieldRules: Partial<Record<string, (body: Json) => Json>> = {
  createCampaign(body) {
    const payload = body.template_payload;
    const out = { ...body };
    if (isObject(payload)) {
      const declared = [payload.header_variable, payload.body_variable].flatMap((v) => (Array.isArray(v) ? v : [])).map(String);
      const given = isObject(payload.variables) ? payload.variables : {};
      out.template_payload = { ...payload, variables: Object.fromEntries(declared.map((name) => [name, given[name] ?? '{{customer.firstName}}'])) };
    }
    if (out.schedule_type === 'recurring' && !isObject(out.days)) out.days = { monday: ['09:00'], friday: ['18:30'] };
    return out;
  },
  createWebhook: (body) => ({ ...body, events: unique(body.events) }),
  updateWebhook: (body) => (body.events === undefined ? body : { ...body, events: unique(body.events) }),
  createToken: (body) => (body.scopes === undefined ? body : { ...body, scopes: unique(body.scopes) }),
};

/** Names of the free-form object properties of a body schema (order attributes): objects that take any keys and any values. */
export function freeFormFields(op: OperationSpec): string[] {
  if (!op.body) return [];
  const root = jsonSchemaOf(op.body);
  const s = root.$ref ? (root.$defs?.[root.$ref.replace('#/$defs/', '')] ?? root) : root;
  const anyValue = (p: JsonSchema) =>
    p.additionalProperties === undefined || (isObject(p.additionalProperties) && Object.keys(p.additionalProperties).length === 0);
  return Object.entries(s.properties ?? {})
    .filter(([, p]) => p.type === 'object' && !p.properties && anyValue(p))
    .map(([name]) => name);
}

const NUMBER_EDGES = ['-0', '1e308', '-1e308', '5e-324', String(Number.MAX_SAFE_INTEGER + 2), '"NaN"', '"Infinity"', '"1e309"', '1e309', '-1e309'];
const CONTENT_TYPES = [
  null,
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/merge-patch+json',
];
const NOT_JSON = ['{', '{"a":', "{'a':1}", '{"a":1}}', 'undefined', 'NaN', '\uFEFF{}', '[]', 'null', '"text"', '42', 'true', '{"a":1,}', '\u0000'];

function mutationsFor(op: OperationSpec): fc.Arbitrary<Mutation> {
  const hasBody = op.body !== undefined;
  const wheres: Place['where'][] = [...(hasBody ? (['body', 'body'] as const) : []), 'query', ...(op.params ? (['path'] as const) : [])];
  const place = fc.record({ where: fc.constantFrom(...wheres), at: fc.nat(1000), freeForm: fc.boolean() });
  const kinds: fc.Arbitrary<Mutation>[] = [
    fc.record({
      kind: fc.constant('deep' as const),
      levels: fc.constantFrom(40, 5000),
      container: fc.constantFrom('object' as const, 'array' as const),
      place,
    }),
    fc.record({ kind: fc.constant('bigArray' as const), size: fc.constant(20_000), item: fc.constantFrom('0', '{}', '"x"', 'null', '[]'), place }),
    fc.record({ kind: fc.constant('nul' as const), inKey: fc.boolean(), place }),
    fc.record({ kind: fc.constant('loneSurrogate' as const), inKey: fc.boolean(), place }),
    fc.record({ kind: fc.constant('numberEdge' as const), text: fc.constantFrom(...NUMBER_EDGES), place }),
    fc.record({
      kind: fc.constant('protoKey' as const),
      key: fc.constantFrom('__proto__', 'constructor', 'prototype'),
      value: fc.constantFrom('{"polluted":true}', 'null', '1', '[]', '{"toString":1}'),
      place,
    }),
    fc.record({ kind: fc.constant('duplicateQuery' as const), place }),
    fc.record({
      kind: fc.constant('unknownParam' as const),
      where: hasBody ? fc.constantFrom('query' as const, 'body' as const) : fc.constant('query' as const),
      name: fc.constantFrom('extra', 'admin', 'id', 'company_uuid', 'toString', 'hasOwnProperty', 'version'),
    }),
    fc.record({ kind: fc.constant('wrongType' as const), as: fc.constantFrom<WrongType>('string', 'number', 'object', 'array', 'boolean', 'null'), place }),
    // 100,000 characters, and now and then a body past the 1 MB limit (413).
    fc.record({ kind: fc.constant('hugeString' as const), length: fc.constantFrom(100_000, 100_000, 100_000, 1_100_000), place }),
  ];
  if (hasBody) {
    kinds.push(
      fc.record({ kind: fc.constant('contentType' as const), value: fc.constantFrom(...CONTENT_TYPES) }),
      fc.record({ kind: fc.constant('notJson' as const), text: fc.oneof(fc.constantFrom(...NOT_JSON), fc.string({ maxLength: 40 })) }),
    );
  }
  return fc.oneof(...kinds);
}

function credentialsFor(op: OperationSpec): fc.Arbitrary<Credentials> {
  if (op.auth.kind === 'public') return pick(['none']);
  if (op.auth.kind === 'admin') return pick(['admin']);
  // A company token with the operation's scope alone, or with both; the admin token too where it is taken.
  const scoped: Credentials = op.auth.scope === 'agency' ? 'agencyOnly' : 'ordersOnly';
  return pick(op.auth.kind === 'admin-or-company' ? ['admin', 'company', scoped] : [scoped, 'company']);
}

/** Mostly credentials the operation takes (`right`), sometimes others. */
function pick(right: Credentials[]): fc.Arbitrary<Credentials> {
  const wrong = (['admin', 'company', 'agencyOnly', 'ordersOnly', 'otherCompany', 'none', 'garbage'] as const).filter((c) => !right.includes(c));
  return fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...right) }, { weight: 2, arbitrary: fc.constantFrom(...wrong) });
}

/** Recipes for one operation: its schemas' values, credentials, an Idempotency-Key on writes, and a mutation half the time. */
export function recipesFor(op: OperationSpec): fc.Arbitrary<Recipe> {
  const part = (name: 'params' | 'query' | 'body') => {
    const schema = op[name];
    if (!schema) return fc.constant(name === 'body' ? undefined : {});
    const derived = arbitraryFromSchema(jsonSchemaOf(schema), { hint: hintFor(op, name) });
    // URL parsers drop a `.` or `..` path segment (and its `%2E` forms): such a value never reaches the operation.
    const values = name === 'params' ? derived.filter((p) => Object.values(p as Json).every((v) => v !== '.' && v !== '..')) : derived;
    const rule = name === 'body' ? crossFieldRules[op.operationId] : undefined;
    if (!rule) return values;
    // Most bodies keep the rules; the rest show that breaking them is a 400.
    return fc.tuple(values, fc.nat(9)).map(([v, roll]) => (roll > 0 && isObject(v) ? rule(v) : v));
  };
  const idempotency =
    op.method === 'get'
      ? fc.constant(undefined)
      : fc.oneof(
          { weight: 7, arbitrary: fc.constant(undefined) },
          { weight: 2, arbitrary: fc.record({ key: fc.uuid(), repeat: fc.constantFrom('no' as const, 'after' as const, 'together' as const) }) },
          {
            weight: 1,
            arbitrary: fc.record({ key: fc.constantFrom('fuzz-key-1', 'a key with spaces', 'k'.repeat(256), ''), repeat: fc.constant('no' as const) }),
          },
        );
  return fc.record({
    operationId: fc.constant(op.operationId),
    method: fc.constantFrom(...[op.method, ...(op.alsoAccepts ?? [])].map((m) => m.toUpperCase())),
    uuidInPath: op.surface === 'agency' ? fc.boolean() : fc.constant(false),
    params: part('params') as fc.Arbitrary<Record<string, unknown>>,
    query: part('query') as fc.Arbitrary<Record<string, unknown>>,
    body: part('body'),
    credentials: credentialsFor(op),
    rateLimited: fc.oneof({ weight: 19, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    idempotency,
    mutation: fc.option(mutationsFor(op), { nil: undefined, freq: 2 }),
  });
}

/** Recipes for every operation of the contract, each operation as likely as any other. */
export function recipes(): fc.Arbitrary<Recipe> {
  return fc.oneof(...(Object.values(operations) as OperationSpec[]).map(recipesFor));
}
