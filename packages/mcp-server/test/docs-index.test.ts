/**
 * The docs index the build writes: its bridge table is the SDK company client's methods, no more and no
 * fewer, and every example it shows typechecks under strict against the built SDK, as code in execute
 * sees it (`client` and `mock` given).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '@engagekit/sdk';
import { describe, expect, it } from 'vitest';
import { packageDir } from '../../../scripts/build/ensure-built.ts';
import { strictTypecheck } from '../../../scripts/strict-typecheck.ts';
import { loadDocsIndex } from '../src/internal/docs-index.ts';

const index = loadDocsIndex();

/** What code in execute is given, as types. */
const SANDBOX_GLOBALS = `import type { EngageClient } from '@engagekit/sdk';
declare global {
  const client: EngageClient;
  const mock: { clock: { now(): Date; set(date: Date | string | number): void; advance(by: number | string): Promise<void> } };
}
export {};
`;

describe('the docs index', () => {
  it('holds every method of the SDK’s company client in its bridge table, and nothing else', () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:9', token: 't', uuid: 'u' }) as unknown as Record<string, Record<string, unknown>>;
    const methods: string[] = [];
    for (const [resource, value] of Object.entries(client)) {
      if (resource === 'api' || resource === 'webhooks') continue;
      for (const [name, fn] of Object.entries(value)) if (typeof fn === 'function') methods.push(`${resource}.${name}`);
    }
    expect(index.methods.map((m) => m.name).sort()).toEqual(methods.sort());
    expect(index.methods.find((m) => m.name === 'webhookEndpoints.deliveries')).toMatchObject({ httpMethod: 'GET', pageParamsIndex: 1 });
    expect(index.methods.find((m) => m.name === 'campaigns.create')).toMatchObject({ httpMethod: 'POST', signature: 'campaigns.create(body)' });
  });

  it('gives every entry a method of that table and an example', () => {
    const names = new Set(index.methods.map((m) => m.name));
    for (const entry of index.entries) {
      expect(entry.methods.length, entry.id).toBeGreaterThan(0);
      for (const method of entry.methods) expect(names.has(method), `${entry.id}: ${method}`).toBe(true);
      expect(entry.example, entry.id).not.toBe('');
      expect(entry.text, entry.id).toContain(entry.example);
    }
  });

  it('has examples that typecheck under strict against the built SDK', async () => {
    const dir = join(packageDir('mcp-server'), '.samples');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'sandbox-globals.d.ts'), SANDBOX_GLOBALS);
    const examples = [...new Set(index.entries.map((e) => e.example))];
    examples.forEach((example, i) => {
      writeFileSync(join(dir, `example-${i}.ts`), `export async function run() {\n${example}\n}\n`);
    });
    expect(await strictTypecheck(dir)).toBe('');
  }, 120_000);
});
