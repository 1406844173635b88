/**
 * The built command, `engagekit-mcp`, as an MCP client starts it: over stdio (the default) and over
 * Streamable HTTP, with the official client's transports; and its exits when it cannot run.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/engagekit-mcp.js', import.meta.url));
const SHOP = fileURLToPath(new URL('./fixtures/shop.json', import.meta.url));
/** The environment without the live API's variables, whatever the shell running the tests has. */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ENGAGEKIT_'))) as Record<string, string>;

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const rehearsal = `
  const campaign = await client.campaigns.create({ name: 'Over the wire', schedule_type: 'once', schedule: new Date(mock.clock.now().getTime() + 60_000).toISOString(), template_payload: { template_name: 'welcome' } });
  await mock.clock.advance('5m');
  return (await client.reports.get()).messages.total;
`;

describe('engagekit-mcp over stdio', () => {
  it('lists its tools, searches, and runs a rehearsal on the mock with --data', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, '--target', 'mock', '--data', SHOP], env, stderr: 'pipe' });
    const client = new Client({ name: 'bin-test', version: '1.0.0' });
    await client.connect(transport);
    closers.push(() => client.close());
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['search_docs', 'execute']);
    const found = (await client.callTool({ name: 'search_docs', arguments: { query: 'schedule a campaign' } })) as CallToolResult & {
      structuredContent: { hits: { id: string }[] };
    };
    expect(found.structuredContent.hits[0]?.id).toBe('operation:createCampaign');
    const run = (await client.callTool({ name: 'execute', arguments: { code: rehearsal } })) as CallToolResult & { structuredContent: { result: unknown } };
    expect(run.isError, JSON.stringify(run.content)).toBe(false);
    expect(run.structuredContent.result).toBe(2);
  });
});

describe('engagekit-mcp --transport http', () => {
  async function startHttp(): Promise<{ url: string; child: ChildProcess }> {
    const child = spawn(process.execPath, [BIN, '--target', 'mock', '--transport', 'http', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    closers.push(async () => {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    });
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout?.on('data', (d) => {
        out += String(d);
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      child.stderr?.on('data', (d) => {
        out += String(d);
      });
      void exited.then((code) => reject(new Error(`engagekit-mcp exited with ${code}: ${out}`)));
    });
    return { url, child };
  }

  it('serves the same tools over Streamable HTTP at /mcp, and exits 0 on SIGTERM', async () => {
    const { url } = await startHttp();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 'bin-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    closers.push(() => client.close());
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['search_docs', 'execute']);
    const run = (await client.callTool({ name: 'execute', arguments: { code: 'return (await client.campaigns.list()).total' } })) as CallToolResult;
    expect(run.structuredContent).toMatchObject({ ok: true, target: 'mock', result: 0 });
  });

  it('refuses a request addressed to another host (DNS rebinding) and one from a web page elsewhere', async () => {
    const { url } = await startHttp();
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    // node:http, not fetch: fetch sets the Host header itself.
    const post = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify(initialize);
        const req = request(
          url,
          { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.once('error', reject);
        req.end(body);
      });
    expect(await post({ host: 'attacker.example' })).toBe(403);
    expect(await post({ origin: 'https://attacker.example' })).toBe(403);
    expect(await post({})).toBe(200);
  });
});

describe('engagekit-mcp exits 2 with a message when it cannot run', () => {
  const run = (args: string[], extra: Record<string, string> = {}) =>
    promisify(execFile)(process.execPath, [BIN, ...args], { env: { ...env, ...extra } }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
    );

  it('without the live API’s environment', async () => {
    const { code, stderr } = await run([]);
    expect(code).toBe(2);
    expect(stderr).toContain('The live API needs ENGAGEKIT_BASE_URL, ENGAGEKIT_TOKEN, ENGAGEKIT_UUID');
    expect(stderr).toContain('--target mock');
  });

  it('with sample data the mock refuses, naming the place', async () => {
    const { code, stderr } = await run(['--target', 'mock', '--data', fileURLToPath(new URL('./fixtures/bad-shop.json', import.meta.url))]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^--data \S+bad-shop\.json is not valid sample data:\n {2}orders\[0\]\.phoneNumber: must be an E\.164 phone number/);
  });
});
