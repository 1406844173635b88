/**
 * Every `x-codeSamples` entry of openapi.yaml (one per operation, and the order webhook's) typechecks
 * under `strict` against the built SDK, as a user's file importing `@engagekit/sdk` would: a sample
 * that names a method or a field the SDK does not have fails here.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeSample, createOpenApiDocument, sdkCalls } from '@engagekit/contract/document';
import { describe, expect, it } from 'vitest';
import { packageDir } from '../../../scripts/build/ensure-built.ts';
import { strictTypecheck } from '../../../scripts/strict-typecheck.ts';

const SDK_DIR = packageDir('sdk');
// Inside the package, so `@engagekit/sdk` resolves to the package itself (its exports, its dist).
const out = join(SDK_DIR, '.samples');

describe('the SDK calls in the API reference', () => {
  it('are on every operation of the document, and on its webhook', () => {
    const document = createOpenApiDocument() as unknown as {
      paths: Record<string, Record<string, { operationId: string; 'x-codeSamples'?: { source: string }[] }>>;
      webhooks: Record<string, { post: { 'x-codeSamples'?: { source: string }[] } }>;
    };
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(operations.length).toBeGreaterThan(20);
    for (const op of operations) expect(op['x-codeSamples']?.[0]?.source, op.operationId).toContain('@engagekit/sdk');
    expect(document.webhooks.orderEvent?.post['x-codeSamples']?.[0]?.source).toBe(codeSample('orderEvent'));
  });

  it('typecheck under strict against the built SDK', async () => {
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    for (const id of Object.keys(sdkCalls) as (keyof typeof sdkCalls)[]) writeFileSync(join(out, `${id}.ts`), codeSample(id));
    expect(await strictTypecheck(out)).toBe('');
  }, 120_000);
});
