/** The control API's OpenAPI document: it describes every control route, and the OpenAPI linters pass it. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { jsonSchemaOf } from '@engagekit/contract';
import { describe, expect, it } from 'vitest';
import { createControlApp } from '../src/internal/control.ts';
import { controlDocument, documentedControlRoutes } from '../src/internal/control-document.ts';
import { FaultBody } from '../src/internal/faults.ts';
import { createMockApi } from '../src/mock-api.ts';

const CONTRACT = new URL('../../contract/', import.meta.url).pathname;
const SHIPPED = new URL('../dist/control-openapi.json', import.meta.url).pathname;

describe('the control API document', () => {
  it('describes every control route, and only those', () => {
    const app = createControlApp({} as never, () => 'req_1');
    const routes = new Set(app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`));
    routes.delete('GET /__mock/openapi.json');
    expect([...routes].sort()).toEqual(documentedControlRoutes().sort());
  });

  it('ships in the package as built, and is served at /__mock/openapi.json', async () => {
    const document = controlDocument();
    expect(JSON.parse(readFileSync(SHIPPED, 'utf8'))).toEqual(document);
    const mock = createMockApi();
    const res = await mock.fetch('/__mock/openapi.json');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(document);
    await mock.close();
  });

  it('documents the body of POST /__mock/fail with the rule fail() checks faults by', () => {
    const { $schema: _, ...faultBody } = jsonSchemaOf(FaultBody);
    const paths = controlDocument().paths as Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }>;
    expect(paths['/__mock/fail']?.post.requestBody.content['application/json']?.schema).toEqual(faultBody);
    expect(faultBody).toMatchObject({ properties: { status: { enum: [400, 401, 403, 404, 405, 409, 413, 415, 429, 500, 503] } } });
  });

  it('passes redocly and spectral with the rules the API document passes', () => {
    const run = (bin: string, args: string[]) => execFileSync(`${CONTRACT}node_modules/.bin/${bin}`, args, { cwd: CONTRACT, encoding: 'utf8', stdio: 'pipe' });
    expect(run('redocly', ['lint', SHIPPED])).toBeDefined();
    expect(run('spectral', ['lint', SHIPPED, '--ruleset', '.spectral.yaml', '--fail-severity', 'warn'])).toMatch(
      /No results with a severity of 'warn' or higher found!/,
    );
  });
});
