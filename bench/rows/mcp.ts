import { createEngageMcpServer } from '@engagekit/mcp-server';
import { createMockApi } from '@engagekit/mock-server';
import { createClient } from '@engagekit/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { atMost, type Bench, inTurns, row, turnsNote } from '../lib.ts';

const CAMPAIGN = { name: 'bench', schedule_type: 'once', schedule: '2030-01-15T10:00:00Z', template_payload: { template_name: 'welcome' } } as const;

/** Mean wall time of `calls` calls one after another, in milliseconds. */
async function msPerCall(calls: number, call: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) await call();
  return (performance.now() - t0) / calls;
}

/**
 * `execute` running one `campaigns.get` on the mock, through the official MCP client over an in-memory
 * transport (JSON-RPC, the tool's input check, type stripping, a fresh QuickJS runtime and context, the
 * prelude, the bridge, the SDK on the host, the report), vs the same SDK call made directly in the host
 * against a mock of its own. Wall time a call, both sides in this process, in turns.
 */
export const mcpExecuteOverhead: Bench = {
  id: 'mcp.execute.overhead',
  async run() {
    const engage = createEngageMcpServer({ target: 'mock' });
    await engage.start();
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await engage.connect(serverSide);
    const mcp = new Client({ name: 'bench', version: '1.0.0' });
    await mcp.connect(clientSide);

    const mock = createMockApi({ seed: 1 });
    await mock.ready;
    const sdk = createClient({ baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid, fetch: mock.fetch });
    try {
      const created = await mcp.callTool({ name: 'execute', arguments: { code: `return (await client.campaigns.create(${JSON.stringify(CAMPAIGN)})).id` } });
      const inSandbox = (created.structuredContent as { result?: string }).result;
      if (!inSandbox) throw new Error(`execute did not create the campaign: ${JSON.stringify(created.content)}`);
      const direct = (await sdk.campaigns.create(CAMPAIGN)).id;
      const code = `return await client.campaigns.get(${JSON.stringify(inSandbox)})`;
      const execute = async () => {
        const r = await mcp.callTool({ name: 'execute', arguments: { code } });
        if (r.isError) throw new Error(JSON.stringify(r.content));
      };
      const get = () => sdk.campaigns.get(direct);
      // Warm-up: JIT, the WebAssembly module's first runtimes, the SDK's lazy parts.
      for (let i = 0; i < 30; i++) await execute();
      for (let i = 0; i < 300; i++) await get();
      // 9 rounds of 100 executes and 3,000 direct calls (each side about 0.1 to 0.5 s a round): each
      // round's mean, then the rounds' median.
      const r = await inTurns(9, { ours: () => msPerCall(100, execute), peer: () => msPerCall(3_000, get) });
      return row({
        id: 'mcp.execute.overhead',
        metric:
          'execute running one campaigns.get on the mock (MCP client over an in-memory transport, a fresh QuickJS runtime, the bridge, the SDK) vs the same SDK call made directly in the host: wall ms a call (median of 9 rounds)',
        ours: Math.round(r.ours.median * 1000) / 1000,
        peer: Math.round(r.peer.median * 1000) / 1000,
        unit: 'ms/call',
        better: 'lower',
        goal: atMost(GOAL_RATIO, 'set from the first measurement'),
        note: `ours by round (ms): ${turnsNote(r.ours, 3)}; peer by round (ms): ${turnsNote(r.peer, 3)}`,
      });
    } finally {
      await mcp.close();
      await engage.close();
      await mock.close();
    }
  },
};

/** execute's time over the direct call's, at most: set from the first measurement (see BENCHMARKS.md). */
const GOAL_RATIO = 150;

export const benches: Bench[] = [mcpExecuteOverhead];
