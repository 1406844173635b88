/**
 * The last step of `pnpm build`: writes dist/docs-index.json, what `search_docs` answers from and the
 * table the sandbox's `client` is made from. Sources: the contract's OpenAPI document (operations,
 * parameters, schemas, error statuses) with its SDK calls (`sdkCalls`, the `x-codeSamples`, each
 * typechecked against the SDK), the SDK's method table (each method's signature and where its page
 * parameters go), the SDK's error classes, the prose of the SDK's README, and the sandbox guide.
 *
 * The company client's methods come from the contract's SDK calls; the build checks them against the
 * built SDK's own client and its method table, so a method the SDK gains shows up here (or the build
 * says why not).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { errorCodes } from '@engagekit/contract';
import { createOpenApiDocument, sdkCalls } from '@engagekit/contract/document';
import { APIError, createClient } from '@engagekit/sdk';
import { companyClientMethods } from '../../sdk/src/methods.ts';
import type { DocEntry, DocsIndex, SdkMethod } from '../src/internal/docs-index.ts';
import { REHEARSAL_EXAMPLE, SANDBOX_GUIDE } from '../src/internal/guide.ts';
import { countTerms } from '../src/internal/tokenize.ts';
import { OPERATION_ERRORS, operationError } from './operation-errors.ts';
import { oneLine, refName, type Schema, SchemaRenderer } from './render-schema.ts';

interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  description?: string;
  schema: Schema;
}

interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content: { 'application/json': { schema: Schema } } };
  responses: Record<string, { $ref?: string; description?: string; content?: { 'application/json'?: { schema: Schema } } }>;
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; responses: Record<string, { description: string }> };
}

const here = (path: string) => new URL(path, import.meta.url);
const pkg = JSON.parse(readFileSync(here('../package.json'), 'utf8')) as { version: string };
const document = createOpenApiDocument() as unknown as Document;
const render = new SchemaRenderer(document.components.schemas);
const readme = readFileSync(here('../../sdk/README.md'), 'utf8');

/** The contract's `errorCodes`: the `code` of the error envelope for each status. */
const ERROR_CODES: Record<number, string> = errorCodes;
/** The SDK's error class for a status, as the SDK picks it. */
const errorClass = (status: number) => APIError.from(status, undefined, new Headers()).name;

// ---- The company client's methods -------------------------------------------------------------

/** The SDK's method table: `campaigns.create(body)` and where a list's params go, by method name. */
const tableMethods = new Map(companyClientMethods().map((m) => [m.name, m]));

/** `client.campaigns.create(` in a sample -> `campaigns.create`. */
const methodOf = (call: string) => /\bclient\.([a-zA-Z]+\.[a-zA-Z]+)\(/.exec(call)?.[1];

interface Found {
  method: SdkMethod;
  operation: Operation;
  example: string;
}

const found: Found[] = [];
for (const [path, item] of Object.entries(document.paths)) {
  for (const [verb, operation] of Object.entries(item)) {
    const sample = sdkCalls[operation.operationId as keyof typeof sdkCalls];
    if (sample?.caller !== 'client') continue;
    const name = methodOf(sample.call);
    if (!name) throw new Error(`sdkCalls.${operation.operationId} calls no client method: ${sample.call}`);
    const row = tableMethods.get(name);
    if (!row)
      throw new Error(`sdkCalls.${operation.operationId} calls client.${name}, which the SDK's method table (packages/sdk/src/methods.ts) does not have.`);
    found.push({
      method: {
        name,
        signature: row.signature,
        arity: row.params.length,
        operationId: operation.operationId,
        httpMethod: verb.toUpperCase() as SdkMethod['httpMethod'],
        path,
        summary: operation.summary ?? '',
        ...(row.pageParamsIndex !== undefined ? { pageParamsIndex: row.pageParamsIndex } : {}),
      },
      operation,
      example: sample.call,
    });
  }
}

/** Every function of the SDK's company client, by path (the low-level `api` and local webhook verification aside). */
function clientFunctions(): string[] {
  const client = createClient({ baseUrl: 'http://127.0.0.1:9', token: 'unused', uuid: 'unused' }) as unknown as Record<string, unknown>;
  const names: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'function') names.push(path);
    else if (value && typeof value === 'object') for (const [key, v] of Object.entries(value)) walk(v, path ? `${path}.${key}` : key);
  };
  for (const [key, value] of Object.entries(client)) if (key !== 'api' && key !== 'webhooks') walk(value, key);
  return names.sort();
}
const inSdk = clientFunctions();
const inTable = found.map((f) => f.method.name).sort();
const unsampled = [...tableMethods.keys()].filter((n) => !inTable.includes(n));
if (unsampled.length) {
  throw new Error(
    `Methods of the SDK's method table with no operation's sample (add one to sdkCalls in packages/contract/src/code-samples.ts): ${unsampled.join(', ')}.`,
  );
}
const missing = inSdk.filter((n) => !inTable.includes(n));
const stale = inTable.filter((n) => !inSdk.includes(n));
if (missing.length || stale.length) {
  throw new Error(
    `The SDK's company client and the contract's SDK calls disagree. ${missing.length ? `Methods with no operation's sample (add one to sdkCalls in packages/contract/src/code-samples.ts): ${missing.join(', ')}. ` : ''}${stale.length ? `Samples naming methods the SDK does not have: ${stale.join(', ')}.` : ''}`,
  );
}

// ---- Entries ------------------------------------------------------------------------------------

const entries: DocEntry[] = [];

/** Adds an entry, its terms weighted by where they stand: the title counts most, the body least. */
function add(entry: Omit<DocEntry, 'terms' | 'length' | 'short'> & { short?: string }, weighted: [string, number][]) {
  const terms: Record<string, number> = {};
  countTerms(entry.title, 4, terms);
  for (const [text, weight] of weighted) countTerms(text, weight, terms);
  const length = Object.values(terms).reduce((a, b) => a + b, 0);
  const short = `${entry.short ?? entry.text}\n\nThe whole entry: search_docs with id "${entry.id}".`;
  entries.push({ ...entry, short, terms, length });
}

/** The success answer's `data` schema of an operation. */
function dataSchema(op: Operation): Schema | undefined {
  const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'))?.[1];
  const envelope = render.resolve(success?.content?.['application/json']?.schema ?? {});
  return envelope.properties?.data;
}

const errorStatuses = (op: Operation) =>
  Object.keys(op.responses)
    .map(Number)
    .filter((s) => s >= 400);

const methodByOperation = new Map(found.map((f) => [f.method.operationId, f]));
const exampleOf = (name: string) => found.find((f) => f.method.name === name)?.example ?? '';

/** What `status` means on an operation: its own meaning, the idempotency 409 of a write, or the status's description. */
const meaningOf = (operationId: string, op: Operation, status: number) =>
  operationError(operationId, status) ?? oneLine(op.responses[String(status)]?.description ?? '');

for (const { method, operation, example } of found) {
  const write = method.httpMethod !== 'GET';
  const params = (operation.parameters ?? []).filter((p) => p.name !== 'uuid' && p.in !== 'header');
  const body = operation.requestBody?.content['application/json'].schema;
  const data = dataSchema(operation);
  const lines = [
    `### client.${method.signature}: ${method.summary}`,
    `\`${method.httpMethod} ${method.path}\` (operation \`${method.operationId}\`)${write ? ', a write: refused when the server is read-only.' : ', a read.'}${method.pageParamsIndex !== undefined ? ' A paged list: await it for a page, `for await` it for every item.' : ''}`,
    '',
    oneLine(operation.description ?? ''),
    '',
    'Example:',
    '```ts',
    example,
    '```',
  ];
  if (params.length) {
    lines.push('', 'Parameters:');
    for (const p of params) {
      const about = [p.in, render.typeOf(p.schema), p.required ? 'required' : '', render.constraints(p.schema)].filter(Boolean).join(', ');
      const description = p.description ?? render.resolve(p.schema).description;
      lines.push(`- \`${p.name}\` (${about})${description ? `: ${oneLine(description)}` : ''}`);
    }
  }
  if (body) lines.push('', `Body${body.$ref ? ` (${refName(body.$ref)})` : ''}:`, ...render.fields(body));
  if (data) {
    const shown = data.$ref ? refName(data.$ref) : render.typeOf(data);
    const item = render.resolve(data).items;
    const paged = method.pageParamsIndex !== undefined && item;
    lines.push(
      '',
      paged ? `Awaited: a page whose \`data\` holds ${render.typeOf(item)} items; iterated: each ${render.typeOf(item)}.` : `Resolves to: ${shown}.`,
    );
    const fields = render.fields(item ?? data, { describe: false });
    if (fields.length) lines.push(...fields);
  }
  const errors = errorStatuses(operation);
  if (errors.length) {
    lines.push('', `Errors: ${errors.map((s) => `${s} ${ERROR_CODES[s] ?? ''} (${errorClass(s)})`).join(', ')}.`);
    for (const status of Object.keys(OPERATION_ERRORS[method.operationId] ?? {}).map(Number)) {
      if (errors.includes(status)) lines.push(`- ${status} here: ${meaningOf(method.operationId, operation, status)}.`);
    }
  }
  const description = oneLine(operation.description ?? '');
  const shortLines = [
    lines[0],
    lines[1],
    '',
    description.length > 300 ? `${description.slice(0, description.lastIndexOf(' ', 300))} …` : description,
    '',
    'Example:',
    '```ts',
    example,
    '```',
    ...(params.length ? ['', `Parameters: ${params.map((p) => `\`${p.name}\`${p.required ? '' : '?'}`).join(', ')}.`] : []),
    ...(body
      ? [
          '',
          `Body fields: ${Object.keys(render.resolve(body).properties ?? {})
            .map((k) => `\`${k}\`${render.resolve(body).required?.includes(k) ? '' : '?'}`)
            .join(', ')}.`,
        ]
      : []),
    ...(errors.length ? ['', `Errors: ${errors.join(', ')}.`, ...lines.filter((l) => / here: /.test(l))] : []),
  ];
  add(
    {
      id: `operation:${method.operationId}`,
      kind: 'operation',
      title: `client.${method.signature}: ${method.summary}`,
      methods: [method.name],
      text: lines.join('\n'),
      short: shortLines.join('\n'),
      example,
    },
    [
      [method.summary, 3],
      [`${method.operationId} ${method.name}`, 3],
      [operation.description ?? '', 1.5],
      [params.map((p) => `${p.name} ${p.description ?? ''}`).join(' '), 1],
      [body ? [...render.componentsOf(body)].join(' ') : '', 1],
      [body ? render.fields(body).join(' ') : '', 1],
      [data ? render.fields(render.resolve(data).items ?? data, { describe: false }).join(' ') : '', 0.3],
      // What it answers with, by name (a report's MessageCounts): a question is often about that.
      [data ? [...render.componentsOf(data)].join(' ') : '', 1],
    ],
  );
}

// Schemas the company client's methods take or return, each with the methods that do.
const schemaMethods = new Map<string, string[]>();
for (const { method, operation } of found) {
  const body = operation.requestBody?.content['application/json'].schema;
  const data = dataSchema(operation);
  for (const name of new Set([...(body ? render.componentsOf(body) : []), ...(data ? render.componentsOf(data) : [])])) {
    schemaMethods.set(name, [...(schemaMethods.get(name) ?? []), method.name]);
  }
}
for (const [name, methods] of schemaMethods) {
  const schema = document.components.schemas[name] ?? {};
  const first = methodByOperation.get(found.find((f) => f.method.name === methods[0])?.method.operationId ?? '');
  const fields = render.fields(schema);
  const description = schema.description ? oneLine(schema.description) : '';
  const lines = [
    `### ${name} (schema)${description ? `: ${description}` : ''}`,
    `Type: ${render.typeOf(schema)}. Used by: ${methods.map((m) => `client.${m}`).join(', ')}.`,
    ...(fields.length ? ['', ...fields] : []),
    '',
    `Example (client.${methods[0]}):`,
    '```ts',
    first?.example ?? '',
    '```',
  ];
  const fieldNames = Object.keys(render.resolve(schema).properties ?? {});
  const shortLines = [
    lines[0] as string,
    lines[1] as string,
    ...(fieldNames.length ? ['', `Fields: ${fieldNames.map((f) => `\`${f}\``).join(', ')}.`] : []),
    ...lines.slice(lines.length - 4),
  ];
  add(
    {
      id: `schema:${name}`,
      short: shortLines.join('\n'),
      kind: 'schema',
      title: `${name} (schema)${description ? `: ${description}` : ''}`,
      methods,
      text: lines.join('\n'),
      example: first?.example ?? '',
    },
    [
      [name, 3],
      [fields.join(' '), 1],
      [methods.join(' '), 1],
    ],
  );
}

// Error statuses: the contract's code, the SDK's class, what the README says of it, and how to catch it.
const readmeClasses = new Map([...readme.matchAll(/^\| `([A-Za-z]+Error)` \| (.+) \|$/gm)].map((m) => [m[1] as string, m[2] as string]));
/** A call that can answer each status, shown in its example. */
const CATCH_CALLS: Record<string, string> = {
  400: `client.campaigns.create({ name: 'Spring sale', schedule_type: 'once', schedule: 'next Friday', template_payload: { template_name: 'welcome' } })`,
  401: 'client.reports.get()',
  403: `client.orders.update('ORD-001', { company_id: 'ANOTHER-COMPANY', companyOrderStatus: 'Shipped' })`,
  404: `client.campaigns.get('cmp_does_not_exist')`,
  409: `client.campaigns.create({ name: 'Spring sale', schedule_type: 'once', schedule: '2030-01-15T10:00:00Z', template_payload: { template_name: 'welcome' } })`,
  413: `client.templates.submit({ template_name: 'welcome', phone_number: '6363978748' })`,
  415: `client.templates.submit({ template_name: 'welcome', phone_number: '6363978748' })`,
  429: 'client.customers.list({ limit: 100 })',
  500: 'client.reports.get()',
  503: 'client.reports.get()',
};
for (const [status, code] of Object.entries(ERROR_CODES)) {
  const cls = errorClass(Number(status));
  const methods = found.filter((f) => errorStatuses(f.operation).includes(Number(status))).map((f) => f.method.name);
  // A status no method of the company client answers (405) is not worth an entry.
  if (methods.length === 0) continue;
  const call = CATCH_CALLS[status] ?? 'client.reports.get()';
  const example = `try {
  await ${call};
} catch (err) {
  const e = err as { name?: string; status?: number; code?: string; requestId?: string; issues?: { path: string; message: string }[] };
  if (e.name === '${cls}') return { status: e.status, code: e.code, requestId: e.requestId, issues: e.issues };
  throw err;
}`;
  const meaning = found.map((f) => f.operation.responses[status]?.description).find(Boolean);
  const lines = [
    `### ${status} \`${code}\` (${cls})`,
    meaning ? oneLine(meaning) : '',
    readmeClasses.get(cls) ? `SDK: \`${cls}\`, ${oneLine(readmeClasses.get(cls) as string)}.` : `SDK: \`${cls}\`.`,
    'In `execute` the error is an Error whose `name` is the class, with `status`, `code`, `message`, `requestId`, on a 400 `issues` (the first 20; `issueCount` when there were more), on a 429 `retryAfter`.',
    methods.length > 6
      ? `Answered by ${methods.length} methods, e.g. ${methods
          .slice(0, 4)
          .map((m) => `client.${m}`)
          .join(', ')}.`
      : `Answered by: ${methods.map((m) => `client.${m}`).join(', ')}.`,
    '',
    'Example:',
    '```ts',
    example,
    '```',
  ].filter((l, i, all) => l !== '' || all[i - 1] !== '');
  add(
    {
      id: `error:${status}`,
      kind: 'error',
      title: `Error ${status} ${code} (${cls})`,
      methods,
      text: lines.join('\n'),
      example,
    },
    [
      [`${code} ${cls} error`, 3],
      [meaning ?? '', 2],
      [readmeClasses.get(cls) ?? '', 1],
    ],
  );
}

// An error status on each operation where it means something of its own, or where a caller asks of it:
// every write's 409 (a write that is not a conflict says so).
for (const { method, operation } of found) {
  for (const status of errorStatuses(operation)) {
    if (!OPERATION_ERRORS[method.operationId]?.[status] && status !== 409) continue;
    const code = ERROR_CODES[status] ?? '';
    const cls = errorClass(status);
    const meaning = meaningOf(method.operationId, operation, status);
    const text = [
      `### ${status} on client.${method.name} (${method.operationId})`,
      `${meaning}.`,
      `In \`execute\`: an Error named \`${cls}\` with \`status\` ${status}, \`code\` and \`message\`.`,
    ].join('\n');
    const example = exampleOf(method.name);
    add(
      {
        id: `error:${status}:${method.operationId}`,
        kind: 'error',
        title: `${status} on client.${method.name} (${method.operationId})`,
        methods: [method.name],
        text: `${text}\n\nThe call:\n\`\`\`ts\n${example}\n\`\`\``,
        example,
      },
      [
        [`${status} ${code} ${cls} error mean ${method.name} ${method.operationId}`, 2],
        [meaning, 1],
      ],
    );
  }
}

// Guides: the sandbox, and the README sections that hold for code in it.
const methodNames = new Set(found.map((f) => f.method.name));
add(
  {
    id: 'guide:execute',
    kind: 'guide',
    title: 'execute: what the code gets (client, console, mock.clock), limits and rehearsals',
    methods: ['campaigns.create', 'reports.get'],
    text: `### execute: what the code gets\n${SANDBOX_GUIDE}\n\nExample (a rehearsal):\n\`\`\`ts\n${REHEARSAL_EXAMPLE}\n\`\`\``,
    short: `### execute: what the code gets\n${firstParagraphs(SANDBOX_GUIDE, 1_200)}\n\nExample (a rehearsal):\n\`\`\`ts\n${REHEARSAL_EXAMPLE}\n\`\`\``,
    example: REHEARSAL_EXAMPLE,
  },
  [
    [SANDBOX_GUIDE, 1],
    ['sandbox rehearsal rehearse dry run mock clock advance time reset', 3],
  ],
);
// The Resources section is the method table the operations' entries hold one by one: as a guide it
// would match every query. Webhooks are verified in the receiver, not in execute, but are asked of.
const GUIDE_SECTIONS = ['Pagination', 'Errors', 'Retries, timeouts, idempotency, cancellation', 'Webhooks'];
for (const section of readme.split(/^## /m).slice(1)) {
  const heading = section.slice(0, section.indexOf('\n')).trim();
  if (!GUIDE_SECTIONS.includes(heading)) continue;
  // The markers around the README's generated tables are no prose.
  const body = section
    .slice(section.indexOf('\n') + 1)
    .replace(/^<!--.*-->\n/gm, '')
    .trim();
  const methods = [...new Set([...body.matchAll(/\b(?:client\.)?([a-zA-Z]+\.[a-zA-Z]+)\(/g)].map((m) => m[1] as string))].filter((m) => methodNames.has(m));
  // Webhooks are verified in the receiver; from execute, an endpoint is registered.
  const first = heading === 'Webhooks' ? 'webhookEndpoints.create' : (methods[0] ?? 'campaigns.list');
  const title = heading === 'Webhooks' ? 'SDK: Webhooks: verify the signature of a webhook in your receiver (verifyWebhook)' : `SDK: ${heading}`;
  const tail = `Example (client.${first}):\n\`\`\`ts\n${exampleOf(first)}\n\`\`\``;
  add(
    {
      id: `guide:${heading.toLowerCase().replace(/[^a-z]+/g, '-')}`,
      kind: 'guide',
      title,
      methods: methods.length ? methods : [first],
      text: `### ${title} (from the SDK's README)\n${body}\n\n${tail}`,
      short: `### ${title} (from the SDK's README)\n${firstParagraphs(body, 1_200)}\n\n${tail}`,
      example: exampleOf(first),
    },
    [
      [heading, 3],
      [body, 1],
    ],
  );
}

/** The paragraphs of `text` that fit in `max` characters (at least the first), and a mark when some were left out. */
function firstParagraphs(text: string, max: number): string {
  const paragraphs = text.split(/\n\n/);
  const out: string[] = [];
  let used = 0;
  for (const p of paragraphs) {
    if (out.length && used + p.length > max) break;
    out.push(p);
    used += p.length;
  }
  return out.length < paragraphs.length ? `${out.join('\n\n')}\n\n…` : out.join('\n\n');
}

const index: DocsIndex = { version: pkg.version, entries, methods: found.map((f) => f.method) };
writeFileSync(here('../dist/docs-index.json'), `${JSON.stringify(index)}\n`);
