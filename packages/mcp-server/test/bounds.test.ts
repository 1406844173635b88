/**
 * Every answer has a bound: over stdio, with the official MCP client (whose stdio buffer is 10 MiB), an
 * API error carrying 200,000 issues and a thrown 3 MB message come back cut, with a marker and the full
 * count, and the session stays up.
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecuteReport } from '../src/index.ts';
import { json, type StubApi, startStubApi } from './stub-api.ts';

const BIN = fileURLToPath(new URL('../bin/engagekit-mcp.js', import.meta.url));
const UUID = '53d1bcd3-aaf0-45e1-9298-5395b6a27b61';
const ISSUES = 200_000;

let stub: StubApi;
let client: Client;
beforeAll(async () => {
  // A server from before the issue cap: every issue of a 200,000-field refusal, about 10 MB.
  const issues = Array.from({ length: ISSUES }, (_, i) => ({ path: `items.${i}.sku`, message: 'must be a string of 1 to 64 characters' }));
  const refusal = JSON.stringify({ success: false, message: 'Validation failed', code: 'validation_failed', issues });
  stub = await startStubApi((_req, res) => {
    res.writeHead(400, { 'content-type': 'application/json', 'x-request-id': 'req_stub_400' }).end(refusal);
  });
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ENGAGEKIT_'))) as Record<string, string>;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN],
    env: { ...env, ENGAGEKIT_BASE_URL: stub.url, ENGAGEKIT_TOKEN: 'stub-token', ENGAGEKIT_UUID: UUID },
    stderr: 'pipe',
  });
  client = new Client({ name: 'bounds-test', version: '1.0.0' });
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
  await stub?.close();
  void json;
});

const execute = async (code: string) => {
  const result = (await client.callTool({ name: 'execute', arguments: { code } })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { report: result.structuredContent as unknown as ExecuteReport, text };
};

describe('an answer over stdio', () => {
  it('cuts an API error of 200,000 issues to 20, with the full count, in the text and the structured content alike', async () => {
    const { report, text } = await execute('return await client.campaigns.list({ limit: 10 });');
    expect(report.error).toMatchObject({ name: 'BadRequestError', status: 400, issueCount: ISSUES, operation: 'campaigns.list' });
    expect(report.error?.issues).toHaveLength(20);
    expect(text).toContain(`... and 199,980 more issues (200,000 in all)`);
    expect(JSON.stringify(report).length).toBeLessThanOrEqual(100_000);
    expect(text.length).toBeLessThanOrEqual(100_000);
  });

  it('cuts a thrown 3 MB message, with a marker giving its length', async () => {
    const { report, text } = await execute("throw new Error('x'.repeat(3_000_000));");
    expect(report.error?.message).toMatch(/^x{4000}… \[cut: 3,000,000 characters in all\]$/);
    expect(text.length).toBeLessThan(10_000);
  });

  it('keeps the session up: the next call answers', async () => {
    const { report } = await execute('return 1 + 1;');
    expect(report).toMatchObject({ ok: true, result: 2 });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['search_docs', 'execute']);
  });
});
