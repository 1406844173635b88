import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createOpenApiDocument } from '../src/document.ts';
import { operations } from '../src/index.ts';
import { renderGeneratedFiles } from '../src/render.ts';

const doc = createOpenApiDocument() as unknown as {
  servers: unknown[];
  paths: Record<string, Record<string, { operationId?: string; tags?: string[]; security?: unknown[]; responses?: Record<string, unknown> } | unknown>>;
  webhooks: Record<string, unknown>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, Record<string, unknown>> };
};
const methods = ['get', 'post', 'put', 'patch', 'delete'];
const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([m]) => methods.includes(m))
    .map(([method, op]) => ({
      path,
      method,
      op: op as { operationId: string; tags: string[]; security: Record<string, string[]>[]; responses: Record<string, unknown> },
    })),
);

describe('the generated document', () => {
  it('matches the committed openapi.yaml and paths.ts', async () => {
    const files = await renderGeneratedFiles();
    for (const [rel, content] of Object.entries(files)) {
      const committed = readFileSync(new URL(`../${rel}`, import.meta.url), 'utf8');
      expect(committed === content, `${rel} drifted from the schemas: run \`pnpm --filter @engagekit/contract generate\``).toBe(true);
    }
  });

  it('is OpenAPI 3.1 and parses back from YAML', () => {
    const yaml = parse(readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8'));
    expect(yaml.openapi).toBe('3.1.0');
    expect(Object.keys(yaml.paths)).toEqual(Object.keys(doc.paths));
  });

  it('documents every operation of the table, and the compatibility methods of updateOrder', () => {
    const ids = documented.map((d) => d.op.operationId);
    for (const id of Object.keys(operations)) expect(ids).toContain(id);
    expect(
      documented
        .filter((d) => d.path === '/api/order/updateOrder/{orderId}')
        .map((d) => d.method)
        .sort(),
    ).toEqual(['patch', 'post', 'put']);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives every operation tags, security and its error answers', () => {
    for (const { path, op } of documented) {
      expect(op.tags.length, path).toBeGreaterThan(0);
      const scheme = Object.keys(op.security[0] ?? {})[0];
      if (path.startsWith('/agency/') || path.startsWith('/api/order/')) expect(scheme, path).toBe('companyToken');
      else if (path.startsWith('/api/v2/health')) expect(op.security).toEqual([]);
      else if (path.includes('/webhooks')) expect(op.security).toEqual([{ adminToken: [] }, { companyToken: [] }]);
      else expect(scheme, path).toBe('adminToken');
      expect(Object.keys(op.responses), path).toContain('500');
    }
    for (const { path, op } of documented.filter((d) => d.path.startsWith('/agency/'))) {
      expect(Object.keys(op.responses), path).toEqual(expect.arrayContaining(['400', '401', '403', '404']));
    }
  });

  it('declares the order webhook: one event union on `type`', () => {
    expect(Object.keys(doc.webhooks)).toEqual(['orderEvent']);
    expect(doc.components.schemas.WebhookEvent?.discriminator).toEqual({
      propertyName: 'type',
      mapping: { 'order.created': '#/components/schemas/OrderCreatedEvent', 'order.updated': '#/components/schemas/OrderUpdatedEvent' },
    });
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['adminToken', 'companyToken']);
  });

  // What client generators name their own types after an operation: a component named so collides.
  const generatorSuffixes = /(Body|Response|Responses|Output|Input|Data|Error|Errors|Params|Query)$/;

  it('names components so no generator names one twice', () => {
    const names = Object.keys(doc.components.schemas);
    expect(names.filter((n) => generatorSuffixes.test(n))).toEqual([]);
  });

  it('names every enum and object: none is inline', () => {
    const inline: string[] = [];
    const walk = (node: unknown, path: string, top: boolean) => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) {
        for (const [i, v] of node.entries()) walk(v, `${path}/${i}`, false);
        return;
      }
      const n = node as Record<string, unknown>;
      if (!top && ((Array.isArray(n.enum) && n.enum.length > 1) || (n.type === 'object' && n.properties))) inline.push(path);
      for (const [k, v] of Object.entries(n)) if (k !== 'example' && k !== 'examples') walk(v, `${path}/${k}`, false);
    };
    for (const [name, schema] of Object.entries(doc.components.schemas)) walk(schema, name, true);
    walk(doc.paths, 'paths', true);
    expect(inline).toEqual([]);
  });

  it('has one server, a {baseUrl} variable, and no path repeats it', () => {
    expect(doc.servers).toEqual([
      expect.objectContaining({ url: '{baseUrl}', variables: { baseUrl: expect.objectContaining({ default: expect.any(String) }) } }),
    ]);
    expect(Object.entries(doc.paths).filter(([, item]) => 'servers' in (item as object))).toEqual([]);
  });

  it('gives every property a type', () => {
    const untyped: string[] = [];
    const typed = (s: Record<string, unknown>) => ['type', '$ref', 'anyOf', 'oneOf', 'allOf', 'const', 'enum'].some((k) => k in s);
    const walk = (node: unknown, path: string) => {
      if (!node || typeof node !== 'object' || Array.isArray(node)) return;
      const n = node as Record<string, unknown>;
      for (const [name, property] of Object.entries((n.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        if (!typed(property)) untyped.push(`${path}.${name}`);
        walk(property, `${path}.${name}`);
      }
      for (const k of ['items', 'additionalProperties']) if (n[k] && typeof n[k] === 'object') walk(n[k], `${path}[${k}]`);
      for (const k of ['anyOf', 'oneOf', 'allOf']) for (const s of (n[k] as unknown[] | undefined) ?? []) walk(s, path);
    };
    for (const [name, schema] of Object.entries(doc.components.schemas)) walk(schema, name);
    expect(untyped).toEqual([]);
  });

  it('keeps request properties the server fills in optional: no `default` outside `required`', () => {
    const defaulted: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (!node || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      const required = new Set((n.required as string[] | undefined) ?? []);
      for (const [name, p] of Object.entries((n.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        if (!required.has(name) && 'default' in p) defaulted.push(`${path}.${name}`);
      }
      for (const [k, v] of Object.entries(n)) if (k !== 'example') walk(v, `${path}/${k}`);
    };
    walk(doc.components.schemas, '');
    expect(defaulted).toEqual([]);
  });
});
