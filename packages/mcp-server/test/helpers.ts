/** Connects the official MCP client to a server made by `createEngageMcpServer`, over an in-memory transport. */
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createEngageMcpServer, type EngageMcpServerOptions, type ExecuteReport } from '../src/index.ts';

/** test/fixtures/shop.json: two customers, an order each (the mock's fixture format). */
export const SHOP_DATA = JSON.parse(readFileSync(new URL('./fixtures/shop.json', import.meta.url), 'utf8')) as object;

/** A client connected to a fresh server, and a way to close both. */
export interface Connected {
  client: Client;
  /** Runs `execute` and returns its structured report with the text a model reads. */
  execute(code: string, extra?: { dry_run?: boolean; reset?: boolean }): Promise<ExecuteReport & { text: string; isError: boolean }>;
  close(): Promise<void>;
}

/** A server made with `options`, started, and the official MCP client connected to it in memory. */
export async function connect(options: EngageMcpServerOptions): Promise<Connected> {
  const engage = createEngageMcpServer(options);
  await engage.start();
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await engage.connect(serverSide);
  const client = new Client({ name: 'engagekit-tests', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    async execute(code, extra = {}) {
      const result = (await client.callTool({ name: 'execute', arguments: { code, ...extra } })) as CallToolResult;
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      return { ...(result.structuredContent as unknown as ExecuteReport), text, isError: result.isError === true };
    },
    async close() {
      await client.close();
      await engage.close();
    },
  };
}

/** Code for a `createCampaign` body: `nameCode` (JavaScript: `'Friday sale'`, or a variable) runs `minutes` after the mock's now. */
export const campaignIn = (nameCode: string, minutes = 60) => `{
  name: ${nameCode},
  schedule_type: 'once',
  schedule: new Date(mock.clock.now().getTime() + ${minutes} * 60_000).toISOString(),
  template_payload: { template_name: 'welcome' },
}`;
