/**
 * Every array and record a request may carry has a maximum in the document (`maxItems`,
 * `maxProperties`), so neither a client nor the server has to guess how much one request may hold.
 */
import { describe, expect, it } from 'vitest';
import { createOpenApiDocument } from '../src/document.ts';

type Schema = Record<string, unknown>;
const doc = createOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, { operationId?: string; parameters?: { in: string; name: string; schema: Schema }[]; requestBody?: unknown }>>;
  components: { schemas: Record<string, Schema> };
};

/** `schema` with its `$ref` followed, once. */
const resolved = (schema: Schema): Schema => {
  const ref = schema.$ref;
  return typeof ref === 'string' ? (doc.components.schemas[ref.replace('#/components/schemas/', '')] ?? {}) : schema;
};

/** Where in `root` an array without `maxItems` or a record without `maxProperties` lies: dot paths. */
function unbounded(root: Schema, at: string): string[] {
  const found: string[] = [];
  const seen = new Set<Schema>();
  const queue: [Schema, string][] = [[root, at]];
  for (let next = queue.shift(); next; next = queue.shift()) {
    const [raw, path] = next;
    const schema = resolved(raw);
    if (seen.has(schema)) continue;
    seen.add(schema);
    if (schema.type === 'array' && schema.maxItems === undefined) found.push(path);
    const extra = schema.additionalProperties;
    if (schema.type === 'object' && extra !== undefined && extra !== false && schema.maxProperties === undefined) found.push(path);
    for (const [name, child] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) queue.push([child, `${path}.${name}`]);
    if (schema.items) queue.push([schema.items as Schema, `${path}[]`]);
    if (extra && typeof extra === 'object') queue.push([extra as Schema, `${path}{}`]);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) for (const child of (schema[key] ?? []) as Schema[]) queue.push([child, path]);
  }
  return found;
}

describe('request schemas in the document', () => {
  it('bound every array and record of every request body and query', () => {
    const found: string[] = [];
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        if (!op?.operationId) continue;
        for (const p of op.parameters ?? []) found.push(...unbounded(p.schema, `${op.operationId} ${p.in} ${p.name}`));
        const body = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content?.['application/json']?.schema;
        if (body) found.push(...unbounded(body, `${op.operationId} body`));
      }
    }
    expect(found).toEqual([]);
  });

  it('find an array without maxItems and a record without maxProperties', () => {
    const schema = { type: 'object', properties: { list: { type: 'array', items: { type: 'string' } }, map: { type: 'object', additionalProperties: {} } } };
    expect(unbounded(schema, 'x')).toEqual(['x.list', 'x.map']);
  });
});
