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
  components: { securitySchemes: Record<string, unknown> };
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
      else if (path === '/api/v2/health') expect(op.security).toEqual([]);
      else if (path.includes('/webhooks')) expect(op.security).toEqual([{ adminToken: [] }, { companyToken: [] }]);
      else expect(scheme, path).toBe('adminToken');
      expect(Object.keys(op.responses), path).toContain('500');
    }
    for (const { path, op } of documented.filter((d) => d.path.startsWith('/agency/'))) {
      expect(Object.keys(op.responses), path).toEqual(expect.arrayContaining(['400', '401', '403', '404']));
    }
  });

  it('declares the order webhooks', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual(['order.created', 'order.updated']);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['adminToken', 'companyToken']);
  });
});
