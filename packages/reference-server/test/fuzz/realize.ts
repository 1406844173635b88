/**
 * Turns a recipe (recipes.ts) into the request it stands for: placeholders resolved to the ids the
 * server holds, the path, query and headers built, and the mutation written into the JSON text itself
 * (so `__proto__` really is a key of the body and `-0` really is `-0`).
 */
import { type OperationSpec, operations } from '@engagekit/contract';
import { type Credentials, freeFormFields, type Mutation, type Place, type Recipe, type WrongType } from './recipes.ts';

/** What the server holds that requests may name: two companies, their tokens, and ids learnt from earlier answers. */
export interface World {
  adminToken: string;
  company: { uuid: string; code: string };
  other: { uuid: string; code: string };
  tokens: { company: string; agencyOnly: string; ordersOnly: string; otherCompany: string };
  campaigns: string[];
  /** The endpoint most webhook requests name; never deleted. */
  webhook: string;
  /** Endpoints deleteWebhook may take. */
  spareWebhooks: string[];
  /** Deliveries to `webhook`. */
  deliveries: string[];
  orders: string[];
}

/** A request as it is sent: path and query already percent-encoded. */
export interface FuzzRequest {
  method: string;
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  body: string | undefined;
}

export const urlOf = (r: FuzzRequest) => (r.query.length ? `${r.path}?${r.query.map(([k, v]) => `${k}=${v}`).join('&')}` : r.path);

const GARBAGE_AUTH = 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.';
const LONE_SURROGATE_URL = '%ED%A0%80';

function authorization(c: Credentials, world: World): string | undefined {
  if (c === 'none') return undefined;
  if (c === 'garbage') return GARBAGE_AUTH;
  if (c === 'admin') return `Bearer ${world.adminToken}`;
  return `Bearer ${world.tokens[c]}`;
}

/** A placeholder's value, or the value itself when it is none. */
function resolveOne(value: string, world: World): string {
  const m = /^@(\w+)(?::(\d+))?$/.exec(value);
  if (!m) return value;
  const i = Number(m[2] ?? 0);
  const from = (list: string[], none: string) => (list.length ? (list[i % list.length] as string) : none);
  switch (m[1]) {
    case 'company':
      return world.company.uuid;
    case 'other':
      return world.other.uuid;
    case 'companyCode':
      return world.company.code;
    case 'otherCode':
      return world.other.code;
    case 'campaign':
      return from(world.campaigns, 'cmp_none');
    case 'webhook':
      return world.webhook;
    case 'spareWebhook':
      return from(world.spareWebhooks, 'wh_none');
    case 'delivery':
      return from(world.deliveries, 'dlv_none');
    case 'order':
      return from(world.orders, 'ORDER-NONE');
    default:
      return value;
  }
}

/** A copy of `value` with every placeholder (`@company`, `@campaign:3`) resolved against `world`. */
export function resolved(value: unknown, world: World): unknown {
  if (typeof value === 'string') return resolveOne(value, world);
  if (Array.isArray(value)) return value.map((v) => resolved(v, world));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolved(v, world)]));
  return value;
}

type JsonPath = (string | number)[];

/** Paths of every value in `value`, root first, breadth first (at most `limit`). */
function placesOf(value: unknown, limit = 200): { path: JsonPath; value: unknown }[] {
  const out: { path: JsonPath; value: unknown }[] = [];
  const queue: { path: JsonPath; value: unknown }[] = [{ path: [], value }];
  while (queue.length > 0 && out.length < limit) {
    const next = queue.shift() as (typeof queue)[number];
    out.push(next);
    const v = next.value;
    const children: [string | number, unknown][] = Array.isArray(v)
      ? v.map((item, i) => [i, item])
      : typeof v === 'object' && v !== null
        ? Object.entries(v)
        : [];
    for (const [k, item] of children) queue.push({ path: [...next.path, k], value: item });
  }
  return out;
}

function setAt(root: unknown, path: JsonPath, value: unknown): unknown {
  if (path.length === 0) return value;
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = value;
  return root;
}

const WRONG_TYPE_JSON: Record<WrongType, string> = { string: '"12"', number: '12', object: '{"0":1}', array: '[1]', boolean: 'true', null: 'null' };
const WRONG_TYPE_QUERY: Record<WrongType, string> = {
  string: 'abc',
  number: '12',
  object: '%7B%22a%22%3A1%7D',
  array: '%5B1%2C2%5D',
  boolean: 'true',
  null: 'null',
};

/**
 * Raw JSON text written at a sentinel: a value replaces a sentinel string, a key/value pair a sentinel
 * property. JSON.stringify escapes the U+0001 the sentinels hold, so they cannot collide with real text.
 */
class RawJson {
  readonly #raw = new Map<string, string>();
  #n = 0;
  value(text: string): string {
    const sentinel = `\u0001raw${this.#n++}\u0001`;
    this.#raw.set(JSON.stringify(sentinel), text);
    return sentinel;
  }
  /** Adds `"key": value` (both raw JSON text) to `object`. */
  entry(object: Record<string, unknown>, keyText: string, valueText: string): void {
    const sentinel = `\u0001raw${this.#n++}\u0001`;
    object[sentinel] = 0;
    this.#raw.set(`${JSON.stringify(sentinel)}:0`, `${keyText}:${valueText}`);
  }
  stringify(value: unknown): string {
    let text = JSON.stringify(value) ?? 'null';
    for (const [sentinel, raw] of this.#raw) text = text.replace(sentinel, () => raw);
    return text;
  }
}

const deepJson = (levels: number, container: 'object' | 'array') =>
  container === 'array' ? `${'['.repeat(levels)}${']'.repeat(levels)}` : `${'{"a":'.repeat(levels - 1)}{"a":1}${'}'.repeat(levels - 1)}`;

/** The body text with a body mutation written into it. */
function mutateBody(body: unknown, m: Mutation & { place: Place }, op: OperationSpec): string {
  const raw = new RawJson();
  let root = body;
  const free = m.place.freeForm ? freeFormFields(op) : [];
  let places = placesOf(root);
  if (free.length > 0 && typeof root === 'object' && root !== null && !Array.isArray(root)) {
    // Inside a free-form field, where any JSON is allowed: only the limits on it stand between the value and the store.
    const field = free[m.place.at % free.length] as string;
    const holder: Record<string, unknown> = { x: 1 };
    (root as Record<string, unknown>)[field] = holder;
    places = [{ path: [field, 'x'], value: 1 }];
  }
  const target = places[m.place.at % places.length] ?? { path: [], value: root };
  const objects = places.filter((p) => typeof p.value === 'object' && p.value !== null && !Array.isArray(p.value));
  const object = objects.length ? (objects[m.place.at % objects.length] as (typeof objects)[number]) : undefined;
  const addEntry = (keyText: string, valueText: string) => {
    if (object) raw.entry(object.value as Record<string, unknown>, keyText, valueText);
    else root = raw.value(`{${keyText}:${valueText}}`);
  };
  // Inside a free-form field the key goes into the field's own object.
  const inFree = free.length > 0 ? (target.path[0] as string) : undefined;
  const addKey = (keyText: string, valueText: string) => {
    if (inFree) raw.entry((root as Record<string, Record<string, unknown>>)[inFree] as Record<string, unknown>, keyText, valueText);
    else addEntry(keyText, valueText);
  };
  const replace = (text: string) => {
    root = setAt(root, target.path, raw.value(text));
  };
  switch (m.kind) {
    case 'deep':
      replace(deepJson(m.levels, m.container));
      break;
    case 'bigArray':
      replace(`[${new Array(m.size).fill(m.item).join(',')}]`);
      break;
    case 'nul':
      if (m.inKey) addKey('"k\\u0000ey"', '"v"');
      else replace('"a\\u0000b"');
      break;
    case 'loneSurrogate':
      if (m.inKey) addKey('"k\\ud800"', '"v"');
      else replace('"a\\ud800b"');
      break;
    case 'numberEdge':
      replace(m.text);
      break;
    case 'protoKey':
      addKey(JSON.stringify(m.key), m.value);
      break;
    case 'wrongType':
      replace(WRONG_TYPE_JSON[m.as]);
      break;
    case 'hugeString':
      replace(`"${'x'.repeat(m.length)}"`);
      break;
    default:
      break;
  }
  return raw.stringify(root);
}

/** The query with a query mutation applied (pairs already encoded). */
function mutateQuery(query: [string, string][], m: Mutation & { place: Place }): [string, string][] {
  const out = query.map((p) => [...p] as [string, string]);
  const i = out.length ? m.place.at % out.length : -1;
  const key = i >= 0 ? (out[i] as [string, string])[0] : 'q';
  const setValue = (v: string) => {
    if (i >= 0) (out[i] as [string, string])[1] = v;
    else out.push([key, v]);
  };
  switch (m.kind) {
    case 'deep':
      out.push([`${key}${'%5Ba%5D'.repeat(m.levels)}`, '1']);
      break;
    case 'bigArray':
      for (let n = 0; n < m.size; n++) out.push([`${key}%5B%5D`, '0']);
      break;
    case 'nul':
      if (m.inKey) out.push(['k%00', '1']);
      else setValue('a%00b');
      break;
    case 'loneSurrogate':
      if (m.inKey) out.push([`k${LONE_SURROGATE_URL}`, '1']);
      else setValue(`a${LONE_SURROGATE_URL}b`);
      break;
    case 'numberEdge':
      setValue(encodeURIComponent(m.text.replaceAll('"', '')));
      break;
    case 'protoKey':
      out.push([m.key, encodeURIComponent(m.value)]);
      break;
    case 'duplicateQuery':
      if (i >= 0) out.push([key, (out[i] as [string, string])[1]]);
      else out.push(['x', '1'], ['x', '2']);
      break;
    case 'wrongType':
      setValue(WRONG_TYPE_QUERY[m.as]);
      break;
    case 'hugeString':
      setValue('x'.repeat(m.length));
      break;
    default:
      break;
  }
  return out;
}

/** A path parameter's encoded value under a mutation, or undefined when the mutation has none for paths. */
function mutatedSegment(m: Mutation & { place: Place }): string | undefined {
  switch (m.kind) {
    case 'nul':
      return 'a%00b';
    case 'loneSurrogate':
      return `a${LONE_SURROGATE_URL}b`;
    case 'numberEdge':
      return encodeURIComponent(m.text.replaceAll('"', ''));
    case 'protoKey':
      return m.key;
    case 'hugeString':
      return 'x'.repeat(m.length);
    case 'deep':
      return encodeURIComponent(deepJson(m.levels, m.container)).slice(0, 100_000);
    case 'wrongType':
      return WRONG_TYPE_QUERY[m.as];
    default:
      return undefined;
  }
}

/** The request a recipe stands for, against what `world` holds now. */
export function realize(recipe: Recipe, world: World): FuzzRequest {
  const op = (operations as Record<string, OperationSpec>)[recipe.operationId] as OperationSpec;
  const params = resolved(recipe.params, world) as Record<string, unknown>;
  const query = resolved(recipe.query, world) as Record<string, unknown>;
  let body: unknown = resolved(recipe.body, world);
  const m = recipe.mutation;
  // A mutation aimed where the operation has nothing goes to the query instead.
  const where = m && 'place' in m ? (m.place.where === 'body' && body === undefined ? 'query' : m.place.where) : undefined;

  const names = Object.keys(params);
  const segments: Record<string, string> = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, encodeURIComponent(String(v))]));
  if (m && 'place' in m && where === 'path' && names.length > 0) {
    const segment = mutatedSegment(m);
    if (segment !== undefined) segments[names[m.place.at % names.length] as string] = segment;
  }
  let path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => segments[name] ?? '');
  if (recipe.uuidInPath && typeof query.uuid === 'string') {
    path = `/${encodeURIComponent(query.uuid)}${path}`;
    delete query.uuid;
  }

  let pairs: [string, string][] = Object.entries(query)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [encodeURIComponent(k), encodeURIComponent(String(v))]);
  if (m && 'place' in m && (where === 'query' || (where === 'path' && names.length === 0) || m.kind === 'duplicateQuery')) pairs = mutateQuery(pairs, m);
  if (m?.kind === 'unknownParam' && m.where === 'query') pairs.push([m.name, '1']);

  const headers: Record<string, string> = {};
  const auth = authorization(recipe.credentials, world);
  if (auth) headers.authorization = auth;
  if (recipe.idempotency) headers['idempotency-key'] = recipe.idempotency.key;

  let text: string | undefined;
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    if (m?.kind === 'unknownParam' && m.where === 'body' && typeof body === 'object' && body !== null && !Array.isArray(body)) {
      body = { ...body, [m.name]: 1 };
    }
    text = m && 'place' in m && where === 'body' ? mutateBody(body, m, op) : JSON.stringify(body);
    if (m?.kind === 'notJson') text = m.text;
    if (m?.kind === 'contentType') {
      if (m.value === null) delete headers['content-type'];
      else headers['content-type'] = m.value;
    }
  }
  return { method: recipe.method, path, query: pairs, headers, body: text };
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);

/** A request as a person reads it in a failure: long paths, queries and bodies cut short, tokens named rather than shown. */
export function describeRequest(r: FuzzRequest, world: World): string {
  const names = new Map<string, string>([
    [`Bearer ${world.adminToken}`, 'Bearer <admin token>'],
    ...Object.entries(world.tokens).map(([name, token]) => [`Bearer ${token}`, `Bearer <${name} token>`] as [string, string]),
  ]);
  const headers = Object.entries(r.headers).map(([k, v]) => `  ${k}: ${clip(names.get(v) ?? v, 120)}`);
  return [`${r.method} ${clip(urlOf(r), 400)}`, ...headers, ...(r.body === undefined ? [] : ['', clip(r.body, 1500)])].join('\n');
}
