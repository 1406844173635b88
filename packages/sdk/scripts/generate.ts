/**
 * Writes what src/methods.ts declares: the methods of the client interfaces (between the `<generated>`
 * markers of src/client.ts, src/webhook-endpoints.ts and src/admin-client.ts) and the README's method
 * tables, after checking every row against the contract's document. The `paths` types the SDK is typed
 * by are the contract's own (`@engagekit/contract/paths`), generated with its document.
 * `--check` writes nothing and exits 1 when a file differs from what the table generates.
 *
 * The document comes from the contract's sources, as the contract's own generate makes it: `pnpm test`
 * checks the generated files before it builds, when a fresh clone has no contract build to import.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createOpenApiDocument } from '../../contract/src/document.ts';
import { adminMethods, clientMethods, isMember, isMethod, type MethodGroup, type MethodTable, methodsOf, webhookEndpointMethods } from '../src/methods.ts';

interface Operation {
  operationId: string;
  parameters?: { in: string; name: string }[];
  requestBody?: unknown;
}

// The document as JSON, read with the few fields the checks need.
const document: { paths: Record<string, Record<string, Operation>> } = JSON.parse(JSON.stringify(createOpenApiDocument()));
const operations = new Map(
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([verb, op]) => [op.operationId, { verb: verb.toUpperCase(), path, op }] as const),
  ),
);

/** The operation a row calls, after checking that the row says how it is called. */
function operationOf(table: MethodTable, name: string) {
  const method = methodsOf(table.methods).find((m) => m.name === name);
  const found = method && operations.get(method.row.operationId);
  if (!method || !found) throw new Error(`src/methods.ts: ${name} calls ${method?.row.operationId}, which the contract does not have.`);
  const { row } = method;
  const pathParams = (found.op.parameters ?? []).filter((p) => p.in === 'path' && !table.bound?.includes(p.name)).map((p) => p.name);
  const paged = (found.op.parameters ?? []).some((p) => p.in === 'query' && p.name === 'page');
  const problems = [
    pathParams.length !== table.leading.length + (row.args ?? []).length && `it has path parameters ${pathParams.join(', ') || '(none)'}`,
    Boolean(found.op.requestBody) !== Boolean(row.body) && (found.op.requestBody ? 'it takes a body' : 'it takes no body'),
    paged !== Boolean(row.list) && (paged ? 'it is a paged list' : 'it is not a paged list'),
    !row.list && !row.result && 'the row names no result',
  ].filter(Boolean);
  if (problems.length) throw new Error(`src/methods.ts: ${name} (${row.operationId}) does not match the contract: ${problems.join('; ')}.`);
  return found;
}

/** The interface members of a group, indented by `depth` levels. */
function members(table: MethodTable, group: MethodGroup, depth: number, prefix = ''): string[] {
  const pad = '  '.repeat(depth);
  const lines: string[] = [];
  for (const [key, row] of Object.entries(group)) {
    if (isMember(row)) {
      lines.push(`${pad}/** ${row.doc} */`, `${pad}${key}: ${row.type};`);
    } else if (isMethod(row)) {
      operationOf(table, `${prefix}${key}`);
      const args = [
        ...[...table.leading, ...(row.args ?? [])].map((a) => `${a}: string`),
        ...(row.body ? [`body${row.body.optional ? '?' : ''}: ${row.body.type}`] : []),
        ...(row.list ? [`params?: ${row.list.params}`, `options?: ${table.listOptions}`] : ['options?: RequestOptions']),
      ];
      const result = row.list ? `PagePromise<${row.list.item}, ${row.list.page}>` : `APIPromise<${row.result}>`;
      lines.push(`${pad}/** ${row.doc} */`, `${pad}${key}(${args.join(', ')}): ${result};`);
    } else {
      lines.push(`${pad}${key}: {`, ...members(table, row, depth + 1, `${prefix}${key}.`), `${pad}};`);
    }
  }
  return lines;
}

/** The README rows of a table's methods and members, each method with the operation it calls. */
function readmeRows(table: MethodTable, prefix = ''): string[] {
  const rows = (group: MethodGroup, at: string): string[] =>
    Object.entries(group).flatMap(([key, row]) => {
      if (isMember(row)) return [`| \`${row.readme[0]}\` | ${row.readme[1]} |`];
      if (!isMethod(row)) return rows(row, `${at}${key}.`);
      const [method] = methodsOf({ [key]: row }, at);
      const { verb, path } = operationOf(table, `${at}${key}`.slice(prefix.length));
      return [`| \`${method?.name}(${method?.params.join(', ')})\` | \`${verb} ${path}\` |`];
    });
  return rows(table.methods, prefix);
}

const TABLE_HEAD = ['| method | API operation |', '|---|---|'];

/** What each generated region holds, by file and table name. */
const regions: Record<string, Record<string, string[]>> = {
  'src/client.ts': { clientMethods: members(clientMethods, clientMethods.methods, 1) },
  'src/webhook-endpoints.ts': { webhookEndpointMethods: members(webhookEndpointMethods, webhookEndpointMethods.methods, 1) },
  'src/admin-client.ts': { adminMethods: members(adminMethods, adminMethods.methods, 1) },
  'README.md': {
    clientMethods: [
      ...TABLE_HEAD,
      ...readmeRows(clientMethods),
      ...readmeRows(webhookEndpointMethods, 'webhookEndpoints.'),
      '| `webhooks.unwrap(rawBody, headers, secret?)` | verifies a webhook engagekit sent (see [Webhooks](#webhooks)) |',
    ],
    adminMethods: [...TABLE_HEAD, ...readmeRows(adminMethods)],
  },
};

/** `text` with the lines between each `<generated from="src/methods.ts" table="name">` marker and the next `</generated>` replaced. */
function fill(file: string, text: string, content: Record<string, string[]>): string {
  let out = text;
  for (const [table, lines] of Object.entries(content)) {
    const begin = new RegExp(`^.*<generated from="src/methods.ts" table="${table}">.*\\n`, 'm').exec(out);
    const end = begin && /^.*<\/generated>.*$/m.exec(out.slice(begin.index + begin[0].length));
    if (!begin || !end) throw new Error(`${file} has no <generated from="src/methods.ts" table="${table}"> ... </generated> markers.`);
    const from = begin.index + begin[0].length;
    out = `${out.slice(0, from)}${lines.join('\n')}\n${out.slice(from + end.index)}`;
  }
  return out;
}

const check = process.argv.includes('--check');
let drift = false;
for (const [rel, content] of Object.entries(regions)) {
  const file = fileURLToPath(new URL(`../${rel}`, import.meta.url));
  const current = readFileSync(file, 'utf8');
  const next = fill(rel, current, content);
  if (next === current) continue;
  if (check) {
    drift = true;
    console.error(`${rel} is out of date with src/methods.ts: run \`pnpm --filter @engagekit/sdk generate\` and commit it.`);
  } else {
    writeFileSync(file, next);
    console.log(`wrote ${rel}`);
  }
}
if (drift) process.exit(1);
